"""A small driver for headless Chromium over the DevTools protocol on a pipe (no Python packages,
no browser download): open a page at a width, light or dark, record console errors and every
request, evaluate scripts and take screenshots.

Every read from the browser has a deadline (``Browser(..., timeout=...)``, 60 s by default or
``PNP_CHROMIUM_TIMEOUT``): a browser that hangs fails the test with a BrowserError that names the
command it did not answer, instead of hanging the suite."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

TIMEOUT = float(os.environ.get("PNP_CHROMIUM_TIMEOUT", "60"))  # seconds the browser has to answer

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def find_chromium() -> str | None:
    """Return the path of a Chromium executable, or None when the machine has none."""
    given = os.environ.get("PNP_CHROMIUM")
    if given:
        return given
    for path in CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


class BrowserError(RuntimeError):
    """The browser answered a command with an error or went away."""


@dataclass
class PageLog:
    """What a loaded page did: console errors, uncaught exceptions, requested URLs."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


class Browser:
    """One headless Chromium process spoken to over --remote-debugging-pipe."""

    def __init__(self, executable: str, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="pnp-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4
        self.process = subprocess.Popen(
            [
                executable,
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=_pipes_at_3_and_4(to_browser_r, from_browser_w),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def close(self) -> None:
        """Stop the browser and remove its profile folder."""
        try:
            self.send("Browser.close")
        except BrowserError:
            self.process.kill()  # hung or gone: do not wait for it
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        """Return the next message, or raise BrowserError when none is whole by the deadline."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready = select.select([self._from_browser], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise BrowserError(
                    f"the browser did not answer {waiting_for} within {self.timeout:g} s"
                    " (hung or overloaded; PNP_CHROMIUM_TIMEOUT sets the deadline)"
                )
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send a command and return its result; events that arrive meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        except OSError as exc:
            raise BrowserError(f"{method}: the browser went away ({exc})") from None
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._read_message(deadline, method)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            self._events.append(answer)

    def wait_for(self, method: str, session: str) -> dict[str, Any]:
        """Return the first kept or coming event of a method for a session."""
        deadline = time.monotonic() + self.timeout
        while True:
            for n, event in enumerate(self._events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self._events.pop(n)
            self._events.append(self._read_message(deadline, method))

    def events(self, session: str) -> list[dict[str, Any]]:
        """Return (and forget) the kept events of a session."""
        mine = [e for e in self._events if e.get("sessionId") == session]
        self._events = [e for e in self._events if e.get("sessionId") != session]
        return mine

    @contextmanager
    def page(self, url: str, width: int, dark: bool = False, height: int = 800) -> Iterator[Page]:
        """Open url in a new tab of a width (CSS px), light or dark; yield the loaded page."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        try:
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.send(f"{domain}.enable", session)
            self.send(
                "Emulation.setDeviceMetricsOverride",
                session,
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=width < 600,
            )
            self.send(
                "Emulation.setEmulatedMedia",
                session,
                features=[{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}],
            )
            self.send("Page.navigate", session, url=url)
            self.wait_for("Page.loadEventFired", session)
            page = Page(self, session)
            page.evaluate("document.fonts.ready.then(() => true)")
            yield page
        finally:
            self.send("Target.closeTarget", targetId=target)


class Page:
    """A loaded tab: evaluate scripts, read its log, take screenshots."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session
        self.log = PageLog()

    def evaluate(self, expression: str) -> Any:
        """Return the value of a JavaScript expression (awaiting a promise)."""
        result = self.browser.send(
            "Runtime.evaluate", self.session, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def collect(self) -> PageLog:
        """Return the page's console errors, exceptions and requests so far."""
        for event in self.browser.events(self.session):
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                args = params.get("args", [])
                self.log.errors.append(" ".join(str(a.get("value", a.get("description"))) for a in args))
            elif method == "Runtime.exceptionThrown":
                self.log.errors.append(params.get("exceptionDetails", {}).get("text", "exception"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                self.log.errors.append(params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                self.log.requests.append(params.get("request", {}).get("url", ""))
        return self.log

    def screenshot(self, path: str, full_page: bool = True) -> None:
        """Write a PNG of the page (the whole length of it when full_page)."""
        import base64

        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full_page}
        if full_page:
            size = self.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 16000), "scale": 1}
        data = self.browser.send("Page.captureScreenshot", self.session, **params)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))


def _pipes_at_3_and_4(read_end: int, write_end: int):
    def setup() -> None:
        read_copy, write_copy = os.dup(read_end), os.dup(write_end)  # neither is 3 or 4 now
        os.dup2(read_copy, 3)
        os.dup2(write_copy, 4)

    return setup

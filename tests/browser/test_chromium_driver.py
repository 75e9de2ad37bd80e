"""The Chromium driver's deadline: a browser that hangs or dies fails the test that uses it with
a message naming the command, instead of hanging the suite (no Chromium needed: stand-ins for a
hung and a crashed browser)."""

from __future__ import annotations

import os
import threading

from tests.browser.chromium import Browser, BrowserError


def _stand_in(tmp_path, body: str) -> str:
    """Return an executable that acts as a browser: it keeps the DevTools pipes and runs body."""
    path = tmp_path / "browser"
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    os.chmod(path, 0o755)
    return str(path)


def _outcome(browser: Browser, method: str) -> list[BaseException]:
    """Send a command from a thread; return what it raised (empty when it is still waiting)."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            browser.send(method)
        except BaseException as exc:  # handed back to the test
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)  # far beyond the deadline: still waiting means the driver hangs
    return raised


def test_a_hung_browser_fails_with_a_message_instead_of_hanging(tmp_path):
    browser = Browser(_stand_in(tmp_path, "exec sleep 600"), timeout=0.5)
    try:
        raised = _outcome(browser, "Browser.getVersion")
        assert raised, "the driver is still waiting for a browser that never answers"
        assert isinstance(raised[0], BrowserError)
        assert "did not answer Browser.getVersion within 0.5 s" in str(raised[0])
    finally:
        browser.close()
    assert browser.process.poll() is not None  # the hung process is stopped, not left behind


def test_a_browser_that_exits_fails_with_a_message(tmp_path):
    browser = Browser(_stand_in(tmp_path, "exit 0"), timeout=30)
    try:
        raised = _outcome(browser, "Browser.getVersion")
        assert raised and isinstance(raised[0], BrowserError)
        assert "closed its pipe" in str(raised[0]) or "went away" in str(raised[0])
    finally:
        browser.close()

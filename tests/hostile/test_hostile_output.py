"""Items 8 to 11: the output folder. A kit is swapped in whole (interrupted or concurrent builds
never leave a mixed kit), stale temporary files are cleared, a malformed manifest of another kit
is reported and skipped, output names are reserved, HTML is escaped, and SOURCE_DATE_EPOCH
changes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from html.parser import HTMLParser

import pytest

from generator.kits.plan import BuildRequest
from generator.kits.run import run_build
from tests.hostile.fuzz_defs import base, toml_str
from tests.hostile.helpers import ROOT, cli, mini_kit


def _build(out, *games, **options):
    return run_build(BuildRequest(**{"games": games, "out": str(out), **options}))


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> str:
    """Return the layouts folder of the one-booklet kit ``mini`` (helpers.MINI_TOML): the tests of
    the output folder and its home page need a kit in it, not a large one."""
    return mini_kit(str(tmp_path_factory.mktemp("mini")))


def kit_state(folder) -> str | None:
    """Return the paper of a whole kit in folder (None when there is none); fail on a mixed kit."""
    if not os.path.exists(folder):
        return None
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    listed = {f["name"]: f["sha256"] for f in manifest["files"]}
    assert sorted(os.listdir(folder)) == sorted([*listed, "manifest.json"])
    for name, digest in listed.items():
        with open(os.path.join(folder, name), "rb") as handle:
            assert hashlib.sha256(handle.read()).hexdigest() == digest, name
    return manifest["paper"]


def _build_process(out, paper: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "build",
            "nine-mens-morris",
            "--paper",
            paper,
            "--out",
            str(out),
            "-q",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_killed_rebuilds_never_leave_a_mixed_kit(tmp_path):
    _build(tmp_path, "nine-mens-morris", formats=["pdf"])
    kit = tmp_path / "nine-mens-morris"
    assert kit_state(kit) == "a4"
    for delay in (0.4, 0.8, 1.2, 1.6):
        process = _build_process(tmp_path, "letter")
        time.sleep(delay)
        process.kill()
        process.communicate(timeout=60)
        assert kit_state(kit) in ("a4", "letter", None)
    _build(tmp_path, "nine-mens-morris", formats=["pdf"])
    assert kit_state(kit) == "a4"
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


def test_concurrent_builds_into_one_folder_leave_one_whole_kit(tmp_path):
    processes = [_build_process(tmp_path, paper) for paper in ("a4", "letter")]
    for process in processes:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    assert kit_state(tmp_path / "nine-mens-morris") in ("a4", "letter")


def test_stale_temporary_files_are_cleared(tmp_path, mini):
    (tmp_path / ".tmp-abc123").write_bytes(b"")
    (tmp_path / ".tmp-mini-xyz").mkdir()
    (tmp_path / ".tmp-mini-xyz" / "booklet.pdf").write_bytes(b"half")
    _build(tmp_path, "mini", formats=["pdf"], layouts=mini)
    assert sorted(os.listdir(tmp_path)) == ["index.html", "mini"]


@pytest.mark.parametrize("text", ["{", "[1, 2]", '{"files": [1]}', '{"files": "x"}', "\xff"])
def test_a_malformed_manifest_of_another_kit_is_reported_and_skipped(tmp_path, mini, text):
    out = tmp_path / "out"
    other = out / "other"
    other.mkdir(parents=True)
    (other / "manifest.json").write_bytes(text.encode("latin-1"))
    run = cli("build", "mini", "--layouts", mini, "--format", "pdf", "--out", str(out))
    assert run.code == 0, run.err
    assert "warning: skipped" in run.out and "other" in run.out
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "mini/kit.pdf" in index and 'id="other"' not in index
    assert cli("build", "mini", "--layouts", mini, "--format", "pdf", "--out", str(out), "-q").code == 0


def test_everything_in_the_contact_sheet_is_escaped(tmp_path, mini):
    evil = tmp_path / "<b>evil"
    evil.mkdir()
    manifest = {"title": "<script>x</script>", "seed": "<script>alert(1)</script>",
                "files": [{"name": "<img src=x onerror=alert(1)>.svg"}]}  # fmt: skip
    (evil / "manifest.json").write_text(json.dumps(manifest))
    _build(tmp_path, "mini", formats=["pdf"], layouts=mini)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<script" not in index and "<img src=x" not in index and "<b>evil" not in index
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index


@pytest.mark.parametrize(
    "name,kind",
    [("kit", "counters"), ("manifest", "counters"), ("index", "counters"), ("preview", "counters")],
)
def test_output_names_are_reserved(tmp_path, name, kind):
    data = base()
    data["components"][name] = data["components"].pop("pieces")
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    (layouts / "fuzz.toml").write_text(toml_str(data))
    for command in (
        ["check", str(layouts / "fuzz.toml")],
        ["build", "fuzz", "--layouts", str(layouts), "--out", str(tmp_path / "out")],
    ):
        run = cli(*command)
        assert run.code == 3, run.err
        assert f"components.{name}" in run.one_line_error()
    assert not (tmp_path / "out" / "fuzz").exists()


def test_source_date_epoch_changes_nothing(tmp_path, monkeypatch):
    _build(tmp_path / "plain", "nine-mens-morris", formats=["pdf"], parts=True)
    for value in ("1700000000", "0", "not-a-number"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
        _build(tmp_path / value, "nine-mens-morris", formats=["pdf"], parts=True)
        for name in ("kit.pdf", "board.pdf", "manifest.json"):
            a = (tmp_path / "plain" / "nine-mens-morris" / name).read_bytes()
            assert (tmp_path / value / "nine-mens-morris" / name).read_bytes() == a, (value, name)


@pytest.mark.parametrize("out", ["FILE", "/proc/pnp-out", "/dev/null"])
def test_unusable_output_folders_are_one_line_exit_2(tmp_path, mini, out):
    if out == "FILE":
        out = str(tmp_path / "file")
        (tmp_path / "file").write_text("x")
    for command in (["build", "mini", "--layouts", mini, "--format", "pdf"], ["calibrate"]):
        run = cli(*command, "--out", out)
        assert run.code == 2, run.err
        run.one_line_error()


def test_a_seed_of_any_valid_size_in_an_output_folder_sorts_beside_short_ones(tmp_path):
    out = str(tmp_path / "out")
    big = str(2**63 - 1)  # 19 digits, the largest seed
    for seed in (big, "12", big):
        run = cli("build", "aggression", "--seed", seed, "--out", out, "-q")
        assert run.code == 0, run.err
    with open(os.path.join(out, "index.html"), encoding="utf-8") as handle:
        index = handle.read()
    assert "aggression-seed12/" in index and f"aggression-seed{big}/" in index
    assert index.index("aggression-seed12/") < index.index(f"aggression-seed{big}/")


class _Links(HTMLParser):
    """Every href and src of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.links += [value for name, value in attrs if name in ("href", "src") and value]


def test_a_foreign_manifest_puts_no_link_outside_the_output_folder(tmp_path, mini):
    out = tmp_path / "out"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.pdf").write_text("not yours")
    evil = out / "evil"
    evil.mkdir(parents=True)
    os.symlink(outside / "secret.pdf", evil / "linked.pdf")
    names = ["../../etc/passwd", "/etc/passwd", "../outside/secret.pdf", "a/../../b.pdf", "linked.pdf",
             "..", ".", "", "kit.pdf\\..\\..\\x"]  # fmt: skip
    manifest = {
        "title": "Evil", "game": "evil", "files": [{"name": n} for n in names],
        "booklets": [{"lang": "en", "html": "../../etc/passwd", "pdf": "linked.pdf"}],
        "preview_of": "../../etc/passwd",
        "kit": {"components": [{"id": "../../../etc/passwd", "title": "x", "pages": [1, 1]}]},
    }  # fmt: skip
    (evil / "manifest.json").write_text(json.dumps(manifest))
    # a kit folder that is a link out of the output folder, with a manifest of its own
    (outside / "manifest.json").write_text(json.dumps({"title": "Far", "files": [{"name": "secret.pdf"}]}))
    os.symlink(outside, out / "far")
    os.symlink(outside / "secret.pdf", out / "nine-mens-morris-seeds1-2.pdf")
    os.symlink(outside / "secret.pdf", out / "mini-seeds1-2.pdf")
    run = cli("build", "mini", "--layouts", mini, "--format", "pdf", "--out", str(out), "-q")
    assert run.code == 0, run.err
    page = _Links()
    page.feed((out / "index.html").read_text(encoding="utf-8"))
    assert any(link.startswith("mini/") for link in page.links)
    real_out = os.path.realpath(out)
    for link in page.links:
        if link.startswith("#"):
            continue
        assert ":" not in link and not link.startswith("/"), link
        target = os.path.realpath(os.path.join(out, link.split("#")[0]))
        assert os.path.commonpath([real_out, target]) == real_out, link
    assert "passwd" not in " ".join(page.links) and "secret" not in " ".join(page.links)
    assert not any(link.startswith(("far/", "evil/linked")) for link in page.links)

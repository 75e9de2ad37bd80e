"""Shared fixtures: builds of real kits into temporary folders, and PDF/SVG readers."""

from __future__ import annotations

import atexit
import functools
import glob
import os
import shutil
import tempfile
import xml.etree.ElementTree as ET

import pytest

from generator.definitions.loader import load_all
from generator.definitions.values import BUILTIN_GAMES, GameDefinition
from generator.kits.plan import BuildRequest
from generator.kits.run import run_build
from generator.starter import starter_files, write_starter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARTER = "lanterns"  # the id the README's steps give `pnp new`


@functools.cache
def starter_layouts() -> str:
    """Return a layouts folder holding the starter kit ``pnp new`` writes, made once per process
    in a temporary folder (never in the repository, whose layouts/ may hold a reader's own games)."""
    root = tempfile.mkdtemp(prefix="pnp-starter-")
    atexit.register(shutil.rmtree, root, True)
    layouts = os.path.join(root, "layouts")
    write_starter(STARTER, layouts)
    return layouts


def kit_definitions(lang: str = "en") -> dict[str, GameDefinition]:
    """Return by id the definitions the suite checks every kit of: the built-in games and the
    starter kit (``starter_layouts``), so the starter passes every check the built-in games pass
    and games a reader adds to layouts/ never reach the suite."""
    definitions = {d.id: d for d in load_all(lang=lang)}
    definitions.update({d.id: d for d in load_all(starter_layouts(), lang)})
    return definitions


def layouts_for(game: str) -> dict[str, str]:
    """Return the build option that finds a game of kit_definitions: the starter's folder for the
    starter kit, nothing (the built-in games) otherwise."""
    return {"layouts": starter_layouts()} if game == STARTER else {}


def own_game_files(root: str = ROOT) -> list[str]:
    """Return the files of games of a reader's own in a checkout's layouts/ and templates/ (what
    ``pnp new`` wrote there, in any language), as paths relative to root."""
    found = []
    layouts = os.path.join(root, "layouts")
    for path in sorted(glob.glob(os.path.join(layouts, "*.toml"))):
        game = os.path.splitext(os.path.basename(path))[0]
        if game in BUILTIN_GAMES:
            continue
        files = {path, *starter_files(game, layouts)}
        files |= set(glob.glob(os.path.join(root, "templates", "*", f"{game}.*.j2")))
        found += [os.path.relpath(f, root) for f in sorted(files) if os.path.exists(f)]
    return found


SVG_NS = "{http://www.w3.org/2000/svg}"


def build(out: str, *games: str, **options) -> str:
    """Build kits into out with the CLI's defaults and ``--parts`` (the tests read each part's own
    PDF), ``options`` as BuildRequest's fields; return the summary line."""
    return run_build(
        BuildRequest(**{"games": games, "all_games": not games, "out": out, "parts": True, **options})
    )


@pytest.fixture(scope="session")
def nmm_kit(tmp_path_factory) -> str:
    """Return the folder of a Nine Men's Morris kit built on A4."""
    out = str(tmp_path_factory.mktemp("nmm"))
    build(out, "nine-mens-morris")
    return os.path.join(out, "nine-mens-morris")


@pytest.fixture(scope="session")
def all_kits(tmp_path_factory) -> str:
    """Return an output folder holding every built-in kit, built on two worker processes."""
    out = str(tmp_path_factory.mktemp("all"))
    build(out, jobs=2)
    return out


@pytest.fixture(scope="session")
def nmm_kit_letter(tmp_path_factory) -> str:
    """Return the folder of a Nine Men's Morris kit built on Letter."""
    out = str(tmp_path_factory.mktemp("nmm-letter"))
    build(out, "nine-mens-morris", paper="letter")
    return os.path.join(out, "nine-mens-morris")


@pytest.fixture(scope="session", params=["a4", "letter"])
def every_kit(request, tmp_path_factory) -> tuple[str, str]:
    """Return (output folder, paper) of every built-in kit built as PDF on A4 and on Letter."""
    out = str(tmp_path_factory.mktemp(f"every-{request.param}"))
    build(out, paper=request.param, formats=["pdf"])
    return out, request.param


def svg_root(path: str) -> ET.Element:
    """Return the parsed root element of an SVG file."""
    return ET.parse(path).getroot()


def mm(points: float) -> float:
    """Return a PDF length in points as millimetres."""
    return points * 25.4 / 72.0


# -- the fast tier ----------------------------------------------------------------------------------
# `pytest -m "not slow"` is the edit loop (CONTRIBUTING.md): every test but those that build every
# kit, drive Chromium, install the wheel, or play or analyse many games. CI runs them all.
SLOW_FIXTURES = {"every_kit", "all_kits", "kits", "shop", "ink_saver_kits", "home", "built", "browser"}
SLOW_FILES = {
    "tests/test_install.py",
    "tests/booklet/test_booklet_fit.py",
    "tests/booklet/test_every_booklet.py",
    "tests/bots/test_aggression_bots.py",
    "tests/bots/test_analyse.py",
    "tests/bots/test_balanced.py",
    "tests/bots/test_bots.py",
    "tests/bots/test_cluster.py",
    "tests/bots/test_fairness.py",
    "tests/bots/test_stall.py",
    "tests/bots/test_tactics.py",
    "tests/foundation/test_all_kits.py",
    "tests/foundation/test_batch.py",
    "tests/foundation/test_layout_all_kits.py",
    "tests/foundation/test_print_job.py",
    "tests/foundation/test_print_shop.py",
    "tests/foundation/test_readme_steps.py",
    "tests/foundation/test_small_marks.py",
    "tests/games/test_conformance.py",
    "tests/games/test_examples.py",
    "tests/games/test_perft.py",
    "tests/hostile/test_kit_budget.py",
    "tests/hostile/test_template_exhaustion.py",
    "tests/referee/test_referee_vs_computer.py",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow every test of SLOW_FILES or the browser folder, and every test using a fixture of
    SLOW_FIXTURES (each builds every kit or starts a browser)."""
    for item in items:
        path = os.path.relpath(str(item.path), ROOT).replace(os.sep, "/")
        fixtures = set(getattr(item, "fixturenames", ()))
        if path in SLOW_FILES or path.startswith("tests/browser/") or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)

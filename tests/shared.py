"""What several test files share, held in one module: pytest imports ``tests/conftest.py`` as
``conftest`` and the test files import it again as ``tests.conftest``, so a cache kept there would be
kept twice. Builds of real kits (``build``, and ``shared_build``: one build a test process for every
test that reads the same kit) and the package's module files."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile

from generator.definitions.loader import load_all
from generator.definitions.values import GameDefinition
from generator.kits.plan import BuildRequest
from generator.kits.run import run_build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "generator")


def build(out: str, *games: str, **options) -> str:
    """Build kits into out with the CLI's defaults and ``--parts`` (the tests read each part's own
    PDF), ``options`` as BuildRequest's fields; return the summary line."""
    return run_build(
        BuildRequest(**{"games": games, "all_games": not games, "out": out, "parts": True, **options})
    )


_SHARED: dict[str, str] = {}


def shared_build(*games: str, **options) -> str:
    """Return an output folder holding the kits ``build`` makes of games with options, built once a
    test process in a temporary folder and shared by every test that asks for the same build (in
    any words: the request's every field counts, defaults filled in). A test that only reads the
    kit uses it; a test that changes files in it builds its own."""
    request = BuildRequest(**{"games": games, "all_games": not games, "out": "", "parts": True, **options})
    key = repr(request)
    if key not in _SHARED:
        out = tempfile.mkdtemp(prefix="pnp-shared-")
        atexit.register(shutil.rmtree, out, True)
        build(out, *games, **options)
        _SHARED[key] = out
    return _SHARED[key]


def module_files(package_dir: str = PACKAGE) -> dict[str, str]:
    """Return every module of the package by dotted name, with its file."""
    modules = {}
    base = os.path.dirname(package_dir)
    for folder, _, names in os.walk(package_dir):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, base)[:-3].replace(os.sep, ".")
                modules[dotted.removesuffix(".__init__")] = path
    return modules


@functools.cache
def builtin_definitions() -> tuple[GameDefinition, ...]:
    """Return the built-in games' definitions, as ``load_all()`` reads them (sorted by id), read
    once a test process for the test files that collect a case per game (definitions are frozen)."""
    return tuple(load_all())

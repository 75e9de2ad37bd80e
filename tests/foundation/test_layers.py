"""The layer table in ARCHITECTURE.md is the law of imports: every import in generator/ (those
inside functions too) goes down the table or stays in its group, there are no circles, no module
is imported by name at run time, and outside packages stay in their corner."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.shared import ROOT, module_files

ARCHITECTURE = os.path.join(ROOT, "ARCHITECTURE.md")


@dataclass(frozen=True)
class Row:
    """One row of the layer table: its layer number, group and module patterns."""

    layer: int
    group: str
    patterns: tuple[str, ...]


def read_tables(path: str = ARCHITECTURE) -> tuple[list[Row], dict[str, set[str]]]:
    """Return the layer table and the outside-package table (package -> groups) of ARCHITECTURE.md."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    rows: list[Row] = []
    outside: dict[str, set[str]] = {}
    table = None
    for line in lines:
        if line.startswith("| layer | group |"):
            table = "layers"
            continue
        if line.startswith("| package | groups"):
            table = "outside"
            continue
        if not line.startswith("|"):
            table = None
            continue
        if line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if table == "layers":
            patterns = tuple(re.findall(r"`([^`]+)`", cells[2]))
            rows.append(Row(int(cells[0]), cells[1], patterns))
        elif table == "outside":
            package = cells[0].strip("`")
            outside[package] = {g.split("(")[0].strip() for g in cells[1].split(",")}
    return rows, outside


def imports_of(module: str, path: str, modules: dict[str, str]) -> tuple[set[str], set[str], list[str]]:
    """Return a module's imports: package modules, outside top-level packages, and run-time imports
    by name (importlib.import_module, __import__), wherever they are in the file."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    tree = ast.parse(text, path)
    is_package = path.endswith("__init__.py")
    inside: set[str] = set()
    outside: set[str] = set()
    dynamic: list[str] = []
    for node in _statements(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "generator":
                    inside.add(alias.name)
                else:
                    outside.add(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                name = ".".join(parts[:keep] + ([name] if name else []))
            if name.split(".")[0] != "generator":
                outside.add(name.split(".")[0])
                continue
            for alias in node.names:
                child = f"{name}.{alias.name}"
                inside.add(child if child in modules else name)
    # a call of import_module or __import__ names it in the text: walk every node only then
    for node in ast.walk(tree) if re.search(r"import_module|__import__", text) else ():
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                dynamic.append(f"{module}:{node.lineno}")
    inside.discard(module)
    return inside, outside, dynamic


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """Yield every statement under node, those inside functions, classes and blocks too (an import
    is a statement: the expressions between them need not be walked)."""
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for child in value:
                if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                    yield child
                    yield from _statements(child)


def row_of(module: str, rows: list[Row]) -> Row | None:
    """Return the table row a module belongs to (the most specific pattern that matches it)."""
    best: tuple[int, Row] | None = None
    for row in rows:
        for pattern in row.patterns:
            full = "generator" if pattern == "generator" else f"generator.{pattern}"
            if full.endswith(".*"):
                stem = full[:-2]
                matches = module == stem or module.startswith(stem + ".")
            else:
                matches = module == full
            if matches and (best is None or len(full) > best[0]):
                best = (len(full), row)
    return best[1] if best else None


def upward_arrows(graph: dict[str, set[str]], rows: list[Row]) -> list[str]:
    """Return every import that goes up the table or across to another group of the same layer."""
    problems = []
    for module, targets in sorted(graph.items()):
        mine = row_of(module, rows)
        assert mine is not None
        for target in sorted(targets):
            theirs = row_of(target, rows)
            assert theirs is not None, target
            if theirs.group != mine.group and theirs.layer >= mine.layer:
                problems.append(
                    f"{module} ({mine.layer} {mine.group}) imports {target} ({theirs.layer} {theirs.group})"
                )
    return problems


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one circle of imports as a list of modules (first repeated last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


ROWS, OUTSIDE = read_tables()
MODULES = module_files()
SCANNED = {m: imports_of(m, p, MODULES) for m, p in MODULES.items()}
GRAPH = {m: {t for t in inside if t in MODULES or t == "generator"} for m, (inside, _, _) in SCANNED.items()}


def test_the_table_names_every_module_and_only_real_ones() -> None:
    unplaced = sorted(m for m in MODULES if row_of(m, ROWS) is None)
    assert not unplaced, f"modules missing from the layer table in ARCHITECTURE.md: {unplaced}"
    for row in ROWS:
        for pattern in row.patterns:
            full = "generator" if pattern == "generator" else f"generator.{pattern}".removesuffix(".*")
            assert full in MODULES, f"ARCHITECTURE.md names {pattern!r}, which is not a module"


def test_every_import_names_a_module_that_exists() -> None:
    for module, (inside, _, _) in SCANNED.items():
        missing = sorted(t for t in inside if t not in MODULES)
        assert not missing, f"{module} imports {missing}"


def test_imports_go_down_the_layers() -> None:
    problems = upward_arrows(GRAPH, ROWS)
    assert not problems, "imports against the layer table:\n" + "\n".join(problems)


def test_no_circles_of_imports() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "a circle of imports: " + " -> ".join(cycle or [])


def test_no_module_is_imported_by_name_at_run_time() -> None:
    dynamic = [where for _, _, found in SCANNED.values() for where in found]
    assert not dynamic, f"run-time imports by name (use a table of imported modules): {dynamic}"


def test_outside_packages_stay_in_their_corner() -> None:
    problems = []
    for module, (_, outside, _) in sorted(SCANNED.items()):
        group = row_of(module, ROWS).group  # type: ignore[union-attr]
        for package in sorted(outside):
            if package in OUTSIDE and group not in OUTSIDE[package]:
                problems.append(f"{module} ({group}) imports {package}")
    assert not problems, "\n".join(problems)


# The checks themselves must be able to fail: run them over small made-up graphs.

LAYERS = [Row(1, "low", ("foundation.errors",)), Row(2, "left", ("games.*",)), Row(2, "right", ("render.*",))]
LAYERS += [Row(3, "top", ("cli.*",))]


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"generator.cli.app": {"generator.games.x", "generator.foundation.errors"}}, []),
        ({"generator.games.x": {"generator.games.base"}, "generator.games.base": set()}, []),
        (
            {"generator.foundation.errors": {"generator.cli.app"}},
            ["generator.foundation.errors (1 low) imports generator.cli.app (3 top)"],
        ),
        (
            {"generator.render.pdf": {"generator.games.x"}},
            ["generator.render.pdf (2 right) imports generator.games.x (2 left)"],
        ),
    ],
)
def test_upward_arrows_are_found(graph: dict[str, set[str]], expected: list[str]) -> None:
    assert upward_arrows(graph, LAYERS) == expected


def test_circles_are_found_and_straight_lines_are_not() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


def test_imports_inside_functions_and_by_name_are_read(tmp_path) -> None:
    package = tmp_path / "generator"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("import importlib\n\ndef f():\n    from generator import high\n")
    (package / "high.py").write_text(
        "from generator.low import f\n\ndef g():\n    return importlib.import_module('x')\n"
    )
    modules = module_files(str(package))
    inside, outside, dynamic = imports_of("generator.low", modules["generator.low"], modules)
    assert inside == {"generator.high"} and outside == {"importlib"} and dynamic == []
    inside, _, dynamic = imports_of("generator.high", modules["generator.high"], modules)
    assert inside == {"generator.low"} and dynamic == ["generator.high:4"]


def _slow_files() -> set[str]:
    """Return SLOW_FILES of tests/conftest.py: the test files every test of which is slow."""
    with open(os.path.join(ROOT, "tests", "conftest.py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SLOW_FILES" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("tests/conftest.py has no SLOW_FILES")


@pytest.mark.slow
def test_every_test_file_but_the_slow_ones_keeps_a_test_in_the_fast_tier():
    # CONTRIBUTING.md: the edit loop (`-m "not slow"`) touches every test file outside SLOW_FILES
    # and the browser folder
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-m",
            "not slow",
            "-p",
            "no:cacheprovider",
            "tests",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    # with the -q of addopts and this one, a line a file: "tests/...py: <tests collected>"
    counts = (line.rpartition(": ") for line in run.stdout.splitlines())
    fast = {path for path, _, n in counts if path.endswith(".py") and n.isdigit() and int(n) > 0}
    every = {
        os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
        for folder, _, names in os.walk(os.path.join(ROOT, "tests"))
        for name in names
        if name.startswith("test_") and name.endswith(".py")
    }
    kept = {path for path in every if path not in _slow_files() and not path.startswith("tests/browser/")}
    assert len(fast) > 50
    assert sorted(kept - fast) == []

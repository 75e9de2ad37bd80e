"""reportlab's and jinja2's private names are used in generator/foundation/compat.py alone, so a new release of
either breaks one module (and .ci/run's floor job runs the writer, font and sandbox tests at the
lowest versions pyproject.toml allows)."""

from __future__ import annotations

import ast
import os
import re

from tests.shared import PACKAGE, module_files

OUTSIDE = ("reportlab", "jinja2")


def _outside_names(tree: ast.AST) -> set[str]:
    """Return the names a module binds to things imported from reportlab or jinja2."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in OUTSIDE:
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {
                (a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in OUTSIDE
            }
    return names


def private_uses(path: str) -> list[str]:
    """Return a module's uses of private names where it touches reportlab or jinja2: attributes
    ``x._name`` of anything but its own ``self``/``cls``, methods ``_name`` of classes built on an
    outside class (a private hook overridden), and private names imported from either package."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    if not any(package in source for package in OUTSIDE):  # imports neither: nothing to parse
        return []
    tree = ast.parse(source, path)
    outside = _outside_names(tree)
    if not outside:
        return []
    private = re.compile(r"^_[^_]|^_$")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in OUTSIDE:
            found += [f"imports {a.name}" for a in node.names if private.match(a.name)]
        elif isinstance(node, ast.Attribute) and private.match(node.attr):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ClassDef):
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
            based = bases & outside or any(
                isinstance(b, ast.Attribute) and isinstance(b.value, ast.Name) and b.value.id in outside
                for b in node.bases
            )
            if based:
                found += [
                    f"line {f.lineno}: {node.name}.{f.name}"
                    for f in node.body
                    if isinstance(f, ast.FunctionDef) and private.match(f.name)
                ]
    return found


def test_private_names_of_reportlab_and_jinja2_live_in_the_compat_module_alone():
    offenders = {
        module: uses
        for module, path in module_files().items()
        if module != "generator.foundation.compat" and (uses := private_uses(path))
    }
    assert offenders == {}


def test_the_check_sees_each_kind_of_private_use(tmp_path):
    for source in (
        "from reportlab.pdfgen.canvas import Canvas\ndef f(c: Canvas):\n    return c._doc\n",
        "import jinja2\nclass E(jinja2.Environment):\n    def _parse(self, s, n, f):\n        return 1\n",
        "from jinja2 import StrictUndefined\nclass U(StrictUndefined):\n    def _fail_with_undefined_error(self):\n        pass\n",
        "from reportlab.lib.utils import _digester\n",
    ):
        path = tmp_path / "m.py"
        path.write_text(source, encoding="utf-8")
        assert private_uses(str(path)), source
    # the compat module itself holds them all: the check finds them there
    assert private_uses(os.path.join(PACKAGE, "foundation", "compat.py"))

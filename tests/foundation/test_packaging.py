"""What the wheel carries: every package of generator/ is listed in pyproject.toml, and the built-in
definitions and rule texts are mapped into it."""

from __future__ import annotations

import os
import tomllib

from tests.conftest import ROOT


def project() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as handle:
        return tomllib.load(handle)


def test_every_package_of_the_source_is_in_the_wheel():
    found = sorted(
        os.path.relpath(folder, ROOT).replace(os.sep, ".")
        for folder, _, files in os.walk(os.path.join(ROOT, "generator"))
        if "__init__.py" in files
    )
    listed = project()["tool"]["setuptools"]["packages"]
    assert (
        sorted(
            p
            for p in listed
            if p != "generator.layouts"
            and p != "generator.templates"
            and not p.startswith("generator.templates.")
        )
        == found
    )


def test_the_builtin_definitions_and_rule_texts_are_mapped_into_the_package():
    setuptools = project()["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"generator.layouts": "layouts", "generator.templates": "templates"}
    assert "*.toml" in setuptools["package-data"]["generator.layouts"]
    assert "*.j2" in setuptools["package-data"]["generator.templates.booklets"]

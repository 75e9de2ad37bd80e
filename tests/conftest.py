"""Shared fixtures: builds of real kits into temporary folders, and PDF/SVG readers."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

from generator.build.plan import BuildRequest
from generator.build.run import run_build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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

"""Helpers for booklet tests: small games in temporary folders, contexts, text read back from
PDF (tests/pdf_reader.py, on PDFium) and SVG (XML with group transforms applied)."""

from __future__ import annotations

import io
import os

import pytest

from generator.components.base import Context, Options
from generator.components.kinds import context as make_context
from generator.definitions.loader import find_definition, load_definition
from generator.definitions.values import GameDefinition
from generator.model.page import Page
from generator.printing.imposition import find_paper
from generator.render import WRITERS
from tests.pdf_reader import open_pdf
from tests.svg_reader import read_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
PT = 25.4 / 72.0

SMALL_BOARD = """
[components.board]
kind = "point-board"
title = "Board"
points = { a = [0, 0], b = [1, 0], c = [1, 1], d = [0, 1] }
lines = [["a", "b", "c", "d", "a"]]
size = "60mm"
"""


def make_game(
    folder: str,
    templates: dict[str, str],
    game_id: str = "test-game",
    booklet: str = "",
    extra: str = SMALL_BOARD,
    languages: tuple[str, ...] = ("en",),
) -> GameDefinition:
    """Write a layout with a booklet component and its templates ({lang: text}); return the definition."""
    layouts = os.path.join(folder, "layouts")
    booklets = os.path.join(folder, "templates", "booklets")
    os.makedirs(layouts, exist_ok=True)
    os.makedirs(booklets, exist_ok=True)
    langs = ", ".join(f'"{lang}"' for lang in languages)
    with open(os.path.join(layouts, f"{game_id}.toml"), "w", encoding="utf-8") as handle:
        handle.write(
            f'[game]\nid = "{game_id}"\ntitle = "Test Game"\nsubtitle = "A test"\nplayers = "2-4"\n'
            f'playing_time = "10 min"\nages = "6+"\nlanguages = [{langs}]\n'
            f'summary = "A game made for tests."\n'
            f'{extra}\n[components.booklet]\nkind = "booklet"\ntitle = "Rules"\n{booklet}\n'
        )
    for lang, text in templates.items():
        with open(os.path.join(booklets, f"{game_id}.{lang}.md.j2"), "w", encoding="utf-8") as handle:
            handle.write(text)
    return load_definition(os.path.join(layouts, f"{game_id}.toml"), os.path.join(folder, "templates"))


def context(definition: GameDefinition, paper: str = "a4", lang: str = "en") -> Context:
    """Return a build context for a definition."""
    return make_context(definition, find_paper(paper), options=Options(lang=lang))


@pytest.fixture(scope="session")
def nmm() -> GameDefinition:
    """Return the Nine Men's Morris definition."""
    return find_definition("nine-mens-morris")


def pdf_bytes(pages: list[Page]) -> bytes:
    """Return pages written as a PDF."""
    buffer = io.BytesIO()
    WRITERS["pdf"](pages, buffer)
    return buffer.getvalue()


def svg_bytes(page: Page) -> bytes:
    """Return one page written as SVG."""
    buffer = io.BytesIO()
    WRITERS["svg"]([page], buffer)
    return buffer.getvalue()


def pdf_spans(data: bytes) -> list[list[tuple[str, tuple[float, float, float, float], tuple[float, float]]]]:
    """Return per page the text spans: (text, bbox in mm, baseline origin in mm)."""
    out = []
    with open_pdf(stream=data) as doc:
        for page in doc:
            spans = []
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if span["text"].strip():
                            x0, y0, x1, y1 = span["bbox"]
                            ox, oy = span["origin"]
                            spans.append(
                                (span["text"], (x0 * PT, y0 * PT, x1 * PT, y1 * PT), (ox * PT, oy * PT))
                            )
            out.append(spans)
    return out


def svg_texts(data: bytes) -> list[tuple[str, float, float]]:
    """Return (text, x, y) of every text element of an SVG page, in page millimetres."""
    return [(p.geometry[0], *p.geometry[4]) for p in read_svg(data) if p.kind == "text"]


def lines_of(pieces: list[tuple[str, float, float]]) -> list[str]:
    """Return text pieces (text, x, baseline y) joined into lines, top to bottom, spaces removed."""
    pieces = sorted(pieces, key=lambda p: (p[2], p[1]))
    lines: list[list[tuple[str, float, float]]] = []
    for piece in pieces:
        if lines and abs(lines[-1][0][2] - piece[2]) < 0.3:
            lines[-1].append(piece)
        else:
            lines.append([piece])
    return ["".join("".join(t.split()) for t, _, _ in sorted(line, key=lambda p: p[1])) for line in lines]

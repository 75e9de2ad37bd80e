"""Every use of reportlab's and jinja2's private names, in one place.

The PDF writer draws with reportlab's canvas but writes some operators itself (circles as four
Béziers, text runs with their subsets' show operators) and compresses each page as it is finished;
the rule-text sandbox checks every parsed template and names undefined values by their dotted
path. Those need names neither package documents. They live here, each behind a small function
or class with a documented meaning, so that a new reportlab or jinja2 release breaks one module,
and CI runs the writer, font and sandbox tests at the lowest versions ``pyproject.toml`` allows
(``.ci/run``'s floor job) as well as the newest.

reportlab (4.0 to 5.x): ``Canvas._code`` (the page's operator list), ``Canvas._fillMode``,
``Canvas._doc`` (the document: subsets are numbered per document), ``Canvas._escape`` (string
escaping for the document's encoding), ``reportlab.pdfgen.canvas.PATH_OPS`` and the document's
``Pages.pages[-1].stream`` / ``.Contents``. jinja2 (3.1 to 3.x): ``Environment._parse`` and
``Undefined._undefined_message`` / ``_undefined_hint`` / ``_undefined_obj`` / ``_undefined_name``.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

import jinja2
from jinja2 import nodes
from jinja2.utils import missing

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


# -- reportlab ---------------------------------------------------------------------------------


def append_operators(canvas: Canvas, code: str) -> None:
    """Append PDF operators to the page the canvas is drawing (reportlab's operator list)."""
    canvas._code.append(code)  # type: ignore[attr-defined]


def path_paint(canvas: Canvas, stroke: int, fill: int) -> str:
    """Return the operator that paints the current path: stroked and/or filled with the canvas's
    fill rule (even-odd or nonzero), or ended unpainted; the operator reportlab's drawPath writes."""
    from reportlab.pdfgen.canvas import PATH_OPS  # type: ignore[attr-defined]

    return str(PATH_OPS[stroke, fill, canvas._fillMode])  # type: ignore[attr-defined]


def canvas_document(canvas: Canvas) -> Any:
    """Return the canvas's document, which numbers a face's subsets (TTFont.splitString and
    getSubsetInternalName take it)."""
    return canvas._doc  # type: ignore[attr-defined]


def escape_text(canvas: Canvas, text: str | bytes) -> str:
    """Return text escaped for a PDF string literal the way the canvas escapes it."""
    return str(canvas._escape(text))  # type: ignore[attr-defined]


def compress_last_page(canvas: Canvas) -> None:
    """Compress the page just finished now rather than when the file is saved.

    reportlab keeps every page's drawing code as text until ``save``; compressing each page as it
    is finished keeps memory small and flat for long documents (a thousand seeded maps). The bytes
    written are the same as reportlab's own compression gives."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream

    page = canvas._doc.Pages.pages[-1]  # type: ignore[attr-defined]
    if page.Contents is None and page.stream:
        code = page.stream.encode("utf-8") if isinstance(page.stream, str) else page.stream
        contents = PDFStream(
            PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}), zlib.compress(code)
        )
        contents.__Comment__ = "page stream"  # type: ignore[attr-defined]  # reportlab writes it as a comment
        page.Contents = contents
        page.stream = None


# -- jinja2 ------------------------------------------------------------------------------------


class CheckedParse:
    """A mixin for a jinja2 Environment: every template it parses (from a string, a file or an
    include) is handed to ``check_tree`` before it is compiled, which may raise to refuse it."""

    def check_tree(self, tree: nodes.Template) -> None:
        """Refuse a parsed template by raising; the default accepts every template."""

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree: nodes.Template = super()._parse(source, name, filename)  # type: ignore[misc]
        self.check_tree(tree)
        return tree


class DottedUndefined(jinja2.StrictUndefined):
    """StrictUndefined whose messages name the full dotted variable, e.g. 'rules.men': a value
    whose owner has a ``path`` string attribute is named ``<path>.<name>``."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        if self._undefined_hint:
            return self._undefined_hint
        owner = getattr(self._undefined_obj, "path", None)
        if self._undefined_obj is not missing and isinstance(owner, str):
            return f"{owner}.{self._undefined_name} is undefined"
        if self._undefined_obj is missing:
            return f"{self._undefined_name} is undefined"
        return super()._undefined_message


def last_image(canvas: Canvas) -> tuple[str, str]:
    """Return the name and the document's XObject name of the image ``drawImage`` just drew."""
    raw: Any = canvas  # reportlab's private state: no stubs
    name: str = raw._formsinuse[-1]
    return name, raw._doc.getXObjectName(name)


def draw_stored_image(canvas: Canvas, image: tuple[str, str], width: float, height: float) -> None:
    """Draw an image the document stores already (``last_image`` of its first drawing) over a
    width x height box at the origin, writing what ``Canvas.drawImage`` writes for it (same bytes)
    without hashing its pixels again to find it, as drawImage does at every use."""
    raw: Any = canvas
    name, reference = image
    raw._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(0, 0)
    canvas.scale(width, height)
    raw._code.append(f"/{reference} Do")
    canvas.restoreState()
    raw._formsinuse.append(name)

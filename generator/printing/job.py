"""The print job: a kit as a stack of sheets in the order they come out of the printer.

A sheet has a front and a back page, a stock (paper or card) and a side mode: single-sided (the
back stays blank, so cut pieces carry no ink on their backs) or duplex (the back carries the
pieces' backs, or the next booklet side). ``kit.pdf`` is the sheets in order, front then back:
printed double-sided with a long-edge flip, every sheet starts on an odd page. Every page is
portrait; a landscape page is turned on the sheet (its drawing rotated, no /Rotate entry).

The flip map says where a point of a front lands on the back; the fold map says which booklet
page a side's half becomes. Tests run both to prove that backs lie behind their fronts and that
the booklet reads in order. With ``single_sided`` there are no blank backs and the booklet comes
as plain pages, two to a sheet in reading order. With ``gutter_fold`` the parts with a back go on
gutter-fold sheets instead of duplex ones (``generator.printing.gutter``: fronts and backs on one
side, folded and glued), and the job is single-sided.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from generator.foundation.languages import text as catalogue_text
from generator.model.inline import Icons
from generator.model.page import Group, Page, Point
from generator.printing.gutter import Fold, gutter_sheet, plan_gutter
from generator.printing.imposition import Paper, SheetItem, booklet_plain, impose_booklet, scale_bar
from generator.printing.packing import Block, PackedSheet, packed_sheets

FLIP = "long"  # the home printer's default for portrait pages


@dataclass(frozen=True)
class Sheet:
    """One sheet of the kit: front and back pages (back None: blank), its stock and parts."""

    front: Page
    back: Page | None
    stock: str
    parts: tuple[str, ...]
    is_packed: bool = False  # cut-out parts of one stock packed together
    fold: Fold | None = None  # a gutter-fold sheet (--gutter-fold): fronts and backs on one side

    @property
    def is_duplex(self) -> bool:
        """Return True when the back of the sheet is printed."""
        return self.back is not None


@dataclass(frozen=True)
class Part:
    """A component's pages as the job receives them: its id, stock and pages (booklet: in
    reading order, to impose)."""

    id: str
    stock: str
    pages: Sequence[Page]
    booklet: bool = False
    items: tuple[SheetItem, ...] = ()  # cut-out parts to pack with the other parts of the stock


def flip_point(x: float, y: float, width: float, height: float, edge: str = FLIP) -> Point:
    """Return the point on the back of a sheet of width x height mm behind (x, y) on its front.

    Over the long edge of a portrait sheet x becomes width - x; over the short edge y becomes
    height - y (and the other way round for a landscape sheet)."""
    turns_x = (edge == "long") == (height >= width)
    return (width - x, y) if turns_x else (x, height - y)


def upright(page: Page) -> Page:
    """Return the page as portrait: a landscape page's drawing turned a quarter turn clockwise."""
    if page.width <= page.height:
        return page
    return Page(
        page.height,
        page.width,
        (Group(page.shapes, (0.0, 1.0, -1.0, 0.0, page.height, 0.0)),),
        label=page.label,
        is_back=page.is_back,
        cuts=tuple((page.height - y1, x0, page.height - y0, x1) for x0, y0, x1, y1 in page.cuts),
        bleed=page.bleed,
    )


def blank(paper: Paper) -> Page:
    """Return an empty portrait page: the unprinted back of a single-sided sheet."""
    portrait = paper.portrait()
    return Page(portrait.width, portrait.height, label="blank back")


def part_sheets(part: Part, paper: Paper, single_sided: bool, lang: str) -> list[Sheet]:
    """Return the sheets of one part: a page followed by a back page (``is_back``) makes a duplex
    sheet; a booklet is imposed for the long-edge flip (or two plain pages a sheet)."""
    if part.booklet:
        sides = (
            booklet_plain(list(part.pages), paper)
            if single_sided
            else impose_booklet(list(part.pages), paper, FLIP)
        )
        pages = [scale_bar(upright(side), paper.portrait(), lang) for side in sides]
    else:
        pages = [upright(page) for page in part.pages]
    sheets: list[Sheet] = []
    i = 0
    while i < len(pages):
        front = pages[i]
        back = pages[i + 1] if i + 1 < len(pages) and pages[i + 1].is_back else None
        sheets.append(Sheet(front, back, part.stock, (part.id,)))
        i += 2 if back is not None else 1
    return sheets


def job_sheets(
    parts: list[Part],
    paper: Paper,
    single_sided: bool = False,
    lang: str = "en",
    label: str = "",
    duplex_offset: tuple[float, float] = (0.0, 0.0),
    bleed: float = 0.0,
    papers: dict[str, Paper] | None = None,
    gutter_fold: bool = False,
    icons: Icons | None = None,
) -> list[Sheet]:
    """Return the sheets of a kit's parts in order. Parts with items are packed together by stock
    (on the paper ``papers`` gives for the stock, the paper with another margin, else on
    ``paper``), their sheets placed where the first of them comes (with gutters of twice the
    ``bleed``). With ``gutter_fold`` the items with a back go on gutter-fold sheets
    (``generator.printing.gutter``) after the stock's other sheets, never on a backs page. The
    footers' icons (the game's title's) are drawn from ``icons``."""
    pools: dict[str, list[Block]] = {}
    for part in parts:
        if part.items:
            pools.setdefault(part.stock, []).extend(Block(item, part.id) for item in part.items)
    order = {part.id: n for n, part in enumerate(parts)}
    sheets: list[Sheet] = []
    for part in parts:
        if not part.items:
            sheets.extend(part_sheets(part, paper, single_sided, lang))
            continue
        blocks = pools.pop(part.stock, None)
        if blocks is None:
            continue  # packed with an earlier part of the same stock
        packing = (papers or {}).get(part.stock, paper).portrait()
        stock = catalogue_text(f"stock.{part.stock}", lang)
        sheet_label = catalogue_text(
            "footer.parts" if label else "footer.parts.alone", lang, label=label, stock=stock
        )
        folded = [b for b in blocks if b.item.back is not None] if gutter_fold else []
        plain = [b for b in blocks if b.item.back is None] if gutter_fold else blocks
        planned = plan_gutter(folded, packing, bleed) if folded else []
        packed = packed_sheets(plain, packing, sheet_label, duplex_offset, bleed, lang, len(planned), icons)
        for one in packed:
            ids = tuple(sorted(one.parts, key=order.__getitem__))
            sheets.append(_PackedJobSheet(packed=one, paper=packing, lang=lang, stock=part.stock, parts=ids))
        for number, (edge, placement) in enumerate(planned, len(packed) + 1):
            made = gutter_sheet(
                edge, placement, packing, sheet_label, number, len(packed) + len(planned), bleed, lang, icons
            )
            ids = tuple(sorted(made.parts, key=order.__getitem__))
            front = scale_bar(made.page, packing, lang)
            sheets.append(Sheet(front, None, part.stock, ids, is_packed=True, fold=made.fold))
    return sheets


class _PackedJobSheet(Sheet):
    """A sheet of packed parts whose pages (with the scale check) are drawn each time they are
    read, none kept: a deck's sheets are drawn as kit.pdf is written, one sheet at a time."""

    _packed: PackedSheet
    _paper: Paper
    _lang: str

    def __new__(cls, *args: Any, **fields: Any) -> Any:
        if "packed" not in fields:  # dataclasses.replace(sheet, front=...): a sheet as drawn
            return Sheet(*args, **fields)
        return super().__new__(cls)

    def __init__(
        self, *, packed: PackedSheet, paper: Paper, lang: str, stock: str, parts: tuple[str, ...]
    ) -> None:
        object.__setattr__(self, "stock", stock)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "is_packed", True)
        object.__setattr__(self, "_packed", packed)
        object.__setattr__(self, "_paper", paper)
        object.__setattr__(self, "_lang", lang)

    @property
    def front(self) -> Page:
        """Return the sheet's front page, drawn now."""
        return scale_bar(self._packed.front, self._paper, self._lang)

    @property
    def back(self) -> Page | None:
        """Return the sheet's backs page (drawn now), None when its parts have no backs."""
        back = self._packed.back
        return None if back is None else scale_bar(back, self._paper, self._lang)

    @property
    def is_duplex(self) -> bool:
        """Return True when the back of the sheet is printed (known without drawing it)."""
        return self._packed.has_back


def job_pages(sheets: list[Sheet], paper: Paper, single_sided: bool = False) -> list[Page]:
    """Return the pages of kit.pdf: each sheet's front and back (a blank page for a single-sided
    sheet, unless the job is single-sided, where only printed pages remain)."""
    return list(iter_job_pages(sheets, paper, single_sided))


def iter_job_pages(sheets: list[Sheet], paper: Paper, single_sided: bool = False) -> Iterator[Page]:
    """Yield the pages of ``job_pages`` one after the other, each sheet's drawn when it comes."""
    for sheet in sheets:
        yield sheet.front
        if sheet.is_duplex:
            back = sheet.back
            assert back is not None
            yield back
        elif not single_sided:
            yield blank(paper)


def sheet_pages(sheets: list[Sheet], single_sided: bool = False, start: int = 1) -> list[tuple[int, int]]:
    """Return the first and last page number of every sheet in job_pages (pages from start)."""
    numbers: list[tuple[int, int]] = []
    number = start
    for sheet in sheets:
        count = 2 if sheet.is_duplex or not single_sided else 1
        numbers.append((number, number + count - 1))
        number += count
    return numbers


def page_ranges(sheets: list[Sheet], single_sided: bool = False) -> dict[str, tuple[int, int]]:
    """Return for every part id its first and last page number (1-based) in job_pages."""
    ranges: dict[str, tuple[int, int]] = {}
    for sheet, (first, last) in zip(sheets, sheet_pages(sheets, single_sided)):
        for part in sheet.parts:
            ranges[part] = (ranges.get(part, (first, last))[0], last)
    return ranges


def paired(pages: list[Page], single_sided: bool) -> list[Page]:
    """Return pages of running text (a guide) as duplex sheets: every second page printed on the
    back of the one before, unless the job is single-sided."""
    return [
        Page(p.width, p.height, p.shapes, p.label, is_back=not single_sided and i % 2 == 1)
        for i, p in enumerate(pages)
    ]

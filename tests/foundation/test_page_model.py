"""The page model is made of values: pages, shapes, outputs and sheets are never changed once made.
The print job makes its print pages (scale check, imposition) as new pages; writers only read.
Checked on every built-in kit: the pages a component drew are the same after the build has written
them, and the scale check lies on the printed pages only (a part's PDF, kit.pdf), never on its SVG."""

from __future__ import annotations

import copy
import dataclasses
import io

import pytest

from generator.foundation.languages import text as catalogue_text
from generator.kits.kit import component_outputs, print_pages
from generator.kits.plan import kit_plan
from generator.model.page import Page, Rect, Text, iter_shapes
from generator.printing.imposition import is_paper_page
from generator.printing.job import Part, job_pages, job_sheets
from generator.render import find_writer
from tests.shared import builtin_definitions

SCALE_TEXT = catalogue_text("scale.check", "en", n="30")


def texts(page: Page) -> list[str]:
    return [shape.text for shape, _ in iter_shapes(page.shapes) if isinstance(shape, Text)]


def test_pages_and_outputs_cannot_be_changed() -> None:
    page = Page(100.0, 100.0, (Rect(0, 0, 10, 10),), label="a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.label = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.cuts = ((0.0, 0.0, 1.0, 1.0),)  # type: ignore[misc]
    more = page.plus(Rect(5, 5, 1, 1))
    assert len(page.shapes) == 1 and len(more.shapes) == 2 and more.label == "a"
    assert isinstance(Page(1.0, 1.0, [Rect(0, 0, 1, 1)]).shapes, tuple)  # type: ignore[arg-type]


@pytest.mark.parametrize("definition", builtin_definitions(), ids=lambda d: d.id)
def test_building_a_kit_changes_no_page_a_component_drew(definition) -> None:
    kit = kit_plan(definition)
    outputs = component_outputs(definition, kit.context())
    before = copy.deepcopy(outputs)
    parts = []
    for component, output in outputs:
        printed = print_pages(output, kit.paper, "en")
        for drawn, shown in zip(output.pages, printed):
            on_paper = is_paper_page(drawn, kit.paper) and not output.booklet
            # the scale check is on the printed page, never on the page as drawn (its SVG)
            assert SCALE_TEXT not in texts(drawn), f"{definition.id}: {output.name}: {drawn.label}"
            assert (SCALE_TEXT in texts(shown)) == on_paper, f"{definition.id}: {output.name}: {shown.label}"
        for fmt in ("svg", "pdf"):
            for page in printed if fmt == "pdf" else output.pages:
                find_writer(fmt)([page], io.BytesIO(), "t")
        if output.in_kit:
            parts.append(Part(component, "paper", printed, output.booklet, output.items or ()))
    sheets = job_sheets(parts, kit.paper)
    job = job_pages(sheets, kit.paper)
    find_writer("pdf")(job, io.BytesIO(), "kit")
    assert outputs == before, f"{definition.id}: a page changed while the kit was built and written"
    assert all(SCALE_TEXT in texts(s.front) for s in sheets), definition.id

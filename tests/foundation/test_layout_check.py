"""The layout check finds what it should on small pages made for it, and nothing on clean ones."""

from __future__ import annotations

from generator.model.page import (
    Circle,
    Group,
    Line,
    Page,
    Polygon,
    Rect,
    Style,
    Text,
    arrow,
    scale,
    translate,
)
from generator.printing.imposition import GLUE
from generator.printing.layout_check import GLUE_FILL, check_contrast, check_page

BLACK = Style(stroke="#000000", width=0.4)


def page(*shapes) -> Page:
    return Page(100, 100, list(shapes), label="test")


def problems(p: Page) -> list[str]:
    return [f.problem for f in check_page(p)]


def test_a_clean_page_has_no_findings():
    p = page(
        Rect(10, 10, 40, 20, Style(stroke="#000000", fill="#eeeeee")),
        Text(30, 22, "inside", 8, "sans", "middle"),
        Line(10, 40, 90, 40, BLACK),
        Text(10, 50, "below the line", 8),
    )
    assert check_page(p) == []


def test_overlapping_texts_are_found_and_named():
    findings = check_page(page(Text(10, 20, "Numskull", 8), Text(14, 21, "Brain", 8)))
    assert len(findings) == 1
    assert "'Numskull'" in findings[0].shape and "'Brain'" in findings[0].problem
    assert str(findings[0]).startswith("test: ")


def test_text_over_a_line_or_an_arrowhead_is_found():
    assert any("line ink" in p for p in problems(page(Text(10, 20, "Ninny", 8), Line(12, 10, 12, 30, BLACK))))
    head = arrow(30, 30, 14, 18.5, BLACK, head=3.0)
    assert any("mark" in p or "line ink" in p for p in problems(page(Text(10, 20, "Ninny", 8), head)))


def test_a_line_hidden_under_the_texts_face_does_not_count():
    p = page(
        Line(50, 0, 50, 100, Style(stroke="#000000", width=1.5)),
        Circle(50, 50, 9, Style(stroke="#000000", fill="#ffffff")),
        Text(50, 48, "I", 12, "sans-bold", "middle"),
    )
    assert check_page(p) == []


def test_a_label_running_past_its_hexagon_is_found():
    hexagon = Polygon(
        ((42, 50), (46, 43), (54, 43), (58, 50), (54, 57), (46, 57)), Style(stroke=None, fill="#f3d36b")
    )
    found = problems(page(hexagon, Text(50, 55, "MACGUFFIN", 7, "sans", "middle")))
    assert any("edge of the shape that holds it" in p for p in found)


def test_type_below_six_points_after_scaling_is_found():
    p = page(Group((Text(0, 10, "12", 10),), scale(0.5)))
    assert any("below the 6 pt minimum" in f for f in problems(p))
    assert problems(page(Group((Text(0, 10, "12", 12),), scale(0.5)))) == []


def test_a_tile_edge_cutting_text_is_found_unless_a_glue_strip_hides_it():
    art = (Text(95, 20, "caption", 8),)
    cut = page(Group(art, translate(-50, 0), clip=(50, 0, 50, 100)))
    assert any("cut by the edge of its tile" in p for p in problems(cut))
    art = (Text(48, 20, "caption", 8),)
    glued = page(
        Group(art, translate(-40, 0), clip=(50, 0, 50, 100)),
        Rect(10, 0, 10, 100, GLUE),
    )
    assert not any("cut by" in p for p in problems(glued))
    assert GLUE.fill == GLUE_FILL


def test_white_pips_on_a_white_face_lack_contrast():
    die = page(
        Rect(10, 10, 16, 16, Style(stroke="#000000", fill="#ffffff")),
        Circle(18, 18, 1.4, Style(stroke=None, fill="#ffffff")),
    )
    findings = check_contrast(die)
    assert len(findings) == 1 and "contrast 1.0:1" in findings[0].problem
    dark = page(
        Rect(10, 10, 16, 16, Style(stroke=None, fill="#1f5f7a")),
        Circle(18, 18, 1.4, Style(stroke=None, fill="#ffffff")),
    )
    assert check_contrast(dark) == []


HATCH = Style(stroke="#1d3f73", width=0.2)  # ink-saver hatching: thinner than the tolerance


def test_a_hatch_line_through_a_text_is_found():
    found = problems(page(Line(8, 24, 20, 12, HATCH), Text(10, 20, "NINNY", 8)))
    assert any("crossed by a thin line" in p for p in found)


def test_a_hatch_line_under_a_symbol_is_found_but_not_the_symbols_own_details():
    pip = Circle(50, 50, 2, Style(stroke=None, fill="#1d3f73"))
    assert any("crossed by a thin line" in p for p in problems(page(Line(45, 55, 55, 45, HATCH), pip)))
    # a white line drawn over the symbol is part of its drawing (a skull's teeth), not hatching
    assert problems(page(pip, Line(50, 48, 50, 52, Style(stroke="#ffffff", width=0.2)))) == []


def test_hatching_on_a_knocked_out_ground_is_clean():
    from generator.components.look import knockout_boxes, knockout_hatch

    text = Text(50, 52, "NUMSKULL", 7, "sans", "middle")
    pip = [Circle(50, 40, 2, Style(stroke=None, fill="#1d3f73"))]
    square = ((30.0, 30.0), (70.0, 30.0), (70.0, 70.0), (30.0, 70.0))
    lines = knockout_hatch(square, "#1d3f73", knockout_boxes([[text], pip]))
    assert len(lines) > 20  # the face is still hatched round the marks
    assert check_page(page(*lines, *pip, text)) == []
    # the same hatching without the knock-out crosses both
    bare = knockout_hatch(square, "#1d3f73")
    found = check_page(page(*bare, *pip, text))
    assert {f.shape.split()[0] for f in found} == {"text", "circle"}

"""Pieces fit the boards they stand on: standee bases fill the board's squares, --cell-size reaches
every board with cells and is refused by games without one or when pieces would no longer fit,
and move records hold the turn limit or say where to go on."""

from __future__ import annotations

import os

import pytest

from generator.components import standees
from generator.components.base import FIT_MARGIN, Context, Options, board_square
from generator.components.kinds import context as make_context
from generator.components.kinds import find_kind
from generator.components.specs import StandeesSpec
from generator.kits.plan import effective_seed
from generator.printing.imposition import find_paper
from tests.conftest import build, kit_definitions
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

GAMES = kit_definitions()  # the built-in games and the starter kit `pnp new` writes


def context(game: str, paper: str = "a4", cell: float | None = None) -> Context:
    d = GAMES[game]
    return make_context(
        d, find_paper(paper, d.paper["margin"]), effective_seed(d, None), options=Options(cell_size=cell)
    )


@pytest.mark.parametrize("paper,cell", [("a4", None), ("letter", None), ("a4", 25.0), ("letter", 40.0)])
def test_standee_bases_fold_out_to_the_boards_square(paper, cell):
    ctx = context("barricades", paper, cell)
    spec = ctx.definition.component("soldiers")
    square = board_square(ctx, spec["board"])
    base = standees.base_depth(spec, ctx)
    assert 2 * base + FIT_MARGIN == pytest.approx(square)
    art = standees.standee(spec.typed(StandeesSpec).figures[0], spec, ctx)
    assert art.height == pytest.approx(2 * (base + spec["height"]))
    assert art.width + FIT_MARGIN <= square


def test_every_piece_with_a_board_fits_its_squares_on_both_papers():
    checked = 0
    for game, definition in GAMES.items():
        for paper in ("a4", "letter"):
            ctx = context(game, paper)
            for spec in definition.components:
                if spec.values.get("board"):
                    footprint = find_kind(spec.kind).footprint
                    assert footprint is not None, f"{spec.kind} stands on a board but has no footprint"
                    need = footprint(spec) + FIT_MARGIN
                    assert need <= board_square(ctx, spec["board"]) + 1e-6, (game, paper, spec.id)
                    checked += 1
    assert checked >= 7


def test_cell_size_sets_the_spacing_of_a_point_board(tmp_path):
    small = context("aggression", cell=25.0)
    spec = small.definition.component("board")
    kind = find_kind("point-board")
    assert kind.square_size is not None and kind.square_size(spec, small) == 25.0
    wide = kind.drawing(spec, context("aggression", cell=50.0))
    narrow = kind.drawing(spec, small)
    assert wide.width - narrow.width == pytest.approx(4 * 25.0)  # five cities a row: four gaps


@pytest.mark.parametrize(
    "args,words",
    [
        (["verbal", "--cell-size", "25mm"], "verbal has no board with squares"),
        (["everest", "--cell-size", "25mm"], "everest has no board with squares"),
        (["barricades", "--cell-size", "5mm"], "Soldiers need squares of at least 16 mm"),
        (["take-the-brain", "--cell-size", "12mm"], "Pieces need squares of at least 21 mm"),
        (["aggression", "--cell-size", "15mm"], "points of the Map need"),
        (["centennial", "--cell-size", "10mm"], "Counters need squares"),
    ],
)
def test_a_cell_size_that_does_not_apply_or_fit_is_refused_in_one_line(tmp_path, args, words):
    result = pnp("build", *args, "--out", str(tmp_path), "-q")
    assert result.returncode == 2
    assert words in one_line_error(result)
    assert os.listdir(tmp_path) == []  # nothing half-written


def test_all_with_a_cell_size_builds_the_games_with_boards_at_that_size(tmp_path):
    build(str(tmp_path), formats=["pdf"], cell_size="25mm")
    kits = sorted(os.listdir(tmp_path))
    assert "verbal" in kits and "everest" in kits  # built, without squares to size
    board = open_pdf(os.path.join(tmp_path, "barricades-seed3", "board.pdf"))
    assert len(board) > 1  # 25 mm squares: the battlefield is tiled


def test_a_point_board_with_wide_cells_is_tiled(tmp_path):
    build(str(tmp_path), "aggression", formats=["pdf"], cell_size="60mm")
    board = open_pdf(os.path.join(tmp_path, "aggression-seed7", "board.pdf"))
    assert len(board) > 1


def go_on_lines(game: str, lang: str = "en") -> tuple[list[tuple[int, int, int]], list[str]]:
    """Return (rows, turns per row, limit) of the game's move records and their texts."""
    definition = kit_definitions(lang)[game]
    ctx = make_context(
        definition, find_paper("a4"), effective_seed(definition, None), options=Options(lang=lang)
    )
    limit = ctx.rules.template_values().get("turn_limit") if ctx.rules else None
    records, texts = [], []
    for spec in definition.components:
        if spec.kind != "table-sheet":
            continue
        for block in spec["blocks"]:
            if block["turns_per_row"]:
                records.append((block["rows"], block["turns_per_row"], limit))
        for output in find_kind(spec.kind).build(spec, ctx):
            from generator.model.page import Text, iter_shapes

            texts.extend(
                s.text for p in output.pages for s, _ in iter_shapes(p.shapes) if isinstance(s, Text)
            )
    return records, texts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_move_records_hold_the_turn_limit_or_say_where_to_go_on(game):
    records, texts = go_on_lines(game)
    printed = " ".join(texts)  # the line may wrap
    for rows, per_row, limit in records:
        if rows * per_row < limit:
            marker = f"from {rows + 1}."
            assert marker in printed, (game, rows, limit)
            assert str(limit) in printed.split(marker, 1)[1][:80], (game, rows, limit)
        else:
            assert not any("Go on on the back" in t for t in texts), game


def test_the_short_records_are_the_ones_the_players_would_run_out_of():
    nmm, _ = go_on_lines("nine-mens-morris")
    assert nmm == [(70, 2, 200)]  # 140 turns against the 200-turn limit: the sheet says where to go on
    ttb, texts = go_on_lines("take-the-brain")
    assert ttb == [(100, 2, 200)] and not any("Go on" in t for t in texts)
    _, french = go_on_lines("centennial", "fr")
    french = [t.replace("\u00a0", " ") for t in french]  # a one-letter word is tied to the next
    assert any("Continuez au dos de cette feuille, à partir de la ligne 71" in t for t in french)


def test_a_request_the_library_refuses_before_building(tmp_path):
    from generator.foundation.errors import UsageError
    from generator.kits.plan import kit_plan

    with pytest.raises(UsageError, match="too small for push"):
        kit_plan(GAMES["push"], str(tmp_path), options=Options(cell_size=5.0))
    assert os.listdir(tmp_path) == []

"""The layout check over every page of every built-in kit and of the starter kit `pnp new` writes: A4 and Letter, with and without
--ink-saver, seeded boards over a spread of seeds, tiled boards (--cell-size 25mm) and the duplex
calibration sheet. A failure lists each finding: page, shape and what it runs into."""

from __future__ import annotations

import pytest

from generator.components.base import Options
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan, takes_seed
from generator.printing.calibration import calibration_pages
from generator.printing.imposition import find_paper
from generator.printing.layout_check import check_pages
from tests.conftest import kit_definitions

GAMES = kit_definitions()  # the built-in games and the starter kit `pnp new` writes
# (paper, ink saver, seeds for seeded games): every seed gets one configuration, so the suite
# sees 16 seeds per seeded game without building each seed four times
CONFIGS = [
    ("a4", False, (None, 1, 2, 3, 4, 5, 6)),
    ("a4", True, (None, 7, 8, 9)),
    ("letter", False, (None, 10, 11, 12)),
    ("letter", True, (None, 13, 14, 15)),
]
BOARD_KINDS = ("grid-board", "point-board", "track")


def report(findings) -> str:
    shown = "\n".join(str(f) for f in findings[:40])
    more = f"\n... and {len(findings) - 40} more" if len(findings) > 40 else ""
    return f"{len(findings)} layout finding(s):\n{shown}{more}"


@pytest.mark.parametrize("paper,ink,seeds", CONFIGS, ids=[f"{p}{'-ink' if i else ''}" for p, i, _ in CONFIGS])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_every_kit_is_clean(game, paper, ink, seeds):
    definition = GAMES[game]
    findings = []
    for seed in seeds if takes_seed(definition) else (None,):
        findings.extend(
            layout_findings(kit_plan(definition, paper=paper, seed=seed, options=Options(ink_saver=ink)))
        )
    assert not findings, report(findings)


TRANSLATED = sorted(
    (game, lang) for game, d in GAMES.items() for lang in d.game.get("languages", ["en"]) if lang != "en"
)


@pytest.mark.parametrize("game,lang", TRANSLATED, ids=[f"{g}-{lang}" for g, lang in TRANSLATED])
def test_every_page_of_every_translated_kit_is_clean(game, lang):
    """Translations run longer than English: titles, edge texts and labels still fit, on A4 with
    the ink saver and --fit, and on Letter with and without it."""
    definition = kit_definitions(lang)[game]
    findings = []
    for paper, ink, fit in (("a4", True, True), ("letter", False, False), ("letter", True, False)):
        findings.extend(
            layout_findings(kit_plan(definition, paper=paper, options=Options(ink_saver=ink, fit=fit)))
        )
    assert not findings, report(findings)


def test_there_are_translated_kits_to_check():
    assert {lang for _, lang in TRANSLATED} >= {"fr", "it"}


TILED = sorted(g for g, d in GAMES.items() if any(c.kind in BOARD_KINDS for c in d.components))


@pytest.mark.parametrize("paper,ink", [("a4", False), ("letter", True)])
@pytest.mark.parametrize("game", TILED)
def test_tiled_boards_are_clean(game, paper, ink):
    kit = kit_plan(GAMES[game], paper=paper, options=Options(ink_saver=ink, cell_size=25.0))
    findings = layout_findings(kit)
    assert not findings, report(findings)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_calibration_sheet_is_clean(paper):
    findings = check_pages(calibration_pages(find_paper(paper)), f"calibration {paper}")
    assert not findings, report(findings)


def test_a_finding_names_page_shape_and_problem():
    from generator.model.page import Page, Text

    findings = check_pages([Page(100, 100, [Text(10, 10, "tiny", 4)], label="sheet")], "kit/x")
    assert [str(f) for f in findings] == [
        "kit/x page 1 (sheet): text 'tiny' (4.0 pt) at 10.1,8.9-12.6,10.3 mm: type of 4.0 pt is below the 6 pt minimum"
    ]


@pytest.mark.parametrize("paper,ink,bleed", [("a4", False, 3.0), ("letter", True, 6.35)])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_every_kit_is_clean_for_a_print_shop(game, paper, ink, bleed):
    """With --bleed the pages change (gutters, narrower copies, tab labels kept in the safe area)
    and the check adds the safe area: 2 mm between a cut-out part's text and symbols and its cut."""
    findings = layout_findings(
        kit_plan(GAMES[game], paper=paper, options=Options(ink_saver=ink, bleed=bleed))
    )
    assert not findings, report(findings)


@pytest.mark.parametrize("game", TILED)
def test_tiled_boards_are_clean_for_a_print_shop(game):
    """A tile's art runs into its bleed past the cut: the check judges what the cut itself cuts."""
    findings = layout_findings(kit_plan(GAMES[game], paper="a4", options=Options(cell_size=25.0, bleed=3.0)))
    assert not findings, report(findings)

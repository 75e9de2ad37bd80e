"""Golden page-model dumps: the first page of one component of each kind, as text, kept in
tests/golden/. A drawing change fails here with a readable diff (which shape, which value).

After an intended change, regenerate and review the diff with git:
    PNP_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/foundation/test_golden.py
"""

from __future__ import annotations

import difflib
import os

import pytest

from generator.components.kinds import KINDS, context, find_kind
from generator.definitions.loader import find_definition, load_definition
from generator.printing.imposition import find_paper
from generator.render.dump import dump_pages

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")
KITS = os.path.join(GOLDEN, "kits")  # definitions of the kinds no built-in game uses
# one component of each kind: (kind, game, component); a game "@name" is tests/golden/kits/name.toml
CASES = [
    ("point-board", "nine-mens-morris", "board"),
    ("grid-board", "push", "board"),
    ("track", "centennial", "strip"),
    ("counters", "nine-mens-morris", "pieces"),
    ("standees", "barricades", "soldiers"),
    ("dice-nets", "centennial", "dice"),
    ("table-sheet", "verbal", "pad"),
    ("booklet", "verbal", "booklet"),
    ("quick-reference", "verbal", "aid"),
    ("hex-board", "@extra-kinds", "map"),
    ("cards", "@extra-kinds", "deck"),
]


def test_the_cases_cover_every_kind() -> None:
    assert sorted(kind for kind, _, _ in CASES) == sorted(KINDS)


@pytest.mark.parametrize(("kind", "game", "component"), CASES)
def test_page_model_matches_its_golden_dump(kind: str, game: str, component: str) -> None:
    if game.startswith("@"):
        definition = load_definition(os.path.join(KITS, game[1:] + ".toml"))
    else:
        definition = find_definition(game)
    seed = definition.game["default_seed"] if definition.game["seeded"] else None
    ctx = context(definition, find_paper("a4", definition.paper["margin"]), seed)
    spec = definition.component(component)
    assert spec.kind == kind
    first = find_kind(kind).build(spec, ctx)[0]
    text = dump_pages(first.pages[:1])
    path = os.path.join(GOLDEN, f"{kind}.txt")
    if os.environ.get("PNP_REGENERATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    with open(path, encoding="utf-8") as handle:
        expected = handle.read()
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), f"golden/{kind}.txt", "now", lineterm="", n=1
        )
        pytest.fail("the page model changed:\n" + "\n".join(list(diff)[:60]))

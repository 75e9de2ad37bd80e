"""Every booklet, in every language, states every point of rulings.md for its game in its
Clarifications section: each point has an id in ``ruling_points.toml`` and the booklet template
marks the line that states it with ``{# ruling: <id> #}``. The check reads the marks, point by
point (a missing point is named), never a count of bullets."""

from __future__ import annotations

import os
import re
import tomllib

import pytest

from generator.definitions.values import BUILTIN_GAMES
from generator.foundation.languages import LANGUAGES
from tests.languages_todo import NOT_WRITTEN, UNMARKED, param

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATES = os.path.join(ROOT, "templates", "booklets")
with open(os.path.join(os.path.dirname(__file__), "ruling_points.toml"), "rb") as f:
    POINTS: dict[str, dict[str, str]] = tomllib.load(f)
#: the title of the Clarifications section in each language
HEADING = {"en": "Clarifications", "fr": "Précisions", "it": "Chiarimenti"}
MARK = re.compile(r"\{#-?\s*ruling:\s*([a-z0-9-]+)\s*-?#\}")


def clarifications(source: str, lang: str) -> list[str]:
    """Return the lines of a booklet template's Clarifications section (its level-1 heading up to
    the next level-1 heading); raise AssertionError when the booklet has no such section."""
    lines = source.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == f"# {HEADING[lang]}"]
    assert len(starts) == 1, f"one '# {HEADING[lang]}' section expected, found {len(starts)}"
    body = []
    for line in lines[starts[0] + 1 :]:
        if re.match(r"# \S", line):
            break
        body.append(line)
    return body


def test_the_table_covers_every_game_and_a_heading_every_language():
    assert set(POINTS) == set(BUILTIN_GAMES)
    assert set(HEADING) == set(LANGUAGES)
    for game, points in POINTS.items():
        assert points and all(re.fullmatch(r"[a-z0-9-]+", p) for p in points), game


@pytest.mark.parametrize(
    "game,lang",
    [
        param(g, lang, NOT_WRITTEN | UNMARKED, "not written or marked yet")
        for g in sorted(BUILTIN_GAMES)
        for lang in sorted(LANGUAGES)
    ],
)
def test_the_clarifications_mark_every_ruling_point(game, lang):
    path = os.path.join(TEMPLATES, f"{game}.{lang}.md.j2")
    assert os.path.isfile(path), f"no booklet {os.path.basename(path)}"
    with open(path, encoding="utf-8") as f:
        section = clarifications(f.read(), lang)
    marked: dict[str, int] = {}
    for number, line in enumerate(section):
        for point in MARK.findall(line):
            assert point not in marked, f"{point} marked twice"
            assert line.lstrip().startswith("- "), f"{point}: the mark belongs on the bullet that states it"
            assert MARK.sub("", line).strip() not in ("", "-"), f"{point}: a mark on an empty bullet"
            marked[point] = number
    missing = [p for p in POINTS[game] if p not in marked]
    unknown = [p for p in marked if p not in POINTS[game]]
    assert not missing, f"points of rulings.md not in the Clarifications: {missing}"
    assert not unknown, f"marks of no point of {game}: {unknown}"

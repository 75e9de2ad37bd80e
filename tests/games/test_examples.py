"""Every notation example a kit prints is legal on that kit's own board.

For every kit, in every language it has, with and without its variants, and on its default seed
and seeds 1-30 when its board is seeded, the text a player reads is read back: the HTML booklet
(which holds the booklet and the quick-reference card), every record sheet's notes as printed, and
the print guide. Every code span, and every run of plain text that looks like the game's notation,
must be one of:

- a notation example of the rules module (``data("notation")``), replayed by the referee from
  the start through the record that leads to it, with its tags; or
- a record that the referee replays from the start of the game on that board (a worked game,
  a point name that is a legal first placement); or
- on the short allow-list below, each entry with the reason it is not a move.

So a hand-written example cannot escape: it is either legal on the board the kit prints or the
test names it.
"""

from __future__ import annotations

import html
import json
import os
import re
from functools import cache

import pytest

from generator.booklet.template import template_languages
from generator.components.base import Context, Options
from generator.components.booklet import booklet_source, html_booklet
from generator.components.kinds import context
from generator.components.table_sheet import copy_drawing, note_text
from generator.definitions.loader import load_all
from generator.definitions.values import GameDefinition
from generator.foundation.errors import PnpError
from generator.games import GAMES
from generator.games.examples import examples
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import find_paper
from generator.referee.replay import replay
from generator.render.html import html_document
from tests.pdf_reader import open_pdf

SEEDS = range(1, 31)

#: Code spans that are not moves, each with the reason.
ALLOWED: list[tuple[str, str]] = [
    (r"pnp [a-z]+( [a-z-]+)?( --seed N)?", "a command the player types"),
    (r"--[a-z-]+", "a command-line option"),
    (r'\[[A-Za-z]+ "[^"]*"\]', "a header tag of a record, not a move"),
    (r"x|=|-|->|x\*|:|claims|out|back", "a mark of the notation named in the text, not a whole move"),
    (r"[1-6]/([a-f]|[1-6])", "Push!'s lane mark on one die, named beside the whole turn that uses it"),
    (
        r"1-0|0-1|1/2-1/2|draw|P\d+|\*",
        "a result written at the end of a record (or a winner's name), not a move",
    ),
]

#: Plain text (outside code spans) that looks like each game's notation.
LOOKS_LIKE: dict[str, str] = {
    "aggression": r"\b[A-Z]=\d+\b|\bx[A-Z]\b",
    "barricades": r"\b[a-j]\d{1,2}(-[a-j]\d{1,2})?x([a-j]\d{1,2}|\*)|\b[a-j]\d{1,2}-[a-j]\d{1,2}\b",
    "centennial": r"\bP\d+ \d \d \d -> (-|\d+( out| back)?)|\bP\d+ claims \d+",
    "everest": r"\bP\d+ \d \d \d : (-|[\d+]+( [\d+]+)*)",
    "nine-mens-morris": r"\b[a-g][1-7](-[a-g][1-7])?x[a-g][1-7]\b|\b[a-g][1-7]-[a-g][1-7]\b",
    "push": r"\d@(-|[a-f]\d)( \d@(-|[a-f]\d))?( : (-|[1-6](/[a-f1-6])?[+-]?( [1-6](/[a-f1-6])?[+-]?)*))?(?![\w/@])",
    "take-the-brain": r"\b[a-g][1-8][-x][a-g][1-8]\b",
    "verbal": r"\b\d/\d:\d\b",
}


def _kits() -> list[tuple[str, str, frozenset[str]]]:
    cases = []
    for definition in load_all():
        rules = GAMES[definition.rules_id]
        for lang in template_languages(definition, definition.id):
            for variants in {frozenset(), frozenset(rules.variants)}:
                cases.append((definition.id, lang, variants))
    return sorted(cases, key=lambda c: (c[0], c[1], sorted(c[2])))


@cache
def _definition(game: str, lang: str) -> GameDefinition:
    return next(d for d in load_all(lang=lang) if d.id == game)


def _seeds(definition: GameDefinition) -> list[int | None]:
    rules = GAMES[definition.rules_id]
    default = definition.game.get("default_seed") if rules.takes_seed() else None
    if not rules.takes_seed():
        return [None]
    return list(dict.fromkeys([default, *SEEDS]))


def _record(
    game: str, seed: int | None, variants: frozenset[str], tags: dict[str, str], moves: list[str]
) -> str:
    head = [f'[Game "{game}"]']
    if seed is not None:
        head.append(f'[Seed "{seed}"]')
    if variants:
        head.append(f'[Variant "{",".join(sorted(variants))}"]')
    head += [f'[{name} "{value}"]' for name, value in tags.items()]
    return "\n".join(head + moves) + "\n"


def _replays(
    game: str, seed: int | None, variants: frozenset[str], tags: dict[str, str], moves: list[str]
) -> str:
    """Return '' when the moves replay legally from the start, else the referee's reason."""
    try:
        verdict = replay(_record(game, seed, variants, tags, moves), game, seed, sorted(variants))
    except PnpError as exc:
        return str(exc)
    if verdict.legal and verdict.moves_checked == len(moves) > 0:
        return ""
    return verdict.error.reason if verdict.error else f"{verdict.moves_checked} of {len(moves)} moves read"


def _texts(ctx: Context) -> tuple[list[str], list[str]]:
    """Return the code spans and the plain texts a player reads in the kit (booklet with its
    quick reference, record sheets' notes)."""
    codes: list[str] = []
    plain: list[str] = []
    definition = ctx.definition
    for spec in definition.components:
        if spec.kind == "booklet":
            page = html_document(html_booklet(booklet_source(spec, ctx), spec, ctx))
            page = re.sub(r"<svg\b.*?</svg>|<style\b.*?</style>", " ", page, flags=re.S)
            codes += [html.unescape(c) for c in re.findall(r"<code\b[^>]*>(.*?)</code>", page, flags=re.S)]
            body = re.sub(r"<code\b[^>]*>.*?</code>", " ", page, flags=re.S)
            plain.append(html.unescape(re.sub(r"<[^>]+>", " ", body)))
        elif spec.kind == "table-sheet":
            for i, note in enumerate(spec["notes"]):
                markup = note_text(spec, note, ctx, f"notes.{i}")  # inline markup, as typeset
                codes += re.findall(r"`([^`]+)`", markup)
                plain.append(re.sub(r"`[^`]+`", " ", markup))
    return codes, plain


def _worked_records(game: str, lang: str, variants: frozenset[str], seed: int | None) -> set[str]:
    """Return the moves of the worked records (code spans of several moves) the kit's booklet and
    quick reference print, each record replayed from the start: moves legal where the text puts
    them."""
    definition = _definition(game, lang)
    rules = GAMES[definition.rules_id]
    ctx = context(definition, find_paper("a4"), seed, variants, Options(lang=lang))
    found = examples(rules, seed, variants)
    tags = dict(next(iter(found.values())).tags) if found else {}
    moves: set[str] = set()
    for span in _texts(ctx)[0]:
        text = " ".join(span.split())
        tokens = _tokens(rules.move_per_line, text)
        if not _allowed(text) and len(tokens) > 1 and not _replays(rules.id, seed, variants, tags, tokens):
            moves.update(tokens)
    return moves


def _tokens(move_per_line: bool, text: str) -> list[str]:
    """Return the moves of a record written on one line (move numbers and a closing '...' left out)."""
    moves = text.removesuffix(" ...")
    return [moves] if move_per_line else [t for t in moves.split() if not re.fullmatch(r"\d+\.", t)]


def _allowed(text: str) -> bool:
    return any(re.fullmatch(pattern, text) for pattern, _ in ALLOWED)


def _check_kit(game: str, lang: str, variants: frozenset[str], seed: int | None) -> list[str]:
    """Return every example that fails, with why."""
    definition = _definition(game, lang)
    rules = GAMES[definition.rules_id]
    ctx = context(definition, find_paper("a4"), seed, variants, Options(lang=lang))
    found = examples(rules, seed, variants)
    failures = []
    declared: dict[str, str] = {}
    for name, ex in found.items():
        why = _replays(rules.id, seed, ex.variants, dict(ex.tags), [*ex.before, ex.move])
        if why:
            failures.append(f"example {name} {ex.move!r}: {why}")
        declared.setdefault(ex.move, name)
    tags = dict(next(iter(found.values())).tags) if found else {}
    codes, plain = _texts(ctx)
    spans = list(codes)
    for text in plain:
        spans += [m.group(0) for m in re.finditer(LOOKS_LIKE[rules.id], text)]
    for span in dict.fromkeys(spans):
        text = " ".join(span.split())
        if text in declared or _allowed(text):
            continue
        moves = text.removesuffix(" ...")
        tokens = (
            [moves] if rules.move_per_line else [t for t in moves.split() if not re.fullmatch(r"\d+\.", t)]
        )
        why = _replays(rules.id, seed, variants, tags, tokens)
        if why:
            failures.append(f"{text!r} is not a legal move there, nor an example of the rules module: {why}")
    return [f"{game} {lang} {sorted(variants)} seed {seed}: {f}" for f in failures]


@pytest.mark.parametrize(("game", "lang", "variants"), _kits())
def test_every_printed_example_is_legal_on_the_kits_board(
    game: str, lang: str, variants: frozenset[str]
) -> None:
    failures = []
    for seed in _seeds(_definition(game, lang)):
        failures += _check_kit(game, lang, variants, seed)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("game", sorted({c[0] for c in _kits()}))
def test_record_sheet_notes_print_the_boards_examples_and_no_placeholders(game: str) -> None:
    definition = _definition(game, "en")
    rules = GAMES[definition.rules_id]
    for seed in _seeds(definition)[:5]:
        ctx = context(definition, find_paper("a4"), seed, frozenset(), Options(lang="en"))
        moves = {ex.move for ex in examples(rules, seed).values()}
        for spec in (s for s in definition.components if s.kind == "table-sheet"):
            drawing = copy_drawing(spec, ctx, 190.0)
            printed = " ".join(s.text for s, _ in iter_shapes(drawing.shapes) if isinstance(s, Text))
            printed = " ".join(printed.replace("\u00a0", " ").split())
            assert "{" not in printed and "}" not in printed and "`" not in printed, printed
            notation = ctx.layout_data("notation")["moves"]
            named = {
                n for note in spec["notes"] for n in re.findall(r'data\("notation"\)\.moves\.(\w+)', note)
            }
            assert named <= set(notation)
            shown = {notation[n] for n in named}
            assert shown <= moves
            assert all(move in printed for move in shown), (shown, printed)


def test_every_notation_run_in_the_built_kits_is_legal_on_their_boards(all_kits: str) -> None:
    # Read back from the printed kit.pdf (booklet, quick-reference cards, record sheets, print
    # guide): every run that looks like the game's notation is an example of the rules module or
    # a record legal from the start on the kit's board.
    failures = []
    for name in sorted(os.listdir(all_kits)):
        manifest_path = os.path.join(all_kits, name, "manifest.json")
        if not os.path.isfile(manifest_path):
            continue
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        game, seed = manifest["game"], manifest["seed"]
        variants = frozenset(manifest["variants"])
        rules = GAMES[game]
        found = examples(rules, seed, variants)
        declared = {ex.move for ex in found.values()} | _worked_records(
            game, manifest["lang"], variants, seed
        )
        tags = dict(next(iter(found.values())).tags) if found else {}
        with open_pdf(os.path.join(all_kits, name, "kit.pdf")) as doc:
            text = " ".join(" ".join(page.get_text().split()) for page in doc)
        runs = {m.group(0) for m in re.finditer(LOOKS_LIKE[game], text)}
        assert runs, f"{game}: no notation read back from kit.pdf"
        for run in sorted(runs):
            if run in declared or _allowed(run):
                continue
            why = _replays(game, seed, variants, tags, [run])
            if why:
                failures.append(f"{game} seed {seed}: {run!r} in kit.pdf: {why}")
    assert not failures, "\n".join(failures)

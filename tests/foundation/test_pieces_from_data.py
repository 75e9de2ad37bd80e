"""Counters, tiles (square counters) and standees from a spreadsheet, as the card deck reads one:
each piece table is a template made once per row (of its types, where ``when`` and ``unless`` let
it), ``{column}`` filled in and the count from the quantity column; errors name the CSV file, the
row and the column in one line; fields and templates shown by condition on any column."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from generator.definitions.loader import load_definition
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

GAME = """
[game]
id = "pack"
title = "Pack"
players = "2"

[palette]
sun = "#cc3311"
moon = "#1f3b73"

[components.tiles]
kind = "counters"
title = "Tiles"
size = "2in"
csv = "pieces.csv"
type = "piece"

[[components.tiles.counters]]
name = "{suit} {rank} tile"
types = ["tile"]
shape = "square"
fill = "#ffffff"
symbol = "{symbol}"
symbol_colour = "{suit}"
label = "T{rank}"
[components.tiles.counters.back]
symbol = "plus"

[components.coins]
kind = "counters"
title = "Coins"
size = "20mm"
csv = "pieces.csv"
type = "piece"

[[components.coins.counters]]
name = "{suit} {rank} coin"
types = ["coin"]
text = "C{rank}"
fill = "{suit}"
unless = { rank = "" }
[components.coins.counters.back]
symbol = "{symbol}"

[[components.coins.counters]]
name = "{suit} blank coin"
types = ["coin"]
when = { rank = "" }
fill = "{suit}"
label = "BLANK"

[components.pawns]
kind = "standees"
title = "Pawns"
rows = [{ suit = "sun", n = "2" }, { suit = "moon", n = "1" }, { suit = "none", n = "0" }]
quantity = "n"

[[components.pawns.figures]]
name = "{suit} pawn"
symbol = "pawn"
fill = "{suit}"
label = "P-{suit}"

[components.booklet]
kind = "booklet"
cover = false
"""
CSV = """suit,rank,piece,quantity,symbol
sun,1,tile,1,star
sun,2,tile,2,star
moon,1,tile,1,moon
sun,1,coin,3,star
sun,,coin,1,star
moon,2,coin,2,moon
"""


def write_pack(root, csv: str = CSV, game: str = GAME) -> str:
    layouts = root / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "pack.toml").write_text(game, encoding="utf-8")
    (layouts / "pieces.csv").write_text(csv, encoding="utf-8")
    booklets = root / "templates" / "booklets"
    booklets.mkdir(parents=True, exist_ok=True)
    (booklets / "pack.en.md.j2").write_text("# Pack\n\n::: figure coins | The coins.\n")
    return str(layouts / "pack.toml")


def expected(csv: str, piece: str) -> Counter:
    """Return the copies of each row of a piece type, read from the CSV as a designer counts them."""
    lines = csv.strip().splitlines()
    header = lines[0].split(",")
    counts: Counter = Counter()
    for line in lines[1:]:
        row = dict(zip(header, line.split(","), strict=True))
        if row["piece"] == piece:
            counts[(row["suit"], row["rank"])] += int(row["quantity"])
    return counts


def test_each_template_is_made_once_per_row_of_its_types_with_the_rows_count(tmp_path):
    definition = load_definition(write_pack(tmp_path))
    specs = {spec.id: spec for spec in definition.components}
    tiles = {c["name"]: c["count"] for c in specs["tiles"]["counters"]}
    assert tiles == {f"{s} {r} tile": n for (s, r), n in expected(CSV, "tile").items()}
    coins = {c["name"]: c["count"] for c in specs["coins"]["counters"]}
    want = {(f"{s} {r} coin" if r else f"{s} blank coin"): n for (s, r), n in expected(CSV, "coin").items()}
    assert coins == want
    for coin in specs["coins"]["counters"]:
        suit = coin["name"].split()[0]
        assert coin["fill"] == suit  # the palette name from the cell
        assert (coin["text"] == "") == ("blank" in coin["name"])  # when / unless on an empty cell
    pawns = {f["name"]: f["count"] for f in specs["pawns"]["figures"]}
    assert pawns == {"sun pawn": 2, "moon pawn": 1}  # a row of quantity 0 makes none


def test_the_pieces_of_every_row_print_with_their_cells_and_copies(tmp_path):
    write_pack(tmp_path)
    result = pnp("build", "pack", "--layouts", "layouts", "--out", "o", "--parts", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    kit = tmp_path / "o" / "pack"

    def words(name: str) -> Counter:
        found: Counter = Counter()
        for page in open_pdf(str(kit / f"{name}.pdf")):
            found.update(w[4] for w in page.get_text("words"))
        return found

    tiles, coins, pawns = words("tiles"), words("coins"), words("pawns")
    for (_, rank), n in expected(CSV, "tile").items():
        assert tiles[f"T{rank}"] >= n
    assert sum(tiles[f"T{r}"] for r in "12") == sum(expected(CSV, "tile").values())
    by_rank = Counter()
    for (_, rank), n in expected(CSV, "coin").items():
        by_rank[rank] += n
    assert coins["C1"] == by_rank["1"] and coins["C2"] == by_rank["2"]
    assert coins["BLANK"] == by_rank[""]
    assert coins["C"] == 0 and not any(w.startswith("C") and len(w) == 1 for w in coins)
    # a standee prints its label on both base tabs
    assert pawns["P-sun"] == 2 * 2 and pawns["P-moon"] == 2 * 1 and pawns["P-none"] == 0


BAD = [
    (CSV.replace("sun,2,tile,2", "sun,2,tile,two"), "pieces.csv: row 3, column 'quantity'", "whole number"),
    (
        CSV.replace("moon,1,tile,1,moon", "moon,1,tile,1,comet"),
        "pieces.csv: row 4, column 'symbol'",
        "symbol",
    ),
    (CSV.replace("moon,2,coin", "pink,2,coin"), "pieces.csv: row 7, column 'suit'", "unknown colour 'pink'"),
    (CSV.replace("sun,1,coin,3", "sun,1,coin,3,star,extra"), "pieces.csv: row 5", "cells"),
    (CSV.replace("suit,rank", "suit,suit"), "pieces.csv: row 1", "named twice"),
    ("", "pieces.csv", "empty"),
]


@pytest.mark.parametrize(("csv", "where", "words"), BAD)
def test_a_bad_row_is_a_one_line_error_naming_file_row_and_column(tmp_path, csv, where, words):
    write_pack(tmp_path, csv=csv)
    for command in (("check", "layouts/pack.toml"), ("build", "pack", "--layouts", "layouts", "--out", "o")):
        result = pnp(*command, cwd=str(tmp_path))
        assert result.returncode == 3
        line = one_line_error(result)
        assert where in line and words in line, line
    assert not os.path.exists(tmp_path / "o" / "pack")


BAD_KEYS = [
    ('label = "T{rank}"', 'label = "T{grade}"', "components.tiles.counters[0].label", "no column 'grade'"),
    ('unless = { rank = "" }', 'unless = { level = "" }', "components.coins.counters[0].unless", "no column"),
    ('unless = { rank = "" }', "unless = 3", "components.coins.counters[0].unless", "column = value"),
    (
        'type = "piece"\n\n[[components.tiles',
        'type = "kind"\n\n[[components.tiles',
        "tiles.counters[0].types",
        "kind",
    ),
    (
        'rows = [{ suit = "sun"',
        'csv = "pieces.csv"\nrows = [{ suit = "sun"',
        "components.pawns.rows",
        "not both",
    ),
    ('label = "P-{suit}"', 'label = "P"\nwhen = { suit = "sun" }', "components.pawns.figures[0]", ""),
]


@pytest.mark.parametrize(("old", "new", "where", "words"), BAD_KEYS)
def test_a_template_naming_a_missing_column_is_an_error_at_its_key(tmp_path, old, new, where, words):
    assert old in GAME
    write_pack(tmp_path, game=GAME.replace(old, new, 1))
    result = pnp("check", "layouts/pack.toml", cwd=str(tmp_path))
    if not words:  # a well-formed condition: the check passes
        assert result.returncode == 0, result.stderr
        return
    assert result.returncode == 3
    line = one_line_error(result)
    assert where in line and words in line, line


def test_conditions_and_types_need_data(tmp_path):
    game = GAME.replace('csv = "pieces.csv"\ntype = "piece"\n\n[[components.coins', "\n[[components.coins")
    write_pack(tmp_path, game=game)
    line = one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))
    assert "components.coins.counters[0].types" in line and "csv" in line


def test_a_csv_of_pieces_has_the_decks_bounds_and_stays_in_the_definitions_folder(tmp_path):
    write_pack(tmp_path, csv="suit,rank,piece,quantity,symbol\n" + "sun,1,tile,1,star\n" * 1001)
    assert "at most 1000 rows" in one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))
    write_pack(tmp_path, csv="suit,rank,piece,quantity,symbol\n" + "sun,1,tile,1,star\n" * 60_000)
    assert "larger than 1000000 bytes" in one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))
    write_pack(tmp_path, csv=CSV.replace("sun,2,tile,2", "sun,2,tile,1001"))
    assert "0 to 1000" in one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))
    secret = tmp_path / "secret.csv"
    secret.write_text(CSV)
    os.remove(tmp_path / "layouts" / "pieces.csv")
    os.symlink(secret, tmp_path / "layouts" / "pieces.csv")
    line = one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))
    assert "outside the definition's folder" in line
    write_pack(tmp_path, game=GAME.replace('csv = "pieces.csv"', 'csv = "../secret.csv"', 1))
    assert "below it" in one_line_error(pnp("check", "layouts/pack.toml", cwd=str(tmp_path)))


DECK = """
[game]
id = "deck"
title = "Deck"
players = "2"

[components.deck]
kind = "cards"
cards = [{ name = "Fox", cost = "2" }, { name = "Owl", cost = "" }, { name = "Elk", cost = "0" }]

[[components.deck.fields]]
text = "{name}"
h = "8mm"
[[components.deck.fields]]
text = "COST-{cost}"
y = "20mm"
h = "8mm"
unless = { cost = "" }
[[components.deck.fields]]
text = "FREE"
y = "40mm"
h = "8mm"
when = { cost = ["0", ""] }

[components.booklet]
kind = "booklet"
cover = false
"""


def test_a_card_field_shows_by_condition_on_any_column(tmp_path):
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    (layouts / "deck.toml").write_text(DECK)
    booklets = tmp_path / "templates" / "booklets"
    booklets.mkdir(parents=True)
    (booklets / "deck.en.md.j2").write_text("# Deck\n")
    result = pnp("build", "deck", "--layouts", "layouts", "--out", "o", "--parts", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    found: Counter = Counter()
    for page in open_pdf(str(tmp_path / "o" / "deck" / "deck.pdf")):
        found.update(w[4] for w in page.get_text("words"))
    assert found["COST-2"] == 1 and found["COST-0"] == 1 and found["COST-"] == 0
    assert found["FREE"] == 2  # Owl (empty cost) and Elk (cost 0)
    (layouts / "deck.toml").write_text(DECK.replace('when = { cost = ["0", ""] }', "when = { price = 0 }"))
    line = one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    assert "components.deck.fields[2].when" in line and "no column 'price'" in line

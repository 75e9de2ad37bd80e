"""Reading game records: tags, tokens with line and column, comments, move numbers, results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.foundation.errors import RecordError
from generator.referee.record import decode_record, parse_record, parse_tags, record_str


def test_tags_moves_comments_numbers_and_result_keep_their_places() -> None:
    text = (
        '[Game "nine-mens-morris"]  # the game\n'
        '[White "Ann \\"the hammer\\""] [Black "Bo"]\n'
        "\n"
        "1. d2 f4   # opening\n"
        "2.d1 b4 3... d3xf4\n"
        "1-0\n"
    )
    record = parse_record(text)
    assert [(t.name, t.value, t.line, t.column) for t in record.tags] == [
        ("Game", "nine-mens-morris", 1, 1),
        ("White", 'Ann "the hammer"', 2, 1),
        ("Black", "Bo", 2, 30),
    ]
    assert [(t.text, t.line, t.column) for t in record.moves] == [
        ("d2", 4, 4),
        ("f4", 4, 7),
        ("d1", 5, 3),
        ("b4", 5, 6),
        ("d3xf4", 5, 14),
    ]
    assert record.result is not None and (record.result.text, record.result.line) == ("1-0", 6)
    assert record.tag_values()["Black"] == "Bo"


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_token_is_recognised(result: str) -> None:
    assert parse_record(f"d2 f4 {result}").result.text == result  # type: ignore[union-attr]


def test_one_move_per_line_games_keep_spaces_inside_moves() -> None:
    text = '[Game "centennial"]\n1. P1 1 2 3 -> 6   # a good throw\n\n   P2  4 5 6 -> 1\n*\n'
    record = parse_record(text, move_per_line=True)
    assert [(t.text, t.line, t.column) for t in record.moves] == [
        ("P1 1 2 3 -> 6", 2, 4),
        ("P2 4 5 6 -> 1", 4, 4),
    ]
    assert record.result.text == "*"  # type: ignore[union-attr]


def test_line_endings_and_byte_order_mark_do_not_matter() -> None:
    text = decode_record('\ufeff[Game "x"]\r\nd2 f4\rd1\n'.encode())
    assert [(t.text, t.line) for t in parse_record(text).moves] == [("d2", 2), ("f4", 2), ("d1", 3)]


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ('[Game "nine-mens-morris', 1, 1, "no closing quote"),
        ('[Game "nine-mens-morris"', 1, 25, "no closing ]"),
        ("[Game nine-mens-morris]", 1, 7, "double quotes"),
        ('[ "x"]', 1, 3, "needs a name"),
        ('[Game "a"] d2', 1, 12, "only a comment"),
        ('[Game "a"]\n[Game "b"]', 2, 1, "given twice"),
        ('d2 f4\n[Game "a"]', 2, 1, "before the moves"),
        ("d2 f4 1-0 d1", 1, 11, "follow the result"),
        ('  [Game "x"] extra', 1, 14, "only a comment"),
    ],
)
def test_syntax_errors_say_where(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value) and str(info.value).startswith(f"line {line}, col {column}: ")


def test_text_that_is_not_utf8_is_unreadable() -> None:
    with pytest.raises(RecordError) as info:
        decode_record(b"d2 f4\nd1 \xff\xfe")
    assert (info.value.line, info.value.column) == (2, 4)


def test_header_only_reading_stops_at_the_first_move() -> None:
    header = parse_tags('# a record\n[Game "push"]\n3@c4 5@e2 : 5 3\n[Late "tag"]\n')
    assert [t.name for t in header.tags] == ["Game"]


def test_written_records_read_back() -> None:
    moves = ["d2", "f4", "d1", "b4", "d3xf4"]
    text = record_str({"Game": "nine-mens-morris", "White": 'A "B"'}, moves, "1-0")
    record = parse_record(text)
    assert [t.text for t in record.moves] == moves and record.result.text == "1-0"  # type: ignore[union-attr]
    assert record.tag_values() == {"Game": "nine-mens-morris", "White": 'A "B"'}
    lines = record_str({}, ["P1 1 2 3 -> 6", "P2 4 5 6 -> 1"], None, move_per_line=True)
    assert [t.text for t in parse_record(lines, move_per_line=True).moves] == [
        "P1 1 2 3 -> 6",
        "P2 4 5 6 -> 1",
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list('[]"\\#. \n\t\r-/*01289adgxPq=@:') + ["\ufeff", "é"]), max_size=80),
    st.booleans(),
)
def test_garbage_raises_nothing_but_record_errors(text: str, per_line: bool) -> None:
    try:
        record = parse_record(text, move_per_line=per_line)
    except RecordError as exc:
        assert exc.line is not None and exc.line >= 1 and exc.column is not None and exc.column >= 1
        return
    for token in record.moves:
        assert token.text.strip() == token.text and token.text
        assert token.line >= 1 and token.column >= 1

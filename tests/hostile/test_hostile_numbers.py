"""Items 5, 7 and 12: numbers are ASCII digits everywhere (seeds, players, record numbers, offsets),
ranges are counted before they are expanded, and lenient readings are errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.foundation.errors import BoardError, UsageError
from generator.foundation.numbers import is_ascii_digits, parse_decimal
from generator.foundation.seeding import check_seed
from generator.kits.plan import parse_seed_range
from tests.hostile.helpers import cli

LENIENT = ["٣", "1_000", "+7", " 7", "7 ", "²", "0x10", "1e3", "１２", "-0", "9" * 4400]


@pytest.mark.parametrize("text", LENIENT)
def test_seeds_are_ascii_digits(text):
    with pytest.raises(BoardError):
        check_seed(text)
    run = cli("board", "aggression", "--seed", text)
    assert run.code == 2
    run.one_line_error()


@pytest.mark.parametrize("text", ["٣", "+7", "1_000"])
def test_referee_seed_is_ascii_digits(text, tmp_path):
    record = tmp_path / "r.txt"
    record.write_text('[Game "aggression"]\n')
    run = cli("referee", str(record), "--seed", text)
    assert run.code == 2, run.err
    assert "digits 0-9" in run.one_line_error()


@given(st.text(max_size=25))
@settings(max_examples=200, deadline=None)
def test_seed_text_is_accepted_only_as_plain_digits(text):
    plain = 0 < len(text) <= 19 and all(c in "0123456789" for c in text)
    try:
        value = check_seed(text)
    except BoardError:
        assert not plain or int(text) >= 1 << 63
    else:
        assert plain and value == int(text)


@pytest.mark.parametrize("text", ["0-200000000", "0-99999999999999", "1-5,0-99999999999999999"])
def test_huge_seed_ranges_are_refused_before_expanding(text):
    with pytest.raises(UsageError, match="at most 10000 seeds"):
        parse_seed_range(text)


@pytest.mark.parametrize("text", ["1-٣", "+1-3", "1_0-20", "3-1", "", "1--3", "1,,2", "9" * 30])
def test_bad_seed_ranges_are_usage_errors(text):
    with pytest.raises(UsageError):
        parse_seed_range(text)


def test_seed_range_over_the_limit_exits_2_quickly(tmp_path):
    run = cli("build", "aggression", "--seeds", "0-99999999999999", "--out", str(tmp_path))
    assert run.code == 2
    assert "at most 10000 seeds" in run.one_line_error()


@pytest.mark.parametrize("offset", ["nan,nan", "inf,0", "1e308,0", "-inf,0", "٣,0", "25,0", "1,2,3"])
def test_duplex_offsets_are_finite_small_decimals(offset, tmp_path):
    run = cli("build", "nine-mens-morris", "--duplex-offset", offset, "--out", str(tmp_path))
    assert run.code == 2
    assert "--duplex-offset" in run.one_line_error()
    assert not any(tmp_path.iterdir())


@given(st.text(max_size=30))
@settings(max_examples=200, deadline=None)
def test_decimal_parser_never_returns_a_non_finite_number(text):
    try:
        value = parse_decimal(text)
    except ValueError:
        return
    assert abs(value) < 1e13
    assert all(c in "0123456789.-" for c in text)


def test_ascii_digits_only():
    assert is_ascii_digits("0123456789")
    for text in ["", "²", "٣", "１", "+1", "1 ", "1_0"]:
        assert not is_ascii_digits(text)


RECORDS = [
    ('[Game "everest"]\n\nP² 1 2 3 : -\n', 4),
    ('[Game "centennial"]\n\nP1 1 2 3 -> ٣\n', 4),
    ('[Game "centennial"]\n\nP٣ claims 4\n', 4),
    ('[Game "centennial"]\n[Players "²"]\n', 3),
    ('[Game "everest"]\n[Players "' + "9" * 4300 + '"]\n', 3),
    ('[Game "verbal"]\n[TurnLimit "+5"]\n', 3),
    ('[Game "verbal"]\n[TurnLimit "٣"]\n', 3),
    ('[Game "nine-mens-morris"]\n[Seed "3"]\n', 3),
    ('[Game "aggression"]\n[Seed "+3"]\n', 3),
    ('[Game "aggression"]\n[Seed "1_000"]\n', 3),
]


@pytest.mark.parametrize("text,code", RECORDS)
def test_records_with_lenient_numbers_are_refused(text, code, tmp_path):
    record = tmp_path / "record.txt"
    record.write_text(text, encoding="utf-8")
    run = cli("referee", str(record))
    assert run.code == code, run.out + run.err
    if code == 3:
        assert len(run.one_line_error()) < 300


def test_seed_option_on_an_unseeded_game_is_an_error(tmp_path):
    record = tmp_path / "record.txt"
    record.write_text('[Game "everest"]\n', encoding="utf-8")
    run = cli("referee", str(record), "--seed", "5")
    assert run.code == 2
    assert "no seeded board" in run.one_line_error()
    run = cli("referee", "--play", "everest", "--seed", "5")
    assert run.code == 2


def test_utf16_record_is_reported_as_utf16(tmp_path):
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        record = tmp_path / f"record-{encoding}.txt"
        record.write_bytes('[Game "verbal"]\n'.encode(encoding))
        run = cli("referee", str(record))
        assert run.code == 3
        assert "UTF-16" in run.one_line_error()


def test_record_from_dev_zero_is_refused_unread():
    run = cli("referee", "/dev/zero")
    assert run.code == 3
    assert "device or special file" in run.one_line_error()


def test_a_record_over_the_size_limit_is_refused(tmp_path):
    from generator.referee.record import MAX_RECORD_BYTES

    record = tmp_path / "huge.txt"
    record.write_bytes(b'[Game "verbal"]\n' + b" " * MAX_RECORD_BYTES)
    run = cli("referee", str(record))
    assert run.code == 3
    assert "larger than" in run.one_line_error()


def test_all_with_an_unknown_variant_is_an_error(tmp_path):
    run = cli("build", "--all", "--variant", "nonsense", "--out", str(tmp_path))
    assert run.code == 2
    assert "nonsense" in run.one_line_error()
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("command", [["build", "nine-mens-morris"], ["calibrate"]])
def test_empty_out_is_refused(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = cli(*command, "--out", "")
    assert run.code == 2
    assert "--out" in run.one_line_error()
    assert not any(tmp_path.iterdir())

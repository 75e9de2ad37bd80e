"""Reading the record files of tests/games/records with the referee's own record reader."""

from __future__ import annotations

from pathlib import Path

from generator.referee.record import parse_record


def read_record(path: Path, move_per_line: bool = False) -> tuple[dict[str, str], list[str], str]:
    """Return the tags, the move texts and the '# expect:' line of a record file."""
    text = path.read_text(encoding="utf-8")
    expect = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# expect:")), "")
    record = parse_record(text, move_per_line)
    return record.tag_values(), [token.text for token in record.moves], expect

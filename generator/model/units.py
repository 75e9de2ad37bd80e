"""Lengths with units ("19mm", "0.75in", "54pt", "2cm") converted to millimetres."""

from __future__ import annotations

import re

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}

_LENGTH = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*(mm|cm|in|pt)\s*$")


def parse_length(text: str) -> float:
    """Return the length in millimetres of a string such as ``"19mm"``; raise ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f'expected a length with a unit such as "19mm", got {text!r}')
    match = _LENGTH.match(text)
    if not match:
        raise ValueError(f'expected a length with a unit (mm, cm, in, pt) such as "19mm", got {text!r}')
    if len(match.group(1)) > 20:
        raise ValueError(f"a length of at most 20 digits, got {text[:30]!r}...")
    return float(match.group(1)) * MM_PER_UNIT[match.group(2)]

"""Strict number parsing for everything a user types or writes in a file: ASCII digits only
(no '٣', '²', '1_000', '+7' or spaces), a bounded number of digits, finite values."""

from __future__ import annotations

import math
import re

_DIGITS = frozenset("0123456789")
_DECIMAL = re.compile(r"^-?[0-9]{1,12}(\.[0-9]{1,12})?$")


def is_ascii_digits(text: str, max_digits: int = 18) -> bool:
    """Return True when text is 1 to max_digits ASCII digits and nothing else."""
    return 0 < len(text) <= max_digits and all(ch in _DIGITS for ch in text)


def parse_natural(text: str, max_digits: int = 18) -> int:
    """Return the non-negative integer written in ASCII digits; raise ValueError otherwise."""
    if not is_ascii_digits(text, max_digits):
        raise ValueError(f"expected a whole number written with the digits 0-9, got {text!r}")
    return int(text)


def parse_decimal(text: str) -> float:
    """Return a number written as ASCII digits with an optional '-' and decimal point (no
    exponents, nan or inf); raise ValueError otherwise."""
    if not _DECIMAL.match(text):
        raise ValueError(f"expected a number such as 1.5 or -0.5, got {text!r}")
    return float(text)


def is_finite(value: object) -> bool:
    """Return True unless value is a float that is NaN or infinite."""
    return not isinstance(value, float) or math.isfinite(value)

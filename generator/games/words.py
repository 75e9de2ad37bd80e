"""Words for the referee's messages: a count with its noun in the right number ('1 troop',
'2 troops'), plurals of the nouns the games use, and small counts spelt out ('two 6s')."""

from __future__ import annotations

#: Plurals that are not the word with an s (matched on the last word of the noun).
_IRREGULAR = {
    "man": "men",
    "rifleman": "riflemen",
    "box": "boxes",
    "die": "dice",
    "city": "cities",
    "Ninny": "Ninnies",
}
_SPELT = ("no", "one", "two", "three", "four", "five", "six")


def plural(noun: str) -> str:
    """Return the plural of a noun: 'troop' -> 'troops', 'rifleman' -> 'riflemen', '6' -> '6s'."""
    head, _, last = noun.rpartition(" ")
    many = _IRREGULAR.get(last, last + "s")
    return f"{head} {many}" if head else many


def count(number: int, noun: str) -> str:
    """Return a number with its noun in the right number: '1 troop', '0 troops', '2 riflemen'."""
    return f"{number} {noun if number == 1 else plural(noun)}"


def spelt(number: int, noun: str) -> str:
    """Return a small count spelt out with its noun: 'no 6s', 'one 3', 'three 6s' (digits above six)."""
    word = _SPELT[number] if 0 <= number < len(_SPELT) else str(number)
    return f"{word} {noun if number == 1 else plural(noun)}"

"""The one source of randomness: a generator that gives the same numbers for a seed, forever.

Python's ``random`` module may change its algorithms between versions, so boards are drawn from a
small, fully specified generator (SplitMix64) whose output depends only on the seed and the stream
name. Every seeded board in pnp comes from here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from generator.foundation.errors import BoardError
from generator.foundation.languages import Msg
from generator.foundation.numbers import is_ascii_digits

T = TypeVar("T")
_MASK = (1 << 64) - 1


def check_seed(seed: object) -> int:
    """Return the seed as an int if it is a non-negative integer; raise BoardError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        text = str(seed)
        if not is_ascii_digits(text, 19):  # no '+7', '1_000', '٣', spaces or 4000 digits
            raise BoardError(Msg("record.seed.digits", text=repr(text)))
        seed = int(text)
    if seed < 0:
        raise BoardError(Msg("record.seed.negative", seed=seed))
    if seed >= 1 << 63:
        raise BoardError(Msg("record.seed.large", seed=seed))
    return seed


class Rng:
    """SplitMix64 generator: stable across machines and Python versions."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, stream: str = "") -> None:
        digest = hashlib.sha256(f"{stream}:{seed}".encode()).digest()
        self._state = int.from_bytes(digest[:8], "big")

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Return an integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def coin(self) -> bool:
        """Return True or False with probability 1/2 each."""
        return bool(self.next64() >> 63)

    def chance(self, numerator: int, denominator: int) -> bool:
        """Return True with probability numerator/denominator."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        """Return one item of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Return k distinct items of a sequence, in random order."""
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]


def rng_for(seed: int, stream: str) -> Rng:
    """Return the generator for one seed and one named purpose (e.g. ``"aggression/roads"``)."""
    return Rng(check_seed(seed), stream)

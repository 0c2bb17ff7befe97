"""Uniform choices from an injected byte source (spec/crypto.md §2.4). Never the ``random`` module."""

from __future__ import annotations

from mentalpoker.group import Rng, default_rng


def uniform_below(bound: int, rng: Rng | None = None) -> int:
    """A uniform integer in [0, bound) by rejection sampling on 32-bit draws."""
    if not 0 < bound <= 1 << 32:
        raise ValueError("bound must be in 1..2**32")
    draw = rng or default_rng
    limit = (1 << 32) - ((1 << 32) % bound)
    while True:
        value = int.from_bytes(draw(4), "big")
        if value < limit:
            return value % bound


def random_permutation(n: int, rng: Rng | None = None) -> tuple[int, ...]:
    """A uniform permutation of range(n) by Fisher-Yates (Durstenfeld)."""
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = uniform_below(i + 1, rng)
        items[i], items[j] = items[j], items[i]
    return tuple(items)

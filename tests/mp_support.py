"""A deterministic random source for the crypto tests: SHA-512 of a seed and a counter."""

from __future__ import annotations

from collections.abc import Callable

from mentalpoker.group import sha512


def seeded(seed: bytes) -> Callable[[int], bytes]:
    """The same seed gives the same bytes, so proofs and shuffles in tests are reproducible."""
    counter = [0]

    def draw(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += sha512(seed, counter[0].to_bytes(8, "big"))
            counter[0] += 1
        return out[:n]

    return draw


def seed_of(label: bytes) -> bytes:
    """A party's 32-byte secret seed for tests (spec/crypto.md §3.5), reproducible from a label."""
    return sha512(b"test seed ", label)[:32]

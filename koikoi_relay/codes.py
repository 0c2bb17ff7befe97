"""Room codes: short, typeable, unguessable enough, drawn from a cryptographic source.

spec/relay.md §3: six symbols from a 31-symbol alphabet with the look-alikes 0/O, 1/I/L removed,
so a code carries 6·log2(31) ≈ 29.73 bits (29.7252) and there are 31**6 = 887,503,681 of them.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Container

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
CODE_SPACE = len(ALPHABET) ** CODE_LENGTH
ENTROPY_BITS = CODE_LENGTH * math.log2(len(ALPHABET))
_SYMBOLS = frozenset(ALPHABET)

Chooser = Callable[[str], str]


def generate_code(choose: Chooser = secrets.choice) -> str:
    """One fresh code, each symbol chosen uniformly and independently."""
    return "".join(choose(ALPHABET) for _ in range(CODE_LENGTH))


def allocate_code(taken: Container[str], choose: Chooser = secrets.choice, attempts: int = 64) -> str | None:
    """A code no live room uses; None when ``attempts`` draws all collided (the space is full)."""
    for _ in range(attempts):
        code = generate_code(choose)
        if code not in taken:
            return code
    return None


def normalize_code(text: str) -> str | None:
    """The canonical form of a typed code (case, spaces and dashes forgiven), or None if it is no code."""
    cleaned = text.strip().upper().replace("-", "").replace(" ", "")
    if len(cleaned) != CODE_LENGTH or not set(cleaned) <= _SYMBOLS:
        return None
    return cleaned

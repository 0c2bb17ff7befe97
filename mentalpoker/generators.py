"""Published points and public randomness, all derived from labels (spec/crypto.md §2.5).

Every point here comes from hash-to-point over a fixed label, so nobody knows the discrete log of
one with respect to another or to G. Commitment bases that someone could have chosen with a known
relation are exactly the trapdoor found in the 2019 Swiss Post / Scytl shuffle proof.
"""

from __future__ import annotations

from functools import cache

from mentalpoker.errors import MentalPokerError
from mentalpoker.group import Point, Scalar, base_mult, hash_to_point, point_sum, sha512

START_DECK_DST = b"koikoi-p2p/mentalpoker/v1/start-deck"


def card_label(index: int) -> bytes:
    """The label of the point standing for card ``index`` (0-based)."""
    return b"card/" + str(index).encode("ascii")


@cache
def card_point(index: int) -> Point:
    """The plaintext point of card ``index``."""
    if index < 0:
        raise MentalPokerError("bad_index", "card indexes are non-negative")
    return hash_to_point(card_label(index))


@cache
def card_points(n: int) -> tuple[Point, ...]:
    return tuple(card_point(i) for i in range(n))


@cache
def card_index_table(n: int) -> dict[bytes, int]:
    """Encoding of a card point -> its index, for mapping a decryption back to a card."""
    return {p.raw: i for i, p in enumerate(card_points(n))}


@cache
def commitment_base_h() -> Point:
    """h: the start of the commitment chain of the shuffle argument."""
    return hash_to_point(b"shuffle/h")


@cache
def commitment_base(i: int) -> Point:
    """h_i (i = 1..n): the bases of the permutation commitment."""
    if i < 1:
        raise MentalPokerError("bad_index", "commitment bases are numbered from 1")
    return hash_to_point(b"shuffle/h/" + str(i).encode("ascii"))


@cache
def commitment_bases(n: int) -> tuple[Point, ...]:
    return tuple(commitment_base(i) for i in range(1, n + 1))


@cache
def commitment_bases_sum(n: int) -> Point:
    return point_sum(commitment_bases(n))


@cache
def start_randomness(index: int) -> Scalar:
    """The public, deterministic, non-zero randomness of the starting deck at ``index``."""
    s = Scalar.from_wide(sha512(START_DECK_DST, b"\x00", card_label(index)))
    if s.is_zero:  # probability 2**-252; libsodium refuses zero scalars, so say it plainly
        raise MentalPokerError("degenerate", "zero start randomness")
    return s


@cache
def start_randomness_point(index: int) -> Point:
    """rho_i * G: the first component of the starting deck at ``index`` (the same every round)."""
    return base_mult(start_randomness(index))

"""ElGamal under a joint key, after Barnett and Smart (2003) (spec/crypto.md §4).

A ciphertext of the point M under pk is (a, b) = (r*G, M + r*pk). With pk = pk_0 + pk_1, each
party's decryption share x_k * a comes off independently and in either order: M = b - d_0 - d_1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from mentalpoker.errors import DeckError, InvalidEncoding
from mentalpoker.generators import card_index_table, card_points, start_randomness, start_randomness_point
from mentalpoker.group import POINT_BYTES, Point, Rng, Scalar, base_mult, point_sum
from mentalpoker.parallel import chunks, run_all

CIPHERTEXT_BYTES = 2 * POINT_BYTES


@dataclass(frozen=True, slots=True)
class Ciphertext:
    a: Point
    b: Point

    def to_bytes(self) -> bytes:
        return self.a.raw + self.b.raw

    @classmethod
    def from_bytes(cls, data: bytes) -> Ciphertext:
        if len(data) != CIPHERTEXT_BYTES:
            raise InvalidEncoding("invalid_ciphertext", "a ciphertext is 64 bytes")
        return cls(Point.from_bytes(data[:32]), Point.from_bytes(data[32:]))


@dataclass(frozen=True, slots=True)
class KeyPair:
    """A round key: secret x, public x*G."""

    secret: Scalar = field(repr=False)
    public: Point

    @classmethod
    def generate(cls, rng: Rng | None = None) -> KeyPair:
        x = Scalar.random(rng)
        return cls(x, base_mult(x))

    @classmethod
    def from_secret(cls, secret: Scalar) -> KeyPair:
        return cls(secret, base_mult(secret))


def joint_key(publics: Sequence[Point]) -> Point:
    """pk = sum of the parties' public keys; the identity is refused."""
    pk = point_sum(publics)
    if pk.is_identity:
        raise InvalidEncoding("invalid_point", "the joint key is the identity")
    return pk


def encrypt(pk: Point, message: Point, r: Scalar) -> Ciphertext:
    return Ciphertext(base_mult(r), message + pk.mul(r))


def rerandomize(pk: Point, ct: Ciphertext, r: Scalar) -> Ciphertext:
    """The same plaintext under fresh randomness: (a + r*G, b + r*pk)."""
    return Ciphertext(ct.a + base_mult(r), ct.b + pk.mul(r))


def decryption_share(secret: Scalar, ct: Ciphertext) -> Point:
    """One party's layer of the ciphertext: x_k * a."""
    return ct.a.mul(secret)


def combine(ct: Ciphertext, shares: Sequence[Point]) -> Point:
    """The plaintext b - sum(shares) once every party's share is in."""
    out = ct.b
    for d in shares:
        out = out - d
    return out


def start_deck(pk: Point, n: int, joint_secret: Scalar | None = None) -> tuple[Ciphertext, ...]:
    """The public starting deck: card i encrypted under pk with public randomness rho_i (§4.3).

    ``joint_secret`` (x with pk = x*G, for an auditor that knows both round secrets) gives the
    same points with a fixed-base multiplication: rho_i*pk = (rho_i x)*G."""
    cards = card_points(n)
    if joint_secret is not None:
        return tuple(
            Ciphertext(start_randomness_point(i), cards[i] + base_mult(start_randomness(i) * joint_secret))
            for i in range(n)
        )
    def part(indices: range) -> list[Ciphertext]:
        return [Ciphertext(start_randomness_point(i), cards[i] + pk.mul(start_randomness(i)))
                for i in indices]

    # n variable-base multiplications, on the pool (mentalpoker.parallel), in order.
    return tuple(ct for piece in run_all([partial(part, r) for r in chunks(n, 2)]) for ct in piece)


def encode_deck(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(ct.a.raw + ct.b.raw for ct in deck)


def decode_deck(data: bytes, n: int) -> tuple[Ciphertext, ...]:
    """n ciphertexts, every point validated once here."""
    if len(data) != n * CIPHERTEXT_BYTES:
        raise InvalidEncoding("invalid_length", f"a deck of {n} is {n * CIPHERTEXT_BYTES} bytes")
    return tuple(Ciphertext.from_bytes(data[i : i + CIPHERTEXT_BYTES]) for i in range(0, len(data), 64))


def card_of(message: Point, n: int) -> int:
    """Map a decrypted point back to its card index; a point that is no card raises DeckError."""
    index = card_index_table(n).get(message.raw)
    if index is None:
        raise DeckError("not_a_card", "the decrypted point is none of the card points")
    return index


__all__ = [
    "CIPHERTEXT_BYTES",
    "Ciphertext",
    "KeyPair",
    "card_of",
    "combine",
    "decode_deck",
    "decryption_share",
    "encode_deck",
    "encrypt",
    "joint_key",
    "rerandomize",
    "start_deck",
]

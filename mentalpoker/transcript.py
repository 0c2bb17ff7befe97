"""The Fiat-Shamir transcript (spec/crypto.md §3).

A running SHA-512 over typed, labelled, length-prefixed items, so no two different sequences of
items hash alike. Every challenge is drawn from the whole state so far and then absorbed itself,
so later challenges depend on earlier ones (strong Fiat-Shamir: the context and the whole
statement go in before the first challenge).
"""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.hazmat.primitives import hashes

from mentalpoker.context import ProofContext
from mentalpoker.errors import MentalPokerError
from mentalpoker.group import Point, Rng, Scalar, default_rng

TRANSCRIPT_DST = b"koikoi-p2p/mentalpoker/v1/transcript"

# Item type tags (spec/crypto.md §3.1).
TAG_DOMAIN = 0x00
TAG_BYTES = 0x01
TAG_UINT = 0x02
TAG_TEXT = 0x03
TAG_POINTS = 0x04
TAG_SCALARS = 0x05
TAG_CHALLENGE = 0x06
TAG_NONCE = 0x07


def item(tag: int, label: str, value: bytes) -> bytes:
    """One transcript item: u8(tag) || u8(len(label)) || label || u32be(len(value)) || value."""
    name = label.encode("ascii")
    if len(name) > 255:
        raise MentalPokerError("bad_label", "transcript labels are at most 255 bytes")
    return bytes([tag, len(name)]) + name + len(value).to_bytes(4, "big") + value


class Transcript:
    """Absorbs a proof's context and statement; squeezes challenges from all of it."""

    __slots__ = ("_h",)

    def __init__(self, proof: str) -> None:
        self._h = hashes.Hash(hashes.SHA512())
        self._h.update(item(TAG_DOMAIN, "proof", TRANSCRIPT_DST + b"/" + proof.encode("ascii")))

    def bytes_(self, label: str, value: bytes) -> None:
        self._h.update(item(TAG_BYTES, label, value))

    def uint(self, label: str, value: int) -> None:
        if not 0 <= value < 1 << 64:
            raise MentalPokerError("bad_value", "transcript integers are unsigned 64-bit")
        self._h.update(item(TAG_UINT, label, value.to_bytes(8, "big")))

    def text(self, label: str, value: str) -> None:
        self._h.update(item(TAG_TEXT, label, value.encode("utf-8")))

    def points(self, label: str, values: Sequence[Point]) -> None:
        self._h.update(item(TAG_POINTS, label, b"".join(p.raw for p in values)))

    def point(self, label: str, value: Point) -> None:
        self._h.update(item(TAG_POINTS, label, value.raw))

    def scalars(self, label: str, values: Sequence[Scalar]) -> None:
        self._h.update(item(TAG_SCALARS, label, b"".join(s.raw for s in values)))

    def context(self, ctx: ProofContext) -> None:
        """Version, session id, round, step and prover, in this order."""
        self.uint("version", ctx.version)
        self.bytes_("session_id", ctx.session_id)
        self.uint("round", ctx.round)
        self.text("step", ctx.step)
        self.uint("prover", ctx.prover)

    def challenge_bytes(self, label: str) -> bytes:
        """64 bytes from the state so far; the output is absorbed before anything else."""
        fork = self._h.copy()
        fork.update(item(TAG_CHALLENGE, label, b""))
        out = fork.finalize()
        self._h.update(item(TAG_CHALLENGE, label, out))
        return out

    def hedged_nonce(self, label: str, secret: Scalar, rng: Rng | None = None) -> Scalar:
        """A prover's nonce from the statement so far, its secret and 64 fresh random bytes.

        w = LE(H(state || item(0x07, label, x || rnd))) mod L, on a copy of the state: nothing is
        absorbed. A repeated or weak random source (a restored state replayed with the same seed,
        a cloned machine) then cannot give the same w to two different statements, which would
        reveal x from the two responses; with a good source w stays uniform.
        """
        draw = rng or default_rng
        while True:
            fork = self._h.copy()
            fork.update(item(TAG_NONCE, label, secret.raw + draw(64)))
            w = Scalar.from_wide(fork.finalize())
            if not w.is_zero:
                return w

    def challenge_scalar(self, label: str) -> Scalar:
        """A full-size challenge: 64 bytes reduced modulo L."""
        return Scalar.from_wide(self.challenge_bytes(label))

    def challenge_scalars(self, label: str, count: int) -> list[Scalar]:
        """``count`` independent full-size challenges: SHA-512(seed || u32be(j)) reduced modulo L.

        Full size, not 128 bits: the shuffle's permutation argument fails with probability about
        n / (challenge space), so 128-bit challenges give only 128 - log2(n) bits (122 for n = 48),
        and libsodium's multiplication costs the same for any scalar.
        """
        seed = self.challenge_bytes(label)
        out: list[Scalar] = []
        for j in range(count):
            h = hashes.Hash(hashes.SHA512())
            h.update(seed + j.to_bytes(4, "big"))
            out.append(Scalar.from_wide(h.finalize()))
        return out

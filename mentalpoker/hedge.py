"""Hedged randomness: every random value of a step from the party's secret seed and its inputs
(spec/crypto.md §3.5).

A party that is restored twice from one saved state, or runs on a cloned machine, starts twice
from the same random bytes. If a step drew its permutation, re-randomisers or proof scalars from
that saved stream, an opponent showing each copy a different input would get two outputs made
with the same secrets and could solve for them (tests/adversarial/test_restore_attacks.py). Here
a step's randomness is a pseudorandom function, keyed by the party's secret seed, of everything
the step depends on: the proof context, the caller's binding (the session's chain head, which
commits to every message received) and the step's own statement. The same inputs replay the same
bytes, which crash recovery needs; any different input gives independent bytes.

This is the hedging of Ristenpart and Yilek (NDSS 2010) against virtual-machine resets, in the
deterministic form of RFC 6979 and RFC 8032 nonces (a secret key and the message through a PRF):

    K      = HMAC-SHA-512(seed, item(domain) || context || item("binding") || statement items)
    stream = HMAC-SHA-512(K, u64be(0)) || HMAC-SHA-512(K, u64be(1)) || ...

Draws take the stream's bytes in order, each draw as spec/crypto.md §2.4 defines it.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence

from mentalpoker.context import ProofContext
from mentalpoker.errors import MentalPokerError
from mentalpoker.group import Point
from mentalpoker.transcript import TAG_BYTES, TAG_DOMAIN, TAG_POINTS, TAG_TEXT, TAG_UINT, item

HEDGE_DST = b"koikoi-p2p/mentalpoker/v2/hedge"
SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh secret seed from the operating system."""
    return secrets.token_bytes(SEED_BYTES)


def check_seed(seed: object) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise MentalPokerError("bad_argument", f"a party's secret seed is {SEED_BYTES} bytes")
    return seed


class Hedge:
    """The inputs of one step, absorbed as transcript items; then a byte stream from all of them."""

    __slots__ = ("_block", "_buffer", "_key", "_mac")

    def __init__(self, seed: bytes, ctx: ProofContext, binding: bytes) -> None:
        if not isinstance(binding, bytes):
            raise MentalPokerError("bad_argument", "a binding is bytes")
        self._mac = hmac.new(check_seed(seed), digestmod="sha512")
        self._mac.update(item(TAG_DOMAIN, "hedge", HEDGE_DST))
        self._mac.update(item(TAG_UINT, "version", ctx.version.to_bytes(8, "big")))
        self._mac.update(item(TAG_BYTES, "session_id", ctx.session_id))
        self._mac.update(item(TAG_UINT, "round", ctx.round.to_bytes(8, "big")))
        self._mac.update(item(TAG_TEXT, "step", ctx.step.encode("utf-8")))
        self._mac.update(item(TAG_UINT, "prover", ctx.prover.to_bytes(8, "big")))
        self._mac.update(item(TAG_BYTES, "binding", binding))
        self._key: bytes | None = None
        self._block = 0
        self._buffer = b""

    def points(self, label: str, values: Sequence[Point]) -> Hedge:
        self._absorb(item(TAG_POINTS, label, b"".join(p.raw for p in values)))
        return self

    def bytes_(self, label: str, value: bytes) -> Hedge:
        self._absorb(item(TAG_BYTES, label, value))
        return self

    def _absorb(self, data: bytes) -> None:
        if self._key is not None:
            raise MentalPokerError("bad_argument", "the hedge is already drawing")
        self._mac.update(data)

    def __call__(self, n: int) -> bytes:
        """The next ``n`` bytes of the step's stream (an ``Rng``)."""
        if self._key is None:
            self._key = self._mac.digest()
        while len(self._buffer) < n:
            block = hmac.new(self._key, self._block.to_bytes(8, "big"), digestmod="sha512").digest()
            self._buffer += block
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


__all__ = ["HEDGE_DST", "SEED_BYTES", "Hedge", "check_seed", "new_seed"]

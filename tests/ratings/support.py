"""Signed match results made directly (no match played), for the rating service's tests."""

from __future__ import annotations

import os
from collections.abc import Sequence

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.results import RESULT_VERSION, CoSignedResult, MatchResult


def match_result(
    keys: tuple[bytes, bytes],
    *,
    winner: int | None = 0,
    rated: bool = True,
    names: tuple[str, str] = ("alice", "bob"),
    session: bytes | None = None,
    scores: tuple[int, int] | None = None,
    resigned: int | None = None,
) -> MatchResult:
    if scores is None:
        scores = (6, 0) if winner == 0 else ((0, 6) if winner == 1 else (3, 3))
    rounds = ((0, winner, max(scores)),) if winner is not None else ((0, None, 0),)
    return MatchResult(
        version=RESULT_VERSION,
        session_id=session or os.urandom(32),
        room="ABCDEF",
        keys=keys,
        names=names,
        rated=rated,
        terms_digest=b"\x11" * 32,
        profile="nintendo",
        profile_digest=b"\x22" * 32,
        rounds=rounds,
        scores=scores,
        winner=winner,
        resigned=resigned,
        head=b"\x33" * 32,
    )


def cosign(result: MatchResult, signers: Sequence[Identity]) -> bytes:
    statement = result.statement()
    return CoSignedResult(
        result=result, signatures=(signers[0].sign(statement), signers[1].sign(statement))
    ).encode()


def signed(a: Identity, b: Identity, **fields: object) -> bytes:
    """A valid co-signed result of a match between ``a`` (seat 0) and ``b`` (seat 1)."""
    return cosign(match_result((a.public_key, b.public_key), **fields), (a, b))  # type: ignore[arg-type]

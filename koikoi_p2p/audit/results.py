"""Checking a co-signed match result without the transcript (spec/game.md §6.3).

What it proves: the two identity keys named in the result both signed this exact outcome
(scores, winner, per-round points) of this session, under these terms (profile digest, room),
at this transcript head. What it does not prove: that the match was played by the rules (only a
transcript replay shows that), who holds the keys, or that the session was not one of several
between the same keys.
"""

from __future__ import annotations

from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.identity import check_identity_key
from koikoi_p2p.protocol.results import CoSignedResult, MatchResult, SignatureInvalid


def verify_result(data: bytes) -> MatchResult:
    """Decode a co-signed result file's bytes and check both signatures; ``AuditError`` otherwise."""
    try:
        cosigned = CoSignedResult.decode(data)
    except ValueError as exc:
        raise AuditError("bad_result", str(exc)) from None
    except Exception as exc:  # the codec's typed error for non-canonical bytes
        raise AuditError("bad_result", f"not a co-signed result: {exc}") from None
    if cosigned.result.keys[0] == cosigned.result.keys[1]:
        raise AuditError("bad_result", "the two seats have the same key")
    for key in cosigned.result.keys:
        try:
            check_identity_key(key)
        except RemoteViolation as exc:
            raise AuditError("bad_key", exc.message) from None
    try:
        cosigned.verify()
    except SignatureInvalid:
        raise AuditError("bad_signature", "a signature does not cover this result") from None
    return cosigned.result

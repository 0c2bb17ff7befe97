"""What the service checks before it counts a submission (spec/ratings.md §3).

The co-signed result is checked exactly as ``koikoi verify --result`` checks it (through
``koikoi_p2p.audit.verify_result``: canonical form, this game version, both signatures, two
distinct identity keys of large order), then as a rating service must: the match was agreed as
rated in its terms, and both display names are valid. Whether the session was counted before is
the store's question, answered inside the transaction that counts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi_p2p.audit import AuditError, verify_result
from koikoi_p2p.protocol.primitives import sha256
from koikoi_p2p.protocol.results import COSIGNED_FORMAT, RESULT_VERSION, MatchResult
from koikoi_p2p.protocol.statement import unpack
from koikoi_p2p.protocol.terms import valid_name
from koikoi_p2p.ratings.errors import Refused

MAX_RESULT_BYTES = 64 * 1024  # a co-signed result is about 600 bytes; a long pool match some KB
FORMAT_PREFIX = "koikoi-p2p/cosigned-result/v"


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A co-signed result that passed every check: what the store counts."""

    data: bytes  # the co-signed result file, exactly as submitted
    digest: bytes  # SHA-256 of the signed statement: the outcome, whatever the signature bytes
    result: MatchResult

    @property
    def session(self) -> bytes:
        return self.result.session_id

    @property
    def keys(self) -> tuple[bytes, bytes]:
        return self.result.keys


@dataclass(frozen=True, slots=True)
class Abandonment:
    """An upheld abandonment claim about a rated match (spec/ratings.md §6): shown, never rated."""

    session: bytes
    absent: bytes  # the key of the seat that stopped answering
    claimant: bytes
    message: int  # the seq of the message the absent seat owed
    digest: bytes  # SHA-256 of the claim file
    data: bytes


def check_result(data: bytes) -> RatedResult:
    """The checks of spec/ratings.md §3.2 in their order; ``Refused`` with the first that fails."""
    if len(data) > MAX_RESULT_BYTES:
        raise Refused("too_large", f"a co-signed result is at most {MAX_RESULT_BYTES} bytes", 413)
    _check_version(data)
    try:
        result = verify_result(data)
    except AuditError as exc:
        if exc.reason == "bad_result" and "same key" in exc.message:
            raise Refused("same_key", "both seats have the same identity key") from None
        if exc.reason == "bad_result" and "unsupported game version" in exc.message:
            raise Refused("unsupported_version", exc.message) from None
        reason = {"bad_result": "not_a_result"}.get(exc.reason, exc.reason)
        raise Refused(reason, exc.message or exc.reason) from None
    if not result.rated:
        raise Refused("unrated", "the players agreed on an unrated match", 422)
    for seat, name in enumerate(result.names):
        if not valid_name(name):
            raise Refused("bad_name", f"the display name of seat {seat} is not a valid name")
    return RatedResult(data=data, digest=sha256(result.statement()), result=result)


def _check_version(data: bytes) -> None:
    """Tell another game version apart from garbage, so the refusal says which it is."""
    try:
        value = unpack(data)
    except Exception:  # the codec raises its typed error; anything else is garbage too
        raise Refused("not_a_result", "not canonical msgpack") from None
    if not isinstance(value, dict) or not isinstance(value.get("format"), str):
        raise Refused("not_a_result", "not a co-signed result file")
    fmt = value["format"]
    if fmt != COSIGNED_FORMAT:
        if fmt.startswith(FORMAT_PREFIX):
            raise Refused("unsupported_version", f"{fmt} is not this game version ({COSIGNED_FORMAT})")
        raise Refused("not_a_result", f"unknown file format {fmt!r}")
    result = value.get("result")
    version = result.get("version") if isinstance(result, dict) else None
    if type(version) is int and version != RESULT_VERSION:
        raise Refused(
            "unsupported_version", f"game version {version}, this service rates version {RESULT_VERSION}"
        )


MAX_CLAIM_BYTES = 8 * 1024 * 1024  # an abandonment file holds the transcript up to the silence


def check_abandonment(data: bytes) -> Abandonment:
    """An abandonment file the service records beside the absent player's rating (spec/ratings.md §6):
    its claim must hold when the transcript is replayed (``koikoi verify`` says "abandoned by
    player X at message N"), and the terms in that transcript must say the match was rated."""
    from koikoi_p2p.audit.abandonment import audit_abandonment
    from koikoi_p2p.protocol.abandonment import decode_abandonment
    from koikoi_p2p.protocol.errors import ProtocolError

    if len(data) > MAX_CLAIM_BYTES:
        raise Refused("too_large", f"an abandonment file is at most {MAX_CLAIM_BYTES} bytes", 413)
    try:
        abandonment = decode_abandonment(data)
    except ProtocolError as exc:
        raise Refused("not_a_claim", f"{exc.reason}: {exc.message}") from None
    terms = next((env.body for env in abandonment.transcript.envelopes if env.type == "terms"), None)
    if terms is None or terms.get("rated") is not True:
        raise Refused("unrated", "the transcript's terms do not make the match rated", 422)
    try:
        report = audit_abandonment(abandonment)
    except (AuditError, ProtocolError) as exc:
        raise Refused("not_a_claim", f"{exc.reason}: {exc.message}") from None
    if not report.ok:
        raise Refused("claim_not_upheld", "; ".join(report.notes) or "the claim does not hold", 422)
    claim = abandonment.claim
    keys = abandonment.transcript.session.keys
    return Abandonment(
        session=claim.session_id,
        absent=keys[claim.absent],
        claimant=keys[claim.claimant],
        message=claim.seq,
        digest=sha256(data),
        data=data,
    )


def claim_session(data: bytes) -> bytes | None:
    """The session an abandonment file's claim names, read without checking or replaying anything
    (None when the file is not even shaped like one): enough to find an already recorded claim
    before paying for a replay (spec/ratings.md §6.1)."""
    from koikoi_p2p.protocol import codec
    from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC, AbandonmentClaim

    if len(data) > MAX_CLAIM_BYTES or not data.startswith(ABANDON_MAGIC):
        return None
    try:
        value = codec.decode(data[len(ABANDON_MAGIC):], reason="bad_file")
        raw = value.get("claim") if isinstance(value, dict) else None
        if not isinstance(raw, dict):
            return None
        claim = AbandonmentClaim.from_dict(raw)
    except Exception:  # whatever the bytes are, the full check names the problem
        return None
    session = claim.session_id
    return session if isinstance(session, bytes) else None

"""Auditing an abandonment file: replay its transcript and check who owed message N.

The file's own checks (``protocol.abandonment``) prove that the claimant signed a claim over
this exact transcript head. The replay adds the game's view: the transcript must be valid up to
its end, incomplete, and waiting for the seat the claim accuses. Only then does the report say
"abandoned by player X at message N" (spec/protocol.md §12 says what this does and does not
prove about the relay).
"""

from __future__ import annotations

from dataclasses import replace

from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.replay import (
    AuditReport,
    Deviation,
    _Auditor,
    _deviation,
    _disclosed_keys,
    _summary,
    _view_as,
)
from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC, Abandonment, decode_abandonment
from koikoi_p2p.protocol.errors import ProtocolError


def audit_abandonment(abandonment: Abandonment) -> AuditReport:
    """The replay report of the transcript, with the abandonment as its finding when it holds."""
    claim = abandonment.claim
    report = _replay(abandonment)
    if report.deviation is not None:
        # Someone deviated before the silence: that, not the silence, is the finding.
        return replace(report, kind="abandonment", ok=False,
                       notes=(*report.notes, "the claim is moot: the transcript shows an earlier deviation"))
    if report.complete:
        return replace(report, kind="abandonment", ok=False,
                       notes=(*report.notes, "the claim is false: the match is complete"))
    if report.waiting_for != claim.absent:
        return replace(report, kind="abandonment", ok=False, notes=(
            *report.notes,
            f"the claim is false: at message {claim.seq} player {report.waiting_for} was to speak, "
            f"not player {claim.absent}",
        ))
    text = claim.describe()
    deviation = Deviation(seat=claim.absent, seq=claim.seq, reason="abandoned",
                          message=f"no {claim.expected} within the {claim.deadline} s deadline; "
                                  f"claimed by player {claim.claimant}")
    return replace(report, kind="abandonment", ok=True, deviation=deviation, notes=(text, *report.notes))


def _replay(abandonment: Abandonment) -> AuditReport:
    """Replay the transcript; the interrupted deal as the claimant saw it (with its round secret),
    as for evidence files: nobody disclosed that deal's keys, so no one sees every card of it."""
    transcript = abandonment.transcript
    session = transcript.session
    secrets = _disclosed_keys(transcript.envelopes)
    deal, key = abandonment.deal, abandonment.round_key
    claimant = abandonment.claim.claimant
    if deal >= 0 and key:
        secrets.setdefault(deal, {})[claimant] = key
    auditor = _Auditor(session.session_id, session.keys, session.room, secrets)
    _view_as(auditor, secrets, claimant)
    envelopes = transcript.envelopes
    for env in envelopes:
        try:
            auditor.feed(env)
        except ProtocolError as exc:
            return _summary("abandonment", auditor.flow, session.keys, len(envelopes), ok=False,
                            deviation=_deviation(exc, env))
    return _summary("abandonment", auditor.flow, session.keys, len(envelopes), ok=False)


def audit_abandonment_bytes(data: bytes) -> AuditReport:
    """Decode and audit an abandonment file; AuditError when it does not verify."""
    if not data.startswith(ABANDON_MAGIC):
        raise AuditError("bad_magic", "not an abandonment file")
    try:
        abandonment = decode_abandonment(data)
    except ProtocolError as exc:
        raise AuditError(exc.reason, exc.message, getattr(exc, "index", None)) from None
    return audit_abandonment(abandonment)


__all__ = ["audit_abandonment", "audit_abandonment_bytes"]

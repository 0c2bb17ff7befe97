"""Auditing an abandonment file: replay its transcript and check the claim against it.

The file's own checks (``protocol.abandonment``) prove that the claimant signed a claim over
this exact transcript head. The replay adds the game's view (spec/protocol.md §9.1): the
transcript must replay without fault and be incomplete; at its head the flow must wait for the
seat the claim accuses, for the very message type the claim names, with the deadline the signed
terms give that message; and the accused must have signed at least one envelope of the session
(a handshake alone does not show that it ever took part in the match). Only then does the report
say "abandoned by player X at message N". A claim the replay contradicts is the claimant's false
statement, signed by it, and is reported against the claimant.
"""

from __future__ import annotations

from dataclasses import replace

from koikoi_p2p.audit.core import AuditReport, Deviation, Replayer, deviation_of, disclosed_keys
from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC, Abandonment, AbandonmentClaim, decode_abandonment
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation

KIND = "abandonment"


def audit_abandonment(abandonment: Abandonment) -> AuditReport:
    """The replay report of the transcript, with the claim's verdict as its deviation: the
    abandonment when the claim holds, the claimant's ``false_claim`` when the replay contradicts
    it, ``unproven_claim`` when it cannot hold against the accused, or the earlier deviation."""
    claim = abandonment.claim
    report, stuck = _replay(abandonment)
    if stuck is not None:
        # The replay could not reach message N (spec/protocol.md §9.1 step 5): nobody deviated,
        # and nothing shows whose turn message N was.
        why = Phrase("the replay cannot reach message {seq}: {detail}", seq=claim.seq, detail=stuck)
        return replace(report, kind=KIND, ok=False,
                       deviation=Deviation(seat=None, seq=claim.seq, reason="unproven_claim", message=why),
                       notes=(*report.notes, Phrase("the claim proves nothing: {detail}", detail=why)))
    if report.deviation is not None:
        # Someone deviated before the silence: that, not the silence, is the finding.
        return replace(report, kind=KIND, ok=False,
                       notes=(*report.notes,
                              Phrase("the claim is moot: the transcript shows an earlier deviation")))
    problem = _false(claim, report)
    if problem is not None:
        return replace(report, kind=KIND, ok=False,
                       deviation=Deviation(seat=claim.claimant, seq=claim.seq, reason="false_claim",
                                           message=problem),
                       notes=(*report.notes, Phrase("the claim is false: {detail}", detail=problem)))
    envelopes = abandonment.transcript.envelopes
    last = max((env.seq for env in envelopes if env.sender == claim.absent), default=None)
    if last is None:
        why = Phrase("player {seat} signed no envelope of this session, so nothing shows that it ever took "
                     "part in the match", seat=claim.absent)
        return replace(report, kind=KIND, ok=False,
                       deviation=Deviation(seat=None, seq=claim.seq, reason="unproven_claim", message=why),
                       notes=(*report.notes, Phrase("the claim proves nothing: {detail}", detail=why)))
    deviation = Deviation(seat=claim.absent, seq=claim.seq, reason="abandoned",
                          message=Phrase("nothing came within the {deadline} s deadline when {expected} was "
                                         "due; claimed by player {claimant}", expected=Word(claim.expected),
                                         deadline=claim.deadline, claimant=claim.claimant))
    # the claim in words (AbandonmentClaim.describe), as a phrase a screen can translate
    said = Phrase("abandoned by player {seat} at message {seq}", seat=claim.absent, seq=claim.seq)
    spoke = Phrase("player {seat} last signed message {last}", seat=claim.absent, last=last)
    return replace(report, kind=KIND, ok=True, deviation=deviation, notes=(said, spoke, *report.notes))


def _false(claim: AbandonmentClaim, report: AuditReport) -> Phrase | None:
    """What in the claim the replay contradicts, or None (spec/protocol.md §9.1)."""
    if report.complete:
        return Phrase("the match is complete")
    if report.waiting is None:
        return Phrase("the replay waits for no one")
    seat, expected, deadline = report.waiting
    if seat != claim.absent:
        return Phrase("at message {seq} player {seat} was to speak, not player {absent}", seq=claim.seq,
                      seat=seat, absent=claim.absent)
    if claim.expected != expected:
        return Phrase("at message {seq} the match waits for {expected}, not {claimed}", seq=claim.seq,
                      expected=Word(expected), claimed=Word(claim.expected))
    if claim.deadline != deadline:
        return Phrase("the terms give {expected} a deadline of {deadline} s, not the {claimed} s the claim "
                      "names", expected=Word(expected), deadline=deadline, claimed=claim.deadline)
    return None


def _replay(abandonment: Abandonment) -> tuple[AuditReport, Phrase | None]:
    """Replay the transcript; the interrupted deal as the claimant saw it (with its round secret),
    as for evidence files: nobody disclosed that deal's keys, so no one sees every card of it.
    Also returns why the replay stopped short of the head without anyone's fault (a deal whose
    hidden cards need a round secret the file does not carry), or None."""
    transcript = abandonment.transcript
    secrets = disclosed_keys(transcript.envelopes)
    deal, key = abandonment.deal, abandonment.round_key
    claimant = abandonment.claim.claimant
    if deal >= 0 and key:
        secrets.setdefault(deal, {})[claimant] = key
    views = {d: claimant for d, keys in secrets.items() if len(keys) == 1 and claimant in keys}
    auditor = Replayer(transcript.session, secrets, views)
    envelopes = transcript.envelopes
    for env in envelopes:
        try:
            auditor.feed(env)
        except RemoteViolation as exc:
            return auditor.summary(KIND, len(envelopes), ok=False, deviation=deviation_of(exc, env)), None
        except ProtocolError as exc:
            if exc.reason == "deck_state":
                stuck = Phrase("deal {deal} cannot be checked from message {seq} on without a round secret "
                               "the file does not carry", deal=auditor.flow.deal, seq=env.seq)
            else:
                stuck = Phrase("message {seq}: {reason}: {message}", seq=env.seq, reason=Word(exc.reason),
                               message=exc.message)
            return auditor.summary(KIND, len(envelopes), ok=False), stuck
    return auditor.summary(KIND, len(envelopes), ok=False), None


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

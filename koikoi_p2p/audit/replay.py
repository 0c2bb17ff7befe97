"""Replaying a transcript or an evidence file through the game's own state machine.

A transcript is read twice: the first pass collects the round keys each deal discloses at its
end, so that the second pass replays every deal with every card known and checks each move at the
message that carries it (``core.Replayer``). An evidence file adds the offending envelope and the
reporter's own round secret of the interrupted deal, which lets the auditor see that deal exactly
as the reporter saw it (spec/game.md §8).
"""

from __future__ import annotations

from koikoi_p2p.audit.core import (
    AuditReport,
    Deviation,
    Replayer,
    deviation_of,
    disclosed_keys,
    reporter_keys,
)
from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.transcript import Evidence, Transcript
from mentalpoker.deck import DeckObserver


def audit_transcript(transcript: Transcript, *, observer: type[DeckObserver] = DeckObserver) -> AuditReport:
    """Replay a verified transcript container through the game; the report says whether the
    match is complete and valid, or who deviated first and where."""
    envelopes = transcript.envelopes
    auditor = Replayer(transcript.session, disclosed_keys(envelopes), observer=observer)
    for env in envelopes:
        try:
            auditor.feed(env)
        except RemoteViolation as exc:
            return auditor.summary("transcript", len(envelopes), ok=False, deviation=deviation_of(exc, env))
        except ProtocolError as exc:
            # Not a deviation: the auditor cannot go on. A deal cut short before its round keys
            # were disclosed hides its hands, so its moves cannot be replayed from the transcript.
            if exc.reason == "deck_state":
                note = Phrase("deal {deal} stops before its round keys were disclosed: its hidden cards and "
                              "moves cannot be checked from message {seq} on", deal=auditor.flow.deal,
                              seq=env.seq)
            else:
                note = Phrase("the replay cannot go on at message {seq}: {reason}: {message}", seq=env.seq,
                              reason=Word(exc.reason), message=exc.message)
            return auditor.summary("transcript", len(envelopes), ok=False, notes=(note,))
    flow = auditor.flow
    complete = flow.phase is Phase.DONE
    notes: list[str] = []
    if not complete:
        notes.append(Phrase("the match did not finish: the transcript stops while waiting for player {seat} "
                            "({expected})", seat=flow.expect[0], expected=Word(flow.expect[1])))
    if complete and not transcript.closed:
        notes.append(Phrase("the transcript has no closing marker"))
    return auditor.summary("transcript", len(envelopes), ok=complete and transcript.closed,
                           notes=tuple(notes))


def audit_evidence(evidence: Evidence) -> AuditReport:
    """Replay an evidence file: the envelopes before the offence must replay cleanly, and the
    offence must show a deviation of the accused (else the evidence proves nothing)."""
    session = evidence.session
    accused = 1 - evidence.reporter
    secrets = disclosed_keys(evidence.envelopes)
    for deal, round_key in reporter_keys(evidence.offence).items():
        secrets.setdefault(deal, {})[evidence.reporter] = round_key
    # The reporter's secret alone cannot show the accused's private cards: replay such a deal
    # as the reporter saw it.
    views = {deal: evidence.reporter for deal, keys in secrets.items() if set(keys) == {evidence.reporter}}
    auditor = Replayer(session, secrets, views)
    count = len(evidence.envelopes)
    for env in evidence.envelopes:
        try:
            auditor.feed(env)
        except ProtocolError as exc:
            # With the round keys in hand the replay can see a hidden deviation earlier than the
            # reporter could (spec/game.md §8.3): it proves the case if it is the accused's.
            dev = deviation_of(exc, env)
            if isinstance(exc, RemoteViolation) and dev.seat == accused:
                return auditor.summary("evidence", count, ok=True, deviation=dev,
                                       notes=(Phrase("found before the reported offence, with the "
                                                     "disclosed keys"),))
            return auditor.summary("evidence", count, ok=False, deviation=dev,
                                   notes=(Phrase("the transcript before the offence does not replay "
                                                 "cleanly"),))
    finding = evidence.finding
    if finding.proven and finding.envelope is not None:
        dev = Deviation(seat=accused, seq=finding.envelope.seq, reason=finding.reason,
                        message=Phrase("a second signed envelope, or one that breaks the chain"))
        return auditor.summary("evidence", count, ok=True, deviation=dev)
    if not finding.signed or finding.envelope is None:
        dev = Deviation(seat=None, seq=finding.index, reason=evidence.reason,
                        message=Phrase("the offending frame carries no valid signature of the accused: "
                                       "the relay or the network may have sent it"))
        return auditor.summary("evidence", count, ok=False, deviation=dev, notes=(Phrase("unattributable"),))
    env = finding.envelope
    head = evidence.envelopes[-1].digest() if evidence.envelopes else session.handshake_hash
    if env.seq != count or env.prev != head:
        # Signed by the accused, but not the next envelope of the reporter's chain: a frame the
        # relay dropped, or another history shown to the accused by the reporter, explains it
        # as well as a deviation does (spec/protocol.md §9). The game cannot judge it here.
        dev = Deviation(seat=None, seq=finding.index, reason=evidence.reason,
                        message=Phrase("the accused's signed envelope {seq} does not continue the "
                                       "reporter's chain at message {count}: it proves no deviation",
                                       seq=env.seq, count=count))
        return auditor.summary("evidence", count, ok=False, deviation=dev, notes=(Phrase("disputed"),))
    try:
        auditor.feed(env)
    except ProtocolError as exc:
        dev = deviation_of(exc, env)
        return auditor.summary("evidence", count + 1, ok=dev.seat == accused, deviation=dev)
    note = Phrase("the offending envelope replays without fault: the evidence proves nothing")
    return auditor.summary("evidence", count + 1, ok=False, notes=(note,))


__all__ = ["AuditReport", "Deviation", "audit_evidence", "audit_transcript"]

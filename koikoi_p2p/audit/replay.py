"""Replaying a transcript or an evidence file through the game's own state machine.

The auditor is a third ``GameFlow`` fed both seats' envelopes in order, with a ``DeckObserver``
in place of a player's deck. A transcript is read twice: the first pass collects the round keys
each deal discloses at its end, so that the second pass replays every deal with every card known
(viewer None) and checks each move at the message that carries it. An evidence file adds the
offending envelope and the reporter's own round secret of the interrupted deal, which lets the
auditor see that deal exactly as the reporter saw it (spec/game.md §8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.envelope import SignedEnvelope, decode_envelope
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.flow import DeckAccess, GameFlow, Phase
from koikoi_p2p.protocol.terms import GAME_VERSION
from koikoi_p2p.protocol.transcript import (
    EVIDENCE_MAGIC,
    TRANSCRIPT_MAGIC,
    Evidence,
    Transcript,
    TranscriptError,
    decode_evidence,
    decode_transcript,
)
from mentalpoker.deck import DeckObserver
from mentalpoker.errors import MentalPokerError


@dataclass(frozen=True, slots=True)
class Deviation:
    """Who deviated, at which envelope (its seq), and why."""

    seat: int | None
    seq: int | None
    reason: str
    message: str

    def describe(self) -> str:
        where = f" at message {self.seq}" if self.seq is not None else ""
        detail = f"{self.reason}" + (f" ({self.message})" if self.message else "")
        if self.seat is None:
            return f"no player is shown to have deviated{where}: {detail}"
        return f"player {self.seat} deviated{where}: {detail}"


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The outcome of a replay."""

    kind: str                                  # "transcript" or "evidence"
    ok: bool                                   # a complete, valid match (transcript) / a proven offence
    complete: bool                             # the match reached its co-signed result
    messages: int
    profile: str | None
    keys: tuple[bytes, bytes]
    scores: tuple[int, int] | None
    winner: int | None
    rounds: tuple[tuple[int, int | None, int], ...]
    result: bytes | None                       # the co-signed result, when complete
    deviation: Deviation | None = None
    waiting_for: int | None = None             # incomplete: the seat expected to speak next
    notes: tuple[str, ...] = field(default=())
    resigned: tuple[int, int] | None = None    # (seat, message) of a resignation

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind, "ok": self.ok, "complete": self.complete, "messages": self.messages,
            "profile": self.profile, "keys": [k.hex() for k in self.keys],
            "scores": list(self.scores) if self.scores else None, "winner": self.winner,
            "rounds": [list(r) for r in self.rounds], "result": self.result.hex() if self.result else None,
            "deviation": None if self.deviation is None else {
                "seat": self.deviation.seat, "seq": self.deviation.seq, "reason": self.deviation.reason,
                "message": self.deviation.message, "text": self.deviation.describe()},
            "waiting_for": self.waiting_for, "notes": list(self.notes),
            "resigned": None if self.resigned is None else {"seat": self.resigned[0],
                                                            "seq": self.resigned[1]},
        }


class ObserverDeck:
    """``DeckAccess`` over a ``DeckObserver``; round secrets known in advance are applied as soon
    as both public keys are in, so every later reveal is seen with that knowledge."""

    def __init__(self, observer: DeckObserver, secrets: Mapping[int, bytes]) -> None:
        self.observer = observer
        self.secrets = dict(secrets)
        self.keys_in = 0

    def key(self, sender: int, data: bytes) -> None:
        self.observer.receive_key(sender, data)
        self.keys_in += 1
        if self.keys_in == 2:
            for party, secret in self.secrets.items():
                try:
                    self.observer.receive_disclosed_key(party, secret)
                except MentalPokerError:
                    pass  # a wrong disclosed key is caught at its own message, in order

    def shuffle(self, sender: int, data: bytes) -> None:
        self.observer.receive_shuffle(sender, data)

    def shares(self, sender: int, positions: tuple[int, ...], data: bytes) -> None:
        self.observer.receive_shares(sender, positions, data)

    def card(self, position: int) -> int | None:
        return self.observer.card_at(position) if self.observer.known(position) else None

    def disclosed(self, sender: int, data: bytes) -> None:
        self.observer.receive_disclosed_key(sender, data)

    def audit(self) -> tuple[int, ...]:
        return self.observer.audit()


def _disclosed_keys(envelopes: Sequence[SignedEnvelope]) -> dict[int, dict[int, bytes]]:
    """First pass: the round secrets each deal discloses (each ``disclose`` names its deal)."""
    found: dict[int, dict[int, bytes]] = {}
    for env in envelopes:
        key, deal = env.body.get("key"), env.body.get("deal")
        if env.type == m.DISCLOSE and isinstance(key, bytes) and type(deal) is int:
            found.setdefault(deal, {})[env.sender] = key
    return found


def _reporter_keys(offence: Mapping[str, object]) -> dict[int, bytes]:
    """The reporter's own round secrets of the deals it had not disclosed (spec/game.md §8.1)."""
    out: dict[int, bytes] = {}
    keys = offence.get("round_keys")
    if isinstance(keys, list):
        for item in keys:
            if (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], bytes) and item[1]):
                out[item[0]] = item[1]
    return out


class _Auditor:
    def __init__(self, session_id: bytes, keys: tuple[bytes, bytes], room: str,
                 secrets: dict[int, dict[int, bytes]], viewer_of_last: int | None = None) -> None:
        self.secrets = secrets
        self.viewer_of_last = viewer_of_last
        self.session_id = session_id
        self.flow = GameFlow(viewer=None, keys=keys, room=room, session_id=session_id,
                             deck_factory=self._deck)

    def _deck(self, deal: int, first_shuffler: int) -> DeckAccess:
        observer = DeckObserver(n=48, version=GAME_VERSION, session_id=self.session_id, round=deal,
                                first_shuffler=first_shuffler)
        return ObserverDeck(observer, self.secrets.get(deal, {}))

    def feed(self, env: SignedEnvelope) -> None:
        self.flow.accept(env.sender, env.type, env.body, seq=env.seq, prev=env.prev)


def _summary(kind: str, flow: GameFlow, keys: tuple[bytes, bytes], messages: int, *, ok: bool,
             deviation: Deviation | None = None, notes: tuple[str, ...] = ()) -> AuditReport:
    complete = flow.phase is Phase.DONE and flow.cosigned is not None
    result = flow.cosigned.encode() if flow.cosigned is not None else None
    waiting = None
    if not complete and flow.phase is not Phase.FAILED:
        waiting = flow.expect[0]
    blind = tuple(f"deal {deal} was replayed without its round keys: its public moves were checked, "
                  "not the rules that need the hidden hands" for deal in sorted(flow.blind))
    if flow.resigned is not None:
        blind = (f"resigned by player {flow.resigned[0]} at message {flow.resigned[1]}", *blind)
    notes = (*notes, *blind)
    return AuditReport(
        kind=kind, ok=ok, complete=complete, messages=messages,
        profile=flow.terms.profile.name if flow.terms else None, keys=keys,
        scores=flow.scores if flow.match is not None else None,
        winner=flow.cosigned.result.winner if flow.cosigned else None,
        rounds=tuple(flow.history), result=result, deviation=deviation, waiting_for=waiting, notes=notes,
        resigned=flow.resigned)


def _deviation(exc: ProtocolError, env: SignedEnvelope) -> Deviation:
    seat: int | None = env.sender
    seq: int | None = env.seq
    if not isinstance(exc, RemoteViolation):
        seat = None   # the replay itself could not go on: no one is blamed
    else:
        s, q = exc.evidence.get("seat"), exc.evidence.get("seq")
        seat = s if isinstance(s, int) else seat
        seq = q if isinstance(q, int) else seq
    return Deviation(seat=seat, seq=seq, reason=exc.reason, message=exc.message)


def _view_as(auditor: _Auditor, secrets: Mapping[int, Mapping[int, bytes]], seat: int) -> None:
    """Replay every deal of which only ``seat``'s round secret is known as ``seat`` saw it."""
    auditor.flow.views = {deal: seat for deal, keys in secrets.items() if set(keys) == {seat}}


def audit_transcript(transcript: Transcript) -> AuditReport:
    """Replay a verified transcript container through the game; the report says whether the
    match is complete and valid, or who deviated first and where."""
    session = transcript.session
    envelopes = transcript.envelopes
    auditor = _Auditor(session.session_id, session.keys, session.room, _disclosed_keys(envelopes))
    for env in envelopes:
        try:
            auditor.feed(env)
        except RemoteViolation as exc:
            return _summary("transcript", auditor.flow, session.keys, len(envelopes), ok=False,
                            deviation=_deviation(exc, env))
        except ProtocolError as exc:
            # Not a deviation: the auditor cannot go on. A deal cut short before its round keys
            # were disclosed hides its hands, so its moves cannot be replayed from the transcript.
            if exc.reason == "deck_state":
                note = (f"deal {auditor.flow.deal} stops before its round keys were disclosed: its hidden "
                        f"cards and moves cannot be checked from message {env.seq} on")
            else:
                note = f"the replay cannot go on at message {env.seq}: {exc.reason}: {exc.message}"
            return _summary("transcript", auditor.flow, session.keys, len(envelopes), ok=False,
                            notes=(note,))
    flow = auditor.flow
    complete = flow.phase is Phase.DONE
    notes: list[str] = []
    if not complete:
        notes.append("the match did not finish: the transcript stops while waiting for "
                     f"player {flow.expect[0]} ({flow.expect[1]})")
    if complete and not transcript.closed:
        notes.append("the transcript has no closing marker")
    return _summary("transcript", flow, session.keys, len(envelopes), ok=complete and transcript.closed,
                    notes=tuple(notes))


def audit_evidence(evidence: Evidence) -> AuditReport:
    """Replay an evidence file: the envelopes before the offence must replay cleanly, and the
    offence must show a deviation of the accused (else the evidence proves nothing)."""
    session = evidence.session
    accused = 1 - evidence.reporter
    secrets = _disclosed_keys(evidence.envelopes)
    offence = evidence.offence
    for deal, round_key in _reporter_keys(offence).items():
        secrets.setdefault(deal, {})[evidence.reporter] = round_key
    auditor = _Auditor(session.session_id, session.keys, session.room, secrets)
    # The reporter's secret alone cannot show the accused's private cards: replay such a deal
    # as the reporter saw it.
    _view_as(auditor, secrets, evidence.reporter)
    count = len(evidence.envelopes)
    for env in evidence.envelopes:
        try:
            auditor.feed(env)
        except ProtocolError as exc:
            # With the round keys in hand the replay can see a hidden deviation earlier than the
            # reporter could (spec/game.md §8.3): it proves the case if it is the accused's.
            dev = _deviation(exc, env)
            if isinstance(exc, RemoteViolation) and dev.seat == accused:
                return _summary("evidence", auditor.flow, session.keys, count, ok=True, deviation=dev,
                                notes=("found before the reported offence, with the disclosed keys",))
            return _summary("evidence", auditor.flow, session.keys, count, ok=False, deviation=dev,
                            notes=("the transcript before the offence does not replay cleanly",))
    finding = evidence.finding
    if finding.proven and finding.envelope is not None:
        dev = Deviation(seat=accused, seq=finding.envelope.seq, reason=evidence.reason,
                        message="a second signed envelope, or one that breaks the chain")
        return _summary("evidence", auditor.flow, session.keys, count, ok=True, deviation=dev)
    if not finding.signed or finding.envelope is None:
        dev = Deviation(seat=None, seq=finding.index, reason=evidence.reason,
                        message="the offending frame carries no valid signature of the accused: "
                                "the relay or the network may have sent it")
        return _summary("evidence", auditor.flow, session.keys, count, ok=False, deviation=dev,
                        notes=("unattributable",))
    env = finding.envelope
    head = evidence.envelopes[-1].digest() if evidence.envelopes else session.handshake_hash
    if env.seq != count or env.prev != head:
        # Signed by the accused, but not the next envelope of the reporter's chain: a frame the
        # relay dropped, or another history shown to the accused by the reporter, explains it
        # as well as a deviation does (spec/protocol.md §9). The game cannot judge it here.
        dev = Deviation(seat=None, seq=finding.index, reason=evidence.reason,
                        message=f"the accused's signed envelope {env.seq} does not continue the "
                                f"reporter's chain at message {count}: it proves no deviation")
        return _summary("evidence", auditor.flow, session.keys, count, ok=False, deviation=dev,
                        notes=("disputed",))
    try:
        auditor.feed(env)
    except ProtocolError as exc:
        dev = _deviation(exc, env)
        return _summary("evidence", auditor.flow, session.keys, count + 1, ok=dev.seat == accused,
                        deviation=dev)
    return _summary("evidence", auditor.flow, session.keys, count + 1, ok=False,
                    notes=("the offending envelope replays without fault: the evidence proves nothing",))


def audit_bytes(data: bytes) -> AuditReport:
    """Audit a transcript or evidence file's bytes (told apart by their magic)."""
    try:
        if data.startswith(EVIDENCE_MAGIC):
            return audit_evidence(decode_evidence(data))
        if data.startswith(TRANSCRIPT_MAGIC):
            return audit_transcript(decode_transcript(data))
        if data.startswith(b"\x89KKABND\n"):  # an abandonment claim (spec/protocol.md §12)
            from koikoi_p2p.audit.abandonment import audit_abandonment_bytes

            return audit_abandonment_bytes(data)
    except TranscriptError as exc:
        raise AuditError(exc.reason, exc.message, exc.index) from None
    raise AuditError("bad_magic", "neither a transcript nor an evidence file")


__all__ = ["AuditReport", "Deviation", "ObserverDeck", "audit_bytes", "audit_evidence", "audit_transcript",
           "decode_envelope"]

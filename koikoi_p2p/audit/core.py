"""What every audit shares: the report, the deviation, and the replayer that feeds a transcript's
envelopes to the game's own state machine (spec/game.md §8).

The replayer is a third ``GameFlow`` fed both seats' envelopes in order, with a ``DeckObserver``
in place of a player's deck. The round keys each deal discloses at its end are collected first,
so that every deal is replayed with every card known (viewer None) and each move is checked at
the message that carries it. A deal whose keys were never disclosed (the one a match stopped in)
can be replayed as one seat saw it, given that seat's own round secret (``views``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from koikoi_p2p.phrase import Phrase, detail
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.errors import ProtocolError, RemoteViolation
from koikoi_p2p.protocol.flow import DeckAccess, GameFlow, Phase
from koikoi_p2p.protocol.handshake import VerifiedHandshake
from koikoi_p2p.protocol.terms import GAME_VERSION
from mentalpoker.deck import DeckObserver
from mentalpoker.errors import MentalPokerError


@dataclass(frozen=True, slots=True)
class Deviation:
    """Who deviated (or, for an abandonment, went silent), at which envelope (its seq), and why."""

    seat: int | None
    seq: int | None
    reason: str
    message: str

    def describe(self) -> Phrase:
        seq = self.seq
        if self.reason == "resigned" and self.seat is not None:
            if seq is None:
                return Phrase("resigned by player {seat}", seat=self.seat)
            return Phrase("resigned by player {seat} at message {seq}", seat=self.seat, seq=seq)
        if self.reason == "abandoned" and self.seat is not None and not self.message:
            return Phrase("abandoned by player {seat} at message {seq}", seat=self.seat, seq=seq)
        if self.reason == "abandoned" and self.seat is not None:
            if seq is None:
                return Phrase("abandoned by player {seat} ({detail})", seat=self.seat, detail=self.message)
            return Phrase("abandoned by player {seat} at message {seq} ({detail})", seat=self.seat, seq=seq,
                          detail=self.message)
        why = detail(self.reason, self.message)
        if self.seat is None:
            if seq is None:
                return Phrase("no player is shown to have deviated: {why}", why=why)
            return Phrase("no player is shown to have deviated at message {seq}: {why}", seq=seq, why=why)
        if seq is None:
            return Phrase("player {seat} deviated: {why}", seat=self.seat, why=why)
        return Phrase("player {seat} deviated at message {seq}: {why}", seat=self.seat, seq=seq, why=why)

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "seq": self.seq, "reason": self.reason, "message": self.message,
                "text": self.describe()}


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The outcome of a replay."""

    kind: str                                  # "transcript", "evidence" or "abandonment"
    ok: bool                                   # a complete valid match / proven offence / claim that holds
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
    session_id: bytes = b""
    waiting: tuple[int, str, int] | None = None    # incomplete: (seat, message type, deadline s)
    resigned: tuple[int, int] | None = None    # (seat, message) of a resignation

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind, "ok": self.ok, "complete": self.complete, "messages": self.messages,
            "profile": self.profile, "keys": [k.hex() for k in self.keys],
            "scores": list(self.scores) if self.scores else None, "winner": self.winner,
            "rounds": [list(r) for r in self.rounds], "result": self.result.hex() if self.result else None,
            "deviation": None if self.deviation is None else self.deviation.to_json(),
            "waiting_for": self.waiting_for, "notes": list(self.notes),
            "session": self.session_id.hex(),
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


def disclosed_keys(envelopes: Sequence[SignedEnvelope]) -> dict[int, dict[int, bytes]]:
    """The round secrets each deal discloses (each ``disclose`` names its deal)."""
    found: dict[int, dict[int, bytes]] = {}
    for env in envelopes:
        key, deal = env.body.get("key"), env.body.get("deal")
        if env.type == m.DISCLOSE and isinstance(key, bytes) and type(deal) is int:
            found.setdefault(deal, {})[env.sender] = key
    return found


def reporter_keys(offence: Mapping[str, object]) -> dict[int, bytes]:
    """The reporter's own round secrets of the deals it had not disclosed (spec/game.md §8.1): an
    entry that is not [deal, 32-byte secret] (an empty secret: no key of that deal yet) is ignored."""
    out: dict[int, bytes] = {}
    keys = offence.get("round_keys")
    if isinstance(keys, list):
        for item in keys:
            if (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], bytes) and len(item[1]) == 32):
                out[item[0]] = item[1]
    return out


class Replayer:
    """A third ``GameFlow`` over a verified session, fed envelopes one by one.

    ``secrets`` holds each deal's round secrets (disclosed at its end, or given by a reporter);
    ``views`` names, for a deal only one seat's secret is known of, the seat whose view the deal
    is replayed from (its hidden cards then stay hidden, as they were to that seat)."""

    def __init__(self, session: VerifiedHandshake, secrets: Mapping[int, Mapping[int, bytes]],
                 views: Mapping[int, int] | None = None, *,
                 observer: type[DeckObserver] = DeckObserver) -> None:
        self.session = session
        self.observer = observer      # the deck class (the audit benchmark swaps in version 1's)
        self.secrets = {deal: dict(keys) for deal, keys in secrets.items()}
        self.views = dict(views or {})
        # The names the handshake bound (each signed by its key): the terms must carry exactly
        # these (spec/game.md §2.2), for an auditor as for a peer.
        self.flow = GameFlow(viewer=None, keys=session.keys, room=session.room,
                             session_id=session.session_id, deck_factory=self._deck, views=self.views,
                             names=session.names)

    def _deck(self, deal: int, first_shuffler: int) -> DeckAccess:
        observer = self.observer(n=48, version=GAME_VERSION, session_id=self.session.session_id,
                                 round=deal, first_shuffler=first_shuffler)
        return ObserverDeck(observer, self.secrets.get(deal, {}))

    def feed(self, env: SignedEnvelope) -> None:
        self.flow.accept(env.sender, env.type, env.body, seq=env.seq, prev=env.prev)

    def summary(self, kind: str, messages: int, *, ok: bool, deviation: Deviation | None = None,
                notes: tuple[str, ...] = ()) -> AuditReport:
        """The report of the flow as it stands."""
        flow = self.flow
        complete = flow.phase is Phase.DONE and flow.cosigned is not None
        result = flow.cosigned.encode() if flow.cosigned is not None else None
        waiting = None if complete or flow.phase is Phase.FAILED else flow.waiting_for()
        blind: tuple[str, ...] = tuple(
            Phrase("deal {deal} was replayed without its round keys: its public moves were checked, not "
                   "the rules that need the hidden hands", deal=deal) for deal in sorted(flow.blind))
        if flow.resigned is not None:
            blind = (Phrase("resigned by player {seat} at message {seq}", seat=flow.resigned[0],
                            seq=flow.resigned[1]), *blind)
        notes = (*notes, *blind)
        return AuditReport(
            kind=kind, ok=ok, complete=complete, messages=messages,
            profile=flow.terms.profile.name if flow.terms else None, keys=self.session.keys,
            scores=flow.scores if flow.match is not None else None,
            winner=flow.cosigned.result.winner if flow.cosigned else None,
            rounds=tuple(flow.history), result=result, deviation=deviation,
            waiting_for=waiting[0] if waiting else None, notes=notes,
            session_id=self.session.session_id, waiting=waiting, resigned=flow.resigned)


def deviation_of(exc: ProtocolError, env: SignedEnvelope) -> Deviation:
    """The deviation a replay error shows: the seat and message the violation names (default the
    envelope that raised it); no one for an error that is not a remote violation."""
    seat: int | None = env.sender
    seq: int | None = env.seq
    if not isinstance(exc, RemoteViolation):
        seat = None   # the replay itself could not go on: no one is blamed
    else:
        s, q = exc.evidence.get("seat"), exc.evidence.get("seq")
        seat = s if isinstance(s, int) else seat
        seq = q if isinstance(q, int) else seq
    return Deviation(seat=seat, seq=seq, reason=exc.reason, message=exc.message)


__all__ = ["AuditReport", "Deviation", "ObserverDeck", "Replayer", "deviation_of", "disclosed_keys",
           "reporter_keys"]

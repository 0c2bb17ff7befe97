"""The embedding API: an asyncio ``Match`` that yields events and takes decisions.

``Match`` is a thin driver around the sans-I/O machines: it runs the handshake over a transport,
then feeds frames to a ``GamePeer`` and sends what it returns. Every wait has the deadline of the
match terms, our own decisions too: once our deadline (the terms' less ``own_margin_s``) has
passed, ``decide`` refuses (``deadline_passed``) and ``events()`` ends with ``TimeUp`` (what the
opponent may now claim) and a ``Failure`` (spec/protocol.md §12.4). The transcript is appended to a file
as the match goes (a crash loses nothing accepted); a violation writes an evidence file.

    async for event in match.events():
        if isinstance(event, (YourTurn, ChoiceNeeded)):
            await match.decide(event.options[0])

``play_match`` drives one seat with a computer ``Strategy``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from koikoi_p2p.ai.strategy import MatchContext, Strategy, show_round, tell_match
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import (
    Board,
    ChoiceNeeded,
    Event,
    Failure,
    MatchOver,
    OpponentMoved,
    Paired,
    RoundOver,
    TermsAgreed,
    TimeUp,
    YourTurn,
)
from koikoi_p2p.protocol.handshake import MAX_ROOM, Handshake, HandshakeResult
from koikoi_p2p.protocol.identity import Identity, KnownPeers, fingerprint
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.terms import DEADLINE_RANGE, Deadlines, MatchTerms
from koikoi_p2p.protocol.transcript import TranscriptWriter, write_evidence
from koikoi_p2p.protocol.transport import Transport, TransportClosed
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import Profile, preset, with_rounds

Rng = Callable[[int], bytes]
HANDSHAKE_DEADLINE = 60.0


class Match:
    """One seat of a match over a transport (seat 0 hosts and proposes the terms)."""

    def __init__(self, transport: Transport, *, seat: int, identity: Identity, room: str,
                 password: str | None = None, profile: Profile | str | None = None, rounds: int | None = None,
                 deadlines: Deadlines | None = None, store: str | os.PathLike[str] | None = None,
                 rng: Rng | None = None, known_peers: KnownPeers | None = None,
                 peer_name: str | None = None,
                 accept_terms: Callable[[MatchTerms], bool] | None = None,
                 own_margin_s: float = 2.0, name: str = "", rated: bool = False, ratings: str = "") -> None:
        # The arguments are checked here, with the reasons of the JavaScript Match, rather than
        # failing later inside events() with an untyped error.
        if seat not in (0, 1) or type(seat) is not int:
            raise LocalMisuse("bad_seat", "seat is 0 or 1")
        if not callable(getattr(transport, "send", None)) or not callable(getattr(transport, "recv", None)):
            raise LocalMisuse("bad_argument", "transport has send and recv")
        if not isinstance(identity, Identity):
            raise LocalMisuse("bad_argument", "identity is an Identity (generated, or from its file)")
        if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
            raise LocalMisuse("bad_room", f"a room code is 1..{MAX_ROOM} characters")
        if isinstance(profile, str):
            profile = preset(profile)      # a preset's name, as in JavaScript (RulesError unknown_preset)
        elif profile is not None and not isinstance(profile, Profile):
            raise LocalMisuse("bad_argument", "profile is a Profile or a preset's name")
        if deadlines is not None and (not isinstance(deadlines, Deadlines) or not all(
                type(v) is int and DEADLINE_RANGE[0] <= v <= DEADLINE_RANGE[1]
                for v in (deadlines.step, deadlines.turn))):
            raise LocalMisuse("bad_argument", "deadlines are Deadlines(step, turn), each 1..86400 seconds")
        self.transport = transport
        self.seat = seat
        self.identity = identity
        self.room = room
        self.password = password
        self.profile = profile if profile is not None or seat == 1 else preset("nintendo")
        if self.profile is not None and rounds is not None:
            if type(rounds) is not int:
                raise RulesError("bad_switch", "rounds must be an integer 0..10000")
            with_rounds(self.profile, rounds)   # RulesError bad_switch now, not from events()
        self.rounds = rounds
        self.deadlines = deadlines or Deadlines()
        self.store = Path(store) if store is not None else None
        self.rng = rng
        self.known_peers = known_peers
        self.peer_name = peer_name
        self.accept_terms = accept_terms
        # The host's choice (spec/game.md §2.2, spec/ratings.md §2): rated on this service URL.
        self.name = name                    # this identity's display name, signed in the handshake
        self.rated, self.ratings = rated, ratings
        self.peer: GamePeer | None = None
        self.handshake: HandshakeResult | None = None
        self.transcript_path: str | None = None
        self.evidence_path: str | None = None
        self.result_path: str | None = None
        self.bytes_sent = 0
        self.bytes_received = 0
        self._writer: TranscriptWriter | None = None
        self._written = 0
        self._decided = asyncio.Event()
        self.own_margin_s = own_margin_s
        self._wait_started = 0.0           # loop time the current wait began
        self._expired: TimeUp | None = None
        self._started = False

    # -- the API ----------------------------------------------------------------------------------
    def events(self) -> AsyncGenerator[Event, None]:
        """Run the match, yielding events until ``MatchOver`` or ``Failure`` (the last event).

        An async generator: a caller that stops reading before the last event closes it with
        ``aclose()``. It runs once per match: a second call raises ``LocalMisuse("bad_state")``
        at once and leaves the match under way alone (as the JavaScript ``events()``).
        """
        if self._started:
            raise LocalMisuse("bad_state", "events() runs once per match")
        self._started = True
        return self._events()

    async def _events(self) -> AsyncGenerator[Event, None]:
        peer_seat = 1 - self.seat
        try:
            result = await self._handshake()
            yield self._paired(result)
            peer = self._start_peer(result)
            await self._send(peer.start())
            self._wait_started = asyncio.get_running_loop().time()
            while True:
                for event in self._drain():
                    if isinstance(event, (YourTurn, ChoiceNeeded)):
                        # What we owe before our act leaves before our person is asked, after
                        # the opponent's move is shown (spec/game.md §7.3).
                        await self._send(peer.idle())
                    yield event
                    if isinstance(event, (MatchOver, Failure)):
                        return
                if self._expired is not None:
                    yield self._expired
                    yield self._stopped("own_timeout", self._expired_text(), self.seat)
                    return
                waiting = peer.waiting_for()
                if waiting is None:
                    if peer.has_events():
                        continue
                    return
                # Idle time (spec/game.md §5.2): deferred checks, and what this seat owes before its
                # act leaves now, while its person decides or while the opponent's move is awaited.
                await self._send(peer.idle())
                waiting = peer.waiting_for()
                if waiting is None or peer.has_events():
                    continue
                seat, _, seconds = waiting
                if seat == self.seat:
                    # Only a decision can be pending on our side: wait for decide() (or
                    # decide_terms, resign), until our own deadline (then no more input is taken).
                    try:
                        async with asyncio.timeout(max(0.0, self._own_budget(seconds))):
                            await self._decided.wait()
                    except TimeoutError:
                        self._expire()
                    self._decided.clear()
                    continue
                async with asyncio.timeout(seconds):
                    frame = await self.transport.recv()
                self.bytes_received += len(frame)
                await self._send(peer.receive(frame))
                self._wait_started = asyncio.get_running_loop().time()
        except RemoteViolation as exc:
            yield self._failure(exc)
        except TimeoutError:
            yield self._stopped("timeout", f"player {peer_seat} did not answer in time", peer_seat)
        except TransportClosed:
            yield self._stopped("connection_closed", "the connection closed before the end", peer_seat)
        except ProtocolError as exc:
            yield self._stopped(exc.reason, exc.message, None)

    async def decide(self, action: Action) -> None:
        """Answer the last ``YourTurn`` or ``ChoiceNeeded``; ``LocalMisuse`` if not legal now (the
        question is then asked again by ``events()``)."""
        if self.peer is None:
            raise LocalMisuse("not_started", "the match has not started")
        waiting = self.peer.waiting_for()
        if self._expired is None and waiting is not None and waiting[0] == self.seat \
                and self._own_budget(waiting[2]) <= 0:
            self._expire()
        if self._expired is not None:
            self._decided.set()
            raise LocalMisuse("deadline_passed", self._expired_text())
        try:
            frames = self.peer.decide(action)
        except ProtocolError:
            if self.peer.error is None:
                # An illegal choice: events() asks the same question again (an embedder that
                # catches this error and keeps iterating gets the YourTurn/ChoiceNeeded anew).
                self.peer.flow.announce_pending()
            self._decided.set()
            raise
        try:
            await self._send(frames)
        finally:
            self._wait_started = asyncio.get_running_loop().time()
            self._decided.set()       # even if sending failed: events() then sees the transport

    async def decide_terms(self, accept: bool) -> None:
        """The joiner's answer to ``TermsProposed``: sign the terms, or refuse them (the match then
        ends with a ``Failure`` "terms_refused" and nothing is sent)."""
        if type(accept) is not bool:      # checked first, as in JavaScript
            raise LocalMisuse("bad_argument", "accept is True or False")
        if self.peer is None:
            raise LocalMisuse("not_started", "the match has not started")
        if self._expired is not None:
            self._decided.set()
            raise LocalMisuse("deadline_passed", self._expired_text())
        try:
            frames = self.peer.decide_terms(accept)
        except LocalMisuse as exc:
            self._decided.set()
            if exc.reason == "terms_refused":
                return
            raise
        try:
            await self._send(frames)
        finally:
            self._decided.set()

    async def resign(self) -> None:
        """Give the match up when this seat is asked to act (spec/game.md §6.3): the opponent
        countersigns a result that names it the winner; ``MatchOver.resigned`` names this seat."""
        if self.peer is None:
            raise LocalMisuse("not_started", "the match has not started")
        if self._expired is not None:
            self._decided.set()
            raise LocalMisuse("deadline_passed", self._expired_text())
        try:
            frames = self.peer.resign()
        finally:
            self._decided.set()
        await self._send(frames)

    def can_resign(self) -> bool:
        return self.peer is not None and self.peer.can_resign()

    def legal_actions(self) -> tuple[Action, ...]:
        return self.peer.legal_actions() if self.peer is not None else ()

    # -- internals --------------------------------------------------------------------------------
    def _own_budget(self, seconds: int) -> float:
        """Seconds left before our own deadline: the terms' less a margin (at most half), so our
        last frame reaches the peer before its clock, started when it sent, runs out."""
        elapsed = asyncio.get_running_loop().time() - self._wait_started
        return seconds - min(self.own_margin_s, seconds / 2) - elapsed

    def _expire(self) -> None:
        assert self.peer is not None
        waiting = self.peer.waiting_for()
        expected, seconds = (waiting[1], waiting[2]) if waiting is not None else ("act", 0)
        self._expired = TimeUp(seat=self.seat, claimant=1 - self.seat, seq=self.peer.channel.next_seq,
                               expected=expected, deadline=seconds)

    def _expired_text(self) -> str:
        up = self._expired
        assert up is not None
        return (f"your time ran out ({up.deadline}s for {up.expected}): player {up.claimant} may claim "
                f"abandonment by player {up.seat} at message {up.seq}")

    async def _handshake(self) -> HandshakeResult:
        handshake = Handshake(seat=self.seat, identity=self.identity, room=self.room, password=self.password,
                              rng=self.rng, name=self.name)
        async with asyncio.timeout(HANDSHAKE_DEADLINE):
            for frame in handshake.start():
                await self._raw_send(frame)
            while not handshake.done:
                frame = await self.transport.recv()
                self.bytes_received += len(frame)
                for out in handshake.receive(frame):
                    await self._raw_send(out)
        self.handshake = handshake.result
        return handshake.result

    def _paired(self, result: HandshakeResult) -> Paired:
        known: bool | Literal["changed"] = False
        if self.known_peers is not None and self.peer_name:
            status = self.known_peers.check(self.peer_name, result.peer_key)
            if status == "new":
                self.known_peers.remember(self.peer_name, result.peer_key)
            known = "changed" if status == "changed" else status == "known"
        return Paired(peer_fingerprint=fingerprint(result.peer_key), sas=result.sas, known=known,
                      peer_name=result.names[1 - self.seat])

    def _start_peer(self, result: HandshakeResult) -> GamePeer:
        channel = result.channel
        proposal = None
        if self.seat == 0:
            assert self.profile is not None
            keys = (self.identity.public_key, result.peer_key)
            proposal = MatchTerms.propose(profile=self.profile, keys=keys, room=self.room, rounds=self.rounds,
                                          deadlines=self.deadlines, names=result.names, rated=self.rated,
                                          ratings=self.ratings)
        self.peer = GamePeer(channel=channel, room=self.room, proposal=proposal, rng=self.rng,
                             handshake_record=result.record, accept_terms=self.accept_terms)
        if self.store is not None:
            self.store.mkdir(parents=True, exist_ok=True)
            stem = f"match-{result.session_id.hex()[:16]}-seat{self.seat}"
            path = self.store / f"{stem}.transcript"
            self._writer = TranscriptWriter(path, result.record)
            self.transcript_path = str(path)
        return self.peer

    async def _raw_send(self, frame: bytes) -> None:
        self.bytes_sent += len(frame)
        await self.transport.send(frame)

    async def _send(self, frames: list[bytes]) -> None:
        self._flush_transcript()
        for frame in frames:
            await self._raw_send(frame)

    def _flush_transcript(self) -> None:
        if self._writer is None or self.peer is None:
            return
        for env in self.peer.transcript[self._written:]:
            self._writer.append(env)
        self._written = len(self.peer.transcript)

    def _drain(self) -> list[Event]:
        assert self.peer is not None
        self._flush_transcript()
        out: list[Event] = []
        for event in self.peer.events():
            if isinstance(event, RoundOver):
                event = dataclasses.replace(event, transcript_path=self.transcript_path)
            elif isinstance(event, MatchOver):
                if self._writer is not None:
                    self._writer.close()
                    self._writer = None
                if self.store is not None and self.transcript_path is not None:
                    result_path = Path(self.transcript_path).with_suffix(".result")
                    result_path.write_bytes(event.result)
                    self.result_path = str(result_path)
                event = dataclasses.replace(event, transcript_path=self.transcript_path)
            elif isinstance(event, Failure):
                event = self._with_evidence(event)
            out.append(event)
        return out

    def _with_evidence(self, event: Failure) -> Failure:
        peer = self.peer
        if self._writer is not None:
            self._writer.abandon()
            self._writer = None
        if peer is None or self.store is None or self.handshake is None:
            return event
        if not isinstance(peer.error, RemoteViolation):
            return event
        path = self.store / f"match-{self.handshake.session_id.hex()[:16]}-seat{self.seat}.evidence"
        error = RemoteViolation(peer.error.reason, peer.error.message, peer.offence())
        write_evidence(path, self.handshake.record, peer.transcript, reporter=self.seat, error=error)
        self.evidence_path = str(path)
        return dataclasses.replace(event, evidence_path=str(path))

    def _failure(self, exc: RemoteViolation) -> Failure:
        if self.peer is not None and self.peer.error is exc:
            for event in self._drain():
                if isinstance(event, Failure):
                    return event
        who = exc.evidence.get("seat")
        return Failure(reason=exc.reason, message=exc.message, who=who if isinstance(who, int) else None)

    def _stopped(self, reason: str, message: str, who: int | None) -> Failure:
        if self._writer is not None:
            self._writer.abandon()
            self._writer = None
        return Failure(reason=reason, message=message, who=who)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a driven match ended."""

    scores: tuple[int, int] | None
    winner: int | None
    result: bytes | None                  # the co-signed result (``koikoi verify --result``)
    transcript_path: str | None
    failure: Failure | None
    events: int
    bytes_sent: int


class _MatchFollower:
    """Tells a strategy the match context (rules, scores) as the match goes, and shows it the
    board after every public change (ai.strategy: ``tell_match``, ``show_round``)."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.profile: Profile | None = None
        self.rounds_played = 0

    def see(self, event: Event) -> None:
        if isinstance(event, (Board, OpponentMoved)):
            show_round(self.strategy, event.view)
        elif isinstance(event, TermsAgreed):
            self.profile = event.profile
            pool = event.profile.pool_start
            tell_match(self.strategy, MatchContext(profile=event.profile, scores=(pool, pool)))
        elif isinstance(event, RoundOver) and self.profile is not None:
            if not event.result.redeal or event.result.consumes_round:
                self.rounds_played += 1
            tell_match(self.strategy, MatchContext(profile=self.profile, scores=event.scores,
                                                   rounds_played=self.rounds_played))


async def play_match(transport: Transport, strategy: Strategy, *, seat: int, identity: Identity, room: str,
                     password: str | None = None, profile: Profile | None = None, rounds: int | None = None,
                     store: str | os.PathLike[str] | None = None, rng: Rng | None = None,
                     deadlines: Deadlines | None = None,
                     on_event: Callable[[Event], None] | None = None,
                     accept_terms: Callable[[MatchTerms], bool] | None = None) -> MatchOutcome:
    """Play one seat with a computer ``Strategy`` (anything with ``choose(view, options)``); as
    the joiner it accepts the proposed terms unless ``accept_terms`` says otherwise."""
    choose = strategy.choose
    match = Match(transport, seat=seat, identity=identity, room=room, password=password, profile=profile,
                  rounds=rounds, store=store, rng=rng, deadlines=deadlines,
                  accept_terms=accept_terms if accept_terms is not None else (lambda terms: True))
    count = 0
    context = _MatchFollower(strategy)
    async for event in match.events():
        count += 1
        if on_event is not None:
            on_event(event)
        context.see(event)
        if isinstance(event, (YourTurn, ChoiceNeeded)):
            # A search player thinks for up to a second: off the event loop, so timers keep running.
            await match.decide(await asyncio.to_thread(choose, event.view, event.options))
        elif isinstance(event, MatchOver):
            return MatchOutcome(scores=event.scores, winner=event.winner, result=event.result,
                                transcript_path=event.transcript_path, failure=None, events=count,
                                bytes_sent=match.bytes_sent)
        elif isinstance(event, Failure):
            return MatchOutcome(scores=None, winner=None, result=None, transcript_path=match.transcript_path,
                                failure=event, events=count, bytes_sent=match.bytes_sent)
    failure = Failure(reason="ended", message="the match ended without a result", who=None)
    return MatchOutcome(scores=None, winner=None, result=None, transcript_path=match.transcript_path,
                        failure=failure, events=count, bytes_sent=match.bytes_sent)

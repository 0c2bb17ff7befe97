"""A peer that survives crashes, dropped connections and a relay restart, and claims abandonment.

Theory of operation (spec/protocol.md §12, "Faults and recovery"):

- Persistence by replay. Everything random a peer does (handshake ephemerals, SPAKE2, deck keys,
  shuffles, proofs) draws from one injected rng; Ed25519 signatures and the channel's nonces are
  deterministic. So the state saved after every accepted message is small and needs nothing
  from the game's internals: the setup (identity, room, a 32-byte rng seed, the terms to propose,
  the computer player's seed) and the log of inputs (each new frame received, each decision).
  ``PeerCore.restore`` replays the log through a fresh handshake and ``GamePeer`` seeded the same
  way, which rebuilds the exact state, and checks that it regenerates byte for byte the frames
  sent before (a running hash): a build whose randomness is not replayable fails loudly there
  instead of equivocating.
- Save before send. A frame leaves only after the state that produced it is on disk (atomic
  replace + fsync, ``state_store``). After a crash the peer resumes at its last accepted message;
  anything it had not saved was never sent, so nothing it says next can contradict it.
- Outbox. The frames sent since the peer last accepted one of ours (a new envelope from the peer
  at seq s proves it holds every envelope before s) are re-sent after a reconnect, after the
  peer's link restarted, and when a wait stalls. The peer's channel ignores exact duplicates.
- Deadlines. Every wait for the opponent has the deadline of the match terms (``step`` for an
  automatic message, ``turn`` for a decision). When it passes, the waiting peer signs an
  abandonment claim over the transcript head and writes the abandonment file.
- Transport. A ``ReliableLink`` over a connector: through the relay, ``RelayRendezvous`` pairs the
  two seats again after the relay restarts or one of them crashed, through the public lobby.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from koikoi_p2p.ai.strategy import RandomPlayer, Strategy
from koikoi_p2p.net.reliable import Connector, ReliableLink
from koikoi_p2p.net.state_store import StateStore, StateStoreError
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import (
    ChoiceNeeded,
    Event,
    Failure,
    MatchOver,
    Paired,
    TermsProposed,
    YourTurn,
)
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.handshake import Handshake
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.statement import sha256
from koikoi_p2p.protocol.terms import Deadlines, MatchTerms
from koikoi_p2p.protocol.transcript import encode_evidence, encode_transcript
from koikoi_p2p.rules.actions import Action, action_from_dict
from koikoi_p2p.rules.profile import Profile, preset

STATE_FORMAT = 1
HANDSHAKE_PHASE = "handshake"


class ResumeError(Exception):
    """A saved state that cannot be resumed; ``reason`` e.g. "bad_state", "replay_mismatch"."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class DeterministicRng:
    """ChaCha20 keystream under a 32-byte seed: the same seed yields the same bytes, in order.

    The seed is a secret as strong as any key it produces; it lives only in the 0600 state file.
    """

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ResumeError("bad_state", "an rng seed is 32 bytes")
        self._stream = Cipher(algorithms.ChaCha20(seed, bytes(16)), mode=None).encryptor()

    def __call__(self, n: int) -> bytes:
        return self._stream.update(bytes(n))


@dataclass(frozen=True, slots=True, kw_only=True)
class PeerSetup:
    """What a peer needs to start, or to rebuild itself from its log (persisted once)."""

    seat: int
    identity: bytes                    # Ed25519 private key bytes
    room: str                          # bound into the handshake and the terms
    password: str | None
    seed: bytes                        # 32 bytes: every random choice of this peer derives from it
    relay_url: str = ""
    rendezvous: str = ""               # shared by both seats; the lobby tag after a relay restart
    profile: str = "nintendo"          # host only: the rule preset to propose
    rounds: int | None = 1
    step_deadline: int = 60
    turn_deadline: int = 300
    handshake_deadline: int = 60
    strategy_seed: int = 0
    out_dir: str = ""                  # where the transcript / abandonment / evidence files go
    profile_data: dict[str, object] | None = None   # host: the exact profile (Profile.to_dict), else preset
    human: bool = False                # a person decides (koikoi host/join): resume asks them again
    accept_terms: bool = True          # joiner: sign the proposed terms unless run_peer's ask_terms says

    def __post_init__(self) -> None:
        if self.seat not in (0, 1) or len(self.identity) != 32 or len(self.seed) != 32:
            raise ResumeError("bad_state", "seat, identity or seed out of range")

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> PeerSetup:
        try:
            return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise ResumeError("bad_state", f"bad setup: {exc}") from None

    @classmethod
    def generate(cls, *, seat: int, room: str, password: str | None = None, identity: bytes | None = None,
                 seed: bytes | None = None, **options: Any) -> PeerSetup:
        return cls(seat=seat, room=room, password=password,
                   identity=identity or Identity.generate().private_bytes(),
                   seed=seed or secrets.token_bytes(32), **options)


def _digest(data: bytes) -> bytes:
    return sha256(data)


class PeerCore:
    """The sans-I/O peer with its replay log: frames and decisions in, frames out, all recorded."""

    def __init__(self, setup: PeerSetup, on_event: Callable[[Event], None] | None = None) -> None:
        self.setup = setup
        self.on_event = on_event            # sees every event (Paired, then the game's), in order
        self.identity = Identity.from_private_bytes(setup.identity)
        self.rng = DeterministicRng(setup.seed)
        self.handshake = Handshake(seat=setup.seat, identity=self.identity, room=setup.room,
                                   password=setup.password, rng=self.rng)
        self.peer: GamePeer | None = None
        self.log: list[list[object]] = []
        self.outbox: list[bytes] = []
        self.seen: set[bytes] = set()
        self.sent_count = 0
        self.sent_chain = bytes(32)
        self.pending: YourTurn | ChoiceNeeded | None = None
        self.terms_pending: TermsProposed | None = None
        self.failure: Failure | None = None
        self.match_over: MatchOver | None = None
        self.decisions = 0
        self.folder = Path(".")             # where result files go unless the setup names a folder
        self._emit(self.handshake.start())

    # -- inputs -----------------------------------------------------------------------------------

    def receive(self, frame: bytes) -> list[bytes] | None:
        """Apply one frame from the peer; None when it is a duplicate (nothing changed)."""
        key = _digest(frame)
        if key in self.seen:
            return None
        if self.peer is None:
            out = self.handshake.receive(frame)
            self.seen.add(key)
            self.log.append(["r", frame])
            self._emit(out)
            if self.handshake.done:
                result = self.handshake.result
                if self.on_event is not None:
                    self.on_event(Paired(peer_fingerprint=fingerprint(result.peer_key), sas=result.sas,
                                         known=False))
                out = out + self._start_game()
            return out
        before = len(self.peer.transcript)
        try:
            out = self.peer.receive(frame)
        finally:
            self._drain()
        if len(self.peer.transcript) == before:
            return None  # the channel's harmless duplicate
        self.seen.add(key)
        self.log.append(["r", frame])
        self.outbox.clear()  # a new envelope from the peer: it holds everything we sent before
        self._emit(out)
        return out

    def decide_terms(self, accept: bool) -> list[bytes]:
        """The joiner's answer to the proposed terms (spec/game.md §2.4), logged like a decision."""
        if self.peer is None:
            raise LocalMisuse("not_your_turn", "the match has not started")
        self.terms_pending = None
        try:
            out = self.peer.decide_terms(accept)
        finally:
            self._drain()
            self.log.append(["t", bool(accept)])
        self._emit(out)
        return out

    def decide(self, action: Action) -> list[bytes]:
        if self.peer is None:
            raise LocalMisuse("not_your_turn", "the match has not started")
        self.pending = None   # answered; the decision may raise the next question at once
        try:
            out = self.peer.decide(action)
        finally:
            self._drain()
        self.log.append(["d", action.to_dict()])
        self.decisions += 1
        self._emit(out)
        return out

    # -- state ------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return HANDSHAKE_PHASE if self.peer is None else self.peer.phase.value

    @property
    def done(self) -> bool:
        return self.peer is not None and self.peer.phase is Phase.DONE

    @property
    def failed(self) -> bool:
        return self.peer is not None and self.peer.phase is Phase.FAILED

    def waiting_for(self) -> tuple[int, str, int] | None:
        """(seat, message, deadline seconds) of the current wait."""
        if self.peer is None:
            return 1 - self.setup.seat, HANDSHAKE_PHASE, self.setup.handshake_deadline
        return self.peer.waiting_for()

    def to_state(self) -> dict[str, object]:
        return {"format": STATE_FORMAT, "setup": self.setup.to_dict(), "log": self.log,
                "sent_count": self.sent_count, "sent_chain": self.sent_chain}

    @classmethod
    def restore(cls, state: Mapping[str, object],
                on_event: Callable[[Event], None] | None = None) -> PeerCore:
        """Rebuild the peer by replaying its log; ResumeError when the state does not replay.

        ``on_event`` sees the events of the replayed history (a display rebuilds its table)."""
        if state.get("format") != STATE_FORMAT or not isinstance(state.get("setup"), dict):
            raise ResumeError("bad_state", "unknown state format")
        log = state.get("log")
        if not isinstance(log, list):
            raise ResumeError("bad_state", "no log")
        core = cls(PeerSetup.from_dict(cast(dict[str, object], state["setup"])), on_event)
        try:
            for entry in log:
                if not isinstance(entry, list) or len(entry) != 2:
                    raise ResumeError("bad_state", "bad log entry")
                kind, value = entry
                if kind == "r" and isinstance(value, bytes):
                    if core.receive(value) is None:
                        raise ResumeError("replay_mismatch", "a logged frame replays as a duplicate")
                elif kind == "d" and isinstance(value, dict):
                    core.decide(action_from_dict(value))
                elif kind == "t" and isinstance(value, bool):
                    core.decide_terms(value)
                else:
                    raise ResumeError("bad_state", "bad log entry")
        except ProtocolError as exc:
            raise ResumeError("replay_mismatch", f"the log does not replay: {exc}") from None
        if core.sent_count != state.get("sent_count") or core.sent_chain != state.get("sent_chain"):
            raise ResumeError("replay_mismatch", "the replay does not regenerate the frames sent before")
        return core

    # -- internals --------------------------------------------------------------------------------

    def _start_game(self) -> list[bytes]:
        result = self.handshake.result
        proposal = None
        if self.setup.seat == 0:
            keys = (self.identity.public_key, result.peer_key)
            data = self.setup.profile_data
            profile = Profile.from_dict(data) if data is not None else preset(self.setup.profile)
            proposal = MatchTerms.propose(
                profile=profile, keys=keys, room=self.setup.room, rounds=self.setup.rounds,
                deadlines=Deadlines(step=self.setup.step_deadline, turn=self.setup.turn_deadline))
        self.peer = GamePeer(channel=result.channel, room=self.setup.room, proposal=proposal, rng=self.rng,
                             handshake_record=result.record)
        try:
            out = self.peer.start()
        finally:
            self._drain()
        self._emit(out)
        return out

    def _emit(self, frames: list[bytes]) -> None:
        for frame in frames:
            self.outbox.append(frame)
            self.sent_count += 1
            self.sent_chain = _digest(self.sent_chain + _digest(frame))

    def _drain(self) -> None:
        if self.peer is None:
            return
        for event in self.peer.events():
            if self.on_event is not None:
                self.on_event(event)
            if isinstance(event, YourTurn | ChoiceNeeded):
                self.pending = event
            elif isinstance(event, TermsProposed):
                self.terms_pending = event
            elif isinstance(event, Failure):
                self.failure = event
            elif isinstance(event, MatchOver):
                self.match_over = event


def create_state(store: StateStore, setup: PeerSetup) -> None:
    """Write the initial state of a new match (before anything is sent)."""
    store.save(PeerCore(setup).to_state())


# --- the asyncio driver ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended. status: "completed", "abandoned" (we claimed), "failed" (a violation or a
    local fault), "gave_up" (no way to reach the peer and no deadline to claim on)."""

    status: str
    seat: int
    reason: str = ""
    messages: int = 0
    scores: tuple[int, int] | None = None
    winner: int | None = None
    file: str | None = None
    absent: int | None = None
    resumed: bool = False

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "seat": self.seat, "reason": self.reason, "messages": self.messages,
                "scores": list(self.scores) if self.scores else None, "winner": self.winner,
                "file": self.file, "absent": self.absent, "resumed": self.resumed}


@dataclass(slots=True)
class DriverOptions:
    """Timing knobs of the driver (the deadlines themselves come from the match terms)."""

    resend_after_s: float = 2.0        # re-send the outbox when a wait makes no progress this long
    linger_s: float = 5.0              # after the end: wait for the last frames to be acknowledged
    settle_s: float = 0.3              # ... and then this long for a repeat from a peer that lost them
    link: dict[str, Any] = field(default_factory=dict)   # ReliableLink keyword arguments
    # After a completed match keep only the outcome: the setup and log hold the identity key and
    # the seed of every key of the match (forward secrecy). On by default; only tests that replay a
    # finished state turn it off.
    forget_secrets: bool = True
    clock: Callable[[], float] = time.monotonic


ProgressHook = Callable[[str, PeerCore], None]
EventSink = Callable[[Event, bool], None]          # (event, replayed from the saved log)
Ask = Callable[[YourTurn | ChoiceNeeded], Awaitable[Action]]
AskTerms = Callable[[TermsProposed], Awaitable[bool]]


async def run_peer(
    store: StateStore,
    connect: Connector,
    *,
    strategy: Callable[[int], Strategy] | None = None,
    options: DriverOptions | None = None,
    progress: ProgressHook | None = None,
    on_event: EventSink | None = None,
    ask: Ask | None = None,
    ask_terms: AskTerms | None = None,
) -> Outcome:
    """Run (or resume) the match saved in ``store`` to its end; the library form of ``koikoi resume``.

    ``strategy(n)`` gives the computer player for the n-th decision (seeded per decision, so a
    resumed peer decides exactly as it would have without the crash). ``ask`` instead puts each
    decision to a person; ``ask_terms`` puts the proposed terms to the joiner (without it the
    setup's ``accept_terms`` answers); ``on_event`` sees every event, first those of the replayed log.
    With ``options.forget_secrets`` a completed match leaves only its outcome in the store.
    """
    opts = options or DriverOptions()
    try:
        state = store.load()
    except StateStoreError as exc:
        raise ResumeError(exc.reason, exc.message) from None
    if isinstance(state.get("outcome"), dict):
        return _outcome_from(cast(dict[str, Any], state["outcome"]))
    replaying = [True]

    def sink(event: Event) -> None:
        if on_event is not None:
            on_event(event, replaying[0])

    core = PeerCore.restore(state, sink if on_event is not None else None)
    replaying[0] = False
    resumed = bool(core.log)
    core.folder = store.folder

    def choose(n: int) -> Strategy:
        if strategy is not None:
            return strategy(n)
        return RandomPlayer(core.setup.strategy_seed * 1_000_003 + n)

    link: ReliableLink | None = None

    def resend() -> None:
        if link is not None and not link.closed:
            for frame in core.outbox:
                link.send_nowait(frame)

    link = ReliableLink(connect, on_reset=resend, confirm=True, **opts.link)
    await link.start()
    try:
        resend()
        outcome = await _drive(core, link, store, choose, opts, progress, resend, ask, ask_terms)
        if outcome.status == "completed":
            await _linger(core, link, store, opts, resend)
    finally:
        await link.close()
    outcome = replace(outcome, resumed=resumed)
    forget = opts.forget_secrets and outcome.status == "completed"
    final: dict[str, object] = {"format": STATE_FORMAT} if forget else core.to_state()
    final["outcome"] = outcome.to_dict()
    store.save(final)
    return outcome


async def _drive(core: PeerCore, link: ReliableLink, store: StateStore, choose: Callable[[int], Strategy],
                 opts: DriverOptions, progress: ProgressHook | None,
                 resend: Callable[[], None], ask: Ask | None = None,
                 ask_terms: AskTerms | None = None) -> Outcome:
    seat = core.setup.seat
    clock = opts.clock
    last_phase = ""
    wait_started = clock()
    while True:
        if progress is not None and core.phase != last_phase:
            last_phase = core.phase
            progress(last_phase, core)
        if core.done:
            return _finish(core)
        if core.failed or core.failure is not None:
            return _fail(core, core.failure.reason if core.failure else "failed")
        if core.terms_pending is not None:
            proposed = core.terms_pending
            accept = await ask_terms(proposed) if ask_terms is not None else core.setup.accept_terms
            try:
                out = core.decide_terms(accept)
            except ProtocolError as exc:
                return _fail(core, exc.reason)
            store.save(core.to_state())       # save before send
            for frame in out:
                link.send_nowait(frame)
            wait_started = clock()
            continue
        if core.pending is not None:
            event = core.pending
            if ask is not None:
                action = await ask(event)
            else:
                action = choose(core.decisions).choose(event.view, event.options)
            try:
                out = core.decide(action)
            except ProtocolError as exc:
                return _fail(core, exc.reason)
            store.save(core.to_state())       # save before send
            for frame in out:
                link.send_nowait(frame)
            if progress is not None:
                progress("decided", core)
            wait_started = clock()
            continue
        waiting = core.waiting_for()
        if waiting is None:
            return _fail(core, "stalled")
        expected_seat, expected, deadline = waiting
        if expected_seat == seat:
            return _fail(core, "stalled")     # our turn with nothing to do: a local fault
        remaining = deadline - (clock() - wait_started)
        if remaining <= 0:
            return _abandon(core, expected, deadline)
        try:
            frame = await asyncio.wait_for(link.recv(), min(remaining, opts.resend_after_s))
        except TimeoutError:
            resend()                          # a stall: the peer may lack our last frames
            continue
        except Exception as exc:  # the link gave up: nothing more will come
            if clock() - wait_started < deadline:
                await asyncio.sleep(max(0.0, deadline - (clock() - wait_started)))
            if core.peer is None:
                return Outcome("gave_up", seat, reason=f"link: {exc}")
            return _abandon(core, expected, deadline)
        try:
            answer = core.receive(frame)
        except ProtocolError as exc:
            return _fail(core, exc.reason, exc)
        if answer is None:
            link.confirm()
            continue                          # a duplicate: harmless
        store.save(core.to_state())           # save before send (and before acknowledging)
        link.confirm()
        for item in answer:
            link.send_nowait(item)
        wait_started = clock()


async def _linger(core: PeerCore, link: ReliableLink, store: StateStore, opts: DriverOptions,
                  resend: Callable[[], None]) -> None:
    """Stay after the end until the peer has saved our last frames (the link's acknowledgements
    are confirmed saves), answering its repeats; at most ``linger_s``."""
    end = opts.clock() + opts.linger_s
    settle_until: float | None = None
    while opts.clock() < end:
        if link.unacknowledged == 0:
            # Everything we sent is saved on the other side; wait a moment for a repeat from a
            # peer that restarted from an older state, then go.
            settle_until = settle_until or opts.clock() + opts.settle_s
            if opts.clock() >= settle_until:
                return
        try:
            frame = await asyncio.wait_for(link.recv(), 0.1)
        except TimeoutError:
            continue
        except Exception:
            return                             # the link is gone: nothing more can be done
        try:
            answer = core.receive(frame)
        except ProtocolError:
            return
        if answer is None:
            link.confirm()
            resend()                           # the peer repeats itself: it may lack our last frames
            settle_until = None
            continue
        store.save(core.to_state())
        link.confirm()
        for item in answer:
            link.send_nowait(item)


def _out_dir(core: PeerCore) -> Path:
    folder = Path(core.setup.out_dir) if core.setup.out_dir else core.folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _name(core: PeerCore, suffix: str) -> Path:
    assert core.peer is not None
    tag = core.peer.channel.session_id[:6].hex()
    return _out_dir(core) / f"match-{tag}-seat{core.setup.seat}.{suffix}"


def result_file(core: PeerCore, suffix: str) -> Path:
    """Where this match's ``suffix`` file (transcript, abandoned, evidence) is written."""
    return _name(core, suffix)


def _finish(core: PeerCore) -> Outcome:
    assert core.peer is not None
    path = _name(core, "transcript")
    data = encode_transcript(core.handshake.result.record, core.peer.transcript, closed=True)
    _write(path, data)
    over = core.match_over
    return Outcome("completed", core.setup.seat, messages=len(core.peer.transcript),
                   scores=over.scores if over else None, winner=over.winner if over else None, file=str(path))


def _abandon(core: PeerCore, expected: str, deadline: int) -> Outcome:
    seat = core.setup.seat
    if core.peer is None:
        return Outcome("gave_up", seat, reason="the handshake did not finish in time", absent=1 - seat)
    channel = core.peer.channel
    claim = AbandonmentClaim(session_id=channel.session_id, seq=channel.next_seq, head=channel.head,
                             claimant=seat, absent=1 - seat, expected=expected, deadline=deadline)
    transcript = encode_transcript(core.handshake.result.record, core.peer.transcript, closed=False)
    path = _name(core, "abandoned")
    peer = core.peer
    deal, round_key = peer.flow.deal, b""
    if peer.party is not None and deal >= 0:
        round_key = peer.party.disclose_key()   # the match is over: it protects nothing any more
    _write(path, encode_abandonment(transcript, claim, sign_claim(core.identity, claim), deal=deal,
                                    round_key=round_key))
    return Outcome("abandoned", seat, reason=claim.describe(), messages=channel.next_seq, file=str(path),
                   absent=1 - seat)


def _fail(core: PeerCore, reason: str, exc: ProtocolError | None = None) -> Outcome:
    seat = core.setup.seat
    path: Path | None = None
    if core.peer is not None and isinstance(core.peer.error or exc, RemoteViolation):
        error = cast(RemoteViolation, core.peer.error or exc)
        path = _name(core, "evidence")
        envelopes = [env for env in core.peer.transcript]
        _write(path, encode_evidence(core.handshake.result.record, envelopes, reporter=seat,
                                     reason=error.reason, message=error.message, offence=core.peer.offence()))
    return Outcome("failed", seat, reason=reason, file=str(path) if path else None,
                   messages=len(core.peer.transcript) if core.peer else 0)


def _write(path: Path, data: bytes) -> None:
    """Atomic write of a result file (readable by the user alone, like the state)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _outcome_from(data: Mapping[str, Any]) -> Outcome:
    scores = data.get("scores")
    return Outcome(status=str(data.get("status")), seat=int(data.get("seat", 0)),
                   reason=str(data.get("reason", "")),
                   messages=int(data.get("messages", 0)),
                   scores=(int(scores[0]), int(scores[1])) if isinstance(scores, list) else None,
                   winner=data.get("winner"), file=data.get("file"), absent=data.get("absent"),
                   resumed=bool(data.get("resumed")))


__all__ = ["DeterministicRng", "DriverOptions", "Outcome", "PeerCore", "PeerSetup", "ResumeError",
           "create_state", "result_file", "run_peer"]

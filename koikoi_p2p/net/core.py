"""The crash-safe peer's core, sans-I/O: frames and decisions in, frames and events out.

``PeerCore`` wraps the handshake and the ``GamePeer`` of one seat with what recovery needs
(spec/protocol.md §12.3): a deterministic byte source under the setup's seed, the outbox of
frames the peer has not yet proved it holds, a running hash of every frame sent, and the
snapshot/replay pair that rebuilds the exact peer after a crash:

- ``snapshot()`` is the compact state at a deal boundary: the setup, the game peer's own state
  (``GamePeer.to_state``), the position of the byte source, the outbox and the counters;
- every accepted input after it is a *record* ``[kind, input, frames sent]`` (``"r"`` a frame
  received, ``"d"`` a decision); ``restore(snapshot, records)`` rebuilds the peer from the
  snapshot and replays the records, and refuses (``replay_mismatch``) a record whose replay does
  not give exactly the frames it says were sent: sending anything else would be equivocation.

No file, socket or clock here: the journal stores (``journal.py``), the driver runs the I/O
(``driver.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from koikoi_p2p.ai.levels import LEVELS, computer_player
from koikoi_p2p.ai.strategy import MatchContext, RandomPlayer, Strategy, tell_match
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError
from koikoi_p2p.protocol.events import (
    ChoiceNeeded,
    Event,
    Failure,
    FirstDealer,
    MatchOver,
    Paired,
    RoundOver,
    RoundStarted,
    TermsAgreed,
    TermsProposed,
    YourTurn,
)
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.handshake import Handshake
from koikoi_p2p.protocol.identity import Identity, fingerprint
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.statement import sha256
from koikoi_p2p.protocol.terms import Deadlines, MatchTerms
from koikoi_p2p.rules.actions import Action, action_from_dict
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.round import RoundResult

CORE_FORMAT = "koikoi-p2p/peer-core/v2"
HANDSHAKE_PHASE = "handshake"
# Journal records: a frame received, a decision, the joiner's answer to the terms, idle work that
# sent frames (the messages owed before an act, spec/game.md §4.4), a resignation (§6.3).
RECEIVED, DECIDED, TERMS, IDLE, RESIGNED = "r", "d", "t", "i", "g"


class ResumeError(Exception):
    """A saved state that cannot be resumed; ``reason`` e.g. "bad_state", "replay_mismatch",
    "locked"."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class DeterministicRng:
    """ChaCha20 keystream under a 32-byte seed, from byte ``position`` on: the same seed gives the
    same bytes in order, and a restored source continues exactly where the saved one stopped.

    The seed is a secret as strong as any key it produces; it lives only in the 0600 state file.
    """

    def __init__(self, seed: bytes, position: int = 0) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ResumeError("bad_state", "an rng seed is 32 bytes")
        if not isinstance(position, int) or not 0 <= position < 64 << 32:
            raise ResumeError("bad_state", "an rng position is a byte count")
        block, skip = divmod(position, 64)
        # RFC 7539 layout in `cryptography`: a 4-byte little-endian block counter, then the nonce.
        nonce = block.to_bytes(4, "little") + bytes(12)
        self._stream = Cipher(algorithms.ChaCha20(seed, nonce), mode=None).encryptor()
        self._stream.update(bytes(skip))
        self.position = position

    def __call__(self, n: int) -> bytes:
        self.position += n
        return self._stream.update(bytes(n))


@dataclass(frozen=True, slots=True, kw_only=True)
class PeerSetup:
    """What a peer needs to start, or to rebuild itself (persisted in every snapshot)."""

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
    level: str = "easy"                # the computer's level when no person decides (ai/levels.py)
    out_dir: str = ""                  # where the transcript / abandonment / evidence files go
    profile_data: dict[str, object] | None = None   # host: the exact profile (Profile.to_dict), else preset
    human: bool = False                # a person decides (koikoi host/join): resume asks them again
    name: str = ""                     # this identity's display name (the handshake signs it)
    rated: bool = False                # host: propose a rated match (spec/ratings.md §2.1) ...
    ratings: str = ""                  # ... on this rating service
    accept_terms: bool = True          # joiner: the answer to the proposed terms unless run_peer asks
    cafile: str = ""                   # the CA file given with --cafile: koikoi resume trusts it again

    def __post_init__(self) -> None:
        if self.seat not in (0, 1) or len(self.identity) != 32 or len(self.seed) != 32:
            raise ResumeError("bad_state", "seat, identity or seed out of range")
        if self.level not in LEVELS:
            raise ResumeError("bad_state", f"unknown computer level {self.level!r}")

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
    """The sans-I/O crash-safe peer: ``receive`` and ``decide`` return the frames to send; every
    event goes to ``on_event``; ``snapshot``/``restore`` save and rebuild it."""

    def __init__(self, setup: PeerSetup, on_event: Callable[[Event], None] | None = None, *,
                 _position: int | None = None) -> None:
        self.setup = setup
        self.on_event = on_event            # sees every event (Paired, then the game's), in order
        self.identity = Identity.from_private_bytes(setup.identity)
        self.rng = DeterministicRng(setup.seed, _position or 0)
        # A core restored past the handshake has none (building one would draw from the rng).
        self.handshake: Handshake | None = None
        self.peer: GamePeer | None = None
        self.outbox: list[bytes] = []
        self.last_sent = b""                # the latest frame sent: a repeat the peer can vouch for
        self.seen: set[bytes] = set()       # handshake frames applied (the channel keeps the rest)
        self.sent_count = 0
        self.sent_chain = bytes(32)
        self.pending: YourTurn | ChoiceNeeded | None = None
        self.terms_pending: TermsProposed | None = None   # joiner: terms waiting for its answer
        self.failure: Failure | None = None
        self.match_over: MatchOver | None = None
        self.decisions = 0
        self.inputs = 0                     # inputs applied since the start (frames and decisions)
        self.dropped = 0                    # frames that did not authenticate (anyone could send them)
        self.paired: Paired | None = None
        self.handshake_record: dict[str, object] = {}
        self._shown: list[list[object]] = []   # the latest display events, for a restored screen
        self.folder: Path | None = None     # where result files go when the setup names none (driver)
        if _position is None:
            self.handshake = Handshake(seat=setup.seat, identity=self.identity, room=setup.room,
                                       password=setup.password, rng=self.rng, name=setup.name)
            self._emit(self.handshake.start())

    # -- inputs -----------------------------------------------------------------------------------

    def receive(self, frame: bytes) -> list[bytes] | None:
        """Apply one frame from the peer; None when it is a duplicate (nothing changed)."""
        if self.peer is None:
            assert self.handshake is not None
            key = _digest(frame)
            if key in self.seen:
                return None
            out = self.handshake.receive(frame)
            self.seen.add(key)
            self.inputs += 1
            self._emit(out)
            if self.handshake.done:
                result = self.handshake.result
                self.handshake_record = dict(result.record)
                self.paired = Paired(peer_fingerprint=fingerprint(result.peer_key), sas=result.sas,
                                     known=False, peer_name=result.names[1 - self.setup.seat])
                if self.on_event is not None:
                    self.on_event(self.paired)
                out = out + self._start_game()
            return out
        if not self.peer.channel.authenticates(frame):
            # Not sealed by the peer: a stranger in the room, the relay, or noise. It proves
            # nothing against anyone, so it is dropped and counted, never fatal (§12.2).
            self.dropped += 1
            return None
        before = len(self.peer.transcript)
        try:
            out = self.peer.receive(frame)
        finally:
            self._drain()
        if len(self.peer.transcript) == before:
            return None  # the channel's harmless duplicate
        self.inputs += 1
        self.outbox.clear()  # a new envelope from the peer: it holds everything we sent before
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
        self.decisions += 1
        self.inputs += 1
        self._emit(out)
        return out

    def computer(self, n: int) -> Strategy:
        """The computer player of this seat's ``n``-th decision at the setup's level.

        A fresh player per decision, seeded by the setup and ``n``, so a restored peer decides
        exactly as the original would have; no wall-time cap for the same reason. It plays the
        agreed profile once the terms are known (a joiner learns them from the host), and is told
        the match so far (scores, rounds played: part of the saved state) as a long-lived player
        is by net/match.py, else the master and the greedy player ignore the score.
        """
        seed = self.setup.strategy_seed * 1_000_003 + n
        if self.setup.level == "easy":
            return RandomPlayer(seed)
        flow = self.peer.flow if self.peer is not None else None
        terms = flow.terms if flow is not None else None
        profile = terms.profile if terms is not None else preset(self.setup.profile)
        player = computer_player(self.setup.level, profile, seed, max_seconds=None)
        match = flow.match if flow is not None else None
        if match is not None:
            tell_match(player, MatchContext(profile=profile, scores=match.scores,
                                            rounds_played=match.rounds_played))
        return player

    def decide_terms(self, accept: bool) -> list[bytes]:
        """The joiner's answer to the proposed terms (spec/game.md §2.5); a refusal fails the match
        here (``LocalMisuse("terms_refused")``) and sends nothing."""
        if self.peer is None:
            raise LocalMisuse("not_your_turn", "the match has not started")
        self.terms_pending = None
        try:
            out = self.peer.decide_terms(accept)
        finally:
            self._drain()
        self.inputs += 1
        self._emit(out)
        return out

    def resign(self) -> list[bytes]:
        """Give the match up where this seat is asked to act (spec/game.md §6.3)."""
        if self.peer is None:
            raise LocalMisuse("not_your_turn", "the match has not started")
        self.pending = None
        try:
            out = self.peer.resign()
        finally:
            self._drain()
        self.inputs += 1
        self._emit(out)
        return out

    def idle(self) -> list[bytes]:
        """The game peer's idle work (``GamePeer.idle``): deferred checks, and the messages this seat
        owes before its next act; the frames to send (journal them first when there are any)."""
        if self.peer is None:
            return []
        try:
            out = self.peer.idle()
        finally:
            self._drain()
        if out:
            self.inputs += 1
            self._emit(out)
        return out

    def apply(self, record: list[Any]) -> None:
        """Replay one journal record; ResumeError unless it gives exactly the frames it recorded."""
        if not isinstance(record, list) or len(record) not in (3, 4) or not isinstance(record[2], list):
            raise ResumeError("bad_state", "bad journal record")
        kind, value, sent = record[:3]          # a fourth item, the time it was saved, is the driver's
        try:
            if kind == RECEIVED and isinstance(value, bytes):
                out = self.receive(value)
                if out is None:
                    raise ResumeError("replay_mismatch", "a logged frame replays as a duplicate")
            elif kind == DECIDED and isinstance(value, dict):
                out = self.decide(action_from_dict(value))
            elif kind == TERMS and isinstance(value, bool):
                out = self.decide_terms(value)
            elif kind == IDLE and value is None:
                out = self.idle()
            elif kind == RESIGNED and value is None:
                out = self.resign()
            else:
                raise ResumeError("bad_state", "bad journal record")
        except ProtocolError as exc:
            raise ResumeError("replay_mismatch", f"the journal does not replay: {exc}") from None
        if out != sent:
            raise ResumeError("replay_mismatch", "the replay does not regenerate the frames sent before")

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

    @property
    def deal(self) -> int:
        """The deal under way (-1 before the first): a new value is a snapshot boundary."""
        return -2 if self.peer is None else self.peer.flow.deal

    @property
    def peer_key(self) -> bytes:
        """The opponent's identity key, from the moment the handshake is done."""
        if self.peer is not None:
            return self.peer.channel.peer_key
        if self.handshake is not None and self.handshake.done:
            return self.handshake.result.peer_key
        raise LocalMisuse("not_paired", "the handshake has not finished")

    def waiting_for(self) -> tuple[int, str, int] | None:
        """(seat, message, deadline seconds) of the current wait."""
        if self.peer is None:
            return 1 - self.setup.seat, HANDSHAKE_PHASE, self.setup.handshake_deadline
        return self.peer.waiting_for()

    def snapshot(self) -> dict[str, object]:
        """The compact state to resume from (plain msgpack data, secrets included: store it
        privately). Taken before the handshake or at a deal boundary; records follow it."""
        if self.peer is None and self.inputs:
            raise LocalMisuse("bad_state", "a handshake half done has no snapshot: replay it instead")
        return {
            "format": CORE_FORMAT, "setup": self.setup.to_dict(), "rng": self.rng.position,
            "peer": self.peer.to_state() if self.peer is not None else None,
            "paired": None if self.paired is None else [self.paired.peer_fingerprint, self.paired.sas,
                                                        self.paired.peer_name],
            "seen": sorted(self.seen), "outbox": list(self.outbox), "last_sent": self.last_sent,
            "sent_count": self.sent_count,
            "sent_chain": self.sent_chain, "decisions": self.decisions, "inputs": self.inputs,
            "shown": list(self._shown),
        }

    @classmethod
    def restore(cls, snapshot: Mapping[str, object], records: list[list[Any]] = (),  # type: ignore[assignment]
                on_event: Callable[[Event], None] | None = None) -> PeerCore:
        """Rebuild the peer from a snapshot and replay the records after it; ResumeError when the
        state does not replay. ``on_event`` sees the events of the restored history: the latest
        pairing, terms, first dealer, round result and round start, then those of the replay."""
        if snapshot.get("format") != CORE_FORMAT or not isinstance(snapshot.get("setup"), dict):
            raise ResumeError("bad_state", "unknown state format")
        setup = PeerSetup.from_dict(cast(dict[str, object], snapshot["setup"]))
        peer_state = snapshot.get("peer")
        if peer_state is None:
            core = cls(setup, on_event)
        else:
            core = cls._from_game(setup, snapshot, on_event)
        for record in records:
            core.apply(record)
        return core

    @classmethod
    def _from_game(cls, setup: PeerSetup, snapshot: Mapping[str, object],
                   on_event: Callable[[Event], None] | None) -> PeerCore:
        try:
            position = int(cast(int, snapshot["rng"]))
            core = cls(setup, on_event, _position=position)
            core.sent_count = int(cast(int, snapshot["sent_count"]))
            core.sent_chain = bytes(cast(bytes, snapshot["sent_chain"]))
            core.decisions = int(cast(int, snapshot["decisions"]))
            core.inputs = int(cast(int, snapshot["inputs"]))
            core.outbox = [bytes(f) for f in cast(list[bytes], snapshot["outbox"])]
            core.last_sent = bytes(cast(bytes, snapshot.get("last_sent", b"")))
            core.seen = {bytes(d) for d in cast(list[bytes], snapshot["seen"])}
            paired = cast(list[Any], snapshot["paired"])
            core.paired = Paired(peer_fingerprint=str(paired[0]), sas=paired[1], known=False,
                                 peer_name=str(paired[2]) if len(paired) > 2 else "")
            core._shown = [list(item) for item in cast(list[list[object]], snapshot["shown"])]
            core.peer = GamePeer.from_state(cast(dict[str, object], snapshot["peer"]))
            core.peer.on_accepted = core._drain
        except ProtocolError as exc:
            raise ResumeError("bad_state", f"damaged snapshot: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ResumeError("bad_state", f"damaged snapshot: {exc}") from None
        core.handshake_record = core.peer.handshake_record
        if on_event is not None:
            on_event(core.paired)
            for event in core._shown_events():
                on_event(event)
        core._drain()          # the pending decision, announced again by GamePeer.from_state
        return core

    # -- internals --------------------------------------------------------------------------------

    def _start_game(self) -> list[bytes]:
        assert self.handshake is not None
        result = self.handshake.result
        proposal = None
        if self.setup.seat == 0:
            keys = (self.identity.public_key, result.peer_key)
            data = self.setup.profile_data
            profile = Profile.from_dict(data) if data is not None else preset(self.setup.profile)
            proposal = MatchTerms.propose(
                profile=profile, keys=keys, room=self.setup.room, rounds=self.setup.rounds,
                deadlines=Deadlines(step=self.setup.step_deadline, turn=self.setup.turn_deadline),
                names=result.names, rated=self.setup.rated, ratings=self.setup.ratings)
        self.peer = GamePeer(channel=result.channel, room=self.setup.room, proposal=proposal, rng=self.rng,
                             handshake_record=result.record)
        self.peer.on_accepted = self._drain     # the opponent's move is shown before our answer
        try:
            out = self.peer.start()
        finally:
            self._drain()
        self._emit(out)       # the host's terms and keys: in the outbox, re-sent after a restart
        return out

    def _emit(self, frames: list[bytes]) -> None:
        for frame in frames:
            self.outbox.append(frame)
            self.last_sent = frame
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
            self._remember(event)

    def _remember(self, event: Event) -> None:
        """Keep the latest event of each kind a restored screen needs (terms, scores, the deal)."""
        item: list[object] | None = None
        if isinstance(event, TermsAgreed):
            item = ["terms"]
        elif isinstance(event, FirstDealer):
            item = ["first_dealer", event.dealer, [list(d) for d in event.draws]]
        elif isinstance(event, RoundOver):
            item = ["round_over", event.round_index, event.result.to_dict(), list(event.scores)]
        elif isinstance(event, RoundStarted):
            item = ["round_started", event.round_index, event.deal, event.dealer, event.month]
        if item is not None:
            self._shown = [old for old in self._shown if old[0] != item[0]] + [item]

    def _shown_events(self) -> list[Event]:
        assert self.peer is not None
        flow = self.peer.flow
        out: list[Event] = []
        for item in self._shown:
            kind = item[0]
            if kind == "terms" and flow.terms is not None:
                out.append(TermsAgreed(profile=flow.terms.profile, rounds=flow.terms.rounds,
                                       terms_digest=flow.terms_digest))
            elif kind == "first_dealer":
                draws = cast(list[list[int]], item[2])
                out.append(FirstDealer(dealer=cast(int, item[1]), draws=tuple(tuple(d) for d in draws)))
            elif kind == "round_over":
                scores = cast(list[int], item[3])
                out.append(RoundOver(round_index=cast(int, item[1]),
                                     result=RoundResult.from_dict(cast(dict[str, object], item[2])),
                                     scores=(scores[0], scores[1])))
            elif kind == "round_started":
                out.append(RoundStarted(round_index=cast(int, item[1]), deal=cast(int, item[2]),
                                        dealer=cast(int, item[3]), month=cast(int, item[4])))
        return out


__all__ = ["CORE_FORMAT", "DECIDED", "IDLE", "RECEIVED", "RESIGN", "RESIGNED", "TERMS", "DeterministicRng",
           "PeerCore", "PeerSetup", "ResumeError"]

RESIGN = "resign"    # what an ``ask`` of the driver answers to give the match up instead of acting

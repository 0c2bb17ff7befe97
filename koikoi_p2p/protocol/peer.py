"""One player's side of a match, sans-I/O: frames and decisions in, frames and events out.

Theory of operation
-------------------
``GamePeer`` joins three things: the session's ``SecureChannel`` (signs, chains, seals and opens
envelopes), the game's ``GameFlow`` (``flow.py``: the state table, who speaks next, every check)
and one ``DeckParty`` per deal (the mental-poker deck). A received frame is opened by the
channel, recorded in the transcript and accepted by the flow. Whenever the flow then expects this
seat to speak, the peer composes the message, runs it through the same ``accept`` (so both sides
hold one state), seals it and returns the frame. The only message that waits for a person is
``act``: the flow queues ``YourTurn``/``ChoiceNeeded`` and ``decide`` answers it.

Any violation moves the peer to a terminal state (the flow's FAILED, the channel's failed flag);
``evidence()`` then holds what a third party needs to see it (spec/game.md §8).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import Event, Failure
from koikoi_p2p.protocol.flow import DeckAccess, GameFlow, Phase, shares_to_wire
from koikoi_p2p.protocol.messages import ShareGroup
from koikoi_p2p.protocol.rulesio import action_to_wire, result_to_wire
from koikoi_p2p.protocol.terms import GAME_VERSION, MatchTerms
from koikoi_p2p.rules.actions import Action
from mentalpoker.deck import DeckParty, Rng

# Session-level reasons raised only for a frame that authenticated under the peer's key.
SEALED_BY_PEER = frozenset({"equivocation", "bad_envelope", "unsupported_version", "wrong_session",
                            "wrong_sender", "bad_signature", "bad_prev"})


class PartyDeck:
    """``DeckAccess`` over this player's ``DeckParty``: our own messages were applied when made."""

    def __init__(self, party: DeckParty, me: int) -> None:
        self.party = party
        self.me = me

    def key(self, sender: int, data: bytes) -> None:
        if sender != self.me:
            self.party.receive_key(data)

    def shuffle(self, sender: int, data: bytes) -> None:
        if sender != self.me:
            self.party.receive_shuffle(data)

    def shares(self, sender: int, positions: tuple[int, ...], data: bytes) -> None:
        if sender != self.me:
            self.party.receive_shares(positions, data)

    def card(self, position: int) -> int | None:
        return self.party.card_at(position) if self.party.known(position) else None

    def disclosed(self, sender: int, data: bytes) -> None:
        if sender != self.me:
            self.party.receive_disclosed_key(data)

    def audit(self) -> tuple[int, ...]:
        return self.party.audit()


class _MakeShares:
    """Share source for our own messages: makes each owed group with our deck, its randomness
    bound to the chain head the message extends (spec/crypto.md §3.5)."""

    def __init__(self, party: DeckParty, binding: bytes) -> None:
        self.party = party
        self.binding = binding
        self.groups: list[ShareGroup] = []

    def take(self, positions: tuple[int, ...]) -> bytes:
        data = self.party.share_message(positions, self.binding)
        self.groups.append(ShareGroup(positions, data))
        return data

    def finish(self) -> None:
        return None


class GamePeer:
    """The sans-I/O game peer of one seat over an established ``SecureChannel``."""

    def __init__(self, *, channel: SecureChannel, room: str, proposal: MatchTerms | None = None,
                 rng: Rng | None = None, handshake_record: Mapping[str, object] | None = None,
                 accept_terms: Callable[[MatchTerms], bool] | None = None,
                 seed: bytes | None = None) -> None:
        seat = channel.seat
        if seat == 0 and proposal is None:
            raise LocalMisuse("no_proposal", "the host (seat 0) proposes the terms")
        if seat == 1 and proposal is not None:
            raise LocalMisuse("bad_proposal", "only the host proposes terms")
        self.seat = seat
        self.channel = channel
        self.room = room
        self.proposal = proposal
        # The secret seed of every deck of the match (spec/crypto.md §3.5): given, else drawn once
        # from ``rng`` (default the operating system); kept in the state so a resume replays it.
        self.seed = seed if seed is not None else (rng or secrets.token_bytes)(32)
        self.handshake_record = dict(handshake_record or {})
        self.accept_terms = accept_terms
        mine = channel.identity.public_key
        keys = (mine, channel.peer_key) if seat == 0 else (channel.peer_key, mine)
        if proposal is not None and proposal.keys != keys:
            raise LocalMisuse("bad_proposal", "the proposal must name both handshake keys, seat 0 first")
        self.party: DeckParty | None = None
        self.flow = GameFlow(viewer=seat, keys=keys, room=room, session_id=channel.session_id,
                             deck_factory=self._make_deck)
        self.transcript: list[SignedEnvelope] = []
        self.offending: dict[str, object] | None = None
        self.error: ProtocolError | None = None
        self._events: list[Event] = []
        self._decision: Action | None = None
        self._failure_reported = False

    # -- public API -----------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.flow.phase

    @property
    def done(self) -> bool:
        return self.flow.phase is Phase.DONE

    def start(self) -> list[bytes]:
        """Frames to send first (the host's terms)."""
        return self._guard(self._speak)

    def receive(self, frame: bytes) -> list[bytes]:
        """Open and apply one frame from the peer; returns the frames to send in answer.

        After the match ended, an exact duplicate is still harmless; anything else is a violation."""
        if self.flow.phase is not Phase.DONE:
            self._check_live()

        def step() -> list[bytes]:
            try:
                env = self.channel.open(frame)
            except RemoteViolation as exc:
                self.offending = {key: exc.evidence[key] for key in ("frame", "envelope", "signature",
                                                                      "accepted_envelope",
                                                                      "accepted_signature")
                                  if key in exc.evidence}
                raise
            if env is None:
                return []
            if self.flow.phase is Phase.DONE:
                self.offending = {"envelope": env.raw, "signature": env.signature}
                raise RemoteViolation("out_of_turn", "a message after the match ended",
                                      {"seat": env.sender, "seq": env.seq, "envelope": env.raw,
                                       "signature": env.signature})
            try:
                self.flow.accept(env.sender, env.type, env.body, seq=env.seq, prev=env.prev)
            except RemoteViolation as exc:
                exc.evidence["envelope"] = env.raw
                exc.evidence["signature"] = env.signature
                self.offending = {"envelope": env.raw, "signature": env.signature}
                self.channel.fail(exc.reason)
                raise
            self.transcript.append(env)
            return self._speak()

        return self._guard(step)

    def decide(self, action: Action) -> list[bytes]:
        """Answer the last ``YourTurn``/``ChoiceNeeded``; ``LocalMisuse`` if it is not legal now."""
        self._check_live()
        options = self.flow.legal_actions()
        if not options:
            raise LocalMisuse("not_your_turn", "no decision is asked of this seat now")
        if action not in options:
            raise LocalMisuse("illegal_action", f"{action} is not among the legal actions")
        self._decision = action
        return self._guard(self._speak)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.flow.legal_actions()

    def events(self) -> list[Event]:
        """Drain the queued events."""
        out = self.flow.events + self._events
        self.flow.events = []
        self._events = []
        return out

    def waiting_for(self) -> tuple[int, str, int] | None:
        return self.flow.waiting_for()

    # -- composing ------------------------------------------------------------------------------
    def _speak(self) -> list[bytes]:
        frames: list[bytes] = []
        while self.flow.phase not in (Phase.DONE, Phase.FAILED) and self.flow.expect[0] == self.seat:
            msg_type = self.flow.expect[1]
            if msg_type == m.ACT:
                if self._decision is None:
                    break
                action, self._decision = self._decision, None
                frames.append(self._send(m.ACT, {"action": action_to_wire(action), "shares": []}))
                continue
            frames.append(self._send(msg_type, self._compose(msg_type)))
        return frames

    def _compose(self, msg_type: str) -> dict[str, Any]:
        flow, party = self.flow, self.party
        if msg_type == m.TERMS:
            assert self.proposal is not None
            return self.proposal.to_body()
        if msg_type == m.ACCEPT:
            assert flow.terms is not None
            if self.accept_terms is not None and not self.accept_terms(flow.terms):
                # The joiner's own policy: it leaves rather than sign terms it does not want.
                raise LocalMisuse("terms_refused", "the proposed terms were refused by this player")
            return {"terms": flow.terms_digest}
        assert party is not None
        if msg_type == m.KEY:
            return {"key": party.key_message(self.channel.head)}
        if msg_type == m.SHUFFLE:
            return {"deck": party.shuffle_message(self.channel.head), "shares": []}
        if msg_type == m.REVEAL:
            return {"shares": []}
        if msg_type == m.DISCLOSE:
            return {"key": party.disclose_key()}
        identity = self.channel.identity
        if msg_type == m.ROUND_RESULT:
            key = party.disclose_key()
            flow.ensure_audited()
            assert flow.round_result is not None
            sig = identity.sign(flow.round_statement(self.channel.head))
            return {"key": key, "result": result_to_wire(flow.round_result), "sig": sig}
        if msg_type == m.ROUND_SIGN:
            flow.ensure_audited()
            return {"sig": identity.sign(flow.round_statement(flow.round_head))}
        if msg_type == m.MATCH_RESULT:
            result = flow.match_result_for(self.channel.head)
            return {"result": result.to_dict(), "sig": identity.sign(result.statement())}
        if msg_type == m.MATCH_SIGN:
            assert flow.match_result is not None
            return {"sig": identity.sign(flow.match_result.statement())}
        raise LocalMisuse("bad_state", f"cannot compose {msg_type}")

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        """Accept our own message in the flow, then sign, chain and seal it."""
        source = (_MakeShares(self.party, self.channel.head)
                  if "shares" in body and self.party is not None else None)
        self.flow.accept(self.seat, msg_type, body, seq=self.channel.next_seq, prev=self.channel.head,
                         source=source)
        if source is not None:
            body["shares"] = shares_to_wire(source.groups)
        frame, env = self.channel.seal(msg_type, body)
        self.transcript.append(env)
        return frame

    def _make_deck(self, deal: int, first_shuffler: int) -> DeckAccess:
        self.party = DeckParty(me=self.seat, n=48, version=GAME_VERSION, session_id=self.channel.session_id,
                               round=deal, first_shuffler=first_shuffler, seed=self.seed)
        return PartyDeck(self.party, self.seat)

    # -- persistence ----------------------------------------------------------------------------
    STATE_FORMAT = "koikoi-p2p/game-peer/v1"

    def to_state(self) -> dict[str, object]:
        """Everything to resume after a crash, as plain msgpack-able data, secrets included (the
        channel keys, the identity, the round secret): store it privately. Save it after every
        ``receive`` and ``decide``, before sending the frames they return: a state older than a
        frame already sent would seal another envelope at its number (spec/game.md §7.2)."""
        return {
            "format": self.STATE_FORMAT, "room": self.room,
            "channel": self.channel.to_state(), "flow": self.flow.to_state(),
            "party": self.party.to_state() if self.party is not None else None,
            "proposal": self.proposal.to_body() if self.proposal is not None else None,
            "handshake": self.handshake_record, "seed": self.seed,
            "transcript": [[env.raw, env.signature] for env in self.transcript],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, object]) -> GamePeer:
        """Resume from ``to_state``; a pending decision is announced again."""
        from koikoi_p2p.protocol.envelope import decode_envelope

        try:
            if state["format"] != cls.STATE_FORMAT:
                raise LocalMisuse("bad_state", "unknown peer state format")
            channel_state = state["channel"]
            flow_state = state["flow"]
            assert isinstance(channel_state, dict) and isinstance(flow_state, dict)
            channel = SecureChannel.from_state(channel_state)
            proposal_body = state["proposal"]
            proposal = MatchTerms.from_body(proposal_body) if isinstance(proposal_body, dict) else None
            handshake = state["handshake"]
            seed = state["seed"]
            assert isinstance(seed, bytes)
            peer = cls(channel=channel, room=str(state["room"]), proposal=proposal, seed=seed,
                       handshake_record=handshake if isinstance(handshake, dict) else None)
            party_state = state["party"]
            deck: DeckAccess | None = None
            if isinstance(party_state, dict):
                peer.party = DeckParty.from_state(party_state)
                deck = PartyDeck(peer.party, peer.seat)
            peer.flow = GameFlow.from_state(flow_state, deck_factory=peer._make_deck, deck=deck)
            transcript = state["transcript"]
            assert isinstance(transcript, list)
            peer.transcript = [decode_envelope(raw, sig) for raw, sig in transcript]
        except ProtocolError:
            raise
        except Exception as exc:
            raise LocalMisuse("bad_state", f"damaged peer state: {exc}") from None
        peer.flow.announce_pending()
        return peer

    # -- failure --------------------------------------------------------------------------------
    def _check_live(self) -> None:
        if self.error is not None or self.flow.phase is Phase.FAILED:
            raise LocalMisuse("terminated", "the match stopped; see the failure event")
        if self.flow.phase is Phase.DONE:
            raise LocalMisuse("terminated", "the match is over")

    def _guard(self, fn: Any) -> list[bytes]:
        try:
            out: list[bytes] = fn()
            return out
        except ProtocolError as exc:
            self._fail(exc)
            raise

    def _fail(self, exc: ProtocolError) -> None:
        self.error = exc
        if self.flow.phase is not Phase.FAILED:
            self.flow.fail(exc)
        self.channel.fail(exc.reason)
        if isinstance(exc, RemoteViolation):
            who = self._blame(exc)
        else:
            who = self.seat
        if not self._failure_reported:
            self._failure_reported = True
            self._events.append(Failure(reason=exc.reason, message=exc.message, who=who))

    def _blame(self, exc: RemoteViolation) -> int | None:
        """The seat this peer knows to be at fault, or None when the relay could be.

        A game-level violation names the seat and seq of a signed envelope (the offending one, or
        for a hidden move found when the deal is re-checked, the accepted envelope of that move,
        which is then attached as the evidence). At the session level a frame that opened under
        the peer's direction key was sealed by the peer (the relay holds no key), so whatever is
        wrong inside it is the peer's, except a gap in the numbers, which a dropped frame makes
        too (spec/protocol.md §2.4). What a third party can check is narrower (§9)."""
        evidence = exc.evidence
        seat, seq = evidence.get("seat"), evidence.get("seq")
        if isinstance(seat, int) and "envelope" not in evidence and isinstance(seq, int) \
                and 0 <= seq < len(self.transcript) and self.transcript[seq].sender == seat:
            env = self.transcript[seq]
            evidence["envelope"], evidence["signature"] = env.raw, env.signature
            self.offending = {"envelope": env.raw, "signature": env.signature}
        if isinstance(seat, int):
            return seat if "envelope" in evidence else None
        sealed = exc.reason in SEALED_BY_PEER or (exc.reason == "bad_frame" and "envelope" in evidence)
        raced = exc.reason == "bad_seq" and isinstance(seq, int) and seq < self.channel.next_seq
        return self.channel.peer if sealed or raced else None

    def offence(self) -> dict[str, object]:
        """The offence part of the evidence file (spec/game.md §8): what the violation carried
        (seat, seq, the offending envelope and signature or frame) plus our own round secret of
        the interrupted deal, which lets a verifier see exactly what we saw (the match is over,
        so the secret protects nothing any more)."""
        error = self.error
        offence: dict[str, object] = dict(error.evidence) if isinstance(error, RemoteViolation) else {}
        offence.update(self.offending or {})
        offence["deal"] = self.flow.deal
        offence["round_key"] = b""
        if self.party is not None and self.flow.deal >= 0:
            offence["round_key"] = self.party.disclose_key()   # empty if not made yet
        return offence

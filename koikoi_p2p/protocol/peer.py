"""One player's side of a match, sans-I/O: frames and decisions in, frames and events out.

Theory of operation
-------------------
``GamePeer`` joins three things: the session's ``SecureChannel`` (signs, chains, seals and opens
envelopes), the game's ``GameFlow`` (``flow.py``: the state table, who speaks next, every check)
and one ``DeckParty`` per deal (the mental-poker deck; the next deal's deck is prepared while the
current one is played, so two or three are alive at once). A received frame is opened by the
channel, recorded in the transcript and accepted by the flow. Whenever the flow then expects this
seat to speak, the peer composes the message, runs it through the same ``accept`` (so both sides
hold one state), seals it and returns the frame.

Three calls wait on a person and the driver: ``decide`` answers ``YourTurn``/``ChoiceNeeded``
(an ``act``), ``decide_terms`` answers ``TermsProposed`` (the joiner's ``accept``, or a refusal),
and ``resign`` gives the match up where an ``act`` is expected.

``idle()`` is the peer's idle-time work, for a driver to call whenever it has shown the events of
a ``receive`` and has nothing else to do (typically while its person thinks): it verifies the
other seat's deferred preparation messages, re-checks closed deals, and sends the messages this
seat owes before its next ``act`` (its countersignature, its next round key or shuffle; spec/
game.md §5.2), so that they leave before the person decides and cost nobody a wait. ``receive``
itself never composes those, to show the opponent's move at once. A driver that never calls
``idle`` is still correct: ``decide`` sends the owed messages first (the opponent then waits for
the crypto), and every deferred check runs before its deck is used (and, for the decks of deals
never played, before the match result is signed).

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
from koikoi_p2p.protocol.flow import Deal, DeckAccess, GameFlow, Phase, shares_to_wire
from koikoi_p2p.protocol.messages import ShareGroup
from koikoi_p2p.protocol.rulesio import action_to_wire, result_to_wire
from koikoi_p2p.protocol.terms import GAME_VERSION, MatchTerms
from koikoi_p2p.rules.actions import Action
from mentalpoker.deck import DeckParty, Rng

# Session-level reasons raised only for a frame that authenticated under the peer's key.
SEALED_BY_PEER = frozenset({"equivocation", "bad_envelope", "unsupported_version", "wrong_session",
                            "wrong_sender", "bad_signature", "bad_prev"})
# The deck context carries the game protocol version (spec/game.md §5.2).
DECK_VERSION = GAME_VERSION


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
    """Share source for our own messages: makes each owed group with the deck of its deal, its
    randomness bound to the chain head the message extends (spec/crypto.md §3.5)."""

    def __init__(self, peer: GamePeer) -> None:
        self.peer = peer
        self.binding = peer.channel.head
        self.groups: list[ShareGroup] = []

    def take(self, deal: int, positions: tuple[int, ...]) -> bytes:
        data = self.peer.parties[deal].share_message(positions, self.binding)
        self.groups.append(ShareGroup(positions, data))
        return data

    def finish(self) -> None:
        return None


class GamePeer:
    """The sans-I/O game peer of one seat over an established ``SecureChannel``.

    ``names`` are the two seats' display names as the handshake bound them (until
    ``SecureChannel.names`` exists they are given here; the terms must carry the same).
    ``accept_terms`` is a joiner's automatic policy (scripts, computer players): without it the
    joiner is asked with ``TermsProposed`` and answers with ``decide_terms``."""

    def __init__(self, *, channel: SecureChannel, room: str, proposal: MatchTerms | None = None,
                 rng: Rng | None = None, handshake_record: Mapping[str, object] | None = None,
                 accept_terms: Callable[[MatchTerms], bool] | None = None,
                 names: tuple[str, str] | None = None, seed: bytes | None = None) -> None:
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
        # SecureChannel.names (both seats' handshake names) once the handshake carries them.
        channel_names: object = getattr(channel, "names", None)
        if isinstance(channel_names, tuple) and len(channel_names) == 2:
            names = (str(channel_names[0]), str(channel_names[1]))
        self.names: tuple[str, str] | None = names
        mine = channel.identity.public_key
        keys = (mine, channel.peer_key) if seat == 0 else (channel.peer_key, mine)
        if proposal is not None and proposal.keys != keys:
            raise LocalMisuse("bad_proposal", "the proposal must name both handshake keys, seat 0 first")
        if proposal is not None and self.names is not None and proposal.names != self.names:
            raise LocalMisuse("bad_proposal", "the proposal must carry both handshake names")
        self.parties: dict[int, DeckParty] = {}
        self.flow = GameFlow(viewer=seat, keys=keys, room=room, session_id=channel.session_id,
                             deck_factory=self._make_deck, names=self.names, defer=True)
        self.transcript: list[SignedEnvelope] = []
        self.offending: dict[str, object] | None = None
        self.error: ProtocolError | None = None
        self._events: list[Event] = []
        self._decision: Action | None = None
        self._terms_decision: bool | None = None
        self._resign = False
        self._failure_reported = False
        # Called once a peer's envelope is accepted, before the answer is composed: a driver
        # shows the opponent's move there, so the screen does not wait for our reply (issue 26).
        self.on_accepted: Callable[[], None] | None = None
        # The opponent's act is shown even earlier: once it is legal and applied, before the
        # shares its envelope carries are checked (half a millisecond; a bad share still fails
        # the match, with the envelope as evidence, before anything of ours is composed or sent).
        self.flow.on_move = self._moved
        self._hook_error: Exception | None = None

    def _take_hook_error(self) -> Exception | None:
        error, self._hook_error = self._hook_error, None
        return error

    def _moved(self) -> None:
        """The flow's ``on_move``: a failing ``on_accepted`` (the embedder's sink) must not fail
        the flow from inside ``accept``; it is raised once the envelope is accepted, where a
        failing ``on_accepted`` has always come out of ``receive``."""
        if self.on_accepted is not None:
            try:
                self.on_accepted()
            except Exception as exc:
                self._hook_error = exc

    # -- public API -----------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.flow.phase

    @property
    def done(self) -> bool:
        return self.flow.phase is Phase.DONE

    @property
    def party(self) -> DeckParty | None:
        """The deck party of the deal in play (or the last one made)."""
        deal = self.flow.deal
        if deal in self.parties:
            return self.parties[deal]
        return self.parties[max(self.parties)] if self.parties else None

    def start(self) -> list[bytes]:
        """Frames to send first (the host's terms and round keys)."""
        return self._guard(lambda: self._speak(defer=True))

    def receive(self, frame: bytes) -> list[bytes]:
        """Open and apply one frame from the peer; returns the frames to send in answer.

        After the match ended, an exact duplicate is still harmless; anything else is a violation."""
        if self.flow.phase is not Phase.DONE:
            self._check_live()

        def step() -> list[bytes]:
            self._hook_error = None
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
                if exc.evidence.get("seq") == env.seq:
                    exc.evidence["envelope"] = env.raw
                    exc.evidence["signature"] = env.signature
                    self.offending = {"envelope": env.raw, "signature": env.signature}
                # else: an earlier envelope (a deferred check, a held declaration): _blame finds it
                self.channel.fail(exc.reason)
                raise
            self.transcript.append(env)
            hook_error = self._take_hook_error()
            if hook_error is not None:
                raise hook_error
            if self.on_accepted is not None:
                self.on_accepted()
            return self._speak(defer=True)

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
        return self._guard(lambda: self._speak(defer=False))

    def decide_terms(self, accept: bool) -> list[bytes]:
        """The joiner's answer to ``TermsProposed``: sign the terms (``accept``) or refuse them,
        which ends the match here (``LocalMisuse("terms_refused")``, nothing is sent)."""
        if type(accept) is not bool:
            # "no" or 0 is not an answer: a truthy value must not sign the terms.
            raise LocalMisuse("bad_argument", "accept is True or False")
        self._check_live()
        if self.seat != 1 or self.flow.phase not in (Phase.KEYING, Phase.ACCEPTING) \
                or self._terms_decision is not None:
            # (A decision already made and waiting for the host's keys is not made twice.)
            raise LocalMisuse("not_your_turn", "no terms are waiting for this seat's decision")
        self._terms_decision = accept
        if not accept and self.flow.phase is Phase.KEYING:
            # Refused before the host's round keys are in: nothing to wait for.
            self._guard(self._refuse)
        return self._guard(lambda: self._speak(defer=False))

    @staticmethod
    def _refuse() -> list[bytes]:
        raise LocalMisuse("terms_refused", "the proposed terms were refused by this player")

    def resign(self) -> list[bytes]:
        """Give the match up (spec/game.md §6.3): allowed whenever this seat is asked to act; the
        other seat then countersigns a match result that names it the winner."""
        self._check_live()
        if self.flow.primary != (self.seat, m.ACT) or self.flow.phase is not Phase.PLAYING:
            raise LocalMisuse("not_your_turn", "a seat resigns when it is asked to act")
        self._resign = True
        return self._guard(lambda: self._speak(defer=False))

    def can_resign(self) -> bool:
        return (self.error is None and self.flow.phase is Phase.PLAYING
                and self.flow.primary == (self.seat, m.ACT))

    def idle(self) -> list[bytes]:
        """Idle-time work (see the module docstring): verify what was deferred, re-check closed
        deals, and send what this seat owes before its next act. Returns the frames to send."""
        if self.error is not None or self.flow.phase in (Phase.DONE, Phase.FAILED):
            return []

        def work() -> list[bytes]:
            self._flow_call(self.flow.flush)
            for deal in list(self.flow.closing):
                if len(deal.disclosed) == 2 and not deal.audited:
                    self._flow_call(self.flow.ensure_audited, deal)
            return self._speak(defer=False, acts=False)

        return self._guard(work)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.flow.legal_actions()

    def has_events(self) -> bool:
        return bool(self.flow.events or self._events)

    def events(self) -> list[Event]:
        """Drain the queued events."""
        out = self.flow.events + self._events
        self.flow.events = []
        self._events = []
        return out

    def waiting_for(self) -> tuple[int, str, int] | None:
        return self.flow.waiting_for()

    # -- composing ------------------------------------------------------------------------------
    def _flow_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a flow check outside ``accept``: a violation fails the flow like one inside it."""
        try:
            return fn(*args)
        except ProtocolError as exc:
            if self.flow.phase is not Phase.FAILED:
                self.flow.fail(exc)
            raise

    def _speak(self, *, defer: bool, acts: bool = True) -> list[bytes]:
        """Send every message the flow expects from this seat now. ``defer``: stop at the messages
        owed before an act (``idle`` or ``decide`` sends them); ``acts=False``: stop at the act."""
        frames: list[bytes] = []
        flow = self.flow
        while flow.phase not in (Phase.DONE, Phase.FAILED) and flow.expect[0] == self.seat:
            msg_type = flow.expect[1]
            if msg_type == m.ACCEPT:
                decision = self._terms_decision
                if decision is None and self.accept_terms is not None:
                    assert flow.terms is not None
                    decision = bool(self.accept_terms(flow.terms))
                if decision is None:
                    break
                self._terms_decision = None
                if not decision:
                    # The joiner leaves rather than sign terms it does not want (nothing is sent).
                    raise LocalMisuse("terms_refused", "the proposed terms were refused by this player")
                frames.append(self._send(m.ACCEPT, {"terms": flow.terms_digest}))
                continue
            if flow.person and msg_type != m.ACT and defer:
                break                      # owed before an act: idle() or decide() sends it
            if msg_type == m.ACT:
                if self._resign:
                    self._resign = False
                    result = flow.match_result_for(self.channel.head, resigned=self.seat)
                    sig = self.channel.identity.sign(result.statement())
                    frames.append(self._send(m.RESIGN, {"result": result.to_dict(), "sig": sig}))
                    continue
                if self._decision is None or not acts:
                    break
                action, self._decision = self._decision, None
                frames.append(self._send(m.ACT, {"action": action_to_wire(action), "shares": []}))
                continue
            frames.append(self._send(msg_type, self._compose(msg_type)))
        return frames

    def _compose(self, msg_type: str) -> dict[str, Any]:
        flow = self.flow
        deal = flow.expect_deal
        if msg_type == m.TERMS:
            assert self.proposal is not None
            return self.proposal.to_body()
        identity = self.channel.identity
        if msg_type == m.KEY:
            assert deal is not None
            return {"deal": deal, "key": self.parties[deal].key_message(self.channel.head)}
        if msg_type == m.SHUFFLE:
            assert deal is not None
            self._flow_call(flow.flush, deal)       # build only on verified shuffles and keys
            return {"deal": deal, "deck": self.parties[deal].shuffle_message(self.channel.head)}
        if msg_type == m.REVEAL:
            return {"shares": []}
        if msg_type == m.DECLARE:
            engine = flow.engine
            assert engine is not None
            # The declaration is forced (spec/rules.md §9.7): the best claim (the first of equal
            # ones), or none.
            action = engine.hand_yaku_options(self.seat)[0]
            return {"action": action_to_wire(action), "shares": []}
        if msg_type == m.DISCLOSE:
            assert deal is not None
            return {"deal": deal, "key": self.parties[deal].disclose_key(), "shares": []}
        if msg_type == m.ROUND_SIGN:
            record = flow.deal_record(deal) if deal is not None else None
            assert record is not None and record.result is not None
            self._flow_call(flow.ensure_audited, record)
            return {"deal": deal, "result": result_to_wire(record.result),
                    "sig": identity.sign(flow.round_statement(record))}
        if msg_type == m.MATCH_RESULT:
            result = flow.match_result_for(self.channel.head)
            return {"result": result.to_dict(), "sig": identity.sign(result.statement())}
        if msg_type == m.MATCH_SIGN:
            assert flow.match_result is not None
            return {"sig": identity.sign(flow.match_result.statement())}
        raise LocalMisuse("bad_state", f"cannot compose {msg_type}")

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        """Accept our own message in the flow, then sign, chain and seal it."""
        source = _MakeShares(self) if "shares" in body else None
        self.flow.accept(self.seat, msg_type, body, seq=self.channel.next_seq, prev=self.channel.head,
                         source=source)
        if source is not None:
            body["shares"] = shares_to_wire(source.groups)
        frame, env = self.channel.seal(msg_type, body)
        self.transcript.append(env)
        return frame

    def _make_deck(self, deal: int, first_shuffler: int) -> DeckAccess:
        party = DeckParty(me=self.seat, n=48, version=DECK_VERSION, session_id=self.channel.session_id,
                          round=deal, first_shuffler=first_shuffler, seed=self.seed)
        self.parties[deal] = party
        return PartyDeck(party, self.seat)

    # -- persistence ----------------------------------------------------------------------------
    STATE_FORMAT = "koikoi-p2p/game-peer/v2"

    def to_state(self) -> dict[str, object]:
        """Everything to resume after a crash, as plain msgpack-able data, secrets included (the
        channel keys, the identity, the round secrets): store it privately. Save it after every
        ``receive``, ``decide``, ``decide_terms``, ``resign`` and ``idle``, before sending the
        frames they return: a state older than a frame already sent would seal another envelope
        at its number (spec/game.md §7.2)."""
        live = set(self.flow.decks)
        return {
            "format": self.STATE_FORMAT, "room": self.room,
            "channel": self.channel.to_state(), "flow": self.flow.to_state(),
            "parties": [[deal, party.to_state()] for deal, party in sorted(self.parties.items())
                        if deal in live],
            "proposal": self.proposal.to_body() if self.proposal is not None else None,
            "handshake": self.handshake_record, "seed": self.seed,
            "names": list(self.names) if self.names is not None else None,
            "terms_decision": self._terms_decision,
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
            names = state["names"]
            seed = state["seed"]
            assert isinstance(seed, bytes)
            peer = cls(channel=channel, room=str(state["room"]), proposal=proposal, seed=seed,
                       handshake_record=handshake if isinstance(handshake, dict) else None,
                       names=(str(names[0]), str(names[1])) if isinstance(names, list) else None)
            decks: dict[int, DeckAccess] = {}
            parties = state["parties"]
            assert isinstance(parties, list)
            for deal, party_state in parties:
                assert isinstance(deal, int) and isinstance(party_state, dict)
                peer.parties[deal] = DeckParty.from_state(party_state)
                decks[deal] = PartyDeck(peer.parties[deal], peer.seat)
            peer.flow = GameFlow.from_state(flow_state, deck_factory=peer._make_deck, decks=decks)
            peer.flow.on_move = peer._moved
            transcript = state["transcript"]
            assert isinstance(transcript, list)
            peer.transcript = [decode_envelope(raw, sig) for raw, sig in transcript]
            decided = state["terms_decision"]
            peer._terms_decision = decided if isinstance(decided, bool) else None
        except ProtocolError:
            raise
        except Exception as exc:
            raise LocalMisuse("bad_state", f"damaged peer state: {exc}") from None
        peer.flow.announce_pending()
        if (peer.seat == 1 and peer.flow.phase in (Phase.KEYING, Phase.ACCEPTING)
                and peer._terms_decision is None and peer.flow.terms is not None):
            from koikoi_p2p.protocol.events import TermsProposed

            peer.flow.events.append(TermsProposed(terms=peer.flow.terms, summary=peer.flow.terms.summary()))
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
        for a check that ran later (a deferred proof, a hidden move found when the deal is
        re-checked) the accepted envelope it concerns, which is then attached as the evidence). At
        the session level a frame that opened under the peer's direction key was sealed by the
        peer (the relay holds no key), so whatever is wrong inside it is the peer's, except a gap
        in the numbers, which a dropped frame makes too (spec/protocol.md §2.4). What a third
        party can check is narrower (§9)."""
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
        """The offence part of the evidence file (spec/game.md §8.1): what the violation carried
        (seat, seq, the offending envelope and signature or frame) plus our own round secret of
        every deal whose deck we hold and have not disclosed, which lets a verifier see exactly
        what we saw (the match is over, so the secrets protect nothing any more)."""
        error = self.error
        offence: dict[str, object] = dict(error.evidence) if isinstance(error, RemoteViolation) else {}
        offence.update(self.offending or {})
        offence["deal"] = self.flow.deal
        keys: list[list[object]] = []
        for deal in sorted(self.flow.decks):
            party = self.parties.get(deal)
            record = self.flow.deal_record(deal)
            disclosed = record is not None and any(s == self.seat for s, _ in record.disclosed)
            if party is not None and not disclosed:
                keys.append([deal, party.disclose_key()])
        offence["round_keys"] = keys
        return offence


__all__ = ["Deal", "GamePeer", "PartyDeck"]

"""The game's state machine: which seat speaks next, with which message, and what it must hold.

Theory of operation
-------------------
The game is strictly sequential: at every point exactly one seat is expected to send, and the
machine knows which (spec/game.md §4). Both peers, and an auditor replaying a transcript, run this
same machine over the same messages in the same order; a peer runs its own outgoing messages
through ``accept`` too, so both sides always hold the same public state.

``TABLE`` lists every (phase, message type) pair that is accepted, who sends it and where it
leads. Phases other than PLAYING and DRAWING have a fixed speaker. In PLAYING (and DRAWING, the
first-dealer draw of deal 0) the rules engine's ``need`` drives the flow:

* ``NeedAction(seat)``: that seat sends ``act`` with one action;
* ``NeedReveal(positions, to)``: the seats whose decryption shares are missing send them. A reveal
  to a seat needs the other seat's shares; a public reveal needs both. A message carries, in one
  ``shares`` group per reveal step, every share its sender owes as the engine runs on after the
  message's action (the "pump"), up to the first step that waits on the other seat or on an
  action. When only the other seat still owes, it sends ``reveal``.

Every check that fails raises ``RemoteViolation`` (or ``LocalMisuse`` for our own caller's
mistake) and moves the machine to FAILED; every later call raises. The deck behind the machine
is abstracted (``DeckAccess``): a player's ``DeckParty`` or an auditor's ``DeckObserver``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.events import (
    Board,
    ChoiceNeeded,
    Event,
    FirstDealer,
    MatchOver,
    OpponentMoved,
    RoundOver,
    RoundStarted,
    TermsAgreed,
    YourTurn,
)
from koikoi_p2p.protocol.messages import ShareGroup
from koikoi_p2p.protocol.results import (
    CoSignedResult,
    MatchResult,
    SignatureInvalid,
    check_signature,
    round_statement,
)
from koikoi_p2p.protocol.rulesio import (
    Engine,
    action_from_wire,
    action_to_wire,
    new_match,
    new_round,
    record_result,
    result_to_wire,
)
from koikoi_p2p.protocol.rulesio import (
    round_params as next_round_params,
)
from koikoi_p2p.protocol.statement import pack
from koikoi_p2p.protocol.terms import Deadlines, MatchTerms, profile_digest
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.deal import first_dealer
from koikoi_p2p.rules.errors import IllegalMove, RulesError
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundResult, RoundState

if TYPE_CHECKING:
    from koikoi_p2p.rules.match import MatchState

DECK_SIZE = 48


class Phase(enum.Enum):
    """Where a match stands; each value is also its name in spec/game.md §4."""

    PROPOSING = "proposing"            # seat 0 sends the terms
    ACCEPTING = "accepting"            # seat 1 signs their digest
    ROUND_KEYS = "round_keys"          # fresh deck keys: first shuffler, then the other
    SHUFFLING = "shuffling"            # first shuffler shuffles, then the other
    DRAWING = "drawing"                # deal 0 only: public cards until the first dealer is known
    PLAYING = "playing"                # the rules engine's needs drive reveal / act
    DISCLOSING = "disclosing"          # the closer discloses its round key
    RESULT = "result"                  # the other discloses, re-checks, signs the round result
    COUNTERSIGN = "countersign"        # the closer re-checks and countersigns
    MATCH_RESULT = "match_result"      # one seat signs the match result
    MATCH_COUNTERSIGN = "match_countersign"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Transition:
    """One accepted (phase, message type): who sends it and the phases it can lead to."""

    phase: Phase
    msg_type: str
    sender: str
    leads_to: tuple[Phase, ...]


# Every state and transition of the game (spec/game.md §4 is generated from the same facts and
# a test checks they agree).
TABLE: tuple[Transition, ...] = (
    Transition(Phase.PROPOSING, m.TERMS, "seat 0", (Phase.ACCEPTING,)),
    Transition(Phase.ACCEPTING, m.ACCEPT, "seat 1", (Phase.ROUND_KEYS,)),
    Transition(Phase.ROUND_KEYS, m.KEY, "first shuffler, then the other",
               (Phase.ROUND_KEYS, Phase.SHUFFLING)),
    Transition(Phase.SHUFFLING, m.SHUFFLE, "first shuffler, then the other",
               (Phase.SHUFFLING, Phase.DRAWING, Phase.PLAYING)),
    Transition(Phase.DRAWING, m.REVEAL, "the seat whose shares are missing",
               (Phase.DRAWING, Phase.ROUND_KEYS)),
    Transition(Phase.PLAYING, m.REVEAL, "the seat whose shares are missing",
               (Phase.PLAYING, Phase.DISCLOSING)),
    Transition(Phase.PLAYING, m.ACT, "the seat the rules engine asks", (Phase.PLAYING, Phase.DISCLOSING)),
    Transition(Phase.DISCLOSING, m.DISCLOSE, "the seat that did not send the last message", (Phase.RESULT,)),
    Transition(Phase.RESULT, m.ROUND_RESULT, "the other seat", (Phase.COUNTERSIGN,)),
    Transition(Phase.COUNTERSIGN, m.ROUND_SIGN, "the closer",
               (Phase.ROUND_KEYS, Phase.MATCH_RESULT)),
    Transition(Phase.MATCH_RESULT, m.MATCH_RESULT, "the seat that did not send the last message",
               (Phase.MATCH_COUNTERSIGN,)),
    Transition(Phase.MATCH_COUNTERSIGN, m.MATCH_SIGN, "the other seat", (Phase.DONE,)),
)
_BY_KEY: Mapping[tuple[Phase, str], Transition] = {(t.phase, t.msg_type): t for t in TABLE}


def state_table_markdown() -> str:
    """The state table as spec/game.md §4.1 prints it (a test keeps the two identical)."""
    lines = ["| state | message | sent by | next states |", "| --- | --- | --- | --- |"]
    for t in TABLE:
        nxt = ", ".join(p.value for p in t.leads_to)
        lines.append(f"| {t.phase.value} | `{t.msg_type}` | {t.sender} | {nxt} |")
    return "\n".join(lines)


class DeckAccess(Protocol):
    """The deck as the machine needs it: a player's ``DeckParty`` or an auditor's observer."""

    def key(self, sender: int, data: bytes) -> None: ...
    def shuffle(self, sender: int, data: bytes) -> None: ...
    def shares(self, sender: int, positions: tuple[int, ...], data: bytes) -> None: ...
    def card(self, position: int) -> int | None: ...
    def disclosed(self, sender: int, data: bytes) -> None: ...
    def audit(self) -> tuple[int, ...]: ...


DeckFactory = Callable[[int, int], DeckAccess]        # (deal number, first shuffler) -> deck


class ShareSource(Protocol):
    """Where the shares a sender owes come from: its message (incoming) or its deck (outgoing)."""

    def take(self, positions: tuple[int, ...]) -> bytes: ...
    def finish(self) -> None: ...


class MessageShares:
    """The share groups of a received message, consumed in order by the pump."""

    def __init__(self, groups: Sequence[ShareGroup]) -> None:
        self._groups = list(groups)
        self._next = 0

    def take(self, positions: tuple[int, ...]) -> bytes:
        if self._next >= len(self._groups):
            raise RemoteViolation("missing_shares", f"no shares for positions {list(positions)}")
        group = self._groups[self._next]
        if group.positions != positions:
            raise RemoteViolation("wrong_shares",
                                  f"shares for {list(group.positions)}, owed {list(positions)}")
        self._next += 1
        return group.data

    def finish(self) -> None:
        if self._next != len(self._groups):
            raise RemoteViolation("unexpected_shares", "the message carries shares that are not owed")


class DrawEngine:
    """Deal 0: public cards in pairs (position 2k for seat 0, 2k+1 for seat 1) until the profile's
    ``first_dealer`` names a dealer (spec/game.md §5.1)."""

    def __init__(self, profile: Profile) -> None:
        self._profile = profile
        self.pair = 0
        self.cards: dict[int, int] = {}
        self.draws: list[tuple[int, int]] = []
        self.dealer: int | None = None

    @property
    def need(self) -> NeedReveal | None:
        if self.dealer is not None:
            return None
        return NeedReveal(positions=(2 * self.pair, 2 * self.pair + 1), to=None)

    def reveal(self, position: int, card: int) -> None:
        self.cards[position] = card
        a, b = 2 * self.pair, 2 * self.pair + 1
        if a in self.cards and b in self.cards:
            self.draws.append((self.cards[a], self.cards[b]))
            dealer = first_dealer(self.cards[a], self.cards[b], self._profile)
            if dealer is None and self.pair + 1 < DECK_SIZE // 2:
                self.pair += 1
            else:
                # A whole deck of ties cannot happen with 48 distinct cards; seat 0 is a fallback.
                self.dealer = 0 if dealer is None else dealer


def violation_at(reason: str, message: str, *, seat: int, seq: int) -> RemoteViolation:
    """A violation that names the seat and the envelope that showed it."""
    return RemoteViolation(reason, message, evidence={"seat": seat, "seq": seq})


class GameFlow:
    """The sequential game state machine shared by both players and the auditor."""

    def __init__(self, *, viewer: int | None, keys: tuple[bytes, bytes], room: str, session_id: bytes,
                 deck_factory: DeckFactory) -> None:
        self.viewer = viewer
        self.keys = keys
        self.room = room
        self.session_id = session_id
        self._deck_factory = deck_factory
        self.phase = Phase.PROPOSING
        self.terms: MatchTerms | None = None
        self.terms_digest = b""
        self.last_sender: int | None = None
        self.expect: tuple[int, str] = (0, m.TERMS)
        self.events: list[Event] = []
        self.count = 0                         # accepted game messages
        # deal state
        self.deal = -1
        self.first_shuffler = 0
        self.keys_seen = 0
        self.shuffles_seen = 0
        self.deck: DeckAccess | None = None
        self.engine: Engine | None = None
        self.draw: DrawEngine | None = None
        self.round_params: tuple[int, int, int] = (0, 0, 0)   # round_index, dealer, month
        self.sent: tuple[set[int], set[int]] = (set(), set())
        self.steps: list[list[object]] = []    # what the engine was fed this deal, for replay
        self.closer = 0
        self.round_head = b""
        self.round_result: RoundResult | None = None
        self.audited = False
        self.match: MatchState | None = None
        self.history: list[tuple[int, int | None, int]] = []
        self.scores: tuple[int, int] = (0, 0)
        self.match_result: MatchResult | None = None
        self.match_sigs: list[bytes] = [b"", b""]
        self.cosigned: CoSignedResult | None = None
        self.error: ProtocolError | None = None

    # -- the one entry point ------------------------------------------------------------------
    def accept(self, sender: int, msg_type: str, body: Mapping[str, object], *, seq: int, prev: bytes,
               source: ShareSource | None = None) -> None:
        """Apply one message (ours or the peer's); raise ``RemoteViolation`` on any deviation.

        ``source`` supplies the shares a sender owes: ``None`` reads them from ``body``.
        """
        if self.phase in (Phase.DONE, Phase.FAILED):
            raise LocalMisuse("terminated", f"the match is {self.phase.value}")
        try:
            self._accept(sender, msg_type, body, seq, prev, source)
        except RemoteViolation as exc:
            exc.evidence.setdefault("seat", sender)
            exc.evidence.setdefault("seq", seq)
            self.fail(exc)
            raise
        except ProtocolError as exc:
            self.fail(exc)
            raise
        except Exception as exc:
            # A bug on this side (the checks above should have caught any bad input): still
            # terminal, and still a typed error.
            error = LocalMisuse("internal_error", f"{type(exc).__name__}: {exc}")
            self.fail(error)
            raise error from exc

    def fail(self, error: ProtocolError) -> None:
        self.error = error
        self.phase = Phase.FAILED

    def _accept(self, sender: int, msg_type: str, body: Mapping[str, object], seq: int, prev: bytes,
                source: ShareSource | None) -> None:
        if sender not in (0, 1):
            raise RemoteViolation("bad_message", "sender must be seat 0 or 1")
        if msg_type not in m.SCHEMAS:
            raise RemoteViolation("unknown_message", f"no game message of type {msg_type!r}")
        transition = _BY_KEY.get((self.phase, msg_type))
        want_seat, want_type = self.expect
        if transition is None or sender != want_seat or msg_type != want_type:
            raise RemoteViolation(
                "out_of_turn",
                f"{msg_type} from seat {sender} while waiting for {want_type} from seat {want_seat}")
        m.check_body(msg_type, body)
        if source is None and "shares" in body:
            source = MessageShares(m.parse_shares(msg_type, body["shares"]))
        handler = getattr(self, "_on_" + msg_type)
        self.last_sender = sender   # set first: the pump and the closer rule read it
        handler(sender, body, seq, prev, source)
        self.count += 1
        if source is not None:
            source.finish()

    # -- setup --------------------------------------------------------------------------------
    def _on_terms(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                  source: ShareSource | None) -> None:
        terms = MatchTerms.from_body(body)
        if terms.keys != self.keys:
            raise RemoteViolation("bad_terms", "the terms name other identity keys than the handshake")
        if terms.room != self.room:
            raise RemoteViolation("bad_terms", "the terms name another room")
        self.terms = terms
        self.terms_digest = terms.digest()
        self.phase = Phase.ACCEPTING
        self.expect = (1, m.ACCEPT)

    def _on_accept(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                   source: ShareSource | None) -> None:
        if body["terms"] != self.terms_digest:
            raise RemoteViolation("bad_terms", "accepted terms differ from the proposal")
        assert self.terms is not None
        self.events.append(TermsAgreed(profile=self.terms.profile, rounds=self.terms.rounds,
                                       terms_digest=self.terms_digest))
        self._start_deal(0, first_shuffler=0)

    # -- deal setup ---------------------------------------------------------------------------
    def _start_deal(self, deal: int, *, first_shuffler: int) -> None:
        self.deal = deal
        self.first_shuffler = first_shuffler
        self.deck = self._deck_factory(deal, first_shuffler)
        self.engine = None
        self.draw = None
        self.sent = (set(), set())
        self.steps = []
        self.round_result = None
        self.audited = False
        self.keys_seen = 0
        self.phase = Phase.ROUND_KEYS
        self.expect = (first_shuffler, m.KEY)

    def _on_key(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                source: ShareSource | None) -> None:
        assert self.deck is not None
        self._deck_call("bad_key", self.deck.key, sender, _bytes(body["key"]))
        self.keys_seen += 1
        if self.keys_seen == 1:
            self.expect = (1 - sender, m.KEY)
        else:
            self.phase = Phase.SHUFFLING
            self.shuffles_seen = 0
            self.expect = (self.first_shuffler, m.SHUFFLE)

    def _on_shuffle(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                    source: ShareSource | None) -> None:
        assert self.deck is not None and self.terms is not None
        self._deck_call("bad_shuffle", self.deck.shuffle, sender, _bytes(body["deck"]))
        self.shuffles_seen += 1
        if self.shuffles_seen == 1:
            self.expect = (1 - sender, m.SHUFFLE)
            return
        if self.deal == 0:
            self.draw = DrawEngine(self.terms.profile)
            self.phase = Phase.DRAWING
        else:
            round_index, dealer, month = self.round_params
            self.engine = new_round(self.terms.profile, dealer=dealer, viewer=self.viewer,
                                    round_index=round_index, month=month)
            self.phase = Phase.PLAYING
        self._pump(sender, source, seq)

    # -- the engine-driven part ---------------------------------------------------------------
    def _on_reveal(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                   source: ShareSource | None) -> None:
        self._pump(sender, source, seq)

    def _on_act(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                source: ShareSource | None) -> None:
        engine = self.engine
        assert engine is not None
        raw = body["action"]
        assert isinstance(raw, dict)
        try:
            action = action_from_wire(raw)
        except (RulesError, ValueError, TypeError, KeyError) as exc:
            raise RemoteViolation("bad_message", f"not an action: {exc}") from None
        if pack(action_to_wire(action)) != pack(raw):
            raise RemoteViolation("bad_message", "action not in canonical form")
        try:
            engine.apply(sender, action)
        except RulesError as exc:
            raise RemoteViolation("illegal_action", str(exc)) from None
        self.steps.append(["act", sender, action_to_wire(action), seq])
        if sender != self.viewer and self.viewer is not None:
            self.events.append(OpponentMoved(action=action, view=engine.view()))
        self._pump(sender, source, seq)

    def _current(self) -> Engine | DrawEngine:
        if self.draw is not None:
            return self.draw
        assert self.engine is not None
        return self.engine

    def _pump(self, sender: int | None, source: ShareSource | None, seq: int) -> None:
        """Run the engine on as far as the sender's shares reach (see the module docstring)."""
        engine = self._current()
        while True:
            need = engine.need
            if need is None:
                self._engine_done()
                return
            if isinstance(need, NeedAction):
                self.expect = (need.seat, m.ACT)
                self._announce(need)
                return
            owers = (0, 1) if need.to is None else (1 - need.to,)
            owed = {s: tuple(p for p in need.positions if p not in self.sent[s]) for s in owers}
            if sender is not None and owed.get(sender):
                positions = owed[sender]
                if source is None:
                    raise RemoteViolation("missing_shares", f"shares owed for {list(positions)}")
                data = source.take(positions)
                assert self.deck is not None
                self._deck_call("bad_share", self.deck.shares, sender, positions, data)
                self.sent[sender].update(positions)
                owed[sender] = ()
            pending = [s for s in owers if owed[s]]
            if pending:
                if len(pending) == 1:
                    nxt = pending[0]
                else:
                    nxt = 1 - self.last_sender if self.last_sender is not None else 0
                self.expect = (nxt, m.REVEAL)
                return
            self._resolve(engine, need, seq)

    def _resolve(self, engine: Engine | DrawEngine, need: NeedReveal, seq: int) -> None:
        """All shares for this step are in: feed the cards this viewer can now see."""
        assert self.deck is not None
        if need.to is not None and self.viewer is not None and need.to != self.viewer:
            # A private reveal to the other seat: its cards stay hidden here (spec/game.md §5.3).
            assert isinstance(engine, RoundState)
            self.steps.append(["skip"])
            engine.skip_reveal()
            return
        cards: list[tuple[int, int]] = []
        for position in need.positions:
            card = self._card(position)
            if card is None:
                raise LocalMisuse("deck_state", f"position {position} should be known by now")
            cards.append((position, card))
        try:
            for position, card in cards:
                if not isinstance(engine, DrawEngine):
                    self.steps.append(["reveal", position, card])
                engine.reveal(position, card)
        except IllegalMove as exc:
            raise RemoteViolation("illegal_action", str(exc)) from None
        except RulesError as exc:
            raise RemoteViolation("inconsistent_reveal", str(exc)) from None
        if self.viewer is not None and not isinstance(engine, DrawEngine):
            self.events.append(Board(view=engine.view()))

    def _card(self, position: int) -> int | None:
        from mentalpoker.errors import MentalPokerError

        assert self.deck is not None
        try:
            return self.deck.card(position)
        except MentalPokerError as exc:
            raise RemoteViolation("bad_deck", f"position {position} decrypts to no card: {exc}") from None

    def _announce(self, need: NeedAction) -> None:
        if self.viewer is None or need.seat != self.viewer:
            return
        engine = self.engine
        assert engine is not None
        options = tuple(engine.legal_actions())
        if need.kind == "play":
            self.events.append(YourTurn(view=engine.view(), options=options))
        else:
            self.events.append(ChoiceNeeded(kind=need.kind, view=engine.view(), options=options))

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions this viewer may take now (empty when it is not asked to act)."""
        if self.phase is not Phase.PLAYING or self.expect != (self.viewer, m.ACT) or self.engine is None:
            return ()
        return tuple(self.engine.legal_actions())

    def _engine_done(self) -> None:
        assert self.terms is not None
        if self.draw is not None:
            dealer = self.draw.dealer
            assert dealer is not None
            self.match = new_match(self.terms.profile, dealer)
            self.events.append(FirstDealer(dealer=dealer, draws=tuple(self.draw.draws)))
            self._next_deal()
            return
        engine = self.engine
        assert engine is not None and engine.result is not None
        self.round_result = engine.result
        self.phase = Phase.DISCLOSING
        # The closer is the seat that did not send the message that ended the round.
        self.closer = 1 - (self.last_sender if self.last_sender is not None else 0)
        self.expect = (self.closer, m.DISCLOSE)

    def _next_deal(self) -> None:
        assert self.match is not None
        self.round_params = next_round_params(self.match)
        round_index, dealer, month = self.round_params
        self._start_deal(self.deal + 1, first_shuffler=dealer)
        self.events.append(RoundStarted(round_index=round_index, deal=self.deal, dealer=dealer, month=month))

    # -- closing a deal -----------------------------------------------------------------------
    def _on_disclose(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                     source: ShareSource | None) -> None:
        assert self.deck is not None
        self._deck_call("bad_disclosed_key", self.deck.disclosed, sender, _bytes(body["key"]))
        self.phase = Phase.RESULT
        self.expect = (1 - sender, m.ROUND_RESULT)

    def ensure_audited(self) -> None:
        """Both round keys are known: re-check the whole deal with full knowledge (spec/game.md §5.6)."""
        if self.audited:
            return
        assert self.deck is not None and self.terms is not None and self.round_result is not None
        try:
            order = self.deck.audit()
        except ProtocolError:
            raise
        except Exception as exc:
            raise RemoteViolation("bad_deck", f"the deal does not re-check: {exc}") from None
        round_index, dealer, month = self.round_params
        replay = new_round(self.terms.profile, dealer=dealer, viewer=None, round_index=round_index,
                           month=month)
        actions = [s for s in self.steps if s[0] == "act"]
        for step in self.steps:
            if step[0] == "reveal" and order[_int(step[1])] != step[2]:
                raise RemoteViolation("inconsistent_reveal", f"position {step[1]} revealed a wrong card")
        index = 0
        while replay.need is not None:
            need = replay.need
            if isinstance(need, NeedReveal):
                try:
                    for position in need.positions:
                        replay.reveal(position, order[position])
                except RulesError as exc:
                    raise RemoteViolation("inconsistent_reveal", str(exc)) from None
                continue
            if index >= len(actions):
                raise RemoteViolation("inconsistent_round", "the replay asks for more actions")
            _, seat, wire, seq = actions[index]
            index += 1
            assert isinstance(seat, int) and isinstance(wire, dict) and isinstance(seq, int)
            try:
                replay.apply(seat, action_from_wire(wire))
            except RulesError as exc:
                raise violation_at("illegal_action", f"with every card known: {exc}",
                                   seat=seat, seq=seq) from None
        if index != len(actions) or replay.result is None:
            raise RemoteViolation("inconsistent_round", "the replay ends elsewhere than the game")
        if pack(result_to_wire(replay.result)) != pack(result_to_wire(self.round_result)):
            raise RemoteViolation("inconsistent_round", "the replay with every card known scores differently")
        self.audited = True

    def round_statement(self, head: bytes) -> bytes:
        assert self.round_result is not None
        round_index = self.round_params[0]
        return round_statement(session_id=self.session_id, deal=self.deal, round_index=round_index,
                               head=head, result=result_to_wire(self.round_result))

    def _on_round_result(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                         source: ShareSource | None) -> None:
        assert self.deck is not None and self.round_result is not None
        self._deck_call("bad_disclosed_key", self.deck.disclosed, sender, _bytes(body["key"]))
        self.ensure_audited()
        if pack(body["result"]) != pack(result_to_wire(self.round_result)):
            raise RemoteViolation("wrong_result", "the round result differs from the rules engine's")
        self.round_head = prev
        self._check_sig(sender, _bytes(body["sig"]), self.round_statement(prev), "bad_result_signature")
        self.phase = Phase.COUNTERSIGN
        self.expect = (1 - sender, m.ROUND_SIGN)

    def _on_round_sign(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                       source: ShareSource | None) -> None:
        self._check_sig(sender, _bytes(body["sig"]), self.round_statement(self.round_head),
                        "bad_result_signature")
        result = self.round_result
        assert result is not None and self.match is not None
        record_result(self.match, result)
        self.scores = self.match.scores
        if not result.redeal:
            self.history.append((self.round_params[0], result.winner, result.points))
        self.events.append(RoundOver(round_index=self.round_params[0], result=result, scores=self.scores))
        if self.match.over:
            self.phase = Phase.MATCH_RESULT
            self.expect = (1 - sender, m.MATCH_RESULT)
        else:
            self._next_deal()

    def match_result_for(self, head: bytes) -> MatchResult:
        assert self.terms is not None and self.match is not None
        winner = self.match.winner
        return MatchResult(
            version=self.terms.version, session_id=self.session_id, room=self.room, keys=self.keys,
            terms_digest=self.terms_digest, profile=self.terms.profile.name,
            profile_digest=profile_digest(self.terms.profile), rounds=tuple(self.history),
            scores=self.scores, winner=winner, head=head)

    def _on_match_result(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                         source: ShareSource | None) -> None:
        mine = self.match_result_for(prev)
        if pack(body["result"]) != pack(mine.to_dict()):
            raise RemoteViolation("wrong_result", "the match result differs from this peer's")
        self._check_sig(sender, _bytes(body["sig"]), mine.statement(), "bad_result_signature")
        self.match_result = mine
        self.match_sigs[sender] = _bytes(body["sig"])
        self.phase = Phase.MATCH_COUNTERSIGN
        self.expect = (1 - sender, m.MATCH_SIGN)

    def _on_match_sign(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                       source: ShareSource | None) -> None:
        assert self.match_result is not None
        self._check_sig(sender, _bytes(body["sig"]), self.match_result.statement(), "bad_result_signature")
        self.match_sigs[sender] = _bytes(body["sig"])
        self.cosigned = CoSignedResult(result=self.match_result,
                                       signatures=(self.match_sigs[0], self.match_sigs[1]))
        self.phase = Phase.DONE
        self.expect = (-1, "")
        self.events.append(MatchOver(scores=self.match_result.scores, winner=self.match_result.winner,
                                     result=self.cosigned.encode()))

    # -- helpers ------------------------------------------------------------------------------
    def _check_sig(self, seat: int, sig: bytes, data: bytes, reason: str) -> None:
        try:
            check_signature(self.keys[seat], sig, data)
        except SignatureInvalid:
            raise RemoteViolation(reason, f"seat {seat}'s signature does not cover this result") from None

    @staticmethod
    def _deck_call(reason: str, fn: Callable[..., None], *args: object) -> None:
        from mentalpoker.errors import MentalPokerError

        try:
            fn(*args)
        except MentalPokerError as exc:
            raise RemoteViolation(reason, str(exc)) from None

    def waiting_for(self) -> tuple[int, str, int] | None:
        """(seat, message type, deadline in seconds) of the current wait: the hook for timeouts and,
        later, abandonment claims (spec/game.md §7)."""
        if self.phase in (Phase.DONE, Phase.FAILED):
            return None
        seat, msg_type = self.expect
        if self.terms is None:
            return seat, msg_type, Deadlines().step
        seconds = self.terms.deadlines.turn if msg_type == m.ACT else self.terms.deadlines.step
        return seat, msg_type, seconds


    # -- persistence (crash safety, spec/game.md §7) --------------------------------------------
    STATE_FORMAT = "koikoi-p2p/game-flow/v1"

    def to_state(self) -> dict[str, object]:
        """The whole machine as plain msgpack-able data; the round engine is kept as the list of
        what it was fed (``steps``) and rebuilt by replaying it; the deck is saved by its owner."""
        draw = self.draw
        return {
            "format": self.STATE_FORMAT, "viewer": self.viewer, "keys": list(self.keys), "room": self.room,
            "session_id": self.session_id, "phase": self.phase.value,
            "terms": self.terms.to_body() if self.terms is not None else None,
            "last_sender": self.last_sender, "expect": list(self.expect), "count": self.count,
            "deal": self.deal, "first_shuffler": self.first_shuffler, "round_params": list(self.round_params),
            "keys_seen": self.keys_seen, "shuffles_seen": self.shuffles_seen,
            "sent": [sorted(self.sent[0]), sorted(self.sent[1])], "steps": [list(x) for x in self.steps],
            "engine": self.engine is not None,
            "draw": None if draw is None else {
                "pair": draw.pair, "cards": [[p, c] for p, c in sorted(draw.cards.items())],
                "draws": [list(d) for d in draw.draws], "dealer": draw.dealer},
            "closer": self.closer, "round_head": self.round_head, "audited": self.audited,
            "match": self.match.to_dict() if self.match is not None else None,
            "history": [list(h) for h in self.history], "scores": list(self.scores),
            "round_result": result_to_wire(self.round_result) if self.round_result is not None else None,
            "match_result": self.match_result.to_dict() if self.match_result is not None else None,
            "match_sigs": list(self.match_sigs),
            "error": None if self.error is None else [self.error.reason, self.error.message],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, object], *, deck_factory: DeckFactory,
                   deck: DeckAccess | None) -> GameFlow:
        """Rebuild from ``to_state``; ``LocalMisuse("bad_state")`` if it is damaged."""
        from koikoi_p2p.rules.match import MatchState
        from koikoi_p2p.rules.round import RoundResult as _RoundResult

        try:
            if state["format"] != cls.STATE_FORMAT:
                raise LocalMisuse("bad_state", "unknown game state format")
            keys = state["keys"]
            assert isinstance(keys, list)
            viewer = state["viewer"]
            flow = cls(viewer=viewer if isinstance(viewer, int) else None, keys=(keys[0], keys[1]),
                       room=str(state["room"]), session_id=_bytes(state["session_id"]),
                       deck_factory=deck_factory)
            flow.phase = Phase(state["phase"])
            terms = state["terms"]
            if isinstance(terms, dict):
                flow.terms = MatchTerms.from_body(terms)
                flow.terms_digest = flow.terms.digest()
            last = state["last_sender"]
            flow.last_sender = last if isinstance(last, int) else None
            expect = state["expect"]
            assert isinstance(expect, list)
            flow.expect = (int(expect[0]), str(expect[1]))
            flow.count = _int(state["count"])
            flow.deal = _int(state["deal"])
            flow.first_shuffler = _int(state["first_shuffler"])
            rp = state["round_params"]
            assert isinstance(rp, list)
            flow.round_params = (int(rp[0]), int(rp[1]), int(rp[2]))
            flow.keys_seen = _int(state["keys_seen"])
            flow.shuffles_seen = _int(state["shuffles_seen"])
            sent = state["sent"]
            assert isinstance(sent, list)
            flow.sent = (set(sent[0]), set(sent[1]))
            steps = state["steps"]
            assert isinstance(steps, list)
            flow.steps = [list(x) for x in steps]
            flow.deck = deck
            match = state["match"]
            if isinstance(match, dict):
                flow.match = MatchState.from_dict(match)
            draw = state["draw"]
            if isinstance(draw, dict) and flow.terms is not None:
                engine = DrawEngine(flow.terms.profile)
                engine.pair = int(draw["pair"])
                engine.cards = {int(p): int(c) for p, c in draw["cards"]}
                engine.draws = [(int(a), int(b)) for a, b in draw["draws"]]
                engine.dealer = draw["dealer"] if isinstance(draw["dealer"], int) else None
                flow.draw = engine
            if state["engine"] and flow.terms is not None:
                flow.engine = flow._replay_engine()
            flow.closer = _int(state["closer"])
            flow.round_head = _bytes(state["round_head"])
            flow.audited = bool(state["audited"])
            history = state["history"]
            assert isinstance(history, list)
            flow.history = [(int(a), b if isinstance(b, int) else None, int(c)) for a, b, c in history]
            scores = state["scores"]
            assert isinstance(scores, list)
            flow.scores = (int(scores[0]), int(scores[1]))
            rr = state["round_result"]
            flow.round_result = _RoundResult.from_dict(rr) if isinstance(rr, dict) else None
            mr = state["match_result"]
            flow.match_result = MatchResult.from_dict(mr) if isinstance(mr, dict) else None
            sigs = state["match_sigs"]
            assert isinstance(sigs, list)
            flow.match_sigs = [_bytes(sigs[0]), _bytes(sigs[1])]
            if flow.match_result is not None and flow.phase is Phase.DONE:
                flow.cosigned = CoSignedResult(result=flow.match_result,
                                               signatures=(flow.match_sigs[0], flow.match_sigs[1]))
            error = state["error"]
            if isinstance(error, list):
                flow.error = LocalMisuse(str(error[0]), str(error[1]))
        except LocalMisuse:
            raise
        except (KeyError, TypeError, ValueError, AssertionError, IndexError, RulesError) as exc:
            raise LocalMisuse("bad_state", f"damaged game state: {exc}") from None
        return flow

    def _replay_engine(self) -> RoundState:
        """Rebuild this deal's engine by feeding it again what it was fed (replay by moves)."""
        assert self.terms is not None
        round_index, dealer, month = self.round_params
        engine = new_round(self.terms.profile, dealer=dealer, viewer=self.viewer, round_index=round_index,
                           month=month)
        for step in self.steps:
            if step[0] == "reveal":
                engine.reveal(_int(step[1]), _int(step[2]))
            elif step[0] == "skip":
                engine.skip_reveal()
            else:
                wire = step[2]
                assert isinstance(wire, dict)
                engine.apply(_int(step[1]), action_from_wire(wire))
        return engine

    def announce_pending(self) -> None:
        """Queue the decision event again (after a resume)."""
        engine = self.engine
        if self.phase is Phase.PLAYING and engine is not None and isinstance(engine.need, NeedAction):
            self._announce(engine.need)

def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, not {type(value).__name__}")
    return value


def _bytes(value: object) -> bytes:
    assert isinstance(value, bytes)
    return value


def shares_to_wire(groups: Sequence[ShareGroup]) -> list[object]:
    return [g.to_wire() for g in groups]

"""The game's state machine: which seat speaks next, with which message, and what it must hold.

Theory of operation (spec/game.md §4-§6)
----------------------------------------
The game is strictly sequential: at every point exactly one seat is expected to send one message
type, and the machine knows which from public data alone. Both peers, and an auditor replaying a
transcript, run this same machine over the same messages in the same order; a peer runs its own
outgoing messages through ``accept`` too, so both sides always hold the same public state.

Version 2 pipelines the deals (spec/game.md §5):

* Decks are prepared ahead. Deal d's deck (both round keys, both proven shuffles; the first
  shuffler follows the deal's parity, not its dealer) is made while deal d - 1 is played: a seat
  about to ``act`` first sends what it *owes*: its countersignature of the previous deal, then
  every step of the next deal's preparation it can. Those messages go out before its person
  decides, so nobody waits on them. What is left when a deal ends is done at its close.
* The opening of a deal (the field and both hands) costs one message per seat: each pays its
  shares of the field and of the other seat's hand together, riding on its ``disclose`` of the
  previous deal. Hand-yaku declarations are forced by the rules, so each seat sends its own
  (``declare``) as soon as it knows its hand; the machine feeds them to the engine in the order
  the rules require and checks a claim as soon as its cards are public.
* Closing a deal: the seat whose message ended it discloses its round secret at once, the other
  answers with its own; each then re-checks the whole deal with every card known and signs the
  result (``round_sign``), owed before its next ``act`` or closing message.

In the engine-driven part the rules engine's ``need`` drives the flow ("the pump"): a message
carries, in one ``shares`` group per reveal step, every share its sender owes as the engine runs
on, up to the first step that waits on the other seat or on an action.

Every check that fails raises ``RemoteViolation`` (or ``LocalMisuse`` for our own caller's
mistake) and moves the machine to FAILED; every later call raises. The decks behind the machine
are abstracted (``DeckAccess``): a player's ``DeckParty`` or an auditor's ``DeckObserver``. A
player defers the verification of the other seat's preparation messages (``defer=True``) to
``flush`` (its idle time), and in any case to before the deck is built upon or used; a failure
is then blamed on the preparation envelope itself.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
    TermsProposed,
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
    action_from_wire,
    action_to_wire,
    first_dealer_step,
    fixed_first_dealer,
    new_match,
    new_round,
    record_result,
    result_to_wire,
)
from koikoi_p2p.protocol.rulesio import (
    round_params as next_round_params,
)
from koikoi_p2p.protocol.statement import pack
from koikoi_p2p.protocol.terms import GAME_VERSION, Deadlines, MatchTerms, profile_digest
from koikoi_p2p.rules.actions import Action, ClaimHandYaku, NoHandYaku
from koikoi_p2p.rules.errors import IllegalMove, RulesError
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import FIELD_REVEAL, NeedAction, NeedReveal, RoundResult, RoundState

if TYPE_CHECKING:
    from koikoi_p2p.rules.match import MatchState

DECK_SIZE = 48


class Phase(enum.Enum):
    """Where a match stands; each value is also its name in spec/game.md §4."""

    PROPOSING = "proposing"            # seat 0 sends the terms
    KEYING = "keying"                  # seat 0 sends its round keys of the first decks
    ACCEPTING = "accepting"            # seat 1's person reads the terms; it signs their digest
    PREPARING = "preparing"            # keys and shuffles that nothing else can carry (§5.3)
    DRAWING = "drawing"                # deal 0: public cards until the first dealer is known
    OPENING = "opening"                # the field and both hands of a deal (§5.4)
    DECLARING = "declaring"            # hand-yaku declarations (§5.5)
    PLAYING = "playing"                # the rules engine's needs drive reveal / act
    CLOSING = "closing"                # both round secrets of the deal that ended (§5.7)
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


_OWED_BEFORE_ACT = "the seat about to act, when it owes it (§4.4)"
_OWED_BEFORE_CLOSE = "the seat about to disclose, when it owes it (§4.4)"

# Every state and transition of the game (spec/game.md §4.1 is generated from the same facts and
# a test checks they agree).
TABLE: tuple[Transition, ...] = (
    Transition(Phase.PROPOSING, m.TERMS, "seat 0", (Phase.KEYING,)),
    Transition(Phase.KEYING, m.KEY, "seat 0", (Phase.KEYING, Phase.ACCEPTING)),
    Transition(Phase.ACCEPTING, m.ACCEPT, "seat 1, once its person accepts", (Phase.PREPARING,)),
    Transition(Phase.PREPARING, m.KEY, "the seat that can (§5.3)",
               (Phase.PREPARING, Phase.DRAWING, Phase.OPENING)),
    Transition(Phase.PREPARING, m.SHUFFLE, "the seat that can (§5.3)",
               (Phase.PREPARING, Phase.DRAWING, Phase.OPENING)),
    Transition(Phase.DRAWING, m.REVEAL, "the seat whose shares are missing",
               (Phase.DRAWING, Phase.OPENING)),
    Transition(Phase.OPENING, m.REVEAL, "the seat whose opening shares are missing",
               (Phase.OPENING, Phase.DECLARING, Phase.PLAYING, Phase.CLOSING)),
    Transition(Phase.DECLARING, m.DECLARE, "the last seat to pay its opening shares, then the other",
               (Phase.DECLARING, Phase.PLAYING, Phase.CLOSING)),
    Transition(Phase.PLAYING, m.ROUND_SIGN, _OWED_BEFORE_ACT, (Phase.PLAYING,)),
    Transition(Phase.PLAYING, m.KEY, _OWED_BEFORE_ACT, (Phase.PLAYING,)),
    Transition(Phase.PLAYING, m.SHUFFLE, _OWED_BEFORE_ACT, (Phase.PLAYING,)),
    Transition(Phase.PLAYING, m.ACT, "the seat the rules engine asks", (Phase.PLAYING, Phase.CLOSING)),
    Transition(Phase.PLAYING, m.REVEAL, "the seat whose shares are missing", (Phase.PLAYING, Phase.CLOSING)),
    Transition(Phase.PLAYING, m.RESIGN, "the seat the rules engine asks", (Phase.MATCH_COUNTERSIGN,)),
    Transition(Phase.CLOSING, m.ROUND_SIGN, _OWED_BEFORE_CLOSE, (Phase.CLOSING,)),
    Transition(Phase.CLOSING, m.KEY, _OWED_BEFORE_CLOSE, (Phase.CLOSING,)),
    Transition(Phase.CLOSING, m.SHUFFLE, _OWED_BEFORE_CLOSE, (Phase.CLOSING,)),
    Transition(Phase.CLOSING, m.DISCLOSE, "the seat that ended the deal, then the other",
               (Phase.CLOSING, Phase.PREPARING, Phase.OPENING, Phase.DECLARING, Phase.PLAYING,
                Phase.MATCH_RESULT)),
    Transition(Phase.MATCH_RESULT, m.ROUND_SIGN, "the second seat to disclose", (Phase.MATCH_RESULT,)),
    Transition(Phase.MATCH_RESULT, m.MATCH_RESULT, "the second seat to disclose",
               (Phase.MATCH_COUNTERSIGN,)),
    Transition(Phase.MATCH_COUNTERSIGN, m.ROUND_SIGN, "the other seat", (Phase.MATCH_COUNTERSIGN,)),
    Transition(Phase.MATCH_COUNTERSIGN, m.MATCH_SIGN, "the other seat", (Phase.DONE,)),
)
_BY_KEY: Mapping[tuple[Phase, str], Transition] = {(t.phase, t.msg_type): t for t in TABLE}
# Types whose body names the deal they belong to (spec/game.md §3.1).
_DEAL_TYPES = frozenset({m.KEY, m.SHUFFLE, m.DISCLOSE, m.ROUND_SIGN})


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

    def take(self, deal: int, positions: tuple[int, ...]) -> bytes: ...
    def finish(self) -> None: ...


class MessageShares:
    """The share groups of a received message, consumed in order by the pump."""

    def __init__(self, groups: Sequence[ShareGroup]) -> None:
        self._groups = list(groups)
        self._next = 0

    def take(self, deal: int, positions: tuple[int, ...]) -> bytes:
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
    """Deal 0: public cards of a jointly shuffled deck, as many at a time as the profile's
    first-dealer rule asks (``choose_first_dealer``), until it names the first dealer (spec/game.md
    §5.1, spec/rules.md §5.1)."""

    def __init__(self, profile: Profile) -> None:
        self._profile = profile
        self.cards: list[int] = []
        self.draws: list[tuple[int, ...]] = []
        self.dealer: int | None = None
        self.need: NeedReveal | None = None
        self._ask()

    def _ask(self) -> None:
        step = first_dealer_step(self._profile, self.cards)
        self.dealer = step.dealer
        self.need = NeedReveal(step.need, None) if step.dealer is None else None

    def reveal(self, position: int, card: int) -> None:
        need = self.need
        assert need is not None and position == len(self.cards)
        self.cards.append(card)
        if len(self.cards) == need.positions[-1] + 1:
            self.draws.append(tuple(self.cards[need.positions[0]:]))
            self._ask()


@dataclass(slots=True)
class DeckSlot:
    """One deal's deck: who has sent its key, how many shuffles are in, what is not verified yet."""

    deal: int
    first_shuffler: int
    access: DeckAccess
    keys: list[int] = field(default_factory=list)
    shuffles: int = 0
    pending: list[list[object]] = field(default_factory=list)  # [kind, sender, data, seq]

    @property
    def final(self) -> bool:
        return self.shuffles == 2


@dataclass(slots=True)
class Deal:
    """A deal from its opening to the last signature of its result."""

    number: int
    params: tuple[int, int, int]                   # round index, dealer, month (0, 0, 0 for deal 0)
    engine: RoundState | DrawEngine
    steps: list[list[object]] = field(default_factory=list)   # what the engine was fed, for replay
    sent: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))
    openers: list[int] = field(default_factory=list)           # seats that paid the opening, in order
    declared: dict[int, list[object]] = field(default_factory=dict)   # seat -> [action wire, seq]
    result: RoundResult | None = None
    ender: int = -1
    end_head: bytes | None = None                  # digest of the envelope that ended the deal
    disclosed: list[list[int]] = field(default_factory=list)   # [seat, seq] of each disclose
    audited: bool = False
    signed: dict[int, bytes] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return isinstance(self.engine, DrawEngine)


def violation_at(reason: str, message: str, *, seat: int, seq: int) -> RemoteViolation:
    """A violation that names the seat and the envelope that showed it."""
    return RemoteViolation(reason, message, evidence={"seat": seat, "seq": seq})


class GameFlow:
    """The sequential game state machine shared by both players and the auditor.

    ``viewer`` is the seat of a player (None: an auditor). ``views`` lets an auditor replay given
    deals as one seat saw them (the deals of which it holds only that seat's round secret).
    ``defer`` delays the verification of the other seat's key and shuffle messages to ``flush`` (a
    player's idle time), and at the latest to before the deck is built upon or used; an auditor
    verifies everything at once."""

    def __init__(self, *, viewer: int | None, keys: tuple[bytes, bytes], room: str, session_id: bytes,
                 deck_factory: DeckFactory, names: tuple[str, str] | None = None,
                 defer: bool = False, views: Mapping[int, int] | None = None) -> None:
        self.viewer = viewer
        self.views = dict(views or {})
        self.auditor = viewer is None          # a third party: re-checks each deal at its close
        self.keys = keys
        self.room = room
        self.session_id = session_id
        self.names = names
        self.defer = defer
        self._deck_factory = deck_factory
        self.phase = Phase.PROPOSING
        self.terms: MatchTerms | None = None
        self.terms_digest = b""
        self.last_sender: int | None = None
        self.expect: tuple[int, str] = (0, m.TERMS)
        self.expect_deal: int | None = None
        self.primary: tuple[int, str] = (0, m.TERMS)     # the expectation before owed messages
        self.person = False                               # the wait is on a person (turn deadline)
        self.events: list[Event] = []
        # Called once the opponent's act is applied, before the shares its envelope carries are
        # checked and the deal runs on: a player sees the move without waiting for that work.
        self.on_move: Callable[[], None] | None = None
        self.count = 0                         # accepted game messages
        self.first_deal = 0                    # 0 with a first-dealer draw, else 1
        self.next_deal = 0                     # the deal to start once its deck is final
        self.decks: dict[int, DeckSlot] = {}
        self.current: Deal | None = None       # the deal in play (its engine runs)
        self.closing: list[Deal] = []          # ended deals whose result is not signed by both
        self.match: MatchState | None = None
        self.history: list[tuple[int, int | None, int]] = []
        self.scores: tuple[int, int] = (0, 0)
        self.final_signer: int | None = None   # who signs the match result first
        self.resigned: tuple[int, int] | None = None   # (seat, seq) of a resignation
        self.match_result: MatchResult | None = None
        self.match_sigs: list[bytes] = [b"", b""]
        self.cosigned: CoSignedResult | None = None
        self.error: ProtocolError | None = None
        self._announced: tuple[int, int] | None = None
        self.blind: set[int] = set()           # auditor: deals replayed without their hidden hands

    # -- views for callers and tests ------------------------------------------------------------
    @property
    def deal(self) -> int:
        """The number of the deal in play (or the last one to end); -1 before any."""
        if self.current is not None:
            return self.current.number
        if self.closing:
            return self.closing[-1].number
        return self.next_deal - 1

    @property
    def engine(self) -> RoundState | None:
        cur = self.current
        return cur.engine if cur is not None and isinstance(cur.engine, RoundState) else None

    @property
    def round_params(self) -> tuple[int, int, int]:
        cur = self.current or (self.closing[-1] if self.closing else None)
        return cur.params if cur is not None else (0, 0, 0)

    def viewer_of(self, deal: int) -> int | None:
        """The seat a deal is seen by: the player's, or for an auditor the view it was given."""
        return self.views.get(deal, self.viewer)

    def deal_record(self, number: int) -> Deal | None:
        if self.current is not None and self.current.number == number:
            return self.current
        return next((d for d in self.closing if d.number == number), None)

    # -- the one entry point ------------------------------------------------------------------
    def accept(self, sender: int, msg_type: str, body: Mapping[str, object], *, seq: int, prev: bytes,
               source: ShareSource | None = None) -> None:
        """Apply one message (ours or the peer's); raise ``RemoteViolation`` on any deviation.

        ``source`` supplies the shares a sender owes: ``None`` reads them from ``body``.
        """
        if self.phase is Phase.DONE:
            # Nothing follows the co-signed result (spec/game.md §9): a signed envelope after it
            # is its sender's, for a peer and for an auditor replaying the evidence alike.
            raise RemoteViolation("out_of_turn", "a message after the match ended",
                                  {"seat": sender, "seq": seq})
        if self.phase is Phase.FAILED:
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
        resigning = msg_type == m.RESIGN and self.expect == self.primary == (sender, m.ACT)
        if transition is None or sender != want_seat or (msg_type != want_type and not resigning):
            raise RemoteViolation(
                "out_of_turn",
                f"{msg_type} from seat {sender} while waiting for {want_type} from seat {want_seat}")
        if msg_type == m.TERMS and isinstance(body, Mapping) and body.get("version") != GAME_VERSION:
            # Another version's terms (version 1's have other fields): refused as such (§1.2).
            raise RemoteViolation("unsupported_version", f"terms of game version {body.get('version')!r}")
        m.check_body(msg_type, body)
        if msg_type in _DEAL_TYPES and body["deal"] != self.expect_deal:
            raise RemoteViolation("out_of_turn", f"{msg_type} of deal {body['deal']} while waiting for "
                                                 f"deal {self.expect_deal}'s")
        if source is None and "shares" in body:
            source = MessageShares(m.parse_shares(msg_type, body["shares"]))
        for ended in self.closing:
            if ended.end_head is None:
                ended.end_head = prev       # this envelope directly follows the one that ended it
        handler = getattr(self, "_on_" + msg_type)
        self.last_sender = sender   # set first: the pump and the closing rules read it
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
        if self.names is not None and terms.names != self.names:
            raise RemoteViolation("bad_terms", "the terms name other display names than the handshake")
        self.terms = terms
        self.terms_digest = terms.digest()
        fixed = fixed_first_dealer(terms.profile)
        self.first_deal = 0 if fixed is None else 1
        self.next_deal = self.first_deal
        if self.viewer == 1:
            self.events.append(TermsProposed(terms=terms, summary=terms.summary()))
        self.phase = Phase.KEYING
        self._settle(sender, None)

    def _initial_decks(self) -> tuple[int, ...]:
        """The decks made final before the match's first deal starts (with a draw: 0 and 1)."""
        return tuple(range(self.first_deal, 2))

    def _on_accept(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                   source: ShareSource | None) -> None:
        if body["terms"] != self.terms_digest:
            raise RemoteViolation("bad_terms", "accepted terms differ from the proposal")
        assert self.terms is not None
        self.events.append(TermsAgreed(profile=self.terms.profile, rounds=self.terms.rounds,
                                       terms_digest=self.terms_digest))
        fixed = fixed_first_dealer(self.terms.profile)
        if fixed is not None:
            self.match = new_match(self.terms.profile, fixed)
            self.events.append(FirstDealer(dealer=fixed, draws=()))
        self.phase = Phase.PREPARING
        self._settle(sender, None)

    # -- decks ----------------------------------------------------------------------------------
    def first_shuffler(self, deal: int) -> int:
        """Seat 1 shuffles the match's first deck first, then the seats alternate (spec/game.md §5.2)."""
        return 1 if (deal - self.first_deal) % 2 == 0 else 0

    def slot(self, deal: int) -> DeckSlot:
        found = self.decks.get(deal)
        if found is None:
            first = self.first_shuffler(deal)
            found = DeckSlot(deal=deal, first_shuffler=first, access=self._deck_factory(deal, first))
            self.decks[deal] = found
        return found

    def prep_step(self, seat: int, deal: int) -> str | None:
        """The next preparation message ``seat`` can send for this deal's deck, if any."""
        slot = self.slot(deal)
        if seat not in slot.keys:
            return m.KEY
        if len(slot.keys) == 2 and slot.shuffles < 2:
            turn = slot.first_shuffler if slot.shuffles == 0 else 1 - slot.first_shuffler
            if turn == seat:
                return m.SHUFFLE
        return None

    def _on_key(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                source: ShareSource | None) -> None:
        slot = self.slot(_int(body["deal"]))
        data = _bytes(body["key"])
        if self.defer and sender != self.viewer:
            slot.pending.append([m.KEY, sender, data, seq])
        else:
            self._deck_call("bad_key", slot.access.key, sender, data)
        slot.keys.append(sender)
        self._settle(sender, None)

    def _on_shuffle(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                    source: ShareSource | None) -> None:
        slot = self.slot(_int(body["deal"]))
        data = _bytes(body["deck"])
        if self.defer and sender != self.viewer:
            slot.pending.append([m.SHUFFLE, sender, data, seq])
        else:
            self._deck_call("bad_shuffle", slot.access.shuffle, sender, data)
        slot.shuffles += 1
        self._settle(sender, None)

    def flush(self, deal: int | None = None) -> bool:
        """Verify the other seat's deferred preparation messages (of one deal, or all); a failure
        is blamed on the envelope that carried it. True if anything was verified."""
        did = False
        for number in sorted(self.decks) if deal is None else [deal]:
            slot = self.decks.get(number)
            while slot is not None and slot.pending:
                kind, sender, data, seq = slot.pending[0]
                assert isinstance(sender, int) and isinstance(data, bytes) and isinstance(seq, int)
                try:
                    if kind == m.KEY:
                        self._deck_call("bad_key", slot.access.key, sender, data)
                    else:
                        self._deck_call("bad_shuffle", slot.access.shuffle, sender, data)
                except RemoteViolation as exc:
                    exc.evidence.update({"seat": sender, "seq": seq})
                    raise
                slot.pending.pop(0)
                did = True
        return did

    # -- what happens next ------------------------------------------------------------------------
    def _owed(self, seat: int, *, prep: bool) -> tuple[str, int] | None:
        """The first message ``seat`` owes before its next act or closing message (§4.4): its
        countersignature of a closed deal, then the next step of the next deal's deck, then its
        key of the deck after that (keys travel two deals ahead, shuffles one)."""
        for ended in self.closing:
            if len(ended.disclosed) == 2 and seat not in ended.signed:
                return m.ROUND_SIGN, ended.number
        if prep and not self._match_over():
            target = self._prep_target()
            if target is not None:
                step = self.prep_step(seat, target)
                if step is not None:
                    return step, target
                if seat not in self.slot(target + 1).keys:
                    return m.KEY, target + 1
        return None

    def _prep_target(self) -> int | None:
        open_close = self._open_close()
        if open_close is not None:
            return open_close.number + 1
        if self.current is not None and not self.current.is_draw:
            return self.current.number + 1
        return None

    def _open_close(self) -> Deal | None:
        return next((d for d in self.closing if len(d.disclosed) < 2), None)

    def _match_over(self) -> bool:
        return self.resigned is not None or (self.match is not None and self.match.over)

    def _expect(self, seat: int, msg_type: str, *, deal: int | None = None, person: bool = False,
                owed: bool = False, prep: bool = True) -> None:
        """Set the expectation, preceded by what ``seat`` owes when ``owed``."""
        self.primary = (seat, msg_type)
        self.person = person
        first = self._owed(seat, prep=prep) if owed else None
        if first is not None:
            self.expect, self.expect_deal = (seat, first[0]), first[1]
        else:
            self.expect, self.expect_deal = (seat, msg_type), deal

    def _settle(self, sender: int, source: ShareSource | None) -> None:
        """Run the machine on after a message until it waits for the next one (spec/game.md §4.2)."""
        while True:
            if self.phase is Phase.KEYING:
                missing = [d for d in (*self._initial_decks(), 2) if 0 not in self.slot(d).keys]
                if missing:
                    self._expect(0, m.KEY, deal=missing[0])
                    return
                self.phase = Phase.ACCEPTING
                self._expect(1, m.ACCEPT, person=True)
                return
            if self.phase is Phase.ACCEPTING:
                return
            if self.resigned is not None or self.phase in (Phase.MATCH_RESULT, Phase.MATCH_COUNTERSIGN,
                                                           Phase.DONE):
                return
            if self.current is None and not self._match_over():
                self._maybe_start()
            ended = self._open_close()
            if ended is not None:
                if source is not None and self.current is not None:
                    self._pump(sender, source)      # a disclose carries the next deal's opening
                discloser = ended.ender if not ended.disclosed else 1 - ended.ender
                self.phase = Phase.CLOSING
                self._expect(discloser, m.DISCLOSE, deal=ended.number, owed=True)
                return
            if self._match_over():
                self._match_end()
                return
            if self.current is None:
                self.phase = Phase.PREPARING
                self._foreground(sender)
                return
            if self._pump(sender, source):
                if self.closing:
                    source = None     # a round's end: its close, not this message, opens the next
                continue              # (after the first-dealer draw the same message goes on)
            return

    def _maybe_start(self) -> None:
        """Start the next deal once every deck it needs is final (and the first dealer known)."""
        needed = self._initial_decks() if self.next_deal == self.first_deal else (self.next_deal,)
        if not all(self.slot(d).final for d in needed):
            return
        assert self.terms is not None
        number = self.next_deal
        if number == 0:
            self.current = Deal(number=0, params=(0, 0, 0), engine=DrawEngine(self.terms.profile))
            self.phase = Phase.DRAWING
        else:
            assert self.match is not None
            params = next_round_params(self.match)
            round_index, dealer, month = params
            engine = new_round(self.terms.profile, dealer=dealer, viewer=self.viewer_of(number),
                               round_index=round_index, month=month)
            self.current = Deal(number=number, params=params, engine=engine)
            self.phase = Phase.OPENING
            self.events.append(RoundStarted(round_index=round_index, deal=number, dealer=dealer, month=month))
        self.next_deal = number + 1

    def _foreground(self, last: int) -> None:
        """Preparation that nothing else can carry (§5.3): the seat that sent the last message
        sends every step it can (decks in deal order, the deck after them keys only), then the
        other seat."""
        decks = self._initial_decks() if self.next_deal == self.first_deal else (self.next_deal,)
        ahead = decks[-1] + 1                      # its keys only: they travel two deals ahead
        for seat in (last, 1 - last):
            for deal in (*decks, ahead):
                step = self.prep_step(seat, deal)
                if step == m.KEY or (step is not None and deal != ahead):
                    self._expect(seat, step, deal=deal)
                    return
        raise LocalMisuse("internal_error", "no preparation step is possible")  # pragma: no cover

    # -- the engine-driven part ---------------------------------------------------------------
    def _pump(self, sender: int, source: ShareSource | None) -> bool:
        """Run the deal in play on as far as the sender's shares reach (see the module docstring);
        True when the deal ended (the caller goes on with its close)."""
        deal = self.current
        assert deal is not None
        engine = deal.engine
        while True:
            need = engine.need
            if need is None:
                self._end_deal(deal, sender)
                return True
            if isinstance(need, NeedAction):
                assert isinstance(engine, RoundState)
                if need.kind == "hand_yaku":
                    if need.seat in deal.declared:
                        self._feed_declaration(deal, need.seat)
                        continue
                    first = deal.openers[-1]
                    declarer = first if first not in deal.declared else 1 - first
                    self.phase = Phase.DECLARING
                    self._expect(declarer, m.DECLARE)
                    return False
                self.phase = Phase.PLAYING
                self._expect(need.seat, m.ACT, person=True, owed=True)
                self._announce(deal, need)
                return False
            if not deal.is_draw and isinstance(engine, RoundState) and engine.phase == FIELD_REVEAL \
                    and len(deal.openers) < 2:
                if self._open(deal, sender, source):
                    continue
                return False
            owers = (0, 1) if need.to is None else (1 - need.to,)
            owed = {s: tuple(p for p in need.positions if p not in deal.sent[s]) for s in owers}
            if owed.get(sender) and source is not None:
                self._pay(deal, sender, owed[sender], source)
                owed[sender] = ()
            pending = [s for s in owers if owed[s]]
            if pending:
                nxt = pending[0] if len(pending) == 1 else sender
                self._expect(nxt, m.REVEAL)
                return False
            self._resolve(deal, need)

    def _pay(self, deal: Deal, sender: int, positions: tuple[int, ...], source: ShareSource) -> None:
        self.flush(deal.number)
        data = source.take(deal.number, positions)
        self._deck_call("bad_share", self.decks[deal.number].access.shares, sender, positions, data)
        deal.sent[sender].update(positions)

    def _open(self, deal: Deal, sender: int, source: ShareSource | None) -> bool:
        """The opening step (§5.4): each seat pays its shares of the field and of the other seat's
        hand in one message. True once both have paid."""
        assert isinstance(deal.engine, RoundState)
        layout = deal.engine.layout
        if sender not in deal.openers and source is not None:
            self._pay(deal, sender, layout.field, source)
            self._pay(deal, sender, layout.hands[1 - sender], source)
            deal.openers.append(sender)
        if len(deal.openers) == 2:
            return True
        missing = 1 - deal.openers[0] if deal.openers else sender
        self.phase = Phase.OPENING
        self._expect(missing, m.REVEAL)
        return False

    def _resolve(self, deal: Deal, need: NeedReveal) -> None:
        """All shares for this step are in: feed the cards this viewer can now see."""
        engine = deal.engine
        viewer = self.viewer_of(deal.number)
        if need.to is not None and (
                (viewer is not None and need.to != viewer)
                or (viewer is None and any(self._card(deal, p) is None for p in need.positions))):
            # A private reveal to the other seat (or, for an auditor without that deal's round
            # secrets, to either seat): its cards stay hidden here (spec/game.md §5.4, §8.2).
            assert isinstance(engine, RoundState)
            if viewer is None:
                self.blind.add(deal.number)
            deal.steps.append(["skip"])
            engine.skip_reveal()
            return
        cards: list[tuple[int, int]] = []
        for position in need.positions:
            card = self._card(deal, position)
            if card is None:
                raise LocalMisuse("deck_state", f"position {position} should be known by now")
            cards.append((position, card))
        try:
            for position, card in cards:
                if not deal.is_draw:
                    deal.steps.append(["reveal", position, card])
                engine.reveal(position, card)
        except IllegalMove as exc:
            # A public reveal refuted the claim just applied: blame the envelope that made it.
            last = next((s for s in reversed(deal.steps) if s[0] == "act"), None)
            if last is None:  # pragma: no cover - only a claim's reveal can refute anything
                raise RemoteViolation("illegal_action", str(exc)) from None
            raise violation_at("illegal_action", str(exc), seat=_int(last[1]), seq=_int(last[3])) from None
        except RulesError as exc:
            raise RemoteViolation("inconsistent_reveal", str(exc)) from None
        if self.viewer is not None and isinstance(engine, RoundState):
            self.events.append(Board(view=engine.view()))

    def _card(self, deal: Deal, position: int) -> int | None:
        from mentalpoker.errors import MentalPokerError

        try:
            return self.decks[deal.number].access.card(position)
        except MentalPokerError as exc:
            raise RemoteViolation("bad_deck", f"position {position} decrypts to no card: {exc}") from None

    def _announce(self, deal: Deal, need: NeedAction) -> None:
        if self.viewer is None or need.seat != self.viewer:
            return
        key = (deal.number, len(deal.steps))
        if self._announced == key:
            return
        self._announced = key
        engine = deal.engine
        assert isinstance(engine, RoundState)
        options = tuple(engine.legal_actions())
        if need.kind == "play":
            self.events.append(YourTurn(view=engine.view(), options=options))
        else:
            self.events.append(ChoiceNeeded(kind=need.kind, view=engine.view(), options=options))

    def announce_pending(self) -> None:
        """Queue the decision event again (after a resume, or an illegal choice)."""
        self._announced = None
        deal, engine = self.current, self.engine
        if deal is not None and engine is not None and isinstance(engine.need, NeedAction) \
                and self.primary == (self.viewer, m.ACT):
            self._announce(deal, engine.need)

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions this viewer may take now (empty when it is not asked to act)."""
        engine = self.engine
        if self.phase is not Phase.PLAYING or self.primary != (self.viewer, m.ACT) or engine is None:
            return ()
        return tuple(engine.legal_actions())

    def _action(self, body: Mapping[str, object]) -> tuple[Action, dict[str, object]]:
        raw = body["action"]
        assert isinstance(raw, dict)
        try:
            action = action_from_wire(raw)
        except (RulesError, ValueError, TypeError, KeyError) as exc:
            raise RemoteViolation("bad_message", f"not an action: {exc}") from None
        wire = action_to_wire(action)
        if pack(wire) != pack(raw):
            raise RemoteViolation("bad_message", "action not in canonical form")
        return action, wire

    def _on_act(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                source: ShareSource | None) -> None:
        deal, engine = self.current, self.engine
        assert deal is not None and engine is not None
        action, wire = self._action(body)
        if isinstance(action, (ClaimHandYaku, NoHandYaku)):
            raise RemoteViolation("bad_message", "hand-yaku declarations travel in declare")
        try:
            engine.apply(sender, action)
        except RulesError as exc:
            raise RemoteViolation("illegal_action", str(exc)) from None
        deal.steps.append(["act", sender, wire, seq])
        if sender != self.viewer and self.viewer is not None:
            self.events.append(OpponentMoved(action=action, view=engine.view()))
            if self.on_move is not None:
                self.on_move()
        self._settle(sender, source)

    def _on_reveal(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                   source: ShareSource | None) -> None:
        self._settle(sender, source)

    def _on_declare(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                    source: ShareSource | None) -> None:
        """A forced hand-yaku declaration (§5.5), sent as soon as the seat knows its hand: held
        until the rules ask for it; a claim's cards are public at once and checked now."""
        deal, engine = self.current, self.engine
        assert deal is not None and engine is not None and source is not None
        action, wire = self._action(body)
        if isinstance(action, ClaimHandYaku):
            self._pay(deal, sender, action.positions, source)
            cards = []
            for position in action.positions:
                card = self._card(deal, position)
                if card is None:
                    raise LocalMisuse("deck_state", f"position {position} should be known by now")
                cards.append(card)
            try:
                engine.check_claim(sender, action, tuple(cards))
            except IllegalMove as exc:
                raise RemoteViolation("illegal_action", str(exc)) from None
        elif not isinstance(action, NoHandYaku):
            raise RemoteViolation("bad_message", "a declaration is claim_hand_yaku or no_hand_yaku")
        deal.declared[sender] = [wire, seq]
        self._settle(sender, None)

    def _feed_declaration(self, deal: Deal, seat: int) -> None:
        engine = deal.engine
        assert isinstance(engine, RoundState)
        wire, seq = deal.declared[seat]
        assert isinstance(wire, dict) and isinstance(seq, int)
        action = action_from_wire(wire)
        try:
            engine.apply(seat, action)
        except RulesError as exc:
            raise violation_at("illegal_action", str(exc), seat=seat, seq=seq) from None
        deal.steps.append(["act", seat, wire, seq])
        # No OpponentMoved: a forced declaration is no one's decision (a claim shows on the board
        # when its cards are revealed, and in the round's result).

    # -- the end of a deal ----------------------------------------------------------------------
    def _end_deal(self, deal: Deal, sender: int) -> None:
        assert self.terms is not None
        self.current = None
        if isinstance(deal.engine, DrawEngine):
            dealer = deal.engine.dealer
            assert dealer is not None
            self.match = new_match(self.terms.profile, dealer)
            self.events.append(FirstDealer(dealer=dealer, draws=tuple(deal.engine.draws)))
            self.decks.pop(0, None)     # deal 0's keys are never disclosed; nothing more to check
            return
        engine = deal.engine
        assert engine.result is not None and self.match is not None
        deal.result = engine.result
        deal.ender = sender
        record_result(self.match, deal.result)
        self.scores = self.match.scores
        if not deal.result.redeal:
            self.history.append((deal.params[0], deal.result.winner, deal.result.points))
        self.closing.append(deal)
        self.events.append(RoundOver(round_index=deal.params[0], result=deal.result, scores=self.scores))

    # -- closing a deal -----------------------------------------------------------------------
    def _on_disclose(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                     source: ShareSource | None) -> None:
        ended = self._open_close()
        assert ended is not None
        self.flush(ended.number)
        self._deck_call("bad_disclosed_key", self.decks[ended.number].access.disclosed, sender,
                        _bytes(body["key"]))
        ended.disclosed.append([sender, seq])
        if len(ended.disclosed) == 2:
            if self.auditor:
                self.ensure_audited(ended)     # an auditor re-checks as soon as it can
            if self._match_over():
                self.final_signer = sender
        self._settle(sender, source)

    def ensure_audited(self, deal: Deal) -> None:
        """Both round keys are known: re-check the whole deal with full knowledge (spec/game.md §6.1)."""
        if deal.audited:
            return
        assert self.terms is not None and deal.result is not None and len(deal.disclosed) == 2
        # What only the disclosed secrets can show is the discloser's: a player blames the other
        # seat's disclose, an auditor the disclose that completed the pair.
        other, blame = deal.disclosed[1] if self.auditor else next(
            d for d in deal.disclosed if d[0] != self.viewer)
        try:
            self._audit(deal)
        except RemoteViolation as exc:
            exc.evidence.setdefault("seat", other)
            exc.evidence.setdefault("seq", blame)
            raise
        deal.audited = True

    def _audit(self, deal: Deal) -> None:
        assert self.terms is not None and deal.result is not None
        try:
            order = self.decks[deal.number].access.audit()
        except ProtocolError:
            raise
        except Exception as exc:
            raise RemoteViolation("bad_deck", f"the deal does not re-check: {exc}") from None
        round_index, dealer, month = deal.params
        replay = new_round(self.terms.profile, dealer=dealer, viewer=None, round_index=round_index,
                           month=month)
        actions = [s for s in deal.steps if s[0] == "act"]
        for step in deal.steps:
            if step[0] == "reveal" and order[_int(step[1])] != step[2]:
                raise RemoteViolation("inconsistent_reveal", f"position {step[1]} revealed a wrong card")
        index = 0
        while replay.need is not None:
            need = replay.need
            if isinstance(need, NeedReveal):
                try:
                    for position in need.positions:
                        replay.reveal(position, order[position])
                except IllegalMove as exc:
                    claimant = next((a for a in reversed(actions[:index])), None)
                    if claimant is not None:
                        raise violation_at("illegal_action", f"with every card known: {exc}",
                                           seat=_int(claimant[1]), seq=_int(claimant[3])) from None
                    raise RemoteViolation("inconsistent_reveal", str(exc)) from None
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
        if pack(result_to_wire(replay.result)) != pack(result_to_wire(deal.result)):
            raise RemoteViolation("inconsistent_round", "the replay with every card known scores differently")

    def round_statement(self, deal: Deal) -> bytes:
        """What both seats sign for a deal (spec/game.md §6.1)."""
        assert deal.result is not None and deal.end_head is not None
        return round_statement(session_id=self.session_id, deal=deal.number, round_index=deal.params[0],
                               head=deal.end_head, result=result_to_wire(deal.result))

    def _on_round_sign(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                       source: ShareSource | None) -> None:
        deal = next(d for d in self.closing if d.number == body["deal"])
        assert deal.result is not None
        if pack(body["result"]) != pack(result_to_wire(deal.result)):
            raise RemoteViolation("wrong_result", "the round result differs from the rules engine's")
        self._check_sig(sender, _bytes(body["sig"]), self.round_statement(deal), "bad_result_signature")
        deal.signed[sender] = _bytes(body["sig"])
        if len(deal.signed) == 2:
            self.closing.remove(deal)
            self.decks.pop(deal.number, None)
        self._after_owed(sender)

    def _after_owed(self, sender: int) -> None:
        """After an owed message: expect the sender's next owed message or its primary one."""
        seat, msg_type = self.primary
        if seat == sender:
            self._expect(seat, msg_type, deal=self._primary_deal(), person=self.person, owed=True,
                         prep=msg_type in (m.ACT, m.DISCLOSE))
        else:  # pragma: no cover - owed messages always precede their sender's primary message
            raise LocalMisuse("internal_error", "an owed message from the wrong seat")

    def _primary_deal(self) -> int | None:
        if self.primary[1] == m.DISCLOSE:
            ended = self._open_close()
            return ended.number if ended is not None else None
        return None

    # -- the end of the match -------------------------------------------------------------------
    def _match_end(self) -> None:
        if self.phase is Phase.MATCH_RESULT or self.phase is Phase.MATCH_COUNTERSIGN:
            return
        assert self.final_signer is not None
        # Nobody signs a match whose transcript holds a deferred check not yet made: the decks
        # prepared for deals that will never be played are verified now (spec/game.md §7.3).
        self.flush()
        self.phase = Phase.MATCH_RESULT
        self._expect(self.final_signer, m.MATCH_RESULT, owed=True, prep=False)

    def match_result_for(self, head: bytes, *, resigned: int | None = None) -> MatchResult:
        assert self.terms is not None
        match = self.match
        winner = 1 - resigned if resigned is not None else (match.winner if match is not None else None)
        return MatchResult(
            version=self.terms.version, session_id=self.session_id, room=self.room, keys=self.keys,
            names=self.terms.names, rated=self.terms.rated, terms_digest=self.terms_digest,
            profile=self.terms.profile.name, profile_digest=profile_digest(self.terms.profile),
            rounds=tuple(self.history), scores=self.scores, winner=winner, resigned=resigned, head=head)

    def _on_match_result(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                         source: ShareSource | None) -> None:
        mine = self.match_result_for(prev)
        self._take_result(sender, body, mine)
        self._countersign(1 - sender)

    def _on_resign(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                   source: ShareSource | None) -> None:
        self.flush()        # as at the end of the last deal (§7.3): nothing deferred is left unchecked
        mine = self.match_result_for(prev, resigned=sender)
        self._take_result(sender, body, mine)
        self.resigned = (sender, seq)
        self.current = None
        self._countersign(1 - sender)

    def _take_result(self, sender: int, body: Mapping[str, object], mine: MatchResult) -> None:
        if pack(body["result"]) != pack(mine.to_dict()):
            raise RemoteViolation("wrong_result", "the match result differs from this peer's")
        self._check_sig(sender, _bytes(body["sig"]), mine.statement(), "bad_result_signature")
        self.match_result = mine
        self.match_sigs[sender] = _bytes(body["sig"])

    def _countersign(self, seat: int) -> None:
        self.phase = Phase.MATCH_COUNTERSIGN
        self._expect(seat, m.MATCH_SIGN, owed=True, prep=False)

    def _on_match_sign(self, sender: int, body: Mapping[str, object], seq: int, prev: bytes,
                       source: ShareSource | None) -> None:
        assert self.match_result is not None
        self._check_sig(sender, _bytes(body["sig"]), self.match_result.statement(), "bad_result_signature")
        self.match_sigs[sender] = _bytes(body["sig"])
        self.cosigned = CoSignedResult(result=self.match_result,
                                       signatures=(self.match_sigs[0], self.match_sigs[1]))
        self.phase = Phase.DONE
        self.expect = self.primary = (-1, "")
        self.expect_deal = None
        self.events.append(MatchOver(scores=self.match_result.scores, winner=self.match_result.winner,
                                     result=self.cosigned.encode(), resigned=self.match_result.resigned))

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
        """(seat, message type, deadline in seconds) of the current wait (spec/game.md §7.1): the
        ``turn`` deadline while a person decides (an ``act``, ``accept``, and the messages owed
        before an act, which its sender may send any time before it), else ``step``."""
        if self.phase in (Phase.DONE, Phase.FAILED):
            return None
        seat, msg_type = self.expect
        deadlines = self.terms.deadlines if self.terms is not None else Deadlines()
        return seat, msg_type, deadlines.turn if self.person else deadlines.step

    # -- persistence (crash safety, spec/game.md §7) --------------------------------------------
    STATE_FORMAT = "koikoi-p2p/game-flow/v2"

    def to_state(self) -> dict[str, object]:
        """The whole machine as plain msgpack-able data; each round engine is kept as the list of
        what it was fed (``steps``) and rebuilt by replaying it; decks are saved by their owner."""
        return {
            "format": self.STATE_FORMAT, "viewer": self.viewer, "keys": list(self.keys), "room": self.room,
            "session_id": self.session_id, "names": list(self.names) if self.names is not None else None,
            "views": [[deal, seat] for deal, seat in sorted(self.views.items())],
            "defer": self.defer, "phase": self.phase.value,
            "terms": self.terms.to_body() if self.terms is not None else None,
            "last_sender": self.last_sender, "expect": list(self.expect), "expect_deal": self.expect_deal,
            "primary": list(self.primary), "person": self.person, "count": self.count,
            "first_deal": self.first_deal, "next_deal": self.next_deal,
            "decks": [[s.deal, s.first_shuffler, list(s.keys), s.shuffles, [list(p) for p in s.pending]]
                      for s in self.decks.values()],
            "current": _deal_to_state(self.current) if self.current is not None else None,
            "closing": [_deal_to_state(d) for d in self.closing],
            "match": self.match.to_dict() if self.match is not None else None,
            "history": [list(h) for h in self.history], "scores": list(self.scores),
            "final_signer": self.final_signer,
            "resigned": list(self.resigned) if self.resigned is not None else None,
            "match_result": self.match_result.to_dict() if self.match_result is not None else None,
            "match_sigs": list(self.match_sigs),
            "error": None if self.error is None else [self.error.reason, self.error.message],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, object], *, deck_factory: DeckFactory,
                   decks: Mapping[int, DeckAccess]) -> GameFlow:
        """Rebuild from ``to_state`` with the saved decks; ``LocalMisuse("bad_state")`` if damaged."""
        from koikoi_p2p.rules.match import MatchState

        try:
            if state["format"] != cls.STATE_FORMAT:
                raise LocalMisuse("bad_state", "unknown game state format")
            keys = _list(state["keys"])
            viewer = state["viewer"]
            names = state["names"]
            flow = cls(viewer=viewer if isinstance(viewer, int) else None,
                       keys=(_bytes(keys[0]), _bytes(keys[1])), room=str(state["room"]),
                       session_id=_bytes(state["session_id"]),
                       deck_factory=deck_factory, defer=bool(state["defer"]),
                       names=(str(names[0]), str(names[1])) if isinstance(names, list) else None,
                       views={_int(d): _int(v) for d, v in (_list(x) for x in _list(state["views"]))})
            flow.phase = Phase(state["phase"])
            terms = state["terms"]
            if isinstance(terms, dict):
                flow.terms = MatchTerms.from_body(terms)
                flow.terms_digest = flow.terms.digest()
            last = state["last_sender"]
            flow.last_sender = last if isinstance(last, int) else None
            expect, primary = _list(state["expect"]), _list(state["primary"])
            flow.expect = (_int(expect[0]), str(expect[1]))
            flow.primary = (_int(primary[0]), str(primary[1]))
            deal_expected = state["expect_deal"]
            flow.expect_deal = deal_expected if isinstance(deal_expected, int) else None
            flow.person = bool(state["person"])
            flow.count = _int(state["count"])
            flow.first_deal = _int(state["first_deal"])
            flow.next_deal = _int(state["next_deal"])
            for item in _list(state["decks"]):
                number, first, seen, shuffles, pending = _list(item)
                flow.decks[_int(number)] = DeckSlot(
                    deal=_int(number), first_shuffler=_int(first), access=decks[_int(number)],
                    keys=[_int(k) for k in _list(seen)], shuffles=_int(shuffles),
                    pending=[list(_list(p)) for p in _list(pending)])
            match = state["match"]
            if isinstance(match, dict):
                flow.match = MatchState.from_dict(match)
            assert flow.terms is not None or not isinstance(state["current"], dict)
            current = state["current"]
            if isinstance(current, dict) and flow.terms is not None:
                flow.current = _deal_from_state(current, flow.terms.profile, flow.viewer_of)
            if flow.terms is not None:
                flow.closing = [_deal_from_state(_dict(d), flow.terms.profile, flow.viewer_of)
                                for d in _list(state["closing"])]
            flow.history = [(_int(h[0]), h[1] if isinstance(h[1], int) else None, _int(h[2]))
                            for h in (_list(item) for item in _list(state["history"]))]
            scores = _list(state["scores"])
            flow.scores = (_int(scores[0]), _int(scores[1]))
            signer = state["final_signer"]
            flow.final_signer = signer if isinstance(signer, int) else None
            resigned = state["resigned"]
            flow.resigned = (int(resigned[0]), int(resigned[1])) if isinstance(resigned, list) else None
            mr = state["match_result"]
            flow.match_result = MatchResult.from_dict(mr) if isinstance(mr, dict) else None
            sigs = _list(state["match_sigs"])
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


def _deal_to_state(deal: Deal) -> dict[str, object]:
    engine = deal.engine
    draw = None
    if isinstance(engine, DrawEngine):
        draw = [list(engine.cards), [list(d) for d in engine.draws]]
    return {
        "number": deal.number, "params": list(deal.params), "draw": draw,
        "steps": [list(s) for s in deal.steps], "sent": [sorted(deal.sent[0]), sorted(deal.sent[1])],
        "openers": list(deal.openers),
        "declared": [[seat, wire, seq] for seat, (wire, seq) in sorted(deal.declared.items())],
        "result": result_to_wire(deal.result) if deal.result is not None else None,
        "ender": deal.ender, "end_head": deal.end_head, "disclosed": [list(d) for d in deal.disclosed],
        "audited": deal.audited, "signed": [[seat, sig] for seat, sig in sorted(deal.signed.items())],
    }


def _deal_from_state(data: Mapping[str, object], profile: Profile,
                     viewer_of: Callable[[int], int | None]) -> Deal:
    number = _int(data["number"])
    viewer = viewer_of(number)
    params_list = _list(data["params"])
    params = (_int(params_list[0]), _int(params_list[1]), _int(params_list[2]))
    steps = [list(_list(s)) for s in _list(data["steps"])]
    draw = data["draw"]
    engine: RoundState | DrawEngine
    if isinstance(draw, list):
        engine = DrawEngine(profile)
        for position, card in enumerate(_list(draw[0])):
            engine.reveal(position, _int(card))
    else:
        engine = _replay_engine(profile, params, viewer, steps)
    sent = _list(data["sent"])
    result = data["result"]
    end_head = data["end_head"]
    return Deal(
        number=number, params=params, engine=engine, steps=steps,
        sent=({_int(p) for p in _list(sent[0])}, {_int(p) for p in _list(sent[1])}),
        openers=[_int(s) for s in _list(data["openers"])],
        declared={_int(item[0]): [item[1], item[2]] for item in (_list(x) for x in _list(data["declared"]))},
        result=RoundResult.from_dict(_dict(result)) if isinstance(result, dict) else None,
        ender=_int(data["ender"]) if type(data["ender"]) is int else -1,
        end_head=end_head if isinstance(end_head, bytes) else None,
        disclosed=[[_int(a), _int(b)] for a, b in (_list(x) for x in _list(data["disclosed"]))],
        audited=bool(data["audited"]),
        signed={_int(item[0]): _bytes(item[1]) for item in (_list(x) for x in _list(data["signed"]))})


def _replay_engine(profile: Profile, params: tuple[int, int, int], viewer: int | None,
                   steps: list[list[object]]) -> RoundState:
    """Rebuild a deal's engine by feeding it again what it was fed (replay by moves)."""
    round_index, dealer, month = params
    engine = new_round(profile, dealer=dealer, viewer=viewer, round_index=round_index, month=month)
    for step in steps:
        if step[0] == "reveal":
            engine.reveal(_int(step[1]), _int(step[2]))
        elif step[0] == "skip":
            engine.skip_reveal()
        else:
            wire = step[2]
            assert isinstance(wire, dict)
            engine.apply(_int(step[1]), action_from_wire(wire))
    return engine


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, not {type(value).__name__}")
    return value


def _bytes(value: object) -> bytes:
    if not isinstance(value, bytes):
        raise TypeError(f"expected bytes, not {type(value).__name__}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {type(value).__name__}")
    return value


def _dict(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise TypeError(f"expected a map, not {type(value).__name__}")
    return value


def shares_to_wire(groups: Sequence[ShareGroup]) -> list[object]:
    return [g.to_wire() for g in groups]


__all__ = ["TABLE", "Deal", "DeckAccess", "DeckSlot", "DrawEngine", "GameFlow", "MessageShares", "Phase",
           "ShareSource", "Transition", "shares_to_wire", "state_table_markdown", "violation_at"]

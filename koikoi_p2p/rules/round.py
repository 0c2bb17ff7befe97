"""One round of Koi-Koi as a state machine seen by one viewer (spec/rules.md §9 and §10).

Theory of operation. The round always waits for exactly one thing, ``need``:

* ``NeedReveal(positions, to)``: cards at deck positions must be revealed, publicly (``to`` is
  None) or privately to one seat. The caller feeds each card with ``reveal(position, card)``. An
  engine whose viewer is the other seat cannot learn a private card and calls ``skip_reveal()``.
  A card the engine already knows is requested all the same and checked for consistency, so the
  two peers' engines ask for the same reveals in the same order whatever each one knows.
* ``NeedAction(seat, kind)``: the seat must ``apply`` an action of that kind.

The sequence (spec/rules.md §9): the field is revealed publicly; seat 0's hand privately to seat 0;
seat 1's hand privately to seat 1; if the profile has hand yaku, the dealer then the non-dealer
claims one or declares none (a claim reveals its positions publicly); then turns from the dealer:
play (a public reveal of the played position), a capture choice if the card matches two field
cards, the public reveal of the next stock position, a capture choice again, and a decision
(koi-koi or stop) where the profile offers one. ``need`` is None once ``result`` is set.

Hands are bit masks of deck positions (the viewer may not know the cards); the field and the
captured piles are bit masks of card indices (every card there has been revealed publicly).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.rules.actions import (
    CAPTURES,
    KOIKOI,
    NO_HAND_YAKU,
    PLAYS,
    STOP,
    Action,
    Capture,
    ClaimHandYaku,
    KoiKoi,
    NoHandYaku,
    Play,
    Stop,
)
from koikoi_p2p.rules.cards import CARDS, MONTH_MASKS, cards_of
from koikoi_p2p.rules.deal import deal_layout
from koikoi_p2p.rules.errors import IllegalMove, InconsistentReveal, RulesError
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.scoring import round_score, scorer

__all__ = ["Need", "NeedAction", "NeedReveal", "RoundResult", "RoundState", "RoundView", "hand_yaku_of"]


@dataclass(frozen=True, slots=True)
class NeedReveal:
    """Deck positions to reveal; ``to`` None is a public reveal, else a private one to that seat."""

    positions: tuple[int, ...]
    to: int | None


@dataclass(frozen=True, slots=True)
class NeedAction:
    """The seat that must act, and the kind: hand_yaku, play, capture or decide."""

    seat: int
    kind: str


Need = NeedReveal | NeedAction


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended. ``points`` go to ``winner`` (None: nobody scores)."""

    winner: int | None
    points: int
    yaku: dict[str, int]
    base: int
    calls: tuple[int, ...]
    redeal: bool
    next_dealer: int
    reason: str   # stop, auto_end, exhaustion, oya_ken, hand_yaku, field_month, field_pairs, hand_month,
    #               both_hand_yaku
    consumes_round: bool = True

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner, "points": self.points, "yaku": dict(self.yaku), "base": self.base,
            "calls": list(self.calls), "redeal": self.redeal, "next_dealer": self.next_dealer,
            "reason": self.reason, "consumes_round": self.consumes_round,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RoundResult:
        """Strict inverse of ``to_dict`` (RulesError "bad_result" on anything else)."""
        if not isinstance(data, Mapping) or set(data) != _RESULT_KEYS:
            raise RulesError("bad_result", "a round result has exactly the keys of to_dict()")

        def integer(key: str, low: int, high: int) -> int:
            value = data[key]
            if type(value) is not int or not low <= value <= high:
                raise RulesError("bad_result", f"{key} must be an integer {low}..{high}")
            return value

        winner = data["winner"]
        if winner is not None and (type(winner) is not int or winner not in (0, 1)):
            raise RulesError("bad_result", "winner is 0, 1 or null")
        yaku, calls, reason = data["yaku"], data["calls"], data["reason"]
        if not isinstance(yaku, Mapping) or any(
                not isinstance(k, str) or type(v) is not int or v < 0 for k, v in yaku.items()):
            raise RulesError("bad_result", "yaku maps ids to points")
        if not isinstance(calls, list) or any(type(c) is not int or c not in (0, 1) for c in calls):
            raise RulesError("bad_result", "calls is a list of seats")
        if not isinstance(reason, str):
            raise RulesError("bad_result", "reason is a string")
        flags = data["redeal"], data["consumes_round"]
        if any(type(f) is not bool for f in flags):
            raise RulesError("bad_result", "redeal and consumes_round are booleans")
        return cls(winner=winner, points=integer("points", 0, MAX_POINTS), yaku=dict(yaku),
                   base=integer("base", 0, MAX_POINTS), calls=tuple(calls), redeal=bool(flags[0]),
                   next_dealer=integer("next_dealer", 0, 1), reason=reason, consumes_round=bool(flags[1]))


# Largest round score or base a result may carry: below 2**53, so every integer of the rules stays
# exact in an IEEE double (JavaScript numbers); no profile comes near it (spec/rules.md §1.4).
MAX_POINTS = 2**53 - 1
_RESULT_KEYS = frozenset(
    {"winner", "points", "yaku", "base", "calls", "redeal", "next_dealer", "reason", "consumes_round"})


@dataclass(frozen=True, slots=True)
class RoundView:
    """What one seat sees of the round: for displays and computer players."""

    seat: int
    field: tuple[int, ...]
    hand: tuple[int, ...]                # my cards (card indices), in hand-position order
    hand_positions: tuple[int, ...]      # the deck positions of my hand, same order as ``hand``
    opponent_hand_size: int
    piles: tuple[tuple[int, ...], tuple[int, ...]]
    stock_count: int
    dealer: int
    turn: int
    calls: tuple[int, ...]
    yaku: tuple[dict[str, int], dict[str, int]]
    bases: tuple[int, int]
    month: int
    round_index: int
    need: Need | None
    pending_card: int | None             # the played or drawn card waiting for a capture choice
    capture_options: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        need: object = None
        if isinstance(self.need, NeedReveal):
            need = {"reveal": list(self.need.positions), "to": self.need.to}
        elif isinstance(self.need, NeedAction):
            need = {"seat": self.need.seat, "kind": self.need.kind}
        return {
            "seat": self.seat, "field": list(self.field), "hand": list(self.hand),
            "hand_positions": list(self.hand_positions), "opponent_hand_size": self.opponent_hand_size,
            "piles": [list(self.piles[0]), list(self.piles[1])], "stock_count": self.stock_count,
            "dealer": self.dealer, "turn": self.turn, "calls": list(self.calls),
            "yaku": [dict(self.yaku[0]), dict(self.yaku[1])], "bases": list(self.bases), "month": self.month,
            "round_index": self.round_index, "need": need, "pending_card": self.pending_card,
            "capture_options": list(self.capture_options),
        }


# Phases of the round (spec/rules.md §9, table 9.1).
FIELD_REVEAL = 0
HAND0_REVEAL = 1
HAND1_REVEAL = 2
HAND_YAKU = 3
HAND_YAKU_REVEAL = 4
PLAY = 5
PLAY_REVEAL = 6
PLAY_CAPTURE = 7
DRAW_REVEAL = 8
DRAW_CAPTURE = 9
DECIDE = 10
OVER = 11
PHASE_NAMES = (
    "field_reveal", "hand0_reveal", "hand1_reveal", "hand_yaku", "hand_yaku_reveal", "play", "play_reveal",
    "play_capture", "draw_reveal", "draw_capture", "decide", "over",
)

_SINGLE_REVEALS = tuple(NeedReveal((p,), None) for p in range(48))
_NEED_PLAY = (NeedAction(0, "play"), NeedAction(1, "play"))
_NEED_CAPTURE = (NeedAction(0, "capture"), NeedAction(1, "capture"))
_NEED_DECIDE = (NeedAction(0, "decide"), NeedAction(1, "decide"))
_NEED_HAND_YAKU = (NeedAction(0, "hand_yaku"), NeedAction(1, "hand_yaku"))
_CARD_MONTH = tuple(c.month for c in CARDS)
_MONTH_OF_BIT = tuple(MONTH_MASKS[c.month] for c in CARDS)


def _positions(mask: int) -> tuple[int, ...]:
    return cards_of(mask)


def _bits(items: tuple[int, ...]) -> int:
    """Bit mask of card indices (or positions) already known to be valid and distinct."""
    m = 0
    for i in items:
        m |= 1 << i
    return m


def hand_yaku_of(cards: tuple[int, ...] | list[int], profile: Profile) -> dict[str, int]:
    """Hand yaku of a dealt hand of 8 cards under the profile (spec/rules.md §6.6)."""
    counts = [0] * 13
    for c in cards:
        counts[_CARD_MONTH[c]] += 1
    quads = sum(1 for n in counts if n == 4)
    pairs_only = sum(1 for n in counts if n == 2) == 4 and all(n in (0, 2) for n in counts)
    all_even = all(n % 2 == 0 for n in counts)
    found: dict[str, int] = {}
    if quads and profile.hand_whole_month == "redeal":
        # spec/rules.md §5.4: a whole month in a hand is claimed as teshi, and the deal is void.
        return {"teshi": profile.hand_claim_points("teshi")}
    for yaku, points in profile.hand_yaku:
        if (yaku == "teshi" and quads >= 1) or (yaku == "kuttsuki" and pairs_only) or (
                yaku == "tenho" and (quads >= 1 or all_even)) or (yaku == "double_tenho" and quads == 2):
            found[yaku] = points
    return found


def _four_pairs(field: int) -> bool:
    """The dealt field is four pairs: two cards of each of four months (spec/rules.md §5.3)."""
    counts = [(field & m).bit_count() for m in MONTH_MASKS[1:]]
    return counts.count(2) == 4 and counts.count(0) == 8


def _claim_holds(yaku: str, cards: list[int]) -> bool:
    """Do exactly these revealed cards make the claimed hand yaku? (spec/rules.md §6.6)"""
    counts: dict[int, int] = {}
    for c in cards:
        counts[_CARD_MONTH[c]] = counts.get(_CARD_MONTH[c], 0) + 1
    values = sorted(counts.values())
    if yaku == "teshi":
        return values == [4]
    if yaku == "kuttsuki":
        return values == [2, 2, 2, 2]
    if yaku == "tenho":
        return values == [4] or (len(cards) == 8 and all(v % 2 == 0 for v in values))
    if yaku == "double_tenho":
        return values == [4, 4]
    return False


class RoundState:
    """One round from one viewer's point of view (viewer None: everything known, for audits)."""

    __slots__ = (
        "_awaiting", "_base", "_blind", "_claim", "_claim_seat", "_claims", "_pile_at_turn_start", "_pos_of",
        "bases", "calls", "dealer", "deck", "field", "hands", "layout", "month", "need", "options", "pending",
        "phase", "piles", "profile", "result", "round_index", "stock_next", "turn", "viewer",
    )

    def __init__(self, *, profile: Profile, dealer: int, viewer: int | None, round_index: int,
                 month: int) -> None:
        if type(dealer) is not int or dealer not in (0, 1):
            raise RulesError("bad_seat", "dealer must be seat 0 or 1")
        if viewer is not None and (type(viewer) is not int or viewer not in (0, 1)):
            raise RulesError("bad_seat", "viewer must be seat 0, seat 1 or None")
        if type(month) is not int or not 1 <= month <= 12:
            raise RulesError("bad_month", "month must be 1..12")
        if type(round_index) is not int or round_index < 1:
            raise RulesError("bad_round", "round_index counts from 1")
        self.profile = profile
        self.dealer = dealer
        self.viewer = viewer
        self.round_index = round_index
        self.month = month
        self.layout = deal_layout(dealer)
        self.deck: list[int] = [-1] * 48      # card at each deck position, -1 while unknown
        self._pos_of: list[int] = [-1] * 48   # deck position of each known card
        self.hands: list[int] = [0, 0]        # bit masks of deck positions
        for seat in (0, 1):
            for p in self.layout.hands[seat]:
                self.hands[seat] |= 1 << p
        self.field = 0                        # bit mask of card indices
        self.piles: list[int] = [0, 0]        # bit masks of card indices
        self.bases: list[int] = [0, 0]        # current base total of each pile
        self.calls: list[int] = []            # seats of the koi-koi calls, in order
        self.stock_next = 0                   # index into layout.stock of the next draw
        self.turn = dealer
        self.pending = -1                     # card waiting for a capture choice
        self.options = 0                      # its two matching field cards
        self._base = scorer(profile).base
        self._claims: list[str | None] = [None, None]
        self._claim: ClaimHandYaku | None = None
        self._claim_seat = -1
        self._pile_at_turn_start = 0
        self._blind = 0                       # seats whose private reveal an observer skipped
        self.result: RoundResult | None = None
        self.phase = FIELD_REVEAL
        self.need: Need | None = NeedReveal(self.layout.field, None)
        self._awaiting = self._mask(self.layout.field)

    @staticmethod
    def _mask(positions: tuple[int, ...]) -> int:
        m = 0
        for p in positions:
            m |= 1 << p
        return m

    # -- copying and comparing ----------------------------------------------------------------------
    def copy(self) -> RoundState:
        """An independent copy (cheap: a few lists of ints)."""
        new = RoundState.__new__(RoundState)
        for name in RoundState.__slots__:
            setattr(new, name, getattr(self, name))
        new.deck = self.deck.copy()
        new._pos_of = self._pos_of.copy()
        new.hands = self.hands.copy()
        new.piles = self.piles.copy()
        new.bases = self.bases.copy()
        new.calls = self.calls.copy()
        new._claims = self._claims.copy()
        return new

    def snapshot(self) -> dict[str, object]:
        """Every field of the state as plain data: equal snapshots mean equal states."""
        need: object = None
        if isinstance(self.need, NeedReveal):
            need = ["reveal", list(self.need.positions), self.need.to]
        elif isinstance(self.need, NeedAction):
            need = ["action", self.need.seat, self.need.kind]
        return {
            "profile": self.profile.to_dict(), "dealer": self.dealer, "viewer": self.viewer,
            "round_index": self.round_index, "month": self.month, "deck": list(self.deck),
            "hands": list(self.hands), "field": self.field, "piles": list(self.piles),
            "bases": list(self.bases), "calls": list(self.calls), "stock_next": self.stock_next,
            "turn": self.turn, "pending": self.pending, "options": self.options,
            "claims": list(self._claims), "phase": PHASE_NAMES[self.phase], "need": need,
            "blind": self._blind,
            "awaiting": self._awaiting, "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_view(cls, view: RoundView, profile: Profile, hidden: list[int] | tuple[int, ...]) -> RoundState:
        """A fully known state (viewer None) that agrees with ``view`` and a guess of its hidden cards.

        For computer players that search (a *determinisation*): ``hidden`` is every card the view's
        seat has not seen, the opponent's remaining hand first (``view.opponent_hand_size`` cards)
        and then the stock in draw order. The opponent's hand goes to the first of its deal
        positions (which of them it still holds is irrelevant to play). Only play, capture and
        decide needs can be staged (RulesError "bad_view" otherwise, or when ``hidden`` is not
        exactly the unseen cards). The state then plays on like any other: legal actions,
        ``apply``, reveals from ``deck``.
        """
        need = view.need
        if not isinstance(need, NeedAction) or need.kind not in ("play", "capture", "decide"):
            raise RulesError("bad_view", "only a play, capture or decide need can be staged")
        seat = view.seat
        seen = 0
        for group in (view.hand, view.field, view.piles[0], view.piles[1]):
            for c in group:
                seen |= 1 << c
        pending_card = view.pending_card if need.kind == "capture" else None
        if pending_card is not None:
            seen |= 1 << pending_card
        hidden_mask = 0
        for c in hidden:
            hidden_mask |= 1 << c
        n_opponent = view.opponent_hand_size
        if (len(hidden) != n_opponent + view.stock_count or hidden_mask.bit_count() != len(hidden)
                or hidden_mask & seen or (hidden_mask | seen) != (1 << 48) - 1):
            raise RulesError("bad_view", "hidden must be exactly the cards the seat has not seen")
        state = cls(profile=profile, dealer=view.dealer, viewer=None, round_index=view.round_index,
                    month=view.month)
        layout = state.layout
        deck, pos_of = state.deck, state._pos_of
        hands = [0, 0]
        for p, c in zip(view.hand_positions, view.hand, strict=True):
            deck[p] = c
            pos_of[c] = p
            hands[seat] |= 1 << p
        stock_next = len(layout.stock) - view.stock_count
        places = (*layout.hands[1 - seat][:n_opponent], *layout.stock[stock_next:])
        for p, c in zip(places, hidden, strict=True):
            deck[p] = c
            pos_of[c] = p
        for p in layout.hands[1 - seat][:n_opponent]:
            hands[1 - seat] |= 1 << p
        state.hands = hands
        state.field = _bits(view.field)
        state.piles = [_bits(view.piles[0]), _bits(view.piles[1])]
        state.bases = [view.bases[0], view.bases[1]]
        state.calls = list(view.calls)
        state.stock_next = stock_next
        state.turn = view.turn
        state._awaiting = 0
        acting = need.seat
        # The pile at the start of the turn only short-cuts the end-of-turn yaku check; -1 makes
        # that check compare with the recorded base, which gives the same answer (§9.4).
        state._pile_at_turn_start = -1
        if need.kind == "play":
            state.phase = PLAY
            state.need = _NEED_PLAY[acting]
            state._pile_at_turn_start = state.piles[acting]
        elif need.kind == "capture":
            if pending_card is None:
                raise RulesError("bad_view", "a capture need without its pending card")
            # The played card's choice comes before the turn's draw: count the draws made so far.
            played = 16 - len(view.hand) - n_opponent
            state.phase = PLAY_CAPTURE if view.stock_count == len(layout.stock) - played + 1 else DRAW_CAPTURE
            state.pending = pending_card
            state.options = _bits(view.capture_options)
            state.need = _NEED_CAPTURE[acting]
        else:
            state.phase = DECIDE
            state.need = _NEED_DECIDE[acting]
        return state

    # -- reveals ------------------------------------------------------------------------------------
    def reveal(self, position: int, card: int) -> None:
        """Feed the card at a requested position (InconsistentReveal if it contradicts the known)."""
        need = self.need
        awaited = type(position) is int and 0 <= position < 48 and (self._awaiting >> position) & 1
        if not isinstance(need, NeedReveal) or not awaited:
            raise RulesError("unexpected_reveal", f"position {position!r} is not awaited")
        if need.to is not None and self.viewer is not None and need.to != self.viewer:
            raise RulesError("unexpected_reveal", "a private reveal to the other seat: use skip_reveal()")
        if type(card) is not int or not 0 <= card < 48:
            raise InconsistentReveal("bad_card", f"{card!r} is no card index")
        known = self.deck[position]
        if known != card:
            if known != -1:
                raise InconsistentReveal("reveal_mismatch", f"position {position} holds {known}, not {card}")
            if self._pos_of[card] != -1:
                raise InconsistentReveal("card_twice", f"card {card} is already at {self._pos_of[card]}")
            self.deck[position] = card
            self._pos_of[card] = position
        self._awaiting &= ~(1 << position)
        if not self._awaiting:
            self._revealed()

    def reveal_known(self) -> bool:
        """Answer the pending reveal from cards this engine already holds at those positions.

        The fast path of simulations over a fully known deck (``from_view``): the same as feeding
        ``reveal(p, deck[p])`` for every awaited position, without re-checking cards that came from
        this very state. False (and nothing changes) when a position is still unknown here.
        """
        need = self.need
        if not isinstance(need, NeedReveal):
            raise RulesError("unexpected_reveal", "no reveal is awaited")
        deck = self.deck
        if any(deck[p] == -1 for p in need.positions):
            return False
        self._awaiting = 0
        self._revealed()
        return True

    def skip_reveal(self) -> None:
        """Pass a private reveal meant for the other seat: its cards stay unknown here.

        With viewer None this makes a public observer (an auditor without the round keys): the
        skipped seat's hand is then treated as hidden, exactly as the opponent's is (§10.1).
        """
        need = self.need
        if not isinstance(need, NeedReveal) or need.to is None or need.to == self.viewer:
            raise RulesError("unexpected_reveal", "only a private reveal to another seat can be skipped")
        if self.viewer is None:
            self._blind |= 1 << need.to
        self._awaiting = 0
        self._revealed()

    def _revealed(self) -> None:
        phase = self.phase
        if phase == PLAY_REVEAL:
            self._resolve(self.deck[self.pending], PLAY_CAPTURE)
        elif phase == DRAW_REVEAL:
            self._resolve(self.deck[self.pending], DRAW_CAPTURE)
        elif phase == FIELD_REVEAL:
            for p in self.layout.field:
                self.field |= 1 << self.deck[p]
            if self.profile.field_whole_month == "redeal" and any(
                    self.field & m == m for m in MONTH_MASKS[1:]):
                self._finish_redeal("field_month")
                return
            if self.profile.field_four_pairs == "redeal" and _four_pairs(self.field):
                self._finish_redeal("field_pairs")
                return
            self._ask_reveal(HAND0_REVEAL, NeedReveal(self.layout.hands[0], 0))
        elif phase == HAND0_REVEAL:
            self._ask_reveal(HAND1_REVEAL, NeedReveal(self.layout.hands[1], 1))
        elif phase == HAND1_REVEAL:
            if self.profile.has_hand_claims():
                self.phase = HAND_YAKU
                self.need = _NEED_HAND_YAKU[self.dealer]
            else:
                self._start_turn(self.dealer)
        elif phase == HAND_YAKU_REVEAL:
            claim = self._claim
            assert claim is not None
            if not _claim_holds(claim.yaku, [self.deck[p] for p in claim.positions]):
                # The claim was already applied: the round cannot go on, so it stops here for good.
                self.need = None
                self.phase = OVER
                raise IllegalMove("false_hand_yaku", f"the revealed cards do not make {claim.yaku}")
            self._claims[self._claim_seat] = claim.yaku
            self._claim = None
            self._next_hand_yaku_seat(self._claim_seat)
        else:  # pragma: no cover - guarded by the need check in reveal()
            raise RulesError("unexpected_reveal", "no reveal is awaited")

    def _ask_reveal(self, phase: int, need: NeedReveal) -> None:
        self.phase = phase
        self.need = need
        self._awaiting = self._mask(need.positions)

    # -- actions ------------------------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the seat that must act. For a hidden hand: every unplayed position."""
        need = self.need
        if not isinstance(need, NeedAction):
            return ()
        seat = need.seat
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[seat]
            plays = [PLAYS[p] for p in _positions(hand)]
            if self.profile.hand_capture == "compulsory" and self._knows_hand(seat):
                field = self.field
                matching = [a for a in plays if field & _MONTH_OF_BIT[self.deck[a.position]]]
                if matching:
                    return tuple(matching)
            return tuple(plays)
        if phase in (PLAY_CAPTURE, DRAW_CAPTURE):
            return tuple(CAPTURES[c] for c in cards_of(self.options))
        if phase == DECIDE:
            return (STOP, KOIKOI) if self._may_call(seat) else (STOP,)
        if phase == HAND_YAKU:
            if not self._knows_hand(seat):
                return (NO_HAND_YAKU,)
            return self._hand_yaku_options(seat)
        return ()  # pragma: no cover

    def _knows_hand(self, seat: int) -> bool:
        if self.viewer is None:
            return not (self._blind >> seat) & 1
        return self.viewer == seat

    def _may_call(self, seat: int) -> bool:
        """May ``seat`` call koi-koi now? (spec/rules.md §9.4: the call limit and the last turn)"""
        p = self.profile
        limit = p.max_calls_per_round
        if limit:
            used = self.calls.count(seat) if p.call_limit == "per_seat" else len(self.calls)
            if used >= limit:
                return False
        if p.stop_on_own_last_turn and not self.hands[seat]:
            return False  # §9.4: the seat has played its last hand card
        return not (p.last_turn_stop_only and not (self.hands[0] | self.hands[1]))

    def hand_yaku_options(self, seat: int) -> tuple[Action, ...]:
        """The declarations ``seat`` may make for its dealt hand (spec/rules.md §9.7), whatever the
        round waits for now: every claim of its best hand yaku, else ``NoHandYaku`` alone. The hand
        must be known to this engine. Lets a peer send its forced declaration ahead of its turn."""
        if not self._knows_hand(seat):
            raise RulesError("bad_seat", f"seat {seat}'s hand is not known to this engine")
        return self._hand_yaku_options(seat)

    def check_claim(self, seat: int, claim: ClaimHandYaku, cards: tuple[int, ...]) -> None:
        """IllegalMove unless ``claim`` by ``seat``, with ``cards`` at its positions, passes every check
        that applying it and revealing its positions make (spec/rules.md §6.6, §9.7), whatever the
        round waits for now. The state is not changed. Lets a peer check a declaration sent ahead
        of its turn, once its positions are public."""
        points = self.profile.hand_claim_points(claim.yaku)
        if not points:
            raise IllegalMove("bad_hand_yaku", f"{claim.yaku} is not a hand yaku of this profile")
        if any(p not in self.layout.hands[seat] for p in claim.positions):
            raise IllegalMove("not_in_hand", "a claimed position is not in the seat's hand")
        size_ok = {"teshi": (4,), "kuttsuki": (8,), "tenho": (4, 8), "double_tenho": (8,)}[claim.yaku]
        if len(claim.positions) not in size_ok:
            raise IllegalMove("false_hand_yaku", f"{claim.yaku} is shown with {size_ok} cards")
        if len(cards) != len(claim.positions) or not _claim_holds(claim.yaku, list(cards)):
            raise IllegalMove("false_hand_yaku", f"the revealed cards do not make {claim.yaku}")

    def _hand_yaku_options(self, seat: int) -> tuple[Action, ...]:
        positions = _positions(self.hands[seat])
        cards = [self.deck[p] for p in positions]
        found = hand_yaku_of(cards, self.profile)
        if not found:
            return (NO_HAND_YAKU,)
        best = max(found.values())
        by_month: dict[int, list[int]] = {}
        for p, c in zip(positions, cards, strict=True):
            by_month.setdefault(_CARD_MONTH[c], []).append(p)
        options: list[Action] = []
        for yaku, points in found.items():
            if points != best:
                continue
            quads = [tuple(ps) for ps in by_month.values() if len(ps) == 4]
            if yaku in ("teshi", "tenho"):
                options.extend(ClaimHandYaku(yaku, q) for q in quads)
            if yaku in ("kuttsuki", "double_tenho") or (
                    yaku == "tenho" and all(len(ps) % 2 == 0 for ps in by_month.values())):
                options.append(ClaimHandYaku(yaku, positions))
        return tuple(options)

    def apply(self, seat: int, action: Action) -> None:
        """Apply a seat's action; IllegalMove with a reason if the rules forbid it here."""
        need = self.need
        if not isinstance(need, NeedAction):
            waiting = "the round is waiting for a reveal" if need else "the round is over"
            raise IllegalMove("not_your_turn", waiting)
        if seat != need.seat:
            raise IllegalMove("not_your_turn", f"seat {need.seat} must act, not {seat!r}")
        phase = self.phase
        if phase == PLAY:
            if type(action) is not Play:
                raise IllegalMove("wrong_action", f"expected a play, got {action}")
            self._play(seat, action.position)
        elif phase == PLAY_CAPTURE or phase == DRAW_CAPTURE:
            if type(action) is not Capture:
                raise IllegalMove("wrong_action", f"expected a capture choice, got {action}")
            self._capture(seat, action.card)
        elif phase == DECIDE:
            if type(action) is Stop:
                self._finish_win(seat, "stop")
            elif type(action) is KoiKoi:
                if not self._may_call(seat):
                    raise IllegalMove("no_call_left", "the profile allows no koi-koi call here")
                self.calls.append(seat)
                if self.profile.viewing_by_call:
                    # §6.4: the viewing yaku rise with the call itself; the raised base is the one
                    # recorded, so the rise is not an improvement of a later turn.
                    self.bases[seat] = self._base(self.piles[seat], self.month, True)
                self._next_turn()
            else:
                raise IllegalMove("wrong_action", f"expected koikoi or stop, got {action}")
        elif phase == HAND_YAKU:
            if type(action) is ClaimHandYaku:
                self._claim_hand_yaku(seat, action)
            elif type(action) is NoHandYaku:
                if self._knows_hand(seat) and hand_yaku_of(
                        [self.deck[p] for p in _positions(self.hands[seat])], self.profile):
                    raise IllegalMove("missed_hand_yaku", "a dealt hand yaku must be claimed")
                self._next_hand_yaku_seat(seat)
            else:
                raise IllegalMove("wrong_action", f"expected a hand yaku claim or none, got {action}")
        else:  # pragma: no cover
            raise IllegalMove("wrong_action", str(action))

    def _play(self, seat: int, position: int) -> None:
        hand = self.hands[seat]
        if not (hand >> position) & 1:
            raise IllegalMove("not_in_hand", f"position {position} is not in seat {seat}'s hand")
        if self.profile.hand_capture == "compulsory" and self._knows_hand(seat):
            # spec/rules.md §9.3: with compulsory capture a matching hand card must be played.
            field = self.field
            if not field & _MONTH_OF_BIT[self.deck[position]] and any(
                    field & _MONTH_OF_BIT[self.deck[p]] for p in _positions(hand)):
                raise IllegalMove("must_capture", "a hand card matches the field and must be played")
        self.hands[seat] = hand & ~(1 << position)
        self.pending = position
        self.phase = PLAY_REVEAL
        self.need = _SINGLE_REVEALS[position]
        self._awaiting = 1 << position

    def _resolve(self, card: int, capture_phase: int) -> None:
        """Place a played or drawn card: stays, captures one, asks for a choice, or takes three."""
        bit = 1 << card
        matches = self.field & _MONTH_OF_BIT[card]
        n = matches.bit_count()
        seat = self.turn
        if n == 0:
            self.field |= bit
        elif n == 2:
            self.pending = card
            self.options = matches
            self.phase = capture_phase
            self.need = _NEED_CAPTURE[seat]
            return
        else:
            self.piles[seat] |= bit | matches
            self.field &= ~matches
        if capture_phase == PLAY_CAPTURE:
            self._draw()
        else:
            self._end_turn()

    def _capture(self, seat: int, card: int) -> None:
        if not (self.options >> card) & 1:
            raise IllegalMove("bad_capture", f"card {card} is not one of the matching field cards")
        self.piles[seat] |= (1 << self.pending) | (1 << card)
        self.field &= ~(1 << card)
        self.options = 0
        if self.phase == PLAY_CAPTURE:
            self._draw()
        else:
            self._end_turn()

    def _draw(self) -> None:
        position = self.layout.stock[self.stock_next]
        self.stock_next += 1
        self.pending = position
        self.phase = DRAW_REVEAL
        self.need = _SINGLE_REVEALS[position]
        self._awaiting = 1 << position

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = PLAY
        self.need = _NEED_PLAY[seat]
        self._pile_at_turn_start = self.piles[seat]
        self.pending = -1

    def _end_turn(self) -> None:
        """Yaku are checked only after both halves of the turn (spec/rules.md §9.4)."""
        seat = self.turn
        self.pending = -1
        pile = self.piles[seat]
        if pile != self._pile_at_turn_start:
            total = self._base(pile, self.month, seat in self.calls)
            if total > self.bases[seat]:
                self.bases[seat] = total
                if self.calls and self.profile.after_call == "next_improvement_ends_round":
                    self._finish_win(seat, "auto_end")
                    return
                self.phase = DECIDE
                self.need = _NEED_DECIDE[seat]
                return
            self.bases[seat] = total
        self._next_turn()

    def _next_turn(self) -> None:
        if not (self.hands[0] | self.hands[1]):
            self._exhaustion()
            return
        self._start_turn(1 - self.turn)

    # -- hand yaku ----------------------------------------------------------------------------------
    def _claim_hand_yaku(self, seat: int, claim: ClaimHandYaku) -> None:
        points = self.profile.hand_claim_points(claim.yaku)
        if not points:
            raise IllegalMove("bad_hand_yaku", f"{claim.yaku} is not a hand yaku of this profile")
        hand = self.hands[seat]
        if any(not (hand >> p) & 1 for p in claim.positions):
            raise IllegalMove("not_in_hand", "a claimed position is not in the seat's hand")
        size_ok = {"teshi": (4,), "kuttsuki": (8,), "tenho": (4, 8), "double_tenho": (8,)}[claim.yaku]
        if len(claim.positions) not in size_ok:
            raise IllegalMove("false_hand_yaku", f"{claim.yaku} is shown with {size_ok} cards")
        if self._knows_hand(seat):
            if not _claim_holds(claim.yaku, [self.deck[p] for p in claim.positions]):
                raise IllegalMove("false_hand_yaku", f"these cards do not make {claim.yaku}")
            held = hand_yaku_of([self.deck[p] for p in _positions(hand)], self.profile)
            if points < max(held.values()):
                raise IllegalMove("lesser_hand_yaku", "the hand holds a better hand yaku")
        self._claim = claim
        self._claim_seat = seat
        self._ask_reveal(HAND_YAKU_REVEAL, NeedReveal(claim.positions, None))

    def _next_hand_yaku_seat(self, seat: int) -> None:
        if seat == self.dealer:
            self.phase = HAND_YAKU
            self.need = _NEED_HAND_YAKU[1 - self.dealer]
            return
        claims = self._claims
        claimed = [s for s in (0, 1) if claims[s] is not None]
        if not claimed:
            self._start_turn(self.dealer)
            return
        if self.profile.hand_whole_month == "redeal" and "teshi" in claims:
            # spec/rules.md §5.4: a hand holding a whole month is dealt again, before any hand yaku.
            self._finish_redeal("hand_month")
            return
        if len(claimed) == 2:
            if self.profile.hand_yaku_both == "void_redeal":
                self._finish_redeal("both_hand_yaku")
                return
            claimed = [self.dealer]
        winner = claimed[0]
        yaku = claims[winner]
        assert yaku is not None
        points = self.profile.hand_yaku_points(yaku)
        # spec/rules.md §7.4: hand yaku are never multiplied.
        self._finish(RoundResult(
            winner=winner, points=points, yaku={yaku: points}, base=points, calls=(), redeal=False,
            next_dealer=winner, reason="hand_yaku"))

    # -- the end ------------------------------------------------------------------------------------
    def _finish(self, result: RoundResult) -> None:
        self.result = result
        self.need = None
        self.phase = OVER
        self._awaiting = 0

    def _finish_redeal(self, reason: str) -> None:
        self._finish(RoundResult(
            winner=None, points=0, yaku={}, base=0, calls=(), redeal=True, next_dealer=self.dealer,
            reason=reason, consumes_round=self.profile.redeal_consumes_round))

    def _finish_win(self, seat: int, reason: str) -> None:
        yaku = scorer(self.profile).yaku(self.piles[seat], self.month, seat in self.calls)
        base = sum(yaku.values())
        calls = tuple(self.calls)
        self._finish(RoundResult(
            winner=seat, points=round_score(base, calls, seat, self.profile), yaku=yaku, base=base,
            calls=calls, redeal=False, next_dealer=seat, reason=reason))

    def _exhaustion(self) -> None:
        """Both hands are empty and nobody stopped (spec/rules.md §9.6)."""
        p = self.profile
        calls = tuple(self.calls)
        if p.exhaustion == "last_caller_scores_else_oya_ken" and calls and self.bases[calls[-1]] > 0:
            # A caller whose yaku a cancelling card took away (§6.4) has nothing left to score.
            self._finish_win(calls[-1], "exhaustion")
            return
        if p.exhaustion in ("oya_ken", "last_caller_scores_else_oya_ken"):
            points = p.oya_ken_points
            self._finish(RoundResult(
                winner=self.dealer, points=points, yaku={"oya_ken": points}, base=points, calls=calls,
                redeal=False, next_dealer=self.dealer, reason="oya_ken"))
            return
        next_dealer = self.dealer if p.dealer_after_draw == "same" else 1 - self.dealer
        self._finish(RoundResult(
            winner=None, points=0, yaku={}, base=0, calls=calls, redeal=False, next_dealer=next_dealer,
            reason="exhaustion"))

    # -- views ------------------------------------------------------------------------------------
    @property
    def stock_count(self) -> int:
        return len(self.layout.stock) - self.stock_next

    def view(self, seat: int | None = None) -> RoundView:
        """The public state plus ``seat``'s own hand (default: the viewer, or the seat to act)."""
        if seat is None:
            if self.viewer is not None:
                seat = self.viewer
            elif isinstance(self.need, NeedAction):
                seat = self.need.seat
            else:
                seat = self.turn
        if seat not in (0, 1):
            raise RulesError("bad_seat", "view of seat 0 or 1")
        if self.viewer is not None and seat != self.viewer:
            raise RulesError("bad_seat", "this engine only knows its viewer's hand")
        positions = _positions(self.hands[seat])
        s = scorer(self.profile)
        pending = None
        if self.phase in (PLAY_CAPTURE, DRAW_CAPTURE):
            pending = self.pending
        return RoundView(
            seat=seat, field=cards_of(self.field), hand=tuple(self.deck[p] for p in positions),
            hand_positions=positions, opponent_hand_size=self.hands[1 - seat].bit_count(),
            piles=(cards_of(self.piles[0]), cards_of(self.piles[1])), stock_count=self.stock_count,
            dealer=self.dealer, turn=self.turn, calls=tuple(self.calls),
            yaku=(s.yaku(self.piles[0], self.month, 0 in self.calls),
                  s.yaku(self.piles[1], self.month, 1 in self.calls)),
            bases=(self.bases[0], self.bases[1]), month=self.month, round_index=self.round_index,
            need=self.need, pending_card=pending, capture_options=cards_of(self.options),
        )

    def known_cards(self) -> int:
        """Bit mask of the cards this engine knows the position of."""
        m = 0
        for c, p in enumerate(self._pos_of):
            if p != -1:
                m |= 1 << c
        return m


def run_revealed(state: RoundState, deck: list[int] | tuple[int, ...]) -> None:
    """Answer every pending reveal from a fully known deck (tests, audits, simulations)."""
    while isinstance(state.need, NeedReveal):
        for p in state.need.positions:
            state.reveal(p, deck[p])

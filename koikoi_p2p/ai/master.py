"""The search player (``--level master``): determinised Monte-Carlo search over the rules engine.

At a decision the player knows what its seat knows (``RoundView``) and the round's public history
(``observe``): its hand, the field, both piles, the calls, the opponent's discards. The unseen
cards, the opponent's hand and the stock, are dealt at random, uniformly over the splits and
orders consistent with that (a *determinisation*; ``OpponentReading`` drops the deals in which
the opponent threw a card away while holding a match for the field), and the rules engine builds
that full state (``RoundState.from_view``). Options are played out with a quick playout policy
for both seats on the same determinisations (common random numbers, so options are compared on
the same luck), and outcomes are valued by their effect on the match-win chance
(``utility.MatchUtility``) when the match context is known.

* Koi-koi or stop: koi-koi is played out to the end of the round; Stop is worth exactly its
  points. The better mean wins.
* Plays and captures: the strong player's heuristic ranks the options; its favourite is played
  out on every deal and its best ``candidates - 1`` rivals by sequential halving, the playouts
  cut after ``horizon`` turns and valued by both piles' prospects. A rival replaces the
  favourite only when its paired gain clears ``confidence`` standard errors (plus a small
  ``prior_bonus``): noisy playouts should refine the heuristic, not overrule it by luck.

The budget is a number of playouts per decision, so a seed fixes every choice; ``max_seconds``
optionally caps a decision's wall time too (then the choice can depend on the machine's speed).
Playouts use only the engine (legal moves, reveals, scoring) and so play every profile and
house rule exactly; the engine never sees more than the sampled deal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from koikoi_p2p.ai.evaluate import PROMISE, families_for
from koikoi_p2p.ai.knowledge import ALL_CARDS, MONTH_MASK_OF
from koikoi_p2p.ai.strategy import MatchContext, StrategyError
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.ai.utility import MatchUtility, Position
from koikoi_p2p.rules.actions import CAPTURES, PLAYS, STOP, Action, Capture, ClaimHandYaku, KoiKoi, NoHandYaku
from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.deal import deal_layout
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState, RoundView
from koikoi_p2p.rules.scoring import round_score, scorer

DEFAULT_SIMULATIONS = 1000   # playouts per decision in play (well under 1 s on one core)
DEFAULT_MAX_SECONDS = 1.0    # and never more than this per decision

# Rough worth of a card to the playout policy: what it usually brings to a yaku.
_WORTH = {"bright": 6.0, "animal": 2.0, "ribbon": 2.0, "plain": 1.0}
_SPECIAL = {"03-curtain": 7.0, "08-moon": 7.0, "09-cup": 5.0, "11-rainman": 3.0, "07-boar": 3.0,
            "10-deer": 3.0, "06-butterflies": 3.0}
_VALUE = tuple(_SPECIAL.get(c.id, _WORTH[c.klass]) + (1.0 if c.subclass in ("poetry", "blue") else 0.0)
               for c in CARDS)


class Worth:
    """A round outcome (points to me, negative: to the opponent) as the search compares it."""

    __slots__ = ("of", "slope")

    def __init__(self, utility: MatchUtility | None) -> None:
        if utility is None:
            self.of: Callable[[float], float] = float
            self.slope = 1.0
        else:
            self.of = utility.value
            self.slope = utility.slope


@dataclass(frozen=True, slots=True)
class Budget:
    """Playouts per decision, and an optional wall-time cap per decision (None: no cap)."""

    simulations: int = DEFAULT_SIMULATIONS
    max_seconds: float | None = DEFAULT_MAX_SECONDS


class MasterPlayer:
    """Determinised search under a playout budget; ``seed`` makes every decision reproducible."""

    def __init__(self, profile: Profile | None = None, seed: int | None = None, *,
                 simulations: int = DEFAULT_SIMULATIONS, max_seconds: float | None = DEFAULT_MAX_SECONDS,
                 candidates: int = 4, prior_bonus: float = 0.2, match_aware: bool = True,
                 horizon: int = 4, yaku_playouts: bool = False, confidence: float = 1.0) -> None:
        self.confidence = float(confidence)
        self.yaku_playouts = bool(yaku_playouts)
        self.match_aware = bool(match_aware)
        self.horizon = int(horizon)
        if simulations < 1:
            raise ValueError("simulations must be at least 1")
        self.profile = profile if profile is not None else preset("nintendo")
        self.budget = Budget(simulations, max_seconds)
        self.candidates = int(candidates)
        self.prior_bonus = float(prior_bonus)
        self.seed = seed
        self._random = random.Random(seed)  # noqa: S311 - simulated deals, nothing secret
        self._prior = StrongPlayer(self.profile, seed)
        self._prospects = Prospects(self.profile)
        self._context: MatchContext | None = None
        self._reading = OpponentReading()
        self.playouts = 0  # playouts run so far (for budgets and benchmarks)

    def observe(self, view: RoundView) -> None:
        self._reading.observe(view)

    def match_update(self, context: MatchContext) -> None:
        self._context = context
        self._reading = OpponentReading()
        if context.profile != self.profile:
            self.profile = context.profile
            self._prior = StrongPlayer(self.profile, self.seed)
            self._prospects = Prospects(self.profile)

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if not options:
            raise StrategyError("MasterPlayer.choose needs at least one legal action")
        if len(options) == 1:
            return options[0]
        first = options[0]
        if isinstance(first, ClaimHandYaku | NoHandYaku):
            # Claims are compulsory and only the best ones are offered (spec/rules.md §9.7).
            return first
        need = view.need
        if not isinstance(need, NeedAction) or need.seat != view.seat:
            return first
        worth = self._worth(view)
        if need.kind == "decide":
            return self._decide(view, tuple(options), worth)
        return self._search(view, tuple(options), worth)

    def _worth(self, view: RoundView) -> Worth:
        """How round outcomes count: plain points, or the match-win estimate with a context."""
        ctx = self._context
        if ctx is None or not self.match_aware:
            return Worth(None)
        seat = view.seat
        position = Position(mine=ctx.scores[seat], theirs=ctx.scores[1 - seat],
                            rounds_played=ctx.rounds_played)
        return Worth(MatchUtility(self.profile, position))

    # -- koi-koi or stop --------------------------------------------------------------------------
    def _decide(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        koi = next((o for o in options if isinstance(o, KoiKoi)), None)
        if koi is None:
            return STOP
        me = view.seat
        base = scorer(self.profile).base(_bits(view.piles[me]), view.month, me in view.calls)
        stop = worth.of(float(round_score(base, view.calls, me, self.profile)))
        deadline = self._deadline()
        total = 0.0
        n = 0
        for root in self._deals(view, self.budget.simulations):
            state = root.copy()
            state.apply(me, koi)
            total += worth.of(_playout(state, me, 0, None, self._base()))
            n += 1
            self.playouts += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return koi if n and total / n > stop else STOP

    # -- plays and captures -----------------------------------------------------------------------
    def _search(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        """The heuristic's favourite, unless a challenger beats it clearly on shared deals.

        The favourite (the strong player's choice) is played out on every deal; its best few
        rivals by sequential halving, each round on fresh deals, the weaker half of the rivals
        dropped after each round (by their mean gain over the favourite on the same deals). The
        last rival replaces the favourite only when its paired gain exceeds ``confidence``
        standard errors plus ``prior_bonus`` points: at a small budget the playouts are noisy,
        and a noisy override is worse than the heuristic.
        """
        prior = (self._prior.capture_values(view, options) if isinstance(options[0], Capture)
                 else self._prior.play_values(view, options))
        order = sorted(range(len(options)), key=lambda i: -prior[i])
        alive = order[:max(1, self.candidates)]
        if len(alive) == 1:
            return options[alive[0]]
        favourite, rivals = alive[0], alive[1:]
        me = view.seat
        base = self._base()
        prospects = self._prospects
        budget = self.budget.simulations
        per_round = budget // ((len(rivals) - 1).bit_length() + 1)
        values: dict[int, list[float]] = {i: [] for i in alive}
        used = 0
        deadline = self._deadline()

        def gain(i: int) -> float:
            mine = values[i]
            return sum(mine) / len(mine) - sum(values[favourite][:len(mine)]) / len(mine) if mine else 0.0

        while True:
            group = [favourite, *rivals]
            n = max(1, per_round // len(group))
            for root in self._deals(view, n):
                if used + len(group) > budget:
                    break
                for i in group:
                    state = root.copy()
                    state.apply(me, options[i])
                    values[i].append(worth.of(_playout(state, me, self.horizon, prospects, base)))
                used += len(group)
                self.playouts += len(group)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            rivals.sort(key=gain, reverse=True)
            late = deadline is not None and time.perf_counter() > deadline
            if len(rivals) == 1 or used + 2 > budget or late:
                break
            rivals = rivals[:(len(rivals) + 1) // 2]
        best = rivals[0]
        diffs = [a - b for a, b in zip(values[best], values[favourite], strict=False)]
        if len(diffs) < 2:
            return options[favourite]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        margin = self.confidence * math.sqrt(var / len(diffs)) + self.prior_bonus * worth.slope
        return options[best] if mean > margin else options[favourite]

    def _base(self) -> Callable[[int, int | None], int] | None:
        return scorer(self.profile).base if self.yaku_playouts else None

    # -- sampling ---------------------------------------------------------------------------------
    def _deadline(self) -> float | None:
        cap = self.budget.max_seconds
        return None if cap is None else time.perf_counter() + cap

    def _deals(self, view: RoundView, count: int) -> Iterator[RoundState]:
        """``count`` full states, the unseen cards dealt uniformly at random (the seeded source)
        among the deals that agree with what the opponent's discards told (``OpponentReading``)."""
        unseen = _unseen(view)
        n = view.opponent_hand_size
        excluded = self._reading.excluded(view)
        allowed = [c for c in unseen if not (excluded >> c) & 1]
        if len(allowed) < n:
            allowed = unseen  # the reading contradicts the board (an unusual opponent): drop it
        rest = [c for c in unseen if (excluded >> c) & 1] if allowed is not unseen else []
        rng = self._random
        profile = self.profile
        for _ in range(count):
            pick = allowed[:]
            rng.shuffle(pick)
            stock = pick[n:] + rest
            rng.shuffle(stock)
            yield RoundState.from_view(view, profile, pick[:n] + stock)


class OpponentReading:
    """What the opponent's discards say about its hand, from the round's public history.

    A player who throws a card onto the field while a card of its hand matches a field month
    gives that card away for nothing; people and every computer player here capture when they
    can (with ``hand_capture = compulsory`` it is the rule, spec/rules.md §9.3). So after each of
    the opponent's discards, its hand holds no card of a month then on the field, and since a
    hand only shrinks, it still holds none. The reading is a belief, used to deal the unseen
    cards; a board that contradicts it drops it.
    """

    __slots__ = ("_deal", "_months", "_play_field")

    def __init__(self) -> None:
        self._deal: tuple[int, int] | None = None
        self._months = 0        # cards of the months the opponent's hand cannot hold
        self._play_field = -1   # the field when the opponent's play was waiting for its reveal

    def observe(self, view: RoundView) -> None:
        deal = (view.round_index, view.dealer)
        if deal != self._deal:  # a new deal (a redeal ends before any play, so nothing is lost)
            self._deal, self._months, self._play_field = deal, 0, -1
        need = view.need
        field = _bits(view.field)
        opponent = 1 - view.seat
        if (isinstance(need, NeedReveal) and need.to is None and len(need.positions) == 1
                and view.turn == opponent and need.positions[0] in deal_layout(view.dealer).hands[opponent]):
            self._play_field = field   # the opponent played: its card is revealed next
            return
        if self._play_field >= 0:
            before, self._play_field = self._play_field, -1
            added = field & ~before
            if not before & ~field and added and not added & (added - 1):
                # The played card joined the field: nothing in the hand matched it.
                months = 0
                for c in _cards(before):
                    months |= MONTH_MASK_OF[c]
                self._months |= months

    def excluded(self, view: RoundView) -> int:
        """Cards the opponent's hand cannot hold this deal (0 before any discard)."""
        if self._deal != (view.round_index, view.dealer):
            return 0
        return self._months


def _unseen(view: RoundView) -> list[int]:
    seen = _bits(view.hand) | _bits(view.field) | _bits(view.piles[0]) | _bits(view.piles[1])
    if view.pending_card is not None:
        seen |= 1 << view.pending_card
    rest = ALL_CARDS & ~seen
    return [c for c in range(48) if (rest >> c) & 1]


def _bits(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _top_values() -> dict[int, float]:
    """For every set of cards within one month (a field's matches), its most valuable card's worth."""
    table: dict[int, float] = {}
    for month in range(1, 13):
        cards = [c.index for c in CARDS if c.month == month]
        for subset in range(1, 16):
            mask = 0
            for k, c in enumerate(cards):
                if subset >> k & 1:
                    mask |= 1 << c
            table[mask] = max(_VALUE[c] for c in cards if mask >> c & 1)
    return table


_TOP = _top_values()


class Prospects:
    """The yaku both piles are building, in points: the strong player's promise (evaluate.py) as
    bit masks, for the end of a playout cut short."""

    __slots__ = ("_families",)

    def __init__(self, profile: Profile) -> None:
        self._families = tuple(
            (_bits(tuple(f.cards)), f.need, float(f.points), len(f.cards)) for f in families_for(profile))

    def promise(self, mine: int, theirs: int) -> float:
        total = 0.0
        for cards, need, points, size in self._families:
            if size - (theirs & cards).bit_count() < need:
                continue  # the other pile holds too many of its cards: dead
            missing = need - (mine & cards).bit_count()
            total += 0.3 if missing <= 0 else points * PROMISE[min(missing, len(PROMISE) - 1)]
        return total

    def difference(self, state: RoundState, me: int) -> float:
        mine, theirs = state.piles[me], state.piles[1 - me]
        return self.promise(mine, theirs) - self.promise(theirs, mine)


def _playout(state: RoundState, me: int, horizon: int = 0, prospects: Prospects | None = None,
             base: Callable[[int, int | None], int] | None = None) -> float:
    """Play the round on with the playout policy; the points to ``me`` (negative: lost).

    The policy, for both seats: play the hand card whose capture is worth most (its worth plus
    that of the best field card it takes), or, with no capture, throw the least valuable card;
    take the more valuable of two field cards; stop at the first yaku. With compulsory capture
    (§9.3) a capturing card always outranks a throw, so the play is legal. With a ``horizon``
    (and ``prospects``), a round still running when that many more turns have begun is worth
    the difference of the two piles' prospects: the far future adds more noise than knowledge.
    """
    deck = state.deck
    value = _VALUE
    top = _TOP
    month_of = MONTH_MASK_OF
    turns = 0
    mover = state.turn
    month = state.month
    while state.result is None:
        need = state.need
        if type(need) is NeedReveal:
            if not state.reveal_known():
                raise RuntimeError("a playout needs a fully known deal (RoundState.from_view)")
            continue
        assert isinstance(need, NeedAction)
        seat = need.seat
        kind = need.kind
        if kind == "play":
            if seat != mover:
                mover = seat
                turns += 1
                if turns == horizon and prospects is not None:
                    return prospects.difference(state, me)
            field = state.field
            best_p, best_v = -1, -1e9
            hand = state.hands[seat]
            while hand:
                low = hand & -hand
                hand ^= low
                p = low.bit_length() - 1
                c = deck[p]
                matches = field & month_of[c]
                v = value[c] + top[matches] if matches else -0.5 * value[c]
                if matches and base is not None:
                    pile = state.piles[seat]
                    v += 10.0 * (base(pile | (1 << c) | matches, month) - base(pile, month))
                if v > best_v:
                    best_p, best_v = p, v
            state.apply(seat, PLAYS[best_p])
        elif kind == "capture":
            options = state.options
            low = options & -options
            a, b = low.bit_length() - 1, (options ^ low).bit_length() - 1
            state.apply(seat, CAPTURES[b if value[b] > value[a] else a])
        else:
            state.apply(seat, STOP)
    result = state.result
    if result.winner is None:
        return 0.0
    return float(result.points if result.winner == me else -result.points)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


__all__ = ["DEFAULT_MAX_SECONDS", "DEFAULT_SIMULATIONS", "Budget", "KoiKoi", "MasterPlayer"]



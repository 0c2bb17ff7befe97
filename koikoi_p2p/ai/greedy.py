"""The greedy rule-based player (``--level medium``): the best capture now, denial, a cautious stop.

It looks one move ahead and no further, reading only its seat's view (``knowledge.py``). Its
exact policy, which the JavaScript greedy player (web/src/ai/players.js) follows too:

Let ``mine``/``theirs`` be the two piles, ``unseen`` the cards the seat has not seen,
``for_me = unseen | field | own hand``, ``for_them = unseen | field``, ``targets`` the yaku
targets of ``knowledge.targets_of`` and ``use(c, pile, obtainable)`` = ``knowledge.usefulness``.
``base(pile)`` is the rules engine's base total for the round's month.

* A single legal option is taken. A hand-yaku choice takes the first option (the engine lists
  only the claims it must make, or ``NoHandYaku``).
* Taking a set of cards ``T`` is worth
  ``take(T) = 10 * (base(mine | T) - base(mine)) + sum over c in T of
  (use(c, mine, for_me) + 0.8 * use(c, theirs, for_them))``.
* Play: each hand card ``c`` with matching field cards ``M`` (same month) is worth
  ``take({c} | M)`` for one or three matches, ``max over m in M of take({c, m})`` for two, and
  ``-(0.8 * use(c, theirs, for_them) + 0.3 * use(c, mine, for_me))`` for none (a card left on
  the field is a gift to whoever takes it).
* Capture (the played or drawn card ``p`` matches two field cards): ``take({p, m})`` for each.
* Decide (koi-koi offered): with ``now`` the round score stopping now, ``threat`` the opponent's
  ``nearest_yaku(theirs, for_them)``, ``left`` the cards in the seat's hand and ``ahead`` when the
  seat's match score is above the opponent's, the risk is high when the opponent's pile already
  scores (base > 0), ``threat <= 1``, ``left <= 2``, or ``ahead and threat <= 2``. Stop when the
  risk is high or ``now >= 6``; otherwise koi-koi exactly when ``nearest_yaku(mine, for_me) <= 1``
  and ``left >= 3``, else stop.
* The best value wins; values within 1e-9 of the best tie, and the seeded random source picks
  among the tied options uniformly.

Without a match context (``match_update`` never called) ``ahead`` is false.

Where the JavaScript greedy player (web/src/ai/players.js, with web/src/ai/knowledge.js) differs:
only in its source of randomness for ties (a seeded ``Rng`` there, ``random.Random`` here), so
the two pick the same option whenever the best value is unique and pick uniformly among the same
tied options otherwise. Its match context is the ``context`` argument of ``choose`` (scores only).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from koikoi_p2p.ai.knowledge import (
    MONTH_MASK_OF,
    SeatKnowledge,
    Target,
    knowledge_of,
    nearest_yaku,
    targets_of,
    usefulness,
)
from koikoi_p2p.ai.strategy import MatchContext, StrategyError
from koikoi_p2p.rules.actions import KOIKOI, STOP, Action, Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Play
from koikoi_p2p.rules.cards import cards_of
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.round import RoundView
from koikoi_p2p.rules.scoring import round_score, scorer

STOP_AT = 6          # a round score that is always banked
TIE = 1e-9
DENY = 0.8           # weight of what a capture takes from the opponent's prospects
OWN_DISCARD = 0.3    # weight of what a discarded card would have been worth to itself


class GreedyPlayer:
    """The greedy player described in the module docstring; ``seed`` breaks ties reproducibly."""

    def __init__(self, profile: Profile | None = None, seed: int | None = None, *,
                 stop_at: int = STOP_AT) -> None:
        self.profile = profile if profile is not None else preset("nintendo")
        self.stop_at = stop_at
        self._context: MatchContext | None = None
        self._random = random.Random(seed)  # noqa: S311 - a computer player's whims protect no secret
        self._targets: dict[int, tuple[Target, ...]] = {}

    def match_update(self, context: MatchContext) -> None:
        self._context = context
        if context.profile != self.profile:
            self.profile = context.profile
            self._targets.clear()

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if not options:
            raise StrategyError("GreedyPlayer.choose needs at least one legal action")
        if len(options) == 1:
            return options[0]
        first = options[0]
        if any(isinstance(o, KoiKoi) for o in options):
            return self._decide(view, options)
        if isinstance(first, ClaimHandYaku | NoHandYaku):
            return first
        k = knowledge_of(view)
        take = self._take_value(view, k)
        if isinstance(first, Capture):
            pending = view.pending_card
            if pending is None:
                return options[0]
            return self._best(options, lambda a: take((pending, a.card)) if isinstance(a, Capture) else 0.0)
        if isinstance(first, Play):
            hand = dict(zip(view.hand_positions, view.hand, strict=True))
            targets = self._targets_for(view.month)
            for_me = k.unseen | k.field | k.hand
            for_them = k.unseen | k.field

            def play_value(a: Action) -> float:
                if not isinstance(a, Play):
                    return 0.0
                c = hand.get(a.position, -1)
                if c < 0:
                    return 0.0  # a hand this view does not show: no preference
                matches = cards_of(k.field & MONTH_MASK_OF[c])
                if not matches:
                    return -(DENY * usefulness(c, targets, k.theirs, for_them)
                             + OWN_DISCARD * usefulness(c, targets, k.mine, for_me))
                if len(matches) == 2:
                    return max(take((c, m)) for m in matches)
                return take((c, *matches))

            return self._best(options, play_value)
        return options[0]

    # -- parts ------------------------------------------------------------------------------------
    def _targets_for(self, month: int) -> tuple[Target, ...]:
        found = self._targets.get(month)
        if found is None:
            found = self._targets[month] = targets_of(self.profile, month)
        return found

    def _take_value(self, view: RoundView, k: SeatKnowledge) -> Callable[[tuple[int, ...]], float]:
        base = scorer(self.profile).base
        month = view.month
        targets = self._targets_for(month)
        for_me = k.unseen | k.field | k.hand
        for_them = k.unseen | k.field
        base_now = base(k.mine, month)

        def take(cards: tuple[int, ...]) -> float:
            taken = 0
            for c in cards:
                taken |= 1 << c
            value = float((base(k.mine | taken, month) - base_now) * 10)
            for c in cards:
                value += usefulness(c, targets, k.mine, for_me)
                value += DENY * usefulness(c, targets, k.theirs, for_them)
            return value

        return take

    def _decide(self, view: RoundView, options: Sequence[Action]) -> Action:
        koi = next((o for o in options if isinstance(o, KoiKoi)), None)
        if koi is None:
            return options[0]
        k = knowledge_of(view)
        base = scorer(self.profile).base
        targets = self._targets_for(view.month)
        seat = view.seat
        now = round_score(base(k.mine, view.month), view.calls, seat, self.profile)
        their_base = base(k.theirs, view.month)
        for_them = k.unseen | k.field
        threat = nearest_yaku(targets, k.theirs, for_them)
        left = len(view.hand)
        ctx = self._context
        ahead = ctx is not None and ctx.scores[seat] > ctx.scores[1 - seat]
        risky = their_base > 0 or threat <= 1 or left <= 2 or (ahead and threat <= 2)
        if risky or now >= self.stop_at:
            return STOP
        hope = nearest_yaku(targets, k.mine, k.unseen | k.field | k.hand)
        return KOIKOI if hope <= 1 and left >= 3 else STOP

    def _best(self, options: Sequence[Action], value: Callable[[Action], float]) -> Action:
        best = float("-inf")
        top: list[Action] = []
        for a in options:
            v = value(a)
            if v > best + TIE:
                best, top = v, [a]
            elif abs(v - best) <= TIE:
                top.append(a)
        return top[self._random.randrange(len(top))]

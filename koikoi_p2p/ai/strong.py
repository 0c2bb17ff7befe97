"""A computer player that plays for yaku: it values captures by the sets they make or deny,
keeps dangerous cards off the field, and calls koi-koi only when playing on is worth the risk
(judged by rollouts of the rest of the round).

It sees what a person at the table sees (the round view and the legal options), nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi_p2p.ai.evaluate import Evaluator, families_for
from koikoi_p2p.ai.rollout import Position, call_value, stop_value
from koikoi_p2p.ai.strategy import StrategyError
from koikoi_p2p.rules.actions import Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Play, Stop
from koikoi_p2p.rules.cards import card
from koikoi_p2p.rules.profile import Profile, preset
from koikoi_p2p.rules.scoring import scorer

if TYPE_CHECKING:
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.round import RoundView


def _mask(cards: frozenset[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


class StrongPlayer:
    """One-ply on yaku value with denial and exposure; koi-koi by rollouts.

    ``seed`` makes it reproducible: it breaks exact ties and drives the rollouts (the random
    module is fine here, a computer player's choices protect no secret).
    """

    def __init__(self, profile: Profile | None = None, seed: int | None = None) -> None:
        self.profile = profile if profile is not None else preset("nintendo")
        base = scorer(self.profile).base
        self._base = base
        self.rollouts = 40  # continuations played out per koi-koi decision
        self.call_margin = 0.5  # points a call must be worth above stopping, on average
        self.rescue_weight = 0.5  # weight of taking field cards the opponent could take next
        self._month: int | None = None
        self._evaluator = Evaluator(
            scorer=lambda cards: base(_mask(cards), self._month),
            fams=families_for(self.profile),
        )
        self._random = random.Random(seed)  # noqa: S311

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if not options:
            raise StrategyError("StrongPlayer.choose needs at least one legal action")
        if len(options) == 1:
            return options[0]
        self._month = view.month
        first = options[0]
        if isinstance(first, (ClaimHandYaku, NoHandYaku)):
            return self._hand_yaku(options)
        if isinstance(first, (KoiKoi, Stop)):
            return self._decide(view, options)
        if isinstance(first, Capture):
            return self._capture(view, options)
        return self._play(view, options)

    # -- decisions -------------------------------------------------------------------------

    @staticmethod
    def _hand_yaku(options: Sequence[Action]) -> Action:
        """A hand yaku is points now with no risk: always claim the best one."""
        claims = [o for o in options if isinstance(o, ClaimHandYaku)]
        return claims[0] if claims else options[0]

    def _capture(self, view: RoundView, options: Sequence[Action]) -> Action:
        return _argmax(options, self.capture_values(view, options))

    def capture_values(self, view: RoundView, options: Sequence[Action]) -> list[float]:
        """The heuristic worth of each capture option (what it gains, minus what it leaves)."""
        self._month = view.month   # the master calls this directly: this round's monthly yaku
        mine, theirs = self._piles(view)
        pending = _pending_card(view)
        values: list[float] = []
        for option in options:
            if not isinstance(option, Capture):
                values.append(float("-inf"))
                continue
            take = {option.card} | ({pending} if pending is not None else set())
            value = self._evaluator.gain(mine, theirs, take)
            # The card left behind stays on the field for the opponent.
            left = [c for c in view.field if card(c).month == card(option.card).month and c != option.card]
            value -= 0.5 * sum(self._evaluator.their_gain(mine, theirs, [c]) for c in left)
            values.append(value + self._random.random() * 1e-6)
        return values

    def _play(self, view: RoundView, options: Sequence[Action]) -> Action:
        return _argmax(options, self.play_values(view, options))

    def play_values(self, view: RoundView, options: Sequence[Action]) -> list[float]:
        """The heuristic worth of each play option: captures with denial, exposure of discards."""
        self._month = view.month
        mine, theirs = self._piles(view)
        hand = _hand_by_position(view)
        unseen = self._unseen(view)
        values: list[float] = []
        for option in options:
            if not isinstance(option, Play) or option.position not in hand:
                values.append(float("-inf"))
                continue
            played = hand[option.position]
            month = card(played).month
            matches = [c for c in view.field if card(c).month == month]
            if not matches:
                # The card lands on the field: it is worth to the opponent what they can take with it,
                # weighted by the chance they hold (or draw) a card of its month.
                others = sum(1 for c in unseen if card(c).month == month)
                chance = min(1.0, others / 3)
                value = -chance * self._evaluator.their_gain(mine, theirs, [played])
                # A pair kept in hand can still take it back next turn.
                if any(card(h).month == month for p, h in hand.items() if p != option.position):
                    value *= 0.5
                value -= 0.2  # a play that captures nothing wastes a tempo
            elif len(matches) == 2:
                value = max(
                    self._evaluator.gain(mine, theirs, [played, m]) + self._rescue(mine, theirs, [m], unseen)
                    for m in matches
                )
            else:
                value = self._evaluator.gain(mine, theirs, [played, *matches])
                value += self._rescue(mine, theirs, matches, unseen)
            values.append(value + self._random.random() * 1e-6)
        return values

    def _rescue(
        self, mine: frozenset[int], theirs: frozenset[int], taken: Sequence[int], unseen: frozenset[int]
    ) -> float:
        """Field cards I take are cards the opponent can no longer take on their next turn."""
        total = 0.0
        for c in taken:
            month = card(c).month
            others = sum(1 for u in unseen if card(u).month == month)
            total += min(1.0, others / 3) * self._evaluator.their_gain(mine, theirs, [c])
        return self.rescue_weight * total

    def _decide(self, view: RoundView, options: Sequence[Action]) -> Action:
        """Koi-koi only when playing on is worth more, on average, than the points in hand.

        The average comes from rollouts of the rest of the round (see rollout.py), so it weighs
        the opponent's closeness to a yaku and the turns left as they really are; a small margin
        keeps the player from gambling on a coin flip.
        """
        koi = next((o for o in options if isinstance(o, KoiKoi)), None)
        stop = next((o for o in options if isinstance(o, Stop)), None)
        if koi is None or stop is None:
            return options[0]
        if not view.hand:
            return stop
        me = view.seat
        pos = Position(
            me=me, field=tuple(view.field), hand=tuple(c for c in view.hand if c >= 0),
            opponent_hand_size=view.opponent_hand_size, piles=view.piles, calls=tuple(view.calls),
            month=view.month,
        )
        now = stop_value(pos, self._base, self.profile)
        later = call_value(pos, self._base, self.profile, self._random, self.rollouts)
        return koi if later > now + self.call_margin else stop

    # -- what the view tells -----------------------------------------------------------------

    @staticmethod
    def _piles(view: RoundView) -> tuple[frozenset[int], frozenset[int]]:
        me = view.seat
        return frozenset(view.piles[me]), frozenset(view.piles[1 - me])

    @staticmethod
    def _unseen(view: RoundView) -> frozenset[int]:
        known: set[int] = set(view.field) | set(view.hand)
        for pile in view.piles:
            known.update(pile)
        return frozenset(range(48)) - known


def _argmax(options: Sequence[Action], values: list[float]) -> Action:
    """The first option of the highest value (values carry a seeded jitter against exact ties)."""
    best, best_value = options[0], float("-inf")
    for option, value in zip(options, values, strict=True):
        if value > best_value:
            best, best_value = option, value
    return best


def _hand_by_position(view: RoundView) -> dict[int, int]:
    return dict(zip(view.hand_positions, view.hand, strict=True))


def _pending_card(view: RoundView) -> int | None:
    return view.pending_card

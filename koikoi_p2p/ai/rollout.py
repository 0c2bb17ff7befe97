"""Koi-koi or stop, decided by playing the rest of the round out many times.

At a decision the strong player knows its own hand, the field and both piles; the opponent's hand
and the stock are the unseen cards in an unknown split and order. Each rollout deals them at
random and plays the round on with a quick greedy policy for both sides, until one side improves
(which ends the round after a call under most rule sets) or the hands run out. Calling is worth
the average result; stopping is worth the points in hand now. The risk the player weighs is
therefore the real one: how close the opponent is to a yaku and how many turns are left.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.scoring import round_score

_MONTH = tuple(c.month for c in CARDS)
_WORTH = {"bright": 6, "animal": 2, "ribbon": 2, "plain": 1}
_VALUE = tuple(_WORTH[c.klass] for c in CARDS)

Base = Callable[[int, int | None], int]


@dataclass(frozen=True, slots=True)
class Position:
    """What the deciding seat knows when it must choose koi-koi or stop."""

    me: int
    field: tuple[int, ...]
    hand: tuple[int, ...]
    opponent_hand_size: int
    piles: tuple[tuple[int, ...], tuple[int, ...]]
    calls: tuple[int, ...]
    month: int


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _take(field: list[int], played: int) -> list[int]:
    """Cards captured when ``played`` meets the field (greedy choice between two), field updated."""
    month = _MONTH[played]
    matches = [f for f in field if _MONTH[f] == month]
    if not matches:
        field.append(played)
        return []
    if len(matches) == 2:
        best = max(matches, key=lambda f: _VALUE[f])
        field.remove(best)
        return [played, best]
    for f in matches:
        field.remove(f)
    return [played, *matches]


def _pick(hand: list[int], field: list[int]) -> int:
    """Greedy: the play that captures the most value, else discard the least valuable card."""
    months: dict[int, int] = {}
    for f in field:
        months[_MONTH[f]] = max(months.get(_MONTH[f], 0), _VALUE[f])
    best, best_value = hand[0], -1e9
    for c in hand:
        gain = months.get(_MONTH[c])
        value = (_VALUE[c] + gain) if gain is not None else -_VALUE[c] * 0.5
        if value > best_value:
            best, best_value = c, value
    return best


def _playout(pos: Position, base: Base, unseen: list[int], rng: random.Random, profile: Profile) -> int:
    """One random continuation after a call; the points to me (negative: to the opponent)."""
    me, other = pos.me, 1 - pos.me
    rng.shuffle(unseen)
    n = pos.opponent_hand_size
    hands = {me: list(pos.hand), other: unseen[:n]}
    stock = unseen[n:]
    field = list(pos.field)
    piles = {me: _mask(pos.piles[me]), other: _mask(pos.piles[other])}
    start = {seat: base(piles[seat], pos.month) for seat in (me, other)}
    calls = (*pos.calls, me)
    seat = other
    while hands[me] or hands[other]:
        hand = hands[seat]
        if hand:
            played = _pick(hand, field)
            hand.remove(played)
            for c in _take(field, played):
                piles[seat] |= 1 << c
            if stock:
                for c in _take(field, stock.pop(0)):
                    piles[seat] |= 1 << c
            now = base(piles[seat], pos.month)
            if now > start[seat]:
                points = round_score(now, calls, seat, profile)
                return points if seat == me else -points
        seat = 1 - seat
    return 0  # exhaustion after a call: the caller's yaku lapse (the usual reading)


def call_value(pos: Position, base: Base, profile: Profile, rng: random.Random, rollouts: int = 40) -> float:
    """Average points to me (minus the opponent's) if I call koi-koi now."""
    known = set(pos.field) | set(pos.hand) | set(pos.piles[0]) | set(pos.piles[1])
    unseen = [c for c in range(48) if c not in known]
    total = 0
    for _ in range(rollouts):
        total += _playout(pos, base, list(unseen), rng, profile)
    return total / rollouts


def stop_value(pos: Position, base: Base, profile: Profile) -> int:
    """The points I score by stopping now."""
    now = base(_mask(pos.piles[pos.me]), pos.month)
    return round_score(now, pos.calls, pos.me, profile) if now else 0

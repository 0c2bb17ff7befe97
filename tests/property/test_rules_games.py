"""Thousands of random rounds per preset: invariants, lock-step viewers, exact replay."""

from __future__ import annotations

import random

import pytest

from koikoi_p2p.rules.actions import Action, KoiKoi
from koikoi_p2p.rules.cards import MONTH_MASKS
from koikoi_p2p.rules.profile import PRESETS, Profile
from koikoi_p2p.rules.round import (
    DECIDE,
    DRAW_CAPTURE,
    DRAW_REVEAL,
    PLAY,
    PLAY_CAPTURE,
    PLAY_REVEAL,
    NeedAction,
    NeedReveal,
    RoundState,
)
from koikoi_p2p.rules.scoring import round_score, scorer
from koikoi_p2p.rules.simulate import replay_round

ALL = (1 << 48) - 1
GAMES_PER_PRESET = 2000
LOCKSTEP_GAMES_PER_PRESET = 250


def check_invariants(state: RoundState, deck: list[int]) -> None:
    """No card lost or duplicated, no state the profile forbids."""
    p = state.profile
    hands = 0
    for seat in (0, 1):
        for pos in range(48):
            if state.hands[seat] >> pos & 1:
                c = state.deck[pos]
                assert c >= 0 and not hands >> c & 1
                hands |= 1 << c
    stock = 0
    for pos in state.layout.stock[state.stock_next:]:
        assert state.deck[pos] in (-1, deck[pos])
        stock |= 1 << deck[pos]
    pending = 0
    if state.phase in (PLAY_REVEAL, DRAW_REVEAL):
        pending = 1 << deck[state.pending]
    elif state.phase in (PLAY_CAPTURE, DRAW_CAPTURE):
        pending = 1 << state.pending
        assert state.options.bit_count() == 2 and state.options & state.field == state.options
    parts = [hands, state.field, state.piles[0], state.piles[1], stock, pending]
    assert sum(x.bit_count() for x in parts) == 48, "a card is lost or counted twice"
    union = 0
    for x in parts:
        union |= x
    assert union == ALL
    if p.max_calls_per_round:
        if p.call_limit == "per_seat":
            assert max(state.calls.count(0), state.calls.count(1)) <= p.max_calls_per_round
        else:
            assert len(state.calls) <= p.max_calls_per_round
    if state.phase == DECIDE:
        # after a call, profiles that end the round on the next improvement never ask for a decision
        assert not (state.calls and p.after_call == "next_improvement_ends_round")
        assert state.bases[state.turn] > 0
    if state.phase == PLAY:
        # both piles' totals are up to date at the start of a turn; no field month is complete
        s = scorer(p)
        # the holder's own call counts for viewing_by_call (spec/rules.md §6.4)
        assert state.bases == [s.base(state.piles[seat], state.month, seat in state.calls) for seat in (0, 1)]
        if p.field_whole_month == "redeal":
            assert all(state.field & m != m for m in MONTH_MASKS[1:])
        assert abs(state.hands[0].bit_count() - state.hands[1].bit_count()) <= 1


def check_result(state: RoundState) -> None:
    r = state.result
    assert r is not None and state.need is None
    p = state.profile
    if r.redeal:
        assert r.winner is None and r.points == 0 and r.next_dealer == state.dealer
        return
    if r.winner is None:
        assert r.points == 0 and r.reason == "exhaustion"
        assert r.next_dealer == (state.dealer if p.dealer_after_draw == "same" else 1 - state.dealer)
        return
    assert r.next_dealer == r.winner and r.points > 0 and r.base == sum(r.yaku.values())
    if r.reason in ("stop", "auto_end", "exhaustion"):
        assert r.yaku == scorer(p).yaku(state.piles[r.winner], state.month, r.winner in r.calls)
        assert r.points == round_score(r.base, r.calls, r.winner, p)
        if r.reason == "auto_end":
            assert r.calls and p.after_call == "next_improvement_ends_round"
    elif r.reason == "oya_ken":
        assert r.winner == state.dealer and r.yaku == {"oya_ken": p.oya_ken_points}
    else:
        assert r.reason == "hand_yaku" and r.points == r.base and len(r.yaku) == 1


def play_checked(profile: Profile, rng: random.Random, call_bias: bool) -> RoundState:
    """One random round with every invariant checked after every step; the finished state."""
    deck = list(range(48))
    rng.shuffle(deck)
    dealer = rng.randrange(2)
    month = rng.randint(1, 12)
    state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=month)
    moves: list[tuple[int, Action]] = []
    while state.result is None:
        need = state.need
        if isinstance(need, NeedReveal):
            for pos in need.positions:
                state.reveal(pos, deck[pos])
        else:
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            assert options
            action = options[rng.randrange(len(options))]
            if call_bias and KoiKoi() in options:
                action = KoiKoi()
            state.apply(need.seat, action)
            moves.append((need.seat, action))
        if state.result is None and state.phase >= PLAY:
            check_invariants(state, deck)
    check_result(state)
    again = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=month)
    replay_round(again, deck, moves)
    assert again.snapshot() == state.snapshot()
    return state


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_rounds_keep_invariants_and_replay_exactly(name: str) -> None:
    rng = random.Random(f"games-{name}")
    for i in range(GAMES_PER_PRESET):
        play_checked(PRESETS[name], rng, call_bias=i % 3 == 0)


def public(state: RoundState) -> tuple[object, ...]:
    return (state.field, tuple(state.piles), tuple(state.calls), tuple(state.bases), state.stock_next,
            state.turn, state.phase, state.need, state.result, state.hands[0].bit_count(),
            state.hands[1].bit_count())


@pytest.mark.parametrize("name", list(PRESETS))
def test_three_viewers_stay_in_lock_step(name: str) -> None:
    """Seat 0, seat 1, an auditor and a keyless observer ask the same reveals, reach the same state."""
    profile = PRESETS[name]
    rng = random.Random(f"lockstep-{name}")
    for _ in range(LOCKSTEP_GAMES_PER_PRESET):
        deck = list(range(48))
        rng.shuffle(deck)
        dealer = rng.randrange(2)
        engines = [RoundState(profile=profile, dealer=dealer, viewer=v, round_index=2, month=2)
                   for v in (None, 0, 1, None)]
        full, seat_engines, observer = engines[0], engines[1:3], engines[3]
        while full.result is None:
            need = full.need
            assert all(e.need == need for e in engines)
            if isinstance(need, NeedReveal):
                for e in engines:
                    hidden = e is observer or (e.viewer is not None and e.viewer != need.to)
                    if need.to is not None and hidden:
                        e.skip_reveal()
                    else:
                        for pos in need.positions:
                            e.reveal(pos, deck[pos])
            else:
                assert isinstance(need, NeedAction)
                options = full.legal_actions()
                own = seat_engines[need.seat].legal_actions()
                assert own == options
                action = options[rng.randrange(len(options))]
                if need.kind != "hand_yaku":  # a hidden hand's claims cannot be listed
                    assert action in seat_engines[1 - need.seat].legal_actions()
                    assert action in observer.legal_actions()
                for e in engines:
                    e.apply(need.seat, action)
            assert public(engines[1]) == public(full) == public(engines[2]) == public(observer)
        assert engines[1].result == full.result == engines[2].result == observer.result

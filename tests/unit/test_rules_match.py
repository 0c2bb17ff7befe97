"""The match: round numbers and months, pools and transfers, bust-out, target score, ties."""

from __future__ import annotations

import random

import pytest

from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import PRESETS, preset
from koikoi_p2p.rules.round import RoundResult
from koikoi_p2p.rules.simulate import play_round, random_chooser


def win(seat: int, points: int) -> RoundResult:
    return RoundResult(winner=seat, points=points, yaku={"tane": points}, base=points, calls=(), redeal=False,
                       next_dealer=seat, reason="stop")


def draw(next_dealer: int) -> RoundResult:
    return RoundResult(winner=None, points=0, yaku={}, base=0, calls=(), redeal=False,
                       next_dealer=next_dealer, reason="exhaustion")


def redeal(dealer: int, consumes: bool) -> RoundResult:
    return RoundResult(winner=None, points=0, yaku={}, base=0, calls=(), redeal=True, next_dealer=dealer,
                       reason="field_month", consumes_round=consumes)


def test_twelve_rounds_summed_with_months() -> None:
    m = MatchState(preset("nintendo"), 1)
    months = []
    for i in range(12):
        params = m.round_params()
        months.append(params.month)
        assert params.round_index == i + 1
        m.record(win(i % 2, 3 + i % 2))
    assert months == list(range(1, 13))
    assert m.over and m.scores == (18, 24) and m.winner == 1
    with pytest.raises(RulesError):
        m.round_params()
    with pytest.raises(RulesError):
        m.record(draw(0))


def test_redeal_keeps_the_round_unless_the_profile_counts_it() -> None:
    m = MatchState(preset("teaching-card"), 0)
    m.record(redeal(0, False))
    assert m.round_params().round_index == 1 and m.deals == 1
    c = MatchState(preset("classic-variant"), 0)
    c.record(redeal(0, True))
    assert c.round_params().round_index == 2 and c.round_params().month == 2


def test_tie_after_the_last_round() -> None:
    m = MatchState(preset("teaching-card"), 0)
    for i in range(12):
        m.record(win(i % 2, 5))
    assert m.over and m.winner is None and m.scores == (30, 30)
    extra = MatchState(preset("teaching-card").with_switches(match_tie="extra_round"), 0)
    for i in range(12):
        extra.record(win(i % 2, 5))
    assert not extra.over and extra.round_params().round_index == 13 and extra.round_params().month == 1
    extra.record(draw(0))
    assert not extra.over
    extra.record(win(1, 2))
    # One comparison: mypy keeps `over` narrowed to False by the assert above across record().
    assert (extra.over, extra.winner) == (True, 1)


def test_pool_transfers_cap_and_bust() -> None:
    m = MatchState(preset("koikoi-online"), 0)
    assert m.scores == (25, 25)
    m.record(win(0, 10))
    assert m.scores == (35, 15)
    m.record(win(0, 40))  # capped at what seat 1 has left
    assert m.scores == (50, 0) and m.over and m.winner == 0
    b = MatchState(preset("board-game"), 0)
    b.record(win(1, 30))
    assert b.scores == (70, 130) and not b.over
    six = MatchState(preset("board-game").with_switches(rounds=6, pool_start=50), 0)
    for _ in range(6):
        six.record(draw(0))
    assert six.over and six.winner is None and six.scores == (50, 50)


def test_first_to_fifty() -> None:
    m = MatchState(preset("classic-variant"), 0)
    for _ in range(30):
        m.record(win(1, 9))
        if m.over:
            break
    assert m.over and m.winner == 1 and m.scores[1] >= 50 and m.rounds_played == 6
    assert MatchState(preset("classic-variant"), 0).round_params().month == 1


def test_persistence_roundtrip_and_bad_input() -> None:
    m = MatchState(preset("koikoi-online"), 1)
    m.record(win(0, 4))
    m.record(draw(0))
    again = MatchState.from_dict(m.to_dict())
    assert again.scores == m.scores and again.round_params() == m.round_params()
    assert again.results == m.results
    with pytest.raises(RulesError):
        MatchState(preset("nintendo"), 2)
    with pytest.raises(RulesError):
        MatchState.from_dict({"profile": {}, "first_dealer": 0, "results": []})
    bad = win(0, 4).to_dict()
    bad["points"] = -1
    with pytest.raises(RulesError):
        RoundResult.from_dict(bad)
    with pytest.raises(RulesError):
        RoundResult.from_dict({**win(0, 4).to_dict(), "extra": 1})
    assert RoundResult.from_dict(win(0, 4).to_dict()) == win(0, 4)


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_matches_respect_the_pool_rules(name: str) -> None:
    profile = PRESETS[name]
    rng = random.Random(f"match-{name}")
    for _ in range(40):
        m = MatchState(profile, rng.randrange(2))
        summed = [0, 0]
        while not m.over:
            params = m.round_params()
            state = m.new_round(None)
            assert (state.dealer, state.month) == (params.dealer, params.month)
            assert state.round_index == params.round_index
            deck = list(range(48))
            rng.shuffle(deck)
            play_round(state, deck, random_chooser(rng))
            assert state.result is not None
            before = m.scores
            m.record(state.result)
            r = state.result
            if r.winner is not None:
                summed[r.winner] += r.points
            if profile.pool_start:
                assert sum(m.scores) == 2 * profile.pool_start
                if profile.transfer_cap:
                    assert min(m.scores) >= 0
                if r.winner is not None:
                    paid = min(r.points, before[1 - r.winner]) if profile.transfer_cap else r.points
                    assert m.scores[r.winner] - before[r.winner] == paid
            else:
                assert list(m.scores) == summed
            assert m.dealer == r.next_dealer
            assert m.deals < 500
        s = m.scores
        if profile.bust_ends_game and min(s) <= 0:
            assert m.winner == (0 if s[1] <= 0 else 1)
        elif profile.target_score:
            assert max(s) >= profile.target_score and m.winner == (0 if s[0] > s[1] else 1)
        else:
            assert m.rounds_played == profile.rounds
            assert m.winner == (None if s[0] == s[1] else 0 if s[0] > s[1] else 1)

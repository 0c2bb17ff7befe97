"""The computer players: always legal, reproducible, and the strong one beats the random one."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.evaluate import Evaluator, closest, families, promise
from koikoi_p2p.ai.rollout import Position, call_value, stop_value
from koikoi_p2p.ai.strategy import RandomPlayer, Strategy, StrategyError
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.rules.actions import Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Play, Stop
from koikoi_p2p.rules.profile import PRESETS, preset
from koikoi_p2p.rules.round import NeedAction, RoundState, RoundView
from koikoi_p2p.rules.scoring import scorer
from koikoi_p2p.rules.simulate import play_round

NINTENDO = preset("nintendo")


def _view(**changes: object) -> RoundView:
    """A real view from the engine, then edited to stage one decision."""
    state = RoundState(profile=NINTENDO, dealer=0, viewer=None, round_index=1, month=1)
    deck = list(range(48))
    random.Random(5).shuffle(deck)
    while not isinstance(state.need, NeedAction):
        for p in state.need.positions:  # type: ignore[union-attr]
            state.reveal(p, deck[p])
    return replace(state.view(0), **changes)  # type: ignore[arg-type]


def test_players_are_strategies() -> None:
    assert isinstance(RandomPlayer(1), Strategy)
    assert isinstance(StrongPlayer(NINTENDO, 1), Strategy)


def test_no_options_is_an_error() -> None:
    with pytest.raises(StrategyError):
        RandomPlayer(1).choose(_view(), [])
    with pytest.raises(StrategyError):
        StrongPlayer().choose(_view(), [])


def test_random_player_is_reproducible() -> None:
    options = [Play(p) for p in range(8)]
    view = _view()
    a = [RandomPlayer(7).choose(view, options) for _ in range(3)]
    b = [RandomPlayer(7).choose(view, options) for _ in range(3)]
    assert a == b


def test_strong_takes_the_crane_over_a_plain() -> None:
    view = _view(field=(0, 2, 44), piles=((), ()), pending_card=3, capture_options=(0, 2))
    assert StrongPlayer(NINTENDO, 1).choose(view, [Capture(2), Capture(0)]) == Capture(0)


def test_strong_plays_the_card_that_completes_akatan() -> None:
    # Holding two poetry ribbons; the cherry poetry ribbon lies on the field; the hand has a cherry plain.
    view = _view(
        field=(9, 30, 45), hand=(10, 14, 18), hand_positions=(3, 7, 11), piles=((1, 5), ()),
    )
    options = [Play(3), Play(7), Play(11)]
    assert StrongPlayer(NINTENDO, 1).choose(view, options) == Play(3)


def test_strong_denies_a_yaku_the_opponent_is_one_card_from() -> None:
    # Two plays capture one plain each, but one of them takes the ribbon the opponent needs.
    view = _view(
        field=(9, 14), hand=(10, 15), hand_positions=(4, 6), piles=((), (1, 5)),
    )
    assert StrongPlayer(NINTENDO, 1).choose(view, [Play(6), Play(4)]) == Play(4)


def test_strong_stops_when_the_opponent_is_close() -> None:
    # I hold inoshikacho; the opponent is one card from akatan.
    view = _view(piles=((20, 24, 36), (1, 5)), hand=(2, 3, 6, 7, 10, 11), hand_positions=(0, 1, 2, 3, 4, 5))
    assert StrongPlayer(NINTENDO, 1).choose(view, [Stop(), KoiKoi()]) == Stop()


def test_strong_calls_koikoi_when_safe_and_close_to_more() -> None:
    # Hanami (5) made; the moon lies on the field and I hold two pampas plains to take it (tsukimi),
    # the opponent holds one plain.
    view = _view(
        piles=((8, 32), (2,)), hand=(30, 31, 6, 7, 10, 11), hand_positions=(0, 1, 2, 3, 4, 5),
        field=(28, 45, 46, 47), opponent_hand_size=6,
    )
    assert StrongPlayer(NINTENDO, 1).choose(view, [Stop(), KoiKoi()]) == KoiKoi()
    # The same points with no way to the moon from the hand: stop.
    view = replace(view, hand=(3, 6, 7, 10, 11, 14))
    assert StrongPlayer(NINTENDO, 1).choose(view, [Stop(), KoiKoi()]) == Stop()


def test_rollouts_value_the_call_against_the_points_in_hand() -> None:
    pos = Position(me=0, field=(28, 45, 46, 47), hand=(30, 31, 6, 7, 10, 11), opponent_hand_size=6,
                   piles=((8, 32), (2,)), calls=(), month=1)
    base = scorer(NINTENDO).base
    assert stop_value(pos, base, NINTENDO) == 5
    first = call_value(pos, base, NINTENDO, random.Random(3), 100)
    assert first == call_value(pos, base, NINTENDO, random.Random(3), 100)  # seeded: reproducible
    assert first > 5
    # Without a card in hand, playing on cannot be worth anything.
    empty = replace(pos, hand=(), opponent_hand_size=0)
    assert call_value(empty, base, NINTENDO, random.Random(3), 10) == 0


def test_strong_claims_a_hand_yaku() -> None:
    claim = ClaimHandYaku("teshi", (0, 1, 2, 3))
    assert StrongPlayer().choose(_view(), [NoHandYaku(), claim]) == claim


def test_evaluation_counts_denial() -> None:
    fams = families()
    # Taking the third poetry ribbon from under the opponent kills akatan for them.
    assert promise(frozenset({1, 5}), frozenset({9}), fams) < promise(frozenset({1, 5}), frozenset(), fams)
    assert closest(frozenset({1, 5}), frozenset(), fams) == 1
    ev = Evaluator(scorer=lambda cards: 5 if {1, 5, 9} <= cards else 0, fams=fams)
    assert ev.gain(frozenset(), frozenset({1, 5}), [9]) > ev.gain(frozenset(), frozenset({1, 5}), [10])


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_strong_only_ever_chooses_legal_actions(rules: str) -> None:
    rng = random.Random(11)
    profile = preset(rules)
    strong = StrongPlayer(profile, 3)
    for _ in range(12):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=profile, dealer=rng.randrange(2), viewer=None, round_index=1, month=1)

        def choose(s: RoundState, options: tuple[object, ...]) -> object:
            need = s.need
            assert isinstance(need, NeedAction)
            action = strong.choose(s.view(need.seat), options)  # type: ignore[arg-type]
            assert action in options
            return action

        play_round(state, deck, choose)  # type: ignore[arg-type]
        assert state.result is not None


@pytest.mark.parametrize("rules", ["nintendo", "koikoi-online"])
def test_strong_beats_random_in_a_seeded_sample(rules: str) -> None:
    profile = preset(rules)
    rng = random.Random(2024)
    wins = 0
    n = 24
    for i in range(n):
        seat = i % 2
        players: list[Strategy] = [RandomPlayer(i), RandomPlayer(i)]
        players[seat] = StrongPlayer(profile, seed=i)
        record = play_local_match(profile, players, rng)
        wins += record.winner == seat
    assert wins / n >= 0.7, wins

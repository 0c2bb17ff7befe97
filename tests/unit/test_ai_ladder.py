"""The ladder of computer players: greedy's policy, the master's budget and its blindness to hidden
cards, the levels, and the match context each player is told."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.expert import ExpertPlayer
from koikoi_p2p.ai.greedy import GreedyPlayer
from koikoi_p2p.ai.levels import LEVELS, computer_player
from koikoi_p2p.ai.lookahead import NetworkPlayer
from koikoi_p2p.ai.master import MasterPlayer
from koikoi_p2p.ai.strategy import MatchContext, RandomPlayer, Strategy, StrategyError
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.cli.options import LEVELS as CLI_LEVELS
from koikoi_p2p.rules.actions import Action, Capture, KoiKoi, Play, Stop
from koikoi_p2p.rules.profile import PRESETS, preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState, RoundView
from koikoi_p2p.rules.simulate import arranged_deck, play_round

NINTENDO = preset("nintendo")


def _first_play_view(deck: list[int] | tuple[int, ...], dealer: int = 0) -> tuple[RoundState, RoundView]:
    state = RoundState(profile=NINTENDO, dealer=dealer, viewer=None, round_index=1, month=1)
    while not (isinstance(state.need, NeedAction) and state.need.kind == "play"):
        need = state.need
        if isinstance(need, NeedReveal):
            for p in need.positions:
                state.reveal(p, deck[p])
        else:
            assert isinstance(need, NeedAction)
            state.apply(need.seat, state.legal_actions()[0])
    return state, state.view(state.need.seat)


def _view(**changes: object) -> RoundView:
    deck = list(range(48))
    random.Random(5).shuffle(deck)
    _, view = _first_play_view(deck)
    return replace(view, **changes)  # type: ignore[arg-type]


def test_levels_name_the_ladder() -> None:
    assert LEVELS == CLI_LEVELS == ("easy", "medium", "strong", "master", "expert")
    kinds = [type(computer_player(level, NINTENDO, 1)) for level in LEVELS]
    assert kinds == [RandomPlayer, GreedyPlayer, StrongPlayer, MasterPlayer, ExpertPlayer]
    with pytest.raises(ValueError, match="unknown level"):
        computer_player("grandmaster", NINTENDO, 1)
    for level in LEVELS:
        assert isinstance(computer_player(level, NINTENDO, 1), Strategy)


@pytest.mark.parametrize("level", ["medium", "master"])
def test_no_options_is_an_error(level: str) -> None:
    with pytest.raises(StrategyError):
        computer_player(level, NINTENDO, 1).choose(_view(), [])


# -- greedy -----------------------------------------------------------------------------------------

def test_greedy_takes_the_crane_over_a_plain() -> None:
    view = _view(field=(0, 2, 44), piles=((), ()), pending_card=3, capture_options=(0, 2),
                 need=NeedAction(0, "capture"))
    assert GreedyPlayer(NINTENDO, 1).choose(view, [Capture(2), Capture(0)]) == Capture(0)


def test_greedy_completes_akatan() -> None:
    # Two poetry ribbons held; the cherry poetry ribbon lies on the field; a cherry plain in hand.
    view = _view(field=(9, 30, 45), hand=(10, 14, 18), hand_positions=(3, 7, 11), piles=((1, 5), ()))
    assert GreedyPlayer(NINTENDO, 1).choose(view, [Play(3), Play(7), Play(11)]) == Play(3)


def test_greedy_denies_the_opponents_nearest_yaku() -> None:
    # Either play takes one plain-ish card; one of them takes the ribbon the opponent needs.
    view = _view(field=(9, 14), hand=(10, 15), hand_positions=(4, 6), piles=((), (1, 5)))
    assert GreedyPlayer(NINTENDO, 1).choose(view, [Play(6), Play(4)]) == Play(4)


def test_greedy_stops_when_the_opponent_is_close_and_calls_when_safe() -> None:
    hand = (2, 3, 6, 7, 10, 11)
    positions = (0, 1, 2, 3, 4, 5)
    risky = _view(piles=((20, 24, 36), (1, 5)), hand=hand, hand_positions=positions)
    assert GreedyPlayer(NINTENDO, 1).choose(risky, [Stop(), KoiKoi()]) == Stop()
    # Hanami made (5 < 6), the moon one card away, the opponent far from anything: koi-koi.
    safe = _view(piles=((8, 32), (2,)), hand=(30, 31, 6, 7, 10, 11), hand_positions=positions,
                 field=(28, 45, 46, 47), opponent_hand_size=6)
    greedy = GreedyPlayer(NINTENDO, 1)
    assert greedy.choose(safe, [Stop(), KoiKoi()]) == KoiKoi()
    # Ahead in the match and the opponent two cards from a yaku: stop instead.
    closer = replace(safe, piles=((8, 32), (1, 2)))
    assert greedy.choose(closer, [Stop(), KoiKoi()]) == KoiKoi()
    greedy.match_update(MatchContext(profile=NINTENDO, scores=(10, 0), rounds_played=3))
    assert greedy.choose(closer, [Stop(), KoiKoi()]) == Stop()


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_new_players_only_choose_legal_actions(rules: str) -> None:
    profile = preset(rules)
    rng = random.Random(13)
    players: list[Strategy] = [GreedyPlayer(profile, 2),
                               MasterPlayer(profile, 3, simulations=6, max_seconds=None)]
    for game in range(4):
        if game == 3:  # the learned player too, against the master
            players = [ExpertPlayer(profile, 4, simulations=6, max_seconds=None), players[1]]
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=profile, dealer=rng.randrange(2), viewer=None, round_index=1,
                           month=rng.randrange(1, 13))

        def choose(s: RoundState, options: tuple[Action, ...], players: list[Strategy] = players) -> Action:
            need = s.need
            assert isinstance(need, NeedAction)
            action = players[need.seat].choose(s.view(need.seat), options)
            assert action in options
            return action

        play_round(state, deck, choose)
        assert state.result is not None


def test_greedy_beats_random_in_a_seeded_sample() -> None:
    rng = random.Random(2024)
    wins = 0
    for i in range(20):
        seat = i % 2
        players: list[Strategy] = [RandomPlayer(i), RandomPlayer(i)]
        players[seat] = GreedyPlayer(NINTENDO, i)
        wins += play_local_match(NINTENDO, players, rng, rounds=3).winner == seat
    assert wins >= 15, wins


# -- master -----------------------------------------------------------------------------------------

# Seat 0 deals and plays first; the field and seat 0's hand are fixed, and the two decks below
# differ only in which unseen cards seat 1 holds and in what order the stock comes.
HAND0 = ("01-crane", "03-plain1", "08-plain1", "09-cup", "11-ribbon", "12-plain1", "05-ribbon", "07-plain2")
FIELD = ("01-plain1", "03-curtain", "08-moon", "12-phoenix", "04-ribbon", "06-blue", "10-plain1", "02-plain1")


def _two_decks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    a = arranged_deck(0, (HAND0, ()), FIELD)
    layout_hidden = [p for p in range(48) if a[p] not in set(_indices(HAND0 + FIELD))]
    cards = [a[p] for p in layout_hidden]
    rng = random.Random(99)
    shuffled = cards[:]
    rng.shuffle(shuffled)
    b = list(a)
    for p, c in zip(layout_hidden, shuffled, strict=True):
        b[p] = c
    assert tuple(b) != a
    return a, tuple(b)


def _indices(ids: tuple[str, ...]) -> list[int]:
    from koikoi_p2p.rules.cards import card

    return [card(i).index for i in ids]


# The search players: the master, the expert (the same search, a learned value at its leaves) and
# the network probe of koikoi bench ai (the network's own choice one ply ahead).
SEARCHERS = [MasterPlayer, ExpertPlayer, NetworkPlayer]


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_master_never_uses_cards_it_cannot_see(searcher: type[MasterPlayer]) -> None:
    first, second = _two_decks()
    state_a, view_a = _first_play_view(first)
    state_b, view_b = _first_play_view(second)
    # The full states differ (seat 1's hand, the stock); what seat 0 may know is the same.
    assert state_a.snapshot() != state_b.snapshot()
    assert view_a == view_b
    # Seat 0's own engine (viewer 0, seat 1's reveal skipped) shows it exactly the same view.
    own = RoundState(profile=NINTENDO, dealer=0, viewer=0, round_index=1, month=1)
    while isinstance(own.need, NeedReveal):
        if own.need.to == 1:
            own.skip_reveal()
        else:
            for p in own.need.positions:
                own.reveal(p, first[p])
    while own.need != view_a.need:
        assert isinstance(own.need, NeedAction)
        own.apply(own.need.seat, own.legal_actions()[0])
    assert own.view(0) == view_a
    options_a, options_b = state_a.legal_actions(), state_b.legal_actions()
    assert options_a == options_b == own.legal_actions()
    picks: dict[str, Counter[Action]] = {"a": Counter(), "b": Counter(), "own": Counter()}
    for seed in range(12):
        chosen = {
            name: searcher(NINTENDO, seed, simulations=24, max_seconds=None).choose(view, options_a)
            for name, view in (("a", state_a.view(0)), ("b", state_b.view(0)), ("own", own.view(0)))
        }
        assert chosen["a"] == chosen["b"] == chosen["own"], seed  # same seed, same choice
        for name, action in chosen.items():
            picks[name][action] += 1
    assert picks["a"] == picks["b"] == picks["own"]  # so the same distribution over seeds


def test_master_keeps_to_its_simulation_budget_deterministically() -> None:
    deck = list(range(48))
    random.Random(8).shuffle(deck)
    state, view = _first_play_view(deck)
    options = state.legal_actions()
    assert len(options) > 2
    runs = []
    for _ in range(2):
        master = MasterPlayer(NINTENDO, 5, simulations=40, max_seconds=None)
        action = master.choose(view, options)
        runs.append((action, master.playouts))
        assert 0 < master.playouts <= 40
    assert runs[0] == runs[1]
    # A bigger budget runs more playouts, never more than allowed.
    master = MasterPlayer(NINTENDO, 5, simulations=120, max_seconds=None)
    master.choose(view, options)
    assert runs[0][1] < master.playouts <= 120
    # A single legal option costs nothing.
    master = MasterPlayer(NINTENDO, 5, simulations=120, max_seconds=None)
    assert master.choose(view, options[:1]) == options[0]
    assert master.playouts == 0
    with pytest.raises(ValueError):
        MasterPlayer(NINTENDO, 5, simulations=0)


def test_master_beats_random_with_a_tiny_budget() -> None:
    rng = random.Random(77)
    wins = 0
    for i in range(8):
        seat = i % 2
        players: list[Strategy] = [RandomPlayer(i), RandomPlayer(i)]
        players[seat] = MasterPlayer(NINTENDO, i, simulations=16, max_seconds=None)
        wins += play_local_match(NINTENDO, players, rng, rounds=2).winner == seat
    assert wins >= 6, wins


# -- the match context ------------------------------------------------------------------------------

class Listener(RandomPlayer):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.contexts: list[MatchContext] = []

    def match_update(self, context: MatchContext) -> None:
        self.contexts.append(context)


def test_local_matches_tell_players_the_scores() -> None:
    a, b = Listener(1), Listener(2)
    record = play_local_match(NINTENDO, (a, b), random.Random(4), rounds=3)
    assert [c.rounds_played for c in a.contexts][:1] == [0]
    assert a.contexts == b.contexts
    assert a.contexts[0].scores == (0, 0) and a.contexts[0].profile.rounds == 3
    assert a.contexts[-1].rounds_played == record.rounds - 1


def test_protocol_matches_tell_players_the_scores() -> None:
    from koikoi_p2p.net.selfplay import selfplay

    a, b = Listener(1), Listener(2)
    played = asyncio.run(selfplay(rounds=2, seed=3, rules="nintendo", players=(a, b)))
    assert played.outcomes[0].scores is not None
    for listener in (a, b):
        assert listener.contexts[0].scores == (0, 0)
        assert listener.contexts[0].profile.name == "nintendo"
        # After the last round the final scores come too.
        assert listener.contexts[-1].scores == played.outcomes[0].scores
        assert listener.contexts[-1].rounds_played == 2


# -- master, mid-round: the same public history, different hidden cards ------------------------------

Replayed = tuple[list[RoundView], list[Action], RoundView, tuple[Action, ...]]


def _replay(profile_name: str, deck: list[int], actions: list[Action] | None, stop_at: int,
            master: MasterPlayer | None) -> Replayed:
    """Play a round on ``deck`` (greedy seats, or the recorded ``actions``) up to seat 0's
    ``stop_at``-th real decision; show ``master`` seat 0's views as arena._play does. Returns the
    views shown, the actions played, and the decision's view and options."""
    profile = preset(profile_name)
    state = RoundState(profile=profile, dealer=0, viewer=None, round_index=1, month=4)
    greedy = (GreedyPlayer(profile, 1), GreedyPlayer(profile, 2))
    shown: list[RoundView] = []
    played: list[Action] = []
    decisions = 0
    while state.result is None:
        need = state.need
        if isinstance(need, NeedReveal):
            for p in need.positions:
                state.reveal(p, deck[p])
            shown.append(state.view(0))
            if master is not None:
                master.observe(shown[-1])
            continue
        assert isinstance(need, NeedAction)
        options = state.legal_actions()
        if need.seat == 0 and len(options) > 1:
            decisions += 1
            if decisions == stop_at:
                return shown, played, state.view(0), options
        if actions is not None:
            action = actions[len(played)]
        else:
            action = greedy[need.seat].choose(state.view(need.seat), options)
        state.apply(need.seat, action)
        played.append(action)
        if need.seat == 1 and state.result is None:
            shown.append(state.view(0))
            if master is not None:
                master.observe(shown[-1])
    raise AssertionError("the round ended before the decision")


def _other_hidden(deck: list[int], view: RoundView, rng: random.Random) -> list[int]:
    """``deck`` with the cards seat 0 cannot see at ``view`` (seat 1's hand, the stock) shuffled."""
    seen = {*view.hand, *view.field, *view.piles[0], *view.piles[1]}
    if view.pending_card is not None:
        seen.add(view.pending_card)
    places = [p for p in range(48) if deck[p] not in seen]
    cards = [deck[p] for p in places]
    while True:
        rng.shuffle(cards)
        if cards != [deck[p] for p in places]:
            break
    other = list(deck)
    for p, c in zip(places, cards, strict=True):
        other[p] = c
    return other


@pytest.mark.parametrize("searcher", SEARCHERS)
@pytest.mark.parametrize(("rules", "deal_seed", "stop_at"),
                         [("nintendo", 3, 3), ("koikoi-online", 11, 4), ("wikipedia", 21, 2)])
def test_master_mid_round_ignores_hidden_cards(rules: str, deal_seed: int, stop_at: int,
                                               searcher: type[MasterPlayer]) -> None:
    rng = random.Random(deal_seed)
    deck = list(range(48))
    rng.shuffle(deck)
    shown_a, actions, view_a, options = _replay(rules, deck, None, stop_at, None)
    other = _other_hidden(deck, view_a, rng)
    shown_b, _, view_b, options_b = _replay(rules, other, actions, stop_at, None)
    assert other != deck
    assert shown_a == shown_b and view_a == view_b and options == options_b  # seat 0 cannot tell
    picks: list[Counter[Action]] = [Counter(), Counter()]
    for seed in range(10):
        chosen = []
        for side, d in enumerate((deck, other)):
            master = searcher(preset(rules), seed, simulations=30, max_seconds=None)
            master.match_update(MatchContext(profile=preset(rules), scores=(3, 1), rounds_played=2))
            _, _, view, opts = _replay(rules, d, actions, stop_at, master)
            chosen.append(master.choose(view, opts))
            picks[side][chosen[-1]] += 1
        assert chosen[0] == chosen[1], seed  # same seed, same choice
    assert picks[0] == picks[1]  # and so the same distribution over seeds


# -- the levels in the command line ---------------------------------------------------------------

def test_selfplay_plays_the_chosen_levels(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from koikoi_p2p.cli.main import main

    assert main(["selfplay", "--rounds", "1", "--seed", "4", "--level", "medium,strong", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["ok"] and summary["levels"] == ["medium", "strong"]
    with pytest.raises(SystemExit):
        main(["selfplay", "--rounds", "1", "--level", "grandmaster"])


def test_practice_offers_every_level() -> None:
    import argparse

    from koikoi_p2p.cli import cmd_practice

    parser = argparse.ArgumentParser()
    cmd_practice.register(parser.add_subparsers())
    for level in LEVELS:
        assert parser.parse_args(["practice", "--level", level]).level == level
    with pytest.raises(SystemExit):
        parser.parse_args(["practice", "--level", "grandmaster"])


def test_practice_think_sets_the_masters_time_cap() -> None:
    import argparse

    from koikoi_p2p.cli import cmd_practice
    from koikoi_p2p.cli.practice import computer_player

    parser = argparse.ArgumentParser()
    cmd_practice.register(parser.add_subparsers())
    assert parser.parse_args(["practice", "--think", "2.5"]).think == 2.5
    assert parser.parse_args(["practice"]).think is None
    for bad in ("0", "-1", "many", "1000"):
        with pytest.raises(SystemExit):
            parser.parse_args(["practice", "--think", bad])
    master = computer_player("master", preset("nintendo"), 1, 2.5)
    assert isinstance(master, MasterPlayer) and master.budget.max_seconds == 2.5
    default = computer_player("master", preset("nintendo"), 1)
    assert isinstance(default, MasterPlayer) and default.budget.max_seconds == 1.0


def test_strong_capture_values_use_this_rounds_month() -> None:
    """The master asks strong's capture values directly, before any play of the round: the
    monthly yaku must be those of this round's month, not the last one strong saw."""
    profile = preset("wikipedia")
    strong = StrongPlayer(profile, 1)
    rng = random.Random(5)
    seen: list[int] = []

    class Spy:
        def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
            if isinstance(options[0], Capture):
                strong.capture_values(view, options)
                seen.append(view.month)
                assert strong._month == view.month
            return options[0]

    for _ in range(6):
        play_local_match(profile, (Spy(), RandomPlayer(2)), rng, rounds=2)
    assert len(set(seen)) > 1


def test_the_table_of_preset_spreads_is_the_measurement() -> None:
    """A search player reads a preset's spread (over any number of rounds) from the table rather
    than measuring it at its first decision, outside its time cap; the table is the measurement,
    and a profile with a switch changed is still measured."""
    from koikoi_p2p.ai.utility import PRESET_SPREADS, measure_spread, spread

    assert set(PRESET_SPREADS) == set(PRESETS)
    for name, profile in PRESETS.items():
        assert measure_spread(profile) == PRESET_SPREADS[name], name
        assert spread(replace(profile, rounds=2)) == PRESET_SPREADS[name], name
    changed = replace(PRESETS["nintendo"], koikoi_multiplier="none")
    assert spread(changed) == measure_spread(changed) != PRESET_SPREADS["nintendo"]

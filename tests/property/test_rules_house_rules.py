"""Random games with each house-rule switch on (issue 17): invariants plus what each switch promises.

Every round is played by ``play_checked`` (no card lost, legal actions only, exact replay) under a
preset with one switch set; the result is then held to the switch's own rule, scored again by the
independent plain scorer of test_rules_plain_scorer where the switch changes scoring.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.rules.actions import KOIKOI, STOP, Action
from koikoi_p2p.rules.cards import BRIGHTS, CARDS, RAIN_MAN, SAKE_CUP
from koikoi_p2p.rules.deal import choose_first_dealer
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import PRESETS, Profile, preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundResult, RoundState
from koikoi_p2p.rules.scoring import scorer
from koikoi_p2p.rules.simulate import arranged_deck, play_round, random_chooser
from tests.property import test_rules_plain_scorer as plain_scorer_tests
from tests.property.test_rules_games import play_checked
from tests.property.test_rules_plain_scorer import plain_round_score, plain_score
from tests.unit import test_rules_issue28_switches as issue28_tests

IDS = [c.id for c in CARDS]
WILLOW = ("11-rainman", "11-swallow", "11-ribbon", "11-lightning")
PAULOWNIA = ("12-phoenix", "12-plain1", "12-plain2", "12-plain3")
ROUNDS_PER_EXAMPLE = 12
presets = st.sampled_from(list(PRESETS))
seeds = st.integers(0, 2**32 - 1)


def ids_of(mask: int) -> set[str]:
    return {IDS[c] for c in range(48) if mask >> c & 1}


def pile_win(result: RoundResult) -> bool:
    return result.winner is not None and result.reason in ("stop", "auto_end", "exhaustion")


def rounds(profile: Profile, seed: int) -> list[RoundState]:
    rng = random.Random(seed)
    return [play_checked(profile, rng, call_bias=i % 2 == 0) for i in range(ROUNDS_PER_EXAMPLE)]


def check_scored_by_plain_scorer(state: RoundState) -> None:
    """The winner's yaku and points are what the independent scorer says (scoring switches)."""
    r = state.result
    assert r is not None
    rules = state.profile.to_dict()
    for seat in (0, 1):
        pile = state.piles[seat]
        called = seat in state.calls  # the holder's own call (viewing_by_call, spec/rules.md §6.4)
        plain = plain_score(ids_of(pile), rules, state.month, called)
        assert scorer(state.profile).yaku(pile, state.month, called) == plain
    if pile_win(r):
        assert r.winner is not None
        assert r.yaku == plain_score(ids_of(state.piles[r.winner]), rules, state.month, r.winner in r.calls)
        assert r.points == plain_round_score(r.base, list(r.calls), r.winner, rules)


def with_switch(name: str, changes: dict[str, object]) -> Profile:
    profile = preset(name)
    if changes.get("cup_either"):
        profile = profile.with_switches(cup_is_plain=False)
    if changes.get("subtract_from_opponent"):
        profile = profile.with_switches(pool_start=0, transfer_cap=False, bust_ends_game=False)
    return profile.with_switches(name="custom", **changes)


@given(presets, seeds, st.sampled_from([("11-rainman",), WILLOW, PAULOWNIA]), st.booleans())
def test_viewing_cancelled_by_rain_or_paulownia(name: str, seed: int, cards: tuple[str, ...],
                                                 moon: bool) -> None:
    key = "tsukimi_cancelled_by" if moon else "hanami_cancelled_by"
    profile = with_switch(name, {key: cards})
    cancel = sum(1 << IDS.index(c) for c in cards)
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        for pile in state.piles:
            if pile & cancel:
                assert ("tsukimi" if moon else "hanami") not in scorer(profile).yaku(pile, state.month)


@given(presets, seeds)
def test_cup_is_an_animal_or_a_plain_never_both(name: str, seed: int) -> None:
    profile = with_switch(name, {"cup_either": True})
    as_animal = profile.with_switches(cup_either=False)
    as_both = as_animal.with_switches(cup_is_plain=True)
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        for pile in state.piles:
            base = scorer(profile).base(pile, state.month)
            assert base >= scorer(as_animal).base(pile, state.month)
            if pile & SAKE_CUP and not profile.joker_card:
                # never more than counting it in both classes at once (which the rule forbids)
                assert base <= scorer(as_both).base(pile, state.month)


@given(presets, seeds, st.booleans())
def test_bright_yaku_add_up(name: str, seed: int, with_rain: bool) -> None:
    profile = with_switch(name, {"brights_add": True, "sanko_with_rain": with_rain})
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        for pile in state.piles:
            yaku = scorer(profile).yaku(pile, state.month)
            if "goko" in yaku:
                assert {"shiko", "ame_shiko", "sanko"} <= set(yaku)
            if "shiko" in yaku:
                assert "sanko" in yaku


@given(presets, seeds)
def test_rain_man_counts_toward_sanko(name: str, seed: int) -> None:
    profile = with_switch(name, {"sanko_with_rain": True})
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        for pile in state.piles:
            if (pile & BRIGHTS).bit_count() == 3 and pile & RAIN_MAN:
                assert "sanko" in scorer(profile).yaku(pile, state.month)


@given(presets, seeds)
def test_only_the_single_highest_yaku_counts(name: str, seed: int) -> None:
    profile = with_switch(name, {"single_yaku": True})
    full = profile.with_switches(single_yaku=False)
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        r = state.result
        assert r is not None
        if pile_win(r):
            assert len(r.yaku) == 1
        for pile in state.piles:
            yaku = scorer(profile).yaku(pile, state.month)
            assert len(yaku) <= 1
            if not profile.joker_card:
                everything = scorer(full).yaku(pile, state.month)
                assert sum(yaku.values()) == max(everything.values(), default=0)


@given(presets, seeds)
def test_only_the_highest_of_a_yaku_and_its_extensions_counts(name: str, seed: int) -> None:
    """single_yaku_scope = extensions (spec/rules.md §6.9): the cut map lies between the pile's one
    yaku and the full map, and holds no two related yaku."""
    profile = with_switch(name, {"single_yaku": True, "single_yaku_scope": "extensions"})
    one = profile.with_switches(single_yaku_scope="pile")
    full = one.with_switches(single_yaku=False)
    related = [{"inoshikacho", "tane"}, {"akatan", "tan"}, {"aotan", "tan"}, {"akatan_aotan", "tan"},
               {"akatan", "akatan_aotan"}, {"aotan", "akatan_aotan"}]
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        for seat, pile in enumerate(state.piles):
            called = seat in state.calls
            yaku = scorer(profile).yaku(pile, state.month, called)
            assert not any(pair <= set(yaku) for pair in related)
            assert len(set(yaku) & {"goko", "shiko", "ame_shiko", "sanko"}) <= 1
            if not profile.joker_card:
                assert scorer(one).yaku(pile, state.month, called).items() <= yaku.items()
                assert yaku.items() <= scorer(full).yaku(pile, state.month, called).items()


@given(presets, seeds, st.integers(1, 3))
def test_call_limit_per_player(name: str, seed: int, limit: int) -> None:
    """Each seat may call ``limit`` times, whatever the other did; KoiKoi is offered exactly then."""
    profile = with_switch(name, {"call_limit": "per_seat", "max_calls_per_round": limit,
                                 "after_call": "shobu_only"})
    rng = random.Random(seed)
    for _ in range(ROUNDS_PER_EXAMPLE):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=profile, dealer=rng.randrange(2), viewer=None, round_index=1, month=1)
        while state.result is None:
            need = state.need
            if isinstance(need, NeedReveal):
                for pos in need.positions:
                    state.reveal(pos, deck[pos])
                continue
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            action: Action
            if need.kind == "decide":
                last_turn = (profile.last_turn_stop_only and not (state.hands[0] | state.hands[1])) or (
                    profile.stop_on_own_last_turn and not state.hands[need.seat])  # koikoi-japan, §9.4
                assert (KOIKOI in options) == (state.calls.count(need.seat) < limit and not last_turn)
                action = KOIKOI if KOIKOI in options and rng.random() < 0.8 else STOP
            else:
                action = options[rng.randrange(len(options))]
            state.apply(need.seat, action)
        assert state.calls.count(0) <= limit and state.calls.count(1) <= limit


@given(presets, seeds, st.sampled_from(["times_calls", "doubled_per_call"]))
def test_the_multiplied_player_pays_more(name: str, seed: int, mode: str) -> None:
    # koikoi_bonus (koikoi-japan) adds after this factor (spec/rules.md §7.5): off here, so the
    # factor is the whole difference
    profile = with_switch(name, {"caller_pays_more": mode, "koikoi_bonus": "off"})
    plain = profile.with_switches(caller_pays_more="off")
    for state in rounds(profile, seed):
        check_scored_by_plain_scorer(state)
        r = state.result
        assert r is not None
        if pile_win(r):
            assert r.winner is not None
            c = sum(1 for seat in r.calls if seat != r.winner)
            factor = (c or 1) if mode == "times_calls" else 2 ** c
            assert r.points == factor * plain_round_score(r.base, list(r.calls), r.winner, plain.to_dict())


@given(presets, seeds)
def test_points_come_off_the_opponent(name: str, seed: int) -> None:
    profile = with_switch(name, {"subtract_from_opponent": True, "rounds": 6, "target_score": 0})
    rng = random.Random(seed)
    match = MatchState(profile, rng.randrange(2))
    played = 0
    while not match.over and played < 40:
        state = match.new_round(None)
        deck = list(range(48))
        rng.shuffle(deck)
        before = match.scores
        play_round(state, deck, random_chooser(rng))
        assert state.result is not None
        match.record(state.result)
        played += 1
        assert sum(match.scores) == 0
        r = state.result
        if r.winner is not None:
            assert match.scores[r.winner] - before[r.winner] == r.points
            assert before[1 - r.winner] - match.scores[1 - r.winner] == r.points


@given(st.sampled_from(list(PRESETS)), st.lists(st.integers(1, 12), min_size=4, max_size=4, unique=True),
       st.lists(st.sampled_from([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]), min_size=4, max_size=4),
       st.integers(0, 1), seeds)
def test_a_field_of_four_pairs_is_dealt_again(name: str, months: list[int], picks: list[tuple[int, int]],
                                              dealer: int, seed: int) -> None:
    field = []
    for month, (a, b) in zip(months, picks, strict=True):
        cards = [c.index for c in CARDS if c.month == month]
        field += [cards[a], cards[b]]
    deck = arranged_deck(dealer, [[], []], field)
    profile = with_switch(name, {"field_four_pairs": "redeal"})
    state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=1)
    play_round(state, deck, random_chooser(random.Random(seed)))
    assert state.result is not None
    assert state.result.redeal and state.result.reason == "field_pairs"
    assert state.result.next_dealer == dealer
    assert state.result.consumes_round == profile.redeal_consumes_round
    # and without the switch that field is played
    other = RoundState(profile=preset(name), dealer=dealer, viewer=None, round_index=1, month=1)
    play_round(other, deck, random_chooser(random.Random(seed)))
    assert other.result is not None and other.result.reason != "field_pairs"


@given(st.sampled_from(["wikipedia", "classic-variant"]), seeds,
       st.sampled_from([{"teshi": 6, "kuttsuki": 6}, {"tenho": 6}]))
def test_instant_wins_on_the_deal_where_a_preset_lacks_them(name: str, seed: int,
                                                             hand_yaku: dict[str, int]) -> None:
    profile = with_switch(name, {"hand_yaku": hand_yaku})
    rng = random.Random(seed)
    for _ in range(ROUNDS_PER_EXAMPLE):
        state = play_checked(profile, rng, call_bias=False)
        r = state.result
        assert r is not None
        if r.reason == "hand_yaku":
            assert r.points == 6 and r.calls == () and set(r.yaku) <= set(hand_yaku)


# -- the first dealer ------------------------------------------------------------------------------

def draw_to_the_end(profile: Profile, deck: list[int]) -> tuple[int, int]:
    """(dealer, cards used), feeding the function exactly the positions it asks for, in order."""
    revealed: list[int] = []
    step = choose_first_dealer(profile, revealed)
    while step.dealer is None:
        assert step.need == tuple(range(len(revealed), len(revealed) + len(step.need)))
        revealed += [deck[p] for p in step.need]
        step = choose_first_dealer(profile, revealed)
    assert step.need == ()
    return step.dealer, len(revealed)


@given(st.permutations(range(48)), st.sampled_from(list(PRESETS)))
def test_the_coin_is_the_parity_of_position_0(deck: list[int], name: str) -> None:
    profile = with_switch(name, {"first_dealer": "coin"})
    assert draw_to_the_end(profile, deck) == (deck[0] % 2, 1)


def test_the_coin_is_exactly_fair() -> None:
    """Of the 48 equally likely cards at position 0, exactly 24 make each seat the dealer."""
    profile = with_switch("nintendo", {"first_dealer": "coin"})
    seats = [choose_first_dealer(profile, [c]).dealer for c in range(48)]
    assert seats.count(0) == seats.count(1) == 24


@given(st.permutations(range(48)), st.sampled_from(["nintendo", "teaching-card"]))
def test_the_card_draw_treats_both_seats_alike(deck: list[int], name: str) -> None:
    """Swapping the two cards of every pair swaps the dealer (spec/rules.md §5.1's fairness)."""
    profile = preset(name)
    dealer, used = draw_to_the_end(profile, deck)
    swapped = [deck[i ^ 1] for i in range(48)]
    other, used_swapped = draw_to_the_end(profile, swapped)
    assert used == used_swapped
    if used < 48:
        assert other == 1 - dealer
        k = used // 2 - 1
        month = (CARDS[deck[2 * k]].month, CARDS[deck[2 * k + 1]].month)
        assert dealer == (0 if month[0] < month[1] else 1) or month[0] == month[1]


def test_every_pair_tied_falls_back_on_the_coin() -> None:
    profile = preset("teaching-card")
    for deck in ([1, 0, *range(2, 48)], list(range(48))):
        assert draw_to_the_end(profile, deck) == (deck[0] % 2, 48)


@given(st.sampled_from(["host", "joiner"]), st.sampled_from(list(PRESETS)))
def test_host_or_joiner_need_no_card(method: str, name: str) -> None:
    profile = with_switch(name, {"first_dealer": method})
    step = choose_first_dealer(profile, [])
    assert (step.dealer, step.need) == (0 if method == "host" else 1, ())


EXTENSION_TESTS: dict[str, Callable[..., None]] = {
    "hanami_cancelled_by": test_viewing_cancelled_by_rain_or_paulownia,
    "tsukimi_cancelled_by": test_viewing_cancelled_by_rain_or_paulownia,
    "cup_either": test_cup_is_an_animal_or_a_plain_never_both,
    "brights_add": test_bright_yaku_add_up,
    "sanko_with_rain": test_rain_man_counts_toward_sanko,
    "single_yaku": test_only_the_single_highest_yaku_counts,
    "single_yaku_scope": test_only_the_highest_of_a_yaku_and_its_extensions_counts,
    "call_limit": test_call_limit_per_player,
    "caller_pays_more": test_the_multiplied_player_pays_more,
    "subtract_from_opponent": test_points_come_off_the_opponent,
    "field_four_pairs": test_a_field_of_four_pairs_is_dealt_again,
    "first_dealer": test_the_coin_is_the_parity_of_position_0,
    # issue 28: their tests live beside the plain scorer and the round tests (module attributes,
    # so that pytest does not collect them here a second time)
    "viewing_by_call": plain_scorer_tests.test_viewing_by_call_matches_plain_scorer_after_a_call,
    "koikoi_bonus": plain_scorer_tests.test_round_score_matches_plain_model,
    "akatan_aotan_on_top": plain_scorer_tests.test_engine_matches_plain_scorer_on_every_key_subset,
    "stop_on_own_last_turn": issue28_tests.test_stop_only_on_a_seats_own_last_turn,
    "hand_whole_month": issue28_tests.test_a_hand_holding_a_whole_month_must_be_claimed_and_is_dealt_again,
}


def test_every_extension_switch_has_a_property_test() -> None:
    from koikoi_p2p.rules.profile import EXTENSION_DEFAULTS

    assert set(EXTENSION_TESTS) == set(EXTENSION_DEFAULTS)

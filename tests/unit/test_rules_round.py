# ruff: noqa: E501  (card lists of fixed deals read best one per line)
"""The round state machine: deal, turns, captures, decisions, endings, hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koikoi_p2p.rules.actions import Capture, ClaimHandYaku, KoiKoi, NoHandYaku, Play, Stop
from koikoi_p2p.rules.cards import card
from koikoi_p2p.rules.deal import deal_layout, first_dealer
from koikoi_p2p.rules.errors import IllegalMove, InconsistentReveal, RulesError
from koikoi_p2p.rules.profile import PRESETS, Profile, preset
from koikoi_p2p.rules.round import Need, NeedAction, NeedReveal, RoundState
from koikoi_p2p.rules.simulate import arranged_deck, random_chooser, random_round

N, K, T = preset("nintendo"), preset("koikoi-online"), preset("teaching-card")
W, B, C = preset("wikipedia"), preset("board-game"), preset("classic-variant")


def idx(ref: str) -> int:
    return card(ref).index


def start(profile: Profile, deck: tuple[int, ...], dealer: int = 0, viewer: int | None = None,
          month: int = 1) -> RoundState:
    state = RoundState(profile=profile, dealer=dealer, viewer=viewer, round_index=1, month=month)
    feed(state, deck)
    return state


def feed(state: RoundState, deck: tuple[int, ...]) -> None:
    while isinstance(state.need, NeedReveal):
        need = state.need
        if need.to is not None and state.viewer is not None and need.to != state.viewer:
            state.skip_reveal()
            continue
        for p in need.positions:
            state.reveal(p, deck[p])


def need_now(state: RoundState) -> Need | None:
    """``state.need``, read afresh: mypy would hold ``state.need`` at the type an earlier
    ``assert state.need == NeedReveal(...)`` gave it, across the moves that change it."""
    return state.need


def pos(deck: tuple[int, ...], ref: str) -> int:
    return deck.index(idx(ref))


# A quiet deal: no hand yaku, no whole month on the field.
HAND0 = ["01-crane", "02-warbler", "03-curtain", "04-cuckoo", "05-bridge", "06-butterflies", "07-boar", "08-moon"]
HAND1 = ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese"]
FIELD = ["01-plain1", "02-plain1", "09-cup", "09-blue", "10-deer", "11-rainman", "12-phoenix", "12-plain1"]


def test_layout_and_first_dealer() -> None:
    lay = deal_layout(0)
    assert lay.hands[1][:2] == (0, 1) and lay.field[:2] == (2, 3) and lay.hands[0][:2] == (4, 5)
    assert sorted(lay.hands[0] + lay.hands[1] + lay.field + lay.stock) == list(range(48))
    assert lay.stock == tuple(range(24, 48))
    assert deal_layout(1).hands[0][:2] == (0, 1)
    assert first_dealer(idx("02-warbler"), idx("05-bridge"), N) == 0
    assert first_dealer(idx("12-phoenix"), idx("05-bridge"), N) == 1
    assert first_dealer(idx("02-warbler"), idx("02-poetry"), N) == 0  # higher class deals
    assert first_dealer(idx("02-plain1"), idx("02-plain2"), N) is None
    assert first_dealer(idx("02-warbler"), idx("02-poetry"), T) is None  # teaching: redraw ties
    with pytest.raises(RulesError):
        deal_layout(2)


def test_sequence_of_needs_and_a_simple_turn() -> None:
    deck = arranged_deck(0, [HAND0, HAND1], FIELD, ["01-plain2", "11-swallow"])
    state = RoundState(profile=N, dealer=0, viewer=None, round_index=1, month=1)
    assert need_now(state) == NeedReveal(deal_layout(0).field, None)
    for p in deal_layout(0).field:
        state.reveal(p, deck[p])
    assert need_now(state) == NeedReveal(deal_layout(0).hands[0], 0)
    feed(state, deck)
    assert need_now(state) == NeedAction(0, "hand_yaku")
    state.apply(0, NoHandYaku())
    assert need_now(state) == NeedAction(1, "hand_yaku")
    state.apply(1, NoHandYaku())
    assert need_now(state) == NeedAction(0, "play")
    crane = pos(deck, "01-crane")
    assert Play(crane) in state.legal_actions() and len(state.legal_actions()) == 8
    state.apply(0, Play(crane))
    assert need_now(state) == NeedReveal((crane,), None)
    state.reveal(crane, deck[crane])
    # the crane took the pine plain; now the first stock card is drawn publicly
    assert need_now(state) == NeedReveal((24,), None)
    state.reveal(24, deck[24])
    # 01-plain2 drawn: no pine left on the field, it stays
    assert state.field >> idx("01-plain2") & 1
    assert state.piles[0] == (1 << idx("01-crane")) | (1 << idx("01-plain1"))
    assert need_now(state) == NeedAction(1, "play")
    view = state.view(0)
    assert view.opponent_hand_size == 8 and view.stock_count == 23 and len(view.hand) == 7


def test_two_matches_choice_and_three_take_all() -> None:
    field = ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "02-poetry", "10-deer", "11-rainman", "12-phoenix"]
    hand1 = ["03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese", "09-cup", "10-blue"]
    deck = arranged_deck(0, [HAND0, hand1], field, ["05-plain1", "05-plain2"])
    state = start(N, deck)
    state.apply(0, NoHandYaku())
    state.apply(1, NoHandYaku())
    state.apply(0, Play(pos(deck, "01-crane")))
    feed(state, deck)
    assert state.need == NeedAction(0, "capture")
    assert set(state.legal_actions()) == {Capture(idx("01-plain1")), Capture(idx("01-plain2"))}
    with pytest.raises(IllegalMove) as bad:
        state.apply(0, Capture(idx("02-plain1")))
    assert bad.value.reason == "bad_capture"
    state.apply(0, Capture(idx("01-plain2")))
    feed(state, deck)  # draws 05-plain1: stays on the field
    state.apply(1, Play(pos(deck, "03-poetry")))
    feed(state, deck)
    state.apply(0, Play(pos(deck, "02-warbler")))
    feed(state, deck)
    # three plum cards on the field: the warbler takes all four
    assert state.piles[0] >> idx("02-poetry") & 1 and state.piles[0] >> idx("02-plain2") & 1
    assert not state.field & ((1 << idx("02-plain1")) | (1 << idx("02-poetry")))


def test_errors_for_bad_actions_and_reveals() -> None:
    deck = arranged_deck(0, [HAND0, HAND1], FIELD)
    state = RoundState(profile=N, dealer=0, viewer=None, round_index=1, month=1)
    with pytest.raises(IllegalMove):
        state.apply(0, NoHandYaku())
    with pytest.raises(RulesError) as unexpected:
        state.reveal(0, deck[0])  # position 0 is a hand card: not awaited yet
    assert unexpected.value.reason == "unexpected_reveal"
    with pytest.raises(InconsistentReveal):
        state.reveal(2, 99)
    state.reveal(2, deck[2])
    with pytest.raises(InconsistentReveal) as twice:
        state.reveal(3, deck[2])
    assert twice.value.reason == "card_twice"
    for p in deal_layout(0).field[1:]:
        state.reveal(p, deck[p])
    feed(state, deck)
    with pytest.raises(IllegalMove) as turn:
        state.apply(1, NoHandYaku())
    assert turn.value.reason == "not_your_turn"
    with pytest.raises(IllegalMove):
        state.apply(0, Play(0))
    state.apply(0, NoHandYaku())
    state.apply(1, NoHandYaku())
    with pytest.raises(IllegalMove) as hand:
        state.apply(0, Play(deal_layout(0).hands[1][0]))
    assert hand.value.reason == "not_in_hand"
    with pytest.raises(IllegalMove):
        state.apply(0, KoiKoi())
    with pytest.raises(RulesError):
        state.skip_reveal()
    crane = pos(deck, "01-crane")
    state.apply(0, Play(crane))
    with pytest.raises(InconsistentReveal) as mismatch:
        state.reveal(crane, idx("12-plain3"))
    assert mismatch.value.reason == "reveal_mismatch"
    with pytest.raises(RulesError):
        RoundState(profile=N, dealer=0, viewer=None, round_index=1, month=13)


def test_private_reveal_to_the_other_seat_is_skipped() -> None:
    deck = arranged_deck(0, [HAND0, HAND1], FIELD)
    s0 = RoundState(profile=N, dealer=0, viewer=0, round_index=1, month=1)
    feed(s0, deck[:24] + (-1,) * 24)  # only what seat 0 may see of the deal is used
    assert s0.need == NeedAction(0, "hand_yaku")
    assert all(s0.deck[p] == -1 for p in deal_layout(0).hands[1])
    assert all(s0.deck[p] == deck[p] for p in deal_layout(0).hands[0])
    with pytest.raises(RulesError):
        s1 = RoundState(profile=N, dealer=0, viewer=1, round_index=1, month=1)
        for p in deal_layout(0).field:
            s1.reveal(p, deck[p])
        s1.reveal(deal_layout(0).hands[0][0], deck[deal_layout(0).hands[0][0]])


def test_compulsory_capture() -> None:
    deck = arranged_deck(0, [HAND0, HAND1], FIELD)
    state = start(T, deck)
    state.apply(0, NoHandYaku())
    state.apply(1, NoHandYaku())
    legal = state.legal_actions()
    # crane, warbler match pine/plum plains; the other hand cards do not (cup/blue are September)
    assert set(legal) == {Play(pos(deck, "01-crane")), Play(pos(deck, "02-warbler"))}
    with pytest.raises(IllegalMove) as must:
        state.apply(0, Play(pos(deck, "03-curtain")))
    assert must.value.reason == "must_capture"
    free = start(N, deck)
    free.apply(0, NoHandYaku())
    free.apply(1, NoHandYaku())
    assert len(free.legal_actions()) == 8
    # the opponent's engine cannot know: it accepts the play (the audit replay catches it)
    blind = start(T, deck, viewer=1)
    blind.apply(0, NoHandYaku())
    assert blind.legal_actions() == (NoHandYaku(),)
    blind.apply(1, NoHandYaku())
    blind.apply(0, Play(pos(deck, "03-curtain")))
    blind.reveal(pos(deck, "03-curtain"), idx("03-curtain"))


def test_field_whole_month_redeal() -> None:
    field = ["01-crane", "01-poetry", "01-plain1", "01-plain2", "02-plain1", "03-plain1", "04-plain1", "05-plain1"]
    hand0 = ["02-warbler", "03-curtain", "04-cuckoo", "05-bridge", "06-butterflies", "07-boar", "08-moon", "09-cup"]
    hand1 = ["02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese", "10-deer"]
    deck = arranged_deck(1, [hand0, hand1], field)
    for profile in PRESETS.values():
        state = start(profile, deck, dealer=1)
        assert state.result is not None and state.result.redeal and state.result.reason == "field_month"
        assert state.result.next_dealer == 1
        assert state.result.consumes_round == (profile.name == "classic-variant")
    state = start(N.with_switches(field_whole_month="play_on"), deck, dealer=1)
    assert state.result is None


TESHI = ["01-crane", "01-poetry", "01-plain1", "01-plain2", "02-warbler", "03-curtain", "04-cuckoo", "05-bridge"]
KUTTSUKI = ["06-butterflies", "06-blue", "07-boar", "07-ribbon", "08-moon", "08-geese", "10-deer", "10-blue"]
QUIET_FIELD = ["02-plain1", "03-plain1", "04-plain1", "05-plain1", "09-cup", "11-rainman", "12-phoenix", "12-plain1"]
HAND1_B = ["02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese", "10-blue"]
HAND1_C = ["03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese", "10-blue", "11-swallow"]
HAND1_D = ["01-poetry", "02-poetry", "03-poetry", "05-ribbon", "06-blue", "07-ribbon", "08-geese", "10-blue"]


def test_hand_yaku_claims() -> None:
    deck = arranged_deck(0, [TESHI, HAND1_B], QUIET_FIELD)
    state = start(N, deck)
    quad = tuple(sorted(pos(deck, r) for r in TESHI[:4]))
    assert state.legal_actions() == (ClaimHandYaku("teshi", quad),)
    with pytest.raises(IllegalMove) as missed:
        state.apply(0, NoHandYaku())
    assert missed.value.reason == "missed_hand_yaku"
    state.apply(0, ClaimHandYaku("teshi", quad))
    assert state.need == NeedReveal(quad, None)
    feed(state, deck)
    state.apply(1, NoHandYaku())
    r = state.result
    assert r is not None and r.winner == 0 and r.points == 6 and r.yaku == {"teshi": 6} and r.reason == "hand_yaku"
    # a wrong claim by a hidden opponent is caught when its cards are revealed
    blind = start(N, deck, viewer=1)
    wrong = tuple(sorted(pos(deck, r) for r in TESHI[2:6]))
    blind.apply(0, ClaimHandYaku("teshi", wrong))
    with pytest.raises(IllegalMove) as false:
        feed(blind, deck)
    assert false.value.reason == "false_hand_yaku"
    assert blind.need is None and blind.result is None
    with pytest.raises(IllegalMove):
        blind.apply(1, NoHandYaku())


def test_both_hand_yaku() -> None:
    deck = arranged_deck(0, [TESHI, KUTTSUKI], QUIET_FIELD)
    quad = tuple(sorted(pos(deck, r) for r in TESHI[:4]))
    pairs = tuple(sorted(pos(deck, r) for r in KUTTSUKI))
    for profile, expected in ((N, None), (K, 0), (T, None)):
        state = start(profile, deck)
        state.apply(0, ClaimHandYaku("teshi", quad))
        feed(state, deck)
        assert state.legal_actions() == (ClaimHandYaku("kuttsuki", pairs),)
        state.apply(1, ClaimHandYaku("kuttsuki", pairs))
        feed(state, deck)
        r = state.result
        assert r is not None
        if expected is None:
            assert r.redeal and r.reason == "both_hand_yaku" and r.consumes_round is False
        else:
            assert r.winner == expected and r.points == 6
    # board game: two quads make double tenho 14
    deck2 = arranged_deck(0, [["01-crane", "01-poetry", "01-plain1", "01-plain2",
                               "02-warbler", "02-poetry", "02-plain1", "02-plain2"], HAND1_C],
                          [*QUIET_FIELD[1:], "06-plain1"])
    state = start(B, deck2)
    legal = state.legal_actions()
    assert len(legal) == 1 and isinstance(legal[0], ClaimHandYaku) and legal[0].yaku == "double_tenho"
    with pytest.raises(IllegalMove) as lesser:
        state.apply(0, ClaimHandYaku("tenho", legal[0].positions[:4]))
    assert lesser.value.reason == "lesser_hand_yaku"
    state.apply(0, legal[0])
    feed(state, deck2)
    state.apply(1, NoHandYaku())
    assert state.result is not None and state.result.points == 14


def _to_decision(profile: Profile) -> tuple[RoundState, tuple[int, ...]]:
    """Seat 0 makes sanko on its first turn: crane takes pine, the draw takes phoenix... ."""
    hand0 = ["01-crane", "12-plain2", "03-curtain", "04-cuckoo", "05-bridge", "06-butterflies", "07-boar", "02-warbler"]
    hand1 = ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "08-geese"]
    field = ["01-plain1", "08-moon", "09-blue", "10-deer", "11-rainman", "12-phoenix", "09-plain1", "10-plain1"]
    deck = arranged_deck(0, [hand0, hand1], field, ["08-plain1", "05-plain1", "06-plain1", "07-plain1"])
    state = start(profile, deck)
    if state.need == NeedAction(0, "hand_yaku"):
        state.apply(0, NoHandYaku())
        state.apply(1, NoHandYaku())
    state.apply(0, Play(pos(deck, "12-plain2")))
    feed(state, deck)  # 12-plain2 takes the phoenix; draw 08-plain1 takes the moon
    state.apply(1, Play(pos(deck, "08-geese")))
    feed(state, deck)  # geese stays (moon gone), draw 05-plain1 stays
    state.apply(0, Play(pos(deck, "01-crane")))
    feed(state, deck)  # crane takes pine plain: crane, moon, phoenix = sanko; draw 06-plain1 stays
    return state, deck


def test_decision_stop_and_koikoi() -> None:
    state, _ = _to_decision(N)
    assert state.need == NeedAction(0, "decide")
    assert set(state.legal_actions()) == {Stop(), KoiKoi()}
    state.apply(0, Stop())
    r = state.result
    assert r is not None and r.yaku == {"sanko": 5} and r.points == 5 and r.reason == "stop" and r.next_dealer == 0
    state, deck = _to_decision(N)
    state.apply(0, KoiKoi())
    assert state.calls == [0] and state.need == NeedAction(1, "play")
    clone = state.copy()
    state.apply(1, Play(pos(deck, "01-poetry")))
    assert clone.need == NeedAction(1, "play") and clone.hands != state.hands


def test_auto_end_after_a_call_in_nintendo() -> None:
    rng = random.Random(5)
    seen = 0
    for _ in range(400):
        state, _, moves = random_round(N, rng)
        r = state.result
        assert r is not None
        if r.reason == "auto_end":
            seen += 1
            assert r.calls and len(r.calls) == 1
            assert r.points == r.base * (2 if r.base >= 7 else 1) * (2 if r.calls[0] != r.winner else 1)
        # nintendo never offers a second decision after a call
        assert sum(1 for _, a in moves if isinstance(a, KoiKoi)) <= 1
    assert seen > 50


def test_exhaustion_per_profile() -> None:
    rng = random.Random(11)
    outcomes: dict[str, set[str]] = {}
    for profile in PRESETS.values():
        for _ in range(300):
            state = RoundState(profile=profile, dealer=1, viewer=None, round_index=1, month=3)
            deck = list(range(48))
            rng.shuffle(deck)
            choose = random_chooser(rng)
            while state.result is None:
                if isinstance(state.need, NeedReveal):
                    for p in state.need.positions:
                        state.reveal(p, deck[p])
                    continue
                options = state.legal_actions()
                # always call when possible, to reach exhaustion
                action = KoiKoi() if KoiKoi() in options else choose(state, options)
                assert isinstance(state.need, NeedAction)
                state.apply(state.need.seat, action)
            r = state.result
            outcomes.setdefault(profile.name, set()).add(r.reason)
            if r.reason == "exhaustion" and r.winner is None:
                assert r.points == 0
                assert r.next_dealer == (1 if profile.dealer_after_draw == "same" else 0)
            if r.reason == "oya_ken":
                assert r.winner == 1 and r.points == 1 and r.yaku == {"oya_ken": 1}
            if r.reason == "exhaustion" and r.winner is not None:
                assert profile.name == "classic-variant" and r.winner == r.calls[-1]
    assert "oya_ken" in outcomes["wikipedia"] and "exhaustion" not in outcomes["wikipedia"]
    assert "exhaustion" in outcomes["nintendo"]


def test_last_turn_offers_only_stop_in_koikoi_online() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(600):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=K, dealer=0, viewer=None, round_index=1, month=1)
        while state.result is None:
            if isinstance(state.need, NeedReveal):
                for p in state.need.positions:
                    state.reveal(p, deck[p])
                continue
            options = state.legal_actions()
            assert isinstance(state.need, NeedAction)
            if state.need.kind == "decide" and not (state.hands[0] | state.hands[1]):
                assert options == (Stop(),)
                checked += 1
            action = KoiKoi() if KoiKoi() in options else options[rng.randrange(len(options))]
            state.apply(state.need.seat, action)
    assert checked > 0


def test_month_yaku_uses_round_month() -> None:
    field = ["04-cuckoo", "04-ribbon", "04-plain1", "02-plain1", "03-plain1", "05-plain1", "09-cup", "12-plain1"]
    hand0 = ["04-plain2", "01-crane", "02-warbler", "03-curtain", "05-bridge", "06-butterflies", "07-boar", "08-moon"]
    deck = arranged_deck(0, [hand0, HAND1_D], field, ["11-lightning"])
    for month, expect_decision in ((4, True), (5, False)):
        state = start(W, deck, month=month)
        state.apply(0, Play(pos(deck, "04-plain2")))
        feed(state, deck)
        assert (state.need == NeedAction(0, "decide")) is expect_decision


def test_teaching_card_worked_example_through_the_round() -> None:
    """The teaching card's example: boar-deer-butterflies, a call, then moon viewing beats it, 5 x 2."""
    hand0 = ["10-deer", "07-boar", "04-cuckoo", "05-bridge", "11-swallow", "12-phoenix", "01-crane", "02-warbler"]
    hand1 = ["08-moon", "09-plain1", "03-curtain", "04-ribbon", "05-ribbon", "11-ribbon", "12-plain1", "01-poetry"]
    field = ["10-plain1", "08-plain1", "07-plain1", "09-cup", "06-plain1", "01-plain1", "02-plain1", "03-plain1"]
    deck = arranged_deck(0, [hand0, hand1], field, ["06-butterflies", "11-lightning", "12-plain2", "04-plain2"])
    state = start(T, deck)
    state.apply(0, NoHandYaku())
    state.apply(1, NoHandYaku())
    state.apply(0, Play(pos(deck, "10-deer")))
    feed(state, deck)  # the deer takes the maple plain, the drawn butterflies the peony plain
    state.apply(1, Play(pos(deck, "08-moon")))
    feed(state, deck)
    state.apply(0, Play(pos(deck, "07-boar")))
    feed(state, deck)
    assert state.need == NeedAction(0, "decide") and state.bases[0] == 5
    state.apply(0, KoiKoi())
    state.apply(1, Play(pos(deck, "09-plain1")))
    feed(state, deck)  # takes the cup: moon viewing ends the round at once
    r = state.result
    assert r is not None
    assert (r.winner, r.yaku, r.base, r.calls, r.points, r.reason) == (1, {"tsukimi": 5}, 5, (0,), 10, "auto_end")


def test_first_dealer_choices_and_bad_draws() -> None:
    from koikoi_p2p.rules.deal import choose_first_dealer

    coin = N.with_switches(first_dealer="coin")
    assert choose_first_dealer(coin, []).need == (0,)
    assert choose_first_dealer(coin, [idx("01-crane")]).dealer == 0
    assert choose_first_dealer(coin, [idx("01-poetry")]).dealer == 1
    assert choose_first_dealer(N, [idx("02-warbler"), idx("05-bridge")]).dealer == 0
    assert choose_first_dealer(N, [idx("02-plain1"), idx("02-plain2")]).need == (2, 3)
    assert choose_first_dealer(N.with_switches(first_dealer="joiner"), ()).dealer == 1
    for bad in ([48], [True], [1, 1], "ab", [idx("02-warbler"), idx("05-bridge"), 7]):
        with pytest.raises(RulesError) as info:
            choose_first_dealer(N, bad)  # type: ignore[arg-type]
        assert info.value.reason == "bad_draw"
    with pytest.raises(RulesError):
        choose_first_dealer(N.with_switches(first_dealer="host"), [3])


def test_a_field_of_four_pairs_redeals_only_with_the_switch() -> None:
    field = ["01-plain1", "01-plain2", "04-plain1", "04-plain2", "07-plain1", "07-plain2", "10-plain1",
             "10-plain2"]
    deck = arranged_deck(0, [[], []], field)
    state = start(N.with_switches(field_four_pairs="redeal"), deck, dealer=0)
    assert state.result is not None and state.result.reason == "field_pairs" and state.result.redeal
    assert start(N, deck, dealer=0).result is None


def test_a_field_that_is_not_four_pairs_plays_on_under_the_switch() -> None:
    """spec/rules.md §5.3: exactly two cards of each of four months; three pairs and two singles,
    or a pair among triples, is a field like any other (the switch must not widen the rule)."""
    fields = [
        ["01-plain1", "01-plain2", "04-plain1", "04-plain2", "07-plain1", "07-plain2", "10-plain1",
         "11-swallow"],
        ["01-plain1", "01-plain2", "01-crane", "04-plain1", "04-plain2", "07-plain1", "07-plain2",
         "10-plain1"],
    ]
    for field in fields:
        deck = arranged_deck(0, [[], []], field)
        assert start(N.with_switches(field_four_pairs="redeal"), deck, dealer=0).result is None, field


def test_a_caller_whose_viewing_yaku_were_cancelled_does_not_win_the_exhaustion() -> None:
    """spec/rules.md §9.6: under last_caller_scores_else_oya_ken the last caller scores at
    exhaustion only with a base above 0. Here seat 1 called on a viewing yaku, then captured a
    cancelling card (§6.4): its base is 0, so the dealer takes oya-ken (a fixed random deal)."""
    from koikoi_p2p.rules.simulate import play_round

    months = ["02-warbler", "02-poetry", "02-plain1", "02-plain2",
              "11-rainman", "11-swallow", "11-ribbon", "11-lightning"]
    profile = N.with_switches(name="t", after_call="shobu_only", max_calls_per_round=0,
                              exhaustion="last_caller_scores_else_oya_ken", oya_ken_points=1,
                              hanami_cancelled_by=tuple(months), tsukimi_cancelled_by=tuple(months))
    rng = random.Random(3528)
    deck = list(range(48))
    rng.shuffle(deck)
    state = RoundState(profile=profile, dealer=0, viewer=None, round_index=1, month=1)

    def choose(_: RoundState, options: tuple[Any, ...]) -> Any:
        calls = [o for o in options if type(o) is KoiKoi]
        return calls[0] if calls else options[rng.randrange(len(options))]

    play_round(state, deck, choose)
    result = state.result
    assert result is not None and result.calls == (1,) and state.bases[1] == 0
    assert (result.reason, result.winner, result.yaku) == ("oya_ken", 0, {"oya_ken": 1})

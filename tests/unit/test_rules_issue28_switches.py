"""The round-level switches of issue 28 (spec/rules.md §5.4, §6.4, §9.4): a hand holding a whole
month dealt again, viewing yaku valued by the holder's own call, and Stop only on a seat's own
last turn."""

from __future__ import annotations

import random

import pytest

from koikoi_p2p.rules.actions import ClaimHandYaku, KoiKoi, NoHandYaku, Stop
from koikoi_p2p.rules.errors import IllegalMove, RulesError
from koikoi_p2p.rules.profile import preset
from koikoi_p2p.rules.round import NeedAction, RoundState
from koikoi_p2p.rules.simulate import arranged_deck
from tests.unit.test_rules_round import HAND1_B, KUTTSUKI, QUIET_FIELD, TESHI, feed, pos, start

REDEAL = preset("wikipedia").with_switches(name="custom", hand_whole_month="redeal")


def test_a_hand_holding_a_whole_month_must_be_claimed_and_is_dealt_again() -> None:
    deck = arranged_deck(0, [TESHI, HAND1_B], QUIET_FIELD)
    state = start(REDEAL, deck)
    quad = tuple(sorted(pos(deck, r) for r in TESHI[:4]))
    assert state.need == NeedAction(0, "hand_yaku")
    assert state.legal_actions() == (ClaimHandYaku("teshi", quad),)
    with pytest.raises(IllegalMove) as missed:
        state.copy().apply(0, NoHandYaku())
    assert missed.value.reason == "missed_hand_yaku"
    state.apply(0, ClaimHandYaku("teshi", quad))
    feed(state, deck)
    assert state.legal_actions() == (NoHandYaku(),)
    state.apply(1, NoHandYaku())
    r = state.result
    assert r is not None and r.redeal and r.reason == "hand_month" and r.winner is None
    assert r.points == 0 and r.next_dealer == 0 and not r.consumes_round
    # without the switch the same deal is played (wikipedia has no hand yaku)
    plain = start(preset("wikipedia"), deck)
    assert plain.need == NeedAction(0, "play")


def test_the_redeal_outranks_kuttsuki_and_a_hand_without_a_month_plays_on() -> None:
    profile = REDEAL.with_switches(hand_yaku={"kuttsuki": 6})
    deck = arranged_deck(0, [KUTTSUKI, TESHI], QUIET_FIELD)
    state = start(profile, deck)
    state.apply(0, state.legal_actions()[0])  # kuttsuki
    feed(state, deck)
    state.apply(1, state.legal_actions()[0])  # the redeal claim
    feed(state, deck)
    assert state.result is not None and state.result.reason == "hand_month"
    mixed = ["01-crane", "02-warbler", "03-curtain", "04-cuckoo", "05-bridge", "11-swallow", "11-ribbon",
             "12-plain2"]
    quiet = start(REDEAL, arranged_deck(0, [mixed, KUTTSUKI], QUIET_FIELD))
    quiet.apply(0, NoHandYaku())
    quiet.apply(1, NoHandYaku())
    assert quiet.need == NeedAction(0, "play")


def test_the_redeal_refuses_hand_yaku_that_show_a_whole_month() -> None:
    for hand_yaku in ({"teshi": 6}, {"tenho": 6}, {"double_tenho": 14}):
        with pytest.raises(RulesError) as bad:
            REDEAL.with_switches(hand_yaku=hand_yaku)
        assert bad.value.reason == "bad_switch"


def _play_out(profile_changes: dict[str, object], seed: int, call: bool) -> list[tuple[RoundState, int]]:
    """Random full rounds; the decisions met, as (state before deciding, seat)."""
    profile = preset("wikipedia").with_switches(name="custom", **profile_changes)
    rng = random.Random(seed)
    met: list[tuple[RoundState, int]] = []
    for _ in range(40):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=profile, dealer=rng.randrange(2), viewer=None, round_index=1, month=1)
        feed(state, tuple(deck))
        while state.result is None:
            need = state.need
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            if need.kind == "decide":
                met.append((state.copy(), need.seat))
            action = KoiKoi() if call and KoiKoi() in options else options[rng.randrange(len(options))]
            state.apply(need.seat, action)
            feed(state, tuple(deck))
    return met


def test_stop_only_on_a_seats_own_last_turn() -> None:
    met = _play_out({"stop_on_own_last_turn": True}, 28, call=True)
    last = [(s, seat) for s, seat in met if not s.hands[seat]]
    assert last, "no decision on a last turn in these rounds"
    assert any(s.hands[1 - seat] for s, seat in last), "no decision on turn 15"
    for state, seat in met:
        if state.hands[seat]:
            assert KoiKoi() in state.legal_actions()
        else:
            assert state.legal_actions() == (Stop(),)
            with pytest.raises(IllegalMove) as refused:
                state.copy().apply(seat, KoiKoi())
            assert refused.value.reason == "no_call_left"
    # without the switch, the same decisions all offer a call
    for state, _seat in _play_out({}, 28, call=True):
        assert KoiKoi() in state.legal_actions()


def test_viewing_by_call_the_call_itself_is_not_an_improvement() -> None:
    """After a call the viewing yaku are worth 3, and that rise is recorded at once (§6.4)."""
    seen = 0
    for state, seat in _play_out({"viewing_by_call": True, "viewing": "always"}, 7, call=True):
        yaku = state.view(seat).yaku[seat]
        if not {"hanami", "tsukimi"} & set(yaku):
            continue
        worth = 3 if seat in state.calls else 1
        assert all(yaku[k] == worth for k in ("hanami", "tsukimi") if k in yaku)
        if seat not in state.calls:
            after = state.copy()
            after.apply(seat, KoiKoi())
            viewing = sum(1 for k in ("hanami", "tsukimi") if k in yaku)
            assert after.bases[seat] == state.bases[seat] + 2 * viewing
            seen += 1
    assert seen


def test_koikoi_japan_exhaustion_pays_the_dealer_and_a_pool_below_0_ends_the_match() -> None:
    """koikoi-japan (issue 28 §2): an exhausted round gives the dealer 1 even after calls, the
    dealer keeps the deal, and the loser pays without a cap until a pool is at 0 or less."""
    from koikoi_p2p.rules.match import MatchState
    from koikoi_p2p.rules.round import RoundResult

    japan = preset("koikoi-japan")
    rng = random.Random(8)
    exhausted = 0
    for _ in range(60):
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=japan, dealer=1, viewer=None, round_index=1, month=1)
        feed(state, tuple(deck))
        while state.result is None:
            need = state.need
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            state.apply(need.seat, KoiKoi() if KoiKoi() in options else options[0])
            feed(state, tuple(deck))
        r = state.result
        if r.reason == "oya_ken":
            assert r.winner == 1 and r.points == 1 and r.next_dealer == 1
            exhausted += bool(r.calls)  # calls were made (every decision called): the dealer is paid anyway
    assert exhausted
    match = MatchState(japan, 0)
    match.record(RoundResult(winner=1, points=25, yaku={"goko": 10}, base=10, calls=(1,) * 6, redeal=False,
                             next_dealer=1, reason="stop"))
    assert match.scores == (5, 55) and not match.over
    match.record(RoundResult(winner=1, points=7, yaku={"tane": 1}, base=1, calls=(1,) * 6, redeal=False,
                             next_dealer=1, reason="stop"))
    # One comparison: mypy keeps `over` narrowed to False by the assert above across record().
    assert (match.scores, match.over, match.winner) == ((-2, 62), True, 1)

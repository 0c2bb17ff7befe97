"""The rare paths of the version-2 flow, played on purpose over transparent decks (spec/game.md §4-§6).

Each test chooses the cards of the decks, plays both seats and an auditor through the real state
machine, and checks the exact message sequence, the round trips it costs, and that the three
machines agree on every expectation and deadline at every step.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.trips import trip_report
from koikoi_p2p.rules.deal import deal_layout
from koikoi_p2p.rules.profile import preset
from tests.protocol.flow_harness import FlowMatch, deck_with, quiet_deck

# Card indices (spec/rules.md §2): month m's cards are 4(m-1) .. 4(m-1)+3.
PINE, PLUM = 0, 4


def _trips(match: FlowMatch) -> Any:
    envs = [SimpleNamespace(sender=s.sender, type=s.type, body=s.body) for s in match.sent]
    return trip_report(envs)  # type: ignore[arg-type]


def _seat0_deals(deal: int) -> list[int]:
    # Deal 0: seat 0 draws a pine, seat 1 a plum: the earlier month deals.
    return deck_with({0: PINE, 1: PLUM}) if deal == 0 else quiet_deck()


def test_a_plain_match_and_every_deadline_of_the_way() -> None:
    match = FlowMatch(preset("wikipedia").with_switches(rounds=2), _seat0_deals)
    deadlines = []
    while match.flows[0].phase.value != "done":
        _, expected = match.expectations_agree()
        primary = match.flows[0].primary
        deadlines.append((expected, match.flows[0].waiting_for()[2], primary))  # type: ignore[index]
        match.step()
    for expected, seconds, primary in deadlines:
        person = expected in (m.ACT, m.ACCEPT) or primary[1] == m.ACT
        assert seconds == (300 if person else 60), (expected, primary)
    trips = _trips(match)
    assert trips.closings == (1, 1)
    assert all(setup <= 1 for setup in trips.setups)


def test_a_deal_won_by_a_hand_yaku_prepares_the_next_deck_at_its_close() -> None:
    """No person acts in a deal won by its dealt hand, so nothing carried the next deal's keys
    and shuffles: they are done at the close (spec/game.md §5.3), in a fixed order."""
    dealer_hand = deal_layout(0).hands[0]
    quad = {dealer_hand[i]: PINE + i for i in range(4)}          # teshi in seat 0's hand

    def decks(deal: int) -> list[int]:
        return _seat0_deals(0) if deal == 0 else quiet_deck(quad) if deal == 1 else quiet_deck()

    match = FlowMatch(preset("nintendo").with_switches(rounds=2), decks).play()
    kinds = match.kinds()
    first_disclose = next(i for i, s in enumerate(match.sent) if s.type == m.DISCLOSE)
    # Deal 1: the opening, both declarations (seat 0 claims teshi and wins at once), no act.
    declares = [s for s in match.sent[:first_disclose] if s.type == m.DECLARE]
    assert [d.body["action"]["type"] for d in declares if d.sender == 0] == ["claim_hand_yaku"]
    assert not any(s.type == m.ACT for s in match.sent[:first_disclose])
    ender = match.sent[first_disclose - 1].sender
    other = 1 - ender
    assert ender == 0                 # the dealer declares first; seat 0's claim is the last word
    # Deck 2's keys travelled at the start (keys go two deals ahead). The close: the ender's key
    # of deck 3 and its disclose; the other's first shuffle of deck 2 (F(2) = 1), its key of deck
    # 3, its disclose; then the second shuffle in the foreground, and the opening of deal 2 by
    # reveals, the last shuffler first.
    assert kinds[first_disclose - 2:first_disclose + 6] == [
        (ender, m.DECLARE), (ender, m.KEY), (ender, m.DISCLOSE), (other, m.SHUFFLE), (other, m.KEY),
        (other, m.DISCLOSE), (ender, m.SHUFFLE), (ender, m.REVEAL)]
    assert [s.body["deal"] for s in match.sent if s.type == m.KEY][:6] == [0, 1, 2, 0, 1, 2]
    assert not any(s.body["shares"] for s in match.sent if s.type == m.DISCLOSE and s.body["deal"] == 1)
    opening = [s for s in match.sent[first_disclose:] if s.type == m.REVEAL][:2]
    assert [(s.sender, len(s.body["shares"])) for s in opening] == [(ender, 2), (other, 2)]
    trips = _trips(match)
    assert trips.closings[0] == 1
    assert 2 <= trips.setups[0] <= 3          # the late preparation: at most 1.5 round trips
    assert match.flows[2].history[0] == (1, 0, 6)


def test_a_field_of_one_month_voids_the_deal_at_its_opening() -> None:
    field = deal_layout(0).field
    month = {field[i]: PLUM + i for i in range(4)}

    def decks(deal: int) -> list[int]:
        return _seat0_deals(0) if deal == 0 else deck_with(month) if deal == 1 else quiet_deck()

    match = FlowMatch(preset("wikipedia").with_switches(rounds=1), decks).play()
    results = [s.body["result"] for s in match.sent if s.type == m.ROUND_SIGN]
    assert results[0]["reason"] == "field_month" and results[0]["redeal"]
    # The void deal ends with the second opening payer's message; the redeal is deal 2, same round.
    assert {s.body["deal"] for s in match.sent if s.type == m.DISCLOSE} == {1, 2}
    assert match.flows[2].history[0][0] == 1


def test_a_tied_draw_reveals_the_next_pair() -> None:
    def decks(deal: int) -> list[int]:
        # Pair 0: two pines of the same class (plains): teaching-card redraws; pair 1 decides.
        return deck_with({0: PINE + 2, 1: PINE + 3, 2: PLUM, 3: PINE}) if deal == 0 else quiet_deck()

    match = FlowMatch(preset("teaching-card").with_switches(rounds=1), decks).play()
    reveals = [s for s in match.sent if s.type == m.REVEAL][:3]
    assert [g[0] for g in reveals[0].body["shares"]] == [[0, 1]]
    assert [g[0] for g in reveals[1].body["shares"]][:2] == [[0, 1], [2, 3]]
    assert match.flows[2].match is not None and match.flows[2].match.first_dealer == 1


@pytest.mark.parametrize(("rule", "dealer"), [("host", 0), ("joiner", 1), ("coin", None)])
def test_first_dealer_rules(rule: str, dealer: int | None) -> None:
    """The profile's first_dealer switch (spec/rules.md §5.1). Host and joiner: no deal 0 at all,
    deck 1 is the first (seat 1 shuffles it first). The coin: one public card of deal 0 (an even
    index: seat 0 deals)."""
    def decks(deal: int) -> list[int]:
        return deck_with({0: 7}) if deal == 0 else quiet_deck()   # card 7: odd, seat 1 deals

    profile = preset("wikipedia").with_switches(rounds=1, first_dealer=rule, name="house")
    match = FlowMatch(profile, decks).play()
    kinds = match.kinds()
    if dealer is not None:
        assert kinds[:8] == [(0, m.TERMS), (0, m.KEY), (0, m.KEY), (1, m.ACCEPT), (1, m.KEY), (1, m.SHUFFLE),
                             (1, m.KEY), (0, m.SHUFFLE)]
        assert not any(s.body.get("deal") == 0 for s in match.sent)
        assert match.flows[2].match is not None and match.flows[2].match.first_dealer == dealer
    else:
        first = next(s for s in match.sent if s.type == m.REVEAL)
        assert [g[0] for g in first.body["shares"]] == [[0]]
        assert match.flows[2].match is not None and match.flows[2].match.first_dealer == 1
    assert _trips(match).by_phase["start"] <= 5


def test_a_resignation_ends_in_a_result_naming_the_other_seat() -> None:
    asked: list[int] = []

    def resign(flow: Any, seat: int) -> bool:
        asked.append(seat)
        return flow.deal == 2 and seat == 1

    match = FlowMatch(preset("wikipedia").with_switches(rounds=3), _seat0_deals, resign_at=resign).play()
    resign_msg = next(s for s in match.sent if s.type == m.RESIGN)
    assert resign_msg.sender == 1 and match.sent[-1].type == m.MATCH_SIGN
    auditor = match.flows[2]
    assert auditor.resigned == (1, resign_msg.seq)
    assert auditor.match_result is not None
    assert auditor.match_result.winner == 0 and auditor.match_result.resigned == 1
    assert len(auditor.match_result.rounds) == 1      # deal 1 scored; deal 2 was interrupted
    # Owed countersignatures go out before the match is signed.
    signs = [s for s in match.sent if s.type == m.ROUND_SIGN and s.body["deal"] == 1]
    assert sorted(s.sender for s in signs) == [0, 1]

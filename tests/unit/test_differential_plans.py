"""Every plan of the differential campaign (``koikoi bench differential``) describes a profile the
rules accept: a plan the rules refuse stopped the campaign at its ninth match, a koikoi-japan match
whose forced deal asked for teshi beside that preset's whole-month redeal."""

from __future__ import annotations

from koikoi_p2p.bench.differential import plan


def test_the_first_thousand_plans_of_seed_1_are_playable() -> None:
    scenarios = set()
    for index in range(1000):
        p = plan(1, index)
        p.profile()    # raises RulesError for a refused switch set
        scenarios.add((p.rules, p.scenario))
    # The preset that redeals a whole-month hand still meets the forced whole-month hand.
    assert ("koikoi-japan", "teshi_non_dealer") in scenarios

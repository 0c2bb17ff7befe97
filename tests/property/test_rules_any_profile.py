"""Any valid combination of switches, not just the presets: encoding round-trips, rounds stay sound."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.rules.profile import HAND_YAKU_IDS, SWITCH_CHOICES, Profile, preset
from koikoi_p2p.rules.scoring import scorer
from tests.property.test_rules_games import play_checked


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    changes: dict[str, object] = {
        key: draw(st.sampled_from(choices)) for key, choices in SWITCH_CHOICES.items()
    }
    changes["name"] = draw(st.sampled_from(["custom", "room-1", "x_y"]))
    changes["bright_values"] = draw(st.tuples(*[st.integers(1, 20)] * 4))
    for key in ("named_extension", "tane_with_inoshikacho", "tan_with_ribbon_yaku", "cup_is_plain",
                "last_turn_stop_only", "redeal_consumes_round", "brights_add", "sanko_with_rain",
                "single_yaku"):
        changes[key] = draw(st.booleans())
    changes["cup_either"] = not changes["cup_is_plain"] and draw(st.booleans())
    if not changes["single_yaku"]:  # the source's reading of single_yaku needs single_yaku (§3.2)
        changes["single_yaku_scope"] = "pile"
    cancel = st.sampled_from([(), ("11-rainman",), ("11-rainman", "11-swallow", "11-ribbon", "11-lightning"),
                              ("12-phoenix", "12-plain1", "12-plain2", "12-plain3")])
    changes["hanami_cancelled_by"] = draw(cancel)
    changes["tsukimi_cancelled_by"] = draw(cancel)
    changes["joker_card"] = draw(st.sampled_from(["", "05-bridge", "02-warbler", "07-boar"]))
    changes["monthly_yaku_points"] = draw(st.integers(0, 6))
    changes["double_threshold"] = draw(st.sampled_from([0, 5, 7, 8]))
    changes["max_calls_per_round"] = draw(st.integers(0, 3))
    changes["oya_ken_points"] = draw(st.integers(1, 3))
    chosen = draw(st.lists(st.sampled_from(HAND_YAKU_IDS), unique=True, max_size=4))
    if changes.get("hand_whole_month") == "redeal":  # a whole month in hand is dealt again, not a yaku
        chosen = [k for k in chosen if k not in ("teshi", "tenho", "double_tenho")]
    changes["hand_yaku"] = {k: draw(st.integers(1, 20)) for k in chosen}
    pool = draw(st.sampled_from([0, 0, 25, 50]))
    changes["pool_start"] = pool
    changes["transfer_cap"] = bool(pool) and draw(st.booleans())
    changes["bust_ends_game"] = bool(pool) and draw(st.booleans())
    changes["subtract_from_opponent"] = not pool and draw(st.booleans())
    changes["rounds"] = draw(st.integers(1, 12))
    changes["target_score"] = draw(st.sampled_from([0, 30, 50]))
    return preset("nintendo").with_switches(**changes)


@given(profiles())
def test_encoding_round_trips(profile: Profile) -> None:
    assert Profile.decode(profile.encode()) == profile
    assert Profile.from_dict(profile.to_dict()) == profile


@given(profiles(), st.integers(0, 2**32 - 1))
def test_rounds_under_any_profile_keep_invariants(profile: Profile, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(25):
        play_checked(profile, rng, call_bias=i % 2 == 0)


@given(profiles(), st.lists(st.integers(0, 47), unique=True, max_size=48), st.integers(1, 12))
def test_fast_base_equals_reported_yaku(profile: Profile, cards: list[int], month: int) -> None:
    s = scorer(profile)
    mask = sum(1 << c for c in cards)
    assert s.base(mask, month) == sum(s.yaku(mask, month).values())

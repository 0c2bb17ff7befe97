"""spec/vectors/rules/switches.json: the house-rule switches, re-checked against the engine.

Every case names the switch it exercises and, in ``without``, switch values that remove its
effect: each such case must come out differently with them applied, so an engine that ignored the
switch would fail it. Scoring cases are also checked against the independent plain scorer.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.rules.actions import action_from_dict
from koikoi_p2p.rules.cards import card
from koikoi_p2p.rules.deal import choose_first_dealer
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import EXTENSION_DEFAULTS, PRESETS, Profile, differences, nearest_preset, preset
from koikoi_p2p.rules.round import NeedReveal, RoundResult, RoundState
from koikoi_p2p.rules.scoring import round_score, score_yaku
from tests.property.test_rules_plain_scorer import plain_round_score, plain_score

# SHA-256 of each preset's canonical encoding as protocol version 1 signed it: the extension
# switches (all at their default in every preset) must not change a byte (spec/rules.md §3.3).
VERSION_1_DIGESTS = {
    "nintendo": "3d9530fb84a39bb237be2b206f603cfca50b6ebde3dfc0345c9acc557169682b",
    "koikoi-online": "1f3d0074ca140df536936c7fbdf98450a9c0dc7199eebc84730fd46d252e5d00",
    "teaching-card": "8fa37de683f167b2d583744c97b396b2dfcddc92d8cc2c9ac3adc1ee56174132",
    "wikipedia": "c30f015e87b9311e71a7af90504be953fb1305f19494fc28bc0660125aec89ef",
    "board-game": "3794fdb11ca18e993757c4c2206fdb1881d449c4da2e0235c9a624ccb5051187",
    "classic-variant": "0cfb99a6ebae55dd7db92f4e11d61063ca658b92348cc0fd50be33fdb253c4d7",
}
# The seventh preset (issue 28) sets extension switches, so it has a version 2 encoding; pinned too.
KOIKOI_JAPAN_DIGEST = "327066b13768735b3d116e7c8c170e1c5f214db398adf4a8dcffdce66f632900"


@pytest.fixture(scope="module")
def data(vectors_dir: Path) -> dict[str, Any]:
    loaded = json.loads((vectors_dir / "rules" / "switches.json").read_text(encoding="utf-8"))
    assert loaded["provenance"]["generator"] == "spec/vectors/generators/rules_vectors.py"
    return loaded  # type: ignore[no-any-return]


def profile_of(case: dict[str, Any]) -> Profile:
    profile = Profile.from_dict(case["profile"])
    assert profile == PRESETS[case["based_on"]].with_switches({"name": "custom", **case["switches"]})
    return profile


def without(case: dict[str, Any]) -> Profile | None:
    off = case["without"]
    return None if off is None else profile_of(case).with_switches(off)


def test_presets_keep_their_version_1_digests(data: dict[str, Any]) -> None:
    assert set(PRESETS) == {*VERSION_1_DIGESTS, "koikoi-japan"}
    for name, digest in VERSION_1_DIGESTS.items():
        profile = PRESETS[name]
        assert hashlib.sha256(profile.encode()).hexdigest() == digest
        assert set(profile.to_dict()).isdisjoint(EXTENSION_DEFAULTS)
    japan = PRESETS["koikoi-japan"]
    assert hashlib.sha256(japan.encode()).hexdigest() == KOIKOI_JAPAN_DIGEST
    assert set(japan.to_dict()) & set(EXTENSION_DEFAULTS) == {
        "viewing_by_call", "koikoi_bonus", "akatan_aotan_on_top", "stop_on_own_last_turn", "hand_whole_month",
        "first_dealer"}
    recorded = {case["profile"]["name"]: case["sha256"] for case in data["encoding"]["valid"]
                if case["profile"]["name"] in PRESETS}
    assert recorded == {**VERSION_1_DIGESTS, "koikoi-japan": KOIKOI_JAPAN_DIGEST}


def test_encoding_vectors(data: dict[str, Any]) -> None:
    for case in data["encoding"]["valid"]:
        profile = Profile.from_dict(case["profile"])
        assert profile.encode().decode() == case["encoding"], case["comment"]
        assert hashlib.sha256(case["encoding"].encode()).hexdigest() == case["sha256"]
        assert Profile.decode(case["encoding"].encode()) == profile
        assert profile.to_dict() == case["profile"]
    for case in data["encoding"]["invalid"]:
        with pytest.raises(RulesError) as info:
            Profile.from_dict(case["profile"])
        assert info.value.reason == case["error"], case["comment"]


def test_text_vectors(data: dict[str, Any]) -> None:
    for case in data["text"]:
        base = preset(case["base"])
        if "error" in case:
            with pytest.raises(RulesError) as info:
                base.with_switches({case["switch"]: case["text"]})
            assert info.value.reason == case["error"], case
            continue
        changed = base.with_switches({case["switch"]: case["text"]})
        assert changed.every_switch()[case["switch"]] == case["value"], case
        assert changed.switch_text(case["switch"]) == case["written"]
        assert base.with_switches({case["switch"]: case["written"]}) == changed


def test_difference_vectors(data: dict[str, Any]) -> None:
    for case in data["differences"]:
        profile = Profile.from_dict(case["profile"])
        assert nearest_preset(profile) == case["nearest"]
        assert differences(profile) == case["differences"]
        assert list(differences(profile)) == list(case["differences"])  # switch-table order


def test_scoring_vectors(data: dict[str, Any]) -> None:
    for case in data["scoring"]:
        profile = profile_of(case)
        # The pile is the winner's; it has called when the winner is among the calls (spec/rules.md §6.4).
        called = case["winner"] in case["calls"]
        yaku = score_yaku(case["cards"], profile, case["month"], called)
        assert yaku == case["yaku"], case["comment"]
        assert list(yaku) == list(case["yaku"])
        assert sum(yaku.values()) == case["base"]
        total = round_score(case["base"], case["calls"], case["winner"], profile)
        assert total == case["round_score"], case["comment"]
        rules = profile.to_dict()
        expected = plain_score(set(case["cards"]), rules, case["month"] or 0, called)
        assert expected == case["yaku"], case["comment"]
        assert plain_round_score(case["base"], case["calls"], case["winner"], rules) == case["round_score"]
        plain = without(case)
        if plain is not None:
            other = score_yaku(case["cards"], plain, case["month"], called)
            other_total = round_score(sum(other.values()), case["calls"], case["winner"], plain)
            assert (other, other_total) != (yaku, total), ("no effect", case["comment"])


def settle(state: RoundState, deck: list[int]) -> None:
    while isinstance(state.need, NeedReveal):
        need = state.need
        if need.to is not None and state.viewer is not None and need.to != state.viewer:
            state.skip_reveal()
            continue
        for p in need.positions:
            state.reveal(p, deck[p])


def replay(profile: Profile, case: dict[str, Any], viewer: int | None) -> object:
    """The result and piles of a round case under ``profile``, or the first refusal."""
    deck = [card(x).index for x in case["deck"]]
    state = RoundState(profile=profile, dealer=case["dealer"], viewer=viewer, round_index=case["round_index"],
                       month=case["month"])
    illegal = {entry["after"]: entry for entry in case["illegal"]}
    refused: list[str | None] = []
    try:
        settle(state, deck)
        for i, move in enumerate(case["moves"]):
            if i in illegal and viewer is None:
                entry = illegal[i]
                try:
                    state.copy().apply(entry["seat"], action_from_dict(entry["action"]))
                    refused.append(None)
                except RulesError as exc:
                    refused.append(exc.reason)
            state.apply(move["seat"], action_from_dict(move["action"]))
            settle(state, deck)
    except RulesError as exc:
        return ("error", exc.reason)
    if state.result is None:
        return ("unfinished",)
    piles = [[card(x).index for x in pile] for pile in case["piles"]]
    return (state.result, [sum(1 << c for c in pile) for pile in piles] == state.piles, refused)


def test_round_vectors_replay_for_every_viewer(data: dict[str, Any]) -> None:
    for case in data["rounds"]:
        profile = profile_of(case)
        expected = RoundResult.from_dict(case["result"])
        errors = [entry["error"] for entry in case["illegal"]]
        assert replay(profile, case, None) == (expected, True, errors), case["comment"]
        for viewer in (0, 1):
            assert replay(profile, case, viewer) == (expected, True, []), (viewer, case["comment"])
        plain = without(case)
        assert plain is not None
        assert replay(plain, case, None) != (expected, True, errors), ("no effect", case["comment"])


def dealer_outcome(profile: Profile, revealed: list[int]) -> object:
    try:
        step = choose_first_dealer(profile, revealed)
    except RulesError as exc:
        return exc.reason
    return {"dealer": step.dealer, "need": list(step.need)}


def test_first_dealer_vectors(data: dict[str, Any]) -> None:
    for case in data["first_dealer"]:
        profile = profile_of(case)
        revealed = [card(x).index for x in case["revealed"]]
        got = dealer_outcome(profile, revealed)
        assert got == (case["error"] if "error" in case else {"dealer": case["dealer"], "need": case["need"]})
        plain = without(case)
        if plain is not None:
            assert dealer_outcome(plain, revealed) != got, case["comment"]


def match_outcome(profile: Profile, case: dict[str, Any]) -> tuple[object, ...]:
    match = MatchState(profile, case["first_dealer"])
    for item in case["results"]:
        match.record(RoundResult.from_dict(item))
    return (list(match.scores), match.over, match.winner, match.round_index)


def test_match_vectors(data: dict[str, Any]) -> None:
    for case in data["matches"]:
        got = match_outcome(profile_of(case), case)
        assert got == (case["scores"], case["over"], case["winner"], case["round_index"]), case["comment"]
        plain = without(case)
        assert plain is not None and match_outcome(plain, case) != got


def test_every_extension_switch_has_a_case_that_needs_it(data: dict[str, Any]) -> None:
    covered = {case["switch"] for kind in ("scoring", "rounds", "first_dealer", "matches")
               for case in data[kind] if case["without"] is not None}
    assert set(EXTENSION_DEFAULTS) <= covered, sorted(set(EXTENSION_DEFAULTS) - covered)
    # and the instant wins on the deal where a preset lacks them, and issue 14 gap 9
    assert {"hand_yaku", "max_calls_per_round"} <= covered


def test_the_generator_reproduces_every_rules_vector(vectors_dir: Path) -> None:
    generator = vectors_dir / "generators" / "rules_vectors.py"
    spec = importlib.util.spec_from_file_location("rules_vectors", generator)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.build().items():
        on_disk = (vectors_dir / "rules" / name).read_text(encoding="utf-8")
        assert on_disk == text, f"{name} is stale: run python spec/vectors/generators/rules_vectors.py"

"""spec/vectors/rules: scoring, perft counts and whole rounds, re-checked against the engine.

Scoring cases are also checked against the independent plain scorer of the property tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.rules.actions import action_from_dict
from koikoi_p2p.rules.cards import card
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import PRESETS
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundResult, RoundState
from koikoi_p2p.rules.scoring import round_score, score_yaku
from tests.property.test_rules_plain_scorer import plain_round_score, plain_score


def load(vectors_dir: Path, name: str) -> dict[str, Any]:
    data = json.loads((vectors_dir / "rules" / name).read_text(encoding="utf-8"))
    assert data["provenance"]["generator"].startswith("spec/vectors/generators/")
    assert data["cases"]
    return data  # type: ignore[no-any-return]


def settle(state: RoundState, deck: list[int]) -> None:
    while isinstance(state.need, NeedReveal):
        need = state.need
        if need.to is not None and state.viewer is not None and need.to != state.viewer:
            state.skip_reveal()
            continue
        for p in need.positions:
            state.reveal(p, deck[p])


def test_scoring_vectors(vectors_dir: Path) -> None:
    data = load(vectors_dir, "scoring.json")
    assert {c["preset"] for c in data["cases"]} == set(PRESETS)
    for case in data["cases"]:
        profile = PRESETS[case["preset"]]
        called = case["winner"] in case["calls"]  # the pile is the winner's (viewing_by_call)
        yaku = score_yaku(case["cards"], profile, case["month"], called)
        assert yaku == case["yaku"], case
        assert sum(yaku.values()) == case["base"]
        assert round_score(case["base"], case["calls"], case["winner"], profile) == case["round_score"]
        plain = plain_score(set(case["cards"]), profile.to_dict(), case["month"] or 0, called)
        assert plain == case["yaku"], case
        plain_total = plain_round_score(case["base"], case["calls"], case["winner"], profile.to_dict())
        assert plain_total == case["round_score"]
    for case in data["invalid"]:
        with pytest.raises(RulesError) as info:
            score_yaku(case["cards"], PRESETS[case["preset"]], case["month"])
        assert info.value.reason == case["error"]


def start(case: dict[str, Any], viewer: int | None = None) -> tuple[RoundState, list[int]]:
    deck = [card(x).index for x in case["deck"]]
    assert sorted(deck) == list(range(48))
    state = RoundState(profile=PRESETS[case["preset"]], dealer=case["dealer"], viewer=viewer,
                       round_index=case.get("round_index", 1), month=case["month"])
    settle(state, deck)
    return state, deck


def perft(state: RoundState, deck: list[int], depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: RoundState, level: int) -> None:
        if node.result is not None:
            return
        options = node.legal_actions()
        counts[level] += len(options)
        if level + 1 < depth:
            assert isinstance(node.need, NeedAction)
            for action in options:
                child = node.copy()
                child.apply(node.need.seat, action)
                settle(child, deck)
                walk(child, level + 1)

    walk(state, 0)
    return counts


def test_perft_vectors(vectors_dir: Path) -> None:
    data = load(vectors_dir, "perft.json")
    assert {c["preset"] for c in data["cases"]} == set(PRESETS)
    for case in data["cases"]:
        state, deck = start(case)
        for move in case["prefix"]:
            state.apply(move["seat"], action_from_dict(move["action"]))
            settle(state, deck)
        assert perft(state, deck, len(case["counts"])) == case["counts"], case["preset"]


def test_game_vectors_replay_for_every_viewer(vectors_dir: Path) -> None:
    data = load(vectors_dir, "games.json")
    assert {c["preset"] for c in data["cases"]} == set(PRESETS)
    for case in data["cases"]:
        for viewer in (None, 0, 1):
            state, deck = start(case, viewer)
            illegal = {entry["after"]: entry for entry in case["illegal"]} if viewer is None else {}
            for i, move in enumerate(case["moves"]):
                if i in illegal:
                    entry = illegal[i]
                    with pytest.raises(RulesError) as info:
                        state.copy().apply(entry["seat"], action_from_dict(entry["action"]))
                    assert info.value.reason == entry["error"]
                state.apply(move["seat"], action_from_dict(move["action"]))
                settle(state, deck)
            assert state.result is not None
            assert state.result == RoundResult.from_dict(case["result"])
            piles = [[card(x).index for x in pile] for pile in case["piles"]]
            assert [sum(1 << c for c in pile) for pile in piles] == state.piles

"""Scoring: the worked examples of the sources and the edges engines get wrong."""

from __future__ import annotations

import random

import pytest

from koikoi_p2p.rules.cards import CARDS, mask_of
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import PRESETS, preset
from koikoi_p2p.rules.scoring import base_total, round_score, score_yaku, scorer

PRESET_NAMES = ("nintendo", "koikoi-online", "teaching-card", "wikipedia", "board-game", "classic-variant")
N, K, T, W, B, C = (preset(n) for n in PRESET_NAMES)
BRIGHT_IDS = ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix"]
PLAIN_IDS = [c.id for c in CARDS if c.klass == "plain"]


def test_teaching_base_8_against_a_caller_scores_32() -> None:
    assert round_score(8, [1], 0, T) == 32
    assert round_score(8, [0], 0, T) == 16  # calling never doubles the caller's own win
    assert round_score(5, [0], 1, T) == 10  # the worked moon-viewing example: 5, doubled


def test_boar_deer_butterflies_with_two_other_animals() -> None:
    pile = ["07-boar", "10-deer", "06-butterflies", "02-warbler", "04-cuckoo"]
    assert score_yaku(pile, K) == {"inoshikacho": 7, "tane": 1}
    assert sum(score_yaku(pile, K).values()) == 8
    assert score_yaku(pile, N) == {"inoshikacho": 7}
    assert score_yaku(pile, T) == {"inoshikacho": 5, "tane": 1}


def test_ame_shiko_doubling() -> None:
    pile = ["01-crane", "03-curtain", "08-moon", "11-rainman"]
    assert score_yaku(pile, N) == {"ame_shiko": 7}
    assert round_score(7, [], 0, K) == 7
    assert round_score(7, [], 0, N) == 14
    assert round_score(8, [], 0, K) == 16
    assert round_score(5, [0], 0, K) == 10  # threshold on the base, before the call multiplier


def test_brights_edges() -> None:
    assert score_yaku(["01-crane", "03-curtain", "11-rainman"], N) == {}
    for p in PRESETS.values():
        assert score_yaku(["01-crane", "12-phoenix", "11-rainman"], p) == {}
    assert score_yaku(BRIGHT_IDS, N) == {"goko": 10}
    assert score_yaku(BRIGHT_IDS, W) == {"goko": 15}
    assert score_yaku(["01-crane", "03-curtain", "12-phoenix"], W) == {"sanko": 6}
    assert score_yaku(["01-crane", "03-curtain", "12-phoenix", "11-rainman"], C) == {"ame_shiko": 6}
    assert score_yaku(["01-crane", "03-curtain", "12-phoenix", "08-moon"], N) == {"shiko": 8}


def test_both_viewing_yaku_together() -> None:
    pile = ["03-curtain", "08-moon", "09-cup"]
    for p in (N, K, T, W, B):
        assert score_yaku(pile, p) == {"hanami": 5, "tsukimi": 5}
    # classic: a bonus yaku that needs a basic one
    assert score_yaku(pile, C) == {}
    assert score_yaku([*pile, "01-crane"], C) == {"sanko": 5, "hanami": 5, "tsukimi": 5}
    assert score_yaku(pile, N.with_switches(viewing="off")) == {}


def test_red_and_blue_ribbons() -> None:
    six = ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue"]
    assert score_yaku(six, N) == {"akatan_aotan": 10}
    assert score_yaku(six, K) == {"akatan_aotan": 10, "tan": 2}
    assert score_yaku(six, T) == {"akatan": 5, "aotan": 5, "tan": 2}
    assert score_yaku(six, W) == {"akatan_aotan": 10, "tan": 2}
    assert score_yaku(six, B) == {"akatan": 5, "aotan": 5, "tan": 2}
    assert score_yaku([*six, "04-ribbon"], N) == {"akatan_aotan": 11}
    assert score_yaku(["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon"], N) == {"akatan": 7}
    assert score_yaku(["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon"], K) == {
        "akatan": 7, "tan": 1}


def test_cup_plain_or_not() -> None:
    nine = PLAIN_IDS[:9]
    assert score_yaku([*nine, "09-cup"], N) == {"kasu": 1}
    assert score_yaku([*nine, "09-cup"], T) == {"kasu": 1}
    for p in (K, W, B, C):
        assert score_yaku([*nine, "09-cup"], p) == {}
    # the cup is an animal everywhere
    animals = ["02-warbler", "04-cuckoo", "05-bridge", "08-geese", "09-cup"]
    assert score_yaku(animals, N) == {"tane": 1}


def test_classic_joker_best_allocation() -> None:
    nine = PLAIN_IDS[:9]
    assert score_yaku([*nine, "05-bridge"], C) == {"kasu": 1}
    assert score_yaku([*nine, "05-bridge"], N) == {}
    animals = ["02-warbler", "04-cuckoo", "05-bridge", "08-geese", "09-cup"]
    assert score_yaku(animals, C) == {"tane": 1}
    # as a plain it would lose tane and gain one kasu point: equal totals keep it an animal
    assert score_yaku([*PLAIN_IDS[:10], *animals], C) == {"tane": 1, "kasu": 1}
    # nine plains and four other animals: as a plain it makes kasu, as an animal tane; never both
    assert score_yaku([*PLAIN_IDS[:9], *animals], C) == {"tane": 1}
    assert score_yaku([*PLAIN_IDS[:9], "05-bridge", "02-warbler"], C) == {"kasu": 1}


def test_monthly_yaku() -> None:
    april = ["04-cuckoo", "04-ribbon", "04-plain1", "04-plain2"]
    assert score_yaku(april, W, month=4) == {"tsukifuda": 4}
    assert score_yaku(april, W, month=5) == {}
    assert score_yaku(april, W) == {}
    assert score_yaku(april, C, month=4) == {"tsukifuda": 5}
    assert score_yaku(april, N, month=4) == {}
    assert score_yaku(april, W.with_switches(monthly_yaku_scope="any_month")) == {"tsukifuda": 4}
    with pytest.raises(RulesError):
        score_yaku(april, W, month=13)


def test_counted_yaku_and_goko() -> None:
    assert score_yaku(PLAIN_IDS[:12], N) == {"kasu": 3}
    assert score_yaku(BRIGHT_IDS, N) == {"goko": 10}
    assert score_yaku([], N) == {}


def test_round_score_models() -> None:
    assert round_score(6, [0, 1], 0, K) == 18
    assert round_score(6, [0, 0, 1], 1, B) == 12
    assert round_score(6, [0, 0, 1], 0, B) == 24
    assert round_score(9, [1, 0], 0, C) == 9
    assert round_score(7, [1], 0, W) == 28
    for bad in ((-1, [], 0), (5, [2], 0), (5, [], 2)):
        with pytest.raises(RulesError):
            round_score(bad[0], bad[1], bad[2], N)


def test_fast_base_agrees_with_yaku_dict() -> None:
    rng = random.Random(7)
    for p in PRESETS.values():
        s = scorer(p)
        for _ in range(3000):
            k = rng.randint(0, 30)
            mask = mask_of(rng.sample(range(48), k))
            month = rng.randint(1, 12)
            assert s.base(mask, month) == sum(s.yaku(mask, month).values())
    assert base_total(BRIGHT_IDS, W) == 15

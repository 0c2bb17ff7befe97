"""Generate spec/vectors/rules/*.json from the rules engine (self-made vectors, spec/rules.md §13).

    python spec/vectors/generators/rules_vectors.py [--check]

With --check nothing is written; the exit status says whether the files on disk are current.

Deterministic: every random choice comes from random.Random seeded with the strings written
into each file's provenance. The tests re-check every case against the engine, and the scoring
cases also against an independent plain scorer written inside the tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koikoi_p2p.rules.actions import KOIKOI, Action, ClaimHandYaku, NoHandYaku, Play, action_from_dict
from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.deal import choose_first_dealer, deal_layout
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import (
    EXTENSION_DEFAULTS,
    PRESETS,
    Profile,
    differences,
    nearest_preset,
    switch_text,
)
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundResult, RoundState
from koikoi_p2p.rules.scoring import round_score, score_yaku
from koikoi_p2p.rules.simulate import arranged_deck

OUT = Path(__file__).resolve().parent.parent / "rules"
GENERATOR = "spec/vectors/generators/rules_vectors.py"
IDS = [c.id for c in CARDS]

# The worked examples and edge cases named by the sources and by the issue.
NAMED_PILES: list[tuple[str, list[str], int | None, list[int], int]] = [
    ("teaching: base 8 (shiko) against a caller",
     ["01-crane", "03-curtain", "08-moon", "12-phoenix"], None, [1], 0),
    ("boar-deer-butterflies with two other animals",
     ["07-boar", "10-deer", "06-butterflies", "02-warbler", "04-cuckoo"], None, [], 0),
    ("ame_shiko, no calls", ["01-crane", "03-curtain", "08-moon", "11-rainman"], None, [], 0),
    ("rain man with two other brights", ["01-crane", "12-phoenix", "11-rainman"], None, [], 0),
    ("both viewing yaku", ["03-curtain", "08-moon", "09-cup"], None, [], 1),
    ("both viewing yaku and sanko", ["03-curtain", "08-moon", "09-cup", "01-crane"], None, [0], 1),
    ("red and blue ribbons",
     ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue"], None, [], 0),
    ("red and blue ribbons and one more",
     ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue", "04-ribbon"], None, [0, 1], 1),
    ("nine plains and the cup", ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "03-plain1", "03-plain2",
                                 "04-plain1", "04-plain2", "05-plain1", "09-cup"], None, [], 0),
    ("nine plains and the iris bridge",
     ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "03-plain1", "03-plain2", "04-plain1", "04-plain2",
      "05-plain1", "05-bridge"], None, [], 0),
    ("goko", ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix"], None, [1, 0], 0),
    ("a month's four cards in that month", ["04-cuckoo", "04-ribbon", "04-plain1", "04-plain2"], 4, [], 1),
    ("a month's four cards in another month", ["04-cuckoo", "04-ribbon", "04-plain1", "04-plain2"], 5, [], 1),
    ("nothing", [], None, [], 0),
]


def scoring_vectors() -> dict[str, Any]:
    rng = random.Random("rules-scoring-v1")  # noqa: S311 - vectors, nothing secret
    cases: list[dict[str, Any]] = []
    for name, profile in PRESETS.items():
        piles = list(NAMED_PILES)
        for i in range(40):
            size = rng.choice([3, 5, 8, 12, 16, 20, 26])
            pile = sorted(rng.sample(IDS, size), key=IDS.index)
            calls = [rng.randrange(2) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
            piles.append((f"random {i}", pile, rng.randint(1, 12), calls, rng.randrange(2)))
        for label, pile, month, calls, winner in piles:
            yaku = score_yaku(pile, profile, month, winner in calls)
            base = sum(yaku.values())
            cases.append({
                "preset": name, "comment": label, "cards": pile, "month": month, "calls": calls,
                "winner": winner, "yaku": yaku, "base": base,
                "round_score": round_score(base, calls, winner, profile),
            })
    invalid = [
        {"preset": "nintendo", "cards": ["13-nothing"], "month": None, "error": "unknown_card"},
        {"preset": "nintendo", "cards": ["01-crane", "01-crane"], "month": None, "error": "duplicate_card"},
        {"preset": "wikipedia", "cards": ["01-crane"], "month": 13, "error": "bad_month"},
        {"preset": "wikipedia", "cards": ["01-crane"], "month": 0, "error": "bad_month"},
    ]
    for case in invalid:
        try:
            score_yaku(case["cards"], PRESETS[case["preset"]], case["month"])
        except RulesError as exc:
            assert exc.reason == case["error"]
        else:  # pragma: no cover
            raise AssertionError(case)
    return {
        "provenance": {"generator": GENERATOR, "seed": "rules-scoring-v1",
                       "note": "the named cases are the sources' worked examples and edges; calls are seats"},
        "cases": cases,
        "invalid": invalid,
    }


def _settle(state: RoundState, deck: list[int]) -> None:
    while type(state.need) is NeedReveal:
        for p in state.need.positions:
            state.reveal(p, deck[p])


def _prefix(state: RoundState, deck: list[int], rng: random.Random, length: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    _settle(state, deck)
    while state.result is None and len(moves) < length:
        need = state.need
        assert isinstance(need, NeedAction)
        options = state.legal_actions()
        action = options[rng.randrange(len(options))]
        state.apply(need.seat, action)
        moves.append({"seat": need.seat, "action": action.to_dict()})
        _settle(state, deck)
    return moves


def perft_counts(state: RoundState, deck: list[int], depth: int) -> list[int]:
    """counts[k-1] = number of legal action sequences of length k (reveals are not moves)."""
    counts = [0] * depth

    def walk(node: RoundState, level: int) -> None:
        if node.result is not None:
            return
        options = node.legal_actions()
        counts[level] += len(options)
        if level + 1 == depth:
            return
        need = node.need
        assert isinstance(need, NeedAction)
        for action in options:
            child = node.copy()
            child.apply(need.seat, action)
            _settle(child, deck)
            walk(child, level + 1)

    walk(state, 0)
    return counts


def perft_vectors() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    depth = 7
    for name, profile in PRESETS.items():
        rng = random.Random(f"rules-perft-v1-{name}")  # noqa: S311
        made = 0
        while made < 3:
            deck = list(range(48))
            rng.shuffle(deck)
            dealer = made % 2
            month = rng.randint(1, 12)
            state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=month)
            prefix = _prefix(state, deck, rng, [0, 6, 12][made])
            if state.result is not None:
                continue
            cases.append({
                "preset": name, "dealer": dealer, "month": month, "deck": [IDS[c] for c in deck],
                "prefix": prefix, "counts": perft_counts(state, deck, depth),
            })
            made += 1
    return {
        "provenance": {"generator": GENERATOR, "seed": "rules-perft-v1-<preset>",
                       "note": "deck = card id at each deck position 0..47; prefix = moves applied first; "
                               "counts[k-1] = legal action sequences of length k from there"},
        "cases": cases,
    }


def _wrong_play(state: RoundState) -> Action | None:
    need = state.need
    if not isinstance(need, NeedAction) or need.kind != "play":
        return None
    other = state.hands[1 - need.seat]
    for p in range(48):
        if other >> p & 1:
            return Play(p)
    return None


def game_vectors() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    for name, profile in PRESETS.items():
        rng = random.Random(f"rules-games-v1-{name}")  # noqa: S311
        for i in range(4):
            deck = list(range(48))
            rng.shuffle(deck)
            dealer = i % 2
            month = rng.randint(1, 12)
            state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1 + i, month=month)
            moves: list[dict[str, Any]] = []
            illegal: list[dict[str, Any]] = []
            _settle(state, deck)
            while state.result is None:
                need = state.need
                assert isinstance(need, NeedAction)
                options = state.legal_actions()
                wrong = _wrong_play(state)
                if wrong is not None and len(illegal) < 2:
                    for seat, action, reason in ((need.seat, wrong, "not_in_hand"),
                                                 (1 - need.seat, options[0], "not_your_turn")):
                        try:
                            state.copy().apply(seat, action)
                        except RulesError as exc:
                            assert exc.reason == reason
                            illegal.append({"after": len(moves), "seat": seat, "action": action.to_dict(),
                                            "error": reason})
                action = options[rng.randrange(len(options))]
                state.apply(need.seat, action)
                moves.append({"seat": need.seat, "action": action.to_dict()})
                _settle(state, deck)
            assert state.result is not None
            cases.append({
                "preset": name, "dealer": dealer, "month": month, "round_index": 1 + i,
                "deck": [IDS[c] for c in deck], "moves": moves, "illegal": illegal,
                "result": state.result.to_dict(),
                "piles": [[IDS[c] for c in range(48) if state.piles[s] >> c & 1] for s in (0, 1)],
            })
    return {
        "provenance": {"generator": GENERATOR, "seed": "rules-games-v1-<preset>",
                       "note": "whole rounds: replaying moves on the deck must give result and piles; "
                               "each illegal entry is an action refused after that many moves"},
        "cases": cases,
    }


# -- house-rule switches (spec/rules.md §3.2 second table, §3.3, §3.7, §5.1) ------------------------
# Every case names the switch it exercises and, in "without", the switch values that remove its
# effect; the generator (and the tests) check that the case's outcome differs without them, so no
# case passes by accident on an engine that ignores the switch.

def custom(base: str, changes: dict[str, str]) -> Profile:
    """A room's profile: a preset with switches set from text, under a custom name."""
    return PRESETS[base].with_switches({"name": "custom", **changes})


def without(profile: Profile, changes: dict[str, Any]) -> Profile:
    return profile.with_switches(changes)


def _profile_fields(profile: Profile, base: str, changes: dict[str, str]) -> dict[str, Any]:
    return {"based_on": base, "switches": changes, "profile": profile.to_dict()}


def _scoring_case(switch: str, comment: str, base: str, changes: dict[str, str], off: dict[str, Any] | None,
                  cards: list[str], month: int | None = None, calls: list[int] | None = None,
                  winner: int = 0) -> dict[str, Any]:
    profile = custom(base, changes)
    calls = calls or []
    called = winner in calls  # the pile is the winner's (viewing_by_call, spec/rules.md §6.4)
    yaku = score_yaku(cards, profile, month, called)
    base_total = sum(yaku.values())
    case = {"switch": switch, "comment": comment, **_profile_fields(profile, base, changes), "without": off,
            "cards": cards, "month": month, "calls": calls, "winner": winner, "yaku": yaku,
            "base": base_total, "round_score": round_score(base_total, calls, winner, profile)}
    if off is not None:
        plain = without(profile, off)
        other = score_yaku(cards, plain, month, called)
        other_total = round_score(sum(other.values()), calls, winner, plain)
        assert (other, other_total) != (yaku, case["round_score"]), case
    return case


NINE_PLAINS = ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "03-plain1", "03-plain2", "04-plain1",
               "04-plain2", "05-plain1"]
FIVE_BRIGHTS = ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix"]


def switch_scoring_cases() -> list[dict[str, Any]]:
    c = _scoring_case
    cases = [
        c("hanami_cancelled_by", "ame-nagare, rain-man reading: the rain man cancels hanami, not tsukimi",
          "nintendo", {"hanami_cancelled_by": "11-rainman"}, {"hanami_cancelled_by": ()},
          ["03-curtain", "08-moon", "09-cup", "11-rainman"]),
        c("hanami_cancelled_by", "ame-nagare, any-willow reading: the lightning cancels hanami",
          "nintendo", {"hanami_cancelled_by": "11"}, {"hanami_cancelled_by": ()},
          ["03-curtain", "09-cup", "11-lightning"]),
        c("tsukimi_cancelled_by", "kiri-nagare: a paulownia plain cancels tsukimi, hanami stays",
          "koikoi-online", {"tsukimi_cancelled_by": "12"}, {"tsukimi_cancelled_by": ()},
          ["03-curtain", "08-moon", "09-cup", "12-plain2"]),
        c("tsukimi_cancelled_by", "rain ruins the party (moon option): the rain man cancels tsukimi only",
          "nintendo", {"tsukimi_cancelled_by": "11-rainman"}, {"tsukimi_cancelled_by": ()},
          ["03-curtain", "08-moon", "09-cup", "11-rainman"]),
        c("hanami_cancelled_by", "both lists: the rain man cancels both viewing yaku, sanko still scores",
          "wikipedia", {"hanami_cancelled_by": "11-rainman", "tsukimi_cancelled_by": "11-rainman"},
          {"hanami_cancelled_by": (), "tsukimi_cancelled_by": ()},
          ["01-crane", "03-curtain", "08-moon", "09-cup", "11-rainman"]),
        c("cup_either", "nine plains and the cup: the cup counts as a plain (kasu 1)",
          "koikoi-online", {"cup_either": "true"}, {"cup_either": False}, [*NINE_PLAINS, "09-cup"]),
        c("cup_either", "five animals with the cup and nine plains: as a plain (kasu 1) or as an animal "
          "(tane 1) score the same, so the cup stays an animal",
          "koikoi-online", {"cup_either": "true"}, None,
          ["02-warbler", "04-cuckoo", "05-bridge", "08-geese", "09-cup", *NINE_PLAINS]),
        c("cup_either", "six animals (the cup among them) and nine plains: tane 2 as an animal, tane 1 + "
          "kasu 1 as a plain; equal, so it stays an animal",
          "koikoi-online", {"cup_either": "true"}, None,
          ["02-warbler", "04-cuckoo", "05-bridge", "08-geese", "11-swallow", "09-cup", *NINE_PLAINS]),
        c("cup_either", "four animals, the cup, ten plains: kasu 2 as a plain, tane 1 + kasu 1 as an "
          "animal; equal, so it stays an animal",
          "wikipedia", {"cup_either": "true"}, None,
          ["02-warbler", "04-cuckoo", "05-bridge", "08-geese", "09-cup", *NINE_PLAINS, "05-plain2"]),
        c("cup_either", "the cup and the joker both flexible: nine plains, bridge and cup make kasu 2",
          "classic-variant", {"cup_either": "true"}, {"cup_either": False},
          [*NINE_PLAINS, "05-bridge", "09-cup"]),
        c("cup_either", "the cup as a plain still makes hanami: viewing yaku name the card, not its class",
          "koikoi-online", {"cup_either": "true"}, {"cup_either": False},
          [*NINE_PLAINS, "09-cup", "03-curtain"]),
        c("brights_add", "all five brights add every bright yaku: 10 + 8 + 7 + 5",
          "nintendo", {"brights_add": "true"}, {"brights_add": False}, FIVE_BRIGHTS),
        c("brights_add", "four brights with the rain man: ame_shiko and sanko",
          "classic-variant", {"brights_add": "true"}, {"brights_add": False},
          ["01-crane", "03-curtain", "08-moon", "11-rainman"]),
        c("brights_add", "four brights without the rain man: shiko and sanko",
          "board-game", {"brights_add": "true"}, {"brights_add": False},
          ["01-crane", "03-curtain", "08-moon", "12-phoenix"]),
        c("sanko_with_rain", "the board game's 3 bright cards, rain man included: sanko",
          "board-game", {"sanko_with_rain": "true"}, {"sanko_with_rain": False},
          ["01-crane", "11-rainman", "12-phoenix"]),
        c("sanko_with_rain", "with brights_add: three brights with the rain man make sanko only with the "
          "switch",
          "board-game", {"sanko_with_rain": "true", "brights_add": "true"}, {"sanko_with_rain": False},
          ["08-moon", "11-rainman", "12-phoenix"]),
        c("single_yaku", "akatan and tan: only the highest (akatan 5) counts",
          "wikipedia", {"single_yaku": "true"}, {"single_yaku": False},
          ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon"]),
        c("single_yaku", "equal points: the first in yaku order (sanko before hanami)",
          "nintendo", {"single_yaku": "true"}, {"single_yaku": False},
          ["01-crane", "03-curtain", "12-phoenix", "09-cup"]),
        c("single_yaku", "with the joker, the allocation is chosen on the cut base: kasu 2 as a plain "
          "beats tane 1",
          "classic-variant", {"single_yaku": "true"}, {"single_yaku": False},
          ["02-warbler", "04-cuckoo", "08-geese", "11-swallow", "05-bridge", *NINE_PLAINS, "05-plain2"]),
        c("single_yaku", "bonus-only viewing is unlocked by kasu before the cut, then hanami alone remains",
          "classic-variant", {"single_yaku": "true"}, {"single_yaku": False},
          [*NINE_PLAINS, "05-plain2", "03-curtain", "09-cup"]),
        c("single_yaku_scope", "extensions: akatan and aotan both count (unrelated), tan 3 is cut by them",
          "teaching-card", {"single_yaku": "true", "single_yaku_scope": "extensions"},
          {"single_yaku_scope": "pile"},
          ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "06-blue", "09-blue", "10-blue"]),
        c("single_yaku_scope", "extensions: a higher tan (10 ribbons, 6) cuts akatan and aotan alike",
          "teaching-card", {"single_yaku": "true", "single_yaku_scope": "extensions"}, None,
          ["01-poetry", "02-poetry", "03-poetry", "04-ribbon", "05-ribbon", "06-blue", "07-ribbon", "09-blue",
           "10-blue", "11-ribbon"]),
        c("single_yaku_scope", "extensions: inoshikacho cuts tane, hanami is nobody's extension and stays",
          "wikipedia", {"single_yaku": "true", "single_yaku_scope": "extensions"},
          {"single_yaku_scope": "pile"},
          ["07-boar", "10-deer", "06-butterflies", "05-bridge", "11-swallow", "03-curtain", "09-cup"]),
        c("single_yaku_scope", "extensions with brights_add: goko cuts the other bright yaku, tsukifuda "
          "of the willow stays",
          "wikipedia", {"brights_add": "true", "single_yaku": "true", "single_yaku_scope": "extensions"},
          {"single_yaku_scope": "pile"},
          ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix", "11-swallow", "11-ribbon",
           "11-lightning"], month=11),
        c("single_yaku_scope", "extensions with akatan_aotan on top: the 10 cuts akatan and aotan",
          "teaching-card", {"akatan_aotan_on_top": "true", "single_yaku": "true",
                            "single_yaku_scope": "extensions"},
          {"single_yaku_scope": "pile"},
          ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue", "08-geese", "09-cup",
           "03-curtain"]),
        c("caller_pays_more", "times_calls: the loser called twice, x2 on top of the flat x2",
          "wikipedia", {"caller_pays_more": "times_calls"}, {"caller_pays_more": "off"},
          ["01-crane", "03-curtain", "08-moon"], calls=[1, 1], winner=0),
        c("caller_pays_more", "times_calls: one call by the loser is x1",
          "wikipedia", {"caller_pays_more": "times_calls"}, None,
          ["01-crane", "03-curtain", "08-moon"], calls=[1], winner=0),
        c("caller_pays_more", "doubled_per_call: the loser called twice, x4; the winner's own call adds "
          "nothing",
          "classic-variant", {"caller_pays_more": "doubled_per_call"}, {"caller_pays_more": "off"},
          ["07-boar", "10-deer", "06-butterflies"], calls=[1, 0, 1], winner=0),
        c("caller_pays_more", "doubled_per_call with the shared multiplier: 5 x (1 + 3) x 2",
          "koikoi-online", {"caller_pays_more": "doubled_per_call"}, {"caller_pays_more": "off"},
          ["07-boar", "10-deer", "06-butterflies"], calls=[0, 1, 0], winner=0),
        c("viewing_by_call", "hanami and tsukimi before the holder's call: 1 each",
          "board-game", {"viewing_by_call": "true"}, {"viewing_by_call": False},
          ["03-curtain", "08-moon", "09-cup"], calls=[1], winner=0),
        c("viewing_by_call", "after the holder's own call: 3 each (the opponent's calls do not count)",
          "board-game", {"viewing_by_call": "true", "koikoi_multiplier": "none"}, {"viewing_by_call": False},
          ["03-curtain", "08-moon", "09-cup"], calls=[1, 0], winner=0),
        c("viewing_by_call", "tsukimi alone after a call: 3 beside kasu",
          "wikipedia", {"viewing_by_call": "true"}, {"viewing_by_call": False},
          ["08-moon", "09-cup", *NINE_PLAINS, "05-plain2"], calls=[0], winner=0),
        *[c("koikoi_bonus", f"winner_add: {n} own call(s) on a base of 5"
            + (" (the opponent's call adds nothing)" if n == 1 else ""),
            "board-game", {"koikoi_bonus": "winner_add", "koikoi_multiplier": "none"},
            {"koikoi_bonus": "off"},
            ["07-boar", "10-deer", "06-butterflies"], calls=[0] * n + ([1] if n == 1 else []), winner=0)
          for n in range(1, 8)],
        c("akatan_aotan_on_top", "all six ribbons: akatan 5 + aotan 5 + akatan_aotan 10 (+ tan 2)",
          "board-game", {"akatan_aotan_on_top": "true"}, {"akatan_aotan_on_top": False},
          ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue"]),
        c("akatan_aotan_on_top", "with named_extension: every yaku of the pair grows with extra ribbons",
          "teaching-card", {"akatan_aotan_on_top": "true", "named_extension": "true"},
          {"akatan_aotan_on_top": False},
          ["01-poetry", "02-poetry", "03-poetry", "06-blue", "09-blue", "10-blue", "04-ribbon"]),
    ]
    rng = random.Random("rules-switch-scoring-v2")  # noqa: S311 - vectors, nothing secret
    scoring_switches: list[tuple[str, str, dict[str, str], dict[str, Any]]] = [
        ("hanami_cancelled_by", "nintendo", {"hanami_cancelled_by": "11"}, {"hanami_cancelled_by": ()}),
        ("tsukimi_cancelled_by", "wikipedia", {"tsukimi_cancelled_by": "12"}, {"tsukimi_cancelled_by": ()}),
        ("cup_either", "koikoi-online", {"cup_either": "true"}, {"cup_either": False}),
        ("brights_add", "nintendo", {"brights_add": "true"}, {"brights_add": False}),
        ("sanko_with_rain", "teaching-card", {"sanko_with_rain": "true"}, {"sanko_with_rain": False}),
        ("single_yaku", "koikoi-online", {"single_yaku": "true"}, {"single_yaku": False}),
        ("caller_pays_more", "nintendo", {"caller_pays_more": "times_calls", "max_calls_per_round": "0"},
         {"caller_pays_more": "off"}),
        ("caller_pays_more", "board-game", {"caller_pays_more": "doubled_per_call"},
         {"caller_pays_more": "off"}),
        ("viewing_by_call", "koikoi-online", {"viewing_by_call": "true"}, {"viewing_by_call": False}),
        ("koikoi_bonus", "wikipedia", {"koikoi_bonus": "winner_add"}, {"koikoi_bonus": "off"}),
        ("akatan_aotan_on_top", "classic-variant", {"akatan_aotan_on_top": "true"},
         {"akatan_aotan_on_top": False}),
        ("single_yaku_scope", "board-game", {"single_yaku": "true", "single_yaku_scope": "extensions"},
         {"single_yaku_scope": "pile"}),
    ]
    for switch, base, changes, off in scoring_switches:
        profile = custom(base, changes)
        plain = without(profile, off)
        made = 0
        while made < 6:
            size = rng.choice([8, 12, 16, 20, 26])
            pile = sorted(rng.sample(IDS, size), key=IDS.index)
            calls = [rng.randrange(2) for _ in range(rng.choice([0, 1, 2, 3]))]
            winner, month = rng.randrange(2), rng.randint(1, 12)
            yaku = score_yaku(pile, profile, month, winner in calls)
            other = score_yaku(pile, plain, month, winner in calls)
            total = round_score(sum(yaku.values()), calls, winner, profile)
            if (yaku, total) == (other, round_score(sum(other.values()), calls, winner, plain)):
                continue
            cases.append(c(switch, f"random pile {made}", base, changes, off, pile, month, calls, winner))
            made += 1
    return cases


def _outcome(profile: Profile, case: dict[str, Any]) -> object:
    """What replaying a round case under ``profile`` gives: the result and piles, or the error."""
    deck = [IDS.index(x) for x in case["deck"]]
    state = RoundState(profile=profile, dealer=case["dealer"], viewer=None, round_index=case["round_index"],
                       month=case["month"])
    illegal = {entry["after"]: entry for entry in case["illegal"]}
    refused = []
    try:
        _settle(state, deck)
        for i, move in enumerate(case["moves"]):
            if i in illegal:
                entry = illegal[i]
                try:
                    state.copy().apply(entry["seat"], action_from_dict(entry["action"]))
                    refused.append(None)
                except RulesError as exc:
                    refused.append(exc.reason)
            state.apply(move["seat"], action_from_dict(move["action"]))
            _settle(state, deck)
    except RulesError as exc:
        return ("error", exc.reason)
    if state.result is None:
        return ("unfinished", refused)
    return ("result", state.result.to_dict(), list(state.piles), refused)


def _round_case(switch: str, comment: str, base: str, changes: dict[str, str], off: dict[str, Any],
                deck: list[int], dealer: int, moves: list[dict[str, Any]], illegal: list[dict[str, Any]],
                month: int = 1) -> dict[str, Any]:
    profile = custom(base, changes)
    state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=month)
    _settle(state, deck)
    for move in moves:
        state.apply(move["seat"], action_from_dict(move["action"]))
        _settle(state, deck)
    assert state.result is not None
    case = {"switch": switch, "comment": comment, **_profile_fields(profile, base, changes), "without": off,
            "dealer": dealer, "month": month, "round_index": 1, "deck": [IDS[c] for c in deck],
            "moves": moves, "illegal": illegal, "result": state.result.to_dict(),
            "piles": [[IDS[c] for c in range(48) if state.piles[s] >> c & 1] for s in (0, 1)]}
    expected = _outcome(profile, case)
    assert expected[0] == "result"
    assert all(r == e["error"] for r, e in zip(expected[-1], illegal, strict=True))
    assert _outcome(without(profile, off), case) != expected, (switch, comment)
    return case


Want = Callable[[RoundState, list[dict[str, Any]], list[dict[str, Any]]], bool]
IllegalAt = Callable[[RoundState], tuple[Action, str] | None]


def _search_round(rng: random.Random, profile: Profile, off: dict[str, Any], *, call_bias: bool,
                  want: Want, illegal_at: IllegalAt | None = None,
                  ) -> tuple[list[int], int, list[dict[str, Any]], list[dict[str, Any]], int]:
    """A random round (deck, dealer, moves, illegal) that ``want`` accepts and ``off`` changes."""
    plain = without(profile, off)
    for _ in range(20000):
        deck = list(range(48))
        rng.shuffle(deck)
        dealer, month = rng.randrange(2), rng.randint(1, 12)
        state = RoundState(profile=profile, dealer=dealer, viewer=None, round_index=1, month=month)
        moves: list[dict[str, Any]] = []
        illegal: list[dict[str, Any]] = []
        _settle(state, deck)
        while state.result is None:
            need = state.need
            assert isinstance(need, NeedAction)
            options = state.legal_actions()
            if illegal_at is not None and len(illegal) < 2:
                found = illegal_at(state)
                if found is not None:
                    action, reason = found
                    try:
                        state.copy().apply(need.seat, action)
                    except RulesError as exc:
                        if exc.reason == reason:
                            illegal.append({"after": len(moves), "seat": need.seat,
                                            "action": action.to_dict(), "error": reason})
            calling = call_bias and KOIKOI in options and rng.random() < 0.7
            action = KOIKOI if calling else options[rng.randrange(len(options))]
            state.apply(need.seat, action)
            moves.append({"seat": need.seat, "action": action.to_dict()})
            _settle(state, deck)
        if not want(state, moves, illegal):
            continue
        probe = {"deck": [IDS[c] for c in deck], "dealer": dealer, "round_index": 1, "month": month,
                 "moves": moves, "illegal": illegal}
        if _outcome(plain, probe) != _outcome(profile, probe):
            return deck, dealer, moves, illegal, month
    raise AssertionError("no round found")  # pragma: no cover


def _koikoi_refused(state: RoundState) -> tuple[Action, str] | None:
    need = state.need
    if isinstance(need, NeedAction) and need.kind == "decide" and KOIKOI not in state.legal_actions():
        return KOIKOI, "no_call_left"
    return None


def switch_round_cases() -> list[dict[str, Any]]:
    rng = random.Random("rules-switch-rounds-v2")  # noqa: S311 - vectors, nothing secret
    cases: list[dict[str, Any]] = []

    def searched(switch: str, comment: str, base: str, changes: dict[str, str], off: dict[str, Any], *,
                 call_bias: bool, want: Want, illegal_at: IllegalAt | None = None) -> None:
        profile = custom(base, changes)
        deck, dealer, moves, illegal, month = _search_round(rng, profile, off, call_bias=call_bias, want=want,
                                                            illegal_at=illegal_at)
        cases.append(_round_case(switch, comment, base, changes, off, deck, dealer, moves, illegal, month))

    searched("call_limit", "one call per player: both seats call once; the second call is refused per round",
             "nintendo", {"call_limit": "per_seat", "after_call": "shobu_only"}, {"call_limit": "per_round"},
             call_bias=True, want=lambda s, m, i: sorted(set(s.calls)) == [0, 1] and bool(i),
             illegal_at=_koikoi_refused)
    searched("max_calls_per_round", "limit used up (issue 14 gap 9): an improvement still asks for a "
             "decision, Stop is the only legal action and KoiKoi is refused",
             "nintendo", {"after_call": "shobu_only"}, {"max_calls_per_round": 0},
             call_bias=True,
             want=lambda s, m, i: bool(i) and s.result is not None and s.result.reason == "stop",
             illegal_at=_koikoi_refused)
    searched("caller_pays_more", "the loser called twice and pays twice the flat x2 score",
             "wikipedia", {"caller_pays_more": "times_calls"}, {"caller_pays_more": "off"}, call_bias=True,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None
             and s.result.calls.count(1 - s.result.winner) >= 2 and s.result.reason == "stop")
    searched("caller_pays_more", "doubled per call by the loser in the board game's pool rules",
             "board-game", {"caller_pays_more": "doubled_per_call"}, {"caller_pays_more": "off"},
             call_bias=True,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None
             and (1 - s.result.winner) in s.result.calls)
    searched("single_yaku", "only the highest yaku: the round's decisions and score follow the cut base",
             "koikoi-online", {"single_yaku": "true"}, {"single_yaku": False}, call_bias=False,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None)
    searched("hanami_cancelled_by", "ame-nagare in play: the rain man in the pile cancels hanami",
             "nintendo", {"hanami_cancelled_by": "11-rainman", "tsukimi_cancelled_by": "11-rainman"},
             {"hanami_cancelled_by": (), "tsukimi_cancelled_by": ()}, call_bias=False,
             want=lambda s, m, i: s.result is not None)
    searched("cup_either", "the cup counted as a plain in play", "koikoi-online", {"cup_either": "true"},
             {"cup_either": False}, call_bias=False, want=lambda s, m, i: s.result is not None)
    searched("brights_add", "bright yaku add up in play", "teaching-card", {"brights_add": "true"},
             {"brights_add": False}, call_bias=False, want=lambda s, m, i: s.result is not None)
    searched("sanko_with_rain", "three brights with the rain man make sanko in play", "board-game",
             {"sanko_with_rain": "true"}, {"sanko_with_rain": False}, call_bias=False,
             want=lambda s, m, i: s.result is not None)

    searched("viewing_by_call", "the viewing yaku of a seat that called are worth 3 at its stop",
             "board-game", {"viewing_by_call": "true"}, {"viewing_by_call": False}, call_bias=True,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None
             and s.result.winner in s.result.calls
             and bool({"hanami", "tsukimi"} & set(s.result.yaku)))
    searched("koikoi_bonus", "the winner's own calls add to its score",
             "wikipedia", {"koikoi_bonus": "winner_add"}, {"koikoi_bonus": "off"}, call_bias=True,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None
             and s.result.calls.count(s.result.winner) >= 2)
    searched("stop_on_own_last_turn", "an improvement on a seat's eighth turn (the other seat still "
             "holding a card) offers only Stop",
             "wikipedia", {"stop_on_own_last_turn": "true"}, {"stop_on_own_last_turn": False},
             call_bias=True,
             want=lambda s, m, i: bool(i) and s.result is not None and s.result.reason == "stop"
             and (s.hands[0] | s.hands[1]) != 0,
             illegal_at=_koikoi_refused)

    searched("single_yaku_scope", "only the highest of a yaku and its extensions: the decisions and the "
             "score follow that cut base",
             "koikoi-online", {"single_yaku": "true", "single_yaku_scope": "extensions"},
             {"single_yaku_scope": "pile"}, call_bias=False,
             want=lambda s, m, i: s.result is not None and s.result.winner is not None)

    # Fixed deals: a field of four pairs, and instant wins on the deal where a preset lacks them.
    pairs_field = ["01-plain1", "01-plain2", "04-plain1", "04-plain2", "07-plain1", "07-plain2", "10-plain1",
                   "10-plain2"]
    deck = list(arranged_deck(0, [[], []], pairs_field))
    cases.append(_round_case("field_four_pairs", "the field is four pairs: dealt again (Board Game Arena)",
                             "nintendo", {"field_four_pairs": "redeal"}, {"field_four_pairs": "play_on"},
                             deck, 0, [], []))
    plain_hand = ["01-crane", "03-plain1", "04-cuckoo", "06-butterflies", "07-ribbon", "09-blue", "10-deer",
                  "11-swallow"]
    teshi_hand = ["02-warbler", "02-poetry", "02-plain1", "02-plain2", "05-bridge", "06-blue", "07-boar",
                  "08-moon"]
    deck = list(arranged_deck(1, [plain_hand, teshi_hand], []))
    quad = tuple(p for p in deal_layout(1).hands[1] if IDS[deck[p]].startswith("02-"))
    claim = ClaimHandYaku("teshi", quad)
    moves = [{"seat": 1, "action": claim.to_dict()}, {"seat": 0, "action": NoHandYaku().to_dict()}]
    cases.append(_round_case("hand_yaku", "instant win on the deal for wikipedia (Board Game Arena): teshi 6",
                             "wikipedia", {"hand_yaku": "teshi:6,kuttsuki:6"}, {"hand_yaku": {}}, deck, 1,
                             moves, []))
    cases.append(_round_case("hand_whole_month", "a dealt hand holding the four plum cards is dealt again "
                             "(KoiKoi Japan): the non-dealer claims teshi, the deal ends as hand_month",
                             "wikipedia", {"hand_whole_month": "redeal"}, {"hand_whole_month": "play_on"},
                             deck, 1, moves, []))

    pairs_hand = ["03-curtain", "03-poetry", "06-blue", "06-plain2", "09-cup", "09-plain1", "12-phoenix",
                  "12-plain1"]
    field = ["01-poetry", "02-warbler", "04-ribbon", "05-ribbon", "07-boar", "08-moon", "10-blue",
             "11-ribbon"]
    deck = list(arranged_deck(0, [plain_hand, pairs_hand], field))
    claim = ClaimHandYaku("kuttsuki", deal_layout(0).hands[1])
    moves = [{"seat": 0, "action": NoHandYaku().to_dict()}, {"seat": 1, "action": claim.to_dict()}]
    cases.append(_round_case("hand_yaku", "instant win on the deal for classic-variant: four pairs, "
                             "kuttsuki 6", "classic-variant", {"hand_yaku": "teshi:6,kuttsuki:6"},
                             {"hand_yaku": {}}, deck, 0, moves, []))
    return cases


def first_dealer_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []

    def add(switch: str, comment: str, base: str, changes: dict[str, str], off: dict[str, Any] | None,
            revealed: list[str]) -> None:
        profile = custom(base, changes)
        cards = [IDS.index(x) for x in revealed]
        case: dict[str, Any] = {"switch": switch, "comment": comment,
                                **_profile_fields(profile, base, changes), "without": off,
                                "revealed": revealed}
        try:
            step = choose_first_dealer(profile, cards)
            case.update({"dealer": step.dealer, "need": list(step.need)})
            got: object = (step.dealer, step.need)
        except RulesError as exc:
            case["error"] = exc.reason
            got = exc.reason
        if off is not None:
            try:
                other_step = choose_first_dealer(without(profile, off), cards)
                other: object = (other_step.dealer, other_step.need)
            except RulesError as exc:
                other = exc.reason
            assert other != got, case
        cases.append(case)

    coin, draw = {"first_dealer": "coin"}, {"first_dealer": "card_draw"}
    add("first_dealer", "coin: nothing revealed yet, position 0 is needed", "nintendo", coin, draw, [])
    add("first_dealer", "coin: an even card index (02-warbler = 4) at position 0: seat 0 deals", "nintendo",
        coin, draw, ["02-warbler"])
    add("first_dealer", "coin: an odd card index (01-poetry = 1): seat 1 deals", "koikoi-online", coin, draw,
        ["01-poetry"])
    add("first_dealer", "coin: one card decides, a second is too many", "nintendo", coin, draw,
        ["01-poetry", "05-bridge"])
    add("first_dealer", "host deals, nothing revealed", "wikipedia", {"first_dealer": "host"}, draw, [])
    add("first_dealer", "joiner deals, nothing revealed", "board-game", {"first_dealer": "joiner"}, draw, [])
    add("first_dealer", "joiner: any revealed card is too many", "board-game", {"first_dealer": "joiner"},
        None, ["01-crane"])
    add("first_dealer", "card draw: nothing revealed, the first pair is needed", "nintendo", {}, coin, [])
    add("first_dealer", "card draw: the earlier month deals (seat 1 drew March, seat 0 May)", "nintendo", {},
        coin, ["05-bridge", "03-plain1"])
    add("first_dealer", "card draw, redraw: one month twice, the next pair is needed", "teaching-card", {},
        coin, ["02-warbler", "02-poetry"])
    add("first_dealer", "card draw, higher_card: one month, the animal beats the ribbon", "nintendo", {},
        coin, ["02-poetry", "02-warbler"])
    add("first_dealer", "card draw: a tie then a decided pair", "teaching-card", {}, coin,
        ["06-plain1", "06-plain2", "12-phoenix", "09-cup"])
    add("first_dealer", "card draw: a repeated card is refused", "nintendo", {}, None,
        ["06-plain1", "06-plain1"])
    # Every pair of one month (redraw): the coin of position 0 decides (card 1 is odd: seat 1).
    all_tie = [1, 0, *range(2, 48)]
    add("first_dealer", "card draw, redraw: all 24 pairs tie, the coin of position 0 decides",
        "teaching-card", {}, coin, [IDS[c] for c in all_tie])
    return cases


def match_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []

    def result(winner: int | None, points: int, dealer: int) -> RoundResult:
        if winner is None:
            return RoundResult(winner=None, points=0, yaku={}, base=0, calls=(), redeal=False,
                               next_dealer=dealer, reason="exhaustion")
        return RoundResult(winner=winner, points=points, yaku={"sanko": points}, base=points, calls=(),
                           redeal=False, next_dealer=winner, reason="stop")

    def add(switch: str, comment: str, base: str, changes: dict[str, str], off: dict[str, Any],
            results: list[RoundResult]) -> None:
        profile = custom(base, changes)

        def play(p: Profile) -> MatchState:
            match = MatchState(p, 0)
            for r in results:
                match.record(r)
            return match

        got, other = play(profile), play(without(profile, off))
        assert (got.scores, got.over, got.winner) != (other.scores, other.over, other.winner)
        cases.append({"switch": switch, "comment": comment, **_profile_fields(profile, base, changes),
                      "without": off, "first_dealer": 0, "results": [r.to_dict() for r in results],
                      "scores": list(got.scores), "over": got.over, "winner": got.winner,
                      "round_index": got.round_index})

    add("subtract_from_opponent", "each month the winner's points come off the loser: 5, then 7 the other "
        "way",
        "classic-variant", {"subtract_from_opponent": "true"}, {"subtract_from_opponent": False},
        [result(0, 5, 0), result(1, 7, 0), result(None, 0, 1)])
    add("subtract_from_opponent", "the target is reached by points gained, the loser may sink below 0",
        "classic-variant", {"subtract_from_opponent": "true", "target_score": "20"},
        {"subtract_from_opponent": False},
        [result(1, 8, 0), result(1, 8, 1), result(0, 3, 1), result(1, 9, 0)])
    add("subtract_from_opponent", "nintendo rounds with scores from 0 and subtraction",
        "nintendo", {"subtract_from_opponent": "true", "rounds": "3"}, {"subtract_from_opponent": False},
        [result(0, 6, 0), result(1, 6, 0), result(1, 1, 1)])
    return cases


def encoding_cases() -> dict[str, Any]:
    good: list[dict[str, Any]] = []
    for name, profile in PRESETS.items():
        good.append({"comment": f"preset {name}: the same bytes and digest as in protocol version 1"
                     if set(profile.to_dict()).isdisjoint(EXTENSION_DEFAULTS)
                     else f"preset {name}: a version 2 encoding (it sets extension switches)",
                     "profile": profile.to_dict(), "encoding": profile.encode().decode(),
                     "sha256": hashlib.sha256(profile.encode()).hexdigest()})
    every = custom("nintendo", {
        "cup_is_plain": "false", "hanami_cancelled_by": "11-rainman", "tsukimi_cancelled_by": "12,11-rainman",
        "cup_either": "true", "brights_add": "true", "sanko_with_rain": "true", "single_yaku": "true",
        "call_limit": "per_seat", "caller_pays_more": "doubled_per_call", "subtract_from_opponent": "true",
        "field_four_pairs": "redeal", "first_dealer": "coin", "hand_yaku": "tenho:6,double_tenho:14"})
    for comment, profile in [
        ("every extension switch away from its default; hand_yaku keys sorted in the bytes", every),
        ("one extension switch: only it is added to the preset's keys",
         custom("board-game", {"first_dealer": "host"})),
        ("a custom name and a core switch changed: no extension key at all",
         custom("wikipedia", {"rounds": "6"})),
        ("the five extension switches of issue 28 away from their defaults",
         custom("board-game", {"viewing_by_call": "true", "koikoi_bonus": "winner_add",
                               "akatan_aotan_on_top": "true", "stop_on_own_last_turn": "true",
                               "hand_whole_month": "redeal", "hand_yaku": "none"})),
        ("single_yaku with single_yaku_scope extensions (issue 28: the source's reading)",
         custom("teaching-card", {"single_yaku": "true", "single_yaku_scope": "extensions"})),
    ]:
        good.append({"comment": comment, "profile": profile.to_dict(), "encoding": profile.encode().decode(),
                     "sha256": hashlib.sha256(profile.encode()).hexdigest()})
    nintendo = PRESETS["nintendo"].to_dict()
    bad: list[dict[str, Any]] = []
    for comment, data in [
        ("an extension switch present at its default is not canonical",
         {**nintendo, "first_dealer": "card_draw"}),
        ("an empty cancel list present is not canonical", {**nintendo, "hanami_cancelled_by": []}),
        ("an unknown switch", {**nintendo, "first_dealer_by": "coin"}),
        ("a core switch missing", {k: v for k, v in nintendo.items() if k != "viewing"}),
        ("the cup cannot be both (cup_is_plain) and either (cup_either)", {**nintendo, "cup_either": True}),
        ("subtraction needs scores from 0, not a pool",
         {**PRESETS["koikoi-online"].to_dict(), "subtract_from_opponent": True}),
        ("a cancel list in card order", {**nintendo, "hanami_cancelled_by": ["12-phoenix", "11-rainman"]}),
        ("a cancel list cannot name the yaku's own cards", {**nintendo, "tsukimi_cancelled_by": ["08-moon"]}),
        ("an unknown first-dealer method", {**nintendo, "first_dealer": "birthday"}),
        ("a boolean switch given an integer", {**nintendo, "single_yaku": 1}),
        ("the red-and-blue 10 on top needs separate_5_5 (nintendo has chofuku_10)",
         {**nintendo, "akatan_aotan_on_top": True}),
        ("a hand of a whole month cannot both redeal and be teshi",
         {**nintendo, "hand_whole_month": "redeal"}),
        ("an unknown koi-koi bonus", {**nintendo, "koikoi_bonus": "winner_pow2"}),
        ("single_yaku_scope extensions needs single_yaku", {**nintendo, "single_yaku_scope": "extensions"}),
        ("an unknown single_yaku_scope", {**nintendo, "single_yaku": True, "single_yaku_scope": "family"}),
        ("single_yaku_scope at its default (pile) is not canonical",
         {**nintendo, "single_yaku": True, "single_yaku_scope": "pile"}),
    ]:
        try:
            Profile.from_dict(data)
        except RulesError as exc:
            bad.append({"comment": comment, "profile": data, "error": exc.reason})
        else:  # pragma: no cover
            raise AssertionError(comment)
    return {"valid": good, "invalid": bad}


def text_cases() -> list[dict[str, Any]]:
    samples: list[tuple[str, str]] = [
        ("cup_either", "true"), ("cup_either", "Off"), ("cup_either", " yes "), ("cup_either", "maybe"),
        ("cup_is_plain", "true"), ("transfer_cap", "no"),
        ("rounds", "6"), ("rounds", "-1"), ("rounds", "six"), ("max_calls_per_round", "0"),
        ("first_dealer", "coin"), ("first_dealer", "Coin"), ("caller_pays_more", "times_calls"),
        ("call_limit", "per_seat"), ("field_four_pairs", "redeal"),
        ("bright_values", "10,8,7,5"), ("bright_values", "[15,8,7,6]"), ("bright_values", "10,8,7"),
        ("hand_yaku", "teshi:6,kuttsuki:6"), ("hand_yaku", "none"), ("hand_yaku", "kuttsuki:6, teshi:6"),
        ("hand_yaku", "{\"tenho\":6}"), ("hand_yaku", "teshi"), ("hand_yaku", "oya_ken:1"),
        ("joker_card", "05-bridge"), ("joker_card", "none"), ("joker_card", "01-crane"),
        ("hanami_cancelled_by", "11-rainman"), ("hanami_cancelled_by", "11"), ("hanami_cancelled_by", "none"),
        ("hanami_cancelled_by", "12, 11-rainman"), ("hanami_cancelled_by", "13"),
        ("tsukimi_cancelled_by", "8"), ("name", "room-7"), ("name", "Room 7"), ("no_such_switch", "1"),
    ]
    base = PRESETS["koikoi-online"]
    out: list[dict[str, Any]] = []
    for key, text in samples:
        case: dict[str, Any] = {"base": base.name, "switch": key, "text": text}
        try:
            value = getattr(base.with_switches({key: text}), key)
        except RulesError as exc:
            case["error"] = exc.reason
        else:
            plain = base.with_switches({key: text}).every_switch()[key]
            case["value"] = plain
            case["written"] = switch_text(key, value)
            assert getattr(base.with_switches({key: case["written"]}), key) == value
        out.append(case)
    return out


def difference_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for base, changes, name in [
        ("nintendo", {}, None),
        ("nintendo", {"rounds": "6", "first_dealer": "coin"}, None),
        ("koikoi-online", {"rounds": "6", "cup_either": "on", "hanami_cancelled_by": "11"}, "room"),
        ("board-game", {"double_threshold": "7", "koikoi_multiplier": "opponent_flat_x2"}, "custom"),
    ]:
        profile = PRESETS[base].with_switches({**changes, **({"name": name} if name else {})})
        out.append({"profile": profile.to_dict(), "nearest": nearest_preset(profile),
                    "differences": differences(profile)})
    return out


def switch_vectors() -> dict[str, Any]:
    return {
        "provenance": {"generator": GENERATOR, "seed": "rules-switch-scoring-v2, rules-switch-rounds-v2",
                       "note": "house-rule switches; 'without' holds switch values that remove the case's "
                               "effect: with them applied the outcome must differ (null: a tie-break case)"},
        "encoding": encoding_cases(),
        "text": text_cases(),
        "differences": difference_cases(),
        "scoring": switch_scoring_cases(),
        "rounds": switch_round_cases(),
        "first_dealer": first_dealer_cases(),
        "matches": match_cases(),
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def build() -> dict[str, str]:
    """Every vector file's text, by file name."""
    return {
        "scoring.json": render(scoring_vectors()),
        "perft.json": render(perft_vectors()),
        "games.json": render(game_vectors()),
        "switches.json": render(switch_vectors()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file on disk is stale")
    args = parser.parse_args()
    stale = []
    for name, text in build().items():
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if args.check:
        print("stale: " + ", ".join(stale) if stale else "current")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

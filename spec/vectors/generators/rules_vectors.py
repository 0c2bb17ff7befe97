"""Generate spec/vectors/rules/*.json from the rules engine (self-made vectors, spec/rules.md §13).

    python spec/vectors/generators/rules_vectors.py

Deterministic: every random choice comes from random.Random seeded with the strings written
into each file's provenance. The tests re-check every case against the engine, and the scoring
cases also against an independent plain scorer written inside the tests.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from koikoi_p2p.rules.actions import Action, Play
from koikoi_p2p.rules.cards import CARDS
from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import PRESETS
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState
from koikoi_p2p.rules.scoring import round_score, score_yaku

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
            yaku = score_yaku(pile, profile, month)
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


def write(name: str, data: dict[str, Any]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False)
    (OUT / name).write_text(text + "\n", encoding="utf-8")


def main() -> None:
    write("scoring.json", scoring_vectors())
    write("perft.json", perft_vectors())
    write("games.json", game_vectors())


if __name__ == "__main__":
    main()

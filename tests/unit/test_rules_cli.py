"""``koikoi score`` and ``koikoi rules`` on the command line, and the rules benchmark's shape."""

from __future__ import annotations

import argparse
import json

import pytest

from koikoi_p2p.cli.main import main
from koikoi_p2p.rules.profile import PRESETS


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_score_worked_examples(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "score", "--rules", "teaching-card", "--calls", "B", "--winner", "A", "--json",
                   "01-crane", "03-curtain", "08-moon", "12-phoenix")
    assert out == {"yaku": {"shiko": 8}, "base": 8, "round_score": 32}
    four = ["01-crane", "03-curtain", "08-moon", "11-rainman"]
    assert run_json(capsys, "score", "--rules", "nintendo", "--json", *four)["round_score"] == 14  # type: ignore[index]
    assert run_json(capsys, "score", "--rules", "koikoi-online", "--json", *four)["round_score"] == 7  # type: ignore[index]
    out = run_json(capsys, "score", "--rules", "koikoi-online", "--calls", "A,B,A", "--winner", "B", "--json",
                   "07-boar", "10-deer", "06-butterflies", "02-warbler", "04-cuckoo")
    assert out == {"yaku": {"inoshikacho": 7, "tane": 1}, "base": 8, "round_score": 64}
    out = run_json(capsys, "score", "--rules", "wikipedia", "--month", "4", "--json",
                   "04-cuckoo", "04-ribbon", "04-plain1", "04-plain2")
    assert out == {"yaku": {"tsukifuda": 4}, "base": 4, "round_score": 4}


def test_score_refuses_more_calls_than_the_rules_allow(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "nintendo", "--calls", "A,B", "01-crane"]) == 2
    assert "nintendo allows 1 koi-koi call(s) in a round, not 2" in capsys.readouterr().err
    assert main(["score", "--rules", "nintendo", "--calls", "A", "01-crane"]) == 0
    assert main(["score", "--rules", "wikipedia", "--calls", "A,B,A,B", "01-crane"]) == 0


def test_switches_and_indices(capsys: pytest.CaptureFixture[str]) -> None:
    nine = ["01-plain1", "01-plain2", "02-plain1", "02-plain2", "03-plain1", "03-plain2", "04-plain1",
            "04-plain2", "05-plain1", "09-cup"]
    assert run_json(capsys, "score", "--json", *nine)["yaku"] == {"kasu": 1}  # type: ignore[index]
    out = run_json(capsys, "score", "--switch", "cup_is_plain=false", "--json", *nine)
    assert out["yaku"] == {}  # type: ignore[index]
    by_index = run_json(capsys, "score", "--json", "0", "8", "28", "44")
    assert by_index["yaku"] == {"shiko": 8}  # type: ignore[index]
    out = run_json(capsys, "rules", "board-game", "--switch", "rounds=6", "--switch", "pool_start=50",
                   "--json")
    assert out["switches"]["rounds"] == 6 and out["switches"]["pool_start"] == 50  # type: ignore[index]
    assert main(["rules", "--switch", "rounds=-1"]) == 2
    assert main(["rules", "--switch", "nonsense"]) == 2
    assert main(["score", "--switch", "no_such=1", "01-crane"]) == 2


def test_score_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "01-crane", "03-curtain", "11-rainman"]) == 0
    text = capsys.readouterr().out
    assert "no yaku" in text and "base: 0" in text
    assert main(["score", "99-nothing"]) == 2
    assert "no card has the id '99-nothing'" in capsys.readouterr().err
    assert main(["score", "--rules", "nope", "01-crane"]) == 2
    assert main(["score", "--calls", "A,C", "01-crane"]) == 2
    assert main(["score", "--month", "13", "01-crane"]) == 2
    assert main(["score", "01-crane", "01-crane"]) == 2


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    for name, profile in PRESETS.items():
        out = run_json(capsys, "rules", name, "--json")
        assert isinstance(out, dict)
        assert out["switches"] == profile.every_switch()
        assert out["encoding"] == profile.encode().decode() and out["differences"] == {}
        ids = [row["id"] for row in out["yaku"]]
        assert "goko" in ids and ("tsukifuda" in ids) == bool(profile.monthly_yaku_points)
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert "nintendo" in text and "teshi" in text and "double_threshold" in text
    assert main(["rules", "nope"]) == 2


def test_bench_rules_shape() -> None:
    from koikoi_p2p.bench import rules as bench

    found = bench.run(argparse.Namespace(rounds=20, repeat=1, seed=1, json=True))
    assert [m.name for m in found] == ["random_rounds_all_presets"] + [f"random_rounds_{n}" for n in PRESETS]
    for m in found:
        assert m.median_s > 0 and m.floor_s == 1 / 2000 and m.ratio == pytest.approx(m.floor_s / m.median_s)


def test_rules_say_how_each_preset_plays_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    expected = {
        "nintendo": ("one koi-koi call per round", "a base of 7 or more doubles",
                     "x2 when the winner's opponent had called", "the other player deals"),
        "koikoi-online": ("a base of 8 or more doubles", "x(1 + all calls by both players)",
                          "pool of 25", "on the last turn only stop is offered"),
        "teaching-card": ("must be played when you hold one",
                          "the next yaku made or raised by either player"),
        "wikipedia": ("the dealer scores 1 (oya-ken), even against a caller", "same dealer deals again"),
        "board-game": ("x2 for each call by the winner", "no doubling", "pool of 100", "tenho 6"),
        "classic-variant": ("calls multiply nothing", "the last caller scores", "reach 50 points"),
        "koikoi-japan": ("any number of koi-koi calls", "the round goes on until someone stops",
                         "on each player's own last turn only stop is offered", "no doubling",
                         "the winner's own calls add 1, 2 or 3 points", "the dealer scores 1 (oya-ken)",
                         "a hand holding all four cards of a month is shown and dealt again, as is a field",
                         "pool of 30; the loser pays the winner; a player at 0 or less loses at once",
                         "after 8 rounds", "a fair coin"),
    }
    for name in PRESETS:
        assert main(["rules", name]) == 0
        text = " ".join(capsys.readouterr().out.split())  # the screen folds long lines
        for phrase in expected[name]:
            assert phrase in text, (name, phrase)
        out = run_json(capsys, "rules", name, "--json")
        assert isinstance(out, dict) and all(isinstance(line, str) for line in out["summary"])


def test_score_names_an_unknown_card_whatever_it_looks_like(capsys: pytest.CaptureFixture[str]) -> None:
    for odd in ("\u00b2", "48", "01-cran"):
        assert main(["score", odd]) == 2
        assert "no card has the" in capsys.readouterr().err
    assert main(["score", "01-cran"]) == 2
    assert "nearest: 01-crane" in capsys.readouterr().err  # the nearest ids are suggested


def test_rules_and_score_take_house_rule_switches_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "rules", "wikipedia", "--switch", "hand_yaku=teshi:6,kuttsuki:6",
                   "--switch", "first_dealer=coin", "--switch", "hanami_cancelled_by=11", "--json")
    assert isinstance(out, dict)
    assert out["differences"] == {"hand_yaku": "teshi:6,kuttsuki:6",
                                  "hanami_cancelled_by": "11-rainman,11-swallow,11-ribbon,11-lightning",
                                  "first_dealer": "coin"}
    assert out["switches"]["first_dealer"] == "coin" and '"first_dealer":"coin"' in out["encoding"]
    assert "teshi" in [row["id"] for row in out["yaku"]]
    assert main(["rules", "wikipedia", "--switch", "single_yaku=yes", "--switch", "first_dealer=host"]) == 0
    text = capsys.readouterr().out
    assert "custom, based on wikipedia: single_yaku=true, first_dealer=host" in text
    assert "the host deals first" in text and "the single highest yaku" in text
    assert main(["rules", "--switch", "first_dealer=birthday"]) == 2
    err = capsys.readouterr().err
    assert "first_dealer" in err and "card_draw, coin, host, joiner" in err
    five = ["01-crane", "03-curtain", "08-moon", "11-rainman", "12-phoenix"]
    out = run_json(capsys, "score", "--switch", "brights_add=on", "--json", *five)
    assert out["yaku"] == {"goko": 10, "shiko": 8, "ame_shiko": 7, "sanko": 5}  # type: ignore[index]
    out = run_json(capsys, "score", "--rules", "wikipedia", "--switch", "caller_pays_more=times_calls",
                   "--calls", "B,B", "--json", "01-crane", "03-curtain", "08-moon")
    assert out["round_score"] == 6 * 2 * 2  # type: ignore[index]


def test_koikoi_rules_describes_every_extension_switch() -> None:
    """Each house-rule switch, set away from its default, changes what `koikoi rules` says."""
    from koikoi_p2p.rules.describe import summary, yaku_table
    from koikoi_p2p.rules.profile import EXTENSION_DEFAULTS, preset

    base = preset("koikoi-online")
    settings: dict[str, object] = {
        "hanami_cancelled_by": ("11-rainman",), "tsukimi_cancelled_by": ("12-phoenix",), "cup_either": True,
        "brights_add": True, "sanko_with_rain": True, "single_yaku": True, "call_limit": "per_seat",
        "caller_pays_more": "times_calls", "subtract_from_opponent": True, "field_four_pairs": "redeal",
        "first_dealer": "coin", "viewing_by_call": True, "koikoi_bonus": "winner_add",
        "akatan_aotan_on_top": True, "stop_on_own_last_turn": True, "hand_whole_month": "redeal",
        "single_yaku_scope": "extensions",
    }
    assert set(settings) == set(EXTENSION_DEFAULTS)

    def words(p: object) -> str:
        return "\n".join(summary(p)) + "\n" + json.dumps(yaku_table(p))  # type: ignore[arg-type]

    for key, value in settings.items():
        base_for = base
        if key == "subtract_from_opponent":
            base_for = base.with_switches(pool_start=0, transfer_cap=False, bust_ends_game=False)
        elif key == "call_limit":
            base_for = base.with_switches(max_calls_per_round=1)
        elif key == "akatan_aotan_on_top":
            base_for = base.with_switches(ribbon_pair="separate_5_5")
        elif key == "hand_whole_month":
            base_for = base.with_switches(hand_yaku={"kuttsuki": 6})
        elif key == "single_yaku_scope":
            base_for = base.with_switches(single_yaku=True)
        changed = base_for.with_switches(**{key: value})
        assert words(changed) != words(base_for), key

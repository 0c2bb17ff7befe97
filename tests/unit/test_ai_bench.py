"""koikoi bench ai: every pair of the ladder beside the random baseline of the same run, as JSON
and as a table, with the Wilson interval in each row's note and the targets checked."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.bench import ai
from koikoi_p2p.bench.ai import pairs, wilson
from koikoi_p2p.cli.main import main


def test_wilson_interval() -> None:
    lo, hi = wilson(120, 200)
    assert lo == pytest.approx(0.5308, abs=1e-4) and hi == pytest.approx(0.6654, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73


def test_pairs_name_the_stronger_rung_first() -> None:
    every = pairs("all")
    assert len(every) == 10 and ("master", "strong") in every and ("greedy", "random") in every
    assert ("expert", "master") in every and ("expert", "strong") in every
    assert pairs("random-greedy,strong-master") == [("greedy", "random"), ("master", "strong")]
    with pytest.raises(SystemExit):
        pairs("master-grandmaster")
    # The network probe is no rung: never in "all", and always the side a pair measures.
    assert not any("network" in pair for pair in every)
    assert pairs("strong-network,network-expert") == [("network", "strong"), ("network", "expert")]
    with pytest.raises(SystemExit):
        pairs("network-network")


def test_bench_ai_network_probe(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--json", "--matches", "2", "--seed", "4", "--rules", "nintendo,wikipedia",
                 "--pairs", "network-greedy"]) == 0
    by_name = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
    row = by_name["nintendo/network_vs_greedy"]
    assert "s/decision network" in row["note"] and "trained on" not in row["note"]
    assert by_name["wikipedia/network_vs_greedy"]["note"].endswith(
        "the network was trained on nintendo only, not wikipedia")
    assert not any(name.startswith("target/") for name in by_name)


def test_the_network_probe_plays_with_the_weights_given(tmp_path: Path) -> None:
    from importlib import resources

    from koikoi_p2p.ai.lookahead import NetworkPlayer
    from koikoi_p2p.rules.profile import preset

    weights = tmp_path / "w.json"
    weights.write_bytes(resources.files("koikoi_p2p.ai").joinpath("expert_weights.json").read_bytes())
    player = ai._maker(preset("nintendo"), 150, ai.ExpertSetting(str(weights)))("network", 0)
    assert isinstance(player, NetworkPlayer) and player.net is ai._net(str(weights))
    assert player.net is not ai._net(None)
    shipped = ai._maker(preset("nintendo"), 150)("network", 0)
    assert isinstance(shipped, NetworkPlayer) and shipped.net is ai._net(None)


def test_bench_ai_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--json", "--matches", "4", "--seed", "5", "--rules", "nintendo",
                 "--pairs", "greedy-random,master-strong,master-greedy",
                 "--master-simulations", "12"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {m["name"]: m for m in data}
    row = by_name["nintendo/greedy_vs_random"]
    assert row["unit"] == "win_rate"
    assert 0.0 <= row["floor_s"] <= 1.0 and 0.0 <= row["median_s"] <= 1.0
    found = re.search(r"ci=\[([0-9.]+), ([0-9.]+)\]", row["note"])
    assert found is not None and float(found[1]) <= row["median_s"] <= float(found[2])
    assert "4 matches" in row["note"] and "points/round" in row["note"] and "s/decision" in row["note"]
    assert {"target/master_vs_strong_nintendo", "target/master_beats_greedy_by_more",
            "target/greedy_vs_random_nintendo"} <= set(by_name)
    assert "12 simulations per decision" in by_name["bench_seconds"]["note"]


def test_bench_ai_repeats_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "ai", "--json", "--matches", "2", "--rules", "koikoi-online",
            "--pairs", "master-random", "--master-simulations", "8"]
    runs = []
    for _ in range(2):
        assert main(args) == 0
        row = {m["name"]: m for m in json.loads(capsys.readouterr().out)}["koikoi-online/master_vs_random"]
        runs.append((row["median_s"], re.sub(r"s/decision.*", "", row["note"])))
    assert runs[0] == runs[1]


def test_bench_ai_plays_the_same_matches_with_any_number_of_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each match has its own deals and seeds: two worker processes give the rows of one, and the
    expert's own budget is said beside the master's."""
    args = ["bench", "ai", "--json", "--matches", "4", "--rules", "nintendo", "--pairs",
            "master-strong,expert-greedy", "--master-simulations", "6", "--expert-simulations", "9",
            "--expert-horizon", "2"]
    runs = []
    for workers in ("1", "2"):
        assert main([*args, "--workers", workers]) == 0
        rows = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
        note = rows.pop("bench_seconds")["note"]
        assert "master at 6 and expert at 9 simulations per decision" in note, note
        assert f"{workers} worker" in note, note
        runs.append({name: (m["median_s"], re.sub(r"s/decision.*", "", m["note"]))
                     for name, m in rows.items()})
    assert runs[0] == runs[1]


@pytest.mark.parametrize("option", ["--workers", "--expert-simulations", "--master-simulations"])
def test_bench_ai_refuses_a_count_under_one(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["bench", "ai", option, "0"])
    assert stopped.value.code == 2
    assert f"argument {option}: must be at least 1" in capsys.readouterr().err


def test_bench_ai_expert_rows_and_targets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The expert rung: its rows, its two targets, and --weights (here the shipped file itself);
    a row under a preset its network was not trained on says so."""
    from importlib import resources

    weights = tmp_path / "w.json"
    weights.write_bytes(resources.files("koikoi_p2p.ai").joinpath("expert_weights.json").read_bytes())
    assert main(["bench", "ai", "--json", "--matches", "2", "--seed", "3", "--rules", "nintendo,wikipedia",
                 "--pairs", "expert-strong,expert-master", "--master-simulations", "6",
                 "--expert-horizon", "2", "--weights", str(weights)]) == 0
    by_name = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
    assert {"nintendo/expert_vs_strong", "nintendo/expert_vs_master", "target/expert_vs_strong_nintendo",
            "target/expert_vs_master_nintendo"} <= set(by_name)
    assert "s/decision expert" in by_name["nintendo/expert_vs_master"]["note"]
    assert "trained on" not in by_name["nintendo/expert_vs_strong"]["note"]
    for name in ("wikipedia/expert_vs_strong", "wikipedia/expert_vs_master"):
        note = by_name[name]["note"]
        assert note.endswith("the network was trained on nintendo only, not wikipedia")


def test_bench_ai_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--matches", "2", "--rules", "koikoi-online",
                 "--pairs", "strong-random"]) == 0
    out = capsys.readouterr().out
    assert "koikoi-online/strong_vs_random" in out and "ci=[" in out


def test_the_timed_wrapper_shows_the_round_and_the_match() -> None:
    """The bench measures each player as it plays: told the match and shown the round's history
    (the master reads the opponent's discards from it)."""
    from koikoi_p2p.ai.strategy import MatchContext, RoundObserver, tell_match
    from koikoi_p2p.rules.profile import preset

    class Watcher:
        def __init__(self) -> None:
            self.views = 0
            self.contexts = 0

        def observe(self, view: object) -> None:
            self.views += 1

        def match_update(self, context: MatchContext) -> None:
            self.contexts += 1

        def choose(self, view: object, options: Sequence[object]) -> object:
            return options[0]

    inner = Watcher()
    timed = ai.Timed(inner)  # type: ignore[arg-type]
    assert isinstance(timed, RoundObserver)
    tell_match(timed, MatchContext(profile=preset("nintendo"), scores=(0, 0), rounds_played=0))
    play_local_match(preset("nintendo"), (timed, RandomPlayer(1)), random.Random(3), rounds=1)
    assert inner.contexts >= 1 and inner.views > 5


def test_the_run_time_row_names_only_the_budgets_of_levels_played() -> None:
    def note(chosen: list[tuple[str, str]]) -> str:
        return ai._seconds_row(chosen, 150, 1000, 12.0, 20.0, 2).note

    assert "simulations" not in note([("greedy", "random"), ("network", "strong")])
    assert note([("master", "strong")]).startswith("master at 150 simulations per decision")
    assert note([("expert", "strong")]).startswith("expert at 1000 simulations per decision")
    assert note([("expert", "master")]).startswith("master at 150 and expert at 1000 simulations")
    assert "wall 12 s, 2 workers" in note([("strong", "random")])

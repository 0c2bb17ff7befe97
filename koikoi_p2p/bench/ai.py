"""``koikoi bench ai``: the ladder of computer players, every pair over whole matches.

The rungs, weakest first: random (``--level easy``), greedy (``medium``), strong, master and
expert (the master's search with the learned value network at its leaves, expert.py).
Every pair plays ``--matches`` full matches (the preset's own length and end, 12 rounds for
nintendo) under each preset of ``--rules``, through the rules engine alone (no crypto: this
measures players, not the protocol). Seats alternate match by match; each match's deals and every
player's seed come from ``--seed`` and the match's number, and the master and the expert play a
fixed number of playouts per decision (``--master-simulations``, ``--expert-simulations``, no
wall-time cap), so a run repeats exactly except for its timings, with any number of
``--workers`` (processes playing matches side by side; each decision still runs on one core).
``--weights`` benches the expert with another weights file (``koikoi train --out``). A pair may
also name ``network``, no level but a probe of the network alone: its own choice one ply ahead
(lookahead.py), quick enough to judge a trained network before benching the expert with it
(``--pairs network-strong --weights FILE``).

Each row is the stronger rung's (or the probe's) match win rate (draws count as not won) against
the baseline of the same run, random against random under that preset (near one half); its note gives the 95%
Wilson interval as ``ci=[lo, hi]``, the draws, the mean point difference per round (stronger
minus weaker; under a pool profile, the pool moved), and the CPU seconds per decision of each
side (decisions with two or more legal options; one process, so one core). The last rows check
the ladder's targets and give the run's CPU and wall time.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import cache

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.expert import EXPERT_HORIZON, ExpertPlayer
from koikoi_p2p.ai.greedy import GreedyPlayer
from koikoi_p2p.ai.lookahead import NetworkPlayer
from koikoi_p2p.ai.master import MasterPlayer
from koikoi_p2p.ai.strategy import MatchContext, RandomPlayer, Strategy, show_round, tell_match
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.ai.value import ValueNet, shipped
from koikoi_p2p.bench.report import Measurement
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.profile import PRESETS, Profile, preset
from koikoi_p2p.rules.round import RoundView

RUNGS: tuple[str, ...] = ("random", "greedy", "strong", "master", "expert")
# Players a pair may name that are no level of the ladder and not in "all": "network", the value
# network's own choice one ply ahead (lookahead.py), a quick measure of a trained network alone.
PROBES: tuple[str, ...] = ("network",)
DEFAULT_RULES = "nintendo,koikoi-online,wikipedia"
BENCH_SIMULATIONS = 150   # the master's playouts per decision here (see README: the bench budget)
MASTER_TARGET = 0.6       # master against strong, nintendo, and the interval's low end above one half
GREEDY_TARGET = 0.8       # greedy against random
EXPERT_TARGET = 0.6       # expert against strong, nintendo (and against master: the interval above one half)
Z95 = 1.959963984540054


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=200, help="matches per pair and preset (default 200)")
    parser.add_argument("--rules", default=DEFAULT_RULES,
                        help=f"comma-separated presets (default {DEFAULT_RULES})")
    parser.add_argument("--pairs", default="all",
                        help="comma-separated pairs such as master-strong,greedy-random (default all: "
                             "every pair of the ladder); network-strong measures the value network's own "
                             "one-ply choice")
    from koikoi_p2p.cli.options import positive_int

    parser.add_argument("--master-simulations", type=positive_int, default=BENCH_SIMULATIONS, metavar="N",
                        help=f"the master's playouts per decision (default {BENCH_SIMULATIONS})")
    parser.add_argument("--expert-simulations", type=positive_int, default=None, metavar="N",
                        help="the expert's playouts per decision (default: as the master's)")
    parser.add_argument("--expert-horizon", type=int, default=EXPERT_HORIZON, metavar="TURNS",
                        help=f"turns the expert's playouts run before the network values them "
                             f"(default {EXPERT_HORIZON})")
    parser.add_argument("--weights", default=None, metavar="FILE",
                        help="the expert's and the network probe's weights (default: the shipped "
                             "koikoi_p2p/ai/expert_weights.json)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals and the players")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="N",
                        help="processes playing matches side by side (default 1; the results do not "
                             "depend on it)")


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """A strategy wrapper that counts the CPU time of its real choices (two or more options)."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.decisions = 0

    def match_update(self, context: MatchContext) -> None:
        tell_match(self.inner, context)

    def observe(self, view: RoundView) -> None:
        # The round's public history, as a player at the table sees it (the master reads the
        # opponent's discards from it); not timed, like the reveals themselves.
        show_round(self.inner, view)

    def choose(self, view: RoundView, options: Sequence[Action]) -> Action:
        if len(options) < 2:
            return self.inner.choose(view, options)
        start = time.process_time()
        action = self.inner.choose(view, options)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return action


@dataclass(frozen=True, slots=True)
class Series:
    """One pair under one preset: the first rung's wins, draws, points and both sides' time."""

    rules: str
    first: str
    second: str
    matches: int
    wins: int
    draws: int
    point_difference: int
    rounds: int
    seconds: tuple[float, float]
    decisions: tuple[int, int]

    @property
    def rate(self) -> float:
        return self.wins / self.matches

    def per_decision(self, side: int) -> float:
        return self.seconds[side] / self.decisions[side] if self.decisions[side] else 0.0


Maker = Callable[[str, int], Strategy]


@dataclass(frozen=True, slots=True)
class ExpertSetting:
    """The expert's network (a weights file, None: the shipped one), horizon and playouts for a run."""

    weights: str | None = None
    horizon: int = EXPERT_HORIZON
    simulations: int | None = None   # None: the master's


@cache
def _net(weights: str | None) -> ValueNet:
    """The network of a weights file (None: the shipped one), read once per process."""
    if weights is None:
        return shipped()
    import json
    from pathlib import Path

    return ValueNet.from_dict(json.loads(Path(weights).read_text(encoding="utf-8")))


def _maker(profile: Profile, simulations: int, expert: ExpertSetting | None = None) -> Maker:
    def make(rung: str, seed: int) -> Strategy:
        if rung == "random":
            return RandomPlayer(seed)
        if rung == "greedy":
            return GreedyPlayer(profile, seed)
        if rung == "strong":
            return StrongPlayer(profile, seed)
        if rung == "network":
            setting = expert if expert is not None else ExpertSetting()
            return NetworkPlayer(profile, seed, max_seconds=None, net=_net(setting.weights))
        if rung == "expert":
            setting = expert if expert is not None else ExpertSetting()
            return ExpertPlayer(profile, seed, simulations=setting.simulations or simulations,
                                max_seconds=None, horizon=setting.horizon, net=_net(setting.weights))
        return MasterPlayer(profile, seed, simulations=simulations, max_seconds=None)
    return make


@dataclass(frozen=True, slots=True)
class _Match:
    """One match of a series: everything a worker process needs to play it alone."""

    rules: str
    first: str
    second: str
    index: int
    seed: int
    simulations: int
    expert: ExpertSetting | None


def _play(job: _Match) -> tuple[bool, bool, int, int, tuple[float, float], tuple[int, int]]:
    """(first won, drawn, first's point difference, rounds, both sides' seconds and decisions)."""
    profile = preset(job.rules)
    make = _maker(profile, job.simulations, job.expert)
    i, seed = job.index, job.seed
    a = Timed(make(job.first, seed * 1_000_003 + 2 * i))
    b = Timed(make(job.second, seed * 1_000_003 + 2 * i + 1))
    seat = i % 2
    # Each match's own deals, so a match plays the same in any worker and in any order.
    rng = random.Random(f"{seed}/{job.rules}/{i}")  # noqa: S311 - simulated deals, nothing secret
    record = play_local_match(profile, (a, b) if seat == 0 else (b, a), rng)
    return (record.winner == seat, record.winner is None, record.scores[seat] - record.scores[1 - seat],
            record.rounds, (a.seconds, b.seconds), (a.decisions, b.decisions))


def series(rules: str, first: str, second: str, matches: int, seed: int, simulations: int,
           expert: ExpertSetting | None = None, pool: ProcessPoolExecutor | None = None) -> Series:
    """``matches`` matches of ``first`` against ``second`` under ``rules``, seats alternating
    (``pool``: played by its worker processes)."""
    jobs = [_Match(rules, first, second, i, seed, simulations, expert) for i in range(matches)]
    played: Iterable[tuple[bool, bool, int, int, tuple[float, float], tuple[int, int]]] = (
        pool.map(_play, jobs) if pool is not None else map(_play, jobs))
    wins = draws = points = rounds = 0
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    for won, drawn, difference, length, spent, decided in played:
        wins += won
        draws += drawn
        points += difference
        rounds += length
        for side in (0, 1):
            seconds[side] += spent[side]
            decisions[side] += decided[side]
    return Series(rules=rules, first=first, second=second, matches=matches, wins=wins, draws=draws,
                  point_difference=points, rounds=rounds, seconds=(seconds[0], seconds[1]),
                  decisions=(decisions[0], decisions[1]))


def pairs(text: str) -> list[tuple[str, str]]:
    """The pairs to play, stronger rung first, a probe before any rung ("all": every pair of the
    ladder)."""
    every = [(RUNGS[j], RUNGS[i]) for j in range(len(RUNGS)) for i in range(j)]
    if text == "all":
        return every
    known = RUNGS + PROBES
    chosen: list[tuple[str, str]] = []
    for item in text.split(","):
        a, _, b = item.strip().partition("-")
        if a not in known or b not in known or a == b:
            raise SystemExit(f"koikoi bench ai: bad pair {item!r}; rungs: {', '.join(RUNGS)}; "
                             f"probes: {', '.join(PROBES)}")
        if b in PROBES or (a not in PROBES and RUNGS.index(a) < RUNGS.index(b)):
            a, b = b, a
        chosen.append((a, b))
    return chosen


def _row(s: Series, baseline: float) -> Measurement:
    lo, hi = wilson(s.wins, s.matches)
    diff = s.point_difference / s.rounds if s.rounds else 0.0
    return Measurement(
        name=f"{s.rules}/{s.first}_vs_{s.second}",
        median_s=s.rate,
        floor_s=baseline,
        ratio=s.rate / baseline if baseline else float("inf"),
        unit="win_rate",
        note=(f"ci=[{lo:.3f}, {hi:.3f}]; {s.matches} matches, draws {s.draws / s.matches:.3f}; "
              f"points/round {diff:+.2f}; s/decision {s.first} {s.per_decision(0):.5f}, "
              f"{s.second} {s.per_decision(1):.5f}"),
    )


def run(args: argparse.Namespace) -> list[Measurement]:
    matches = max(1, int(getattr(args, "matches", 200)))
    seed = int(getattr(args, "seed", 2026))
    simulations = max(1, int(getattr(args, "master_simulations", BENCH_SIMULATIONS)))
    rules_list = [r.strip() for r in str(getattr(args, "rules", DEFAULT_RULES)).split(",") if r.strip()]
    for rules in rules_list:
        if rules not in PRESETS:
            raise SystemExit(f"koikoi bench ai: unknown preset {rules!r}; presets: {', '.join(PRESETS)}")
    chosen = pairs(str(getattr(args, "pairs", "all")))
    weights = getattr(args, "weights", None)
    expert_sims = getattr(args, "expert_simulations", None)
    expert_simulations = max(1, int(expert_sims)) if expert_sims else simulations
    net: ValueNet | None = None
    if any("expert" in pair or "network" in pair for pair in chosen) or weights is not None:
        net = _net(None if weights is None else str(weights))
    expert = (ExpertSetting(None if weights is None else str(weights),
                            int(getattr(args, "expert_horizon", EXPERT_HORIZON)), expert_simulations)
              if net is not None else None)
    trained = [str(r) for r in net.provenance.get("trained_on", [])] if net is not None else []
    workers = max(1, int(getattr(args, "workers", 1) or 1))
    wall, cpu = time.perf_counter(), _cpu()
    rows: list[Measurement] = []
    results: dict[tuple[str, str, str], Series] = {}
    with contextlib.ExitStack() as stack:
        # Spawned, not forked: a fork of a process with threads (a test runner's, say) can inherit a
        # held lock; each worker imports the players afresh instead.
        spawn = multiprocessing.get_context("spawn")
        pool = stack.enter_context(ProcessPoolExecutor(workers, mp_context=spawn)) if workers > 1 else None
        for rules in rules_list:
            base = series(rules, "random", "random", matches, seed + 1, simulations, pool=pool)
            for first, second in chosen:
                s = series(rules, first, second, matches, seed, simulations, expert, pool)
                results[(rules, first, second)] = s
                row = _row(s, base.rate)
                if {"expert", "network"} & {first, second} and rules not in trained:
                    # The network never saw this preset's scoring: say so beside the figure.
                    row = replace(row, note=f"{row.note}; the network was trained on "
                                            f"{', '.join(trained) or 'no named preset'} only, not {rules}")
                rows.append(row)
    rows.extend(_targets(results))
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    rows.append(_seconds_row(chosen, simulations, expert_simulations, wall, cpu, workers))
    return rows


def _seconds_row(chosen: list[tuple[str, str]], simulations: int, expert_simulations: int,
                 wall: float, cpu: float, workers: int) -> Measurement:
    """The run's whole CPU time against 20 minutes, naming the search budgets of the levels played."""
    played = {level for pair in chosen for level in pair}
    parts = [f"{level} at {sims}" for level, sims in (("master", simulations), ("expert", expert_simulations))
             if level in played]
    budgets = f"{' and '.join(parts)} simulations per decision (playouts), no time cap; " if parts else ""
    return Measurement(
        name="bench_seconds", median_s=cpu, floor_s=20 * 60.0, ratio=cpu / (20 * 60.0), unit="s",
        note=(f"{budgets}CPU seconds of the whole run, every worker's together (wall {wall:.0f} s, "
              f"{workers} worker{'s' if workers > 1 else ''}) against 20 minutes"),
    )


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _targets(results: dict[tuple[str, str, str], Series]) -> list[Measurement]:
    """The ladder's targets, where the run played the pairs they need."""
    rows: list[Measurement] = []
    es = results.get(("nintendo", "expert", "strong"))
    if es is not None:
        lo, hi = wilson(es.wins, es.matches)
        ok = es.rate >= EXPERT_TARGET and lo > 0.5
        rows.append(Measurement(
            name="target/expert_vs_strong_nintendo", median_s=es.rate, floor_s=EXPERT_TARGET,
            ratio=es.rate / EXPERT_TARGET, unit="win_rate",
            note=f"ci=[{lo:.3f}, {hi:.3f}]; target >= {EXPERT_TARGET} with ci low end > 0.5 "
                 f"({'meets' if ok else 'MISSES'})"))
    em = results.get(("nintendo", "expert", "master"))
    if em is not None:
        lo, hi = wilson(em.wins, em.matches)
        rows.append(Measurement(
            name="target/expert_vs_master_nintendo", median_s=em.rate, floor_s=0.5,
            ratio=em.rate / 0.5, unit="win_rate",
            note=f"ci=[{lo:.3f}, {hi:.3f}]; target: ci low end > 0.5 ({'meets' if lo > 0.5 else 'MISSES'})"))
    ms = results.get(("nintendo", "master", "strong"))
    if ms is not None:
        lo, hi = wilson(ms.wins, ms.matches)
        ok = ms.rate >= MASTER_TARGET and lo > 0.5
        rows.append(Measurement(
            name="target/master_vs_strong_nintendo", median_s=ms.rate, floor_s=MASTER_TARGET,
            ratio=ms.rate / MASTER_TARGET, unit="win_rate",
            note=f"ci=[{lo:.3f}, {hi:.3f}]; target >= {MASTER_TARGET} with ci low end > 0.5 "
                 f"({'meets' if ok else 'MISSES'})"))
        mg = results.get(("nintendo", "master", "greedy"))
        if mg is not None:
            rows.append(Measurement(
                name="target/master_beats_greedy_by_more", median_s=mg.rate, floor_s=ms.rate,
                ratio=mg.rate / ms.rate if ms.rate else float("inf"), unit="win_rate",
                note=f"master vs greedy {mg.rate:.3f} against master vs strong {ms.rate:.3f} "
                     f"({'meets' if mg.rate > ms.rate else 'MISSES'})"))
    gr = results.get(("nintendo", "greedy", "random"))
    if gr is not None:
        lo, hi = wilson(gr.wins, gr.matches)
        rows.append(Measurement(
            name="target/greedy_vs_random_nintendo", median_s=gr.rate, floor_s=GREEDY_TARGET,
            ratio=gr.rate / GREEDY_TARGET, unit="win_rate",
            note=f"ci=[{lo:.3f}, {hi:.3f}]; target >= {GREEDY_TARGET} "
                 f"({'meets' if gr.rate >= GREEDY_TARGET else 'MISSES'})"))
    return rows

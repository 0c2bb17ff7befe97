"""``koikoi bench latency``: what a player waits for over a network, on the crash-safe path.

A seeded selfplay match runs as real players run it (``net.driver.run_peer``: the journal, the
reliable link, a real relay process), seat 0 connected to the relay directly and seat 1 through
a loopback proxy process that adds a fixed one-way delay d to every message (``net.chaos``
``--latency``), at each d of ``--delays``. The match is the same at every d (same seeds, same
transcript), so what grows with d is waiting:

- sequential round trips, per match and per phase: (wall(d) - wall(0)) / 2d, over the whole
  match and over the time seat 0 spends reaching each envelope of a phase (match setup, the
  first-dealer draw, each later deal's setup up to its first play, turns, closings, the match
  result), per deal, per play, per closing; cross-checked (the floor column) against the
  transcript: each change of sender from seat 0 to seat 1 costs seat 0 one round trip;
- the time from a player's decision (its strategy returns) to the opponent's ``OpponentMoved``
  event, against d (half a round trip);
- the overhead per envelope at d = 0: the crash-safe match through the relay and proxy against
  the same match played by the two sans-I/O cores in memory (no I/O at all), measured in the
  same run, interleaved, ``--repeat`` times (medians).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koikoi_p2p.bench.report import Measurement

OVERHEAD_TARGET_MS = 5.0
DECISION_SLACK_MS = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=12, help="rounds of the match (default 12)")
    parser.add_argument("--delays", default="0,25,50", help="one-way delays in ms, 0 first (default 0,25,50)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per delay, interleaved (medians)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the match (same in every run)")
    parser.add_argument("--rules", default="nintendo", help="rule preset")


@dataclass
class Run:
    """One crash-safe match at one delay, as seat 0 saw it (and both seats' decision times)."""

    delay: float
    wall: float                                  # start to seat 0's last envelope
    times: list[float]                           # seat 0's time of each envelope (since the start)
    deals: list[int]                             # seat 0's deal when it had each envelope
    envelopes: list[tuple[int, str, dict[str, object]]]   # (sender, type, body)
    raws: list[bytes]
    decision_ms: list[float] = field(default_factory=list)
    writes: tuple[int, int, int] = (0, 0, 0)     # seat 0's journal: appends, fdatasyncs, snapshots


class _Timeline:
    """The crash-safe journal of seat 0, noting when each commit made envelopes available."""

    def __init__(self, folder: Path, clock: Callable[[], float]) -> None:
        from koikoi_p2p.net.journal import Journal

        timeline = self

        class Timed(Journal):
            def append(self, record: list[Any], *, sync: bool = True) -> None:
                super().append(record, sync=sync)
                timeline.mark()

            def rebase(self, base: Any) -> None:
                super().rebase(base)
                timeline.mark()

            def checkpoint(self, base: Any) -> None:
                super().checkpoint(base)
                timeline.mark()

        self.journal = Timed(folder)
        self.clock = clock
        self.core: Any = None
        self.marks: list[tuple[float, int, int]] = []    # (time, envelopes so far, deal)

    def mark(self) -> None:
        core = self.core
        if core is not None and core.peer is not None:
            self.marks.append((self.clock(), len(core.peer.transcript), core.peer.flow.deal))


def _setups(rounds: int, seed: int, rules: str) -> tuple[Any, Any]:
    from koikoi_p2p.net.core import PeerSetup
    from koikoi_p2p.protocol.statement import sha256

    def setup(seat: int) -> Any:
        tag = f"bench-latency/{seed}/{seat}".encode()
        return PeerSetup(seat=seat, identity=sha256(b"id/" + tag), seed=sha256(b"seed/" + tag), room="BENCH1",
                         password=None, rendezvous=f"bench-{seed}", profile=rules, rounds=rounds,
                         step_deadline=600, turn_deadline=600, handshake_deadline=120,
                         strategy_seed=seed * 2 + seat)

    return setup(0), setup(1)


def floor_run(rounds: int, seed: int, rules: str) -> tuple[float, list[bytes]]:
    """The same match by the two sans-I/O cores in memory: no journal, link, relay or network."""
    from koikoi_p2p.net.core import PeerCore
    from koikoi_p2p.net.selfplay import play_cores

    setups = _setups(rounds, seed, rules)
    start = time.perf_counter()
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    play_cores(cores)
    wall = time.perf_counter() - start
    assert cores[0].peer is not None
    return wall, [env.raw for env in cores[0].peer.transcript]


class _Timed:
    """The seeded random player of one decision, noting when it decided (a clock shared by
    processes: CLOCK_MONOTONIC)."""

    def __init__(self, seed: int, n: int, decided: list[float]) -> None:
        from koikoi_p2p.ai.strategy import RandomPlayer

        self.player = RandomPlayer(seed * 1_000_003 + n)
        self.decided = decided

    def choose(self, view: Any, options: Any) -> Any:
        self.decided.append(time.monotonic())
        return self.player.choose(view, options)


def _hear(seen: list[float]) -> Callable[[Any, bool], None]:
    from koikoi_p2p.protocol.events import OpponentMoved

    def hear(event: Any, replayed: bool) -> None:
        if isinstance(event, OpponentMoved) and not replayed:
            seen.append(time.monotonic())
    return hear


async def _seat_one(proxy_url: str, code: str, rounds: int, seed: int, rules: str, folder: Path,
                    disk_thread: bool) -> dict[str, Any]:
    """Seat 1 of ``crash_safe_run``, in a process of its own (``python -m koikoi_p2p.bench.latency``)."""
    from koikoi_p2p.net.driver import DriverOptions, create_state, run_peer
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_p2p.net.rendezvous import RelayRendezvous

    setup = _setups(rounds, seed, rules)[1]
    create_state(folder, setup)
    decided: list[float] = []
    seen: list[float] = []
    guest = await RelayClient.join(proxy_url, code)
    connector = RelayRendezvous(proxy_url, 1, setup.rendezvous, first=guest)
    try:
        outcome = await run_peer(folder, connector,
                                 options=DriverOptions(linger_s=5.0, disk_thread=disk_thread),
                                 strategy=lambda n: _Timed(setup.strategy_seed, n, decided),
                                 on_event=_hear(seen))
    finally:
        await connector.close()
    return {"status": outcome.status, "reason": outcome.reason, "decided": decided, "seen": seen}


async def crash_safe_run(relay_url: str, proxy_url: str, delay: float, rounds: int, seed: int, rules: str,
                         workdir: Path, *, disk_thread: bool = True) -> Run:
    """One match through ``run_peer`` at one delay: seat 0 here, seat 1 in its own process behind
    the proxy, so neither seat's precomputation can delay the other's frames."""
    import json

    from koikoi_p2p.net.driver import DriverOptions, create_state, run_peer
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_p2p.net.rendezvous import RelayRendezvous

    clock = time.monotonic
    setups = _setups(rounds, seed, rules)
    folders = [workdir / f"d{int(delay * 1000)}-{os.urandom(4).hex()}-seat{seat}" for seat in (0, 1)]
    timeline = _Timeline(folders[0], clock)
    create_state(timeline.journal, setups[0])
    decided: list[float] = []
    seen: list[float] = []
    done = [0.0]

    def progress(phase: str, core: Any) -> None:
        timeline.core = core
        if core.done and not done[0]:
            done[0] = clock()

    host = await RelayClient.create(relay_url)
    errors = folders[1].with_suffix(".stderr")
    with open(errors, "wb") as sink:
        other = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "koikoi_p2p.bench.latency", "--seat-one", proxy_url, host.code, str(rounds),
            str(seed), rules, str(folders[1]), "1" if disk_thread else "0",
            stdout=asyncio.subprocess.PIPE, stderr=sink)
    connector = RelayRendezvous(relay_url, 0, setups[0].rendezvous, first=host)
    try:
        await host.wait_for_peer(timeout=30)
        start = clock()
        outcome = await run_peer(timeline.journal, connector,
                                 strategy=lambda n: _Timed(setups[0].strategy_seed, n, decided),
                                 options=DriverOptions(linger_s=5.0, disk_thread=disk_thread),
                                 progress=progress, on_event=_hear(seen))
        out, _ = await asyncio.wait_for(other.communicate(), 60)
    finally:
        await connector.close()
        if other.returncode is None:
            other.kill()
            await other.wait()
    if other.returncode != 0:
        raise SystemExit(f"koikoi bench latency: seat 1 failed: {errors.read_text(errors='replace')[-1500:]}")
    one = json.loads(out.decode().strip().splitlines()[-1])
    for status, reason in ((outcome.status, outcome.reason), (one["status"], one["reason"])):
        if status != "completed":
            raise SystemExit(f"koikoi bench latency: the match did not complete: {status} {reason}")
    core = timeline.core
    assert core is not None and core.peer is not None
    transcript = core.peer.transcript
    times, deals = _envelope_times(timeline.marks, len(transcript), start)
    pairs = list(zip(decided, one["seen"], strict=False)) + list(zip(one["decided"], seen, strict=False))
    return Run(delay=delay, wall=times[-1], times=times, deals=deals,
               envelopes=[(env.sender, env.type, env.body) for env in transcript],
               raws=[env.raw for env in transcript],
               decision_ms=[(b - a) * 1000 for a, b in pairs],
               writes=(timeline.journal.appends, timeline.journal.syncs,
                       timeline.journal.rebases + timeline.journal.checkpoints))


def _envelope_times(marks: list[tuple[float, int, int]], count: int,
                    start: float) -> tuple[list[float], list[int]]:
    times: list[float] = []
    deals: list[int] = []
    for at, have, deal in marks:
        while len(times) < min(have, count):
            times.append(at - start)
            deals.append(deal)
    if len(times) < count:
        raise SystemExit("koikoi bench latency: the timeline missed envelopes")
    return times, deals


PHASES = ("handshake", "match_setup", "first_dealer", "deal_setup", "turn", "closing", "match_close")


def _is_play(body: dict[str, object]) -> bool:
    action = body.get("action")
    return isinstance(action, dict) and action.get("type") == "play"


def classify(envelopes: list[tuple[int, str, dict[str, object]]], deals: list[int]) -> list[str]:
    """The phase of each envelope: match setup (terms), the first-dealer draw (deal 0), a deal's
    setup up to its first play, turns (from a play until the deal closes), closings, the match
    result. Types the rules do not know yet (a later flow) fall into setup or turn by position."""
    from koikoi_p2p.protocol import messages as m

    # Game version 2 (spec/game.md §5.7): a deal closes with its two disclosures; countersignatures
    # travel later, owed before an act, and count with the phase they fall in.
    closing = {m.DISCLOSE}
    out: list[str] = []
    played = False
    for (_, kind, body), deal in zip(envelopes, deals, strict=True):
        is_play = kind == m.ACT and _is_play(body)
        if kind in (m.TERMS, m.ACCEPT):
            out.append("match_setup")
        elif kind in (m.MATCH_RESULT, m.MATCH_SIGN):
            out.append("match_close")
        elif kind in closing:
            out.append("closing")
            played = False
        elif is_play or played:
            out.append("turn")
            played = True
        else:
            out.append("first_dealer" if deal <= 0 else "deal_setup")
    return out


def phase_figures(run: Run, base: Run) -> dict[str, tuple[float, int, int]]:
    """Per phase: (round trips measured, round trips the transcript predicts, how many units)."""
    phases = classify(run.envelopes, run.deals)
    waits = {name: 0.0 for name in PHASES}
    base_waits = {name: 0.0 for name in PHASES}
    predicted = {name: 0 for name in PHASES}
    waits["handshake"], base_waits["handshake"] = run.times[0], base.times[0]
    for i in range(1, len(phases)):
        name = phases[i]
        waits[name] += run.times[i] - run.times[i - 1]
        base_waits[name] += base.times[i] - base.times[i - 1]
        if run.envelopes[i - 1][0] == 0 and run.envelopes[i][0] == 1:
            predicted[name] += 1          # seat 0 sent, then waited for seat 1: one round trip
    plays = sum(1 for phase, (_, kind, body) in zip(phases, run.envelopes, strict=True)
                if phase == "turn" and kind == "act" and _is_play(body))
    closings = sum(1 for i, p in enumerate(phases) if p == "closing" and (i == 0 or phases[i - 1] != p))
    units = {"handshake": 1, "match_setup": 1, "first_dealer": int("first_dealer" in phases),
             "deal_setup": len({d for d, p in zip(run.deals, phases, strict=True) if p == "deal_setup"}),
             "turn": plays, "closing": closings, "match_close": 1}
    trip = 2 * run.delay
    return {name: ((waits[name] - base_waits[name]) / trip, predicted[name], units[name]) for name in PHASES}


class _Proxy:
    """The delay proxy as its own process (its timers never wait on the peers' arithmetic)."""

    def __init__(self, upstream: str, latency: float) -> None:
        self.upstream = upstream
        self.latency = latency
        self.proc: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "koikoi_p2p.net.chaos", "--upstream", self.upstream,
            "--latency", str(self.latency),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert self.proc.stdout is not None
        line = (await asyncio.wait_for(self.proc.stdout.readline(), 30)).decode().strip()
        if not line.startswith("ws://"):
            raise SystemExit(f"koikoi bench latency: the delay proxy did not start ({line!r})")
        self.url = line

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


async def _measure(delays: list[float], repeat: int, rounds: int, seed: int, rules: str,
                   workdir: Path) -> tuple[list[float], dict[float, list[Run]], list[Run]]:
    from koikoi_p2p.bench.soak import RelayProcess

    relay = RelayProcess()
    await relay.start()
    proxies = {d: _Proxy(relay.url, d) for d in delays}
    floors: list[float] = []
    runs: dict[float, list[Run]] = {d: [] for d in delays}
    inline: list[Run] = []                     # d = 0 with the disk waited for on the event loop
    try:
        for proxy in proxies.values():
            await proxy.start()
        floor_run(1, seed, rules)                      # warm caches outside the timing
        for _ in range(repeat):
            wall, raws = floor_run(rounds, seed, rules)
            floors.append(wall)
            for d in delays:
                run = await crash_safe_run(relay.url, proxies[d].url + "/v1", d, rounds, seed, rules, workdir)
                if run.raws != raws:
                    raise SystemExit("koikoi bench latency: the crash-safe match differs from the one "
                                     "in memory")
                runs[d].append(run)
            run = await crash_safe_run(relay.url, proxies[0.0].url + "/v1", 0.0, rounds, seed, rules, workdir,
                                       disk_thread=False)
            if run.raws != raws:
                raise SystemExit("koikoi bench latency: the crash-safe match differs from the one in memory")
            inline.append(run)
    finally:
        for proxy in proxies.values():
            await proxy.stop()
        await relay.kill()
    return floors, runs, inline


def _median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.wall)[len(runs) // 2]


def run(args: argparse.Namespace) -> list[Measurement]:
    rounds = int(getattr(args, "rounds", 12))
    repeat = max(1, int(getattr(args, "repeat", 2)))
    seed = int(getattr(args, "seed", 7))
    rules = str(getattr(args, "rules", "nintendo"))
    try:
        delays = [float(x) / 1000 for x in str(getattr(args, "delays", "0,25,50")).split(",") if x.strip()]
    except ValueError:
        raise SystemExit("koikoi bench latency: --delays is a list of milliseconds, like 0,25,50") from None
    if not delays or delays[0] != 0 or any(d < 0 or d > 1 for d in delays):
        raise SystemExit("koikoi bench latency: --delays starts with 0, each at most 1000 ms")
    with tempfile.TemporaryDirectory(prefix="koikoi-bench-latency-") as tmp:
        floors, runs, inline = asyncio.run(_measure(delays, repeat, rounds, seed, rules, Path(tmp)))
    base = _median_run(runs[0.0])
    n = len(base.raws)
    floor = statistics.median(floors)
    walls0 = [r.wall for r in runs[0.0]]
    wall0 = statistics.median(walls0)
    # Interleaved pairs: each d = 0 match against the floor measured just before it.
    overheads = [(w - f) * 1000 / n for w, f in zip(walls0, floors, strict=True)]
    overhead = statistics.median(overheads)
    changes = sum(1 for i in range(1, n) if base.envelopes[i][0] != base.envelopes[i - 1][0])
    out = [
        Measurement(name="latency.envelope_at_0ms", median_s=wall0 * 1000 / n, floor_s=floor * 1000 / n,
                    ratio=wall0 / floor, unit="ms",
                    note=f"per envelope: crash-safe via relay and proxy vs the cores in memory; "
                         f"{n} envelopes, {rounds} rounds"),
        Measurement(name="latency.overhead_per_envelope", median_s=overhead, floor_s=OVERHEAD_TARGET_MS,
                    ratio=overhead / OVERHEAD_TARGET_MS, unit="ms",
                    note=f"(crash-safe - in memory) / envelopes at d = 0, median of {repeat} interleaved "
                         f"pairs, vs the {OVERHEAD_TARGET_MS:g} ms target; seat 0 wrote {base.writes[0]} "
                         f"records with {base.writes[1]} fdatasyncs and {base.writes[2]} snapshots"),
    ]
    threaded, waited = (statistics.median(x for r in rs for x in r.decision_ms) for rs in (runs[0.0], inline))
    wall_inline = statistics.median(r.wall for r in inline)
    out += [
        Measurement(name="latency.envelope_at_0ms.disk_on_loop", median_s=wall_inline * 1000 / n,
                    floor_s=wall0 * 1000 / n, ratio=wall_inline / wall0, unit="ms",
                    note="per envelope with the fdatasync waited for on the event loop, against the worker "
                         f"thread (the default), interleaved, {repeat} runs each"),
        Measurement(name="latency.decision_to_screen@0ms.disk_on_loop", median_s=waited, floor_s=threaded,
                    ratio=waited / threaded if threaded else 0.0, unit="ms",
                    note="decision to the opponent's screen with the fdatasync on the event loop, against "
                         "the worker thread (the floor column); ratio < 1: the hand-off costs more than it "
                         "saves"),
    ]
    for d in delays:
        chosen = _median_run(runs[d])
        decision = statistics.median(chosen.decision_ms) if chosen.decision_ms else 0.0
        one_way = d * 1000
        out.append(Measurement(
            name=f"latency.decision_to_screen@{one_way:g}ms", median_s=decision, floor_s=max(one_way, 1e-9),
            ratio=decision / one_way if one_way else 0.0, unit="ms",
            note=f"a decision to the opponent's OpponentMoved, median of {len(chosen.decision_ms)}; "
                 f"target {one_way:g} + {DECISION_SLACK_MS:g} ms (half a round trip plus 5 ms)"))
        if d == 0:
            continue
        figures = phase_figures(chosen, base)
        total_measured = (chosen.wall - base.wall) / (2 * d)
        total_predicted = sum(p for _, p, _ in figures.values())
        out.append(Measurement(
            name=f"latency.round_trips@{one_way:g}ms", median_s=total_measured,
            floor_s=float(total_predicted),
            ratio=total_measured / total_predicted if total_predicted else 0.0, unit="round trips",
            note=f"(wall(d) - wall(0)) / 2d for the match ({chosen.wall:.2f} s vs {base.wall:.2f} s); "
                 f"floor: seat-0-to-1 sender changes in the transcript ({changes} changes in all)"))
        for name in PHASES:
            measured, predicted, units = figures[name]
            if not units:
                continue
            out.append(Measurement(
                name=f"latency.{name}@{one_way:g}ms", median_s=measured / units, floor_s=predicted / units,
                ratio=measured / predicted if predicted else 0.0, unit="round trips",
                note=f"per {'deal' if name == 'deal_setup' else name.replace('_', ' ')}, {units} of them; "
                     f"floor from the transcript"))
    return out



if __name__ == "__main__":            # seat 1 of crash_safe_run, in its own process
    import json

    if len(sys.argv) != 9 or sys.argv[1] != "--seat-one":
        raise SystemExit("usage: python -m koikoi_p2p.bench.latency --seat-one PROXY CODE ROUNDS SEED RULES "
                         "FOLDER THREAD")
    _url, _code, _rounds, _seed, _rules, _folder, _thread = sys.argv[2:]
    print(json.dumps(asyncio.run(_seat_one(_url, _code, int(_rounds), int(_seed), _rules, Path(_folder),
                                           _thread == "1"))))

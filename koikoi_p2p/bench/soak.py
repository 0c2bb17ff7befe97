"""``koikoi bench soak [--matches N] [--json]``: many selfplay matches through faults, all accounted for.

Each match is two peer processes (``koikoi resume --new``, computer players) talking through one
relay process and the chaos proxy (drops, duplicates, reordering, delays and cuts of the relay's
frame messages). A seeded plan kills one peer's process with SIGKILL in a chosen phase and
usually restarts it with ``koikoi resume``; sometimes it never comes back; a few times during the
run the relay itself is killed and restarted (its rooms and buffers are lost). Every match is
bounded in time.

With ``--cluster N`` the relay is N cluster nodes on one ``redis-server`` (spec/relay.md §13):
each match's host reaches one node and its joiner the next, each through a chaos proxy that
falls back to the other nodes; the plan adds node kills (SIGKILL of the node a seat is on, started
again a moment later: the seat resumes on another node meanwhile), and the relay restarts become
Redis restarts (every room and stream lost). The report counts:

- matches completed with co-signed results: both peers' transcripts are identical, replay
  without fault (``koikoi verify``) and end with the result signed by both;
- matches correctly classified as abandoned: a peer was killed for good, and the survivor's
  signed claim verifies as "abandoned by <that peer> at message N";
- messages lost: envelopes one side accepted that are missing from the other side's final
  record (must be 0), and matches that ended any other way (must be 0).

The same orchestration drives the process-level fault tests (tests/faults/test_faults_e2e*.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koikoi_p2p.bench.cluster import RedisProcess
from koikoi_p2p.bench.report import Measurement
from koikoi_p2p.net.chaos import ChaosConfig, ChaosProxy

KILL_PHASES = ("handshake", "keying", "preparing", "drawing", "declaring", "playing", "closing",
               "match_result")
# A round won at the deal (a dealt-hand yaku) has no "playing": the fault falls in its closing.
SKIPPED_BY = {"playing": ("closing",)}
RELAY_BANNER = "relay listening on ws://127.0.0.1:"


@dataclass(frozen=True, slots=True)
class Fault:
    """What happens to one match. kill_phase None: no kill. cut_phase: the proxy cuts every
    connection when a peer reaches that phase. relay_restart_phase: the relay is killed there
    (in a cluster: Redis is) and started again ``relay_down_s`` later. node_kill_phase: in a
    cluster, the victim's node is killed there and started again ``node_down_s`` later."""

    victim: int = 0
    kill_phase: str | None = None
    kill_delay_s: float = 0.0
    resume: bool = True
    resume_delay_s: float = 0.3
    cut_phase: str | None = None
    relay_restart_phase: str | None = None
    node_kill_phase: str | None = None
    node_down_s: float = 1.0
    relay_down_s: float = 0.0


@dataclass(slots=True)
class MatchRecord:
    index: int
    fault: Fault
    # "completed" | "abandoned" | "unclaimable" (killed before it signed anything) | "wrong" | "unfinished"
    verdict: str = "unfinished"
    detail: str = ""
    seconds: float = 0.0
    messages: int = 0
    lost: int = 0
    kills: int = 0
    cuts: int = 0
    relay_restarts: int = 0
    node_kills: int = 0
    outcomes: list[dict[str, Any] | None] = field(default_factory=lambda: [None, None])

    @property
    def expect(self) -> str:
        """What a correct system ends with, given the faults that really happened."""
        return "abandoned" if self.kills and not self.fault.resume else "completed"


class RelayProcess:
    """The relay as a child process on a fixed port, so it can be killed and started again; with
    ``redis_url``, one node of a cluster."""

    def __init__(self, resume_grace: float = 10.0, redis_url: str | None = None) -> None:
        self.port = 0
        self.proc: asyncio.subprocess.Process | None = None
        self.resume_grace = resume_grace
        self.redis_url = redis_url
        self.restarts = 0

    async def start(self) -> None:
        cluster = ["--redis", self.redis_url] if self.redis_url else []
        for _ in range(50):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "koikoi_relay", "--port", str(self.port), "--log-level", "error",
                "--resume-grace", str(self.resume_grace), "--max-messages-per-second", "2000",
                "--max-connections-per-source", "0", "--max-rooms-per-source", "0",
                "--max-bytes-per-second-per-source", "0", "--handshakes-per-second-per-source", "0", *cluster,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
            assert proc.stdout is not None
            line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
            if line.startswith(RELAY_BANNER):
                self.port = int(line.rsplit(":", 1)[1].split("/")[0])
                self.proc = proc
                asyncio.get_running_loop().create_task(_drain(proc.stdout))
                return
            await proc.wait()
            await asyncio.sleep(0.2)       # the port of a killed relay may take a moment to free
        raise RuntimeError("the relay did not start")

    async def restart(self, down_s: float = 0.0) -> None:
        """kill -9 the relay (rooms and buffers gone) and start a new one on the same port,
        ``down_s`` later."""
        await self.kill()
        self.restarts += 1
        await asyncio.sleep(down_s)
        await self.start()

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.proc = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class ClusterProcesses:
    """A relay cluster for the soak: ``redis-server`` and ``nodes`` relay nodes, each killable."""

    def __init__(self, nodes: int, resume_grace: float = 10.0) -> None:
        self.redis = RedisProcess()
        self.nodes = [RelayProcess(resume_grace, self.redis.url) for _ in range(nodes)]
        self.node_kills = 0

    async def start(self) -> None:
        self.redis.start()
        for node in self.nodes:
            await node.start()

    async def kill_node(self, index: int, down_s: float) -> None:
        """SIGKILL one node (its connections drop, nothing is handed over) and start it again later."""
        node = self.nodes[index]
        await node.kill()
        self.node_kills += 1
        await asyncio.sleep(down_s)
        await node.start()

    async def restart_redis(self) -> None:
        """SIGKILL Redis (persistence is off: every room, token and stream is gone) and start it again."""
        await asyncio.get_running_loop().run_in_executor(None, self.redis.restart)

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    async def close(self) -> None:
        for node in self.nodes:
            await node.kill()
        self.redis.kill()


async def _drain(stream: asyncio.StreamReader) -> None:
    with contextlib.suppress(Exception):
        while await stream.readline():
            pass


class Peer:
    """One peer process: ``koikoi resume`` on a state folder, its phases and its final JSON line."""

    def __init__(self, folder: Path, seat: int) -> None:
        self.folder = folder
        self.seat = seat
        self.proc: asyncio.subprocess.Process | None = None
        self.phases: list[str] = []
        self.phase_seen = asyncio.Event()
        self.outcome: dict[str, Any] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.starts = 0

    async def start(self, extra: Sequence[str] = (), timing: Sequence[str] = ()) -> None:
        self.starts += 1
        errors = self._stderr()
        try:
            self.proc = await self._spawn(extra, timing, errors)
        finally:
            os.close(errors)
        self.reader = asyncio.get_running_loop().create_task(self._read(self.proc))

    async def _spawn(self, extra: Sequence[str], timing: Sequence[str],
                     errors: int) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "koikoi_p2p", "resume", "--state", str(self.folder), "--json", "--progress",
            *timing, *extra, stdout=asyncio.subprocess.PIPE, stderr=errors,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def _stderr(self) -> int:
        """Each run's error output goes to a file next to the state (kept with --keep)."""
        path = self.folder.with_name(self.folder.name + f".stderr{self.starts}")
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                return
            if line.startswith("phase "):
                self.phases.append(line.split()[1])
                self.phase_seen.set()
            elif line.startswith("{"):
                with contextlib.suppress(ValueError):
                    self.outcome = json.loads(line)

    async def wait_phase(self, phase: str) -> None:
        while phase not in self.phases:
            if self.proc is None or self.proc.returncode is not None:
                raise RuntimeError(f"the peer exited before phase {phase}")
            self.phase_seen.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.phase_seen.wait(), 0.5)

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)

    async def wait(self) -> int | None:
        if self.proc is None:
            return None
        code = await self.proc.wait()
        if self.reader is not None:
            await self.reader
        return code


@dataclass(slots=True)
class SoakConfig:
    matches: int = 200
    concurrency: int = 2
    seed: int = 1
    rounds: int = 1
    step_deadline: int = 12
    dead_after_s: float = 2.0
    resend_after_s: float = 1.0
    match_timeout_s: float = 150.0
    max_seconds: float = 3600.0
    chaos: ChaosConfig = field(default_factory=lambda: ChaosConfig(
        drop=0.02, duplicate=0.02, reorder=0.02, delay=0.05, max_delay_s=0.02, cut=0.003,
        scope="relay_frames"))
    relay_restarts: int = 2
    cluster: int = 0            # relay nodes on one Redis; 0: the single-process relay
    node_kills: int = 4         # in a cluster: matches during which a node is killed
    kill_share: float = 0.6
    abandon_share: float = 0.15


def plan_faults(config: SoakConfig) -> list[Fault]:
    """The seeded fault of each match (kills with or without resume, or none)."""
    rng = random.Random(config.seed)  # noqa: S311 - a test plan, not a secret
    plans = []
    for _ in range(config.matches):
        roll = rng.random()
        victim = rng.randrange(2)
        if roll < config.abandon_share:
            phase = rng.choice(KILL_PHASES[1:])     # after the handshake: a claim needs a session
            plans.append(Fault(victim=victim, kill_phase=phase, kill_delay_s=rng.uniform(0, 0.3),
                               resume=False))
        elif roll < config.abandon_share + config.kill_share:
            plans.append(Fault(victim=victim, kill_phase=rng.choice(KILL_PHASES),
                               kill_delay_s=rng.uniform(0, 0.3), resume_delay_s=rng.uniform(0.1, 1.5)))
        else:
            plans.append(Fault())
    return plans


async def run_match(index: int, fault: Fault, *, url: str | Sequence[str], workdir: Path,
                    config: SoakConfig, relay: RelayProcess | None = None,
                    proxy: ChaosProxy | Sequence[ChaosProxy] | None = None,
                    cluster: ClusterProcesses | None = None, nodes: Sequence[int] = (0, 1)) -> MatchRecord:
    """Run one match with its fault and judge how it ended. ``url`` may name one relay URL per seat
    (a cluster's nodes); ``nodes`` says which node each seat is on, for node kills."""
    record = MatchRecord(index, fault)
    urls = [url, url] if isinstance(url, str) else list(url)
    proxies = [] if proxy is None else [proxy] if isinstance(proxy, ChaosProxy) else list(proxy)
    started = time.monotonic()
    rendezvous = f"soak-{index}-{secrets.token_hex(6)}"
    peers = [Peer(workdir / f"m{index}-seat{seat}", seat) for seat in (0, 1)]
    timing = ["--dead-after", str(config.dead_after_s), "--resend-after", str(config.resend_after_s)]
    # --new writes a state only when none exists: a restart runs the very same command.
    commands = [[
        "--new", "--seat", str(seat), "--relay", urls[seat], "--rendezvous", rendezvous,
        "--room", f"soak{index}", "--password", "soak", "--rounds", str(config.rounds),
        "--step-deadline", str(config.step_deadline), "--turn-deadline", str(config.step_deadline),
        "--strategy-seed", str(config.seed * 1000 + index * 2 + seat)] for seat in (0, 1)]
    for peer in peers:
        await peer.start(commands[peer.seat], timing)

    async def reached(phase: str) -> bool:
        """Wait until either peer reports ``phase`` (or the phase standing in for it when a round
        skips it, ``SKIPPED_BY``); False if the match ended before it."""
        wanted = (phase, *SKIPPED_BY.get(phase, ()))
        while not any(name in peer.phases for peer in peers for name in wanted):
            if all(peer.proc is not None and peer.proc.returncode is not None for peer in peers):
                # Both exited; their last lines may still be in the pipes: read them to the end.
                for peer in peers:
                    if peer.reader is not None:
                        with contextlib.suppress(Exception):
                            await peer.reader
                return any(name in peer.phases for peer in peers for name in wanted)
            await asyncio.sleep(0.02)
        return True

    async def inject() -> None:
        victim = peers[fault.victim]
        if fault.cut_phase is not None and proxies and await reached(fault.cut_phase):
            for each in proxies:
                each.cut_all()
            record.cuts += 1
        if fault.relay_restart_phase is not None and await reached(fault.relay_restart_phase):
            if cluster is not None:
                await cluster.restart_redis()
                record.relay_restarts += 1
            elif relay is not None:
                await relay.restart(fault.relay_down_s)
                record.relay_restarts += 1
        if fault.node_kill_phase is not None and cluster is not None and await reached(fault.node_kill_phase):
            await asyncio.sleep(fault.kill_delay_s)
            record.node_kills += 1
            await cluster.kill_node(nodes[fault.victim], fault.node_down_s)
        if fault.kill_phase is not None and await reached(fault.kill_phase):
            await asyncio.sleep(fault.kill_delay_s)
            if victim.proc is None or victim.proc.returncode is not None:
                return                     # it finished first: no kill happened
            victim.kill()
            record.kills += 1
            await victim.wait()
            if fault.resume:
                await asyncio.sleep(fault.resume_delay_s)
                await victim.start(commands[victim.seat], timing)

    injector = asyncio.get_running_loop().create_task(inject())
    try:
        await asyncio.wait_for(_finish(peers, injector), config.match_timeout_s)
    except (TimeoutError, RuntimeError) as exc:
        record.detail = f"did not finish: {type(exc).__name__}: {exc}"
    finally:
        injector.cancel()
        for peer in peers:
            peer.kill()
        for peer in peers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(peer.wait(), 10)
    record.seconds = time.monotonic() - started
    record.outcomes = [peer.outcome for peer in peers]
    if not record.detail:
        _judge(record, peers)
    return record


async def _finish(peers: list[Peer], injector: asyncio.Task[None]) -> None:
    await injector
    await asyncio.gather(*(peer.wait() for peer in peers))


def _judge(record: MatchRecord, peers: list[Peer]) -> None:
    """Classify a finished match from the files alone, as a third party would."""
    from koikoi_p2p.audit import audit_bytes
    from koikoi_p2p.protocol.transcript import read_transcript

    fault = record.fault
    outs = record.outcomes
    statuses = [o.get("status") if o else None for o in outs]
    if record.expect == "completed":
        if statuses != ["completed", "completed"]:
            reasons = [o.get("reason") if o else None for o in outs]
            record.verdict, record.detail = "wrong", f"statuses {statuses} {reasons}"
            return
        files = [str(o["file"]) for o in outs if o]
        chains = [[env.raw for env in read_transcript(f, require_closed=True).envelopes] for f in files]
        record.messages = len(chains[0])
        record.lost = len(set(chains[0]) ^ set(chains[1]))
        report = audit_bytes(Path(files[0]).read_bytes())
        if chains[0] != chains[1] or not (report.ok and report.complete and report.result is not None):
            record.verdict, record.detail = "wrong", "transcripts differ or do not verify"
            return
        record.verdict = "completed"
        return
    survivor = outs[1 - fault.victim]
    if survivor is not None and survivor.get("status") == "completed":
        # The kill came after the victim's last message: the survivor's match is complete.
        report = audit_bytes(Path(str(survivor["file"])).read_bytes())
        if report.ok and report.complete and report.result is not None:
            record.verdict, record.messages = "completed", report.messages
            record.detail = "the victim was killed after its last message"
            return
    if survivor is None or survivor.get("status") != "abandoned" or survivor.get("absent") != fault.victim:
        record.verdict, record.detail = "wrong", f"survivor said {survivor}"
        return
    report = audit_bytes(Path(str(survivor["file"])).read_bytes())
    record.messages = report.messages
    record.lost = _lost_by_victim(peers[fault.victim].folder, Path(str(survivor["file"])))
    if (not report.ok and report.deviation is not None and report.deviation.reason == "unproven_claim"
            and not _signed_by(Path(str(survivor["file"])), fault.victim)
            and not _signed_in_state(peers[fault.victim].folder, fault.victim)):
        # Killed before its first envelope of the session (its own saved state holds none, so
        # none was lost on the way): nothing can show it owed a message, and the auditor rightly
        # refuses the claim (spec/protocol.md §9.1). Correct, but not an abandonment.
        record.verdict = "unclaimable"
        record.detail = "the victim was killed before it signed anything: the claim rightly proves nothing"
        return
    if report.ok and report.deviation is not None and report.deviation.seat == fault.victim:
        record.verdict = "abandoned"
        record.detail = report.notes[0] if report.notes else ""
    else:
        record.verdict, record.detail = "wrong", f"claim does not verify: {report.notes}"


def _signed_by(claim_file: Path, seat: int) -> int:
    """How many envelopes of ``seat`` the claim's transcript holds."""
    from koikoi_p2p.protocol.abandonment import decode_abandonment

    envelopes = decode_abandonment(claim_file.read_bytes()).transcript.envelopes
    return sum(1 for env in envelopes if env.sender == seat)


def _saved_core(folder: Path) -> Any:
    """The killed peer's core rebuilt from its saved state; None if it had saved nothing (a state
    that does not load is an error of the run, not an outcome)."""
    from koikoi_p2p.net.core import ResumeError
    from koikoi_p2p.net.resumable import load_core

    try:
        return load_core(folder)
    except ResumeError as exc:
        if exc.reason == "missing":
            return None
        raise


def _signed_in_state(folder: Path, seat: int) -> int:
    """How many envelopes of its own the killed peer's saved state holds (0: none saved)."""
    core = _saved_core(folder)
    if core is None or core.peer is None:
        return 0
    return sum(1 for env in core.peer.transcript if env.sender == seat)


def _lost_by_victim(folder: Path, claim_file: Path) -> int:
    """Envelopes the killed peer had accepted from the survivor that the survivor's signed
    record lacks (replaying the killed peer's saved state)."""
    from koikoi_p2p.protocol.abandonment import decode_abandonment

    claimed = {env.raw for env in decode_abandonment(claim_file.read_bytes()).transcript.envelopes}
    core = _saved_core(folder)
    if core is None or core.peer is None:
        return 0
    survivor = 1 - core.setup.seat
    return sum(1 for env in core.peer.transcript if env.sender == survivor and env.raw not in claimed)


async def soak(config: SoakConfig, workdir: Path) -> tuple[list[MatchRecord], dict[str, Any]]:
    """Run the whole soak; returns the records and run-wide figures."""
    relay: RelayProcess | None = None
    cluster: ClusterProcesses | None = None
    if config.cluster:
        cluster = ClusterProcesses(config.cluster)
        await cluster.start()
        # One chaos proxy per node, falling back to the next nodes when its own is down.
        upstreams = cluster.urls
        proxies = [ChaosProxy(upstreams[i:] + upstreams[:i], config.chaos, seed=config.seed + i)
                   for i in range(config.cluster)]
    else:
        relay = RelayProcess()
        await relay.start()
        proxies = [ChaosProxy(relay.url, config.chaos, seed=config.seed)]
    for proxy in proxies:
        await proxy.start()
    plans = plan_faults(config)
    records: list[MatchRecord] = []
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(len(plans)):
        queue.put_nowait(index)
    started = time.monotonic()
    restart_at = {int(len(plans) * (k + 1) / (config.relay_restarts + 1))
                  for k in range(config.relay_restarts)}
    kills = config.node_kills if cluster is not None else 0
    # Node kills fall between the restarts, each in a phase of its own (seeded).
    rng = random.Random(config.seed + 7)  # noqa: S311 - a test plan, not a secret
    node_kill_at = {int(len(plans) * (k + 0.5) / (kills + 1)): rng.choice(KILL_PHASES) for k in range(kills)}

    # A restart or node kill planned for a match that ended before its phase (a dealt-hand yaku
    # ends a round before anyone plays) moves to the next match to start, if one is left to start
    # (with matches running side by side the last ones may all have started already).
    owed_restarts = 0
    owed_kills: list[str] = []

    async def worker() -> None:
        nonlocal owed_restarts
        while not queue.empty() and time.monotonic() - started < config.max_seconds:
            index = queue.get_nowait()
            fault = plans[index]
            restart = index in restart_at or owed_restarts > 0
            if index not in restart_at and restart:
                owed_restarts -= 1
            if restart:
                fault = dataclasses.replace(fault, relay_restart_phase="playing")
            kill_phase = node_kill_at.get(index) or (owed_kills.pop(0) if owed_kills else None)
            if kill_phase is not None:
                fault = dataclasses.replace(fault, node_kill_phase=kill_phase)
            n = max(1, config.cluster)
            seats = (index % n, (index + 1) % n)
            urls = [proxies[node].url + "/v1" for node in seats]
            record = await run_match(index, fault, url=urls, workdir=workdir, config=config,
                                     relay=relay, proxy=proxies, cluster=cluster, nodes=seats)
            records.append(record)
            if restart and record.relay_restarts == 0:
                owed_restarts += 1
            if kill_phase is not None and cluster is not None and record.node_kills == 0:
                owed_kills.append(kill_phase)

    try:
        await asyncio.gather(*(worker() for _ in range(config.concurrency)))
    finally:
        for proxy in proxies:
            await proxy.close()
        if relay is not None:
            await relay.kill()
        if cluster is not None:
            await cluster.close()
    chaos: dict[str, int] = {}
    for proxy in proxies:
        for key, value in proxy.stats.as_dict().items():
            chaos[key] = chaos.get(key, 0) + value
    restarts = cluster.redis.restarts if cluster is not None else relay.restarts if relay is not None else 0
    figures = {"seconds": time.monotonic() - started, "relay_restarts": restarts,
               "node_kills": cluster.node_kills if cluster is not None else 0, "chaos": chaos}
    return sorted(records, key=lambda r: r.index), figures


def summarize(records: list[MatchRecord], figures: dict[str, Any], planned: int) -> list[Measurement]:
    completed = [r for r in records if r.verdict == "completed"]
    abandoned = [r for r in records if r.verdict == "abandoned"]
    unclaimable = [r for r in records if r.verdict == "unclaimable"]
    wrong = [r for r in records if r.verdict not in ("completed", "abandoned", "unclaimable")]
    late = sum(1 for r in records if r.expect == "abandoned" and r.verdict == "completed")
    expect_completed = sum(1 for r in records if r.expect == "completed") + late
    expect_abandoned = sum(1 for r in records if r.expect == "abandoned") - late - len(unclaimable)
    lost = sum(r.lost for r in records)
    kills = sum(r.kills for r in records)
    calm = [r.seconds for r in completed if not r.kills] or [0.0]
    times = [r.seconds for r in records] or [0.0]
    chaos = figures.get("chaos", {})

    def count(name: str, value: int, expected: int, note: str) -> Measurement:
        return Measurement(name=name, median_s=float(value), floor_s=float(expected),
                           ratio=value / expected if expected else float(value == 0), unit="matches",
                           note=note)

    return [
        count("soak_completed_cosigned", len(completed), expect_completed,
              f"of {len(records)} run ({planned} planned); identical verified transcripts, co-signed"),
        count("soak_abandoned_classified", len(abandoned), expect_abandoned,
              "signed claim verifies as abandoned by the killed peer"),
        count("soak_killed_before_signing", len(unclaimable), len(unclaimable),
              "the victim was killed before its first envelope: the survivor's claim rightly proves "
              "nothing (correct; not counted as abandoned or wrong)"),
        Measurement(name="soak_messages_lost", median_s=float(lost), floor_s=0.0, ratio=float(lost == 0),
                    unit="envelopes", note="must be 0"),
        Measurement(name="soak_wrong_or_unfinished", median_s=float(len(wrong)), floor_s=0.0,
                    ratio=float(not wrong), unit="matches",
                    note="; ".join(f"#{r.index}: {r.detail}" for r in wrong[:5]) or "must be 0"),
        Measurement(name="soak_match_seconds", median_s=statistics.median(times),
                    floor_s=statistics.median(calm),
                    ratio=statistics.median(times) / max(statistics.median(calm), 1e-9),
                    note=f"median wall time per match vs matches without kills; {kills} kill -9, "
                         f"{figures.get('relay_restarts', 0)} relay restarts "
                         f"(Redis restarts in a cluster), {figures.get('node_kills', 0)} node kills, "
                         f"total {figures.get('seconds', 0):.0f} s, "
                         f"chaos dropped {chaos.get('dropped', 0)} duplicated {chaos.get('duplicated', 0)} "
                         f"reordered {chaos.get('reordered', 0)} cut {chaos.get('cuts', 0)}"),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=200, help="how many matches (default 200)")
    parser.add_argument("--concurrency", type=int, default=2, help="matches at a time (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop starting matches after this")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="run the relay as N cluster nodes on one redis-server, with node kills")
    parser.add_argument("--keep", metavar="DIR", default=None,
                        help="keep the state folders and transcripts here")


def run(args: argparse.Namespace) -> list[Measurement]:
    config = SoakConfig(matches=args.matches, concurrency=args.concurrency, seed=args.seed,
                        max_seconds=args.max_seconds, cluster=getattr(args, "cluster", 0) or 0)
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="koikoi-soak-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        records, figures = asyncio.run(soak(config, workdir))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return summarize(records, figures, config.matches)


__all__ = ["ClusterProcesses", "Fault", "MatchRecord", "RelayProcess", "SoakConfig", "add_arguments",
           "plan_faults", "run", "run_match", "soak", "summarize"]

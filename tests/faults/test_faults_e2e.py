"""Real processes: kill -9 a peer in each phase and resume it, cut connections, restart the relay.

Each match is two ``koikoi resume`` processes (computer players) through a relay process and the
chaos proxy, as in ``koikoi bench soak``; the verdict is taken from the files alone (identical,
verified, co-signed transcripts; or a verified abandonment claim).

The default run kills a peer in three of the six phases and cuts a connection in the other three
(each phase meets one fault, and each fault kind half the phases); both faults in every phase with
``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/faults/test_faults_e2e.py``
(tests/campaign.py). ``koikoi bench soak`` is the long seeded campaign of the same matches.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from koikoi_p2p.bench.soak import Fault, MatchRecord, RelayProcess, SoakConfig, run_match, soak, summarize
from koikoi_p2p.net.chaos import ChaosConfig, ChaosProxy
from tests.campaign import full_campaign

CONFIG = SoakConfig(step_deadline=10, dead_after_s=1.5, resend_after_s=0.7, match_timeout_s=120)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 400))


async def matches(tmp: Path, faults: list[Fault], *, chaos: ChaosConfig | None = None,
                  concurrency: int = 3, config: SoakConfig = CONFIG) -> list[MatchRecord]:
    relay = RelayProcess(resume_grace=10)
    await relay.start()
    proxy = ChaosProxy(relay.url, chaos or ChaosConfig(), seed=3)
    await proxy.start()
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int, fault: Fault) -> MatchRecord:
        async with gate:
            return await run_match(index, fault, url=proxy.url + "/v1", workdir=tmp, config=config,
                                   relay=relay, proxy=proxy)

    try:
        return list(await asyncio.gather(*(one(i, f) for i, f in enumerate(faults))))
    finally:
        await proxy.close()
        await relay.kill()


def _check(records: list[MatchRecord]) -> None:
    problems = [(r.index, r.fault, r.verdict, r.detail) for r in records if r.verdict != r.expect]
    assert not problems, problems
    assert all(r.lost == 0 for r in records)


PHASES = ["handshake", "preparing", "drawing", "playing", "closing", "match_result"]
# The default run's phases for each fault: together every phase.
KILL_PHASES = PHASES if full_campaign() else ["handshake", "playing", "match_result"]
CUT_PHASES = PHASES if full_campaign() else ["preparing", "drawing", "closing"]
assert set(KILL_PHASES) | set(CUT_PHASES) == set(PHASES)


def test_kill_minus_nine_in_each_phase_then_resume(tmp_path: Path) -> None:
    faults = [Fault(victim=i % 2, kill_phase=phase, kill_delay_s=0.05 * i, resume_delay_s=0.3)
              for i, phase in enumerate(KILL_PHASES)]

    async def body() -> None:
        records = await matches(tmp_path, faults)
        _check(records)
        assert all(r.verdict == "completed" for r in records)
        # The kills really happened (a phase reached after the victim finished would skip it).
        assert sum(r.kills for r in records) >= len(KILL_PHASES) - 1

    run(body())


def test_connection_cut_in_each_phase_and_a_lossy_relay(tmp_path: Path) -> None:
    faults = [Fault(victim=i % 2, cut_phase=phase) for i, phase in enumerate(CUT_PHASES)]
    chaos = ChaosConfig(drop=0.03, duplicate=0.03, reorder=0.03, scope="relay_frames")

    async def body() -> None:
        records = await matches(tmp_path, faults, chaos=chaos)
        _check(records)
        assert all(r.verdict == "completed" for r in records)
        assert sum(r.cuts for r in records) == len(CUT_PHASES)

    run(body())


def test_relay_restart_and_a_peer_that_never_returns(tmp_path: Path) -> None:
    faults = [
        Fault(victim=0, relay_restart_phase="playing"),
        # Killed once playing: killed as the other seat reports "preparing", the victim may not have
        # signed an envelope yet (under load, CI), and a claim then rightly proves nothing.
        Fault(victim=1, kill_phase="playing", kill_delay_s=0.1, resume=False),
        Fault(victim=0, kill_phase="playing", kill_delay_s=0.2, resume=False),
    ]

    # Two rounds: a one-round match could end within the kill delay (CI once saw the victim finish
    # 0.2 s after the other seat reported "playing", so no kill happened and the match completed).
    two_rounds = dataclasses.replace(CONFIG, rounds=2)

    async def body() -> None:
        records = await matches(tmp_path, faults, config=two_rounds)
        _check(records)
        assert records[0].verdict == "completed" and records[0].relay_restarts == 1
        assert [r.verdict for r in records[1:]] == ["abandoned", "abandoned"]
        assert all("abandoned by player" in r.detail for r in records[1:])

    run(body())


def test_a_relay_outage_longer_than_the_deadline_claims_nothing(tmp_path: Path) -> None:
    """The relay is down for longer than the step deadline (10 s): neither seat could speak, so
    neither claims abandonment while it cannot reach the relay, nor as soon as the relay is back
    (spec/protocol.md §12.4); both pair again and the match ends co-signed."""
    faults = [Fault(victim=0, relay_restart_phase="playing", relay_down_s=14.0)]

    async def body() -> None:
        records = await matches(tmp_path, faults, config=dataclasses.replace(CONFIG, rounds=2))
        _check(records)
        assert records[0].relay_restarts == 1
        assert records[0].verdict == "completed", records[0].detail

    run(body())


def test_small_soak(tmp_path: Path) -> None:
    """The benchmark's own loop on a few matches: everything ends co-signed or correctly classified."""
    config = dataclasses.replace(CONFIG, matches=4, concurrency=2, seed=11, relay_restarts=1,
                                 max_seconds=300)

    async def body() -> None:
        records, figures = await soak(config, tmp_path)
        found = {m.name: m for m in summarize(records, figures, config.matches)}
        assert len(records) == 4
        assert found["soak_messages_lost"].median_s == 0
        assert found["soak_wrong_or_unfinished"].median_s == 0, found["soak_wrong_or_unfinished"]
        assert (found["soak_completed_cosigned"].median_s + found["soak_abandoned_classified"].median_s
                + found["soak_killed_before_signing"].median_s) == 4
        assert figures["relay_restarts"] == 1

    run(body())

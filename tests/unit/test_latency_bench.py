"""``koikoi bench latency``: its rows, the phase split of a transcript, and the delay proxy.

No timing is asserted (the machine is shared); the rows must exist and be consistent."""

from __future__ import annotations

import argparse
import asyncio
import time

import pytest

from koikoi_p2p.bench import latency
from koikoi_p2p.net.chaos import ChaosConfig, ChaosError, ChaosProxy


def test_classify_splits_a_deal_into_setup_turns_and_closing() -> None:
    def act(kind: str) -> dict[str, object]:
        return {"action": {"type": kind}}

    # The game's version-2 shapes (spec/game.md §5): keys and shuffles ahead, forced declarations,
    # both seats disclose, countersignatures owed later.
    envelopes = [(0, "terms", {}), (0, "key", {}), (1, "accept", {}), (1, "key", {}), (1, "shuffle", {}),
                 (0, "shuffle", {}), (1, "reveal", {}), (0, "reveal", {}), (1, "declare", {}),
                 (0, "declare", {}), (0, "key", {}), (0, "act", act("play")), (1, "reveal", {}),
                 (1, "act", act("koikoi")), (0, "disclose", {}), (1, "disclose", {}),
                 (1, "round_sign", {}), (1, "match_result", {}), (0, "round_sign", {}),
                 (0, "match_sign", {})]
    deals = [-1, -1, -1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    assert latency.classify(envelopes, deals) == [
        "match_setup", "first_dealer", "match_setup", "first_dealer", "first_dealer", "first_dealer",
        "first_dealer", "first_dealer", "deal_setup", "deal_setup", "deal_setup", "turn", "turn", "turn",
        "closing", "closing", "deal_setup", "match_close", "deal_setup", "match_close"]


def test_the_bench_reports_every_row(tmp_path: object) -> None:
    rows = latency.run(argparse.Namespace(rounds=1, delays="0,20", repeat=1, seed=3, rules="wikipedia"))
    names = [row.name for row in rows]
    assert names[:5] == ["latency.envelope_at_0ms", "latency.overhead_per_envelope",
                         "latency.envelope_at_0ms.disk_on_loop",
                         "latency.decision_to_screen@0ms.disk_on_loop",
                         "latency.decision_to_screen@0ms"]
    assert "latency.decision_to_screen@20ms" in names and "latency.round_trips@20ms" in names
    for phase in ("handshake", "match_setup", "deal_setup", "turn", "closing", "match_close"):
        assert f"latency.{phase}@20ms" in names
    by = {row.name: row for row in rows}
    assert by["latency.envelope_at_0ms"].floor_s > 0
    trips = by["latency.round_trips@20ms"]
    assert trips.unit == "round trips" and trips.floor_s > 10      # the transcript's sender changes
    assert by["latency.turn@20ms"].floor_s > 0


def test_the_proxy_delays_every_message_and_keeps_their_order() -> None:
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def body() -> None:
        async def echo(ws: object) -> None:
            async for message in ws:  # type: ignore[attr-defined]
                await ws.send(message)  # type: ignore[attr-defined]

        async with serve(echo, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            async with ChaosProxy(f"ws://127.0.0.1:{port}", ChaosConfig(latency_s=0.05)) as proxy:
                async with connect(proxy.url) as ws:
                    start = time.perf_counter()
                    for i in range(20):
                        await ws.send(bytes([i]))
                    got = [await ws.recv() for _ in range(20)]
                    elapsed = time.perf_counter() - start
        assert got == [bytes([i]) for i in range(20)]
        assert elapsed >= 0.1          # both directions: at least two one-way delays (a lower bound)

    asyncio.run(asyncio.wait_for(body(), 30))


def test_a_latency_out_of_range_is_refused() -> None:
    with pytest.raises(ChaosError):
        ChaosConfig(latency_s=-1)

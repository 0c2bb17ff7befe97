"""koikoi_relay/pauses.py: the debugging record of the relay's collector passes and late ticks."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import time

import pytest

from koikoi_relay import pauses


class _Kept(io.StringIO):
    def close(self) -> None:   # keep the text readable after stop()
        pass


def test_the_recorder_writes_collector_passes_late_ticks_and_a_summary() -> None:
    out = _Kept()
    original = asyncio.Handle._run
    recorder = pauses.PauseRecorder(out, objects_every=60.0)

    async def scenario() -> None:
        recorder.start()
        await asyncio.sleep(0.05)
        gc.collect(1)
        time.sleep(0.03)             # the event loop stopped: the next tick is late
        await asyncio.sleep(0.05)
        recorder.stop()

    asyncio.run(scenario())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    passes = [line for line in lines if "gc" in line]
    assert any(line["gc"] == 1 and line["s"] >= 0 for line in passes)
    late = [line for line in lines if line.get("lag", 0) >= 0.02]
    assert late and all(0 <= line["cpu"] for line in late)
    # A late tick says what ran meanwhile: here the scenario's own step, which slept 30 ms.
    assert any(any(name.endswith("<locals>.scenario") and n >= 1 and s >= 0.02
                   for name, (n, s) in line["ran"].items()) for line in late)
    assert any(str(line.get("callback")).endswith("<locals>.scenario") and line["s"] >= 0.02
               for line in lines)
    assert any("objects" in line and len(line["objects"]) == 3 for line in lines)
    summary = lines[-1]["summary"]
    assert summary["gc"]["1"]["passes"] >= 1 and summary["lag"]["ticks"] >= 2
    assert recorder._on_gc not in gc.callbacks and asyncio.Handle._run is original


def test_the_histogram_names_its_buckets_by_their_bound() -> None:
    assert pauses.histogram([0.0005, 0.003, 0.003, 2.0]) == {"<=1ms": 1, "<=5ms": 2, ">1000ms": 1}


def test_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pauses.ENV, raising=False)
    assert pauses.from_environment() is None

"""A person resigns on the crash-safe path (spec/game.md §6.3): the driver's ``ask`` answers
``RESIGN``, the journal records it like a decision, and both seats end with the co-signed result
that names the other seat the winner."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from koikoi_p2p.audit import audit_bytes, verify_result
from koikoi_p2p.net.core import RESIGN, RESIGNED, PeerCore
from koikoi_p2p.net.resumable import DriverOptions, run_peer
from tests.faults.hub import Hub
from tests.faults.resume_util import FAST_LINK, new_stores, setup

OPTIONS = DriverOptions(resend_after_s=0.3, linger_s=1.0, link=dict(FAST_LINK), forget_secrets=False)


def test_a_person_resigns_through_the_driver(tmp_path: Path) -> None:
    folders = new_stores(tmp_path)
    hub = Hub(2)
    asked: list[Any] = []

    async def resign(event: Any) -> Any:
        asked.append(event)
        return RESIGN

    async def both() -> list[Any]:
        return list(await asyncio.gather(
            run_peer(folders[0], hub.connector(0), options=OPTIONS, ask=resign),
            run_peer(folders[1], hub.connector(1), options=OPTIONS)))

    host, guest = asyncio.run(asyncio.wait_for(both(), 60))
    assert len(asked) == 1
    assert host.status == guest.status == "completed"
    assert host.winner == guest.winner == 1
    report = audit_bytes(Path(guest.file).read_bytes())
    assert report.ok and report.resigned is not None and report.resigned[0] == 0
    assert report.result is not None and verify_result(report.result).resigned == 0


def test_a_journaled_resignation_replays() -> None:
    """The record of a resignation replays to the same frames (a restart after it repeats it)."""
    host, guest = PeerCore(setup(0)), PeerCore(setup(1))
    inbox: list[list[bytes]] = [list(guest.outbox), list(host.outbox)]
    cores = (host, guest)
    start = host.snapshot()
    records: list[list[Any]] = []
    for _ in range(2000):
        for seat in (0, 1):
            core = cores[seat]
            if core.terms_pending is not None:
                inbox[1 - seat] += core.decide_terms(True)
            idle = core.idle()
            if idle and seat == 0:
                records.append(["i", None, idle])
            inbox[1 - seat] += idle
            if core.pending is not None and seat == 0:
                out = core.resign()
                records.append([RESIGNED, None, out])
                inbox[1] += out
            elif core.pending is not None:
                event = core.pending
                inbox[0] += core.decide(event.options[0])
            while inbox[seat]:
                frame = inbox[seat].pop(0)
                answer = core.receive(frame)
                if answer is not None:
                    if seat == 0:
                        records.append(["r", frame, answer])
                    inbox[1 - seat] += answer
        if host.done and guest.done:
            break
    assert host.done and guest.done and host.match_over is not None and host.match_over.resigned == 0
    restored = PeerCore.restore(start, records)
    assert restored.done and (restored.sent_count, restored.sent_chain) == (host.sent_count, host.sent_chain)

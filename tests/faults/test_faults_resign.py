"""A person resigns on the crash-safe path (spec/game.md §6.3): the driver's ``ask`` answers
``RESIGN``, the journal records it like a decision, and both seats end with the co-signed result
that names the other seat the winner."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.audit import audit_bytes, verify_result
from koikoi_p2p.net.core import RESIGN, RESIGNED, PeerCore
from koikoi_p2p.net.journal import Journal
from koikoi_p2p.net.resumable import DriverOptions, run_peer
from tests.faults.hub import Hub
from tests.faults.resume_util import FAST_LINK, Crash, CrashingStore, new_stores, setup, transcript_raws

OPTIONS = DriverOptions(resend_after_s=0.3, linger_s=1.0, link=dict(FAST_LINK), forget_secrets=False)


def resigned_match(tmp_path: Path) -> tuple[list[Any], Any, Any]:
    """The host resigns at its first question, through the crash-safe driver: what it was asked,
    and both seats' outcomes."""
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
    return asked, host, guest


def test_a_person_resigns_through_the_driver(tmp_path: Path) -> None:
    asked, host, guest = resigned_match(tmp_path)
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


# A kill at the worst moment around a resignation (saved, not yet sent): the resigner right after
# journaling it, the winner right after journaling the resignation it received (its
# countersignature not yet sent), the resigner right after journaling that countersignature. Each
# resumes to the transcript and co-signed result of the run without a kill, and nobody is asked
# again once the resignation is journaled.
RESIGN_AT = 3       # the resigner gives up at its third decision (mid-deal, after two acts)
Kill = Callable[[Any, Any], bool]      # (what is being saved, the seat's core) -> kill now


async def _resigning_pair(folders: list[Path], hub: Hub, kill: tuple[int, Kill] | None
                          ) -> tuple[list[Any], list[list[tuple[bool, Any]]], int]:
    """Both seats decide through ``ask`` (seeded computer choices); seat 0 resigns at its
    RESIGN_AT-th decision. ``kill=(seat, when)`` kills that seat right after the first save
    ``when`` accepts and restarts it from its journal."""
    asked: list[list[tuple[bool, Any]]] = [[], []]
    kills = [0]

    def ask_for(seat: int, restarted: bool) -> Any:
        async def ask(event: Any) -> Any:
            asked[seat].append((restarted, event))
            if seat == 0 and len(asked[0]) == RESIGN_AT:
                return RESIGN
            return RandomPlayer(len(asked[seat]) * 7 + seat).choose(event.view, event.options)
        return ask

    async def one(seat: int) -> Any:
        core: list[Any] = [None]

        def hook(reached: str, the_core: Any) -> None:
            core[0] = the_core

        def on_save(what: Any) -> None:
            if kill is not None and kill[0] == seat and not kills[0] and kill[1](what, core[0]):
                kills[0] += 1
                raise Crash("kill -9 right after the save")

        store = CrashingStore(folders[seat], None, on_save)
        try:
            return await run_peer(store, hub.connector(seat), options=OPTIONS, progress=hook,
                                  ask=ask_for(seat, False))
        except Crash:
            store.unlock()     # the process died: the kernel drops its lock
        await asyncio.sleep(0.05)
        return await run_peer(Journal(folders[seat]), hub.connector(seat), options=OPTIONS,
                              ask=ask_for(seat, True))

    out = list(await asyncio.gather(one(0), one(1)))
    return out, asked, kills[0]


def _run_resigning(tmp: Path, kill: tuple[int, Kill] | None = None
                   ) -> tuple[list[Any], list[list[tuple[bool, Any]]], int]:
    return asyncio.run(asyncio.wait_for(_resigning_pair(new_stores(tmp), Hub(5), kill), 90))


def _result_of(outcome: Any) -> tuple[list[bytes], bytes]:
    report = audit_bytes(Path(outcome.file).read_bytes())
    assert report.ok and report.complete and report.resigned is not None and report.resigned[0] == 0
    assert report.result is not None and verify_result(report.result).resigned == 0
    return transcript_raws(outcome.file), report.result


@pytest.fixture(scope="module")
def resigned_reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[bytes], bytes]:
    """The transcript and co-signed result of the resigned match without a kill."""
    out, asked, _ = _run_resigning(tmp_path_factory.mktemp("resigned"))
    assert [o.status for o in out] == ["completed", "completed"]
    assert out[0].winner == out[1].winner == 1
    assert len(asked[0]) == RESIGN_AT
    reference = _result_of(out[0])
    assert _result_of(out[1]) == reference
    return reference


def _resignation_journaled(what: Any, core: Any) -> bool:
    return isinstance(what, list) and what[0] == RESIGNED


def _match_over_saved(what: Any, core: Any) -> bool:
    # The first save that covers the end: the winner's record of the resignation it answers with
    # its countersignature, or the resigner's record of that countersignature.
    final = isinstance(what, dict) and "outcome" in what
    return core is not None and core.match_over is not None and not final


@pytest.mark.parametrize(("seat", "when"), [(0, _resignation_journaled), (1, _match_over_saved),
                                            (0, _match_over_saved)],
                         ids=["resigner-after-resigning", "winner-before-countersigning",
                              "resigner-after-the-countersignature"])
def test_a_kill_around_a_resignation_resumes_to_the_same_result(
        tmp_path: Path, resigned_reference: tuple[list[bytes], bytes], seat: int, when: Kill) -> None:
    out, asked, kills = _run_resigning(tmp_path, (seat, when))
    assert kills == 1
    assert [o.status for o in out] == ["completed", "completed"], out
    assert out[seat].resumed and out[0].winner == out[1].winner == 1
    assert _result_of(out[0]) == resigned_reference
    assert _result_of(out[1]) == resigned_reference
    # The resignation was asked once and never again after the restart.
    assert len(asked[0]) == RESIGN_AT and not any(restarted for restarted, _ in asked[0] + asked[1])

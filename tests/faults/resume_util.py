"""Shared helpers of the resume tests: fixed setups, a crashing store, running two peers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koikoi_p2p.net.journal import Journal
from koikoi_p2p.net.reliable import Connector
from koikoi_p2p.net.resumable import DriverOptions, Outcome, PeerSetup, create_state, run_peer
from koikoi_p2p.protocol.transcript import read_transcript

FAST_LINK = {"retransmit_s": 0.05, "max_retransmit_s": 0.4, "reconnect_min_s": 0.01, "reconnect_max_s": 0.1}


def options(**kw: Any) -> DriverOptions:
    # Some tests replay a finished state, so these keep the secrets the driver forgets by default.
    return DriverOptions(resend_after_s=kw.pop("resend_after_s", 0.5), linger_s=kw.pop("linger_s", 2.0),
                         link={**FAST_LINK, **kw.pop("link", {})},
                         forget_secrets=kw.pop("forget_secrets", False), **kw)


def setup(seat: int, **kw: Any) -> PeerSetup:
    """A fixed setup: the same seeds give the same match, byte for byte."""
    base: dict[str, Any] = {"room": "FAULTS", "password": "correct horse", "rounds": 1,
                            "step_deadline": 30, "turn_deadline": 30, "handshake_deadline": 30,
                            "strategy_seed": 5}
    base.update(kw)
    base["strategy_seed"] += seat
    return PeerSetup(seat=seat, identity=bytes([seat + 1]) * 32, seed=bytes([seat + 11]) * 32, **base)


class Crash(BaseException):
    """Stands for kill -9: raised right after a save, before the frames it covers are sent."""


class CrashingStore(Journal):
    """A journal that counts its saves (appended records and snapshots) and can crash after one."""

    def __init__(self, folder: Path, crash_after: int | None,
                 on_save: Callable[[dict[str, Any] | list[Any]], None] | None = None) -> None:
        super().__init__(folder)
        self.crash_after = crash_after
        self.on_save = on_save
        self.saves = 0

    def _saved(self, what: Any) -> None:
        self.saves += 1
        if self.on_save is not None:
            self.on_save(what)
        if self.crash_after is not None and self.saves == self.crash_after:
            raise Crash(f"crash after save {self.saves}")

    def append(self, record: list[Any], *, sync: bool = True) -> None:
        super().append(record, sync=sync)
        self._saved(record)

    def rebase(self, base: Any) -> None:
        super().rebase(base)
        self._saved(dict(base))

    def checkpoint(self, base: Any) -> None:
        super().checkpoint(base)
        self._saved(dict(base))


def new_stores(tmp: Path, **kw: Any) -> list[Path]:
    folders = []
    for seat in (0, 1):
        folder = tmp / f"seat{seat}"
        create_state(folder, setup(seat, **kw))
        folders.append(folder)
    return folders


async def run_pair(folders: list[Path], connectors: list[Callable[[], Connector]], *,
                   crash: tuple[int, int] | None = None, restart_delay: float = 0.05,
                   restart: bool = True, opts: DriverOptions | None = None,
                   progress: Callable[[int, str], None] | None = None,
                   save_hook: Callable[[int, str], None] | None = None) -> list[Outcome | None]:
    """Run both seats; ``crash=(seat, k)`` kills that seat right after its k-th save and restarts it."""
    opts = opts or options()

    async def one(seat: int) -> Outcome | None:
        crash_after = crash[1] if crash is not None and crash[0] == seat else None
        phase = ["handshake"]

        def hook(reached: str, core: Any) -> None:
            if reached != "decided":
                phase[0] = reached
            if progress is not None:
                progress(seat, reached)

        def on_save(state: dict[str, Any] | list[Any]) -> None:
            if save_hook is not None and not (isinstance(state, dict) and "outcome" in state):
                save_hook(seat, phase[0])

        store = CrashingStore(folders[seat], crash_after, on_save)
        try:
            return await run_peer(store, connectors[seat](), options=opts, progress=hook)
        except Crash:
            store.unlock()     # the process died: the kernel drops its lock
            if not restart:
                return None
        await asyncio.sleep(restart_delay)
        return await run_peer(Journal(folders[seat]), connectors[seat](), options=opts, progress=hook)

    return list(await asyncio.gather(one(0), one(1)))


def transcript_raws(path: str | None) -> list[bytes]:
    assert path is not None
    return [env.raw for env in read_transcript(path, require_closed=True).envelopes]

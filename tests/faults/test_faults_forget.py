"""Issue 11 hole 6 and the agreeing timeouts: every outcome forgets the secrets, and a seat whose
own deadline passed takes no more input, says what the opponent may claim, and claims nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from koikoi_p2p.audit.abandonment import audit_abandonment_bytes
from koikoi_p2p.net.journal import Journal
from koikoi_p2p.net.resumable import DriverOptions, Outcome, run_peer
from koikoi_p2p.protocol.events import Event, Failure, TimeUp
from koikoi_p2p.rules.actions import Action
from tests.faults.hub import Hub
from tests.faults.resume_util import FAST_LINK, new_stores, run_pair, setup

FORGET = DriverOptions(resend_after_s=0.3, linger_s=1.0, link=dict(FAST_LINK), own_margin_s=1.0)


def _forgotten(folder: Path, seat: int) -> dict[str, Any]:
    """The state keeps the outcome alone: no identity key, seed or password left in the file."""
    base, records = Journal(folder).read()
    assert set(base) == {"format", "outcome"} and records == []
    mine = setup(seat)
    # Every file the match left (the state, the lock, the transcript or claim written beside it).
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert mine.identity not in data and mine.seed not in data, path
            assert b"correct horse" not in data, path
    outcome: dict[str, Any] = base["outcome"]  # type: ignore[assignment]
    return outcome


def test_completed(tmp_path: Path) -> None:
    folders = new_stores(tmp_path)
    hub = Hub()
    out = asyncio.run(asyncio.wait_for(run_pair(
        folders, [lambda: hub.connector(0), lambda: hub.connector(1)], opts=FORGET), 120))
    assert [o.status for o in out if o] == ["completed", "completed"]
    for seat in (0, 1):
        assert _forgotten(folders[seat], seat)["status"] == "completed"


def test_abandoned(tmp_path: Path) -> None:
    folders = new_stores(tmp_path, step_deadline=2, turn_deadline=2)
    hub = Hub(9)
    out = asyncio.run(asyncio.wait_for(run_pair(
        folders, [lambda: hub.connector(0), lambda: hub.connector(1)], crash=(1, 14), restart=False,
        opts=FORGET), 60))
    assert out[0] is not None and out[0].status == "abandoned"
    assert _forgotten(folders[0], 0)["status"] == "abandoned"
    # The crashed seat never ended: its state is kept, to be resumed.
    base, _ = Journal(folders[1]).read()
    assert "core" in base and "outcome" not in base


def test_failed(tmp_path: Path) -> None:
    """A local fault (this seat's player answers with an illegal move) fails the match."""
    folders = new_stores(tmp_path, step_deadline=2, turn_deadline=2)
    hub = Hub(3)

    class Illegal:
        def choose(self, view: Any, options: Any) -> Action:
            from koikoi_p2p.rules.actions import Play

            return Play(position=47)

    async def both() -> list[Outcome]:
        return list(await asyncio.gather(
            run_peer(folders[0], hub.connector(0), options=FORGET, strategy=lambda n: Illegal()),
            run_peer(folders[1], hub.connector(1), options=FORGET)))

    out = asyncio.run(asyncio.wait_for(both(), 60))
    assert out[0].status == "failed" and out[1].status == "abandoned"
    assert _forgotten(folders[0], 0)["status"] == "failed"
    assert _forgotten(folders[1], 1)["status"] == "abandoned"


def test_gave_up(tmp_path: Path) -> None:
    folders = new_stores(tmp_path, handshake_deadline=1)
    hub = Hub()
    out = asyncio.run(asyncio.wait_for(run_peer(folders[0], hub.connector(0), options=FORGET), 30))
    assert out.status == "gave_up"
    assert _forgotten(folders[0], 0)["status"] == "gave_up"


def test_own_deadline_passed(tmp_path: Path) -> None:
    """The host's person never answers: at its own deadline (the turn deadline less the margin)
    the host stops asking, says that time ran out and what seat 1 may claim, sends nothing more
    and claims nothing; seat 1 claims abandonment by player 0 at that message, and it verifies."""
    folders = new_stores(tmp_path, step_deadline=4, turn_deadline=4)
    hub = Hub(5)
    events: list[Event] = []
    asked: list[float] = []

    def on_event(event: Event, replayed: bool) -> None:
        events.append(event)

    async def never(event: Any) -> Action:
        asked.append(asyncio.get_running_loop().time())
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def both() -> list[Outcome]:
        return list(await asyncio.gather(
            run_peer(folders[0], hub.connector(0), options=FORGET, ask=never, on_event=on_event),
            run_peer(folders[1], hub.connector(1), options=FORGET)))

    out = asyncio.run(asyncio.wait_for(both(), 60))
    host, guest = out
    assert host.status == "timed_out" and host.absent == 0 and host.file is None
    assert guest.status == "abandoned" and guest.absent == 0 and guest.file is not None
    times_up = [e for e in events if isinstance(e, TimeUp)]
    assert len(times_up) == 1 and isinstance(events[-1], TimeUp)
    up = times_up[0]
    assert (up.seat, up.claimant, up.expected, up.deadline) == (0, 1, "act", 4)
    assert up.seq == host.messages == guest.messages          # the two accounts name one message
    assert len(asked) == 1                                   # asked once, never again
    assert not [e for e in events if isinstance(e, Failure)]
    report = audit_abandonment_bytes(Path(guest.file).read_bytes())
    assert report.ok and report.notes[0] == f"abandoned by player 0 at message {up.seq}"
    assert _forgotten(folders[0], 0)["status"] == "timed_out"
    assert _forgotten(folders[1], 1)["status"] == "abandoned"


def test_own_deadline_survives_a_restart(tmp_path: Path) -> None:
    """Killed while its person was being asked, and resumed after its own deadline: the host takes
    no input at all (the clock counts from when the question's input was saved), so it cannot
    send a late move and then claim against an opponent that already claimed against it."""
    from tests.faults.resume_util import Crash, CrashingStore

    folders = new_stores(tmp_path, step_deadline=4, turn_deadline=4)
    hub = Hub(5)
    asked: list[str] = []

    async def killed(event: Any) -> Action:
        asked.append("first run")
        raise Crash("kill -9 while asking")

    async def answers(event: Any) -> Action:
        asked.append("after the restart")
        return event.options[0]  # type: ignore[no-any-return]

    async def host() -> Outcome:
        try:
            await run_peer(CrashingStore(folders[0], None), hub.connector(0), options=FORGET, ask=killed)
        except Crash:
            pass
        await asyncio.sleep(3.2)          # past the 3 s own deadline (4 s less the 1 s margin)
        return await run_peer(folders[0], hub.connector(0), options=FORGET, ask=answers)

    async def both() -> list[Outcome]:
        return list(await asyncio.gather(host(), run_peer(folders[1], hub.connector(1), options=FORGET)))

    out = asyncio.run(asyncio.wait_for(both(), 60))
    assert asked == ["first run"]
    assert out[0].status == "timed_out" and out[0].resumed
    assert out[1].status == "abandoned" and out[1].absent == 0 and out[1].messages == out[0].messages

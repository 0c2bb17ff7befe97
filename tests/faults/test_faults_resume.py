"""Crash, reconnect and resume in memory: every run ends with the transcript of a run without faults."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from koikoi_p2p.audit.abandonment import audit_abandonment_bytes
from koikoi_p2p.audit.files import audit_bytes
from koikoi_p2p.net.journal import Journal
from koikoi_p2p.net.resumable import DriverOptions, PeerCore, ResumeError
from tests.faults.hub import Hub
from tests.faults.resume_util import FAST_LINK, new_stores, options, run_pair, setup, transcript_raws


def _run(tmp: Path, hub: Hub, **kw: object) -> list:  # type: ignore[type-arg]
    folders = new_stores(tmp)
    return asyncio.run(asyncio.wait_for(
        run_pair(folders, [lambda: hub.connector(0), lambda: hub.connector(1)], **kw),  # type: ignore[arg-type]
        120))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The transcript of the match without any fault."""
    out = _run(tmp_path_factory.mktemp("reference"), Hub())
    assert [o.status for o in out] == ["completed", "completed"]
    raws = transcript_raws(out[0].file)
    assert raws == transcript_raws(out[1].file)
    report = audit_bytes(Path(out[0].file).read_bytes())
    assert report.ok and report.complete
    return raws


@pytest.fixture(scope="module")
def save_phases(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[str]]:
    """For each seat, the phase of the peer at each of its saves in a run without faults."""
    phases: dict[int, list[str]] = {0: [], 1: []}
    out = _run(tmp_path_factory.mktemp("phases"), Hub(), progress=lambda seat, phase: None,
               save_hook=lambda seat, phase: phases[seat].append(phase))
    assert [o.status for o in out] == ["completed", "completed"]
    return phases


def test_reference_is_reproducible(tmp_path: Path, reference: list[bytes]) -> None:
    out = _run(tmp_path, Hub())
    assert transcript_raws(out[0].file) == reference
    assert len(reference) > 30


# Crash right after a save (the worst moment: saved, not yet sent) in every phase of the match:
# the handshake, the terms, the first decks, the draw, the opening, the declarations, mid-turn,
# the close of a deal and the match result signatures. One crash point per phase and seat (the
# first and a middle save).
PHASES = ["handshake", "proposing", "keying", "accepting", "preparing", "drawing", "opening", "declaring",
          "playing", "closing", "match_result", "match_countersign"]


@pytest.mark.parametrize("phase", PHASES)
def test_crash_in_each_phase_resumes_to_the_same_transcript(
        tmp_path: Path, reference: list[bytes], save_phases: dict[int, list[str]], phase: str) -> None:
    seats = [seat for seat in (1, 0) if phase in save_phases[seat]]
    assert seats, f"nobody saves in phase {phase}"
    seat = seats[PHASES.index(phase) % len(seats)]
    points = [i + 1 for i, p in enumerate(save_phases[seat]) if p == phase]
    after = points[len(points) // 2]
    out = _run(tmp_path, Hub(after), crash=(seat, after))
    assert [o.status for o in out] == ["completed", "completed"], out
    assert out[seat].resumed
    assert transcript_raws(out[0].file) == reference
    assert transcript_raws(out[1].file) == reference


def test_every_phase_is_covered(save_phases: dict[int, list[str]]) -> None:
    seen = set(save_phases[0]) | set(save_phases[1])
    assert {"handshake", "preparing", "drawing", "playing", "closing", "match_result"} <= seen


def test_a_lossy_relay_changes_nothing(tmp_path: Path, reference: list[bytes]) -> None:
    out = _run(tmp_path, Hub(3, drop=0.15, duplicate=0.15, reorder=0.15))
    assert [o.status for o in out] == ["completed", "completed"]
    assert transcript_raws(out[0].file) == reference


# In memory a cut is cheap to place exactly; tests/faults/test_faults_e2e.py cuts real websockets
# in every phase.
@pytest.mark.parametrize("phase", ["handshake", "preparing", "closing"])
def test_connection_cut_in_each_phase(tmp_path: Path, reference: list[bytes], phase: str) -> None:
    hub = Hub(4)
    cuts: list[str] = []

    def on_save(seat: int, reached: str) -> None:
        if reached == phase and not cuts:
            cuts.append(reached)
            hub.cut()

    out = _run(tmp_path, hub, save_hook=on_save)
    assert cuts == [phase]
    assert [o.status for o in out] == ["completed", "completed"]
    assert transcript_raws(out[0].file) == reference
    assert hub.connects[0] >= 2 and hub.connects[1] >= 2


def test_relay_restart_loses_its_buffer(tmp_path: Path, reference: list[bytes]) -> None:
    """The relay goes away mid-match, every frame in flight is lost, it comes back empty."""
    hub = Hub(8)
    state = {"done": False}

    def progress(seat: int, reached: str) -> None:
        if reached == "playing" and not state["done"]:
            state["done"] = True
            hub.down = True
            hub.cut()
            asyncio.get_running_loop().call_later(0.5, setattr, hub, "down", False)

    out = _run(tmp_path, hub, progress=progress)
    assert [o.status for o in out] == ["completed", "completed"]
    assert transcript_raws(out[0].file) == reference


@pytest.mark.parametrize("victim", [0, 1])
def test_a_peer_that_never_comes_back_is_claimed_abandoned(
        tmp_path: Path, victim: int, capsys: pytest.CaptureFixture[str]) -> None:
    folders = new_stores(tmp_path, step_deadline=2, turn_deadline=2)
    hub = Hub(9)
    out = asyncio.run(asyncio.wait_for(run_pair(
        folders, [lambda: hub.connector(0), lambda: hub.connector(1)],
        crash=(victim, 14), restart=False, opts=options(resend_after_s=0.3)), 60))
    survivor = out[1 - victim]
    assert out[victim] is None and survivor is not None
    assert survivor.status == "abandoned" and survivor.absent == victim
    assert survivor.file is not None
    report = audit_abandonment_bytes(Path(survivor.file).read_bytes())
    assert report.ok
    assert report.notes[0] == f"abandoned by player {victim} at message {survivor.messages}"
    assert report.deviation is not None and report.deviation.seat == victim
    # The command line says the same.
    from koikoi_p2p.cli.main import main

    assert main(["verify", survivor.file]) == 0
    assert f"abandoned by player {victim} at message {survivor.messages}" in capsys.readouterr().out


def test_replay_detects_a_different_build() -> None:
    """A journal record whose replay does not regenerate the frames it says were sent is refused."""
    host, guest = PeerCore(setup(0)), PeerCore(setup(1))
    start = guest.snapshot()
    hello = host.outbox[0]
    answer = guest.receive(hello)
    assert answer
    record = ["r", hello, answer]
    assert PeerCore.restore(start, [record]).sent_count == guest.sent_count
    with pytest.raises(ResumeError) as info:
        PeerCore.restore(start, [["r", hello, [b"\x01" + answer[0][1:]]]])
    assert info.value.reason == "replay_mismatch"
    with pytest.raises(ResumeError) as info:
        PeerCore.restore(start, [["x", 1, []]])
    assert info.value.reason == "bad_state"


@pytest.mark.parametrize("strategy_seed", [101, 202])
def test_other_games_also_complete(tmp_path: Path, strategy_seed: int) -> None:
    """Different computer choices (capture choices, koi-koi calls) through a lossy relay."""
    folders = new_stores(tmp_path, strategy_seed=strategy_seed)
    hub = Hub(strategy_seed, drop=0.05, duplicate=0.05)
    out = asyncio.run(asyncio.wait_for(run_pair(
        folders, [lambda: hub.connector(0), lambda: hub.connector(1)], crash=(strategy_seed % 2, 20)), 120))
    assert [o.status if o else None for o in out] == ["completed", "completed"]
    assert out[0] is not None and out[1] is not None
    assert transcript_raws(out[0].file) == transcript_raws(out[1].file)


def test_a_completed_match_forgets_its_secrets_by_default(tmp_path: Path) -> None:
    """The saved state holds the seed of every key; the library's default keeps only the outcome."""
    folders = new_stores(tmp_path)
    hub = Hub()
    defaults = DriverOptions(resend_after_s=0.5, linger_s=2.0, link=dict(FAST_LINK))
    out = asyncio.run(asyncio.wait_for(run_pair(
        folders, [lambda: hub.connector(0), lambda: hub.connector(1)], opts=defaults), 120))
    assert [o.status if o else None for o in out] == ["completed", "completed"]
    for folder in folders:
        state, records = Journal(folder).read()
        assert set(state) == {"format", "outcome"} and records == []
        outcome = state["outcome"]
        assert isinstance(outcome, dict) and outcome["status"] == "completed"

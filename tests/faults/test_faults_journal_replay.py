"""Resume replays at most one deal: the journal's records never reach back past the deal under way."""

from __future__ import annotations

from pathlib import Path

from koikoi_p2p.net.core import PeerCore
from koikoi_p2p.net.driver import SavedCore, create_state, load_core
from koikoi_p2p.net.selfplay import play_cores
from tests.faults.resume_util import setup


def test_resume_replays_at_most_one_deal(tmp_path: Path) -> None:
    setups = (setup(0, rounds=2), setup(1))
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    saved = [SavedCore(cores[seat], create_state(tmp_path / f"s{seat}", setups[seat])) for seat in (0, 1)]
    inputs_this_deal = [0, 0]
    deal = [cores[0].deal, cores[1].deal]
    checks = [0, 0]
    longest = [0, 0]
    seen_deals: list[set[int]] = [set(), set()]

    def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
        core = cores[seat]
        saved[seat].commit(kind, value, out)
        if core.deal != deal[seat]:
            deal[seat], inputs_this_deal[seat] = core.deal, 0
        else:
            inputs_this_deal[seat] += 1
        records = saved[seat].journal.records
        longest[seat] = max(longest[seat], records)
        # Every record after the snapshot is an input of the deal under way.
        assert records == inputs_this_deal[seat]
        if records % 4 == 0 or records == 0:
            restored = load_core(saved[seat].journal.folder)
            assert restored.deal == core.deal
            assert (restored.sent_count, restored.sent_chain) == (core.sent_count, core.sent_chain)
            assert restored.outbox == core.outbox and restored.decisions == core.decisions
            if core.peer is not None:                   # the transcript, from the journal's log
                assert restored.peer is not None
                assert [e.raw for e in restored.peer.transcript] == [e.raw for e in core.peer.transcript]
                assert restored.peer.channel.to_state() == core.peer.channel.to_state()   # digests rebuilt
            checks[seat] += 1
        seen_deals[seat].add(core.deal)

    for journal in saved:
        journal.journal.unlock()
    play_cores(cores, on_input=on_input)
    for seat in (0, 1):
        assert checks[seat] > 5
        assert {0, 1, 2} <= seen_deals[seat]            # the first-dealer draw and both rounds
        assert saved[seat].journal.checkpoints >= 3     # game start and every deal, appended
        assert saved[seat].journal.rebases == 1         # the new match's file only
        assert 0 < longest[seat] < cores[seat].inputs / 2


def test_frames_wait_for_their_record_while_the_disk_works(tmp_path: Path) -> None:
    """The driver waits for the disk in a worker thread, so the link's callbacks run meanwhile;
    ``holding`` tells a re-send which frames at the end of the outbox have no durable record yet
    (spec/protocol.md §12.3 rule 1), and the record is durable when ``save`` returns."""
    import asyncio
    import threading

    from koikoi_p2p.net.journal import Journal

    started = threading.Event()
    release = threading.Event()

    class SlowDisk(Journal):
        def sync(self) -> None:
            if self.dirty:
                started.set()
                release.wait(5)
            super().sync()

    setups = (setup(0), setup(1))
    core = PeerCore(setups[0])
    journal = SlowDisk(tmp_path / "s0")
    create_state(journal, setups[0])
    saved = SavedCore(core, journal)
    frames = [b"frame-1", b"frame-2"]
    core.outbox.extend(frames)

    async def body() -> None:
        task = asyncio.create_task(saved.save("d", {"type": "stop"}, frames))
        while not started.is_set():
            await asyncio.sleep(0.01)
        assert saved.holding == 2 and journal.dirty        # a re-send now leaves both frames out
        release.set()
        await task
        assert saved.holding == 0 and not journal.dirty

    asyncio.run(asyncio.wait_for(body(), 10))
    journal.unlock()
    _, records = Journal(tmp_path / "s0").read()
    assert records[-1][:3] == ["d", {"type": "stop"}, frames]


def test_a_match_saved_in_the_version_2_layout_resumes_and_moves_to_version_3(tmp_path: Path) -> None:
    """Before issue 26 every deal's base held the whole transcript: such a file still resumes,
    with its transcript, and its next deal boundary rewrites it in the appended layout."""
    import hashlib
    import struct

    import msgpack

    from koikoi_p2p.net.journal import Journal
    from koikoi_p2p.net.state_store import MAGIC

    setups = (setup(0, rounds=2), setup(1))
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    saved = [SavedCore(cores[seat], create_state(tmp_path / f"s{seat}", setups[seat])) for seat in (0, 1)]
    old: list[SavedCore] = []
    checked = [False, False]

    def on_input(seat: int, kind: str, value: object, out: list[bytes]) -> None:
        before = saved[seat].deal                      # the deal before this input
        saved[seat].commit(kind, value, out)
        if seat != 0:
            return
        core = cores[0]
        if old:
            old[0].commit(kind, value, out)
        elif core.deal == 1 and before != 1:
            # The boundary into deal 1, saved as the old driver did: one version 2 base.
            payload = msgpack.packb({"format": 2, "core": core.snapshot(), "at": 0.0}, use_bin_type=True)
            folder = tmp_path / "old"
            folder.mkdir(mode=0o700)
            head = struct.pack(">8sHI32s", MAGIC, 2, len(payload), hashlib.sha256(payload).digest())
            (folder / "match.state").write_bytes(head + payload)
            journal = Journal(folder)
            journal.load()
            old.append(SavedCore(core, journal))
        if old and core.peer is not None and old[0].journal.records in (0, 3):
            restored = load_core(tmp_path / "old")
            assert restored.peer is not None
            assert [e.raw for e in restored.peer.transcript] == [e.raw for e in core.peer.transcript]
            assert restored.sent_chain == core.sent_chain
            checked[old[0].journal.version == 3] = True

    for item in saved:
        item.journal.unlock()
    play_cores(cores, on_input=on_input)
    assert old and checked == [True, True]             # resumed from both layouts
    assert (old[0].journal.rebases, old[0].journal.checkpoints) == (1, 0)   # deal 2: rewritten once

"""The crash-safe journal: private files, checksummed records, a torn tail dropped, one process a folder."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.net.journal import Journal, decode_journal, encode_base, encode_record
from koikoi_p2p.net.state_store import MAGIC, StateStoreError

BASE = {"format": 2, "core": {"secret": b"\x07" * 32}}
RECORDS: list[list[object]] = [["r", b"frame-%d" % i, [b"out-%d" % i]] for i in range(5)]


def _written(folder: Path, records: list[list[object]] = RECORDS) -> Journal:
    journal = Journal(folder)
    journal.rebase(BASE)
    for record in records:
        journal.append(record)
    return journal


def test_round_trip_with_private_modes(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    assert stat.S_IMODE((tmp_path / "m").stat().st_mode) == 0o700
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "m" / "lock").stat().st_mode) == 0o600
    journal.unlock()
    assert Journal(tmp_path / "m").read() == (BASE, RECORDS)


def test_rebase_drops_the_records(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    journal.rebase({"format": 2, "core": {}})
    journal.append(["d", {"x": 1}, []])
    assert journal.read() == ({"format": 2, "core": {}}, [["d", {"x": 1}, []]])


def test_a_checkpoint_appends_a_base_and_the_log_adds_up(tmp_path: Path) -> None:
    """A deal boundary appends its base: nothing written is written again, the records start
    again, and the log read is every base's part in order (spec/protocol.md §12.3 rule 2)."""
    journal = Journal(tmp_path / "m")
    journal.rebase({"format": 2, "core": {}, "log": [b"e0"]})
    journal.append(RECORDS[0])
    before = journal.path.read_bytes()
    journal.checkpoint({"format": 2, "core": {"deal": 1}, "log": [b"e1", b"e2"]})
    journal.append(RECORDS[1])
    assert journal.path.read_bytes().startswith(before)
    assert journal.read() == ({"format": 2, "core": {"deal": 1}, "log": [b"e0", b"e1", b"e2"]}, [RECORDS[1]])
    journal.checkpoint({"format": 2, "core": {"deal": 2}, "log": []})
    assert journal.read() == ({"format": 2, "core": {"deal": 2}, "log": [b"e0", b"e1", b"e2"]}, [])
    assert (journal.checkpoints, journal.rebases, journal.records) == (2, 1, 0)


def test_a_torn_checkpoint_leaves_the_base_before_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "m")
    journal.rebase({"format": 2, "core": {}, "log": [b"e0"]})
    journal.append(RECORDS[0])
    good = journal.path.stat().st_size
    journal.checkpoint({"format": 2, "core": {"deal": 1}, "log": [b"e1"]})
    journal.unlock()
    with open(journal.path, "r+b") as handle:
        handle.truncate(journal.path.stat().st_size - 3)
    again = Journal(tmp_path / "m")
    assert again.load() == ({"format": 2, "core": {}, "log": [b"e0"]}, [RECORDS[0]])
    assert again.path.stat().st_size == good
    again.unlock()


def test_a_version_2_file_is_read_and_its_next_base_replaces_it(tmp_path: Path) -> None:
    """Matches saved before version 3 resume: the old base is read as it was, and the first
    checkpoint rewrites the file whole in the new layout."""
    import hashlib
    import struct

    import msgpack

    payload = msgpack.packb(BASE, use_bin_type=True)
    folder = tmp_path / "m"
    folder.mkdir(mode=0o700)
    old = struct.pack(">8sHI32s", MAGIC, 2, len(payload), hashlib.sha256(payload).digest()) + payload
    (folder / "match.state").write_bytes(old + encode_record(RECORDS[0]))
    journal = Journal(folder)
    assert journal.load() == (BASE, [RECORDS[0]]) and journal.version == 2
    journal.checkpoint({"format": 2, "core": {"deal": 1}, "log": [b"e0", b"e1"]})
    assert journal.path.read_bytes()[8:10] == b"\x00\x03"
    assert (journal.rebases, journal.checkpoints) == (1, 0)
    journal.checkpoint({"format": 2, "core": {"deal": 2}, "log": [b"e2"]})
    assert journal.read() == ({"format": 2, "core": {"deal": 2}, "log": [b"e0", b"e1", b"e2"]}, [])
    journal.unlock()



@pytest.mark.parametrize("cut", [1, 10, 36, 40])
def test_a_torn_last_record_is_dropped_and_cut_away(tmp_path: Path, cut: int) -> None:
    journal = _written(tmp_path / "m")
    journal.unlock()
    data = journal.path.read_bytes()
    journal.path.write_bytes(data[:-cut])
    again = Journal(tmp_path / "m")
    base, records = again.load()
    assert base == BASE and records == RECORDS[:-1]
    again.append(["d", {"after": True}, []])          # appends follow the last whole record
    assert again.read()[1] == [*RECORDS[:-1], ["d", {"after": True}, []]]


def test_a_torn_record_with_a_bad_checksum_at_the_end_is_dropped(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    data = bytearray(journal.path.read_bytes())
    data[-1] ^= 0xFF
    journal.path.write_bytes(bytes(data))
    assert journal.read()[1] == RECORDS[:-1]


def test_a_tail_of_zeros_is_dropped(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    with open(journal.path, "ab") as handle:
        handle.write(bytes(100))
    assert journal.read()[1] == RECORDS


def test_damage_before_the_last_record_is_refused(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    data = bytearray(journal.path.read_bytes())
    first = len(encode_base(BASE))
    data[first + 40] ^= 0xFF                           # inside the first record's payload
    journal.path.write_bytes(bytes(data))
    with pytest.raises(StateStoreError) as info:
        journal.read()
    assert info.value.reason == "corrupt"


def test_the_base_is_checked(tmp_path: Path) -> None:
    journal = _written(tmp_path / "m")
    data = bytearray(journal.path.read_bytes())
    data[60] ^= 0xFF
    journal.path.write_bytes(bytes(data))
    with pytest.raises(StateStoreError) as info:
        journal.read()
    assert info.value.reason == "corrupt"


def test_a_version_1_state_is_refused(tmp_path: Path) -> None:
    from koikoi_p2p.net.state_store import encode_state

    (tmp_path / "m").mkdir(mode=0o700)
    (tmp_path / "m" / "match.state").write_bytes(encode_state({"format": 1}))
    with pytest.raises(StateStoreError) as info:
        Journal(tmp_path / "m").read()
    assert info.value.reason == "unsupported_version"
    assert encode_state({})[:8] == MAGIC


@given(st.integers(min_value=0, max_value=10_000))
def test_any_cut_leaves_a_prefix_of_the_records(cut: int) -> None:
    whole = encode_base(BASE) + b"".join(encode_record(r) for r in RECORDS)
    data = whole[:min(cut, len(whole))]
    if len(data) < len(encode_base(BASE)):
        with pytest.raises(StateStoreError) as info:
            decode_journal(data)
        assert info.value.reason == "truncated"
        return
    base, records, good = decode_journal(data)
    assert base == BASE and records == RECORDS[:len(records)]
    assert good == len(encode_base(BASE)) + sum(len(encode_record(r)) for r in records)


def test_a_second_journal_on_the_folder_refuses(tmp_path: Path) -> None:
    first = _written(tmp_path / "m")
    with pytest.raises(StateStoreError) as info:
        Journal(tmp_path / "m").lock()
    assert info.value.reason == "locked"
    assert f"process {os.getpid()}" in info.value.message
    first.unlock()
    with Journal(tmp_path / "m"):
        pass                                          # free again once the first let go


def test_a_second_process_on_one_state_folder_refuses(tmp_path: Path) -> None:
    """Issue 11 hole 1: while one process runs a match, `koikoi resume` of the same folder stops
    with a clear message instead of resuming the state into a second future."""
    from koikoi_p2p.net.resumable import create_state
    from tests.faults.resume_util import setup

    folder = tmp_path / "m"
    create_state(folder, setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r"))
    before = (folder / "match.state").read_bytes()
    with Journal(folder):
        proc = subprocess.run([sys.executable, "-m", "koikoi_p2p", "resume", "--state", str(folder)],
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "locked" in proc.stderr and "another koikoi process" in proc.stderr
    assert (folder / "match.state").read_bytes() == before


def test_a_new_match_never_overwrites_an_unfinished_one(tmp_path: Path) -> None:
    """`koikoi host`/`join` name the state folder after the room and seat: a second match in that
    folder must not replace an interrupted match that `koikoi resume` could still continue (its
    frames may be out already), nor one that another process is running."""
    from koikoi_p2p.net.driver import Outcome
    from koikoi_p2p.net.resumable import ResumeError, create_state
    from tests.faults.resume_util import setup

    folder = tmp_path / "m"
    create_state(folder, setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r"))
    before = (folder / "match.state").read_bytes()
    with pytest.raises(ResumeError) as info:
        create_state(folder, setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r"))
    assert info.value.reason == "exists" and "koikoi resume" in info.value.message
    assert (folder / "match.state").read_bytes() == before
    with Journal(folder):                              # running elsewhere: refused as locked
        with pytest.raises(ResumeError) as info:
            create_state(folder, setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r"))
    assert info.value.reason == "locked"
    # A finished match keeps only its outcome: a new match may take the folder.
    with Journal(folder) as journal:
        journal.rebase({"format": 2, "outcome": Outcome("completed", 0).to_dict()})
    create_state(folder, setup(0, relay_url="ws://127.0.0.1:9/v1", rendezvous="r"))
    assert (folder / "match.state").read_bytes() == before   # the new match's initial state

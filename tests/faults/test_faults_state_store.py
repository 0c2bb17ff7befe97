"""The state store: atomic, private, versioned, and typed errors on every damaged file."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.net.state_store import (
    HEADER_SIZE,
    StateStore,
    StateStoreError,
    decode_state,
    encode_state,
)

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)
states = st.dictionaries(st.text(max_size=10), plain, max_size=8)


@given(states)
def test_round_trip(state: dict[str, object]) -> None:
    assert decode_state(encode_state(state)) == state


def test_save_load_and_modes(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "state"
    store = StateStore(folder, "room-ABC")
    assert store.load_or_none() is None
    state: dict[str, object] = {"seq": 3, "secret": b"\x01" * 32, "nested": {"a": [1, "x", None]}}
    store.save(state)
    assert store.load() == state
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    store.save({"seq": 4})
    assert store.load() == {"seq": 4}
    assert [p.name for p in folder.iterdir()] == ["room-ABC.state"]  # no temporary file left
    store.remove()
    assert not store.exists()


def test_loose_folder_is_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "loose"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    StateStore(folder).save({"x": 1})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden", "nul\x00"])
def test_bad_names(tmp_path: Path, name: str) -> None:
    with pytest.raises(StateStoreError) as info:
        StateStore(tmp_path, name)
    assert info.value.reason == "bad_name"


def test_every_truncation_is_a_typed_error() -> None:
    data = encode_state({"seq": 7, "blob": b"z" * 100})
    for cut in range(len(data)):
        with pytest.raises(StateStoreError) as info:
            decode_state(data[:cut])
        assert info.value.reason == "truncated"


def test_every_bit_flip_is_a_typed_error() -> None:
    data = encode_state({"seq": 7, "blob": b"z" * 20})
    for index in range(len(data)):
        for bit in (0, 7):
            damaged = bytearray(data)
            damaged[index] ^= 1 << bit
            with pytest.raises(StateStoreError) as info:
                decode_state(bytes(damaged))
            assert info.value.reason in {
                "bad_magic", "unsupported_version", "truncated", "corrupt", "too_large"
            }


def test_version_magic_and_trailing() -> None:
    data = encode_state({"a": 1})
    with pytest.raises(StateStoreError) as info:
        decode_state(data[:8] + b"\x00\x02" + data[10:])
    assert info.value.reason == "unsupported_version"
    with pytest.raises(StateStoreError) as info:
        decode_state(b"PICKLE!!" + data[8:])
    assert info.value.reason == "bad_magic"
    with pytest.raises(StateStoreError) as info:
        decode_state(data + b"\x00")
    assert info.value.reason == "corrupt"


@given(st.binary(max_size=200))
def test_random_bytes_never_crash(data: bytes) -> None:
    try:
        decode_state(data)
    except StateStoreError:
        pass


@given(st.binary(max_size=200))
def test_valid_container_with_garbage_payload(payload: bytes) -> None:
    from cryptography.hazmat.primitives import hashes

    from koikoi_p2p.net import state_store

    digest = hashes.Hash(hashes.SHA256())
    digest.update(payload)
    data = state_store._HEADER.pack(state_store.MAGIC, 1, len(payload), digest.finalize()) + payload
    try:
        state = decode_state(data)
    except StateStoreError as exc:
        assert exc.reason == "bad_data"
    else:
        assert isinstance(state, dict)


def test_not_serializable() -> None:
    with pytest.raises(StateStoreError) as info:
        encode_state({"x": {1, 2}})
    assert info.value.reason == "not_serializable"


def test_failed_replace_keeps_the_old_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = StateStore(tmp_path)
    store.save({"seq": 1})

    def boom(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        store.save({"seq": 2})
    monkeypatch.undo()
    assert store.load() == {"seq": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["match.state"]


def test_kill_minus_nine_during_saves_leaves_a_whole_state(tmp_path: Path) -> None:
    """A writer killed at random instants never leaves a half-written state behind."""
    script = textwrap.dedent(
        """
        import sys
        from koikoi_p2p.net.state_store import StateStore
        store = StateStore(sys.argv[1])
        n = 0
        print("ready", flush=True)
        while True:
            n += 1
            store.save({"n": n, "blob": bytes([n % 256]) * 200_000})
        """
    )
    folder = tmp_path / "s"
    last = 0
    for delay in (0.05, 0.11, 0.2, 0.07, 0.15):
        proc = subprocess.Popen([sys.executable, "-c", script, str(folder)], stdout=subprocess.PIPE)
        assert proc.stdout is not None
        proc.stdout.readline()
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        store = StateStore(folder)
        state = store.load_or_none()
        if state is None:
            continue
        n = state["n"]
        assert isinstance(n, int) and n >= 1
        assert state["blob"] == bytes([n % 256]) * 200_000
        last = n
    assert last >= 1
    assert HEADER_SIZE == 46

"""The crash-safe journal of one peer's match: storage only (spec/protocol.md §12.3).

One file per match, ``<folder>/match.state``, in a private folder (0700, the file 0600, created
with those modes). It starts with a *base* (the compact snapshot of the peer at the last deal
boundary) and goes on with *records*, one per accepted message (the input and the frames it
caused), appended and made durable one at a time::

    base   = "KKSTATE\\0" (8) | version u16 | length u32 | SHA-256(payload) (32) | payload
    record = length u32 | SHA-256(payload) (32) | payload

Payloads are msgpack (never pickle: loading must not run code). ``append`` writes one record
with one ``write`` and one ``fdatasync``: the cost of a message is one small durable write, not
a rewrite of the whole state. ``checkpoint`` appends a new base as a record whose payload is a
map (version 3), at each deal boundary, so a resume replays at most the records of one deal and
nothing already written is written again. A base may carry a list under ``log`` (the driver puts
the transcript there): each base holds only the items added since the base before it, and a
read gives the latest base with the whole list, the concatenation of every base's ``log``. So
the bytes written over a match grow with its length, not its square (issue 26 item 4).
``rebase`` replaces the whole file with one base (atomically: temporary file, fsync, rename,
fsync of the folder): a new match, an ended one, or the first checkpoint of a version 2 file
(which held the transcript in its base and allowed no base records).

A crash can tear only the last append (a power loss; ``kill -9`` cannot tear a ``write``): a last
record that is short, or whose checksum fails exactly at the end of the file, or a tail of zero
bytes, is dropped, and the file is cut back to its last whole record before anything is appended
again. Nothing was sent because of a dropped record (frames leave only after their record is
durable), so dropping it contradicts nothing. Any other defect is refused (``corrupt``).

The folder is locked (``flock`` on ``<folder>/lock``) for as long as a ``Journal`` is open: a
second process on the same match refuses with ``locked`` instead of resuming the state into a
second future (spec/protocol.md §12.3, issue 11 hole 1).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgpack

from koikoi_p2p.net.state_store import (
    FILE_MODE,
    MAGIC,
    MAX_STATE_BYTES,
    StateStoreError,
    _fsync_folder,
    _sha256,
    ensure_private_folder,
    write_atomic,
)

JOURNAL_VERSION = 3
READABLE_VERSIONS = (2, 3)      # version 2: one base, rewritten at each deal boundary
LOG = "log"
_BASE = struct.Struct(">8sHI32s")
_RECORD = struct.Struct(">I32s")
MAX_RECORD_BYTES = 8 << 20     # one message and the frames it caused: far below this
NAME = "match.state"
LOCK_NAME = "lock"


def _pack(value: Mapping[str, Any] | list[Any]) -> bytes:
    try:
        data = msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise StateStoreError("not_serializable", str(exc)) from None
    assert isinstance(data, bytes)
    return data


def _unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError,
            UnicodeDecodeError) as exc:
        raise StateStoreError("bad_data", f"payload is not valid msgpack: {exc}") from None


def encode_base(base: Mapping[str, object]) -> bytes:
    """The base header and payload (a map of plain data)."""
    if not isinstance(base, Mapping):
        raise StateStoreError("not_serializable", "the base must be a map")
    payload = _pack(dict(base))
    if len(payload) > MAX_STATE_BYTES:
        raise StateStoreError("too_large", "the base exceeds the size limit")
    return _BASE.pack(MAGIC, JOURNAL_VERSION, len(payload), _sha256(payload)) + payload


def encode_record(record: list[Any] | Mapping[str, object]) -> bytes:
    payload = _pack(record)
    if len(payload) > MAX_RECORD_BYTES:
        raise StateStoreError("too_large", "a record exceeds the size limit")
    return _RECORD.pack(len(payload), _sha256(payload)) + payload


def decode_journal(data: bytes) -> tuple[dict[str, object], list[list[Any]], int]:
    """(latest base, the records after it, length of the whole part): a torn last record is
    dropped, not counted; the base's ``log`` is the concatenation of every base's."""
    if len(data) < _BASE.size:
        raise StateStoreError("truncated", f"{len(data)} bytes is shorter than the header")
    magic, version, length, checksum = _BASE.unpack_from(data)
    if magic != MAGIC:
        raise StateStoreError("bad_magic", "not a koikoi state file")
    if version not in READABLE_VERSIONS:
        raise StateStoreError("unsupported_version",
                              f"state format version {version}, this build reads {JOURNAL_VERSION}")
    if length > MAX_STATE_BYTES:
        raise StateStoreError("too_large", f"declared base of {length} bytes")
    end = _BASE.size + length
    if len(data) < end:
        raise StateStoreError("truncated", f"the base has {len(data) - _BASE.size} of {length} bytes")
    payload = data[_BASE.size:end]
    if _sha256(payload) != checksum:
        raise StateStoreError("corrupt", "checksum mismatch in the base")
    base = _unpack(payload)
    if not isinstance(base, dict) or not all(isinstance(key, str) for key in base):
        raise StateStoreError("bad_data", "the base is not a map with text keys")
    log = _log_of(base, 0)
    pending: list[tuple[int, bytes]] = []           # records after the latest base, unpacked at the end
    view = memoryview(data)
    at = end
    while at < len(data):
        left = len(data) - at
        if left < _RECORD.size or not any(view[at:]):
            break                                   # a torn header, or a tail of zeros
        size, digest = _RECORD.unpack_from(data, at)
        stop = _RECORD.size + size
        if size == 0 or size > MAX_RECORD_BYTES or stop > left:
            if size and stop > left and size <= MAX_RECORD_BYTES:
                break                               # the last append did not finish
            raise StateStoreError("corrupt", f"bad record length at byte {at}")
        body = bytes(view[at + _RECORD.size:at + stop])
        if _sha256(body) != digest:
            if stop == left:
                break                               # the last record, torn
            raise StateStoreError("corrupt", f"checksum mismatch in the record at byte {at}")
        if version >= 3 and _is_map(body):
            record = _unpack(body)
            if not isinstance(record, dict) or not all(isinstance(key, str) for key in record):
                raise StateStoreError("bad_data", f"the base at byte {at} is not a map with text keys")
            base, pending = record, []              # a checkpoint: the records start again
            own = _log_of(base, at)
            if own is not None or log is not None:
                log = (log or []) + (own or [])
        else:
            pending.append((at, body))
        at += stop
    records: list[list[Any]] = []
    for where, body in pending:
        record = _unpack(body)
        if not isinstance(record, list):
            raise StateStoreError("bad_data", f"the record at byte {where} is not a list")
        records.append(record)
    if log is not None:
        base = {**base, LOG: log}
    return base, records, at


def _is_map(payload: bytes) -> bool:
    """Whether a msgpack payload is a map (fixmap, map 16, map 32): a base, not a record."""
    first = payload[0]
    return 0x80 <= first <= 0x8F or first in (0xDE, 0xDF)


def _log_of(base: Mapping[str, object], at: int) -> list[Any] | None:
    """A base's own part of the log (None when it has no ``log``)."""
    if LOG not in base:
        return None
    items = base[LOG]
    if not isinstance(items, list):
        raise StateStoreError("bad_data", f"the log of the base at byte {at} is not a list")
    return items


class Journal:
    """The journal of the match in ``folder`` (see the module docstring). Use as a context manager,
    or ``open()`` and ``close()``: the folder is locked in between."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.appends = 0             # records written by this instance (tests, benchmarks)
        self.rebases = 0
        self.records = 0             # records after the current base
        self.syncs = 0
        self.checkpoints = 0
        self.written = 0             # bytes written by this instance (the benchmarks)
        self.version: int | None = None   # the file's format version, once read or written
        self._dirty = False          # appended records wait for an fdatasync
        self._fd: int | None = None
        self._lock: int | None = None

    @property
    def path(self) -> Path:
        return self.folder / NAME

    def exists(self) -> bool:
        return self.path.is_file()

    @property
    def dirty(self) -> bool:
        """Whether appended records wait for an fdatasync."""
        return self._dirty

    # -- the lock ---------------------------------------------------------------------------------
    def lock(self) -> None:
        """Take the folder's exclusive lock; ``StateStoreError("locked")`` if another holds it."""
        if self._lock is not None:
            return
        ensure_private_folder(self.folder)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(self.folder / LOCK_NAME, flags, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StateStoreError("locked", f"another koikoi process{who} is running the match saved "
                                            f"in {self.folder}; one match runs in one process at a time"
                                  ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock = fd

    def unlock(self) -> None:
        self._close_fd()
        fd, self._lock = self._lock, None
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> Journal:
        self.lock()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unlock()

    # -- reading ----------------------------------------------------------------------------------
    def read(self) -> tuple[dict[str, object], list[list[Any]]]:
        """The base and its records (a torn last record dropped). Needs no lock: a reader sees a
        whole base and whole records, never half of one."""
        data, _ = self._read()
        base, records, _ = decode_journal(data)
        return base, records

    def load(self) -> tuple[dict[str, object], list[list[Any]]]:
        """Like ``read``, under the lock, and cut a torn tail away so that appends follow the last
        whole record."""
        self.lock()
        data, _ = self._read()
        base, records, good = decode_journal(data)
        self.version = _BASE.unpack_from(data)[1]
        if good < len(data):
            with open(self.path, "r+b") as handle:
                handle.truncate(good)
                handle.flush()
                os.fsync(handle.fileno())
        self.records = len(records)
        return base, records

    def _read(self) -> tuple[bytes, int]:
        try:
            with open(self.path, "rb") as handle:
                data = handle.read(MAX_STATE_BYTES + 64 * MAX_RECORD_BYTES)
        except FileNotFoundError:
            raise StateStoreError("missing", f"no saved state at {self.path}") from None
        return data, len(data)

    # -- writing ----------------------------------------------------------------------------------
    def rebase(self, base: Mapping[str, object]) -> None:
        """Replace the whole file with ``base`` and no records (atomic; under the lock)."""
        self._replace(base)

    def _replace(self, base: Mapping[str, object]) -> None:
        self.lock()
        self._close_fd()
        data = encode_base(base)
        write_atomic(self.path, data)
        self.written += len(data)
        self.version = JOURNAL_VERSION
        self._dirty = False
        self.records = 0
        self.rebases += 1

    def checkpoint(self, base: Mapping[str, object]) -> None:
        """Append ``base`` as the new base (durable when this returns): the records after the old
        one are not replayed any more. Its ``log`` holds only what the earlier bases' lack. A file
        of an older version (or never read here) is replaced by ``base`` instead, which must
        then hold the whole log."""
        if self.version != JOURNAL_VERSION:
            self._replace(base)
            return
        if not isinstance(base, Mapping):
            raise StateStoreError("not_serializable", "the base must be a map")
        self._write(encode_record(dict(base)))
        self.records = 0
        self.checkpoints += 1
        self.sync()

    def append(self, record: list[Any], *, sync: bool = True) -> None:
        """Add one record and make it durable (one write, one fdatasync) before returning; with
        ``sync=False`` the fdatasync waits for the next ``sync()`` (a group commit)."""
        self._write(encode_record(record))
        self.records += 1
        self.appends += 1
        if sync:
            self.sync()

    def _write(self, data: bytes) -> None:
        """One whole record at the end of the file, waiting for the next ``sync``."""
        self.lock()
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        written = os.write(self._fd, data)
        if written != len(data):       # a short write (disk full): never leave half a record
            os.ftruncate(self._fd, os.fstat(self._fd).st_size - written)
            raise StateStoreError("write_failed", "the record could not be written whole")
        self.written += written
        self._dirty = True

    def sync(self) -> None:
        """Make every appended record durable (one fdatasync; nothing to do when none waits)."""
        if self._dirty and self._fd is not None:
            os.fdatasync(self._fd)
            self.syncs += 1
        self._dirty = False

    def remove(self) -> None:
        """Delete the state and the lock file (the match is over and its evidence is elsewhere)."""
        self._close_fd()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for leftover in self.folder.glob(f".{NAME}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()
        with contextlib.suppress(FileNotFoundError):
            (self.folder / LOCK_NAME).unlink()
        with contextlib.suppress(OSError):
            _fsync_folder(self.folder)

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


__all__ = ["JOURNAL_VERSION", "LOG", "Journal", "decode_journal", "encode_base", "encode_record"]

"""Crash-safe persistence of a peer's match state, written after every accepted message.

A process can be killed at any instant (``kill -9``, power loss), so a state file is either the
old complete state or the new complete state, never a mix: the new bytes go to a temporary file
in the same folder, which is flushed and fsynced, then renamed over the old file with
``os.replace`` (atomic on POSIX), and the folder itself is fsynced so the rename survives a crash.

The state holds round secrets (deck keys), so the folder is 0700 and the files 0600, created
with those modes rather than tightened afterwards. The data is msgpack (never pickle: loading a
file must not run code) inside a small versioned container::

    magic "KKSTATE\\0" (8) | format version u16 | payload length u32 | SHA-256(payload) (32) | payload

The checksum is for integrity, not security (the file is the user's own): a truncated or
corrupted file raises StateStoreError with a machine-readable reason instead of loading garbage.
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
from collections.abc import Mapping
from pathlib import Path

import msgpack
from cryptography.hazmat.primitives import hashes

MAGIC = b"KKSTATE\x00"
FORMAT_VERSION = 1
_HEADER = struct.Struct(">8sHI32s")
HEADER_SIZE = _HEADER.size
MAX_STATE_BYTES = 64 << 20  # a match state is far smaller; refuse absurd files instead of reading them
FILE_MODE = 0o600
FOLDER_MODE = 0o700


class StateStoreError(Exception):
    """A state file that cannot be used, with a machine-readable ``reason``.

    Reasons: "missing", "truncated", "bad_magic", "unsupported_version", "too_large", "corrupt",
    "bad_data", "not_serializable", "insecure_folder", "bad_name".
    """

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


def _sha256(data: bytes) -> bytes:
    digest = hashes.Hash(hashes.SHA256())
    digest.update(data)
    return digest.finalize()


def encode_state(state: Mapping[str, object]) -> bytes:
    """The container bytes for ``state`` (a map of plain data: int, str, bytes, bool, None, list, map)."""
    if not isinstance(state, Mapping):
        raise StateStoreError("not_serializable", "the state must be a map")
    try:
        payload = msgpack.packb(dict(state), use_bin_type=True, strict_types=False)
    except (TypeError, ValueError, OverflowError) as exc:
        raise StateStoreError("not_serializable", str(exc)) from None
    if not isinstance(payload, bytes) or len(payload) > MAX_STATE_BYTES:
        raise StateStoreError("too_large", "the state exceeds the size limit")
    return _HEADER.pack(MAGIC, FORMAT_VERSION, len(payload), _sha256(payload)) + payload


def decode_state(data: bytes) -> dict[str, object]:
    """The state inside container bytes; StateStoreError on any defect, never another exception."""
    if len(data) < HEADER_SIZE:
        raise StateStoreError("truncated", f"{len(data)} bytes is shorter than the header")
    magic, version, length, checksum = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise StateStoreError("bad_magic", "not a koikoi state file")
    if version != FORMAT_VERSION:
        raise StateStoreError(
            "unsupported_version", f"format version {version}, this build reads {FORMAT_VERSION}"
        )
    if length > MAX_STATE_BYTES:
        raise StateStoreError("too_large", f"declared payload of {length} bytes")
    payload = data[HEADER_SIZE:]
    if len(payload) < length:
        raise StateStoreError("truncated", f"payload has {len(payload)} of {length} bytes")
    if len(payload) > length:
        raise StateStoreError("corrupt", "trailing bytes after the payload")
    if _sha256(payload) != checksum:
        raise StateStoreError("corrupt", "checksum mismatch")
    try:
        state = msgpack.unpackb(payload, raw=False, strict_map_key=False, use_list=True)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError,
            UnicodeDecodeError) as exc:
        raise StateStoreError("bad_data", f"payload is not valid msgpack: {exc}") from None
    if not isinstance(state, dict) or not all(isinstance(key, str) for key in state):
        raise StateStoreError("bad_data", "the payload is not a map with text keys")
    return state


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def ensure_private_folder(folder: Path) -> Path:
    """Create ``folder`` as 0700 (parents too), or tighten an existing one we own to 0700."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    info = folder.stat()
    if not stat.S_ISDIR(info.st_mode):
        raise StateStoreError("insecure_folder", f"{folder} is not a folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise StateStoreError("insecure_folder", f"{folder} belongs to another user")
    if stat.S_IMODE(info.st_mode) != FOLDER_MODE:
        os.chmod(folder, FOLDER_MODE)
    return folder


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file (0600)."""
    folder = ensure_private_folder(path.parent)
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()  # a leftover of an earlier crash of this very pid number
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    try:
        with os.fdopen(fd, "wb", closefd=True) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(folder)


class StateStore:
    """One peer's state files in one private folder: ``<folder>/<name>.state``.

    ``save`` after every accepted message (and before sending what it caused); ``load`` when
    resuming. Temporary files left by a crash are ignored and cleaned on the next save.
    """

    SUFFIX = ".state"

    def __init__(self, folder: Path | str, name: str = "match") -> None:
        if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
            raise StateStoreError("bad_name", f"unusable state name {name!r}")
        self.folder = Path(folder)
        self.name = name
        self.saves = 0

    @property
    def path(self) -> Path:
        return self.folder / f"{self.name}{self.SUFFIX}"

    def exists(self) -> bool:
        return self.path.is_file()

    def save(self, state: Mapping[str, object]) -> None:
        write_atomic(self.path, encode_state(state))
        self.saves += 1

    def load(self) -> dict[str, object]:
        try:
            with open(self.path, "rb") as handle:
                data = handle.read(MAX_STATE_BYTES + HEADER_SIZE + 1)
        except FileNotFoundError:
            raise StateStoreError("missing", f"no saved state at {self.path}") from None
        return decode_state(data)

    def load_or_none(self) -> dict[str, object] | None:
        """The saved state, or None when nothing was saved yet (a defect still raises)."""
        try:
            return self.load()
        except StateStoreError as exc:
            if exc.reason == "missing":
                return None
            raise

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for leftover in self.folder.glob(f".{self.name}{self.SUFFIX}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()


__all__ = [
    "FORMAT_VERSION",
    "StateStore",
    "StateStoreError",
    "decode_state",
    "encode_state",
    "ensure_private_folder",
    "write_atomic",
]

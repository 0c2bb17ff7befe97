"""Transcript and evidence files (spec/protocol.md §8 and §9).

A transcript file is an 8-byte magic followed by canonical msgpack values, one after another:

    header   {"format": 2, "handshake": <record>, "kind": "transcript"}
    entry    [signature, envelope]            one per envelope, in seq order
    closing  {"count": n, "end": true, "head": <digest of the last envelope>}

Every byte is covered: the magic and header fields are fixed, the handshake record is checked by
its two identity signatures, each entry by its signature and chain link, the closing marker by
recomputation, and every value must be canonical with nothing after the closing marker. A file
without the closing marker is a transcript cut short (a crash or an abort), reported as such.

An evidence file is the same with another magic and header (who reports what) and, after the
envelopes accepted before the offence, an offence map instead of the closing marker.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.envelope import SignedEnvelope, decode_envelope, envelope_digest, wire_session_id
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.handshake import VerifiedHandshake, verify_handshake_record
from koikoi_p2p.protocol.identity import verify_signature

TRANSCRIPT_MAGIC = b"\x89KOIKOI\n"
EVIDENCE_MAGIC = b"\x89KKEVID\n"
FORMAT = 2


class TranscriptError(ProtocolError):
    """A transcript or evidence file that does not verify; ``index`` is the first failing
    envelope's position (its seq), or None when the fault is outside the envelopes."""

    def __init__(self, reason: str, message: str = "", index: int | None = None) -> None:
        super().__init__(reason, message)
        self.index = index


@dataclass(frozen=True)
class Transcript:
    handshake: dict[str, object]
    envelopes: tuple[SignedEnvelope, ...]
    closed: bool                      # the closing marker is present
    session: VerifiedHandshake

    @property
    def head(self) -> bytes:
        return self.envelopes[-1].digest() if self.envelopes else self.session.handshake_hash


@dataclass(frozen=True)
class Evidence:
    handshake: dict[str, object]
    envelopes: tuple[SignedEnvelope, ...]      # accepted before the offence, verified
    reporter: int
    reason: str
    message: str
    offence: dict[str, object]
    session: VerifiedHandshake
    finding: EvidenceFinding = field(repr=False)


@dataclass(frozen=True, slots=True)
class EvidenceFinding:
    """What the session layer can establish about an offence on its own.

    ``signed`` is True when the offending envelope carries a valid signature of the accused seat
    (so the accused, not the relay, sent it); ``proven`` when that alone proves a violation
    (two different signed envelopes for one seq, or a signed envelope that breaks the chain).
    Otherwise the game layer must judge the signed content, or the fault may be the relay's.
    """

    index: int
    accused: int
    signed: bool
    proven: bool
    envelope: SignedEnvelope | None
    #: when ``proven``, which session-level deviation (spec/protocol.md §9): ``equivocation``,
    #: ``bad_seq`` (a number that was the reporter's) or ``bad_prev`` (contradicts its own envelope)
    reason: str = ""


# -- writing -----------------------------------------------------------------------------------

def _entry(env: SignedEnvelope) -> bytes:
    return codec.encode([env.signature, env.raw])


class TranscriptWriter:
    """Appends a transcript as the session goes (each entry flushed), then closes it."""

    def __init__(self, path: str | os.PathLike[str], handshake: Mapping[str, object], *,
                 fsync: bool = False) -> None:
        self.session = _verify_record(handshake)
        self.path = Path(path)
        self._fsync = fsync
        self._head = self.session.handshake_hash
        self._count = 0
        self._file: BinaryIO | None = open(self.path, "wb")  # kept open for appends
        self._write(TRANSCRIPT_MAGIC + codec.encode({"format": FORMAT, "kind": "transcript",
                                                     "handshake": dict(handshake)}))

    def append(self, env: SignedEnvelope) -> None:
        """Add the next envelope; it must continue the chain (``LocalMisuse("not_next")``)."""
        if env.seq != self._count or env.prev != self._head:
            raise LocalMisuse("not_next", f"envelope {env.seq} does not continue the transcript")
        self._write(_entry(env))
        self._head = env.digest()
        self._count += 1

    def close(self) -> None:
        """Write the closing marker: the transcript is complete."""
        if self._file is None:
            return
        self._write(codec.encode({"end": True, "count": self._count, "head": self._head}))
        self._file.close()
        self._file = None

    def abandon(self) -> None:
        """Close the file without the marker (the session did not end normally)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def _write(self, data: bytes) -> None:
        if self._file is None:
            raise LocalMisuse("closed", "the transcript is closed")
        self._file.write(data)
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abandon() if exc[0] is not None else self.close()


def encode_transcript(handshake: Mapping[str, object], envelopes: Iterable[SignedEnvelope], *,
                      closed: bool = True) -> bytes:
    """The whole transcript file as bytes."""
    envs = list(envelopes)
    session = _verify_record(handshake)
    parts = [TRANSCRIPT_MAGIC, codec.encode({"format": FORMAT, "kind": "transcript",
                                             "handshake": dict(handshake)})]
    parts += [_entry(env) for env in envs]
    if closed:
        head = envs[-1].digest() if envs else session.handshake_hash
        parts.append(codec.encode({"end": True, "count": len(envs), "head": head}))
    return b"".join(parts)


def write_transcript(path: str | os.PathLike[str], handshake: Mapping[str, object],
                     envelopes: Iterable[SignedEnvelope], *, closed: bool = True) -> None:
    """Write a whole transcript atomically (temporary file, then rename)."""
    _atomic_write(Path(path), encode_transcript(handshake, envelopes, closed=closed))


def encode_evidence(handshake: Mapping[str, object], envelopes: Iterable[SignedEnvelope], *,
                    reporter: int, reason: str, message: str, offence: Mapping[str, object]) -> bytes:
    """An evidence file: the transcript before the offence and the offence itself."""
    envs = list(envelopes)
    header = {"format": FORMAT, "kind": "evidence", "handshake": dict(handshake), "reporter": reporter,
              "reason": reason, "message": message}
    parts = [EVIDENCE_MAGIC, codec.encode(header)] + [_entry(env) for env in envs]
    parts.append(codec.encode({"offence": _plain(offence)}))
    return b"".join(parts)


def write_evidence(path: str | os.PathLike[str], handshake: Mapping[str, object],
                   envelopes: Iterable[SignedEnvelope], *, reporter: int, error: RemoteViolation) -> None:
    """Write the evidence of ``error`` (a ``RemoteViolation`` from the channel or the game)."""
    _atomic_write(Path(path), encode_evidence(handshake, envelopes, reporter=reporter, reason=error.reason,
                                              message=error.message, offence=error.evidence))


def _plain(value: object) -> object:
    """Evidence values reduced to the canonical data model (anything else as its repr)."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    return repr(value)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


# -- reading -----------------------------------------------------------------------------------

def _values(data: bytes, start: int) -> list[tuple[int, codec.Value]]:
    """Split ``data[start:]`` into canonical msgpack values with their offsets."""
    import msgpack  # local: only the reader needs the streaming unpacker

    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, use_list=True,
                                max_buffer_size=len(data) + 1)
    unpacker.feed(data[start:])
    values: list[tuple[int, codec.Value]] = []
    offset = start
    try:
        for _ in unpacker:
            end = start + unpacker.tell()
            values.append((offset, codec.decode(data[offset:end], reason="bad_file")))
            offset = end
    except RemoteViolation as exc:
        raise TranscriptError("bad_file", f"value at byte {offset}: {exc.message}") from None
    except Exception as exc:  # msgpack's own errors for damaged bytes
        raise TranscriptError("bad_file", f"damaged msgpack at byte {offset}: {type(exc).__name__}") from None
    if offset != len(data):
        raise TranscriptError("bad_file", f"incomplete value at byte {offset}")
    return values


def _verify_record(record: Mapping[str, object]) -> VerifiedHandshake:
    """The handshake record (spec/protocol.md §5.6) as a file-level check (§8): a record of
    another version is ``unsupported_version``, a signature that fails ``bad_handshake_signature``,
    anything else wrong with it ``bad_handshake``."""
    try:
        return verify_handshake_record(record)
    except RemoteViolation as exc:
        reason = {"bad_signature": "bad_handshake_signature",
                  "unsupported_version": "unsupported_version"}.get(exc.reason, "bad_handshake")
        raise TranscriptError(reason, f"handshake record: {exc.message}") from None


def _check_header(value: codec.Value, kind: str, extra: Sequence[str] = ()) -> dict[str, object]:
    if not isinstance(value, dict) or set(value) != {"format", "kind", "handshake", *extra}:
        raise TranscriptError("bad_file", f"bad {kind} header")
    if value["kind"] != kind:
        raise TranscriptError("bad_file", f"the header's kind is {value['kind']!r}, not {kind!r}")
    if value["format"] != FORMAT:
        raise TranscriptError("unsupported_version", f"{kind} format {value['format']!r}, not {FORMAT}")
    if not isinstance(value["handshake"], dict):
        raise TranscriptError("bad_file", "the handshake record is a map")
    return cast(dict[str, object], value)


def _chain(values: Iterable[codec.Value], session: VerifiedHandshake,
           head: bytes) -> tuple[list[SignedEnvelope], bytes]:
    """Verify entries as a chain from ``head``; returns the envelopes and the new head."""
    envelopes: list[SignedEnvelope] = []
    sid = wire_session_id(session.session_id)
    for index, value in enumerate(values):
        if not (isinstance(value, list) and len(value) == 2
                and isinstance(value[0], bytes) and isinstance(value[1], bytes)):
            raise TranscriptError("bad_file", "an entry is [signature, envelope]", index)
        try:
            env = decode_envelope(value[1], value[0])
        except RemoteViolation as exc:
            raise TranscriptError(exc.reason, exc.message, index) from None
        if env.version != session.version:
            raise TranscriptError("unsupported_version", f"envelope {index} has version {env.version}", index)
        if env.session_id != sid:
            raise TranscriptError("wrong_session", f"envelope {index} belongs to another session", index)
        if env.seq != index:
            raise TranscriptError("bad_seq", f"envelope {index} carries seq {env.seq}", index)
        if env.prev != head:
            raise TranscriptError("bad_prev", f"envelope {index} does not chain to the previous", index)
        try:
            verify_signature(session.keys[env.sender], env.signature, env.raw)
        except RemoteViolation:
            raise TranscriptError("bad_signature", f"envelope {index} is not signed by seat {env.sender}",
                                  index) from None
        envelopes.append(env)
        head = env.digest()
    return envelopes, head


def decode_transcript(data: bytes, *, require_closed: bool = False) -> Transcript:
    """Parse and verify a transcript file's bytes: handshake signatures, every envelope's
    signature and chain link, and the closing marker. Raises ``TranscriptError``."""
    if not data.startswith(TRANSCRIPT_MAGIC):
        raise TranscriptError("bad_magic", "not a koikoi-p2p transcript")
    values = [value for _, value in _values(data, len(TRANSCRIPT_MAGIC))]
    if not values:
        raise TranscriptError("bad_file", "no header")
    header = _check_header(values[0], "transcript")
    handshake = cast(dict[str, object], header["handshake"])
    session = _verify_record(handshake)
    closed = bool(values) and isinstance(values[-1], dict) and len(values) > 1
    entries = values[1:-1] if closed else values[1:]
    envelopes, head = _chain(entries, session, session.handshake_hash)
    if closed:
        marker = values[-1]
        if marker != {"end": True, "count": len(envelopes), "head": head}:
            raise TranscriptError("bad_closing", "the closing marker does not match the envelopes")
    elif require_closed:
        raise TranscriptError("truncated", f"no closing marker after {len(envelopes)} envelopes")
    return Transcript(handshake=handshake, envelopes=tuple(envelopes), closed=closed, session=session)


def read_transcript(path: str | os.PathLike[str], *, require_closed: bool = False) -> Transcript:
    return decode_transcript(Path(path).read_bytes(), require_closed=require_closed)


def decode_evidence(data: bytes) -> Evidence:
    """Parse and verify an evidence file (the transcript part fully; the offence as far as the
    session layer can judge it, see ``EvidenceFinding``). Raises ``TranscriptError``."""
    if not data.startswith(EVIDENCE_MAGIC):
        raise TranscriptError("bad_magic", "not a koikoi-p2p evidence file")
    values = [value for _, value in _values(data, len(EVIDENCE_MAGIC))]
    if len(values) < 2:
        raise TranscriptError("bad_file", "an evidence file has a header and an offence")
    header = _check_header(values[0], "evidence", ("reporter", "reason", "message"))
    reporter, reason, message = header["reporter"], header["reason"], header["message"]
    if reporter not in (0, 1) or isinstance(reporter, bool) or not isinstance(reason, str) \
            or not isinstance(message, str):
        raise TranscriptError("bad_file", "bad evidence header")
    handshake = cast(dict[str, object], header["handshake"])
    session = _verify_record(handshake)
    last = values[-1]
    if not isinstance(last, dict) or set(last) != {"offence"} or not isinstance(last["offence"], dict):
        raise TranscriptError("bad_file", "an evidence file ends with the offence")
    envelopes, head = _chain(values[1:-1], session, session.handshake_hash)
    offence = cast(dict[str, object], last["offence"])
    finding = _judge(offence, session, len(envelopes), head, 1 - reporter, envelopes)
    return Evidence(handshake=handshake, envelopes=tuple(envelopes), reporter=reporter,
                    reason=reason, message=message, offence=offence, session=session, finding=finding)


def read_evidence(path: str | os.PathLike[str]) -> Evidence:
    return decode_evidence(Path(path).read_bytes())


def _judge(offence: Mapping[str, object], session: VerifiedHandshake, index: int, head: bytes,
           accused: int, envelopes: Sequence[SignedEnvelope]) -> EvidenceFinding:
    raw, signature = offence.get("envelope"), offence.get("signature")
    if not isinstance(raw, bytes) or not isinstance(signature, bytes):
        return EvidenceFinding(index=index, accused=accused, signed=False, proven=False, envelope=None)
    try:
        env = decode_envelope(raw, signature)
        verify_signature(session.keys[accused], signature, raw)
    except RemoteViolation:
        return EvidenceFinding(index=index, accused=accused, signed=False, proven=False, envelope=None)
    same_session = env.session_id == wire_session_id(session.session_id) and env.sender == accused
    reason = _breaks_own_chain(env, envelopes, head, session.handshake_hash) if same_session else ""
    return EvidenceFinding(index=min(env.seq, index), accused=accused, signed=True, proven=bool(reason),
                           envelope=env, reason=reason)


def _breaks_own_chain(env: SignedEnvelope, envelopes: Sequence[SignedEnvelope], head: bytes,
                      genesis: bytes) -> str:
    """The session-level deviation the accused's signed ``env`` alone proves, or "" for none
    (the reason is the verifier's finding, never the reporter's unsigned word).

    Only what no one else can cause counts (spec/protocol.md §9): a second envelope at a number
    where the accused already signed one (equivocation); an envelope that contradicts the
    accused's own previous envelope; or an envelope at a number the reporter used, on the very
    history the reporter holds (the game then says the reporter was the one to speak, which the
    replay of the accepted envelopes checks). A number beyond the reporter's next one proves
    nothing: the relay may have dropped the envelopes between. A ``prev`` that names a history
    other than the reporter's proves nothing either when the reporter sent the envelope before
    it: the reporter may have shown the accused another envelope than the one it filed."""
    index = len(envelopes)
    if env.seq < index:
        accepted = envelopes[env.seq]
        if accepted.raw == env.raw:
            return ""                     # an accepted envelope again: a harmless repeat
        if accepted.sender == env.sender:
            return "equivocation"         # two envelopes signed for one seq
        before = envelopes[env.seq - 1].digest() if env.seq else genesis
        return "bad_seq" if env.prev == before else ""   # spoke at the reporter's number
    if env.seq > index or env.prev == head:
        return ""
    return "bad_prev" if index > 0 and envelopes[index - 1].sender == env.sender else ""


__all__ = [
    "EVIDENCE_MAGIC", "TRANSCRIPT_MAGIC", "Evidence", "EvidenceFinding", "Transcript", "TranscriptError",
    "TranscriptWriter", "decode_evidence", "decode_transcript", "encode_evidence", "encode_transcript",
    "envelope_digest", "read_evidence", "read_transcript", "write_evidence", "write_transcript",
]

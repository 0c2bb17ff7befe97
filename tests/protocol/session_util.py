"""Helpers for the session-layer tests: seeded identities, handshakes run in memory."""

from __future__ import annotations

import hashlib

from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.handshake import Handshake, HandshakeResult
from koikoi_p2p.protocol.identity import Identity


def seeded_rng(seed: bytes):  # type: ignore[no-untyped-def]
    """A deterministic n -> bytes generator (SHA-256 in counter mode), for reproducible tests."""
    counter = 0

    def rng(n: int) -> bytes:
        nonlocal counter
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
        return out[:n]

    return rng


def identity(name: str) -> Identity:
    return Identity.from_private_bytes(hashlib.sha256(b"test identity " + name.encode()).digest())


def handshake_pair(*, password: str | None = None, room: str = "K7PQ2X", seed: bytes = b"s",
                   passwords: tuple[str | None, str | None] | None = None,
                   names: tuple[str, str] = ("", ""),
                   ) -> tuple[Handshake, Handshake]:
    pw0, pw1 = passwords if passwords is not None else (password, password)
    a = Handshake(seat=0, identity=identity("host"), room=room, password=pw0, rng=seeded_rng(seed + b"0"),
                  name=names[0])
    b = Handshake(seat=1, identity=identity("guest"), room=room, password=pw1, rng=seeded_rng(seed + b"1"),
                  name=names[1])
    return a, b


def run_pair(a: Handshake, b: Handshake) -> tuple[HandshakeResult, HandshakeResult, list[bytes]]:
    """Run a handshake to the end, delivering frames alternately; returns the frames too."""
    frames: list[bytes] = []
    pending = [(1, f) for f in a.start()] + [(0, f) for f in b.start()]
    while pending:
        to, frame = pending.pop(0)
        frames.append(frame)
        target = b if to == 1 else a
        pending += [(1 - to, f) for f in target.receive(frame)]
    return a.result, b.result, frames


def channel_pair(**kw: object) -> tuple[SecureChannel, SecureChannel]:
    ra, rb, _ = run_pair(*handshake_pair(**kw))  # type: ignore[arg-type]
    return ra.channel, rb.channel

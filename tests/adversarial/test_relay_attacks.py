"""A malicious relay between two honest peers (DESIGN.md G4, G5; spec/protocol.md §10).

Every test runs the real handshake and a scripted exchange of envelopes through
``memory_pair(tamper=...)``; the tamper function plays the relay. Each attack must be caught at
the first frame that shows it, with its reason, and harmless tampering (duplicates, replays of
accepted frames) must cause no alarm.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from koikoi_p2p.net.memory import MemoryTransport, memory_pair
from koikoi_p2p.net.session import run_handshake
from koikoi_p2p.protocol.channel import FRAME_ENVELOPE
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.handshake import Handshake
from koikoi_p2p.protocol.transport import TransportClosed
from tests.protocol.session_util import identity, seeded_rng

# Who sends each envelope of the scripted session (the game decides this in real matches).
SCRIPT = (0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0)
ROOM = "K7PQ2X"


@dataclass
class Outcome:
    reason: str | None = None          # None: the script completed
    at_seq: int | None = None          # the receiver's next_seq when it stopped
    sas: str | None = None
    peer_key: bytes | None = None
    head: bytes | None = None
    duplicates: int = 0
    frames: list[bytes] = field(default_factory=list)


async def peer(transport: MemoryTransport, hs: Handshake, seat: int, script: Sequence[int]) -> Outcome:
    out = Outcome()
    try:
        async with asyncio.timeout(2):
            result = await run_handshake(transport, hs)
            out.sas, out.peer_key = result.sas, result.peer_key
            channel = result.channel
            try:
                for seq, sender in enumerate(script):
                    if sender == seat:
                        frame, _ = channel.seal("msg", {"n": seq})
                        out.frames.append(frame)
                        await transport.send(frame)
                        continue
                    while True:
                        env = channel.open(await transport.recv())
                        if env is not None:
                            assert env.body == {"n": seq}
                            break
                        out.duplicates += 1
            finally:
                out.head, out.at_seq = channel.head, channel.next_seq
    except RemoteViolation as exc:
        out.reason = exc.reason
        await transport.close()
    except TransportClosed:
        out.reason = "closed"
    except TimeoutError:
        out.reason = "timeout"
        await transport.close()
    return out


Relay = Callable[[MemoryTransport, MemoryTransport], Callable[[int, bytes], Sequence[bytes]]]


def session(relay: Relay | None = None, *, password: str | None = None, seed: bytes = b"relay",
            passwords: tuple[str | None, str | None] | None = None,
            script: Sequence[int] = SCRIPT) -> tuple[Outcome, Outcome]:
    """Run one session through a relay; returns (host outcome, guest outcome)."""
    pw = passwords or (password, password)

    async def main() -> tuple[Outcome, Outcome]:
        holder: dict[str, Callable[[int, bytes], Sequence[bytes]]] = {}

        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            return holder["f"](direction, frame) if "f" in holder else [frame]

        ta, tb = memory_pair(tamper=tamper)
        if relay is not None:
            holder["f"] = relay(ta, tb)
        a = Handshake(seat=0, identity=identity("host"), room=ROOM, password=pw[0],
                      rng=seeded_rng(seed + b"a"))
        b = Handshake(seat=1, identity=identity("guest"), room=ROOM, password=pw[1],
                      rng=seeded_rng(seed + b"b"))
        return tuple(await asyncio.gather(peer(ta, a, 0, script), peer(tb, b, 1, script)))  # type: ignore[return-value]

    return asyncio.run(main())


def seq_of(frame: bytes) -> int | None:
    return int.from_bytes(frame[1:5], "big") if frame[:1] == bytes([FRAME_ENVELOPE]) else None


def on_seq(target: int, action: Callable[[bytes], Sequence[bytes]]) -> Relay:
    """A relay that applies ``action`` to the channel frame with seq ``target`` (once)."""
    def make(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        done = [False]

        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if seq_of(frame) == target and not done[0]:
                done[0] = True
                return action(frame)
            return [frame]
        return tamper
    return make


def flip(frame: bytes, position: int) -> bytes:
    out = bytearray(frame)
    out[position] ^= 0x40
    return bytes(out)


# -- honest baselines: no false alarms ----------------------------------------------------------

@pytest.mark.parametrize("password", [None, "moon"])
def test_honest_relay(password: str | None) -> None:
    a, b = session(password=password)
    assert a.reason is None and b.reason is None
    assert a.head == b.head and a.at_seq == b.at_seq == len(SCRIPT)
    assert a.sas == b.sas
    assert a.peer_key == identity("guest").public_key and b.peer_key == identity("host").public_key


def test_duplicating_every_frame_is_harmless() -> None:
    a, b = session(lambda ta, tb: lambda d, f: [f, f])
    assert a.reason is None and b.reason is None and a.head == b.head
    assert a.duplicates + b.duplicates >= len(SCRIPT) - 1   # the last frame's copy may stay unread


def test_replaying_an_accepted_frame_later_is_harmless() -> None:
    stash: list[bytes] = []

    def relay(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if seq_of(frame) == 0:
                stash.append(frame)
            if seq_of(frame) == 5:
                return [frame, stash[0]]    # seq 0 again, long after it was accepted
            return [frame]
        return tamper

    a, b = session(relay)
    assert a.reason is None and b.reason is None and b.duplicates == 1 and a.head == b.head


# -- attacks on the channel ----------------------------------------------------------------------

def test_drop_is_a_seq_gap_at_the_next_frame() -> None:
    a, b = session(on_seq(1, lambda f: []))
    assert b.reason == "bad_seq" and b.at_seq == 1
    assert a.reason == "closed"            # the other side sees the end, not a violation


def test_reorder() -> None:
    def relay(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        held: list[bytes] = []

        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if seq_of(frame) == 1:
                held.append(frame)
                return []
            if seq_of(frame) == 2:
                return [frame, *held]
            return [frame]
        return tamper

    a, b = session(relay)
    assert b.reason == "bad_seq" and b.at_seq == 1
    assert a.reason == "closed"            # the other side sees the end, not a violation


@pytest.mark.parametrize("position", [0, 1, 4, 5, 30, -1])
def test_alter_any_byte(position: int) -> None:
    # byte 0 is the frame kind (bad_frame); 1..4 the authenticated seq header; then ciphertext and tag
    a, b = session(on_seq(3, lambda f: [flip(f, position)]))
    expected = "bad_frame" if position == 0 else "aead_failure"
    assert a.reason == expected and a.at_seq == 3
    assert b.reason == "closed"


def test_inject_random_frame() -> None:
    junk = bytes([FRAME_ENVELOPE]) + (4).to_bytes(4, "big") + os.urandom(120)
    a, b = session(on_seq(3, lambda f: [f, junk]))
    assert a.reason == "aead_failure" and a.at_seq == 4
    assert b.reason == "closed"


def test_inject_short_garbage() -> None:
    a, b = session(on_seq(0, lambda f: [b"\x00garbage", f]))
    assert b.reason == "bad_frame" and b.at_seq == 0
    assert a.reason == "closed"


def test_reflect_own_frame_back() -> None:
    def relay(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if seq_of(frame) == 2 and direction == 0:
                tb.inject(frame)            # back to the host, who sent it
            return [frame]
        return tamper

    a, b = session(relay)
    assert a.reason == "reflected" and a.at_seq == 3
    assert b.reason == "closed"


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_reflect_a_handshake_frame_back(kind: int) -> None:
    """Each handshake frame sent back to its sender: named for what it is, during the handshake
    (HELLO, REPLY, REVEAL) and after it, at the channel (CONFIRM reaches seat 1 once it is done)."""
    def relay(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if frame[0] == kind:
                (tb if direction == 0 else ta).inject(frame)   # back to its sender
            return [frame]
        return tamper

    a, b = session(relay)
    sender = a if kind in (1, 3) else b
    assert sender.reason == "reflected", (a.reason, b.reason)


def test_replay_a_frame_from_an_earlier_session() -> None:
    old_a, _ = session(seed=b"first session")
    assert old_a.reason is None
    old_frame = old_a.frames[1]              # seq 1 of another session between the same two people
    a, b = session(on_seq(1, lambda f: [old_frame]), seed=b"second session")
    assert b.reason == "aead_failure" and b.at_seq == 1
    assert a.reason == "closed"


# -- attacks on the handshake --------------------------------------------------------------------

def test_alter_handshake_frames() -> None:
    def alter(kind: int, position: int) -> Relay:
        def make(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
            return lambda d, f: [flip(f, position)] if f[0] == kind else [f]
        return make

    a, b = session(alter(2, 5))           # seat 1's ephemeral key altered: seat 0 derives other keys
    assert b.reason == "key_confirmation_failed"
    a, b = session(alter(1, 10))          # the commitment altered
    assert b.reason == "bad_commitment"
    a, b = session(alter(4, 3))           # seat 1's confirmation MAC altered
    assert a.reason == "key_confirmation_failed"
    a, b = session(alter(3, 100), password="moon")   # the identity block of seat 0
    assert b.reason == "key_confirmation_failed"


def test_replay_an_old_handshake() -> None:
    old: list[bytes] = []

    def record(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            old.append(frame)
            return [frame]
        return tamper

    session(record, seed=b"old")
    old_hello, old_reveal = old[0], old[2]

    def replay(ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if frame[0] == 1:
                return [old_hello]
            if frame[0] == 3:
                return [old_reveal]
            return [frame]
        return tamper

    a, b = session(replay, seed=b"new")
    assert b.reason == "key_confirmation_failed"
    assert a.reason == "closed"


class ManInTheMiddle:
    """A relay that runs its own handshakes with both peers, to stand in the middle.

    It holds its REVEAL to the guest and its CONFIRM to the host until it has both peers' frames,
    then delivers both, so each peer sees the relay's frame before the other one gives up.
    """

    def __init__(self, password: str | None) -> None:
        self.to_host = Handshake(seat=1, identity=identity("mallory"), room=ROOM, password=password)
        self.to_guest = Handshake(seat=0, identity=identity("mallory"), room=ROOM, password=password)
        self.failures: list[str] = []
        self.held: list[bytes] = []
        self.host_revealed = False
        self.to_host_held: list[bytes] = []

    def __call__(self, ta: MemoryTransport, tb: MemoryTransport) -> Callable[[int, bytes], Sequence[bytes]]:
        self.to_host.start()

        def answer(side: Handshake, frame: bytes) -> list[bytes]:
            try:
                return side.receive(frame)
            except RemoteViolation as exc:
                self.failures.append(exc.reason)
                # it cannot confirm: the best it can send is a guess of the right length
                return [bytes([4]) + os.urandom(145)] if side is self.to_host else []

        def release() -> None:
            if self.host_revealed and self.held:
                for reveal in self.held:
                    ta.inject(reveal)                           # ta.inject reaches the guest
                for confirm in self.to_host_held:
                    tb.inject(confirm)
                self.held = self.to_host_held = []

        def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
            if frame[0] == 1:                                   # host's HELLO
                for reply in answer(self.to_host, frame):
                    tb.inject(reply)                            # tb.inject reaches the host
                return self.to_guest.start()
            if frame[0] == 2:                                   # guest's REPLY
                self.held = answer(self.to_guest, frame)
                release()
                return []
            if frame[0] == 3:                                   # host's REVEAL
                self.to_host_held = answer(self.to_host, frame)
                self.host_revealed = True
                release()
                return []
            if frame[0] == 4:                                   # guest's CONFIRM
                for sign in answer(self.to_guest, frame):
                    ta.inject(sign)                             # the relay's SIGN to the guest
            if frame[0] == 5:                                   # host's SIGN
                answer(self.to_host, frame)
            return []
        return tamper


def test_key_substitution_without_password_shows_different_sas() -> None:
    mitm = ManInTheMiddle(password=None)
    a, b = session(mitm, script=())
    assert a.sas is not None and b.sas is not None
    assert a.sas != b.sas                               # the players see it on their screens
    assert a.peer_key == b.peer_key == identity("mallory").public_key


def test_key_substitution_with_password_fails_confirmation() -> None:
    mitm = ManInTheMiddle(password="a guess")
    a, b = session(mitm, password="moon", script=())
    assert b.reason == "pake_failed"
    assert a.reason == "pake_failed"
    assert "pake_failed" in mitm.failures


def test_a_right_password_guess_is_the_limit() -> None:
    """SPAKE2 gives the relay one online guess per handshake; a right guess gets it in, and only the
    remembered identity key (KnownPeers) can still tell. Documented in spec/protocol.md §10."""
    mitm = ManInTheMiddle(password="moon")
    a, b = session(mitm, password="moon", script=())
    assert a.reason is None and b.reason is None and not mitm.failures
    assert a.peer_key == identity("mallory").public_key

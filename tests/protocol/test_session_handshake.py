"""The handshake in memory: both modes, key agreement, failures with their reasons."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.net.session import run_handshake
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.handshake import Handshake, State, verify_handshake_record
from koikoi_p2p.protocol.identity import fingerprint
from tests.protocol.session_util import handshake_pair, identity, run_pair, seeded_rng


@pytest.mark.parametrize("password", [None, "plum blossom"])
def test_both_sides_agree(password: str | None) -> None:
    ra, rb, frames = run_pair(*handshake_pair(password=password))
    assert ra.session_id == rb.session_id and len(ra.session_id) == 32
    assert ra.handshake_hash == rb.handshake_hash
    assert ra.peer_key == identity("guest").public_key
    assert rb.peer_key == identity("host").public_key
    assert ra.record == rb.record
    assert verify_handshake_record(ra.record).session_id == ra.session_id
    if password is None:
        assert ra.sas is not None and ra.sas == rb.sas
    else:
        assert ra.sas is None and rb.sas is None
    assert [f[0] for f in frames] == [1, 2, 3, 4, 5]
    # the two directions have distinct keys: seat 0's send key is seat 1's receive key
    sa, sb = ra.channel.to_state(), rb.channel.to_state()
    assert sa["send_key"] == sb["recv_key"] and sa["recv_key"] == sb["send_key"]
    assert sa["send_key"] != sa["recv_key"]


def test_handshake_sizes() -> None:
    _, _, frames = run_pair(*handshake_pair())
    assert [len(f) for f in frames] == [35, 33, 114, 146, 81]
    _, _, frames = run_pair(*handshake_pair(password="pw"))
    assert [len(f) for f in frames] == [68, 66, 114, 146, 81]
    # A display name costs its UTF-8 bytes in the identity block of its seat.
    a, b = handshake_pair(names=("花子", "Ken"))
    _, _, frames = run_pair(a, b)
    assert [len(f) for f in frames] == [35, 33, 114 + 6, 146 + 3, 81]


def test_fresh_randomness_gives_fresh_sessions() -> None:
    ra, _, _ = run_pair(*handshake_pair(seed=b"x"))
    rb, _, _ = run_pair(*handshake_pair(seed=b"y"))
    assert ra.session_id != rb.session_id and ra.sas != rb.sas


def test_wrong_password_fails_confirmation() -> None:
    a, b = handshake_pair(passwords=("plum", "pine"))
    with pytest.raises(RemoteViolation) as info:
        run_pair(a, b)
    assert info.value.reason == "pake_failed"
    assert b.state is State.FAILED
    with pytest.raises(LocalMisuse):
        b.receive(b"\x03")


def test_mode_mismatch() -> None:
    a, b = handshake_pair(passwords=(None, "pine"))
    with pytest.raises(RemoteViolation) as info:
        run_pair(a, b)
    assert info.value.reason == "mode_mismatch"


def test_room_mismatch_fails_confirmation() -> None:
    a = Handshake(seat=0, identity=identity("a"), room="AAAAAA", password=None)
    b = Handshake(seat=1, identity=identity("b"), room="BBBBBB", password=None)
    with pytest.raises(RemoteViolation) as info:
        run_pair(a, b)
    assert info.value.reason == "key_confirmation_failed"
    a = Handshake(seat=0, identity=identity("a"), room="AAAAAA", password="pw")
    b = Handshake(seat=1, identity=identity("b"), room="BBBBBB", password="pw")
    with pytest.raises(RemoteViolation) as info:
        run_pair(a, b)
    assert info.value.reason == "pake_failed"


def test_two_hosts_conflict() -> None:
    a = Handshake(seat=0, identity=identity("a"), room="R", password=None)
    b = Handshake(seat=0, identity=identity("b"), room="R", password=None)
    hello = b.start()[0]
    a.start()
    with pytest.raises(RemoteViolation) as info:
        a.receive(hello)
    assert info.value.reason == "unexpected_message"


def test_bad_version_in_hello() -> None:
    a, b = handshake_pair()
    hello = bytearray(a.start()[0])
    b.start()
    hello[1] = 1                     # a version 1 peer
    with pytest.raises(RemoteViolation) as info:
        b.receive(bytes(hello))
    assert info.value.reason == "unsupported_version"


def test_bad_commitment() -> None:
    a, b = handshake_pair()
    b.start()
    reply = b.receive(a.start()[0])[0]
    reveal = bytearray(a.receive(reply)[0])
    reveal[1] ^= 1
    with pytest.raises(RemoteViolation) as info:
        b.receive(bytes(reveal))
    assert info.value.reason == "bad_commitment"


def test_low_order_ephemeral_key() -> None:
    a, b = handshake_pair()
    b.start()
    a.start()
    with pytest.raises(RemoteViolation) as info:
        a.receive(b"\x02" + bytes(32))
    assert info.value.reason == "bad_key"


def test_misuse() -> None:
    with pytest.raises(LocalMisuse):
        Handshake(seat=2, identity=identity("a"), room="R", password=None)
    with pytest.raises(LocalMisuse):
        Handshake(seat=0, identity=identity("a"), room="", password=None)
    with pytest.raises(LocalMisuse):
        Handshake(seat=0, identity=identity("a"), room="R", password="")
    a, _ = handshake_pair()
    with pytest.raises(LocalMisuse):
        a.result  # noqa: B018
    with pytest.raises(LocalMisuse):
        a.receive(b"\x02")
    a.start()
    with pytest.raises(LocalMisuse):
        a.start()


def test_record_tampering_is_detected() -> None:
    ra, _, _ = run_pair(*handshake_pair())
    for key in ("hello", "reply", "reveal"):
        record = dict(ra.record)
        field = record[key]
        assert isinstance(field, bytes)
        value = bytearray(field)
        value[-1] ^= 1
        record[key] = bytes(value)
        with pytest.raises(RemoteViolation):
            verify_handshake_record(record)
    record = dict(ra.record)
    record["room"] = "OTHER"
    with pytest.raises(RemoteViolation) as info:
        verify_handshake_record(record)
    assert info.value.reason == "bad_signature"
    record = dict(ra.record)
    record["keys"] = list(reversed(record["keys"]))  # type: ignore[call-overload]
    with pytest.raises(RemoteViolation):
        verify_handshake_record(record)


def test_over_memory_transports() -> None:
    async def main() -> None:
        ta, tb = memory_pair()
        a, b = handshake_pair(password="pw")
        ra, rb = await asyncio.gather(run_handshake(ta, a), run_handshake(tb, b))
        assert ra.session_id == rb.session_id
        frame, _ = ra.channel.seal("hello", {"n": 1})
        await ta.send(frame)
        env = rb.channel.open(await tb.recv())
        assert env is not None and env.body == {"n": 1}
        await ta.close()
        assert fingerprint(ra.peer_key) == fingerprint(identity("guest").public_key)

    asyncio.run(main())


class _WeakIdentity:
    """An 'identity' whose public key is the identity point: (R = identity, S = 0) verifies as its
    signature over any message, so anyone can sign for it."""

    public_key = bytes([1]) + bytes(31)

    def sign(self, data: bytes) -> bytes:
        return bytes([1]) + bytes(31) + bytes(32)

    def private_bytes(self) -> bytes:
        return bytes(32)


ROOM_W = "WEAK01"


def test_an_identity_key_of_small_order_is_refused() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from koikoi_p2p.audit import AuditError, verify_result
    from koikoi_p2p.protocol.identity import Identity
    from koikoi_p2p.protocol.results import CoSignedResult, MatchResult

    weak = _WeakIdentity()
    # The premise: the signature library alone accepts the made-up signature.
    Ed25519PublicKey.from_public_bytes(weak.public_key).verify(weak.sign(b"x"), b"anything")
    for weak_seat in (0, 1):
        idents: list[Any] = [identity("host"), identity("guest")]
        idents[weak_seat] = weak
        a = Handshake(seat=0, identity=idents[0], room=ROOM_W, password=None, rng=seeded_rng(b"w0"))
        b = Handshake(seat=1, identity=idents[1], room=ROOM_W, password=None, rng=seeded_rng(b"w1"))
        b.start()
        frames = a.start()
        frames = b.receive(frames[0])
        frames = a.receive(frames[0])
        if weak_seat == 0:
            with pytest.raises(RemoteViolation) as info:
                b.receive(frames[0])
        else:
            frames = b.receive(frames[0])
            with pytest.raises(RemoteViolation) as info:
                a.receive(frames[0])
        assert info.value.reason == "bad_key"
    # A record or a co-signed result naming such a key is refused as well.
    ra, _, _ = run_pair(*handshake_pair(seed=b"rec", room=ROOM_W))
    record = {**ra.record, "keys": [weak.public_key, ra.record["keys"][1]],  # type: ignore[index]
              "signatures": [weak.sign(b""), ra.record["signatures"][1]]}  # type: ignore[index]
    with pytest.raises(RemoteViolation) as info:
        verify_handshake_record(record)
    assert info.value.reason == "bad_key"
    honest = Identity.from_private_bytes(b"\x22" * 32)
    result = MatchResult(version=2, session_id=b"\x33" * 32, room="ABCDEF",
                         keys=(weak.public_key, honest.public_key), names=("", ""), rated=False,
                         terms_digest=b"\x44" * 32, profile="nintendo", profile_digest=b"\x55" * 32,
                         rounds=(), scores=(0, 0), winner=None, resigned=None, head=b"\x66" * 32)
    data = result.statement()
    cosigned = CoSignedResult(result=result, signatures=(weak.sign(data), honest.sign(data)))
    with pytest.raises(AuditError) as err:
        verify_result(cosigned.encode())
    assert err.value.reason == "bad_key"

"""The secure channel: one global chain, duplicates, equivocation, reasons, persistence."""

from __future__ import annotations

import pytest

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.channel import FRAME_OVERHEAD, SecureChannel, seal_frame
from koikoi_p2p.protocol.envelope import VERSION, sign_envelope
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from tests.protocol.session_util import channel_pair, identity


def reason_of(channel: SecureChannel, frame: bytes) -> str:
    with pytest.raises(RemoteViolation) as info:
        channel.open(frame)
    assert info.value.evidence["frame"] == frame
    return info.value.reason


def peer_envelope_frame(sender: SecureChannel, receiver: SecureChannel, *, seq: int | None = None,
                        prev: bytes | None = None, session_id: bytes | None = None,
                        sender_seat: int | None = None,
                        version: int = VERSION, body: dict[str, object] | None = None) -> bytes:
    """A frame the sender's key signs and seals, with chosen fields (a malicious peer)."""
    env = sign_envelope(sender.identity, version=version,
                        session_id=session_id or sender.wire_session_id,
                        seq=sender.next_seq if seq is None else seq, prev=prev or sender.head,
                        sender=sender.seat if sender_seat is None else sender_seat,
                        type="test", body=body or {})
    return seal_frame(sender._send_key, env)


def test_alternating_chain_is_shared() -> None:
    a, b = channel_pair()
    for i in range(6):
        sender, receiver = (a, b) if i % 3 else (b, a)
        frame, env = sender.seal("move", {"i": i})
        got = receiver.open(frame)
        assert got == env and got.seq == i
        assert a.head == b.head and a.next_seq == b.next_seq == i + 1
    assert env.prev != env.digest()


def test_first_prev_is_the_handshake_hash() -> None:
    a, _b = channel_pair()
    _, env = a.seal("x", {})
    assert env.prev == a.handshake_hash and env.session_id == a.session_id[:16]


def test_duplicate_is_harmless() -> None:
    a, b = channel_pair()
    frame, _ = a.seal("x", {"v": 1})
    assert b.open(frame) is not None
    assert b.open(frame) is None
    frame2, _ = b.seal("y", {})
    a.open(frame2)
    assert b.open(frame) is None     # an old duplicate, after the chain moved on
    assert b.failed is None


def test_equivocation_keeps_both() -> None:
    a, b = channel_pair()
    frame, first = a.seal("x", {"v": 1})
    b.open(frame)
    other = peer_envelope_frame(a, b, seq=0, prev=a.handshake_hash, body={"v": 2})
    with pytest.raises(RemoteViolation) as info:
        b.open(other)
    assert info.value.reason == "equivocation"
    assert info.value.evidence["accepted_envelope"] == first.raw
    assert info.value.evidence["envelope"] != first.raw
    with pytest.raises(LocalMisuse) as misuse:
        b.open(frame)
    assert misuse.value.reason == "channel_failed"


def test_gap_is_bad_seq() -> None:
    a, b = channel_pair()
    a.seal("lost", {})
    frame, _ = a.seal("next", {})
    assert reason_of(b, frame) == "bad_seq"


def test_peer_writing_on_our_seq() -> None:
    a, b = channel_pair()
    frame, _ = b.seal("mine", {})
    a.open(frame)
    clash = peer_envelope_frame(a, b, seq=0, prev=a.handshake_hash)
    assert reason_of(b, clash) == "bad_seq"


def test_bad_prev() -> None:
    a, b = channel_pair()
    assert reason_of(b, peer_envelope_frame(a, b, prev=bytes(32))) == "bad_prev"


def test_wrong_session_wrong_sender_version() -> None:
    a, b = channel_pair()
    assert reason_of(b, peer_envelope_frame(a, b, session_id=bytes(16))) == "wrong_session"
    a, b = channel_pair()
    assert reason_of(b, peer_envelope_frame(a, b, sender_seat=1)) == "wrong_sender"
    a, b = channel_pair()
    assert reason_of(b, peer_envelope_frame(a, b, version=1)) == "unsupported_version"


def test_bad_signature() -> None:
    a, b = channel_pair()
    _frame, env = a.seal("x", {})
    forged = sign_envelope(identity("someone else"), version=VERSION, session_id=env.session_id, seq=0,
                           prev=env.prev, sender=0, type="x", body={})
    b2 = channel_pair()[1]
    assert reason_of(b2, seal_frame(a._send_key, forged)) != "ok"  # other keys: aead_failure
    assert reason_of(b, seal_frame(a._send_key, forged)) == "bad_signature"


def test_reflected_and_altered_and_garbage() -> None:
    a, b = channel_pair()
    frame, _ = a.seal("x", {})
    assert reason_of(a, frame) == "reflected"
    a, b = channel_pair()
    frame, _ = a.seal("x", {})
    altered = frame[:-1] + bytes([frame[-1] ^ 1])
    assert reason_of(b, altered) == "aead_failure"
    a, b = channel_pair()
    assert reason_of(b, b"\x10\x00") == "bad_frame"
    a, b = channel_pair()
    assert reason_of(b, b"\x01" + bytes(100)) == "bad_frame"


def test_header_seq_must_match_envelope() -> None:
    a, b = channel_pair()
    env = sign_envelope(a.identity, version=VERSION, session_id=a.wire_session_id, seq=0, prev=a.head,
                        sender=0, type="x", body={})
    from koikoi_p2p.protocol.channel import frame_header, seal_plaintext
    frame = seal_plaintext(a._send_key, frame_header(1), env.signature + env.raw)
    assert reason_of(b, frame) == "bad_frame"


def test_non_canonical_envelope_inside_a_valid_frame() -> None:
    a, b = channel_pair()
    env = sign_envelope(a.identity, version=VERSION, session_id=a.wire_session_id, seq=0, prev=a.head,
                        sender=0, type="x", body={"n": 1})
    raw = env.raw[:-1] + b"\xcc\x01"   # 1 in a non-shortest form, re-signed by the peer
    from koikoi_p2p.protocol.channel import frame_header, seal_plaintext
    frame = seal_plaintext(a._send_key, frame_header(0), a.identity.sign(raw) + raw)
    assert reason_of(b, frame) == "bad_envelope"


def test_the_nonce_is_the_envelope_s_own() -> None:
    """spec/protocol.md §7.1: the nonce is derived from the header and the plaintext. A frame that
    authenticates under another nonce (only the peer's key can make one) is refused, so each
    envelope has exactly one frame."""
    from koikoi_p2p.protocol import primitives
    from koikoi_p2p.protocol.channel import HEADER_SIZE, frame_header, frame_keys

    a, b = channel_pair()
    env = sign_envelope(a.identity, version=VERSION, session_id=a.wire_session_id, seq=0, prev=a.head,
                        sender=0, type="x", body={})
    header = frame_header(0)
    aead_key, _ = frame_keys(a._send_key)
    nonce = bytes(12)
    frame = header + nonce + primitives.seal(aead_key, nonce, env.signature + env.raw, header)
    assert reason_of(b, frame) == "bad_frame"
    _, b2 = channel_pair()
    good = seal_frame(a._send_key, env)
    assert good[:HEADER_SIZE] == header and b2.open(good) == env


def test_a_state_restored_twice_never_reuses_a_nonce() -> None:
    """Two copies of one saved channel that seal two different envelopes at one number (a peer
    restored twice into different futures) use two different nonces under the one key, where a
    counter nonce would repeat the key stream (the relay would learn the XOR of the plaintexts)
    and the Poly1305 key; the same envelope gives the same frame (a retransmission)."""
    from koikoi_p2p.protocol.channel import HEADER_SIZE, NONCE_SIZE

    a, _ = channel_pair()
    state = codec.decode(codec.encode(a.to_state()))
    assert isinstance(state, dict)
    first, second, again = (SecureChannel.from_state(state) for _ in range(3))
    f1, _ = first.seal("move", {"card": 1})
    f2, _ = second.seal("move", {"card": 2})
    f3, _ = again.seal("move", {"card": 1})
    nonce = slice(HEADER_SIZE, HEADER_SIZE + NONCE_SIZE)
    assert f1[:HEADER_SIZE] == f2[:HEADER_SIZE]
    assert f1[nonce] != f2[nonce]
    assert f1 == f3


def test_overhead_is_small() -> None:
    """spec/protocol.md §7.1: 152 bytes + 1, 2 or 3 for seq, beyond the encoded type and body."""
    a, b = channel_pair()
    assert FRAME_OVERHEAD == 97
    sizes = []
    for _ in range(300):
        frame, _ = a.seal("move", {"c": 1})
        b.open(frame)
        sizes.append(len(frame) - len(codec.encode("move")) - len(codec.encode({"c": 1})))
    assert sizes[0] == sizes[127] == 153
    assert sizes[128] == sizes[255] == 154
    assert sizes[256] == sizes[299] == 155


def test_state_round_trip() -> None:
    a, b = channel_pair()
    frame, _ = a.seal("x", {"k": [1, 2]})
    b.open(frame)
    state = codec.decode(codec.encode(b.to_state()))
    assert isinstance(state, dict)
    b2 = SecureChannel.from_state(state)
    frame, _ = b2.seal("y", {})
    assert a.open(frame) is not None
    frame, _ = a.seal("z", {})
    assert b2.open(frame) is not None
    old, _ = a.seal("w", {})
    b2.open(old)
    assert b2.open(old) is None


def test_state_damage_is_local_misuse() -> None:
    a, _ = channel_pair()
    a.seal("x", {})
    state = a.to_state()
    for damage in ({"head": bytes(32)}, {"next_seq": 5}, {"format": 9}, {"send_key": b"short"}):
        with pytest.raises(LocalMisuse) as info:
            SecureChannel.from_state({**state, **damage})
        assert info.value.reason in ("bad_state", "bad_channel")
    broken = dict(state)
    del broken["recv_key"]
    with pytest.raises(LocalMisuse):
        SecureChannel.from_state(broken)


def test_seal_misuse() -> None:
    a, _ = channel_pair()
    with pytest.raises(LocalMisuse):
        a.seal("Bad Type", {})
    with pytest.raises(LocalMisuse):
        a.seal("x", {"f": 1.5})
    assert a.next_seq == 0

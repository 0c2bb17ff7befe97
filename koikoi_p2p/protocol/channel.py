"""The secure channel: seals envelopes into frames and opens the peer's (spec/protocol.md §7).

Theory of operation. After the handshake both peers hold one send key and one receive key (one
per direction, so a frame reflected back to its sender does not open) and share one global hash
chain: ``seq`` counts the envelopes of the session from 0 whoever sent them, and every envelope
names the digest of the previous one (the handshake hash for seq 0). The game above is strictly
sequential, so at any time exactly one side sends the next envelope.

A frame is ``0x10 || seq (u32, big-endian) || nonce || ChaCha20-Poly1305(direction key, nonce,
aad = the 5 header bytes, signature || envelope)``. The 12-byte nonce is synthetic (SIV, Rogaway
and Shrimpton 2006): an HMAC of the header and the plaintext under a second key of the
direction. An honest peer seals each envelope once, so nonces never repeat; a peer restored twice
from one saved state that seals two different envelopes at one sequence number still uses two
different nonces, where a counter nonce would reuse the key stream and the Poly1305 key. The
same envelope always gives the same frame, so a retransmission is the same bytes.

``open`` accepts only the next sequence number, from the peer, chained to our head. The exact
envelope already accepted at that number again is a harmless duplicate (``None``); any other
envelope there is a violation (``equivocation`` when the peer signed both). Any violation moves
the channel to a terminal state: every later call raises ``LocalMisuse("channel_failed")``.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import cast

from koikoi_p2p.protocol import primitives
from koikoi_p2p.protocol.envelope import (
    HASH_SIZE,
    MAX_SEQ,
    SESSION_ID_SIZE,
    VERSION,
    SignedEnvelope,
    decode_envelope,
    envelope_digest,
    sign_envelope,
    verify_envelope,
    wire_session_id,
)
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.identity import SIGNATURE_SIZE, Identity, check_public_key

FRAME_ENVELOPE = 0x10
HEADER_SIZE = 5
NONCE_SIZE = 12
MAX_FRAME = 1 << 20
# Overhead of a frame beyond the envelope: header, nonce, signature, AEAD tag.
FRAME_OVERHEAD = HEADER_SIZE + NONCE_SIZE + SIGNATURE_SIZE + primitives.AEAD_TAG
MIN_FRAME = FRAME_OVERHEAD
STATE_FORMAT = 2
_PEER_CACHE = 512  # recent peer envelopes kept in memory to attach to equivocation evidence
_AEAD_INFO = b"koikoi-p2p/2 frame aead"
_NONCE_INFO = b"koikoi-p2p/2 frame nonce"
#: HKDF info of the link liveness key (spec/protocol.md §12.2 item 4).
LIVENESS_INFO = b"koikoi-p2p/v2/link-liveness"


def frame_header(seq: int) -> bytes:
    return bytes([FRAME_ENVELOPE]) + struct.pack(">I", seq)


def frame_keys(direction_secret: bytes) -> tuple[bytes, bytes]:
    """(AEAD key, nonce key) of one direction: HKDF-Expand of its secret K("send s") (§7.1)."""
    return (primitives.hkdf_expand_sha256(direction_secret, _AEAD_INFO),
            primitives.hkdf_expand_sha256(direction_secret, _NONCE_INFO))


def liveness_key(session_id: bytes, send0: bytes, send1: bytes) -> bytes:
    """K_live = HKDF-SHA256(K("send 0") || K("send 1"), salt = session id) (spec/protocol.md §12.2 item 4)."""
    return primitives.hkdf_sha256(send0 + send1, salt=session_id, info=LIVENESS_INFO)


def frame_nonce(nonce_key: bytes, header: bytes, plaintext: bytes) -> bytes:
    """The synthetic nonce: HMAC-SHA256(nonce key, header || plaintext), first 12 bytes."""
    return primitives.hmac_sha256(nonce_key, header + plaintext)[:NONCE_SIZE]


def seal_plaintext(direction_secret: bytes, header: bytes, plaintext: bytes) -> bytes:
    """header || nonce || AEAD(aead key, nonce, header, plaintext), for any header and plaintext."""
    aead_key, nonce_key = frame_keys(direction_secret)
    nonce = frame_nonce(nonce_key, header, plaintext)
    return header + nonce + primitives.seal(aead_key, nonce, plaintext, header)


def seal_frame(key: bytes, env: SignedEnvelope) -> bytes:
    """The wire frame carrying ``env`` under the direction secret ``key`` (spec/protocol.md §7.1)."""
    return seal_plaintext(key, frame_header(env.seq), env.signature + env.raw)


class SecureChannel:
    """One peer's end of the session after the handshake. Sans-I/O: frames in, frames out."""

    def __init__(self, *, seat: int, identity: Identity, peer_key: bytes, session_id: bytes,
                 handshake_hash: bytes, send_key: bytes, recv_key: bytes, version: int = VERSION,
                 head: bytes | None = None, next_seq: int = 0, digests: bytes = b"",
                 senders: bytes = b"", handshake_frames: bytes = b"", own_frames: bytes = b"",
                 names: tuple[str, str] = ("", "")) -> None:
        if seat not in (0, 1):
            raise LocalMisuse("bad_seat", "seat is 0 or 1")
        for name, value, size in (("session_id", session_id, 32), ("handshake_hash", handshake_hash, 32),
                                  ("send_key", send_key, 32), ("recv_key", recv_key, 32)):
            if not isinstance(value, bytes) or len(value) != size:
                raise LocalMisuse("bad_channel", f"{name} must be {size} bytes")
        check_public_key(peer_key)
        if len(digests) != HASH_SIZE * next_seq or len(senders) != next_seq:
            raise LocalMisuse("bad_channel", "history does not match next_seq")
        self.seat = seat
        self.peer = 1 - seat
        self.version = version
        self.identity = identity
        self.peer_key = peer_key
        self.session_id = session_id
        self.wire_session_id = wire_session_id(session_id)
        self.handshake_hash = handshake_hash
        self.head: bytes = handshake_hash if head is None else head
        self.next_seq = next_seq
        self._send_key = send_key
        self._recv_key = recv_key
        self._send_keys = frame_keys(send_key)
        self._recv_keys = frame_keys(recv_key)
        if not (isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            raise LocalMisuse("bad_channel", "names are two strings, seat 0 first")
        #: The display names of seat 0 and seat 1, as signed in the handshake (§5.1).
        self.names: tuple[str, str] = names
        self._digests = bytearray(digests)      # digest of envelope i at [32 i, 32 i + 32)
        self._senders = bytearray(senders)      # sender of envelope i
        self._peer_cache: dict[int, SignedEnvelope] = {}
        if len(handshake_frames) % HASH_SIZE or len(own_frames) % HASH_SIZE:
            raise LocalMisuse("bad_channel", "handshake frames are given as 32-byte digests")
        # SHA-256 of the handshake frames the peer sent: a repeat of one of them is harmless;
        # of those we sent: one of them coming back was reflected by the relay.
        self._handshake_frames = bytes(handshake_frames)
        self._own_frames = bytes(own_frames)
        self.failed: str | None = None

    # -- sending -------------------------------------------------------------------------------

    def seal(self, type: str, body: Mapping[str, object]) -> tuple[bytes, SignedEnvelope]:
        """Sign and seal the next envelope; returns (frame to send, envelope for the transcript)."""
        self._check_usable()
        if self.next_seq > MAX_SEQ:
            raise LocalMisuse("session_exhausted", "no sequence numbers left")
        env = sign_envelope(self.identity, version=self.version, session_id=self.wire_session_id,
                            seq=self.next_seq, prev=self.head, sender=self.seat, type=type, body=body)
        frame = seal_frame(self._send_key, env)
        if len(frame) > MAX_FRAME:
            raise LocalMisuse("too_large", f"frame of {len(frame)} bytes exceeds {MAX_FRAME}")
        self._accept(env)
        return frame, env

    # -- receiving -----------------------------------------------------------------------------

    def open(self, frame: bytes) -> SignedEnvelope | None:
        """Open the peer's next frame. ``None``: an exact duplicate of an accepted envelope.

        Raises ``RemoteViolation`` with reason bad_frame, aead_failure, reflected, bad_envelope,
        unsupported_version, wrong_session, wrong_sender, bad_signature, bad_seq, bad_prev or
        equivocation (spec/protocol.md §7.2, in that order of checking).
        """
        self._check_usable()
        try:
            return self._open(frame)
        except RemoteViolation as exc:
            self.failed = exc.reason
            exc.evidence.setdefault("frame", bytes(frame) if isinstance(frame, (bytes, bytearray)) else b"")
            raise

    def _open(self, frame: bytes) -> SignedEnvelope | None:
        if not isinstance(frame, (bytes, bytearray)):
            raise LocalMisuse("not_bytes", "a frame is bytes")
        frame = bytes(frame)
        if frame[:1] != bytes([FRAME_ENVELOPE]):
            if _digest_in(primitives.sha256(frame), self._handshake_frames):
                return None
            if _digest_in(primitives.sha256(frame), self._own_frames):
                raise RemoteViolation("reflected", "our own handshake frame came back")
        if len(frame) > MAX_FRAME:
            raise RemoteViolation("bad_frame", "frame too large")
        if len(frame) < MIN_FRAME or frame[0] != FRAME_ENVELOPE:
            raise RemoteViolation("bad_frame", "not an envelope frame")
        header = frame[:HEADER_SIZE]
        seq = struct.unpack(">I", frame[1:HEADER_SIZE])[0]
        nonce, sealed = frame[HEADER_SIZE:HEADER_SIZE + NONCE_SIZE], frame[HEADER_SIZE + NONCE_SIZE:]
        plain = primitives.open_sealed(self._recv_keys[0], nonce, sealed, header)
        if plain is None:
            if primitives.open_sealed(self._send_keys[0], nonce, sealed, header) is not None:
                raise RemoteViolation("reflected", f"our own frame {seq} came back")
            raise RemoteViolation("aead_failure", f"frame {seq} does not authenticate")
        env = decode_envelope(plain[SIGNATURE_SIZE:], plain[:SIGNATURE_SIZE])
        evidence: dict[str, object] = {"envelope": env.raw, "signature": env.signature, "seq": env.seq}
        if env.seq != seq:
            raise RemoteViolation("bad_frame", "header and envelope disagree on seq", evidence)
        if not primitives.equal(nonce, frame_nonce(self._recv_keys[1], header, plain)):
            raise RemoteViolation("bad_frame", "the nonce is not the one the envelope gives", evidence)
        if env.version != self.version:
            raise RemoteViolation("unsupported_version", f"envelope version {env.version}", evidence)
        if env.session_id != self.wire_session_id:
            raise RemoteViolation("wrong_session", "envelope of another session", evidence)
        if env.sender != self.peer:
            raise RemoteViolation("wrong_sender", f"sender {env.sender} is not the peer", evidence)
        if seq < self.next_seq and envelope_digest(env.raw) == self._digest_at(seq):
            return None  # the very envelope we accepted already: harmless duplicate
        verify_envelope_or_raise(env, self.peer_key, evidence)
        if seq < self.next_seq:
            evidence["accepted_digest"] = self._digest_at(seq)
            earlier = self._peer_cache.get(seq)
            if earlier is not None:
                evidence["accepted_envelope"] = earlier.raw
                evidence["accepted_signature"] = earlier.signature
            if self._senders[seq] == self.peer:
                raise RemoteViolation("equivocation", f"a second envelope signed for seq {seq}", evidence)
            raise RemoteViolation("bad_seq", f"seq {seq} was ours", evidence)
        if seq > self.next_seq:
            raise RemoteViolation("bad_seq", f"expected seq {self.next_seq}, got {seq}", evidence)
        if env.prev != self.head:
            raise RemoteViolation("bad_prev", f"seq {seq} does not chain to our head", evidence)
        self._accept(env)
        self._peer_cache[seq] = env
        if len(self._peer_cache) > _PEER_CACHE:
            del self._peer_cache[next(iter(self._peer_cache))]   # the oldest: keys grow with seq
        return env

    def authenticates(self, frame: bytes) -> bool:
        """Whether ``frame`` could be the peer's: it repeats one of the peer's handshake frames, or
        it opens under the peer's direction key. Anyone on the path can send a frame that does
        not, so it proves nothing against the peer: the driver drops and counts it instead of
        failing the match (spec/protocol.md §12.2). No state changes."""
        frame = bytes(frame)
        if frame[:1] != bytes([FRAME_ENVELOPE]):
            return _digest_in(primitives.sha256(frame), self._handshake_frames)
        if not MIN_FRAME <= len(frame) <= MAX_FRAME:
            return False
        header = frame[:HEADER_SIZE]
        nonce, sealed = frame[HEADER_SIZE:HEADER_SIZE + NONCE_SIZE], frame[HEADER_SIZE + NONCE_SIZE:]
        return primitives.open_sealed(self._recv_keys[0], nonce, sealed, header) is not None

    def liveness_key(self) -> bytes:
        """The key of the link's liveness proofs (spec/protocol.md §12.2 item 4): HKDF-SHA256 of
        both direction secrets (seat 0's first), salted with the session id, so only the two
        seats of this session can answer a link challenge."""
        secrets = (self._send_key, self._recv_key) if self.seat == 0 else (self._recv_key, self._send_key)
        return liveness_key(self.session_id, *secrets)

    # -- helpers -------------------------------------------------------------------------------

    def own_handshake_frames(self, frames: Sequence[bytes]) -> None:
        """Record the handshake frames this side sent (called by the handshake when done)."""
        self._own_frames = b"".join(primitives.sha256(f) for f in frames)

    def _digest_at(self, seq: int) -> bytes:
        return bytes(self._digests[HASH_SIZE * seq:HASH_SIZE * (seq + 1)])

    def _accept(self, env: SignedEnvelope) -> None:
        digest = env.digest()
        self._digests += digest
        self._senders.append(env.sender)
        self.head = digest
        self.next_seq += 1

    def _check_usable(self) -> None:
        if self.failed is not None:
            raise LocalMisuse("channel_failed", f"the channel stopped after {self.failed}")

    def fail(self, reason: str) -> None:
        """Mark the channel failed (the game layer found a violation inside an envelope)."""
        self.failed = self.failed or reason

    # -- persistence ---------------------------------------------------------------------------

    def to_state(self) -> dict[str, object]:
        """Everything needed to resume after a crash, secrets included: keep it private (0600)."""
        return {
            "format": STATE_FORMAT, "version": self.version, "seat": self.seat,
            "identity": self.identity.private_bytes(), "peer_key": self.peer_key,
            "session_id": self.session_id, "handshake_hash": self.handshake_hash,
            "send_key": self._send_key, "recv_key": self._recv_key, "head": self.head,
            "next_seq": self.next_seq, "digests": bytes(self._digests), "senders": bytes(self._senders),
            "failed": self.failed, "handshake_frames": self._handshake_frames,
            "own_handshake_frames": self._own_frames, "names": list(self.names),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, object], identity: Identity | None = None) -> SecureChannel:
        """Rebuild a channel from ``to_state()``; ``LocalMisuse("bad_state")`` if it is damaged."""
        try:
            if state["format"] != STATE_FORMAT:
                raise LocalMisuse("bad_state", "unknown state format")
            ident = identity or Identity.from_private_bytes(cast(bytes, state["identity"]))
            if ident.private_bytes() != state["identity"]:
                raise LocalMisuse("bad_state", "the state belongs to another identity")
            channel = cls(
                seat=cast(int, state["seat"]), identity=ident, peer_key=cast(bytes, state["peer_key"]),
                session_id=cast(bytes, state["session_id"]),
                handshake_hash=cast(bytes, state["handshake_hash"]),
                send_key=cast(bytes, state["send_key"]), recv_key=cast(bytes, state["recv_key"]),
                version=cast(int, state["version"]), head=cast(bytes, state["head"]),
                next_seq=cast(int, state["next_seq"]), digests=cast(bytes, state["digests"]),
                senders=cast(bytes, state["senders"]),
                handshake_frames=cast(bytes, state.get("handshake_frames", b"")),
                own_frames=cast(bytes, state.get("own_handshake_frames", b"")),
                names=tuple(cast(list[str], state["names"])),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError, ValueError, RemoteViolation) as exc:
            raise LocalMisuse("bad_state", f"damaged channel state: {exc}") from None
        expected_head = (channel.handshake_hash if channel.next_seq == 0
                         else channel._digest_at(channel.next_seq - 1))
        if channel.head != expected_head:
            raise LocalMisuse("bad_state", "head does not match the history")
        failed = state.get("failed")
        channel.failed = failed if isinstance(failed, str) else None
        return channel


def _digest_in(digest: bytes, digests: bytes) -> bool:
    return any(digest == digests[i:i + HASH_SIZE] for i in range(0, len(digests), HASH_SIZE))


def verify_envelope_or_raise(env: SignedEnvelope, public_key: bytes, evidence: dict[str, object]) -> None:
    """``verify_envelope`` with the evidence attached to the error."""
    try:
        verify_envelope(env, public_key)
    except RemoteViolation as exc:
        raise RemoteViolation(exc.reason, exc.message, evidence) from None


__all__ = ["FRAME_OVERHEAD", "SESSION_ID_SIZE", "SecureChannel", "seal_frame"]

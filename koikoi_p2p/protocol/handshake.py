"""The session handshake, sans-I/O: frames in, frames out (spec/protocol.md §5).

Theory of operation. Seat 0 (the room's host) initiates; four frames:

    HELLO   0 -> 1   0x01 || version || mode || commit(e0) [|| SPAKE2 A message]
    REPLY   1 -> 0   0x02 || e1 [|| SPAKE2 B message]
    REVEAL  0 -> 1   0x03 || e0 || confirm MAC 0 || AEAD(identity key 0 || signature 0)
    CONFIRM 1 -> 0   0x04 || confirm MAC 1 || AEAD(identity key 1 || signature 1)

A Noise-style running hash absorbs a prologue (protocol version, room code, roles) and every
public handshake byte. Seat 0 commits to its ephemeral X25519 key before it sees seat 1's and
opens the commitment only afterwards, so a relay in the middle cannot grind the short
authentication string (as in Matrix SAS / ZRTP). The X25519 secret, and with a room password
the SPAKE2 key, feed HKDF-SHA256 salted with the hash: one AEAD key per direction, confirmation
MAC keys, keys for the encrypted identity blocks, and the SAS. Each side proves the keys with a
MAC and signs the hash with its identity key inside its identity block.

With a password a relay that substitutes keys fails the confirmation (``pake_failed``); without
one it can complete a handshake with each side, but the two screens show different SAS.
"""

from __future__ import annotations

import enum
import secrets
import struct
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from spake2 import SPAKE2_A, SPAKE2_B

from koikoi_p2p.protocol import codec, primitives
from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.identity import Identity, check_identity_key, verify_signature
from koikoi_p2p.protocol.sas import format_sas

Rng = Callable[[int], bytes]

VERSION = 1
PROTOCOL_NAME = b"koikoi-p2p/session/1"
LABEL = b"koikoi-p2p/1 "
MODE_SAS = 0
MODE_PASSWORD = 1
HELLO, REPLY, REVEAL, CONFIRM = 0x01, 0x02, 0x03, 0x04
KEY_SIZE = 32
SPAKE_SIZE = 33          # side byte || 32-byte group element
BLOCK_SIZE = 32 + 64 + primitives.AEAD_TAG
SAS_BYTES = 5
ZERO_NONCE = bytes(12)   # every identity-block key encrypts exactly one message
MAX_ROOM = 64


# -- the byte-level definitions of spec/protocol.md §5.3 ---------------------------------------

def initial_hash() -> bytes:
    return primitives.sha256(PROTOCOL_NAME)


def mix_hash(h: bytes, data: bytes) -> bytes:
    """h' = SHA-256(h || u32(len(data)) || data)."""
    return primitives.sha256(h, struct.pack(">I", len(data)), data)


def prologue(version: int, room: str) -> bytes:
    return codec.encode({"protocol": "koikoi-p2p", "version": version, "room": room,
                         "initiator": 0, "responder": 1})


def commitment(e0_public: bytes) -> bytes:
    return primitives.sha256(LABEL + b"commit", e0_public)


def derive(ikm: bytes, h_k: bytes, label: str, length: int = KEY_SIZE) -> bytes:
    """K(label) = HKDF-SHA256(ikm, salt = h_k, info = "koikoi-p2p/1 " || label)."""
    return primitives.hkdf_sha256(ikm, salt=h_k, info=LABEL + label.encode("ascii"), length=length)


def signed_statement(seat: int, h_k: bytes) -> bytes:
    """What each identity key signs: "koikoi-p2p/1 handshake" || seat || h_k."""
    return LABEL + b"handshake" + bytes([seat]) + h_k


def final_hashes(h_k: bytes, key0: bytes, key1: bytes) -> tuple[bytes, bytes]:
    """(handshake hash, 32-byte session id)."""
    handshake_hash = mix_hash(mix_hash(h_k, key0), key1)
    return handshake_hash, primitives.sha256(LABEL + b"session id", handshake_hash)


def spake_ids(version: int, room: str) -> tuple[bytes, bytes]:
    """SPAKE2 identities binding the version, the room and the two roles."""
    base = f"koikoi-p2p/{version} room={room} seat=".encode()
    return base + b"0", base + b"1"


def normalise_password(password: str) -> bytes:
    return unicodedata.normalize("NFC", password).encode("utf-8")


def _x25519_public(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _x25519(key: X25519PrivateKey, peer: bytes) -> bytes:
    try:
        shared = key.exchange(X25519PublicKey.from_public_bytes(peer))
    except ValueError:  # a low-order point gives the all-zero secret, which cryptography refuses
        raise RemoteViolation("bad_key", "ephemeral key of low order") from None
    if shared == bytes(32):
        raise RemoteViolation("bad_key", "ephemeral key of low order")
    return shared


# -- results -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandshakeResult:
    session_id: bytes
    handshake_hash: bytes
    peer_key: bytes
    sas: str | None
    record: dict[str, object]
    channel: SecureChannel


@dataclass(frozen=True, slots=True)
class VerifiedHandshake:
    """What a third party learns from a handshake record (spec/protocol.md §5.6)."""

    version: int
    room: str
    mode: int
    keys: tuple[bytes, bytes]
    handshake_hash: bytes
    session_id: bytes


class State(enum.Enum):
    START = "start"
    AWAITING_HELLO = "awaiting_hello"
    AWAITING_REPLY = "awaiting_reply"
    AWAITING_REVEAL = "awaiting_reveal"
    AWAITING_CONFIRM = "awaiting_confirm"
    DONE = "done"
    FAILED = "failed"


# The whole state machine: (seat, state, frame kind) -> next state; the handler is named after
# the frame kind. Anything else in a waiting state is an "unexpected_message".
TRANSITIONS: dict[tuple[int, State, int], State] = {
    (1, State.AWAITING_HELLO, HELLO): State.AWAITING_REVEAL,     # 1 sends REPLY
    (0, State.AWAITING_REPLY, REPLY): State.AWAITING_CONFIRM,    # 0 sends REVEAL
    (1, State.AWAITING_REVEAL, REVEAL): State.DONE,              # 1 sends CONFIRM
    (0, State.AWAITING_CONFIRM, CONFIRM): State.DONE,
}
START_STATES = {0: State.AWAITING_REPLY, 1: State.AWAITING_HELLO}   # after start(); 0 sends HELLO


class Handshake:
    """One side of the handshake. ``start()`` then ``receive()`` each frame from the peer."""

    def __init__(self, *, seat: int, identity: Identity, room: str, password: str | None,
                 version: int = VERSION, rng: Rng | None = None) -> None:
        if seat not in (0, 1) or isinstance(seat, bool):
            raise LocalMisuse("bad_seat", "seat is 0 or 1")
        if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
            raise LocalMisuse("bad_room", f"a room code is 1..{MAX_ROOM} characters")
        if version != VERSION:
            raise LocalMisuse("unsupported_version", f"this implementation speaks version {VERSION}")
        if password is not None and (not isinstance(password, str) or not password):
            raise LocalMisuse("bad_password", "a password is a non-empty string (or None)")
        self.seat = seat
        self.identity = identity
        self.room = room
        self.version = version
        self.mode = MODE_SAS if password is None else MODE_PASSWORD
        self._rng: Rng = rng or secrets.token_bytes
        self._ephemeral = X25519PrivateKey.from_private_bytes(self._rng(32))
        self._e_public = _x25519_public(self._ephemeral)
        self._spake: SPAKE2_A | SPAKE2_B | None = None
        if password is not None:
            id_a, id_b = spake_ids(version, room)
            kind = SPAKE2_A if seat == 0 else SPAKE2_B
            self._spake = kind(normalise_password(password), idA=id_a, idB=id_b, entropy_f=self._rng)
        self._hash = mix_hash(initial_hash(), prologue(version, room))
        self._record: dict[str, object] = {"version": version, "room": room}
        self._ikm = b""                 # X25519 secret (|| SPAKE2 key): dropped when done
        self._h_k = b""
        self._signature = b""           # my identity signature over h_k
        self._peer_commit = b""         # seat 1: seat 0's commitment C
        self._peer_spake = b""          # seat 1: seat 0's SPAKE2 message
        self._peer_e = b""              # the peer's ephemeral X25519 public key
        self.state = State.START
        self.sent_bytes = 0
        self.received_bytes = 0
        self._result: HandshakeResult | None = None
        self._received: list[bytes] = []
        self._sent_frames: list[bytes] = []

    @property
    def done(self) -> bool:
        return self.state is State.DONE

    @property
    def result(self) -> HandshakeResult:
        if self._result is None:
            raise LocalMisuse("not_done", "the handshake has not finished")
        return self._result

    # -- driving -------------------------------------------------------------------------------

    def start(self) -> list[bytes]:
        if self.state is not State.START:
            raise LocalMisuse("already_started", "start() is called once")
        self.state = START_STATES[self.seat]
        if self.seat == 1:
            return []
        hello = bytes([HELLO, self.version, self.mode]) + commitment(self._e_public)
        if self._spake is not None:
            hello += self._spake.start()
        self._hash = mix_hash(self._hash, hello)
        self._record["hello"] = hello
        return self._sent([hello])

    def receive(self, frame: bytes) -> list[bytes]:
        """Feed one frame from the peer; returns the frames to send. Raises ``RemoteViolation``."""
        if self.state in (State.START, State.DONE, State.FAILED):
            raise LocalMisuse("wrong_state", f"receive() in state {self.state.value}")
        if not isinstance(frame, (bytes, bytearray)):
            raise LocalMisuse("not_bytes", "a frame is bytes")
        frame = bytes(frame)
        self.received_bytes += len(frame)
        if frame in self._received:
            return []  # the relay repeated a frame we already processed: harmless (§5.2)
        if frame in self._sent_frames:
            self.state = State.FAILED
            raise RemoteViolation("reflected", "our own handshake frame came back",
                                  {"frame": frame, "stage": "handshake"})
        try:
            kind = frame[0] if frame else -1
            following = TRANSITIONS.get((self.seat, self.state, kind))
            if following is None:
                raise RemoteViolation("unexpected_message", f"frame kind {kind} in state {self.state.value}")
            handler = {HELLO: self._on_hello, REPLY: self._on_reply, REVEAL: self._on_reveal,
                       CONFIRM: self._on_confirm}[kind]
            out = handler(frame)
            self._received.append(frame)
            self.state = following
            sent = self._sent(out)
            if self._result is not None:   # done: the channel also knows our own frames
                self._result.channel.own_handshake_frames(self._sent_frames)
            return sent
        except RemoteViolation as exc:
            self.state = State.FAILED
            exc.evidence.setdefault("frame", frame)
            exc.evidence.setdefault("stage", "handshake")
            raise

    def _sent(self, frames: list[bytes]) -> list[bytes]:
        self.sent_bytes += sum(len(f) for f in frames)
        self._sent_frames.extend(frames)
        return frames

    # -- handlers ------------------------------------------------------------------------------

    def _on_hello(self, frame: bytes) -> list[bytes]:
        if len(frame) < 3:
            raise RemoteViolation("bad_frame", "HELLO too short")
        if frame[1] != self.version:
            raise RemoteViolation("unsupported_version", f"peer speaks version {frame[1]}")
        if frame[2] != self.mode:
            raise RemoteViolation("mode_mismatch", "one side has a room password and the other not")
        if len(frame) != 3 + 32 + (SPAKE_SIZE if self._spake is not None else 0):
            raise RemoteViolation("bad_frame", "HELLO has the wrong length")
        self._peer_commit = frame[3:35]
        self._peer_spake = frame[35:]
        self._hash = mix_hash(self._hash, frame)
        self._record["hello"] = frame
        reply = bytes([REPLY]) + self._e_public
        if self._spake is not None:
            reply += self._spake.start()
        self._hash = mix_hash(self._hash, reply)
        self._record["reply"] = reply
        return [reply]

    def _on_reply(self, frame: bytes) -> list[bytes]:
        if len(frame) != 1 + 32 + (SPAKE_SIZE if self._spake is not None else 0):
            raise RemoteViolation("bad_frame", "REPLY has the wrong length")
        self._hash = mix_hash(self._hash, frame)
        self._record["reply"] = frame
        self._peer_e = frame[1:33]
        self._key_schedule(self._e_public, frame[33:])
        reveal = bytes([REVEAL]) + self._e_public + self._confirmation(0) + self._identity_block(0)
        return [reveal]

    def _on_reveal(self, frame: bytes) -> list[bytes]:
        if len(frame) != 1 + 32 + 32 + BLOCK_SIZE:
            raise RemoteViolation("bad_frame", "REVEAL has the wrong length")
        e0 = frame[1:33]
        if not primitives.equal(commitment(e0), self._peer_commit):
            raise RemoteViolation("bad_commitment", "the revealed key does not match its commitment")
        self._peer_e = e0
        self._key_schedule(e0, self._peer_spake)
        self._check_peer(0, frame[33:65], frame[65:], frame)
        confirm = bytes([CONFIRM]) + self._confirmation(1) + self._identity_block(1)
        self._ikm = b""  # no longer needed: forget the secret
        return [confirm]

    def _on_confirm(self, frame: bytes) -> list[bytes]:
        if len(frame) != 1 + 32 + BLOCK_SIZE:
            raise RemoteViolation("bad_frame", "CONFIRM has the wrong length")
        self._check_peer(1, frame[1:33], frame[33:], frame)
        self._ikm = b""
        return []

    # -- key schedule --------------------------------------------------------------------------

    def _key_schedule(self, e0_public: bytes, peer_spake: bytes) -> None:
        """Absorb e0 into the hash and derive the input keying material (§5.4)."""
        self._h_k = mix_hash(self._hash, e0_public)
        self._record["reveal"] = e0_public
        ikm = _x25519(self._ephemeral, self._peer_e)
        if self._spake is not None:
            try:
                ikm += cast(bytes, self._spake.finish(peer_spake))
            except Exception:  # the spake2 package raises ValueError or its own SPAKEError
                raise RemoteViolation("bad_key", "the SPAKE2 message is not a valid element") from None
        self._ikm = ikm
        self._signature = self.identity.sign(signed_statement(self.seat, self._h_k))

    def _confirmation(self, seat: int) -> bytes:
        return primitives.hmac_sha256(derive(self._ikm, self._h_k, f"confirm {seat}"), self._h_k)

    def _identity_block(self, seat: int) -> bytes:
        key = derive(self._ikm, self._h_k, f"identity {seat}")
        return primitives.seal(key, ZERO_NONCE, self.identity.public_key + self._signature, self._h_k)

    def _check_peer(self, peer: int, mac: bytes, block: bytes, frame: bytes) -> None:
        if not primitives.equal(mac, self._confirmation(peer)):
            if self.mode == MODE_PASSWORD:
                raise RemoteViolation("pake_failed", "key confirmation failed: wrong password or a "
                                      "relay in the middle")
            raise RemoteViolation("key_confirmation_failed", "the peer derived other keys")
        plain = primitives.open_sealed(derive(self._ikm, self._h_k, f"identity {peer}"), ZERO_NONCE,
                                       block, self._h_k)
        if plain is None:
            raise RemoteViolation("key_confirmation_failed", "the identity block does not open")
        peer_key, peer_signature = plain[:32], plain[32:]
        check_identity_key(peer_key)
        verify_signature(peer_key, peer_signature, signed_statement(peer, self._h_k))
        mine = self.identity.public_key
        keys = (mine, peer_key) if self.seat == 0 else (peer_key, mine)
        signatures = ((self._signature, peer_signature) if self.seat == 0
                      else (peer_signature, self._signature))
        handshake_hash, session_id = final_hashes(self._h_k, *keys)
        sas = None
        if self.mode == MODE_SAS:
            sas = format_sas(derive(self._ikm, self._h_k, "sas", SAS_BYTES))
        self._record["keys"] = list(keys)
        self._record["signatures"] = list(signatures)
        received = [*self._received, frame]
        channel = SecureChannel(
            seat=self.seat, identity=self.identity, peer_key=peer_key, session_id=session_id,
            handshake_hash=handshake_hash, send_key=derive(self._ikm, self._h_k, f"send {self.seat}"),
            recv_key=derive(self._ikm, self._h_k, f"send {peer}"), version=self.version,
            handshake_frames=b"".join(primitives.sha256(f) for f in received),
        )
        self._result = HandshakeResult(session_id=session_id, handshake_hash=handshake_hash,
                                       peer_key=peer_key, sas=sas, record=dict(self._record),
                                       channel=channel)


RECORD_FIELDS = frozenset({"version", "room", "hello", "reply", "reveal", "keys", "signatures"})


def verify_handshake_record(record: Mapping[str, object]) -> VerifiedHandshake:
    """Recompute the hashes of a public handshake record and check both identity signatures.

    This proves both identity keys signed this session's hash (and so agreed to the version and
    room); it cannot check the key confirmation, which needs the ephemeral secrets. Raises
    ``RemoteViolation("bad_handshake_record")`` or ``("bad_signature")``.
    """
    def bad(why: str) -> RemoteViolation:
        return RemoteViolation("bad_handshake_record", why)

    if not isinstance(record, Mapping) or set(record) != RECORD_FIELDS:
        raise bad("a handshake record has exactly the fields " + ", ".join(sorted(RECORD_FIELDS)))
    version, room = record["version"], record["room"]
    hello, reply, e0 = record["hello"], record["reply"], record["reveal"]
    keys, signatures = record["keys"], record["signatures"]
    if version != VERSION or isinstance(version, bool):
        raise bad(f"unsupported version {version!r}")
    if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
        raise bad("bad room code")
    if not (isinstance(hello, bytes) and isinstance(reply, bytes) and isinstance(e0, bytes)):
        raise bad("hello, reply and reveal are bytes")
    if (len(hello) < 3 or hello[0] != HELLO or hello[1] != version
            or hello[2] not in (MODE_SAS, MODE_PASSWORD)):
        raise bad("bad HELLO")
    extra = SPAKE_SIZE if hello[2] == MODE_PASSWORD else 0
    if len(hello) != 35 + extra or len(reply) != 33 + extra or reply[0] != REPLY or len(e0) != 32:
        raise bad("bad HELLO, REPLY or reveal length")
    if not primitives.equal(commitment(e0), hello[3:35]):
        raise bad("the revealed key does not match its commitment")
    if not (isinstance(keys, list) and isinstance(signatures, list)
            and len(keys) == 2 and len(signatures) == 2
            and all(isinstance(k, bytes) for k in keys) and all(isinstance(s, bytes) for s in signatures)):
        raise bad("keys and signatures are two byte strings each")
    h = mix_hash(initial_hash(), prologue(version, room))
    h_k = mix_hash(mix_hash(mix_hash(h, hello), reply), e0)
    key0, key1 = cast(list[bytes], keys)
    for key in (key0, key1):
        check_identity_key(key)
    for seat in (0, 1):
        verify_signature(cast(bytes, keys[seat]), cast(bytes, signatures[seat]), signed_statement(seat, h_k))
    handshake_hash, session_id = final_hashes(h_k, key0, key1)
    return VerifiedHandshake(version=version, room=room, mode=hello[2], keys=(key0, key1),
                             handshake_hash=handshake_hash, session_id=session_id)


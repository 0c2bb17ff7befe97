"""The session handshake, sans-I/O: frames in, frames out (spec/protocol.md §5).

Theory of operation. Seat 0 (the room's host) initiates; five frames, four flights:

    HELLO   0 -> 1   0x01 || version || mode || commit(e0) [|| SPAKE2 A message]
    REPLY   1 -> 0   0x02 || e1 [|| SPAKE2 B message]
    REVEAL  0 -> 1   0x03 || e0 || confirm MAC 0 || AEAD(identity key 0 || name 0)
    CONFIRM 1 -> 0   0x04 || confirm MAC 1 || AEAD(identity key 1 || name 1 || signature 1)
    SIGN    0 -> 1   0x05 || AEAD(signature 0)         (sent with seat 0's first envelope)

A Noise-style running hash absorbs a prologue (protocol version, room code, roles) and every
public handshake byte, then both identity keys and both display names: the handshake hash. Each
identity signs that hash, so a signature names the whole handshake, both seats, both keys and
both names, and cannot be paired with another partner's key. Seat 0 reveals its identity before
it knows seat 1's, so it signs last, in a fifth frame that travels with the match terms and costs
no round trip. Seat 0 commits to its ephemeral X25519 key before it sees seat 1's and opens the
commitment only afterwards, so a relay in the middle cannot grind the short authentication
string (as in Matrix SAS / ZRTP). The X25519 secret, and with a room password the SPAKE2 key,
feed HKDF-SHA256: one channel secret per direction, confirmation MAC keys, keys for the
encrypted identity blocks and the signature, and the SAS.

With a password a relay that substitutes keys fails the confirmation (``pake_failed``); without
one it can complete a handshake with each side, but the two screens show different SAS. The
ephemeral secrets are hedged (spec/protocol.md §5.7): a PRF of the peer's secret seed and
everything the handshake has seen, so a restored peer shown another HELLO draws other keys.
"""

from __future__ import annotations

import enum
import hmac
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
from koikoi_p2p.protocol.identity import (
    MAX_NAME_BYTES,
    SIGNATURE_SIZE,
    Identity,
    check_identity_key,
    check_name,
    normalise_name,
    verify_signature,
)
from koikoi_p2p.protocol.sas import format_sas

Rng = Callable[[int], bytes]

VERSION = 2
PROTOCOL_NAME = b"koikoi-p2p/session/2"
LABEL = b"koikoi-p2p/2 "
MODE_SAS = 0
MODE_PASSWORD = 1
HELLO, REPLY, REVEAL, CONFIRM, SIGN = 0x01, 0x02, 0x03, 0x04, 0x05
KEY_SIZE = 32
SEED_SIZE = 32
SPAKE_SIZE = 33          # side byte || 32-byte group element
SAS_BYTES = 5
ZERO_NONCE = bytes(12)   # every identity-block and signature key encrypts exactly one message
MAX_ROOM = 64
HELLO_SIZE = 3 + 32      # + SPAKE_SIZE with a password
REPLY_SIZE = 1 + 32      # + SPAKE_SIZE with a password
# An identity block's plaintext: key (32) || u8(len(name)) || name (0..128 bytes of UTF-8) [|| sig].
MIN_BLOCK = 32 + 1 + primitives.AEAD_TAG
REVEAL_MIN = 1 + 32 + 32 + MIN_BLOCK
CONFIRM_MIN = 1 + 32 + MIN_BLOCK + SIGNATURE_SIZE
SIGN_SIZE = 1 + SIGNATURE_SIZE + primitives.AEAD_TAG


# -- the byte-level definitions of spec/protocol.md §5.3 to §5.7 ---------------------------------

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


def derive(ikm: bytes, salt: bytes, label: str, length: int = KEY_SIZE) -> bytes:
    """K(salt, label) = HKDF-SHA256(ikm, salt, info = "koikoi-p2p/2 " || label)."""
    return primitives.hkdf_sha256(ikm, salt=salt, info=LABEL + label.encode("ascii"), length=length)


def identity_hash(h_k: bytes, key0: bytes, name0: str) -> bytes:
    """h_a: the hash after seat 0's identity, mix(mix(h_k, key 0), name 0)."""
    return mix_hash(mix_hash(h_k, key0), name0.encode("utf-8"))


def final_hashes(h_a: bytes, key1: bytes, name1: str) -> tuple[bytes, bytes]:
    """(handshake hash, 32-byte session id) once seat 1's identity is mixed in."""
    handshake_hash = mix_hash(mix_hash(h_a, key1), name1.encode("utf-8"))
    return handshake_hash, session_id_of(handshake_hash)


def session_id_of(handshake_hash: bytes) -> bytes:
    return primitives.sha256(LABEL + b"session id", handshake_hash)


def signed_statement(seat: int, handshake_hash: bytes) -> bytes:
    """What each identity key signs: "koikoi-p2p/2 handshake" || seat || handshake hash. The hash
    commits to the prologue, every public handshake byte, both identity keys and both names."""
    return LABEL + b"handshake" + bytes([seat]) + handshake_hash


def spake_ids(version: int, room: str) -> tuple[bytes, bytes]:
    """SPAKE2 identities binding the version, the room and the two roles."""
    base = f"koikoi-p2p/{version} room={room} seat=".encode()
    return base + b"0", base + b"1"


def normalise_password(password: str) -> bytes:
    return unicodedata.normalize("NFC", password).encode("utf-8")


def identity_plaintext(key: bytes, name: str) -> bytes:
    """key || u8(len(name)) || name, the name as UTF-8."""
    raw = name.encode("utf-8")
    return key + bytes([len(raw)]) + raw


def parse_identity(plain: bytes, tail: int) -> tuple[bytes, str, bytes]:
    """(key, name, the ``tail`` bytes after the name) of an opened identity block, else bad_frame."""
    if len(plain) < 33 + tail or len(plain) != 33 + plain[32] + tail or plain[32] > MAX_NAME_BYTES:
        raise RemoteViolation("bad_frame", "the identity block has the wrong layout")
    key, raw = plain[:32], plain[33:33 + plain[32]]
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RemoteViolation("bad_name", "the display name is not UTF-8") from None
    check_identity_key(key)
    return key, check_name(name), plain[33 + plain[32]:]


def hedge_stream(seed: bytes, seat: int, h: bytes, identity_key: bytes, name: str,
                 password: bytes) -> Rng:
    """The handshake's randomness (§5.7): HMAC-SHA256 keyed by the secret seed over what the side
    has seen, then HMAC(k, u64(0)) || HMAC(k, u64(1)) || ... as one byte stream."""
    seen = mix_hash(mix_hash(mix_hash(h, identity_key), name.encode("utf-8")), password)
    key = hmac.new(seed, LABEL + b"hedge" + bytes([seat]) + seen, "sha256").digest()
    state = {"block": 0, "buffer": b""}

    def draw(n: int) -> bytes:
        buffer = cast(bytes, state["buffer"])
        while len(buffer) < n:
            block = cast(int, state["block"])
            buffer += hmac.new(key, block.to_bytes(8, "big"), "sha256").digest()
            state["block"] = block + 1
        state["buffer"] = buffer[n:]
        return buffer[:n]

    return draw


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


def _check_spake_message(message: bytes, side: bytes) -> None:
    """The peer's SPAKE2 message is its side byte and a canonical point of the prime-order
    subgroup, not of small order: libsodium's rule (spec/crypto.md §2.2), stricter than the
    package's own decoder, which takes some non-canonical encodings."""
    from mentalpoker.errors import MentalPokerError
    from mentalpoker.group import Point

    if message[:1] != side:
        raise RemoteViolation("bad_key", "the SPAKE2 message is from the wrong side")
    try:
        Point.from_bytes(message[1:])
    except MentalPokerError:
        raise RemoteViolation("bad_key", "the SPAKE2 message is not a valid element") from None


# -- results -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandshakeResult:
    session_id: bytes
    handshake_hash: bytes
    peer_key: bytes
    sas: str | None
    record: dict[str, object]
    channel: SecureChannel
    names: tuple[str, str] = ("", "")


@dataclass(frozen=True, slots=True)
class VerifiedHandshake:
    """What a third party learns from a handshake record (spec/protocol.md §5.6)."""

    version: int
    room: str
    mode: int
    keys: tuple[bytes, bytes]
    handshake_hash: bytes
    session_id: bytes
    names: tuple[str, str] = ("", "")


class State(enum.Enum):
    START = "start"
    AWAITING_HELLO = "awaiting_hello"
    AWAITING_REPLY = "awaiting_reply"
    AWAITING_REVEAL = "awaiting_reveal"
    AWAITING_CONFIRM = "awaiting_confirm"
    AWAITING_SIGN = "awaiting_sign"
    DONE = "done"
    FAILED = "failed"


# The whole state machine: (seat, state, frame kind) -> next state; the handler is named after
# the frame kind. Anything else in a waiting state is an "unexpected_message".
TRANSITIONS: dict[tuple[int, State, int], State] = {
    (1, State.AWAITING_HELLO, HELLO): State.AWAITING_REVEAL,     # 1 sends REPLY
    (0, State.AWAITING_REPLY, REPLY): State.AWAITING_CONFIRM,    # 0 sends REVEAL
    (1, State.AWAITING_REVEAL, REVEAL): State.AWAITING_SIGN,     # 1 sends CONFIRM
    (0, State.AWAITING_CONFIRM, CONFIRM): State.DONE,            # 0 sends SIGN
    (1, State.AWAITING_SIGN, SIGN): State.DONE,
}
START_STATES = {0: State.AWAITING_REPLY, 1: State.AWAITING_HELLO}   # after start(); 0 sends HELLO


class Handshake:
    """One side of the handshake. ``start()`` then ``receive()`` each frame from the peer.

    ``name`` is this side's display name (spec/protocol.md §5.1), carried in its identity block
    and covered by its signature. ``seed`` is the 32-byte secret every random value of the
    handshake derives from (§5.7); without it the seed is drawn once from ``rng`` (default the
    operating system), so a caller that replays the same rng replays the same handshake."""

    def __init__(self, *, seat: int, identity: Identity, room: str, password: str | None,
                 version: int = VERSION, rng: Rng | None = None, name: str = "",
                 seed: bytes | None = None) -> None:
        if seat not in (0, 1) or isinstance(seat, bool):
            raise LocalMisuse("bad_seat", "seat is 0 or 1")
        if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
            raise LocalMisuse("bad_room", f"a room code is 1..{MAX_ROOM} characters")
        if version != VERSION:
            raise LocalMisuse("unsupported_version", f"this implementation speaks version {VERSION}")
        if password is not None and (not isinstance(password, str) or not password):
            raise LocalMisuse("bad_password", "a password is a non-empty string (or None)")
        if seed is None:
            seed = (rng or secrets.token_bytes)(SEED_SIZE)
        if not isinstance(seed, bytes) or len(seed) != SEED_SIZE:
            raise LocalMisuse("bad_seed", f"a handshake seed is {SEED_SIZE} bytes")
        self.seat = seat
        self.identity = identity
        self.room = room
        self.version = version
        self.name = normalise_name(name)
        self.mode = MODE_SAS if password is None else MODE_PASSWORD
        self._seed = seed
        self._password = b"" if password is None else normalise_password(password)
        self._ephemeral: X25519PrivateKey | None = None
        self._e_public = b""
        self._spake: SPAKE2_A | SPAKE2_B | None = None
        self._hash = mix_hash(initial_hash(), prologue(version, room))
        self._record: dict[str, object] = {"version": version, "room": room}
        self._ikm = b""                 # X25519 secret (|| SPAKE2 key): dropped when done
        self._h_k = b""
        self._h_a = b""                 # after seat 0's identity
        self._handshake_hash = b""
        self._peer_commit = b""         # seat 1: seat 0's commitment C
        self._peer_spake = b""          # seat 1: seat 0's SPAKE2 message
        self._peer_e = b""              # the peer's ephemeral X25519 public key
        self._peer_key = b""
        self._peer_name = ""
        self._peer_signature = b""
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
        self._draw_ephemerals()
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
                       CONFIRM: self._on_confirm, SIGN: self._on_sign}[kind]
            out = handler(frame)
            self._received.append(frame)
            self.state = following
            sent = self._sent(out)
            if following is State.DONE:
                self._finish()
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

    # -- randomness ----------------------------------------------------------------------------

    def _draw_ephemerals(self) -> None:
        """X25519 secret, then the SPAKE2 scalar, from the hedge of everything seen so far (§5.7):
        the prologue for seat 0, the prologue and the HELLO for seat 1."""
        draw = hedge_stream(self._seed, self.seat, self._hash, self.identity.public_key, self.name,
                            self._password)
        self._ephemeral = X25519PrivateKey.from_private_bytes(draw(32))
        self._e_public = _x25519_public(self._ephemeral)
        if self.mode == MODE_PASSWORD:
            id_a, id_b = spake_ids(self.version, self.room)
            kind = SPAKE2_A if self.seat == 0 else SPAKE2_B
            self._spake = kind(self._password, idA=id_a, idB=id_b, entropy_f=draw)

    # -- handlers ------------------------------------------------------------------------------

    def _on_hello(self, frame: bytes) -> list[bytes]:
        if len(frame) < 3:
            raise RemoteViolation("bad_frame", "HELLO too short")
        if frame[1] != self.version:
            raise RemoteViolation("unsupported_version", f"peer speaks version {frame[1]}")
        if frame[2] != self.mode:
            raise RemoteViolation("mode_mismatch", "one side has a room password and the other not")
        if len(frame) != HELLO_SIZE + (SPAKE_SIZE if self.mode == MODE_PASSWORD else 0):
            raise RemoteViolation("bad_frame", "HELLO has the wrong length")
        self._peer_commit = frame[3:35]
        self._peer_spake = frame[35:]
        if self.mode == MODE_PASSWORD:
            _check_spake_message(self._peer_spake, b"A")
        self._hash = mix_hash(self._hash, frame)
        self._record["hello"] = frame
        self._draw_ephemerals()
        reply = bytes([REPLY]) + self._e_public
        if self._spake is not None:
            reply += self._spake.start()
        self._hash = mix_hash(self._hash, reply)
        self._record["reply"] = reply
        return [reply]

    def _on_reply(self, frame: bytes) -> list[bytes]:
        if len(frame) != REPLY_SIZE + (SPAKE_SIZE if self.mode == MODE_PASSWORD else 0):
            raise RemoteViolation("bad_frame", "REPLY has the wrong length")
        if self.mode == MODE_PASSWORD:
            _check_spake_message(frame[33:], b"B")
        self._hash = mix_hash(self._hash, frame)
        self._record["reply"] = frame
        self._peer_e = frame[1:33]
        self._key_schedule(self._e_public, frame[33:])
        block = primitives.seal(derive(self._ikm, self._h_k, "identity 0"), ZERO_NONCE,
                                identity_plaintext(self.identity.public_key, self.name), self._h_k)
        self._h_a = identity_hash(self._h_k, self.identity.public_key, self.name)
        reveal = bytes([REVEAL]) + self._e_public + self._confirmation(0) + block
        return [reveal]

    def _on_reveal(self, frame: bytes) -> list[bytes]:
        if not REVEAL_MIN <= len(frame) <= REVEAL_MIN + MAX_NAME_BYTES:
            raise RemoteViolation("bad_frame", "REVEAL has the wrong length")
        e0 = frame[1:33]
        if not primitives.equal(commitment(e0), self._peer_commit):
            raise RemoteViolation("bad_commitment", "the revealed key does not match its commitment")
        self._peer_e = e0
        self._key_schedule(e0, self._peer_spake)
        self._check_confirmation(0, frame[33:65])
        plain = primitives.open_sealed(derive(self._ikm, self._h_k, "identity 0"), ZERO_NONCE,
                                       frame[65:], self._h_k)
        if plain is None:
            raise RemoteViolation("key_confirmation_failed", "the identity block does not open")
        key0, name0, _ = parse_identity(plain, 0)
        self._peer_identity(key0, name0)
        self._h_a = identity_hash(self._h_k, key0, name0)
        self._handshake_hash, _ = final_hashes(self._h_a, self.identity.public_key, self.name)
        signature = self.identity.sign(signed_statement(1, self._handshake_hash))
        self._record_identities(signature, b"")
        block = primitives.seal(derive(self._ikm, self._h_a, "identity 1"), ZERO_NONCE,
                                identity_plaintext(self.identity.public_key, self.name) + signature,
                                self._h_a)
        return [bytes([CONFIRM]) + self._confirmation(1) + block]

    def _on_confirm(self, frame: bytes) -> list[bytes]:
        if not CONFIRM_MIN <= len(frame) <= CONFIRM_MIN + MAX_NAME_BYTES:
            raise RemoteViolation("bad_frame", "CONFIRM has the wrong length")
        self._check_confirmation(1, frame[1:33])
        plain = primitives.open_sealed(derive(self._ikm, self._h_a, "identity 1"), ZERO_NONCE,
                                       frame[33:], self._h_a)
        if plain is None:
            raise RemoteViolation("key_confirmation_failed", "the identity block does not open")
        key1, name1, signature1 = parse_identity(plain, SIGNATURE_SIZE)
        self._peer_identity(key1, name1)
        self._handshake_hash, _ = final_hashes(self._h_a, key1, name1)
        verify_signature(key1, signature1, signed_statement(1, self._handshake_hash))
        signature0 = self.identity.sign(signed_statement(0, self._handshake_hash))
        self._record_identities(signature0, signature1)
        sealed = primitives.seal(derive(self._ikm, self._handshake_hash, "signature 0"), ZERO_NONCE,
                                 signature0, self._handshake_hash)
        return [bytes([SIGN]) + sealed]

    def _on_sign(self, frame: bytes) -> list[bytes]:
        if len(frame) != SIGN_SIZE:
            raise RemoteViolation("bad_frame", "SIGN has the wrong length")
        signature0 = primitives.open_sealed(derive(self._ikm, self._handshake_hash, "signature 0"),
                                            ZERO_NONCE, frame[1:], self._handshake_hash)
        if signature0 is None:
            raise RemoteViolation("key_confirmation_failed", "the signature block does not open")
        verify_signature(self._peer_key, signature0, signed_statement(0, self._handshake_hash))
        signatures = cast(list[bytes], self._record["signatures"])
        self._record["signatures"] = [signature0, signatures[1]]
        return []

    # -- key schedule --------------------------------------------------------------------------

    def _key_schedule(self, e0_public: bytes, peer_spake: bytes) -> None:
        """Absorb e0 into the hash and derive the input keying material (§5.4)."""
        assert self._ephemeral is not None
        self._h_k = mix_hash(self._hash, e0_public)
        self._record["reveal"] = e0_public
        ikm = _x25519(self._ephemeral, self._peer_e)
        if self._spake is not None:
            try:
                ikm += cast(bytes, self._spake.finish(peer_spake))
            except Exception:  # the spake2 package raises ValueError or its own SPAKEError
                raise RemoteViolation("bad_key", "the SPAKE2 message is not a valid element") from None
        self._ikm = ikm

    def _confirmation(self, seat: int) -> bytes:
        return primitives.hmac_sha256(derive(self._ikm, self._h_k, f"confirm {seat}"), self._h_k)

    def _check_confirmation(self, peer: int, mac: bytes) -> None:
        if not primitives.equal(mac, self._confirmation(peer)):
            if self.mode == MODE_PASSWORD:
                raise RemoteViolation("pake_failed", "key confirmation failed: wrong password or a "
                                      "relay in the middle")
            raise RemoteViolation("key_confirmation_failed", "the peer derived other keys")

    def _peer_identity(self, key: bytes, name: str) -> None:
        if key == self.identity.public_key:
            raise RemoteViolation("bad_key", "both seats have the same identity key")
        self._peer_key, self._peer_name = key, name

    def _record_identities(self, mine: bytes, theirs: bytes) -> None:
        keys = ((self.identity.public_key, self._peer_key) if self.seat == 0
                else (self._peer_key, self.identity.public_key))
        names = (self.name, self._peer_name) if self.seat == 0 else (self._peer_name, self.name)
        self._record["keys"] = list(keys)
        self._record["names"] = list(names)
        self._record["signatures"] = [mine, theirs] if self.seat == 0 else [theirs, mine]

    def _finish(self) -> None:
        """Both identities are in and signed: the channel, the SAS, the public record."""
        handshake_hash = self._handshake_hash
        session_id = session_id_of(handshake_hash)
        peer = 1 - self.seat
        names = cast(list[str], self._record["names"])
        sas = None
        if self.mode == MODE_SAS:
            sas = format_sas(derive(self._ikm, self._h_k, "sas", SAS_BYTES))
        channel = SecureChannel(
            seat=self.seat, identity=self.identity, peer_key=self._peer_key, session_id=session_id,
            handshake_hash=handshake_hash,
            send_key=derive(self._ikm, handshake_hash, f"send {self.seat}"),
            recv_key=derive(self._ikm, handshake_hash, f"send {peer}"), version=self.version,
            handshake_frames=b"".join(primitives.sha256(f) for f in self._received),
            names=(names[0], names[1]),
        )
        channel.own_handshake_frames(self._sent_frames)
        self._ikm = b""  # no longer needed: forget the secret
        self._result = HandshakeResult(session_id=session_id, handshake_hash=handshake_hash,
                                       peer_key=self._peer_key, sas=sas, record=dict(self._record),
                                       channel=channel, names=(names[0], names[1]))


RECORD_FIELDS = frozenset({"version", "room", "hello", "reply", "reveal", "keys", "names", "signatures"})


def verify_handshake_record(record: Mapping[str, object]) -> VerifiedHandshake:
    """Recompute the hashes of a public handshake record and check both identity signatures.

    This proves that both identity keys signed this session's handshake hash, which names the
    version, the room, both seats, every public handshake byte, both keys and both names; it
    cannot check the key confirmation, which needs the ephemeral secrets (spec/protocol.md §5.6).
    Raises ``RemoteViolation`` with reason ``unsupported_version``, ``bad_handshake_record``,
    ``bad_key``, ``bad_name`` or ``bad_signature``.
    """
    def bad(why: str) -> RemoteViolation:
        return RemoteViolation("bad_handshake_record", why)

    if not isinstance(record, Mapping) or set(record) != RECORD_FIELDS:
        raise bad("a handshake record has exactly the fields " + ", ".join(sorted(RECORD_FIELDS)))
    version, room = record["version"], record["room"]
    hello, reply, e0 = record["hello"], record["reply"], record["reveal"]
    keys, names, signatures = record["keys"], record["names"], record["signatures"]
    if type(version) is not int:
        raise bad("the version is an integer")
    if version != VERSION:
        raise RemoteViolation("unsupported_version", f"a handshake of version {version}, not {VERSION}")
    if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
        raise bad("bad room code")
    if not (isinstance(hello, bytes) and isinstance(reply, bytes) and isinstance(e0, bytes)):
        raise bad("hello, reply and reveal are bytes")
    if len(hello) < 3 or hello[0] != HELLO or reply[:1] != bytes([REPLY]):
        raise bad("hello and reply must be a HELLO and a REPLY frame")
    if hello[1] != version:
        raise bad(f"the HELLO says version {hello[1]}, the record {version}")
    if hello[2] not in (MODE_SAS, MODE_PASSWORD):
        raise bad(f"unknown mode {hello[2]}")
    extra = SPAKE_SIZE if hello[2] == MODE_PASSWORD else 0
    if len(hello) != HELLO_SIZE + extra or len(reply) != REPLY_SIZE + extra or len(e0) != 32:
        raise bad(f"HELLO, REPLY or reveal of the wrong length for mode {hello[2]}")
    if not primitives.equal(commitment(e0), hello[3:35]):
        raise bad("the revealed key does not match its commitment")
    if not (isinstance(keys, list) and isinstance(signatures, list) and isinstance(names, list)
            and len(keys) == 2 and len(signatures) == 2 and len(names) == 2
            and all(isinstance(k, bytes) for k in keys) and all(isinstance(s, bytes) for s in signatures)
            and all(isinstance(n, str) for n in names)):
        raise bad("keys and signatures are two byte strings each, names two strings")
    key0, key1 = cast(list[bytes], keys)
    name0, name1 = cast(list[str], names)
    for key in (key0, key1):
        check_identity_key(key)
    if key0 == key1:
        raise RemoteViolation("bad_key", "both seats have the same identity key")
    for name in (name0, name1):
        check_name(name)
    h = mix_hash(initial_hash(), prologue(version, room))
    h_k = mix_hash(mix_hash(mix_hash(h, hello), reply), e0)
    handshake_hash, session_id = final_hashes(identity_hash(h_k, key0, name0), key1, name1)
    for seat in (0, 1):
        try:
            verify_signature(cast(bytes, keys[seat]), cast(bytes, signatures[seat]),
                             signed_statement(seat, handshake_hash))
        except RemoteViolation:
            raise RemoteViolation("bad_signature", f"seat {seat}'s signature does not cover this "
                                  "handshake (its keys, names and frames)") from None
    return VerifiedHandshake(version=version, room=room, mode=hello[2], keys=(key0, key1),
                             handshake_hash=handshake_hash, session_id=session_id, names=(name0, name1))

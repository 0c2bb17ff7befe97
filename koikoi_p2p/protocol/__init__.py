"""The peer protocol: the secure session (handshake, envelopes, channel, transcripts) and, on top
of it, the game messages. Sans-I/O throughout; spec/protocol.md is normative."""

from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import SignedEnvelope, decode_envelope, encode_envelope, verify_envelope
from koikoi_p2p.protocol.errors import LocalMisuse, ProtocolError, RemoteViolation
from koikoi_p2p.protocol.handshake import Handshake, HandshakeResult, verify_handshake_record
from koikoi_p2p.protocol.identity import Identity, KnownPeers, fingerprint, verify_signature
from koikoi_p2p.protocol.transport import Transport, TransportClosed

__all__ = [
    "Handshake", "HandshakeResult", "Identity", "KnownPeers", "LocalMisuse", "ProtocolError",
    "RemoteViolation", "SecureChannel", "SignedEnvelope", "Transport", "TransportClosed",
    "decode_envelope", "encode_envelope", "fingerprint", "verify_envelope", "verify_handshake_record",
    "verify_signature",
]

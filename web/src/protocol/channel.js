// The encrypted, signed, hash-chained channel (spec/protocol.md §7), sans-I/O.
//   aead_key, nonce_key = HKDF-Expand(K(handshake_hash, "send s"), "koikoi-p2p/2 frame aead" | "... nonce")
//   header = 0x10 || u32(seq)
//   nonce  = HMAC(nonce_key, header || signature || envelope)[0:12]      (synthetic, SIV-style)
//   frame  = header || nonce || AEAD(aead_key, nonce, header, signature || envelope)
// One chain over both directions: every envelope names the digest of the one before it.
import { concat, equal, readU32be, u32be, u8, utf8 } from '../bytes.js';
import { decodeEnvelope, encodeEnvelope, envelopeDigest, EnvelopeError } from './envelope.js';
import { LocalError, RemoteViolation } from './errors.js';
import { aeadOpen, aeadSeal, ed25519Verify, hkdf, hkdfExpand, hmac } from './primitives.js';
import { KIND } from './handshake.js';
import { label } from './labels.js';

export const MAX_FRAME = 1 << 20;
const MIN_FRAME = 97;

/** HKDF info of the link liveness key (spec/protocol.md §12.2 item 4). */
export const LIVENESS_INFO = utf8('koikoi-p2p/v2/link-liveness');

/**
 * The key of the link's liveness proofs: HKDF-SHA-256 of both direction secrets (seat 0's
 * first), salted with the session id (spec/protocol.md §12.2 item 4).
 * @param {Uint8Array} sessionId @param {[Uint8Array, Uint8Array]} sendSecrets
 */
export function livenessKey(sessionId, sendSecrets) {
  return hkdf(concat(sendSecrets[0], sendSecrets[1]), sessionId, LIVENESS_INFO, 32);
}

/**
 * The two keys of one direction from its channel secret (spec/protocol.md §7.1).
 * @param {number} version @param {Uint8Array} secret
 * @returns {{aead: Uint8Array, nonce: Uint8Array}}
 */
export function frameKeys(version, secret) {
  const prefix = new TextDecoder().decode(label(version));
  return {
    aead: hkdfExpand(secret, utf8(`${prefix}frame aead`), 32),
    nonce: hkdfExpand(secret, utf8(`${prefix}frame nonce`), 32),
  };
}

/**
 * The synthetic nonce of a frame.
 * @param {{aead: Uint8Array, nonce: Uint8Array}} keys @param {Uint8Array} header @param {Uint8Array} plaintext
 */
function frameNonce(keys, header, plaintext) {
  return hmac(keys.nonce, concat(header, plaintext)).slice(0, 12);
}

/**
 * Seal one envelope into its frame.
 * @param {{aead: Uint8Array, nonce: Uint8Array}} keys @param {number} seq @param {Uint8Array} signature @param {Uint8Array} envelope
 */
export function sealFrame(keys, seq, signature, envelope) {
  const header = concat(u8(KIND.ENVELOPE), u32be(seq));
  const plaintext = concat(signature, envelope);
  const nonce = frameNonce(keys, header, plaintext);
  return concat(header, nonce, aeadSeal(keys.aead, nonce, header, plaintext));
}

/**
 * @typedef {import('./envelope.js').Envelope} Envelope
 * @typedef {{seq: number, sender: number, type: string, body: {[key: string]: import('./codec.js').Value},
 *   envelope: Uint8Array, signature: Uint8Array, digest: Uint8Array, frame: Uint8Array}} Accepted
 */

export class Channel {
  /**
   * @param {import('./handshake.js').HandshakeResult} hs the finished handshake
   * @param {import('./identity.js').Identity} identity our identity (signs every envelope)
   */
  constructor(hs, identity) {
    this.version = hs.version;
    this.seat = hs.seat;
    this.peer = 1 - hs.seat;
    this.sessionId = hs.sessionId;
    this.wireSessionId = hs.sessionId.slice(0, 16);
    this.sendKeys = frameKeys(hs.version, hs.sendSecrets[hs.seat]);
    this.receiveKeys = frameKeys(hs.version, hs.sendSecrets[this.peer]);
    this.names = hs.names;
    /** the key of the link's liveness proofs (spec/protocol.md §12.2 item 4) */
    this.livenessKey = livenessKey(hs.sessionId, hs.sendSecrets);
    this.identity = identity;
    this.identityKeys = hs.identityKeys;
    this.peerKey = hs.identityKeys[this.peer];
    this.handshakeHash = hs.handshakeHash;
    this.head = hs.handshakeHash;
    this.next = 0;
    /** @type {{digest: Uint8Array, sender: number, envelope: Uint8Array, signature: Uint8Array, frame: Uint8Array}[]} */
    this.accepted = [];
    this.handshakeSent = hs.sent.map((f) => f.slice());
    this.handshakeReceived = hs.received.map((f) => f.slice());
    this.failed = false;
  }

  /**
   * Build, sign and seal our next envelope (spec/protocol.md §7.3).
   * @param {string} type @param {{[key: string]: import('./codec.js').Value}} body
   * @returns {Accepted}
   */
  send(type, body) {
    if (this.failed) throw new LocalError('bad_state', 'the channel failed');
    const seq = this.next;
    const envelope = encodeEnvelope({ version: this.version, sessionId: this.wireSessionId, seq, prev: this.head, sender: this.seat, type, body });
    const signature = this.identity.sign(envelope);
    const frame = sealFrame(this.sendKeys, seq, signature, envelope);
    if (frame.length > MAX_FRAME) throw new LocalError('bad_argument', 'frame larger than 2^20 bytes');
    const digest = this.#accept(envelope, signature, this.seat, frame);
    return { seq, sender: this.seat, type, body, envelope, signature, digest, frame };
  }

  /** @param {Uint8Array} envelope @param {Uint8Array} signature @param {number} sender @param {Uint8Array} frame */
  #accept(envelope, signature, sender, frame) {
    const digest = envelopeDigest(this.version, envelope);
    this.accepted.push({ digest, sender, envelope, signature, frame });
    this.head = digest;
    this.next += 1;
    return digest;
  }

  /**
   * @param {string} reason @param {string} detail @param {{[key: string]: unknown}} evidence
   * @returns {never}
   */
  #violation(reason, detail, evidence) {
    this.failed = true;
    throw new RemoteViolation(reason, detail, evidence);
  }

  /**
   * A frame from the peer: the steps of spec/protocol.md §7.2, in order. Returns the accepted
   * envelope, or null for an exact repeat (ignored). Raises RemoteViolation.
   * @param {Uint8Array} frame
   * @returns {Accepted | null}
   */
  receive(frame) {
    if (this.failed) throw new LocalError('bad_state', 'the channel failed');
    // 1. repeated or reflected handshake frames.
    if (this.handshakeReceived.some((f) => equal(f, frame))) return null;
    if (this.handshakeSent.some((f) => equal(f, frame))) this.#violation('reflected', 'a handshake frame we sent', { frame });
    // 2. size and kind.
    if (frame.length > MAX_FRAME || frame.length < MIN_FRAME || frame[0] !== KIND.ENVELOPE) {
      this.#violation('bad_frame', 'not an ENVELOPE frame', { frame });
    }
    // 3. open.
    const headerSeq = readU32be(frame, 1);
    const header = frame.subarray(0, 5);
    const nonce = frame.subarray(5, 17);
    const sealed = frame.subarray(17);
    const plain = aeadOpen(this.receiveKeys.aead, nonce, header, sealed);
    if (!plain) {
      if (aeadOpen(this.sendKeys.aead, nonce, header, sealed)) this.#violation('reflected', 'a frame we sealed', { frame });
      this.#violation('aead_failure', 'the frame does not authenticate', { frame });
    }
    // 4. split and decode.
    const signature = plain.slice(0, 64);
    const envelope = plain.slice(64);
    /** @type {Envelope} */
    let e;
    try {
      e = decodeEnvelope(envelope);
    } catch (err) {
      if (err instanceof EnvelopeError) this.#violation('bad_envelope', err.detail, { frame, envelope, signature, peerFault: true });
      throw err;
    }
    const evidence = { frame, envelope, signature, seq: e.seq, peerFault: true };
    // 5. header and fields.
    if (e.seq !== headerSeq) this.#violation('bad_frame', 'header and envelope disagree on seq', evidence);
    if (!equal(nonce, frameNonce(this.receiveKeys, header, plain))) this.#violation('bad_frame', 'the nonce is not the one the envelope gives', evidence);
    if (e.version !== this.version) this.#violation('unsupported_version', `envelope version ${e.version}`, evidence);
    if (!equal(e.sessionId, this.wireSessionId)) this.#violation('wrong_session', 'another session', evidence);
    if (e.sender !== this.peer) this.#violation('wrong_sender', `sender ${e.sender}`, evidence);
    // 6. exact duplicate.
    const digest = envelopeDigest(this.version, envelope);
    if (e.seq < this.next && equal(this.accepted[e.seq].digest, digest)) return null;
    // 7. signature.
    if (!ed25519Verify(this.peerKey, envelope, signature)) this.#violation('bad_signature', 'envelope signature', evidence);
    // 8. a different envelope at an accepted number.
    if (e.seq < this.next) {
      const old = this.accepted[e.seq];
      if (old.sender === this.peer) {
        this.#violation('equivocation', `two envelopes at seq ${e.seq}`, {
          ...evidence, accepted_envelope: old.envelope, accepted_signature: old.signature, accepted_digest: old.digest,
        });
      }
      this.#violation('bad_seq', `seq ${e.seq} is ours`, evidence);
    }
    // 9. skipping ahead (a frame dropped or reordered: not necessarily the peer's fault).
    if (e.seq > this.next) this.#violation('bad_seq', `seq ${e.seq}, expected ${this.next}`, { ...evidence, peerFault: false });
    // 10. chain.
    if (!equal(e.prev, this.head)) this.#violation('bad_prev', 'prev is not the chain head', evidence);
    // 11. accept.
    this.#accept(envelope, signature, e.sender, frame);
    return { seq: e.seq, sender: e.sender, type: e.type, body: e.body, envelope, signature, digest, frame };
  }

  /**
   * Whether `frame` could be the peer's: it repeats one of the peer's handshake frames, or it
   * opens under the peer's direction key (spec/protocol.md §7.2 steps 1-3). Anyone on the path
   * can send a frame that does not, so it proves nothing against the peer: the driver drops and
   * counts it instead of failing the match (§12.2 item 1). No state changes.
   * @param {Uint8Array} frame
   */
  authenticates(frame) {
    if (frame[0] !== KIND.ENVELOPE) return this.handshakeReceived.some((f) => equal(f, frame));
    if (frame.length > MAX_FRAME || frame.length < MIN_FRAME) return false;
    return aeadOpen(this.receiveKeys.aead, frame.subarray(5, 17), frame.subarray(0, 5), frame.subarray(17)) !== null;
  }

  /** The transcript entries so far: [signature, envelope] per envelope. */
  entries() {
    return this.accepted.map((a) => ({ signature: a.signature, envelope: a.envelope }));
  }
}

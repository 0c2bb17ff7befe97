// The four-frame handshake (spec/protocol.md §5), sans-I/O. Seat 0 (host) initiates, seat 1
// (joiner) responds. Feed received frames to `receive`; it returns the frames to send. After
// DONE, `result` holds the session keys, both identity keys, the handshake hash, the session id,
// the SAS (without a password) and the public handshake record (§5.6).
import { concat, equal, u8, utf8 } from '../bytes.js';
import { encode } from './codec.js';
import { ProtocolError, LocalError, RemoteViolation } from './errors.js';
import { label, protocolName } from './labels.js';
import {
  aeadOpen, aeadSeal, ed25519Verify, hkdf, hmac, isValidIdentityKey, macEqual, mix, sha256, x25519, x25519Public,
} from './primitives.js';
import { Spake2, Spake2Error } from './spake2.js';
import { sasString } from './sas.js';

export const VERSION = 1;

export const KIND = Object.freeze({ HELLO: 0x01, REPLY: 0x02, REVEAL: 0x03, CONFIRM: 0x04, ENVELOPE: 0x10 });

const STATE = Object.freeze({
  START: 'START', AWAITING_HELLO: 'AWAITING_HELLO', AWAITING_REPLY: 'AWAITING_REPLY',
  AWAITING_REVEAL: 'AWAITING_REVEAL', AWAITING_CONFIRM: 'AWAITING_CONFIRM', DONE: 'DONE', FAILED: 'FAILED',
});

/**
 * @typedef {{
 *   version: number, seat: 0 | 1, room: string, mode: 0 | 1,
 *   sendKeys: [Uint8Array, Uint8Array], identityKeys: [Uint8Array, Uint8Array],
 *   handshakeHash: Uint8Array, sessionId: Uint8Array, sas: string | null, sasBytes: Uint8Array | null,
 *   record: {[key: string]: import('./codec.js').Value}, recordBytes: Uint8Array,
 *   sent: Uint8Array[], received: Uint8Array[],
 * }} HandshakeResult
 */

/**
 * The prologue: canonical msgpack of {"protocol", "version", "room", "initiator": 0, "responder": 1}.
 * @param {number} version @param {string} room
 */
export function prologue(version, room) {
  return encode({ protocol: 'koikoi-p2p', version, room, initiator: 0, responder: 1 });
}

/**
 * h_k from the public frames (spec/protocol.md §5.3).
 * @param {number} version @param {string} room @param {Uint8Array} hello @param {Uint8Array} reply @param {Uint8Array} e0
 */
export function transcriptHashes(version, room, hello, reply, e0) {
  const h0 = sha256(protocolName(version));
  const h1 = mix(h0, prologue(version, room));
  const h2 = mix(h1, hello);
  const h3 = mix(h2, reply);
  const hk = mix(h3, e0);
  return { h0, h1, h2, h3, hk };
}

/**
 * handshake_hash and session_id from h_k and both identity keys.
 * @param {number} version @param {Uint8Array} hk @param {Uint8Array} key0 @param {Uint8Array} key1
 */
export function sessionIds(version, hk, key0, key1) {
  const handshakeHash = mix(mix(hk, key0), key1);
  const sessionId = sha256(concat(label(version), utf8('session id'), handshakeHash));
  return { handshakeHash, sessionId };
}

/**
 * The statement each identity signs: LABEL || "handshake" || u8(s) || h_k.
 * @param {number} version @param {number} seat @param {Uint8Array} hk
 */
export function handshakeStatement(version, seat, hk) {
  return concat(label(version), utf8('handshake'), u8(seat), hk);
}

/** @param {number} version @param {Uint8Array} e0 */
export function commitment(version, e0) {
  return sha256(concat(label(version), utf8('commit'), e0));
}

/**
 * The SPAKE2 identities of §5.4.
 * @param {number} version @param {string} room @param {number} seat
 */
export function spakeIdentity(version, room, seat) {
  return utf8(`koikoi-p2p/${version} room=${room} seat=${seat}`);
}

export class Handshake {
  /**
   * @param {{seat: 0 | 1, identity: import('./identity.js').Identity, room: string,
   *   password?: string | null, rng: (n: number) => Uint8Array, version?: number}} options
   */
  constructor(options) {
    const { seat, identity, room, rng } = options;
    if (seat !== 0 && seat !== 1) throw new LocalError('bad_argument', 'seat is 0 or 1');
    if (typeof room !== 'string' || room.length < 1 || [...room].length > 64) throw new LocalError('bad_argument', 'room code of 1 to 64 characters');
    this.seat = seat;
    this.identity = identity;
    this.room = room;
    this.version = options.version ?? VERSION;
    this.password = options.password == null ? null : utf8(options.password.normalize('NFC'));
    this.mode = this.password ? 1 : 0;
    this.rng = rng;
    /** @type {string} */
    this.state = seat === 0 ? STATE.START : STATE.AWAITING_HELLO;
    /** @type {Uint8Array} h_k, once both ephemeral keys are known */
    this.hk = new Uint8Array(0);
    /** @type {Record<string, Uint8Array>} the derived keys of §5.4 */
    this.keys = {};
    /** @type {Uint8Array | null} */
    this.e0 = null;
    /** @type {Uint8Array | null} */
    this.dh = null;
    /** @type {Uint8Array | null} */
    this.spakeKey = null;
    /** @type {Uint8Array | null} */
    this.sasBytes = null;
    /** @type {[Uint8Array, Uint8Array] | null} */
    this.identityKeys = null;
    /** @type {Uint8Array[]} */
    this.sent = [];
    /** @type {Uint8Array[]} */
    this.received = [];
    /** @type {HandshakeResult | null} */
    this.result = null;
    /** @type {Record<string, Uint8Array>} */
    this.frames = {};
    this.ephemeral = this.rng(32);
    this.ephemeralPublic = x25519Public(this.ephemeral);
    /** @type {Spake2 | null} */
    this.spake = null;
    if (this.password) {
      const idA = spakeIdentity(this.version, room, 0);
      const idB = spakeIdentity(this.version, room, 1);
      this.spake = new Spake2(seat === 0 ? 'A' : 'B', this.password, idA, idB, this.rng);
    }
  }

  get done() {
    return this.state === STATE.DONE;
  }

  /**
   * @param {string} reason @param {string} [detail]
   * @returns {never}
   */
  fail(reason, detail) {
    this.state = STATE.FAILED;
    throw new RemoteViolation(reason, detail);
  }

  /** @param {Uint8Array} frame */
  #send(frame) {
    this.sent.push(frame);
    return frame;
  }

  /** Seat 0's opening frame. @returns {Uint8Array[]} */
  start() {
    if (this.seat !== 0 || this.state !== STATE.START) throw new LocalError('bad_state', 'only seat 0 starts, once');
    const c = commitment(this.version, this.ephemeralPublic);
    const hello = concat(u8(KIND.HELLO), u8(this.version), u8(this.mode), c, this.spake ? this.spake.message() : new Uint8Array(0));
    this.frames.hello = hello;
    this.state = STATE.AWAITING_REPLY;
    return [this.#send(hello)];
  }

  /**
   * A received handshake frame; returns the frames to send (spec/protocol.md §5.2).
   * @param {Uint8Array} frame
   * @returns {Uint8Array[]}
   */
  receive(frame) {
    if (this.state === STATE.FAILED) throw new LocalError('bad_state', 'the handshake failed');
    if (this.sent.some((f) => equal(f, frame))) this.fail('reflected', 'a handshake frame we sent');
    if (this.received.some((f) => equal(f, frame))) return [];
    if (this.state === STATE.DONE) this.fail('unexpected_message', 'a handshake frame after DONE');
    const kind = frame[0];
    /** @type {Record<string, number>} */
    const kinds = {
      [STATE.AWAITING_HELLO]: KIND.HELLO, [STATE.AWAITING_REPLY]: KIND.REPLY,
      [STATE.AWAITING_REVEAL]: KIND.REVEAL, [STATE.AWAITING_CONFIRM]: KIND.CONFIRM,
    };
    const expected = kinds[this.state];
    if (frame.length === 0 || kind !== expected) this.fail('unexpected_message', `frame kind ${kind} in ${this.state}`);
    this.received.push(frame.slice());
    try {
      if (kind === KIND.HELLO) return this.#onHello(frame);
      if (kind === KIND.REPLY) return this.#onReply(frame);
      if (kind === KIND.REVEAL) return this.#onReveal(frame);
      return this.#onConfirm(frame);
    } catch (e) {
      this.state = STATE.FAILED;
      throw e;
    }
  }

  /** @param {Uint8Array} hello */
  #onHello(hello) {
    if (hello.length < 3) this.fail('bad_frame', 'HELLO too short');
    if (hello[1] !== this.version) this.fail('unsupported_version', `version ${hello[1]}`);
    const mode = hello[2];
    if (mode !== 0 && mode !== 1) this.fail('bad_frame', `mode ${mode}`);
    if (mode !== this.mode) this.fail('mode_mismatch', this.mode ? 'we have a room password, the host has none' : 'the host has a room password, we have none');
    if (hello.length !== (this.mode ? 68 : 35)) this.fail('bad_frame', 'HELLO length');
    this.frames.hello = hello;
    const reply = concat(u8(KIND.REPLY), this.ephemeralPublic, this.spake ? this.spake.message() : new Uint8Array(0));
    this.frames.reply = reply;
    if (this.spake) this.spakeKey = this.#finishSpake(hello.subarray(35, 68));
    this.state = STATE.AWAITING_REVEAL;
    return [this.#send(reply)];
  }

  /** @param {Uint8Array} message */
  #finishSpake(message) {
    try {
      return /** @type {Spake2} */ (this.spake).finish(message);
    } catch (e) {
      if (e instanceof Spake2Error) this.fail('bad_key', `SPAKE2: ${e.message}`);
      throw e;
    }
  }

  /** @param {Uint8Array} reply */
  #onReply(reply) {
    if (reply.length !== (this.mode ? 66 : 33)) this.fail('bad_frame', 'REPLY length');
    const e1 = reply.subarray(1, 33);
    const dh = x25519(this.ephemeral, e1);
    if (!dh || dh.every((b) => b === 0)) this.fail('bad_key', 'a low-order X25519 key');
    if (this.spake) this.spakeKey = this.#finishSpake(reply.subarray(33, 66));
    this.frames.reply = reply;
    const e0 = this.ephemeralPublic;
    this.#schedule(dh, e0);
    const k = this.keys;
    const mac0 = hmac(k['confirm 0'], this.hk);
    const block0 = this.#identityBlock(0);
    const reveal = concat(u8(KIND.REVEAL), e0, mac0, block0);
    this.frames.reveal = reveal;
    this.e0 = e0;
    this.state = STATE.AWAITING_CONFIRM;
    return [this.#send(reveal)];
  }

  /** @param {Uint8Array} reveal */
  #onReveal(reveal) {
    if (reveal.length !== 177) this.fail('bad_frame', 'REVEAL length');
    const e0 = reveal.subarray(1, 33);
    if (!equal(commitment(this.version, e0), this.frames.hello.subarray(3, 35))) this.fail('bad_commitment');
    const dh = x25519(this.ephemeral, e0);
    if (!dh || dh.every((b) => b === 0)) this.fail('bad_key', 'a low-order X25519 key');
    this.e0 = e0.slice();
    this.#schedule(dh, this.e0);
    const k = this.keys;
    this.#checkMac(reveal.subarray(33, 65), k['confirm 0']);
    this.identityKeys = [this.#openBlock(0, reveal.subarray(65, 177)), this.identity.publicKey];
    this.frames.reveal = reveal;
    const mac1 = hmac(k['confirm 1'], this.hk);
    const confirm = concat(u8(KIND.CONFIRM), mac1, this.#identityBlock(1));
    this.#finish();
    return [this.#send(confirm)];
  }

  /** @param {Uint8Array} confirm */
  #onConfirm(confirm) {
    if (confirm.length !== 145) this.fail('bad_frame', 'CONFIRM length');
    const k = this.keys;
    this.#checkMac(confirm.subarray(1, 33), k['confirm 1']);
    this.identityKeys = [this.identity.publicKey, this.#openBlock(1, confirm.subarray(33, 145))];
    this.#finish();
    return [];
  }

  /** @param {Uint8Array} mac @param {Uint8Array} key */
  #checkMac(mac, key) {
    if (!macEqual(mac, hmac(key, this.hk))) this.fail(this.mode ? 'pake_failed' : 'key_confirmation_failed');
  }

  /** @param {number} s */
  #identityBlock(s) {
    const k = this.keys;
    const sig = this.identity.sign(handshakeStatement(this.version, s, this.hk));
    return aeadSeal(k[`identity ${s}`], new Uint8Array(12), this.hk, concat(this.identity.publicKey, sig));
  }

  /** @param {number} s @param {Uint8Array} block @returns {Uint8Array} */
  #openBlock(s, block) {
    const k = this.keys;
    const plain = aeadOpen(k[`identity ${s}`], new Uint8Array(12), this.hk, block);
    if (!plain) this.fail('key_confirmation_failed', `identity block ${s} does not open`);
    const key = plain.subarray(0, 32);
    if (!isValidIdentityKey(key)) this.fail('bad_key', 'an identity key outside the prime-order subgroup');
    if (!ed25519Verify(key, handshakeStatement(this.version, s, this.hk), plain.subarray(32, 96))) {
      this.fail('bad_signature', `seat ${s} handshake signature`);
    }
    return key.slice();
  }

  /** @param {Uint8Array} dh @param {Uint8Array} e0 */
  #schedule(dh, e0) {
    const { hk } = transcriptHashes(this.version, this.room, this.frames.hello, this.frames.reply, e0);
    this.hk = hk;
    this.dh = dh;
    const ikm = this.spakeKey ? concat(dh, this.spakeKey) : dh;
    /** @type {Record<string, Uint8Array>} */
    const keys = {};
    for (const l of ['send 0', 'send 1', 'confirm 0', 'confirm 1', 'identity 0', 'identity 1']) {
      keys[l] = hkdf(ikm, hk, concat(label(this.version), utf8(l)), 32);
    }
    this.keys = keys;
    this.sasBytes = this.mode === 0 ? hkdf(ikm, hk, concat(label(this.version), utf8('sas')), 5) : null;
  }

  #finish() {
    const [key0, key1] = /** @type {[Uint8Array, Uint8Array]} */ (this.identityKeys);
    const hk = /** @type {Uint8Array} */ (this.hk);
    const { handshakeHash, sessionId } = sessionIds(this.version, hk, key0, key1);
    // The record's signatures: ours we make again (deterministic), the peer's came in its block.
    const k = this.keys;
    const peer = 1 - this.seat;
    const peerBlock = peer === 0 ? this.frames.reveal.subarray(65, 177) : this.received[this.received.length - 1].subarray(33, 145);
    const peerSig = /** @type {Uint8Array} */ (aeadOpen(k[`identity ${peer}`], new Uint8Array(12), hk, peerBlock)).slice(32, 96);
    const ownSig = this.identity.sign(handshakeStatement(this.version, this.seat, hk));
    const signatures = this.seat === 0 ? [ownSig, peerSig] : [peerSig, ownSig];
    const record = {
      version: this.version, room: this.room, hello: this.frames.hello, reply: this.frames.reply,
      reveal: /** @type {Uint8Array} */ (this.e0), keys: [key0, key1], signatures,
    };
    const sasBytes = this.sasBytes ?? null;
    this.result = {
      version: this.version, seat: this.seat, room: this.room, mode: /** @type {0 | 1} */ (this.mode),
      sendKeys: [k['send 0'], k['send 1']], identityKeys: [key0, key1],
      handshakeHash, sessionId, sas: sasBytes ? sasString(sasBytes) : null, sasBytes,
      record, recordBytes: encode(record), sent: this.sent, received: this.received,
    };
    this.state = STATE.DONE;
  }
}

export { ProtocolError };

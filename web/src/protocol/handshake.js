// The five-frame handshake of version 2 (spec/protocol.md §5), sans-I/O. Seat 0 (host) initiates,
// seat 1 (joiner) responds:
//   HELLO   0 -> 1   version, mode, commitment to e0 [, SPAKE2 A]
//   REPLY   1 -> 0   e1 [, SPAKE2 B]
//   REVEAL  0 -> 1   e0, MAC0, BLOCK0 (seat 0's identity key and name)
//   CONFIRM 1 -> 0   MAC1, BLOCK1 (seat 1's identity key, name, and signature of the whole handshake)
//   SIGN    0 -> 1   seat 0's signature of the whole handshake (sent with seat 0's first envelope)
// Feed received frames to `receive`; it returns the frames to send. After DONE, `result` holds
// the session keys, both identity keys and names, the handshake hash, the session id, the SAS
// (without a password) and the public handshake record (§5.6).
import { concat, equal, u64be, u8, utf8, fromUtf8 } from '../bytes.js';
import { encode } from './codec.js';
import { LocalError, RemoteViolation } from './errors.js';
import { label, protocolName } from './labels.js';
import {
  aeadOpen, aeadSeal, ed25519Verify, hkdf, hmac, isValidIdentityKey, macEqual, mix, sha256, x25519, x25519Public,
} from './primitives.js';
import { Spake2, Spake2Error } from './spake2.js';
import { sasString } from './sas.js';
import { nameProblem } from './names.js';

export const VERSION = 2;

export const KIND = Object.freeze({ HELLO: 0x01, REPLY: 0x02, REVEAL: 0x03, CONFIRM: 0x04, SIGN: 0x05, ENVELOPE: 0x10 });

const STATE = Object.freeze({
  START: 'START', AWAITING_HELLO: 'AWAITING_HELLO', AWAITING_REPLY: 'AWAITING_REPLY',
  AWAITING_REVEAL: 'AWAITING_REVEAL', AWAITING_CONFIRM: 'AWAITING_CONFIRM', AWAITING_SIGN: 'AWAITING_SIGN',
  DONE: 'DONE', FAILED: 'FAILED',
});

/**
 * @typedef {{
 *   version: number, seat: 0 | 1, room: string, mode: 0 | 1,
 *   sendSecrets: [Uint8Array, Uint8Array], identityKeys: [Uint8Array, Uint8Array], names: [string, string],
 *   handshakeHash: Uint8Array, sessionId: Uint8Array, sas: string | null, sasBytes: Uint8Array | null,
 *   record: {[key: string]: import('./codec.js').Value}, recordBytes: Uint8Array,
 *   sent: Uint8Array[], received: Uint8Array[], pendingSign: Uint8Array | null,
 * }} HandshakeResult
 * `pendingSign` (seat 0): the SIGN frame, to send in one flight with the first envelope.
 */

/**
 * The prologue: canonical msgpack of {"protocol", "version", "room", "initiator": 0, "responder": 1}.
 * @param {number} version @param {string} room
 */
export function prologue(version, room) {
  return encode({ protocol: 'koikoi-p2p', version, room, initiator: 0, responder: 1 });
}

/**
 * The running hash of spec/protocol.md §5.3 up to h_k, from the public frames.
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
 * h_a, handshake_hash and session_id from h_k and both identities (spec/protocol.md §5.3).
 * @param {number} version @param {Uint8Array} hk @param {Uint8Array[]} keys @param {string[]} names
 */
export function sessionIds(version, hk, keys, names) {
  const ha = mix(mix(hk, keys[0]), utf8(names[0]));
  const handshakeHash = mix(mix(ha, keys[1]), utf8(names[1]));
  const sessionId = sha256(concat(label(version), utf8('session id'), handshakeHash));
  return { ha, handshakeHash, sessionId };
}

/**
 * The statement each identity signs: LABEL || "handshake" || u8(s) || handshake_hash.
 * @param {number} version @param {number} seat @param {Uint8Array} handshakeHash
 */
export function handshakeStatement(version, seat, handshakeHash) {
  return concat(label(version), utf8('handshake'), u8(seat), handshakeHash);
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

/**
 * The handshake's hedged stream (spec/protocol.md §5.7):
 * k = HMAC(seed, LABEL || "hedge" || u8(seat) || mix(mix(mix(h, key_s), name_s), pw)),
 * stream = HMAC(k, u64(0)) || HMAC(k, u64(1)) || ...
 * @param {number} version @param {Uint8Array} seed @param {number} seat @param {Uint8Array} h
 * @param {Uint8Array} key @param {string} name @param {Uint8Array} pw
 */
export function handshakeStream(version, seed, seat, h, key, name, pw) {
  const k = hmac(seed, concat(label(version), utf8('hedge'), u8(seat), mix(mix(mix(h, key), utf8(name)), pw)));
  let counter = 0;
  /** @type {Uint8Array} */
  let buffer = new Uint8Array(0);
  return (/** @type {number} */ n) => {
    while (buffer.length < n) buffer = concat(buffer, hmac(k, u64be(counter++)));
    const out = buffer.slice(0, n);
    buffer = buffer.slice(n);
    return out;
  };
}

/**
 * K(salt, l) = HKDF(ikm, salt, LABEL || l, 32) (spec/protocol.md §5.4).
 * @param {number} version @param {Uint8Array} ikm @param {Uint8Array} salt @param {string} l @param {number} [length]
 */
function derive(version, ikm, salt, l, length = 32) {
  return hkdf(ikm, salt, concat(label(version), utf8(l)), length);
}

export class Handshake {
  /**
   * @param {{seat: 0 | 1, identity: import('./identity.js').Identity, room: string, name?: string,
   *   password?: string | null, seed: Uint8Array, version?: number}} options
   *   `seed`: 32 secret bytes from the OS, the key of the hedged draws (§5.7).
   */
  constructor(options) {
    const { seat, identity, room, seed } = options;
    if (seat !== 0 && seat !== 1) throw new LocalError('bad_argument', 'seat is 0 or 1');
    if (typeof room !== 'string' || room.length < 1 || [...room].length > 64) throw new LocalError('bad_argument', 'room code of 1 to 64 characters');
    const name = (options.name ?? '').normalize('NFC');
    const problem = nameProblem(name);
    if (problem) throw new LocalError('bad_name', problem);
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new LocalError('bad_argument', 'a seed is 32 bytes');
    this.seat = seat;
    this.identity = identity;
    this.room = room;
    this.name = name;
    this.version = options.version ?? VERSION;
    this.seed = seed;
    this.password = options.password == null ? null : utf8(options.password.normalize('NFC'));
    this.mode = this.password ? 1 : 0;
    /** @type {string} */
    this.state = seat === 0 ? STATE.START : STATE.AWAITING_HELLO;
    /** @type {Uint8Array[]} */
    this.sent = [];
    /** @type {Uint8Array[]} */
    this.received = [];
    /** @type {HandshakeResult | null} */
    this.result = null;
    /** @type {Record<string, Uint8Array>} */
    this.frames = {};
    /** @type {Record<string, Uint8Array>} the derived keys of §5.4 */
    this.keys = {};
    /** @type {Uint8Array} */
    this.hk = new Uint8Array(0);
    /** @type {Uint8Array} */
    this.ha = new Uint8Array(0);
    /** @type {Uint8Array} */
    this.handshakeHash = new Uint8Array(0);
    /** @type {Uint8Array | null} */
    this.ephemeral = null;
    /** @type {Uint8Array | null} */
    this.ephemeralPublic = null;
    /** @type {Uint8Array | null} */
    this.e0 = null;
    /** @type {Uint8Array | null} */
    this.dh = null;
    /** @type {Spake2 | null} */
    this.spake = null;
    /** @type {Uint8Array | null} */
    this.spakeKey = null;
    /** @type {Uint8Array | null} */
    this.sasBytes = null;
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    this.peerKeys = [null, null];
    /** @type {[string, string]} */
    this.names = ['', ''];
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    this.signatures = [null, null];
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

  /**
   * Draw this side's ephemeral values from the hedge (§5.7) once `h` (h1 or h2) is known.
   * @param {Uint8Array} h
   */
  #draw(h) {
    const stream = handshakeStream(this.version, this.seed, this.seat, h, this.identity.publicKey, this.name, this.password ?? new Uint8Array(0));
    this.ephemeral = stream(32);
    this.ephemeralPublic = x25519Public(this.ephemeral);
    if (this.password) {
      const idA = spakeIdentity(this.version, this.room, 0);
      const idB = spakeIdentity(this.version, this.room, 1);
      this.spake = new Spake2(this.seat === 0 ? 'A' : 'B', this.password, idA, idB, stream);
    }
  }

  /** Seat 0's opening frame. @returns {Uint8Array[]} */
  start() {
    if (this.seat !== 0 || this.state !== STATE.START) throw new LocalError('bad_state', 'only seat 0 starts, once');
    this.#draw(transcriptHashes(this.version, this.room, new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)).h1);
    const c = commitment(this.version, /** @type {Uint8Array} */ (this.ephemeralPublic));
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
      [STATE.AWAITING_HELLO]: KIND.HELLO, [STATE.AWAITING_REPLY]: KIND.REPLY, [STATE.AWAITING_REVEAL]: KIND.REVEAL,
      [STATE.AWAITING_CONFIRM]: KIND.CONFIRM, [STATE.AWAITING_SIGN]: KIND.SIGN,
    };
    if (frame.length === 0 || kind !== kinds[this.state]) this.fail('unexpected_message', `frame kind ${kind} in ${this.state}`);
    this.received.push(frame.slice());
    try {
      if (kind === KIND.HELLO) return this.#onHello(frame);
      if (kind === KIND.REPLY) return this.#onReply(frame);
      if (kind === KIND.REVEAL) return this.#onReveal(frame);
      if (kind === KIND.CONFIRM) return this.#onConfirm(frame);
      return this.#onSign(frame);
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
    const { h2 } = transcriptHashes(this.version, this.room, hello, new Uint8Array(0), new Uint8Array(0));
    this.#draw(h2);
    if (this.spake) this.spakeKey = this.#finishSpake(hello.subarray(35, 68));
    const reply = concat(u8(KIND.REPLY), /** @type {Uint8Array} */ (this.ephemeralPublic), this.spake ? this.spake.message() : new Uint8Array(0));
    this.frames.reply = reply;
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
    if (this.spake) this.spakeKey = this.#finishSpake(reply.subarray(33, 66));
    const e1 = reply.subarray(1, 33);
    const dh = x25519(/** @type {Uint8Array} */ (this.ephemeral), e1);
    if (!dh || dh.every((b) => b === 0)) this.fail('bad_key', 'a low-order X25519 key');
    this.frames.reply = reply;
    const e0 = /** @type {Uint8Array} */ (this.ephemeralPublic);
    this.e0 = e0;
    this.#schedule(dh, e0);
    const mac0 = hmac(this.keys['confirm 0'], this.hk);
    const key0 = this.identity.publicKey;
    const name0 = utf8(this.name);
    const block0 = aeadSeal(this.keys['identity 0'], new Uint8Array(12), this.hk, concat(key0, u8(name0.length), name0));
    const reveal = concat(u8(KIND.REVEAL), e0, mac0, block0);
    this.frames.reveal = reveal;
    this.peerKeys[0] = key0;
    this.names[0] = this.name;
    this.state = STATE.AWAITING_CONFIRM;
    return [this.#send(reveal)];
  }

  /** @param {Uint8Array} reveal */
  #onReveal(reveal) {
    if (reveal.length < 114 || reveal.length > 242) this.fail('bad_frame', 'REVEAL length');
    const e0 = reveal.subarray(1, 33);
    if (!equal(commitment(this.version, e0), this.frames.hello.subarray(3, 35))) this.fail('bad_commitment');
    const dh = x25519(/** @type {Uint8Array} */ (this.ephemeral), e0);
    if (!dh || dh.every((b) => b === 0)) this.fail('bad_key', 'a low-order X25519 key');
    this.e0 = e0.slice();
    this.#schedule(dh, this.e0);
    this.#checkMac(reveal.subarray(33, 65), this.keys['confirm 0']);
    const plain = aeadOpen(this.keys['identity 0'], new Uint8Array(12), this.hk, reveal.subarray(65));
    if (!plain) this.fail('key_confirmation_failed', 'identity block 0 does not open');
    const { key, name } = this.#parseBlock(plain, 0);
    this.peerKeys = [key, this.identity.publicKey];
    this.names = [name, this.name];
    this.frames.reveal = reveal;
    const { ha, handshakeHash } = sessionIds(this.version, this.hk, [key, this.identity.publicKey], this.names);
    this.ha = ha;
    this.handshakeHash = handshakeHash;
    this.#laterKeys();
    const sig1 = this.identity.sign(handshakeStatement(this.version, 1, handshakeHash));
    this.signatures[1] = sig1;
    const mac1 = hmac(this.keys['confirm 1'], this.hk);
    const name1 = utf8(this.name);
    const block1 = aeadSeal(this.keys['identity 1'], new Uint8Array(12), ha, concat(this.identity.publicKey, u8(name1.length), name1, sig1));
    this.state = STATE.AWAITING_SIGN;
    return [this.#send(concat(u8(KIND.CONFIRM), mac1, block1))];
  }

  /** @param {Uint8Array} confirm */
  #onConfirm(confirm) {
    if (confirm.length < 146 || confirm.length > 274) this.fail('bad_frame', 'CONFIRM length');
    this.#checkMac(confirm.subarray(1, 33), this.keys['confirm 1']);
    // BLOCK1's key is salted with h_a, which seat 0 knows from its own identity.
    this.ha = mix(mix(this.hk, this.identity.publicKey), utf8(this.name));
    const k1 = derive(this.version, this.#ikm(), this.ha, 'identity 1');
    this.keys['identity 1'] = k1;
    const plain = aeadOpen(k1, new Uint8Array(12), this.ha, confirm.subarray(33));
    if (!plain) this.fail('key_confirmation_failed', 'identity block 1 does not open');
    const { key, name, signature } = this.#parseBlock(plain, 1);
    this.peerKeys = [this.identity.publicKey, key];
    this.names = [this.name, name];
    const { handshakeHash } = sessionIds(this.version, this.hk, [this.identity.publicKey, key], this.names);
    this.handshakeHash = handshakeHash;
    if (!ed25519Verify(key, handshakeStatement(this.version, 1, handshakeHash), /** @type {Uint8Array} */ (signature))) {
      this.fail('bad_signature', 'seat 1 handshake signature');
    }
    this.signatures[1] = /** @type {Uint8Array} */ (signature);
    this.#laterKeys();
    const sig0 = this.identity.sign(handshakeStatement(this.version, 0, handshakeHash));
    this.signatures[0] = sig0;
    const sign = concat(u8(KIND.SIGN), aeadSeal(this.keys['signature 0'], new Uint8Array(12), handshakeHash, sig0));
    this.sent.push(sign);
    this.#finish(sign);
    return [];
  }

  /** @param {Uint8Array} sign */
  #onSign(sign) {
    if (sign.length !== 81) this.fail('bad_frame', 'SIGN length');
    const sig0 = aeadOpen(this.keys['signature 0'], new Uint8Array(12), this.handshakeHash, sign.subarray(1));
    if (!sig0) this.fail('key_confirmation_failed', 'the SIGN frame does not open');
    if (!ed25519Verify(/** @type {Uint8Array} */ (this.peerKeys[0]), handshakeStatement(this.version, 0, this.handshakeHash), sig0)) {
      this.fail('bad_signature', 'seat 0 handshake signature');
    }
    this.signatures[0] = sig0;
    this.#finish(null);
    return [];
  }

  /**
   * An opened identity block: key || u8(len) || name [|| signature] (spec/protocol.md §5.2).
   * @param {Uint8Array} plain @param {0 | 1} seat
   */
  #parseBlock(plain, seat) {
    const len = plain.length >= 33 ? plain[32] : -1;
    const expected = 33 + len + (seat === 1 ? 64 : 0);
    if (len < 0 || len > 128 || plain.length !== expected) this.fail('bad_frame', `identity block ${seat} layout`);
    const key = plain.slice(0, 32);
    if (!isValidIdentityKey(key)) this.fail('bad_key', 'an identity key outside the prime-order subgroup');
    if (equal(key, this.identity.publicKey)) this.fail('bad_key', 'the peer has our own identity key');
    let name;
    try {
      name = fromUtf8(plain.subarray(33, 33 + len));
    } catch {
      this.fail('bad_name', `seat ${seat}'s name is not UTF-8`);
    }
    const problem = nameProblem(name);
    if (problem) this.fail('bad_name', `seat ${seat}: ${problem}`);
    return { key, name, signature: seat === 1 ? plain.slice(33 + len) : null };
  }

  /** @param {Uint8Array} mac @param {Uint8Array} key */
  #checkMac(mac, key) {
    if (!macEqual(mac, hmac(key, this.hk))) this.fail(this.mode ? 'pake_failed' : 'key_confirmation_failed');
  }

  #ikm() {
    return this.spakeKey ? concat(/** @type {Uint8Array} */ (this.dh), this.spakeKey) : /** @type {Uint8Array} */ (this.dh);
  }

  /** @param {Uint8Array} dh @param {Uint8Array} e0 */
  #schedule(dh, e0) {
    const { hk } = transcriptHashes(this.version, this.room, this.frames.hello, this.frames.reply, e0);
    this.hk = hk;
    this.dh = dh;
    const ikm = this.#ikm();
    for (const l of ['confirm 0', 'confirm 1', 'identity 0']) this.keys[l] = derive(this.version, ikm, hk, l);
    this.sasBytes = this.mode === 0 ? derive(this.version, ikm, hk, 'sas', 5) : null;
  }

  /** The keys salted with h_a and the handshake hash. */
  #laterKeys() {
    const ikm = this.#ikm();
    this.keys['identity 1'] = derive(this.version, ikm, this.ha, 'identity 1');
    for (const l of ['signature 0', 'send 0', 'send 1']) this.keys[l] = derive(this.version, ikm, this.handshakeHash, l);
  }

  /** @param {Uint8Array | null} pendingSign */
  #finish(pendingSign) {
    const keys = /** @type {[Uint8Array, Uint8Array]} */ (this.peerKeys);
    const { sessionId } = sessionIds(this.version, this.hk, keys, this.names);
    const record = {
      version: this.version, room: this.room, hello: this.frames.hello, reply: this.frames.reply,
      reveal: /** @type {Uint8Array} */ (this.e0), keys: [keys[0], keys[1]], names: [this.names[0], this.names[1]],
      signatures: [/** @type {Uint8Array} */ (this.signatures[0]), /** @type {Uint8Array} */ (this.signatures[1])],
    };
    const sasBytes = this.sasBytes ?? null;
    this.result = {
      version: this.version, seat: this.seat, room: this.room, mode: /** @type {0 | 1} */ (this.mode),
      sendSecrets: [this.keys['send 0'], this.keys['send 1']], identityKeys: keys, names: this.names,
      handshakeHash: this.handshakeHash, sessionId, sas: sasBytes ? sasString(sasBytes) : null, sasBytes,
      record, recordBytes: encode(record), sent: this.sent, received: this.received, pendingSign,
    };
    this.state = STATE.DONE;
  }
}

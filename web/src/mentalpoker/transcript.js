// The Fiat-Shamir transcript (spec/crypto.md §3): a running SHA-512 over tagged, length-prefixed
// items, so no two sequences of items hash alike.
import { concat, u32be, u64be, u8, utf8 } from '../bytes.js';
import { reduce, sha512 } from './group.js';
import { UsageError } from './errors.js';

const TAG = Object.freeze({
  domain: 0x00, bytes: 0x01, uint: 0x02, text: 0x03, points: 0x04, scalars: 0x05, challenge: 0x06, nonce: 0x07,
});

const DOMAIN_PREFIX = 'koikoi-p2p/mentalpoker/v1/transcript/';

/**
 * The context every proof absorbs first (spec/crypto.md §3.2).
 * @typedef {{version: number, sessionId: Uint8Array, round: number, step: 'key' | 'shuffle' | 'share', prover: number}} ProofContext
 */

/**
 * item(tag, label, value) = u8(tag) || u8(len(label)) || label || u32be(len(value)) || value
 * @param {number} tag @param {string} label @param {Uint8Array} value
 */
export function item(tag, label, value) {
  const l = utf8(label);
  if (l.length > 255) throw new UsageError('bad_argument', 'label longer than 255 bytes');
  return concat(u8(tag), u8(l.length), l, u32be(value.length), value);
}

/**
 * Check a proof context (a bug of the caller otherwise: `bad_context`).
 * @param {ProofContext} ctx
 */
export function checkContext(ctx) {
  const ok = Number.isInteger(ctx.version) && ctx.version >= 0
    && ctx.sessionId instanceof Uint8Array && ctx.sessionId.length >= 16 && ctx.sessionId.length <= 64
    && Number.isInteger(ctx.round) && ctx.round >= 0
    && ['key', 'shuffle', 'share'].includes(ctx.step)
    && (ctx.prover === 0 || ctx.prover === 1);
  if (!ok) throw new UsageError('bad_context');
}

export class Transcript {
  /** @param {string} proof "key", "dleq", "shuffle" (or any name, for tests) */
  constructor(proof) {
    /** @type {Uint8Array[]} */
    this.parts = [];
    this.parts.push(item(TAG.domain, 'proof', utf8(DOMAIN_PREFIX + proof)));
  }

  /** @param {Uint8Array} data */
  absorb(data) {
    this.parts.push(data);
  }

  /**
   * The context, right after the domain item (spec/crypto.md §3.2).
   * @param {ProofContext} ctx
   */
  context(ctx) {
    checkContext(ctx);
    this.uint('version', ctx.version);
    this.bytes('session_id', ctx.sessionId);
    this.uint('round', ctx.round);
    this.text('step', ctx.step);
    this.uint('prover', ctx.prover);
    return this;
  }

  /** @param {string} label @param {Uint8Array} value */
  bytes(label, value) {
    this.absorb(item(TAG.bytes, label, value));
    return this;
  }

  /** @param {string} label @param {number | bigint} value */
  uint(label, value) {
    this.absorb(item(TAG.uint, label, u64be(value)));
    return this;
  }

  /** @param {string} label @param {string} value */
  text(label, value) {
    this.absorb(item(TAG.text, label, utf8(value)));
    return this;
  }

  /** @param {string} label @param {Uint8Array | Uint8Array[]} value */
  points(label, value) {
    this.absorb(item(TAG.points, label, Array.isArray(value) ? concat(...value) : value));
    return this;
  }

  /** @param {string} label @param {Uint8Array | Uint8Array[]} value */
  scalars(label, value) {
    this.absorb(item(TAG.scalars, label, Array.isArray(value) ? concat(...value) : value));
    return this;
  }

  /** Every byte absorbed so far. */
  state() {
    const all = concat(...this.parts);
    this.parts = [all];
    return all;
  }

  /**
   * c = H(state || item(0x06, label, "")); then item(0x06, label, c) is absorbed (spec/crypto.md §3.3).
   * @param {string} label
   */
  challenge(label) {
    const c = sha512(concat(this.state(), item(TAG.challenge, label, new Uint8Array(0))));
    this.absorb(item(TAG.challenge, label, c));
    return c;
  }

  /** A full challenge scalar LE(c) mod L. @param {string} label */
  challengeScalar(label) {
    return reduce(this.challenge(label));
  }

  /**
   * n challenge scalars: seed = challenge(label), u_j = LE(H(seed || u32be(j))) mod L.
   * @param {string} label @param {number} n
   */
  challengeScalars(label, n) {
    const seed = this.challenge(label);
    const out = [];
    for (let j = 0; j < n; j++) out.push(reduce(sha512(concat(seed, u32be(j)))));
    return out;
  }

  /**
   * The hedged nonce of spec/crypto.md §3.4, on a copy of the state (never absorbed):
   * w = LE(H(state || item(0x07, "w", x || rnd))) mod L.
   * @param {Uint8Array} secret @param {Uint8Array} rnd 64 bytes
   */
  hedgedNonce(secret, rnd) {
    return reduce(sha512(concat(this.state(), item(TAG.nonce, 'w', concat(secret, rnd)))));
  }
}

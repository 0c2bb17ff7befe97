// A small seeded random number generator (xoshiro128**, seeded from SHA-256 of a text seed), so
// computer players and tests are deterministic given their seed. Not for secrets: the protocol's
// randomness comes from the crypto layer, never from here.

import { sha256 } from '../rules/sha256.js';

/** A deterministic random source. */
export class Rng {
  /**
   * @param {string | number} seed any text or number; equal seeds give equal sequences
   */
  constructor(seed) {
    const h = sha256(new TextEncoder().encode(`koikoi-p2p/js-rng/${String(seed)}`));
    const v = new DataView(h.buffer);
    /** @type {Uint32Array} */
    this.s = new Uint32Array([v.getUint32(0), v.getUint32(4), v.getUint32(8), v.getUint32(12)]);
    if (this.s.every((x) => x === 0)) this.s[0] = 1;
  }

  /** The next 32-bit unsigned integer. */
  nextU32() {
    const s = this.s;
    const r = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return r;
  }

  /** A float in [0, 1). */
  random() {
    return this.nextU32() / 4294967296;
  }

  /**
   * An integer in [0, n), without modulo bias.
   * @param {number} n 1..2^32
   */
  below(n) {
    if (!(n >= 1 && n <= 4294967296 && Number.isInteger(n))) throw new RangeError('below(n) needs an integer 1..2^32');
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /**
   * One element of a non-empty array.
   * @template T
   * @param {readonly T[]} items
   * @returns {T}
   */
  choice(items) {
    if (items.length === 0) throw new RangeError('choice from an empty list');
    return items[this.below(items.length)];
  }

  /**
   * Shuffle an array in place (Fisher-Yates) and return it.
   * @template T
   * @param {T[]} items
   * @returns {T[]}
   */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = items[i]; items[i] = items[j]; items[j] = t;
    }
    return items;
  }

  /**
   * A new independent generator derived from this one and a label.
   * @param {string} label
   */
  fork(label) {
    return new Rng(`${this.nextU32()}/${this.nextU32()}/${label}`);
  }
}

/**
 * @param {number} x
 * @param {number} k
 */
function rotl(x, k) {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

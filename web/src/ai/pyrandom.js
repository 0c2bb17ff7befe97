// The Mersenne Twister (MT19937) seeded, drawn and shuffled exactly as CPython's `random.Random`
// does for an integer seed: `random()`, `randrange(n)` and `shuffle(list)` return what Python's
// return for the same seed. The strong player (strong.js) draws from this source so that it makes
// the very same choices as koikoi_p2p/ai/strong.py, tie-breaks and koi-koi rollouts included, and
// a parity test can compare the two implementations decision by decision. Not for secrets.
//
// Algorithm: M. Matsumoto and T. Nishimura, "Mersenne Twister: a 623-dimensionally equidistributed
// uniform pseudo-random number generator", ACM TOMACS 8(1), 1998 (init_by_array of 2002-01-26);
// the float and bounded-integer conversions follow CPython's Modules/_randommodule.c and
// Lib/random.py (`random()` from 53 bits, `_randbelow_with_getrandbits` by rejection).

const N = 624;
const M = 397;

/**
 * The 32-bit words of a non-negative integer seed, least significant first ([0] for 0), as
 * CPython's `random_seed` splits `abs(seed)`.
 * @param {number | bigint} seed
 * @returns {number[]}
 */
function seedWords(seed) {
  let n = BigInt(seed);
  if (n < 0n) n = -n;
  const words = [];
  while (n > 0n) {
    words.push(Number(n & 0xffffffffn));
    n >>= 32n;
  }
  return words.length ? words : [0];
}

/** A `random.Random(seed)` of CPython, for the parts computer players use. */
export class PyRandom {
  /**
   * @param {number | bigint} seed an integer (a JS number must be a safe integer)
   */
  constructor(seed) {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) throw new RangeError('PyRandom needs an integer seed');
    /** @type {Uint32Array} */
    this.mt = new Uint32Array(N);
    this.index = N;
    this.initByArray(seedWords(seed));
  }

  /** @param {number} s */
  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  /** @param {number[]} key */
  initByArray(key) {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output (genrand_uint32). */
  nextU32() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A float in [0, 1) from 53 random bits, as `random.random()`. */
  random() {
    const a = this.nextU32() >>> 5;
    const b = this.nextU32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /**
   * `getrandbits(k)` for 1 <= k <= 32.
   * @param {number} k
   */
  getrandbits(k) {
    return this.nextU32() >>> (32 - k);
  }

  /**
   * An integer in [0, n) as `random.randrange(n)` (`_randbelow_with_getrandbits`), n <= 2^32.
   * @param {number} n
   */
  randbelow(n) {
    if (!(Number.isInteger(n) && n >= 1 && n <= 4294967296)) throw new RangeError('randbelow(n) needs an integer 1..2^32');
    const k = Math.floor(Math.log2(n)) + 1; // n.bit_length()
    if (k > 32) return this.nextU32(); // n = 2^32 exactly: every 32-bit word
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /**
   * One element of a non-empty array, as `random.choice`.
   * @template T
   * @param {readonly T[]} items
   * @returns {T}
   */
  choice(items) {
    if (items.length === 0) throw new RangeError('choice from an empty list');
    return items[this.randbelow(items.length)];
  }

  /**
   * Shuffle in place as `random.shuffle` does, and return the array.
   * @template T
   * @param {T[]} items
   * @returns {T[]}
   */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = items[i]; items[i] = items[j]; items[j] = t;
    }
    return items;
  }
}

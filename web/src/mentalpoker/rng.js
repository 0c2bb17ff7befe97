// Random sources (spec/crypto.md §2.4): the platform's CSPRNG, and the reproducible byte stream of
// spec/crypto.md §9.1 used by the vectors.
import { concat, u64be, utf8 } from '../bytes.js';
import { sha512 } from './group.js';

/**
 * The operating system's (or browser's) CSPRNG.
 * @type {import('./group.js').RandomSource}
 */
export function systemRandom(n) {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) globalThis.crypto.getRandomValues(out.subarray(off, Math.min(n, off + 65536)));
  return out;
}

/**
 * stream(seed) = H(seed || u64be(0)) || H(seed || u64be(1)) || ... with H = SHA-512; each draw
 * takes the next bytes of the stream (spec/crypto.md §9.1).
 * @param {string | Uint8Array} seed
 * @returns {import('./group.js').RandomSource}
 */
export function vectorStream(seed) {
  const s = typeof seed === 'string' ? utf8(seed) : seed;
  let counter = 0;
  /** @type {Uint8Array} */
  let buffer = new Uint8Array(0);
  return (n) => {
    while (buffer.length < n) buffer = concat(buffer, sha512(concat(s, u64be(counter++))));
    const out = buffer.slice(0, n);
    buffer = buffer.slice(n);
    return out;
  };
}

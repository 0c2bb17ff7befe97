// Published points and public randomness (spec/crypto.md §2.5): hashed from public labels, so no
// one knows a discrete-logarithm relation between them (§10.1). Computed once per n and cached.
import { concat, toHex, utf8 } from '../bytes.js';
import { add, hashToPoint, isZeroScalar, reduce, sha512 } from './group.js';
import { DegenerateError } from './errors.js';

/** @type {Map<string, Uint8Array>} */
const cache = new Map();

/** @param {string} label */
function cached(label) {
  let p = cache.get(label);
  if (!p) {
    p = hashToPoint(utf8(label));
    cache.set(label, p);
  }
  return p;
}

/** Card point M_i = hash_to_point("card/{i}"). @param {number} i */
export function cardPoint(i) {
  return cached(`card/${i}`);
}

/** Commitment base h = hash_to_point("shuffle/h"). */
export function commitmentBase() {
  return cached('shuffle/h');
}

/** Commitment base h_i = hash_to_point("shuffle/h/{i}"), i = 1..n. @param {number} i */
export function commitmentBaseAt(i) {
  return cached(`shuffle/h/${i}`);
}

/** @type {Map<number, Uint8Array>} */
const basesSums = new Map();

/** h_1 + ... + h_n, computed once per n. @param {number} n */
export function commitmentBasesSum(n) {
  let total = basesSums.get(n);
  if (!total) {
    total = commitmentBaseAt(1);
    for (let i = 2; i <= n; i++) total = add(total, commitmentBaseAt(i));
    basesSums.set(n, total);
  }
  return total;
}

const START_DOMAIN = utf8('koikoi-p2p/mentalpoker/v1/start-deck');

/**
 * rho_i = LE(H("koikoi-p2p/mentalpoker/v1/start-deck" || 0x00 || "card/{i}")) mod L.
 * @param {number} i
 */
export function startRandomness(i) {
  const rho = reduce(sha512(concat(START_DOMAIN, Uint8Array.of(0), utf8(`card/${i}`))));
  if (isZeroScalar(rho)) throw new DegenerateError('rho_i is zero');
  return rho;
}

/** @type {Map<string, number>} */
const cardIndex = new Map();

/**
 * The index of a card point among M_0..M_{n-1}, or -1 (hex of the point as the key).
 * @param {Uint8Array} point @param {number} n
 */
export function cardIndexOf(point, n) {
  if (cardIndex.size < n) {
    for (let i = 0; i < n; i++) cardIndex.set(toHex(cardPoint(i)), i);
  }
  const i = cardIndex.get(toHex(point));
  return i === undefined || i >= n ? -1 : i;
}

// ElGamal under a joint key (spec/crypto.md §4; Barnett-Smart 2003). A ciphertext is a || b, 64 bytes.
import { add, baseMul, mul, sub } from './group.js';
import { cardPoint, startRandomness } from './generators.js';
import { concat } from '../bytes.js';

export const CIPHERTEXT_BYTES = 64;

/**
 * @typedef {{a: Uint8Array, b: Uint8Array}} Ciphertext
 */

/**
 * Enc(pk, M; r) = (r*G, M + r*pk).
 * @param {Uint8Array} pk @param {Uint8Array} m @param {Uint8Array} r
 * @returns {Ciphertext}
 */
export function encrypt(pk, m, r) {
  return { a: baseMul(r), b: add(m, mul(r, pk)) };
}

/**
 * ReRand(pk, (a, b); r) = (a + r*G, b + r*pk).
 * @param {Uint8Array} pk @param {Ciphertext} e @param {Uint8Array} r
 * @returns {Ciphertext}
 */
export function rerandomise(pk, e, r) {
  return { a: add(e.a, baseMul(r)), b: add(e.b, mul(r, pk)) };
}

/**
 * A decryption share d = x*a.
 * @param {Uint8Array} x @param {Ciphertext} e
 */
export function share(x, e) {
  return mul(x, e.a);
}

/**
 * M = b - d_0 - d_1 (or b - d for the joint secret's share).
 * @param {Ciphertext} e @param {Uint8Array[]} shares
 */
export function open(e, shares) {
  let m = e.b;
  for (const d of shares) m = sub(m, d);
  return m;
}

/**
 * The public starting deck: position i is (rho_i*G, M_i + rho_i*pk) (spec/crypto.md §4.3).
 * @param {Uint8Array} pk @param {number} n
 * @returns {Ciphertext[]}
 */
export function startingDeck(pk, n) {
  const deck = [];
  for (let i = 0; i < n; i++) deck.push(encrypt(pk, cardPoint(i), startRandomness(i)));
  return deck;
}

/** @param {Ciphertext[]} deck */
export function encodeDeck(deck) {
  return concat(...deck.flatMap((e) => [e.a, e.b]));
}

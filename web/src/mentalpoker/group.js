// The prime-order subgroup of edwards25519 through libsodium (spec/crypto.md §2). Points and
// scalars are 32-byte Uint8Arrays; every operation is libsodium's, so results are byte-identical
// to PyNaCl's. BigInt appears only where a scalar is compared with L.
import { sodium } from '../sodium.js';
import { concat, utf8 } from '../bytes.js';
import { DegenerateError, VerificationError } from './errors.js';

export const POINT_BYTES = 32;
export const SCALAR_BYTES = 32;

/** The group order L = 2^252 + 27742317777372353535851937790883648493 (spec/crypto.md §2.1). */
export const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/** L as 32 little-endian bytes. */
const L_BYTES = scalarFromBigInt(L, false);

/** The encoding of the standard base point G. */
export const BASE_POINT = new Uint8Array([
  0x58, ...new Array(31).fill(0x66),
]);

/** The encoding of the identity (never a valid received point). */
export const IDENTITY = new Uint8Array(32);
IDENTITY[0] = 1;

const HASH_TO_POINT_DST = utf8('koikoi-p2p/mentalpoker/v1/hash-to-point');

/**
 * A point received from outside, validated (spec/crypto.md §2.2): 32 bytes, canonical, on the
 * curve, in the prime-order subgroup, not of small order (libsodium's is_valid_point).
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function decodePoint(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== POINT_BYTES) {
    throw new VerificationError('invalid_point', 'a point is 32 bytes');
  }
  if (!sodium().crypto_core_ed25519_is_valid_point(bytes)) {
    throw new VerificationError('invalid_point');
  }
  return bytes.slice();
}

/**
 * Whether `bytes` is a valid point (spec/crypto.md §2.2).
 * @param {Uint8Array} bytes
 */
export function isValidPoint(bytes) {
  return bytes.length === POINT_BYTES && sodium().crypto_core_ed25519_is_valid_point(bytes);
}

/**
 * A scalar received from outside (spec/crypto.md §2.2): 32 bytes, LE(s) < L. Zero is accepted here.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function decodeScalar(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== SCALAR_BYTES) {
    throw new VerificationError('invalid_scalar', 'a scalar is 32 bytes');
  }
  // Compare little-endian from the top byte down.
  for (let i = SCALAR_BYTES - 1; i >= 0; i--) {
    if (bytes[i] < L_BYTES[i]) return bytes.slice();
    if (bytes[i] > L_BYTES[i]) break;
  }
  throw new VerificationError('invalid_scalar', 'not below L');
}

/** @param {Uint8Array} s */
export function isZeroScalar(s) {
  for (const b of s) if (b !== 0) return false;
  return true;
}

/**
 * LE(bytes) mod L for 64 bytes (or fewer, zero-extended).
 * @param {Uint8Array} bytes
 */
export function reduce(bytes) {
  if (bytes.length === 64) return sodium().crypto_core_ed25519_scalar_reduce(bytes);
  const wide = new Uint8Array(64);
  wide.set(bytes);
  return sodium().crypto_core_ed25519_scalar_reduce(wide);
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function scalarAdd(a, b) {
  return sodium().crypto_core_ed25519_scalar_add(a, b);
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function scalarSub(a, b) {
  return sodium().crypto_core_ed25519_scalar_sub(a, b);
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function scalarMul(a, b) {
  return sodium().crypto_core_ed25519_scalar_mul(a, b);
}

/** @param {Uint8Array} a */
export function scalarNegate(a) {
  return sodium().crypto_core_ed25519_scalar_negate(a);
}

/** The scalar 1. */
export const ONE = scalarFromBigInt(1n);

/**
 * A scalar from a non-negative integer below L.
 * @param {bigint} value
 * @param {boolean} [check]
 */
export function scalarFromBigInt(value, check = true) {
  if (check && (value < 0n || value >= L)) throw new RangeError('scalar out of range');
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/**
 * LE(bytes) as a BigInt.
 * @param {Uint8Array} bytes
 */
export function scalarToBigInt(bytes) {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/**
 * P + Q.
 * @param {Uint8Array} p @param {Uint8Array} q
 */
export function add(p, q) {
  return sodium().crypto_core_ed25519_add(p, q);
}

/**
 * P - Q.
 * @param {Uint8Array} p @param {Uint8Array} q
 */
export function sub(p, q) {
  return sodium().crypto_core_ed25519_sub(p, q);
}

/**
 * s*P (libsodium noclamp). libsodium refuses a zero scalar, an identity result and a point
 * outside the prime-order subgroup: that is a degenerate operation (spec/crypto.md §2.6).
 * @param {Uint8Array} s @param {Uint8Array} p
 */
export function mul(s, p) {
  try {
    return sodium().crypto_scalarmult_ed25519_noclamp(s, p);
  } catch {
    throw new DegenerateError('scalar multiplication refused');
  }
}

/**
 * s*G (libsodium noclamp); degenerate for s = 0.
 * @param {Uint8Array} s
 */
export function baseMul(s) {
  try {
    return sodium().crypto_scalarmult_ed25519_base_noclamp(s);
  } catch {
    throw new DegenerateError('base multiplication refused');
  }
}

/**
 * Σ s_i*P_i, multiplied one by one (libsodium has no multi-scalar multiplication).
 * @param {Uint8Array[]} scalars @param {Uint8Array[]} points
 */
export function sumOfProducts(scalars, points) {
  let acc = mul(scalars[0], points[0]);
  for (let i = 1; i < scalars.length; i++) acc = add(acc, mul(scalars[i], points[i]));
  return acc;
}

/**
 * Σ P_i.
 * @param {Uint8Array[]} points
 */
export function sum(points) {
  let acc = points[0];
  for (let i = 1; i < points.length; i++) acc = add(acc, points[i]);
  return acc;
}

/**
 * libsodium's crypto_core_ed25519_from_uniform (Elligator 2, then the cofactor).
 * @param {Uint8Array} r 32 bytes
 */
export function fromUniform(r) {
  return sodium().crypto_core_ed25519_from_uniform(r);
}

/**
 * hash_to_point(label) = from_uniform(SHA-512(DST || 0x00 || label)[0:32]) (spec/crypto.md §2.3).
 * @param {Uint8Array} label
 */
export function hashToPoint(label) {
  const uniform = sodium().crypto_hash_sha512(concat(HASH_TO_POINT_DST, Uint8Array.of(0), label)).slice(0, 32);
  const point = fromUniform(uniform);
  if (!isValidPoint(point)) throw new DegenerateError('hash_to_point gave the identity');
  return point;
}

/**
 * SHA-512.
 * @param {Uint8Array} data
 */
export function sha512(data) {
  return sodium().crypto_hash_sha512(data);
}

/**
 * HMAC-SHA-512 (RFC 2104) with a key of any length.
 * @param {Uint8Array} key @param {Uint8Array} data
 */
export function hmacSha512(key, data) {
  const s = sodium();
  const state = s.crypto_auth_hmacsha512_init(key);
  s.crypto_auth_hmacsha512_update(state, data);
  return s.crypto_auth_hmacsha512_final(state);
}

/**
 * A source of random bytes: `rng(n)` returns n fresh bytes.
 * @typedef {(n: number) => Uint8Array} RandomSource
 */

/**
 * A random non-zero scalar: 64 bytes reduced mod L, drawn again on zero (spec/crypto.md §2.4).
 * @param {RandomSource} rng
 */
export function randomScalar(rng) {
  for (;;) {
    const s = reduce(rng(64));
    if (!isZeroScalar(s)) return s;
  }
}

/**
 * A uniform integer in [0, m) by rejection on 4 bytes (spec/crypto.md §2.4).
 * @param {RandomSource} rng @param {number} m
 */
export function uniformInt(rng, m) {
  const limit = 2 ** 32 - (2 ** 32 % m);
  for (;;) {
    const b = rng(4);
    const v = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    if (v < limit) return v % m;
  }
}

/**
 * A random permutation of 0..n-1 (Fisher-Yates, Durstenfeld's form, spec/crypto.md §2.4).
 * @param {RandomSource} rng @param {number} n
 * @returns {number[]}
 */
export function randomPermutation(rng, n) {
  const items = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i >= 1; i--) {
    const j = uniformInt(rng, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

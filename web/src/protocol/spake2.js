// SPAKE2 exactly as the python-spake2 package (version 0.9) builds it with its default Ed25519
// parameters (spec/protocol.md §5.4), on libsodium's group operations. Side A is seat 0, side B
// seat 1. BigInt is used only for the public constants (M, N) and for reducing the password hash
// and the drawn bytes, which that package reads as big-endian integers.
import { concat, utf8 } from '../bytes.js';
import { add, baseMul, isValidPoint, mul, scalarFromBigInt, scalarNegate, L } from '../mentalpoker/group.js';
import { hkdf, sha256 } from './primitives.js';

const Q = (1n << 255n) - 19n;

/** @param {bigint} a @param {bigint} e */
function powMod(a, e) {
  let result = 1n;
  let base = ((a % Q) + Q) % Q;
  let exp = e;
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % Q;
    base = (base * base) % Q;
    exp >>= 1n;
  }
  return result;
}

/** @param {bigint} a */
const mod = (a) => ((a % Q) + Q) % Q;
const D = mod(-121665n * powMod(121666n, Q - 2n));
const SQRT_M1 = powMod(2n, (Q - 1n) / 4n);

/** The package's xrecover: the even x for y (not checked to be on the curve). @param {bigint} y */
function xrecover(y) {
  const xx = mod((y * y - 1n) * powMod(D * y * y + 1n, Q - 2n));
  let x = powMod(xx, (Q + 3n) / 8n);
  if (mod(x * x - xx) !== 0n) x = mod(x * SQRT_M1);
  if (x % 2n !== 0n) x = Q - x;
  return x;
}

/** @param {bigint} x @param {bigint} y */
function onCurve(x, y) {
  return mod(-x * x + y * y - 1n - D * x * x * y * y) === 0n;
}

/** RFC 8032 encoding of an affine point. @param {bigint} x @param {bigint} y */
function encodePoint(x, y) {
  return scalarFromBigInt(y | ((x & 1n) << 255n), false);
}

/** Big-endian integer of bytes. @param {Uint8Array} b */
function bigEndian(b) {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return v;
}

/**
 * The package's arbitrary_element(seed): y = HKDF-SHA-256(seed, salt "", info "SPAKE2 arbitrary
 * element", 48 bytes) read big-endian, mod p; the first y, y+1, ... with an on-curve point (x even)
 * whose multiple by 8 is not the identity; the result is 8 times that point.
 * @param {Uint8Array} seed
 */
export function arbitraryElement(seed) {
  const y0 = bigEndian(hkdf(seed, new Uint8Array(0), utf8('SPAKE2 arbitrary element'), 48)) % Q;
  for (let plus = 0n; ; plus++) {
    const y = (y0 + plus) % Q;
    const x = xrecover(y);
    if (!onCurve(x, y)) continue;
    // Doubling by point addition: libsodium's add accepts any point on the curve, while its
    // scalar multiplication only takes points of the prime-order subgroup.
    /** @type {Uint8Array} */
    let p = encodePoint(x, y);
    for (let i = 0; i < 3; i++) p = add(p, p);
    if (!isValidPoint(p)) continue;
    return p;
  }
}

/** @type {{M: Uint8Array, N: Uint8Array} | null} */
let params = null;

/** The package's M and N (seeds "M" and "N"). */
export function spake2Params() {
  if (!params) params = { M: arbitraryElement(utf8('M')), N: arbitraryElement(utf8('N')) };
  return params;
}

/**
 * password_to_scalar: HKDF-SHA-256(password, salt "", info "SPAKE2 pw", 48 bytes), big-endian, mod L.
 * @param {Uint8Array} password
 */
export function passwordToScalar(password) {
  return scalarFromBigInt(bigEndian(hkdf(password, new Uint8Array(0), utf8('SPAKE2 pw'), 48)) % L);
}

export const SIDE_A = 0x41;
export const SIDE_B = 0x42;

export class Spake2Error extends Error {
  /** @param {string} detail */
  constructor(detail) {
    super(detail);
    this.name = 'Spake2Error';
  }
}

/**
 * One side of a SPAKE2 exchange.
 */
export class Spake2 {
  /**
   * @param {'A' | 'B'} side
   * @param {Uint8Array} password @param {Uint8Array} idA @param {Uint8Array} idB
   * @param {(n: number) => Uint8Array} entropy draws the 64 bytes of the scalar
   */
  constructor(side, password, idA, idB, entropy) {
    this.side = side;
    this.password = password;
    this.idA = idA;
    this.idB = idB;
    this.pw = passwordToScalar(password);
    // random_scalar: 64 bytes read big-endian, mod L.
    this.xy = scalarFromBigInt(bigEndian(entropy(64)) % L);
    const { M, N } = spake2Params();
    const blinding = side === 'A' ? M : N;
    /** The outbound element X* (side A) or Y* (side B). */
    this.element = add(baseMul(this.xy), mul(this.pw, blinding));
    this.finished = false;
  }

  /** The message: side byte || element (33 bytes). */
  message() {
    return concat(Uint8Array.of(this.side === 'A' ? SIDE_A : SIDE_B), this.element);
  }

  /**
   * Finish with the other side's message; returns the 32-byte key
   * H(H(pw) || H(idA) || H(idB) || X* || Y* || K). Raises Spake2Error on a message of the wrong
   * side or length, an element outside the prime-order subgroup, or a reflected element.
   * @param {Uint8Array} inbound
   */
  finish(inbound) {
    if (this.finished) throw new Spake2Error('finish() twice');
    this.finished = true;
    const expected = this.side === 'A' ? SIDE_B : SIDE_A;
    if (inbound.length !== 33 || inbound[0] !== expected) throw new Spake2Error('a message of the wrong side or length');
    const element = inbound.subarray(1);
    if (!isValidPoint(element)) throw new Spake2Error('an element outside the prime-order subgroup');
    if (element.every((b, i) => b === this.element[i])) throw new Spake2Error('our own element reflected');
    const { M, N } = spake2Params();
    const unblinding = this.side === 'A' ? N : M;
    let k;
    try {
      k = mul(this.xy, add(element, mul(scalarNegate(this.pw), unblinding)));
    } catch {
      throw new Spake2Error('degenerate element');
    }
    const [xMsg, yMsg] = this.side === 'A' ? [this.element, element] : [element, this.element];
    /** K, kept for the vectors */
    this.sharedElement = k;
    return sha256(concat(sha256(this.password), sha256(this.idA), sha256(this.idB), xMsg, yMsg, k));
  }
}

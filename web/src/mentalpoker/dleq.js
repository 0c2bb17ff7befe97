// Decryption shares with one batched Chaum-Pedersen proof (spec/crypto.md §7; Chaum-Pedersen 1992).
// Share message: d_1 || ... || d_k || c || s, 32k + 64 bytes.
import { concat, equal, u16be } from '../bytes.js';
import {
  baseMul, decodePoint, decodeScalar, isZeroScalar, mul, scalarAdd, scalarMul, scalarSub, sub,
} from './group.js';
import { Transcript } from './transcript.js';
import { DegenerateError, UsageError, VerificationError } from './errors.js';

/** @param {number} k */
export function shareMessageBytes(k) {
  return 32 * k + 64;
}

/** @param {number[]} positions */
function checkPositions(positions) {
  if (positions.length < 1) throw new UsageError('bad_position', 'at least one position');
  const seen = new Set();
  for (const p of positions) {
    if (!Number.isInteger(p) || p < 0 || p >= 65536 || seen.has(p)) {
      throw new UsageError('bad_position', 'positions are distinct and below 2^16');
    }
    seen.add(p);
  }
}

/**
 * The statement part of the transcript: context; pk; positions; a; d.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {number[]} positions @param {Uint8Array[]} bases @param {Uint8Array[]} shares
 */
function statement(ctx, pk, positions, bases, shares) {
  return new Transcript('dleq').context(ctx).points('pk', pk)
    .bytes('positions', concat(...positions.map(u16be)))
    .points('a', bases).points('d', shares);
}

/**
 * Compute the shares d_j = x*a_j and their proof.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} x
 * @param {number[]} positions @param {Uint8Array[]} bases
 * @param {import('./group.js').RandomSource} rng draws the 64 bytes of the hedged nonce
 */
export function proveShares(ctx, x, positions, bases, rng) {
  checkPositions(positions);
  if (bases.length !== positions.length) throw new UsageError('bad_argument', 'one base per position');
  const pk = baseMul(x);
  const shares = bases.map((a) => mul(x, a));
  const t = statement(ctx, pk, positions, bases, shares);
  let w;
  do w = t.hedgedNonce(x, rng(64)); while (isZeroScalar(w));
  t.points('T', [baseMul(w), ...bases.map((a) => mul(w, a))]);
  const c = t.challengeScalar('c');
  const s = scalarAdd(w, scalarMul(c, x));
  return concat(...shares, c, s);
}

/**
 * The commitments T_0 = s*G - c*pk, T_j = s*a_j - c*d_j of a share proof (spec/crypto.md §7).
 * @param {Uint8Array} pk @param {Uint8Array[]} bases @param {Uint8Array[]} shares @param {Uint8Array} c @param {Uint8Array} s
 */
function commitmentsOf(pk, bases, shares, c, s) {
  const out = [sub(baseMul(s), mul(c, pk))];
  for (let j = 0; j < bases.length; j++) out.push(sub(mul(s, bases[j]), mul(c, shares[j])));
  return out;
}

/**
 * The same commitments from the sharer's disclosed secret x (an auditor, spec/crypto.md §8.5):
 * when every d_j = x*a_j, T_0 = (s - c x)*G and T_j = (s - c x)*a_j. Null where that shortcut
 * does not apply (a share that is not x*a_j, a zero scalar): the general way judges those.
 * @param {Uint8Array} x @param {Uint8Array[]} bases @param {Uint8Array[]} shares @param {Uint8Array} c @param {Uint8Array} s
 */
function commitmentsFromSecret(x, bases, shares, c, s) {
  if (isZeroScalar(c) || isZeroScalar(s)) return null;
  for (let j = 0; j < bases.length; j++) if (!equal(mul(x, bases[j]), shares[j])) return null;
  const e = scalarSub(s, scalarMul(c, x));
  if (isZeroScalar(e)) return null;
  return [baseMul(e), ...bases.map((a) => mul(e, a))];
}

/**
 * Verify a share message; returns the shares. Raises VerificationError: invalid_length,
 * invalid_point, invalid_scalar, bad_share_proof.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk the sharer's key
 * @param {number[]} positions @param {Uint8Array[]} bases @param {Uint8Array} message
 * @returns {Uint8Array[]}
 */
export function verifyShares(ctx, pk, positions, bases, message) {
  checkPositions(positions);
  const k = positions.length;
  if (message.length !== shareMessageBytes(k)) throw new VerificationError('invalid_length', 'share message length');
  const shares = [];
  for (let j = 0; j < k; j++) shares.push(decodePoint(message.subarray(32 * j, 32 * j + 32)));
  const c = decodeScalar(message.subarray(32 * k, 32 * k + 32));
  const s = decodeScalar(message.subarray(32 * k + 32, 32 * k + 64));
  /** @type {Uint8Array[]} */
  let commitments;
  try {
    commitments = commitmentsOf(pk, bases, shares, c, s);
  } catch (e) {
    if (e instanceof DegenerateError) throw new VerificationError('bad_share_proof', 'degenerate');
    throw e;
  }
  const t = statement(ctx, pk, positions, bases, shares);
  t.points('T', commitments);
  if (!equal(t.challengeScalar('c'), c)) throw new VerificationError('bad_share_proof', 'the decryption shares do not verify');
  return shares;
}

/**
 * verifyShares with each share validated once, inside the multiplication it goes into (c*d_j),
 * or, given the sharer's disclosed secret, by d_j = x*a_j itself (spec/crypto.md §8.5); then
 * `checked` says the end-of-round check of these shares is done. On any failure the message is
 * verified again the eager way, for the eager verifier's reason.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {number[]} positions @param {Uint8Array[]} bases @param {Uint8Array} message
 * @param {Uint8Array | null} [secret] the sharer's round secret, verified against pk
 * @returns {{shares: Uint8Array[], checked: boolean}}
 */
export function verifyShareMessage(ctx, pk, positions, bases, message, secret = null) {
  checkPositions(positions);
  const k = positions.length;
  if (message.length === shareMessageBytes(k) && bases.length === k) {
    try {
      const shares = [];
      for (let j = 0; j < k; j++) shares.push(message.slice(32 * j, 32 * j + 32));
      const c = decodeScalar(message.subarray(32 * k, 32 * k + 32));
      const s = decodeScalar(message.subarray(32 * k + 32, 32 * k + 64));
      const fromSecret = secret ? commitmentsFromSecret(secret, bases, shares, c, s) : null;
      const commitments = fromSecret ?? commitmentsOf(pk, bases, shares, c, s);
      const t = statement(ctx, pk, positions, bases, shares);
      t.points('T', commitments);
      if (equal(t.challengeScalar('c'), c)) return { shares, checked: fromSecret !== null };
    } catch {
      // judged again below, the eager way
    }
  }
  return { shares: verifyShares(ctx, pk, positions, bases, message), checked: false };
}

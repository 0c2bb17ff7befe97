// Proof of knowledge of a round key (spec/crypto.md §5; Schnorr 1991).
// Key message: pk || c || s, 96 bytes.
import { concat } from '../bytes.js';
import {
  baseMul, decodePoint, decodeScalar, isZeroScalar, mul, scalarAdd, scalarMul, sub,
} from './group.js';
import { Transcript } from './transcript.js';
import { DegenerateError, VerificationError } from './errors.js';
import { equal } from '../bytes.js';

export const KEY_MESSAGE_BYTES = 96;

/**
 * @param {import('./transcript.js').ProofContext} ctx
 * @param {Uint8Array} pk
 */
function statement(ctx, pk) {
  return new Transcript('key').context(ctx).points('pk', pk);
}

/**
 * Prove knowledge of x with pk = x*G; returns the key message pk || c || s.
 * @param {import('./transcript.js').ProofContext} ctx
 * @param {Uint8Array} x the secret scalar
 * @param {import('./group.js').RandomSource} rng draws the 64 bytes of the hedged nonce (§3.4)
 */
export function proveKey(ctx, x, rng) {
  const pk = baseMul(x);
  const t = statement(ctx, pk);
  let w;
  do w = t.hedgedNonce(x, rng(64)); while (isZeroScalar(w));
  t.points('T', baseMul(w));
  const c = t.challengeScalar('c');
  const s = scalarAdd(w, scalarMul(c, x));
  return concat(pk, c, s);
}

/**
 * Verify a key message; returns pk. Raises VerificationError: invalid_length, invalid_point,
 * invalid_scalar, bad_key_proof.
 * @param {import('./transcript.js').ProofContext} ctx
 * @param {Uint8Array} message
 */
export function verifyKey(ctx, message) {
  if (message.length !== KEY_MESSAGE_BYTES) throw new VerificationError('invalid_length', 'a key message is 96 bytes');
  const pk = decodePoint(message.subarray(0, 32));
  const c = decodeScalar(message.subarray(32, 64));
  const s = decodeScalar(message.subarray(64, 96));
  let tPrime;
  try {
    tPrime = sub(baseMul(s), mul(c, pk));
  } catch (e) {
    if (e instanceof DegenerateError) throw new VerificationError('bad_key_proof', 'degenerate');
    throw e;
  }
  const t = statement(ctx, pk);
  t.points('T', tPrime);
  if (!equal(t.challengeScalar('c'), c)) throw new VerificationError('bad_key_proof', 'the key proof does not verify');
  return pk;
}

// The proof context of spec/crypto.md §3.2, as a value.
import { checkContext } from './transcript.js';

/**
 * @typedef {import('./transcript.js').ProofContext} ProofContext
 */

/**
 * A checked, frozen proof context.
 * @param {number} version @param {Uint8Array} sessionId @param {number} round
 * @param {'key' | 'shuffle' | 'share'} step @param {number} prover
 * @returns {ProofContext}
 */
export function proofContext(version, sessionId, round, step, prover) {
  const ctx = Object.freeze({ version, sessionId, round, step, prover });
  checkContext(ctx);
  return ctx;
}

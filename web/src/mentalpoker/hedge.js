// Hedged randomness (spec/crypto.md §3.5): every draw of a step comes from a pseudorandom stream
// keyed by the party's secret seed over the proof context, the caller's binding (the chain head,
// which commits to everything received) and the step's statement, so a party restored twice and
// shown different inputs draws independently, and identical inputs repeat exactly.
//   K      = HMAC-SHA-512(seed, item(domain) || context items || item(binding) || statement items)
//   stream = HMAC-SHA-512(K, u64be(0)) || HMAC-SHA-512(K, u64be(1)) || ...
import { concat, u64be, utf8 } from '../bytes.js';
import { hmacSha512 } from './group.js';
import { item } from './transcript.js';

export const HEDGE_DOMAIN = 'koikoi-p2p/mentalpoker/v2/hedge';
const TAG = { domain: 0x00, bytes: 0x01, uint: 0x02, text: 0x03, points: 0x04 };

/**
 * @typedef {{type: 'bytes' | 'points', label: string, value: Uint8Array}} StatementItem
 */

/**
 * The byte stream of one step.
 * @param {Uint8Array} seed the party's 32-byte secret seed
 * @param {import('./transcript.js').ProofContext} ctx the step's context (prover = this party)
 * @param {Uint8Array} binding @param {StatementItem[]} statement
 * @returns {import('./group.js').RandomSource}
 */
export function hedgeStream(seed, ctx, binding, statement) {
  const material = concat(
    item(TAG.domain, 'hedge', utf8(HEDGE_DOMAIN)),
    item(TAG.uint, 'version', u64be(ctx.version)),
    item(TAG.bytes, 'session_id', ctx.sessionId),
    item(TAG.uint, 'round', u64be(ctx.round)),
    item(TAG.text, 'step', utf8(ctx.step)),
    item(TAG.uint, 'prover', u64be(ctx.prover)),
    item(TAG.bytes, 'binding', binding),
    ...statement.map((s) => item(s.type === 'points' ? TAG.points : TAG.bytes, s.label, s.value)),
  );
  const key = hmacSha512(seed, material);
  let counter = 0;
  /** @type {Uint8Array} */
  let buffer = new Uint8Array(0);
  return (n) => {
    while (buffer.length < n) buffer = concat(buffer, hmacSha512(key, u64be(counter++)));
    const out = buffer.slice(0, n);
    buffer = buffer.slice(n);
    return out;
  };
}

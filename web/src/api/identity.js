// A fresh long-term identity from the system's randomness (keep its `seed` secret to reuse it:
// `new Identity(seed)`, or a passphrase-sealed file: sealIdentity / openIdentity).
import { Identity } from '../protocol/identity.js';
import { systemRandom } from '../mentalpoker/rng.js';

/** @returns {Identity} */
export function newIdentity() {
  return Identity.generate(systemRandom);
}

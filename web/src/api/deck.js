// koikoi-p2p/deck: the mental-poker deck (spec/crypto.md) for those who build their own game on
// it: a jointly shuffled deck of encrypted cards with proofs of every key, shuffle and share.
// Await `ready()` once before using it.
export { Deck } from '../mentalpoker/deck.js';
export { proofContext } from '../mentalpoker/context.js';
export { MentalPokerError, VerificationError, UsageError, DegenerateError } from '../mentalpoker/errors.js';
export { systemRandom } from '../mentalpoker/rng.js';
export { ready } from '../sodium.js';

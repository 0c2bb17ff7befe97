// A seat's worker started ahead (issue 26: the browser's first hand) warms up with
// mentalpoker/warm.js: afterwards a deck of 48 cards finds every published point it needs made,
// so its first deal hashes none of them to the curve again.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { sodium } from '../../src/sodium.js';
import { add, baseMul, randomScalar } from '../../src/mentalpoker/group.js';
import { startingDeck } from '../../src/mentalpoker/elgamal.js';
import { proveShuffle, shuffleDeck, verifyShuffleMessage } from '../../src/mentalpoker/shuffle.js';
import { encodeDeck } from '../../src/mentalpoker/elgamal.js';
import { cardIndexOf, cardPoint } from '../../src/mentalpoker/generators.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { concat } from '../../src/bytes.js';
import { warmUp } from '../../src/mentalpoker/warm.js';

test('after warmUp a deck of 48 hashes no published point again: starting deck, shuffle, proof, verification, card look-up', () => {
  warmUp(48, 2);
  const lib = /** @type {any} */ (sodium());
  const original = lib.crypto_core_ed25519_from_uniform;
  let hashed = 0;
  lib.crypto_core_ed25519_from_uniform = (/** @type {Uint8Array} */ r) => {
    hashed += 1;
    return original(r);
  };
  try {
    const rng = vectorStream('warm');
    const pk = add(baseMul(randomScalar(rng)), baseMul(randomScalar(rng)));
    const ctx = { version: 2, sessionId: new Uint8Array(32).fill(4), round: 1, step: /** @type {'shuffle'} */ ('shuffle'), prover: 0 };
    const inputs = startingDeck(pk, 48);
    const { permutation, randomness, outputs } = shuffleDeck(pk, inputs, rng);
    const proof = proveShuffle(ctx, pk, inputs, outputs, permutation, randomness, rng);
    verifyShuffleMessage(ctx, pk, inputs, concat(encodeDeck(outputs), proof));
    assert.equal(cardIndexOf(cardPoint(47), 48), 47);
  } finally {
    lib.crypto_core_ed25519_from_uniform = original;
  }
  assert.equal(hashed, 0);
});

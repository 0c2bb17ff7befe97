// The verifiers that validate each received point inside its multiplication, and use what the
// verifier knows (the inputs' logs, the disclosed secrets; spec/crypto.md §8.5), give the verdict
// and the reason of the eager verifiers on every field of a shuffle or share message tampered with.
import test from 'node:test';
import assert from 'node:assert/strict';
import { reasonOf } from '../helpers.js';
import { add, baseMul, randomScalar, scalarAdd } from '../../src/mentalpoker/group.js';
import { startRandomness } from '../../src/mentalpoker/generators.js';
import { encodeDeck, startingDeck } from '../../src/mentalpoker/elgamal.js';
import {
  decodeShuffleMessage, proveShuffle, shuffleDeck, shuffledLogs, verifyShuffle, verifyShuffleMessage,
} from '../../src/mentalpoker/shuffle.js';
import { proveShares, verifyShareMessage, verifyShares } from '../../src/mentalpoker/dleq.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { Deck } from '../../src/mentalpoker/deck.js';
import { concat, equal } from '../../src/bytes.js';

const N = 3;
const rng = vectorStream(new Uint8Array(32).fill(7));
const ctx = (/** @type {'shuffle' | 'share'} */ step) => ({ version: 2, sessionId: new Uint8Array(32).fill(1), round: 3, step, prover: 1 });
const x0 = randomScalar(rng);
const x1 = randomScalar(rng);
const pk = add(baseMul(x0), baseMul(x1));
const joint = scalarAdd(x0, x1);
// A point of order 8 (not in the prime-order subgroup), a point of the curve outside the subgroup
// (a valid point plus it), bytes that decode to no point, a scalar not below L.
const ORDER_8 = Uint8Array.from(Buffer.from('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'hex'));
const NOT_A_POINT = new Uint8Array(32).fill(0xff);
const BIG_SCALAR = new Uint8Array(32).fill(0xff);

/** The tampered copies of a message: each 32-byte field replaced, in turn, by each bad value. @param {Uint8Array} m */
function tampered(m) {
  const mixed = add(baseMul(randomScalar(rng)), ORDER_8);
  const out = [];
  for (let off = 0; off < m.length; off += 32) {
    for (const bad of [ORDER_8, mixed, NOT_A_POINT, BIG_SCALAR]) {
      const copy = m.slice();
      copy.set(bad, off);
      out.push(copy);
    }
    const flipped = m.slice();
    flipped[off] ^= 1;
    out.push(flipped);
  }
  return out;
}

test('a shuffle message: the deferred verifier agrees with the eager one, whatever it knows', () => {
  const inputs = startingDeck(pk, N);
  const rho = Array.from({ length: N }, (_, i) => startRandomness(i));
  const { permutation, randomness, outputs } = shuffleDeck(pk, inputs, rng);
  const proof = proveShuffle(ctx('shuffle'), pk, inputs, outputs, permutation, randomness, rng, rho);
  // The proof made with the inputs' logs is the proof made without them (same draws, same bytes).
  const again = vectorStream(new Uint8Array(32).fill(9));
  const again2 = vectorStream(new Uint8Array(32).fill(9));
  assert.ok(equal(
    proveShuffle(ctx('shuffle'), pk, inputs, outputs, permutation, randomness, again, rho),
    proveShuffle(ctx('shuffle'), pk, inputs, outputs, permutation, randomness, again2),
  ));
  const message = concat(encodeDeck(outputs), proof);
  const knowledge = [{}, { inputLogs: rho }, { jointSecret: joint }, { inputLogs: rho, jointSecret: joint }];
  for (const known of knowledge) {
    assert.ok(equal(encodeDeck(verifyShuffleMessage(ctx('shuffle'), pk, inputs, message, known)), encodeDeck(outputs)));
  }
  // The second shuffle, verified by the first shuffler with its own outputs' logs.
  const second = shuffleDeck(pk, outputs, rng);
  const proof2 = proveShuffle(ctx('shuffle'), pk, outputs, second.outputs, second.permutation, second.randomness, rng);
  const logs = shuffledLogs(rho, permutation, randomness);
  assert.ok(equal(baseMul(logs[0]), outputs[0].a));
  verifyShuffleMessage(ctx('shuffle'), pk, outputs, concat(encodeDeck(second.outputs), proof2), { inputLogs: logs });
  let cases = 0;
  for (const bad of tampered(message)) {
    const eager = reasonOf(() => {
      const d = decodeShuffleMessage(bad, N);
      verifyShuffle(ctx('shuffle'), pk, inputs, d.outputs, d.proof);
    });
    assert.ok(eager, 'a tampered message is refused');
    for (const known of knowledge) {
      assert.equal(reasonOf(() => verifyShuffleMessage(ctx('shuffle'), pk, inputs, bad, known)), eager);
    }
    cases += 1;
  }
  assert.ok(cases > 100);
});

test('a share message: the deferred verifier, and the check against the disclosed secret, agree with the eager one', () => {
  const deck = startingDeck(pk, N);
  const positions = [0, 2];
  const bases = positions.map((p) => deck[p].a);
  const message = proveShares(ctx('share'), x1, positions, bases, rng);
  const pk1 = baseMul(x1);
  assert.deepEqual(verifyShareMessage(ctx('share'), pk1, positions, bases, message).checked, false);
  assert.deepEqual(verifyShareMessage(ctx('share'), pk1, positions, bases, message, x1).checked, true);
  // Another secret than the sharer's: the message is still judged, the general way.
  const other = verifyShareMessage(ctx('share'), pk1, positions, bases, message, x0);
  assert.equal(other.checked, false);
  assert.deepEqual(other.shares.map((d) => [...d]), verifyShares(ctx('share'), pk1, positions, bases, message).map((d) => [...d]));
  for (const bad of tampered(message)) {
    const eager = reasonOf(() => verifyShares(ctx('share'), pk1, positions, bases, bad));
    assert.ok(eager, 'a tampered message is refused');
    for (const secret of [null, x1, x0]) {
      assert.equal(reasonOf(() => verifyShareMessage(ctx('share'), pk1, positions, bases, bad, secret)), eager);
    }
  }
});

test('a deck handed the shuffles verified ahead skips only those very messages', () => {
  const params = { n: N, version: 2, sessionId: new Uint8Array(32).fill(4), round: 2, firstShuffler: 0 };
  const parties = /** @type {const} */ ([0, 1]).map((me) => new Deck(params, me));
  const keys = parties.map((d) => d.makeKey(rng));
  parties[1].receiveKey(0, keys[0]);
  parties[0].receiveKey(1, keys[1]);
  const first = parties[0].makeShuffle(rng);
  /** @type {Set<string>} */
  const verified = new Set();
  const ahead = new Deck(params, null, { verifiedShuffles: verified });
  keys.forEach((k, i) => ahead.receiveKey(i, k));
  ahead.receiveShuffle(0, first);
  assert.equal(verified.size, 1);
  const observer = () => {
    const d = new Deck(params, null, { verifiedShuffles: verified });
    keys.forEach((k, i) => d.receiveKey(i, k));
    return d;
  };
  const same = observer();
  same.receiveShuffle(0, first);
  assert.ok(equal(encodeDeck(same.decks[1]), first.subarray(0, 64 * N)));
  for (const bad of tampered(first).slice(0, 40)) {
    const fresh = new Deck(params, null);
    keys.forEach((k, i) => fresh.receiveKey(i, k));
    const expected = reasonOf(() => fresh.receiveShuffle(0, bad));
    assert.ok(expected);
    assert.equal(reasonOf(() => observer().receiveShuffle(0, bad)), expected);
  }
});

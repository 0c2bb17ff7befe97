// Every vector of spec/vectors/crypto through the JavaScript deck layer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, h, hex, reasonOf } from '../helpers.js';
import {
  BASE_POINT, L, decodePoint, fromUniform, decodeScalar, hashToPoint, scalarToBigInt, baseMul,
} from '../../src/mentalpoker/group.js';
import { cardPoint, commitmentBase, commitmentBaseAt, startRandomness } from '../../src/mentalpoker/generators.js';
import { Transcript } from '../../src/mentalpoker/transcript.js';
import { proveKey, verifyKey } from '../../src/mentalpoker/keyproof.js';
import { proveShares, verifyShares } from '../../src/mentalpoker/dleq.js';
import {
  decodeShuffleMessage, proveShuffle, shuffleDeck, verifyShuffle,
} from '../../src/mentalpoker/shuffle.js';
import { encodeDeck, startingDeck } from '../../src/mentalpoker/elgamal.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { randomScalar, add } from '../../src/mentalpoker/group.js';
import { concat } from '../../src/bytes.js';

/** @param {any} c */
function ctx(c) {
  return { version: c.version, sessionId: h(c.session_id), round: c.round, step: c.step, prover: c.prover };
}

test('hash_to_point.json', () => {
  const v = vector('crypto/hash_to_point.json');
  for (const c of v.cases) {
    // Labels are given in hex.
    assert.equal(hex(fromUniform(h(c.uniform))), c.point, c.label);
    assert.equal(hex(hashToPoint(h(c.label))), c.point, c.label);
  }
});

test('generators.json: card points, h, h_i, rho_i', () => {
  const v = vector('crypto/generators.json');
  assert.equal(hex(BASE_POINT), v.base_point);
  assert.equal(L.toString(), String(v.order).startsWith('0x') ? BigInt(v.order).toString() : String(v.order));
  for (const c of v.cards) {
    assert.equal(hex(cardPoint(c.index)), c.point);
    assert.equal(hex(startRandomness(c.index)), c.rho);
    assert.equal(hex(baseMul(startRandomness(c.index))), c.rho_G);
  }
  assert.equal(hex(commitmentBase()), v.h.point);
  for (const c of v.h_i) assert.equal(hex(commitmentBaseAt(c.i)), c.point);
});

test('invalid_encodings.json', () => {
  const v = vector('crypto/invalid_encodings.json');
  for (const c of v.points) assert.equal(reasonOf(() => decodePoint(h(c.encoding))), c.reason, c.why);
  for (const c of v.scalars) assert.equal(reasonOf(() => decodeScalar(h(c.encoding))), c.reason, c.why);
  for (const s of v.valid_scalars) assert.equal(hex(decodeScalar(h(s))), s);
});

test('transcript.json', () => {
  const v = vector('crypto/transcript.json');
  const t = new Transcript(v.proof).context(ctx(v.context));
  for (const it of v.items) {
    if (it.type === 'points') t.points(it.label, h(it.value));
    else if (it.type === 'scalars') t.scalars(it.label, h(it.value));
    else if (it.type === 'bytes') t.bytes(it.label, h(it.value));
    else if (it.type === 'text') t.text(it.label, it.value);
    else if (it.type === 'uint') t.uint(it.label, it.value);
    else assert.fail(`unknown item ${it.type}`);
  }
  assert.equal(hex(t.challenge('c1')), v.challenge_bytes_c1);
  assert.equal(hex(t.challengeScalar('c2')), v.challenge_scalar_c2);
  assert.deepEqual(t.challengeScalars('u', v.challenge_scalars_u.length).map(hex), v.challenge_scalars_u);
});

test('schnorr.json', () => {
  const v = vector('crypto/schnorr.json');
  for (const c of v.cases) {
    const reason = reasonOf(() => verifyKey(ctx(c.context), h(c.message)));
    assert.equal(reason, c.error ?? null, c.id);
    if (c.id === 'valid') {
      // The prover reproduces the message from the seeded stream: the secret, then the nonce bytes.
      const rng = vectorStream(v.provenance.seed);
      const x = randomScalar(rng);
      assert.equal(hex(x), c.secret);
      assert.equal(hex(proveKey(ctx(c.context), x, rng)), c.message);
    }
  }
});

test('dleq.json', () => {
  const v = vector('crypto/dleq.json');
  for (const c of v.cases) {
    const bases = c.bases.map(h);
    const reason = reasonOf(() => verifyShares(ctx(c.context), h(c.pk), c.positions, bases, h(c.message)));
    assert.equal(reason, c.error ?? null, c.id);
    if (c.id === 'valid') {
      const rng = vectorStream(v.provenance.seed);
      // spec/crypto.md §9.2: the prover's key, the other party's key, then the proof.
      const x = randomScalar(rng);
      randomScalar(rng);
      assert.equal(hex(x), v.secret);
      assert.equal(hex(baseMul(x)), c.pk);
      assert.equal(hex(proveShares(ctx(c.context), x, c.positions, bases, rng)), c.message);
    }
  }
});

test('shuffle_48.json: verify every case and reproduce the proof', () => {
  const v = vector('crypto/shuffle_48.json');
  const pk = h(v.pk);
  const n = v.n;
  const inputsBytes = h(v.inputs);
  const inputs = decodeShuffleMessage(concat(inputsBytes, new Uint8Array(128 * n + 160)), n).outputs;
  assert.equal(hex(encodeDeck(startingDeck(pk, n))), v.inputs);
  for (const c of v.cases) {
    const reason = reasonOf(() => {
      const { outputs, proof } = decodeShuffleMessage(h(c.message), n);
      verifyShuffle(ctx(c.context), pk, inputs, outputs, proof);
    });
    assert.equal(reason, c.error ?? null, c.id);
  }
  const valid = v.cases.find((/** @type {any} */ c) => c.id === 'valid');
  const rng = vectorStream(v.provenance.seed);
  const secrets = [randomScalar(rng), randomScalar(rng)];
  assert.deepEqual(secrets.map(hex), v.secrets);
  assert.equal(hex(add(baseMul(secrets[0]), baseMul(secrets[1]))), v.pk);
  const { permutation, randomness, outputs } = shuffleDeck(pk, inputs, rng);
  assert.deepEqual(permutation, v.permutation);
  assert.deepEqual(randomness.map(hex), v.randomness);
  const proof = proveShuffle(ctx(valid.context), pk, inputs, outputs, permutation, randomness, rng);
  assert.equal(hex(concat(encodeDeck(outputs), proof)), valid.message);
});

test('scalars are below L', () => {
  assert.ok(scalarToBigInt(startRandomness(0)) < L);
});

test('deck_6.json: both parties and an observer replay every message', async () => {
  const { Deck } = await import('../../src/mentalpoker/deck.js');
  const v = vector('crypto/deck_6.json');
  const s = v.setup;
  const params = { n: s.n, version: s.version, sessionId: h(s.session_id), round: s.round, firstShuffler: s.first_shuffler };
  const parties = [new Deck(params, 0), new Deck(params, 1)];
  // Each party draws from its hedge (spec/crypto.md §3.5) with its seed and the message's binding.
  const seeds = v.seeds.map(h);
  const observer = new Deck(params, null);
  for (const m of v.messages) {
    const me = parties[m.from];
    const other = parties[1 - m.from];
    const seed = seeds[m.from];
    let made;
    if (m.type === 'key') made = me.makeKey(me.keyStream(seed, h(m.binding)));
    else if (m.type === 'shuffle') made = me.makeShuffle(me.shuffleStream(seed, h(m.binding)));
    else if (m.type === 'shares') made = me.makeShares(m.positions, me.shareStream(seed, h(m.binding), m.positions));
    else made = me.disclose();
    assert.equal(hex(made), m.data, `${m.type} from ${m.from}`);
    for (const d of [other, observer]) {
      if (m.type === 'key') d.receiveKey(m.from, made);
      else if (m.type === 'shuffle') d.receiveShuffle(m.from, made);
      else if (m.type === 'shares') d.receiveShares(m.from, m.positions, made);
      else d.receiveSecret(m.from, made);
    }
  }
  for (const [p, card] of Object.entries(v.cards_seen_by_0)) assert.equal(parties[0].cardAt(Number(p)), card);
  assert.deepEqual(parties[0].audit(), v.order);
  assert.deepEqual(parties[1].audit({ recheck: true }), v.order);
  assert.deepEqual(observer.audit({ recheck: true }), v.order);
});

test('hedge.json: the stream of each step', async () => {
  const { hedgeStream } = await import('../../src/mentalpoker/hedge.js');
  const v = vector('crypto/hedge.json');
  for (const c of v.cases) {
    const statement = c.statement.map((/** @type {any} */ x) => ({ type: x.type, label: x.label, value: h(x.value) }));
    const stream = hedgeStream(h(v.seed), ctx(c.context), h(c.binding), statement);
    assert.equal(hex(stream(c.stream.length / 2)), c.stream, c.id);
  }
});

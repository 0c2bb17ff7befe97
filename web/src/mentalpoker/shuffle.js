// The shuffle argument of Terelius and Wikström (2010) in the form of CHVote's GenShuffleProof and
// CheckShuffleProof (Haenni, Locher, Koenig, Dubuis), written additively (spec/crypto.md §6).
// Indices in the comments are the spec's (1-based); arrays here are 0-based.
import { concat, equal } from '../bytes.js';
import {
  ONE, add, baseMul, decodePoint, decodeScalar, isZeroScalar, mul, randomPermutation, randomScalar,
  scalarAdd, scalarMul, scalarSub, sub, sum, sumOfProducts,
} from './group.js';
import { commitmentBase, commitmentBaseAt, commitmentBasesSum } from './generators.js';
import { CIPHERTEXT_BYTES, encodeDeck, rerandomise } from './elgamal.js';
import { Transcript } from './transcript.js';
import { DegenerateError, UsageError, VerificationError } from './errors.js';

/** Proof bytes for n ciphertexts: 128n + 160 (spec/crypto.md §6.5). @param {number} n */
export function shuffleProofBytes(n) {
  return 128 * n + 160;
}

/** Shuffle message bytes: outputs || proof = 192n + 160. @param {number} n */
export function shuffleMessageBytes(n) {
  return 192 * n + 160;
}

/**
 * Transcript through the statement (spec/crypto.md §6.2 step 2) and the u_j.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {import('./elgamal.js').Ciphertext[]} inputs @param {import('./elgamal.js').Ciphertext[]} outputs
 * @param {Uint8Array[]} commitments
 */
function statement(ctx, pk, inputs, outputs, commitments) {
  const n = inputs.length;
  const t = new Transcript('shuffle').context(ctx).points('pk', pk).uint('n', n)
    .points('inputs', encodeDeck(inputs)).points('outputs', encodeDeck(outputs))
    .points('commitments', commitments);
  const u = t.challengeScalars('u', n);
  return { t, u };
}

/**
 * Shuffle and re-randomise a deck: output i = ReRand(input psi[i]; r~_i). Draws the permutation,
 * then r~_1..r~_n (spec/crypto.md §9.2).
 * @param {Uint8Array} pk @param {import('./elgamal.js').Ciphertext[]} inputs
 * @param {import('./group.js').RandomSource} rng
 */
export function shuffleDeck(pk, inputs, rng) {
  const n = inputs.length;
  const permutation = randomPermutation(rng, n);
  /** @type {Uint8Array[]} */
  const randomness = [];
  for (let i = 0; i < n; i++) randomness.push(randomScalar(rng));
  const outputs = permutation.map((src, i) => rerandomise(pk, inputs[src], randomness[i]));
  return { permutation, randomness, outputs };
}

/**
 * The discrete logarithms of the outputs' first components, from the inputs' (a'_i = a_psi(i) + r~_i*G).
 * @param {Uint8Array[]} inputLogs @param {number[]} psi @param {Uint8Array[]} rTilde
 */
export function shuffledLogs(inputLogs, psi, rTilde) {
  return psi.map((j, i) => scalarAdd(inputLogs[j], rTilde[i]));
}

/**
 * GenShuffleProof: prove that `outputs` is a permutation and re-randomisation of `inputs`.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {import('./elgamal.js').Ciphertext[]} inputs @param {import('./elgamal.js').Ciphertext[]} outputs
 * @param {number[]} psi output i holds input psi[i] @param {Uint8Array[]} rTilde re-randomisers by output
 * @param {import('./group.js').RandomSource} rng
 * @param {Uint8Array[] | null} [inputLogs] the discrete logarithms of the inputs' first components,
 *   when the prover knows them (the starting deck, §4.3): then Σ w'_i*a'_i = (Σ w'_i l'_i)*G with
 *   l'_i = l_psi(i) + r~_i, one fixed-base multiplication for n variable-base ones
 * @returns {Uint8Array} the proof (spec/crypto.md §6.5)
 */
export function proveShuffle(ctx, pk, inputs, outputs, psi, rTilde, rng, inputLogs = null) {
  const n = inputs.length;
  if (n < 2 || outputs.length !== n || psi.length !== n || rTilde.length !== n) {
    throw new UsageError('bad_argument', 'shuffle of n >= 2 ciphertexts with a witness of size n');
  }
  const h = commitmentBase();
  const hs = Array.from({ length: n }, (_, i) => commitmentBaseAt(i + 1));
  // 1. c_{psi(i)} = r_{psi(i)}*G + h_i, r drawn in output order.
  /** @type {Uint8Array[]} */
  const r = new Array(n);
  /** @type {Uint8Array[]} */
  const commitments = new Array(n);
  for (let i = 0; i < n; i++) {
    r[psi[i]] = randomScalar(rng);
    commitments[psi[i]] = add(baseMul(r[psi[i]]), hs[i]);
  }
  // 2. transcript and u.
  const { t, u } = statement(ctx, pk, inputs, outputs, commitments);
  // 3. u'_i = u_{psi(i)}
  const uPrime = psi.map((j) => u[j]);
  // 4. commitment chain.
  /** @type {Uint8Array[]} */
  const rHat = [];
  /** @type {Uint8Array[]} */
  const chain = [];
  let previous = h;
  for (let i = 0; i < n; i++) {
    rHat.push(randomScalar(rng));
    previous = add(baseMul(rHat[i]), mul(uPrime[i], previous));
    chain.push(previous);
  }
  // 5. w_1..w_4, w^_1..w^_n, w'_1..w'_n.
  const w = [randomScalar(rng), randomScalar(rng), randomScalar(rng), randomScalar(rng)];
  const wHat = Array.from({ length: n }, () => randomScalar(rng));
  const wPrime = Array.from({ length: n }, () => randomScalar(rng));
  // 6. commitments.
  const t1 = baseMul(w[0]);
  const t2 = baseMul(w[1]);
  const t3 = add(baseMul(w[2]), sumOfProducts(wPrime, hs));
  const outputLogs = inputLogs ? shuffledLogs(inputLogs, psi, rTilde) : null;
  let t4a = null;
  if (outputLogs && !outputLogs.some(isZeroScalar)) {
    let total = scalarSub(scalarMul(wPrime[0], outputLogs[0]), w[3]);
    for (let i = 1; i < n; i++) total = scalarAdd(total, scalarMul(wPrime[i], outputLogs[i]));
    if (!isZeroScalar(total)) t4a = baseMul(total);
  }
  t4a ??= sub(sumOfProducts(wPrime, outputs.map((e) => e.a)), baseMul(w[3]));
  const t4b = sub(sumOfProducts(wPrime, outputs.map((e) => e.b)), mul(w[3], pk));
  const tHat = [];
  for (let i = 0; i < n; i++) tHat.push(add(baseMul(wHat[i]), mul(wPrime[i], i === 0 ? h : chain[i - 1])));
  // 7. absorb, challenge.
  t.points('chain', chain).points('t', [t1, t2, t3, t4a, t4b]).points('t_hat', tHat);
  const c = t.challengeScalar('c');
  // 8. responses; v_n = 1, v_{i-1} = u'_i v_i.
  const v = new Array(n);
  v[n - 1] = ONE;
  for (let i = n - 1; i >= 1; i--) v[i - 1] = scalarMul(uPrime[i], v[i]);
  const sumR = r.reduce((acc, x) => scalarAdd(acc, x));
  let sumRHatV = scalarMul(rHat[0], v[0]);
  for (let i = 1; i < n; i++) sumRHatV = scalarAdd(sumRHatV, scalarMul(rHat[i], v[i]));
  let sumRU = scalarMul(r[0], u[0]);
  for (let j = 1; j < n; j++) sumRU = scalarAdd(sumRU, scalarMul(r[j], u[j]));
  let sumRTildeU = scalarMul(rTilde[0], uPrime[0]);
  for (let i = 1; i < n; i++) sumRTildeU = scalarAdd(sumRTildeU, scalarMul(rTilde[i], uPrime[i]));
  const s1 = scalarAdd(w[0], scalarMul(c, sumR));
  const s2 = scalarAdd(w[1], scalarMul(c, sumRHatV));
  const s3 = scalarAdd(w[2], scalarMul(c, sumRU));
  const s4 = scalarAdd(w[3], scalarMul(c, sumRTildeU));
  const sHat = wHat.map((wh, i) => scalarAdd(wh, scalarMul(c, rHat[i])));
  const sPrime = wPrime.map((wp, i) => scalarAdd(wp, scalarMul(c, uPrime[i])));
  return concat(c, ...commitments, ...chain, s1, s2, s3, s4, ...sHat, ...sPrime);
}

/**
 * Decode n ciphertexts (every point validated).
 * @param {Uint8Array} bytes @param {number} n
 * @returns {import('./elgamal.js').Ciphertext[]}
 */
export function decodeDeck(bytes, n) {
  if (bytes.length !== n * CIPHERTEXT_BYTES) throw new VerificationError('invalid_length', 'deck length');
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      a: decodePoint(bytes.subarray(64 * i, 64 * i + 32)),
      b: decodePoint(bytes.subarray(64 * i + 32, 64 * i + 64)),
    });
  }
  return out;
}

/**
 * Split a shuffle message into its outputs and proof, decoding every point (spec/crypto.md §6.5).
 * @param {Uint8Array} message @param {number} n
 */
export function decodeShuffleMessage(message, n) {
  if (message.length !== shuffleMessageBytes(n)) throw new VerificationError('invalid_length', 'shuffle message length');
  const outputs = decodeDeck(message.subarray(0, 64 * n), n);
  return { outputs, proof: message.subarray(64 * n) };
}

/**
 * The fields of a shuffle proof (spec/crypto.md §6.5): scalars decoded; points validated by
 * `point` (eager) or only cut to 32 bytes (deferred: each goes into a multiplication of the
 * verification, which validates it).
 * @param {Uint8Array} proof @param {number} n @param {(bytes: Uint8Array) => Uint8Array} point
 */
function proofFields(proof, n, point) {
  if (proof.length !== shuffleProofBytes(n)) throw new VerificationError('invalid_length', 'shuffle proof length');
  let off = 0;
  const scalar = () => decodeScalar(proof.subarray(off, (off += 32)));
  const pointAt = () => point(proof.subarray(off, (off += 32)));
  const c = scalar();
  const commitments = Array.from({ length: n }, pointAt);
  const chain = Array.from({ length: n }, pointAt);
  const s = [scalar(), scalar(), scalar(), scalar()];
  const sHat = Array.from({ length: n }, scalar);
  const sPrime = Array.from({ length: n }, scalar);
  return { c, commitments, chain, s, sHat, sPrime };
}

/**
 * What a verifier may know besides the statement (spec/crypto.md §8.5): `inputLogs`, the discrete
 * logarithms of the inputs' first components (public for the starting deck, §4.3; known to the
 * party that made the inputs), gives a~ = (Σ u_j l_j)*G; `jointSecret` (x_0 + x_1, an auditor
 * that holds both round secrets) gives s_4*pk = (s_4 x)*G. The group elements are the general
 * formulas' own.
 * @typedef {{inputLogs?: Uint8Array[] | null, jointSecret?: Uint8Array | null}} VerifierKnowledge
 */

/**
 * Steps 2 to 5 of CheckShuffleProof: the challenge the verifier derives. Raises DegenerateError
 * where the general formulas multiply by zero or reach the identity, and where libsodium refuses a
 * (deferred) point.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {import('./elgamal.js').Ciphertext[]} inputs @param {import('./elgamal.js').Ciphertext[]} outputs
 * @param {ReturnType<typeof proofFields>} f @param {VerifierKnowledge} known
 */
function recompute(ctx, pk, inputs, outputs, f, known) {
  const n = inputs.length;
  const { c, commitments, chain, s, sHat, sPrime } = f;
  // 2. transcript and u.
  const { t, u } = statement(ctx, pk, inputs, outputs, commitments);
  const h = commitmentBase();
  const hs = Array.from({ length: n }, (_, i) => commitmentBaseAt(i + 1));
  // 3.
  const cBar = sub(sum(commitments), commitmentBasesSum(n));
  let uHat = u[0];
  for (let j = 1; j < n; j++) uHat = scalarMul(uHat, u[j]);
  const cHat = sub(chain[n - 1], mul(uHat, h));
  const cTilde = sumOfProducts(u, commitments);
  const logs = known.inputLogs;
  let aTilde;
  if (logs && logs.length === n && !logs.some(isZeroScalar)) {
    // Σ u_j*(l_j*G) = (Σ u_j l_j)*G; a zero u_j is refused as the general sum refuses it.
    if (u.some(isZeroScalar)) throw new DegenerateError('a zero challenge');
    let total = scalarMul(u[0], logs[0]);
    for (let j = 1; j < n; j++) total = scalarAdd(total, scalarMul(u[j], logs[j]));
    aTilde = baseMul(total);
  } else {
    aTilde = sumOfProducts(u, inputs.map((e) => e.a));
  }
  const bTilde = sumOfProducts(u, inputs.map((e) => e.b));
  // 4.
  const x = known.jointSecret;
  const s4pk = x ? baseMul(scalarMul(s[3], x)) : mul(s[3], pk);
  const t1 = sub(baseMul(s[0]), mul(c, cBar));
  const t2 = sub(baseMul(s[1]), mul(c, cHat));
  const t3 = sub(add(baseMul(s[2]), sumOfProducts(sPrime, hs)), mul(c, cTilde));
  const t4a = sub(sub(sumOfProducts(sPrime, outputs.map((e) => e.a)), baseMul(s[3])), mul(c, aTilde));
  const t4b = sub(sub(sumOfProducts(sPrime, outputs.map((e) => e.b)), s4pk), mul(c, bTilde));
  const tHat = [];
  for (let i = 0; i < n; i++) {
    tHat.push(sub(add(baseMul(sHat[i]), mul(sPrime[i], i === 0 ? h : chain[i - 1])), mul(c, chain[i])));
  }
  // 5.
  t.points('chain', chain).points('t', [t1, t2, t3, t4a, t4b]).points('t_hat', tHat);
  return t.challengeScalar('c');
}

/**
 * CheckShuffleProof (spec/crypto.md §6.3); raises VerificationError (invalid_length,
 * invalid_point, invalid_scalar, bad_shuffle_proof).
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {import('./elgamal.js').Ciphertext[]} inputs @param {import('./elgamal.js').Ciphertext[]} outputs
 * @param {Uint8Array} proof @param {VerifierKnowledge} [known]
 */
export function verifyShuffle(ctx, pk, inputs, outputs, proof, known = {}) {
  const n = inputs.length;
  if (n < 2 || outputs.length !== n) throw new UsageError('bad_argument', 'n >= 2 inputs and outputs');
  // 1. lengths and decoding.
  const fields = proofFields(proof, n, decodePoint);
  let recomputed;
  try {
    recomputed = recompute(ctx, pk, inputs, outputs, fields, known);
  } catch (e) {
    if (e instanceof DegenerateError) throw new VerificationError('bad_shuffle_proof', 'degenerate');
    throw e;
  }
  if (!equal(recomputed, fields.c)) throw new VerificationError('bad_shuffle_proof', 'the shuffle proof does not verify');
}

/**
 * Decode and verify a shuffle message (outputs || proof) against `inputs`; returns the outputs.
 * The same checks as decodeShuffleMessage + verifyShuffle, each point validated once (spec/crypto.md
 * §2.2): every received point goes into a libsodium multiplication of the verification, which
 * refuses a point outside the prime-order subgroup, so no separate validation is made first. On
 * any failure the message is decoded and verified again the eager way, so that the error has the
 * reason and the order of checks of the eager verifier.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk
 * @param {import('./elgamal.js').Ciphertext[]} inputs @param {Uint8Array} message @param {VerifierKnowledge} [known]
 */
export function verifyShuffleMessage(ctx, pk, inputs, message, known = {}) {
  const n = inputs.length;
  if (n < 2) throw new UsageError('bad_argument', 'n >= 2 inputs');
  if (message.length === shuffleMessageBytes(n)) {
    try {
      const outputs = [];
      for (let i = 0; i < n; i++) {
        outputs.push({ a: message.slice(64 * i, 64 * i + 32), b: message.slice(64 * i + 32, 64 * i + 64) });
      }
      const fields = proofFields(message.subarray(64 * n), n, (bytes) => bytes.slice());
      if (equal(recompute(ctx, pk, inputs, outputs, fields, known), fields.c)) return outputs;
    } catch {
      // judged again below, the eager way
    }
  }
  const { outputs, proof } = decodeShuffleMessage(message, n);
  verifyShuffle(ctx, pk, inputs, outputs, proof, known);
  return outputs;
}

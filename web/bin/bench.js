#!/usr/bin/env node
// node web/bin/bench.js [--json] [--repeat N]: the 48-card shuffle proof (prove, verify) and a deal
// setup of game version 2 in Node, beside the same measurements of the Python implementation taken
// in the same run, interleaved sample by sample (the machine is shared: only the ratio is
// meaningful). The deal setup is one deck of spec/game.md §5 between two parties: both round keys
// proved and verified, both shuffles proved and verified by the other party, then the opening
// (§5.4: each party's shares of the field and of the other's hand, two groups of 8, proved,
// verified by the other, and the 16 cards each party sees decrypted); the opening is also measured
// alone, since it is the only cryptography on the waiting path of a later deal's setup (§5.8).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ready } from '../src/sodium.js';
import { add, baseMul, randomScalar } from '../src/mentalpoker/group.js';
import { startingDeck } from '../src/mentalpoker/elgamal.js';
import { proveShuffle, shuffleDeck, verifyShuffle } from '../src/mentalpoker/shuffle.js';
import { systemRandom } from '../src/mentalpoker/rng.js';
import { Deck } from '../src/mentalpoker/deck.js';
import { utf8 } from '../src/bytes.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const repeat = Number(args[args.indexOf('--repeat') + 1]) || 5;
const N = 48;
const SESSION = utf8('koikoi-p2p bench session id 0001');
/** @param {'key' | 'shuffle'} step @param {number} prover */
const ctx = (step, prover) => ({ version: 2, sessionId: SESSION, round: 1, step, prover });
/** The opening of a deal dealt by seat 0 (rules.md §5.2): the field and each seat's hand. */
const FIELD = [2, 3, 8, 9, 14, 15, 20, 21];
const HANDS = [[4, 5, 10, 11, 16, 17, 22, 23], [0, 1, 6, 7, 12, 13, 18, 19]];

await ready();
const rng = systemRandom;
const secrets = [randomScalar(rng), randomScalar(rng)];
const pk = add(baseMul(secrets[0]), baseMul(secrets[1]));
const inputs = startingDeck(pk, N);
const { permutation, randomness, outputs } = shuffleDeck(pk, inputs, rng);
const proof = proveShuffle(ctx('shuffle', 0), pk, inputs, outputs, permutation, randomness, rng);

/** Two parties of one deck: keys exchanged, both shuffles made and verified (spec/game.md §5.3). */
function shuffledPair() {
  const parties = [0, 1].map((me) => new Deck({ n: N, version: 2, sessionId: SESSION, round: 1, firstShuffler: 1 }, /** @type {0 | 1} */ (me)));
  const keys = parties.map((d) => d.makeKey(rng));
  for (const k of [0, 1]) parties[1 - k].receiveKey(k, keys[k]);
  for (const k of [1, 0]) parties[1 - k].receiveShuffle(k, parties[k].makeShuffle(rng));
  return parties;
}

/** The opening (§5.4): each party's shares of the field and the other's hand, verified; 16 cards each. @param {Deck[]} parties */
function opening(parties) {
  for (const k of [0, 1]) {
    for (const positions of [FIELD, HANDS[1 - k]]) parties[1 - k].receiveShares(k, positions, parties[k].makeShares(positions, rng));
  }
  for (const k of [0, 1]) for (const p of [...FIELD, ...HANDS[k]]) if (parties[k].cardAt(p) === null) throw new Error('the opening did not open');
}

/** Work done before a sample's clock starts. @template T @param {() => T} fn @returns {T} */
function untimed(fn) {
  const t0 = performance.now();
  const value = fn();
  excluded += performance.now() - t0;
  return value;
}
let excluded = 0;

/** @type {Record<string, () => void>} */
const js = {
  prove: () => { proveShuffle(ctx('shuffle', 0), pk, inputs, outputs, permutation, randomness, rng); },
  verify: () => { verifyShuffle(ctx('shuffle', 0), pk, inputs, outputs, proof); },
  deal: () => {
    const parties = shuffledPair();
    opening(parties);
  },
  // The only cryptography on the waiting path of a version-2 deal setup (spec/game.md §5.8).
  opening: () => {
    const parties = untimed(shuffledPair);
    opening(parties);
  },
};

const python = path.join(REPO, '.venv', 'bin', 'python');
const py = existsSync(python)
  ? spawn(python, [path.join(REPO, 'web', 'bench', 'python_side.py')], { stdio: ['pipe', 'pipe', 'inherit'], cwd: REPO })
  : null;
const lines = py ? createInterface({ input: /** @type {any} */ (py.stdout) })[Symbol.asyncIterator]() : null;
/** @param {string} what */
async function pySample(what) {
  if (!py || !lines) return NaN;
  /** @type {any} */ (py.stdin).write(`${what}\n`);
  const r = await lines.next();
  return Number(r.value);
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** @type {Record<string, {node: number, python: number, ratio: number}>} */
const results = {};
for (const what of ['prove', 'verify', 'deal', 'opening']) {
  js[what]();
  await pySample(what);
  const nodeTimes = [];
  const pyTimes = [];
  for (let i = 0; i < repeat; i++) {
    excluded = 0;
    const t0 = performance.now();
    js[what]();
    nodeTimes.push((performance.now() - t0 - excluded) / 1000);
    pyTimes.push(await pySample(what));
  }
  const node = median(nodeTimes);
  const pyMedian = median(pyTimes);
  results[what] = { node, python: pyMedian, ratio: node / pyMedian };
}
if (py) /** @type {any} */ (py.stdin).end();
if (json) process.stdout.write(`${JSON.stringify({ n: N, repeat, results }, null, 2)}\n`);
else {
  const names = { prove: '48-card shuffle prove', verify: '48-card shuffle verify', deal: 'deal setup v2 (2 keys, 2 shuffles, opening)', opening: 'the opening alone (2 x 16 shares, 32 cards)' };
  process.stdout.write(`median of ${repeat} interleaved runs; ratio = Node / Python (below 1: Node is faster)\n`);
  for (const [what, r] of Object.entries(results)) {
    const pyText = Number.isNaN(r.python) ? 'python: not installed' : `python ${(r.python * 1000).toFixed(1)} ms  ratio ${r.ratio.toFixed(2)}`;
    process.stdout.write(`${/** @type {any} */ (names)[what].padEnd(48)} node ${(r.node * 1000).toFixed(1)} ms  ${pyText}\n`);
  }
}

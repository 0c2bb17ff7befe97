#!/usr/bin/env node
// node web/bin/bench.js [--json] [--repeat N]: the 48-card shuffle proof (prove, verify) and a deal
// setup (both round keys proved and verified, both shuffles proved and verified by the other
// party) in Node, beside the same measurements of the Python implementation taken in the same
// run, interleaved sample by sample (the machine is shared: only the ratio is meaningful).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ready } from '../src/sodium.js';
import { add, baseMul, randomScalar } from '../src/mentalpoker/group.js';
import { startingDeck } from '../src/mentalpoker/elgamal.js';
import { proveKey, verifyKey } from '../src/mentalpoker/keyproof.js';
import { proveShuffle, shuffleDeck, verifyShuffle } from '../src/mentalpoker/shuffle.js';
import { systemRandom } from '../src/mentalpoker/rng.js';
import { utf8 } from '../src/bytes.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const repeat = Number(args[args.indexOf('--repeat') + 1]) || 5;
const N = 48;
const SESSION = utf8('koikoi-p2p bench session id 0001');
/** @param {'key' | 'shuffle'} step @param {number} prover */
const ctx = (step, prover) => ({ version: 1, sessionId: SESSION, round: 1, step, prover });

await ready();
const rng = systemRandom;
const secrets = [randomScalar(rng), randomScalar(rng)];
const pk = add(baseMul(secrets[0]), baseMul(secrets[1]));
const inputs = startingDeck(pk, N);
const { permutation, randomness, outputs } = shuffleDeck(pk, inputs, rng);
const proof = proveShuffle(ctx('shuffle', 0), pk, inputs, outputs, permutation, randomness, rng);

/** @type {Record<string, () => void>} */
const js = {
  prove: () => { proveShuffle(ctx('shuffle', 0), pk, inputs, outputs, permutation, randomness, rng); },
  verify: () => { verifyShuffle(ctx('shuffle', 0), pk, inputs, outputs, proof); },
  deal: () => {
    const xs = [randomScalar(rng), randomScalar(rng)];
    for (const k of [0, 1]) verifyKey(ctx('key', k), proveKey(ctx('key', k), xs[k], rng));
    const joint = add(baseMul(xs[0]), baseMul(xs[1]));
    let deck = startingDeck(joint, N);
    for (const k of [0, 1]) {
      const s = shuffleDeck(joint, deck, rng);
      const p = proveShuffle(ctx('shuffle', k), joint, deck, s.outputs, s.permutation, s.randomness, rng);
      verifyShuffle(ctx('shuffle', k), joint, deck, s.outputs, p);
      deck = s.outputs;
    }
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
for (const what of ['prove', 'verify', 'deal']) {
  js[what]();
  await pySample(what);
  const nodeTimes = [];
  const pyTimes = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    js[what]();
    nodeTimes.push((performance.now() - t0) / 1000);
    pyTimes.push(await pySample(what));
  }
  const node = median(nodeTimes);
  const pyMedian = median(pyTimes);
  results[what] = { node, python: pyMedian, ratio: node / pyMedian };
}
if (py) /** @type {any} */ (py.stdin).end();
if (json) process.stdout.write(`${JSON.stringify({ n: N, repeat, results }, null, 2)}\n`);
else {
  const names = { prove: '48-card shuffle prove', verify: '48-card shuffle verify', deal: 'deal setup (2 keys, 2 shuffles, all verified)' };
  process.stdout.write(`median of ${repeat} interleaved runs; ratio = Node / Python (below 1: Node is faster)\n`);
  for (const [what, r] of Object.entries(results)) {
    const pyText = Number.isNaN(r.python) ? 'python: not installed' : `python ${(r.python * 1000).toFixed(1)} ms  ratio ${r.ratio.toFixed(2)}`;
    process.stdout.write(`${/** @type {any} */ (names)[what].padEnd(48)} node ${(r.node * 1000).toFixed(1)} ms  ${pyText}\n`);
  }
}

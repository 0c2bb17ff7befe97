#!/usr/bin/env node
// node web/bin/bench.js [--json] [--repeat N] [--rounds 1,4,12] [--no-audit]: the JavaScript core
// beside the Python implementation on the same inputs, in one run, interleaved sample by sample
// (the machine is shared: only the ratios are meaningful). Steps: the 48-card shuffle proof
// (prove; verify of the message as a receiving party does it: decode and verify), a deal setup of
// game version 2 (one deck of spec/game.md §5 between two parties: both round keys proved and
// verified, both shuffles proved and verified by the other party, then the opening of §5.4: each
// party's shares of the field and of the other's hand, two groups of 8, proved, verified by the
// other, and the 16 cards each party sees decrypted), the opening alone (the only cryptography on
// the waiting path of a later deal's setup, §5.8), and the auditor on selfplay transcripts of 1, 4
// and 12 rounds (web/src/audit against `koikoi verify`'s replay, in process, with its threads).
// For each step it also prints the libsodium operations one run performs on each side and their
// floor (count x unit cost, both measured in this run): where the floors' ratio is the per-operation
// ratio of libsodium.js's WebAssembly build to the native library, that build is the limit.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ready } from '../src/sodium.js';
import { add, baseMul, randomScalar } from '../src/mentalpoker/group.js';
import { startingDeck } from '../src/mentalpoker/elgamal.js';
import { proveShuffle, shuffleDeck, verifyShuffleMessage } from '../src/mentalpoker/shuffle.js';
import { encodeDeck } from '../src/mentalpoker/elgamal.js';
import { auditBytes } from '../src/audit/replay.js';
import { auditBytesParallel } from '../src/audit/parallel_node.js';
import { sodium } from '../src/sodium.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { systemRandom } from '../src/mentalpoker/rng.js';
import { Deck } from '../src/mentalpoker/deck.js';
import { utf8 } from '../src/bytes.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const repeat = Number(args[args.indexOf('--repeat') + 1]) || 5;
const roundsArg = args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : '1,4,12';
const auditRounds = args.includes('--no-audit') ? [] : roundsArg.split(',').map(Number).filter((r) => r >= 1);
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
const message = new Uint8Array([...encodeDeck(outputs), ...proof]);

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

/** @type {Record<string, () => void | Promise<void>>} */
const js = {
  prove: () => { proveShuffle(ctx('shuffle', 0), pk, inputs, outputs, permutation, randomness, rng); },
  verify: () => { verifyShuffleMessage(ctx('shuffle', 0), pk, inputs, message); },
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

/** The libsodium calls counted and timed on each side (mentalpoker.group.OPERATIONS's names). */
const OPERATIONS = {
  mult: 'crypto_scalarmult_ed25519_noclamp', base_mult: 'crypto_scalarmult_ed25519_base_noclamp',
  add: 'crypto_core_ed25519_add', sub: 'crypto_core_ed25519_sub', validate: 'crypto_core_ed25519_is_valid_point',
  from_uniform: 'crypto_core_ed25519_from_uniform', scalar_add: 'crypto_core_ed25519_scalar_add',
  scalar_sub: 'crypto_core_ed25519_scalar_sub', scalar_mul: 'crypto_core_ed25519_scalar_mul',
  scalar_negate: 'crypto_core_ed25519_scalar_negate', scalar_reduce: 'crypto_core_ed25519_scalar_reduce',
};

/** The libsodium operations one run of `fn` performs. @param {() => void} fn */
function countOperations(fn) {
  const lib = /** @type {any} */ (sodium());
  /** @type {Record<string, number>} */
  const counts = {};
  const saved = Object.entries(OPERATIONS).map(([name, fnName]) => {
    const original = lib[fnName];
    lib[fnName] = (/** @type {any[]} */ ...a) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return original(...a);
    };
    return [fnName, original];
  });
  try {
    fn();
  } finally {
    for (const [fnName, original] of saved) lib[fnName] = original;
  }
  return counts;
}

/** Seconds per libsodium call, the fastest of several batches. */
function unitCosts() {
  const s = sodium();
  const x = randomScalar(rng);
  const y = randomScalar(rng);
  const p = baseMul(x);
  const q = baseMul(y);
  const wide = rng(64);
  const uniform = rng(32);
  /** @type {Record<string, () => unknown>} */
  const samples = {
    mult: () => s.crypto_scalarmult_ed25519_noclamp(x, p), base_mult: () => s.crypto_scalarmult_ed25519_base_noclamp(x),
    add: () => s.crypto_core_ed25519_add(p, q), sub: () => s.crypto_core_ed25519_sub(p, q),
    validate: () => s.crypto_core_ed25519_is_valid_point(p), from_uniform: () => s.crypto_core_ed25519_from_uniform(uniform),
    scalar_add: () => s.crypto_core_ed25519_scalar_add(x, y), scalar_sub: () => s.crypto_core_ed25519_scalar_sub(x, y),
    scalar_mul: () => s.crypto_core_ed25519_scalar_mul(x, y), scalar_negate: () => s.crypto_core_ed25519_scalar_negate(x),
    scalar_reduce: () => s.crypto_core_ed25519_scalar_reduce(wide),
  };
  /** @type {Record<string, number>} */
  const costs = {};
  for (const [name, fn] of Object.entries(samples)) {
    let best = Infinity;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) fn();
      best = Math.min(best, (performance.now() - t0) / 1000 / 100);
    }
    costs[name] = best;
  }
  return costs;
}

/** @param {string} line */
async function pyAsk(line) {
  if (!py || !lines) return null;
  /** @type {any} */ (py.stdin).write(`${line}\n`);
  const r = await lines.next();
  return String(r.value);
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** @param {Record<string, number>} counts @param {Record<string, number>} units */
const floorOf = (counts, units) => Object.entries(counts).reduce((acc, [op, k]) => acc + k * (units[op] ?? 0), 0);

// The auditor's transcripts: selfplay matches played by the Python side, the same file for both.
const dir = auditRounds.length ? mkdtempSync(path.join(os.tmpdir(), 'koikoi-bench-')) : '';
/** @type {Record<string, string>} */
const pySteps = { prove: 'prove', verify: 'verify', deal: 'deal', opening: 'opening' };
for (const r of auditRounds) {
  const file = path.join(dir, `selfplay-${r}.koikoi`);
  if (!py) break;
  await pyAsk(`selfplay ${r} 2024 ${file}`);
  const data = new Uint8Array(readFileSync(file));
  const accepted = (/** @type {import('../src/audit/replay.js').Report} */ report) => {
    if (!report.ok) throw new Error(`the auditor does not accept the ${r}-round selfplay transcript`);
  };
  // As `koikoi verify` runs: its verification on the machine's threads (web/bin/verify.js and
  // mentalpoker.parallel alike), and on one thread each.
  js[`audit_${r}`] = async () => accepted(await auditBytesParallel(data));
  pySteps[`audit_${r}`] = `audit ${file}`;
  js[`audit_${r}_serial`] = () => accepted(auditBytes(data));
  pySteps[`audit_${r}_serial`] = `audit_serial ${file}`;
}

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const loadBefore = load();
// Unit costs are sampled before the first step and after each one, on both sides; each side's
// floor uses the fastest sample of every operation, a lower bound of what a run of it costs.
/** @type {Record<string, number>} */
const nodeUnits = {};
/** @type {Record<string, number>} */
const pyUnits = {};
async function sampleUnits() {
  for (const [op, cost] of Object.entries(unitCosts())) nodeUnits[op] = Math.min(nodeUnits[op] ?? Infinity, cost);
  const text = await pyAsk('units');
  for (const [op, cost] of Object.entries(text ? JSON.parse(text) : {})) pyUnits[op] = Math.min(pyUnits[op] ?? Infinity, Number(cost));
}
await sampleUnits();

/** @type {Record<string, {node: number, python: number, ratio: number, nodeOps: Record<string, number>, pythonOps: Record<string, number> | null, nodeFloor: number, pythonFloor: number}>} */
const results = {};
for (const [what, pyWhat] of Object.entries(pySteps)) {
  await js[what]();
  await pySample(pyWhat);
  const nodeOps = what === 'opening' || !what.endsWith('serial') && what.startsWith('audit') ? {} : countOperations(js[what]);
  const pyOpsText = Object.keys(nodeOps).length ? await pyAsk(`counts ${pyWhat}`) : null;
  const pythonOps = pyOpsText ? JSON.parse(pyOpsText) : null;
  const nodeTimes = [];
  const pyTimes = [];
  for (let i = 0; i < repeat; i++) {
    // Interleaved, the order alternating, so a load change weighs on both alike.
    const order = i % 2 === 0 ? ['node', 'python'] : ['python', 'node'];
    for (const side of order) {
      if (side === 'python') {
        pyTimes.push(await pySample(pyWhat));
        continue;
      }
      excluded = 0;
      const t0 = performance.now();
      await js[what]();
      nodeTimes.push((performance.now() - t0 - excluded) / 1000);
    }
  }
  await sampleUnits();
  const node = median(nodeTimes);
  const pyMedian = median(pyTimes);
  results[what] = { node, python: pyMedian, ratio: node / pyMedian, nodeOps, pythonOps, nodeFloor: NaN, pythonFloor: NaN };
}
for (const r of Object.values(results)) {
  r.nodeFloor = floorOf(r.nodeOps, nodeUnits);
  r.pythonFloor = r.pythonOps ? floorOf(r.pythonOps, pyUnits) : NaN;
}
if (py) /** @type {any} */ (py.stdin).end();
if (dir) rmSync(dir, { recursive: true, force: true });
const machine = { cores: os.cpus().length, loadBefore, loadAfter: load() };
const unitRatio = Object.fromEntries(['mult', 'base_mult', 'add', 'validate'].map((op) => [op, nodeUnits[op] / pyUnits[op]]));
if (json) process.stdout.write(`${JSON.stringify({ n: N, repeat, machine, units: { node: nodeUnits, python: pyUnits, ratio: unitRatio }, results }, null, 2)}\n`);
else {
  /** @type {Record<string, string>} */
  const names = {
    prove: '48-card shuffle prove', verify: '48-card shuffle verify (message)', deal: 'deal setup v2 (2 keys, 2 shuffles, opening)',
    opening: 'the opening alone (2 x 16 shares, 32 cards)',
  };
  for (const r of auditRounds) {
    names[`audit_${r}`] = `auditor, ${r}-round transcript (threads)`;
    names[`audit_${r}_serial`] = `auditor, ${r}-round transcript (one thread)`;
  }
  const us = (/** @type {number} */ x) => `${(x * 1e6).toFixed(1)} us`;
  process.stdout.write(`median of ${repeat} interleaved runs; ratio = Node / Python (below 1: Node is faster); load average ${machine.loadBefore} before, ${machine.loadAfter} after, ${machine.cores} cores\n`);
  process.stdout.write(`unit costs node/python: ${['mult', 'base_mult', 'add', 'validate'].map((op) => `${op} ${us(nodeUnits[op])}/${us(pyUnits[op])} = ${unitRatio[op].toFixed(2)}`).join(', ')}\n`);
  const ops = (/** @type {Record<string, number>} */ c) => ['mult', 'base_mult', 'validate', 'add', 'sub'].map((op) => `${op} ${c[op] ?? 0}`).join(' ');
  for (const [what, r] of Object.entries(results)) {
    const pyText = Number.isNaN(r.python) ? 'python: not installed' : `python ${(r.python * 1000).toFixed(1)} ms  ratio ${r.ratio.toFixed(2)}`;
    process.stdout.write(`${names[what].padEnd(48)} node ${(r.node * 1000).toFixed(1)} ms  ${pyText}\n`);
    if (r.pythonOps) {
      process.stdout.write(`${''.padEnd(6)}ops node: ${ops(r.nodeOps)}; floor ${(r.nodeFloor * 1000).toFixed(1)} ms (median/floor ${(r.node / r.nodeFloor).toFixed(2)})\n`);
      process.stdout.write(`${''.padEnd(6)}ops python: ${ops(r.pythonOps)}; floor ${(r.pythonFloor * 1000).toFixed(1)} ms (median/floor ${(r.python / r.pythonFloor).toFixed(2)}); floor ratio ${(r.nodeFloor / r.pythonFloor).toFixed(2)}\n`);
    }
  }
}

// Random full rounds per second through the JavaScript rules engine, the measure `koikoi bench
// rules` takes of the Python one: a shuffled deck, an auditor's engine (viewer null), uniformly
// random legal actions to the end. Each figure is a ratio against the same floor as the Python
// benchmark (2,000 rounds/s); with --versus-python, batches of `koikoi bench rules` run
// interleaved with the JavaScript batches and the ratio JavaScript/Python is printed too.
// Run: `node web/test/rules/bench_rules.js [--json] [--versus-python] [rounds] [repeat]`.
// Run or imported by the test runner it does nothing.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { Rng } from '../../src/ai/rng.js';
import { PRESETS, RoundState, playRound, preset } from '../../src/rules/index.js';

/**
 * Seconds per random round, the median of `repeat` batches of `rounds`.
 * @param {string[]} presets
 * @param {number} rounds
 * @param {number} repeat
 * @param {string} seed
 */
export function measureRounds(presets, rounds, repeat, seed = 'bench') {
  const rng = new Rng(seed);
  const times = [];
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      const profile = preset(presets[i % presets.length]);
      const deck = rng.shuffle(Array.from({ length: 48 }, (_, k) => k));
      const s = new RoundState({ profile, dealer: i & 1, viewer: null, roundIndex: 1, month: 1 + (i % 12) });
      playRound(s, deck, (_, options) => rng.choice(options));
    }
    times.push((performance.now() - t0) / 1000 / rounds);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The floor of `koikoi bench rules`: 2,000 rounds per second. */
const FLOOR_S = 0.0005;

/**
 * One batch of the Python benchmark, seconds per round over every preset.
 * @param {string} koikoi the `koikoi` command
 * @param {number} rounds
 */
function pythonBatch(koikoi, rounds) {
  const r = spawnSync(koikoi, ['bench', 'rules', '--json', '--rounds', String(rounds), '--repeat', '1'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`koikoi bench rules failed: ${r.stderr}`);
  return JSON.parse(r.stdout).find((/** @type {any} */ row) => row.name === 'random_rounds_all_presets').median_s;
}

// Run only as a script: the test runner also executes every file under test/ (NODE_TEST_CONTEXT set).
if (process.env.NODE_TEST_CONTEXT === undefined && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const versus = args.includes('--versus-python');
  const [rounds = 2000, repeat = 5] = args.filter((a) => !a.startsWith('--')).map(Number);
  measureRounds([...PRESETS], rounds, 1, 'warm-up'); // let the JIT settle first
  /** @type {Array<Record<string, unknown>>} */
  const rows = [['all_presets', [...PRESETS]], ...PRESETS.map((p) => [p, [p]])].map(([name, presets]) => {
    const s = measureRounds(/** @type {string[]} */ (presets), rounds, repeat);
    return { name: `js_random_rounds_${name}`, median_s: s, floor_s: FLOOR_S, ratio: FLOOR_S / s, unit: 's/round', rounds_per_s: Math.round(1 / s) };
  });
  if (versus) {
    const koikoi = process.env.KOIKOI ?? 'koikoi';
    const js = [];
    const py = [];
    for (let i = 0; i < repeat; i++) {
      js.push(measureRounds([...PRESETS], rounds, 1, `versus/${i}`));
      py.push(pythonBatch(koikoi, rounds));
    }
    const median = (/** @type {number[]} */ xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    rows.push({
      name: 'js_over_python_random_rounds', js_s: median(js), python_s: median(py), ratio: median(py) / median(js),
      note: `JavaScript rounds/s over Python rounds/s, ${repeat} interleaved batches of ${rounds} rounds each`,
    });
  }
  if (json) console.log(JSON.stringify(rows, null, 2));
  else {
    for (const r of rows) {
      if (r.rounds_per_s !== undefined) console.log(`${r.name}: ${Number(r.rounds_per_s).toLocaleString('en')} rounds/s (${Number(r.ratio).toFixed(2)} x the floor)`);
      else console.log(`${r.name}: ${Number(r.ratio).toFixed(2)} (${r.note})`);
    }
  }
}

// Random full rounds per second through the JavaScript rules engine, the measure `koikoi bench
// rules` takes of the Python one: a shuffled deck, an auditor's engine (viewer null), uniformly
// random legal actions to the end. Run: `node web/test/rules/bench_rules.js [--json] [rounds] [repeat]`.
// Imported by the test runner it does nothing.

import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { Rng } from '../../src/ai/rng.js';
import { PRESETS, RoundState, preset, runRevealed } from '../../src/rules/index.js';

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
      runRevealed(s, deck);
      while (s.need !== null) {
        const need = /** @type {import('../../src/rules/index.js').NeedAction} */ (s.need);
        s.apply(need.seat, rng.choice(s.legalActions()));
        runRevealed(s, deck);
      }
    }
    times.push((performance.now() - t0) / 1000 / rounds);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const [rounds = 2000, repeat = 5] = args.filter((a) => a !== '--json').map(Number);
  const rows = [['all_presets', [...PRESETS]], ...PRESETS.map((p) => [p, [p]])].map(([name, presets]) => {
    const s = measureRounds(/** @type {string[]} */ (presets), rounds, repeat);
    return { name: `js_random_rounds_${name}`, median_s: s, unit: 's/round', rounds_per_s: Math.round(1 / s) };
  });
  if (json) console.log(JSON.stringify(rows, null, 2));
  else for (const r of rows) console.log(`${r.name}: ${r.rounds_per_s.toLocaleString('en')} rounds/s`);
}

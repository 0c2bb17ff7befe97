#!/usr/bin/env node
// node web/bin/bench-ai.js [--seconds S] [--simulations N] [--rules PRESET] [--pairs a-b,...] [--no-history] [--json]
//
// The JavaScript computer players' ladder, for reports (never a test): each pair (default
// strong-greedy and master-strong) plays whole matches of the preset (12 rounds under nintendo)
// through the rules engine alone, seats alternating, the pairs interleaved match by match until
// `--seconds` (default 180) of wall time are spent. The master plays a fixed number of playouts
// per decision (`--simulations`, default 150 as `koikoi bench ai`; the browser plays 1000 capped
// at 1 s), no wall-time cap, so a run repeats exactly except for its timings. Each row gives the
// first player's match win rate with its 95% Wilson interval, the mean point difference per
// round and each side's CPU milliseconds per decision (decisions with two or more options; one
// process, one core). Compare the master's time per decision with the Python one's at the same
// budget: `koikoi bench ai --pairs master-strong --matches 10 --master-simulations N`.
// `--no-history` does not show the players the round's public history (`observe`: the master
// then deals the unseen cards without its reading of the opponent's discards).

import { createPlayer, playMatch, preparePlayer } from '../src/ai/index.js';
import { PRESETS, preset } from '../src/rules/index.js';

const args = process.argv.slice(2);
/** @param {string} name @param {string} fallback */
const opt = (name, fallback) => (args.includes(name) ? String(args[args.indexOf(name) + 1]) : fallback);
const json = args.includes('--json');
const history = !args.includes('--no-history');
const seconds = Number(opt('--seconds', '180'));
const simulations = Number(opt('--simulations', '150'));
const rules = opt('--rules', 'nintendo');
const KINDS = ['random', 'greedy', 'strong', 'master', 'expert'];
const pairs = opt('--pairs', 'strong-greedy,master-strong').split(',').map((p) => p.split('-'));
if (!PRESETS.includes(rules)) throw new Error(`unknown preset ${rules}`);
for (const p of pairs) if (p.length !== 2 || !p.every((k) => KINDS.includes(k))) throw new Error(`bad pair ${p.join('-')}`);
const profile = preset(rules);
for (const kind of new Set(pairs.flat())) await preparePlayer(kind);

/** A player wrapper that counts the CPU time of its real choices (two or more options). */
class Timed {
  /** @param {import('../src/ai/players.js').Player} inner */
  constructor(inner) {
    this.inner = inner;
    this.name = inner.name;
    this.micros = 0;
    this.decisions = 0;
    // The same hooks as the wrapped player: the match context and the round's public history.
    if (inner.matchUpdate) this.matchUpdate = inner.matchUpdate.bind(inner);
    if (inner.observe && history) this.observe = inner.observe.bind(inner);
  }

  /** @type {import('../src/ai/players.js').Player['choose']} */
  choose(state, seat, context) {
    if (state.legalActions().length < 2) return this.inner.choose(state, seat, context);
    const start = process.cpuUsage();
    const action = this.inner.choose(state, seat, context);
    const used = process.cpuUsage(start);
    this.micros += used.user + used.system;
    this.decisions++;
    return action;
  }
}

/** @param {number} wins @param {number} n */
function wilson(wins, n, z = 1.959963984540054) {
  if (n <= 0) return [0, 1];
  const p = wins / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const rows = pairs.map(([first, second]) => ({ first, second, matches: 0, wins: 0, draws: 0, points: 0, rounds: 0, micros: [0, 0], decisions: [0, 0] }));
const started = performance.now();
for (let i = 0; (performance.now() - started) / 1000 < seconds; i++) {
  const row = rows[i % rows.length];
  const m = row.matches;
  const make = (/** @type {string} */ kind, /** @type {number} */ seed) => new Timed(createPlayer(/** @type {any} */ (kind), seed, { profile, simulations, maxSeconds: null }));
  const a = make(row.first, 2026 * 1000003 + 2 * m);
  const b = make(row.second, 2026 * 1000003 + 2 * m + 1);
  const seat = m % 2;
  const { match } = playMatch(profile, seat === 0 ? [a, b] : [b, a], { seed: `bench-ai/${rules}/${row.first}-${row.second}/${m}` });
  row.matches++;
  if (match.winner === seat) row.wins++;
  if (match.winner === null) row.draws++;
  row.points += match.scores[seat] - match.scores[1 - seat];
  row.rounds += match.roundsPlayed;
  [a, b].forEach((p, k) => { row.micros[k] += p.micros; row.decisions[k] += p.decisions; });
}
const wall = (performance.now() - started) / 1000;
const out = rows.map((r) => {
  const [lo, hi] = wilson(r.wins, r.matches);
  const ms = r.micros.map((u, k) => (r.decisions[k] ? u / 1000 / r.decisions[k] : 0));
  return {
    name: `${rules}/${r.first}_vs_${r.second}`, matches: r.matches, win_rate: r.matches ? r.wins / r.matches : 0, ci: [lo, hi],
    draws: r.draws, points_per_round: r.rounds ? r.points / r.rounds : 0, ms_per_decision: { [r.first]: ms[0], [r.second]: ms[1] },
    decisions: { [r.first]: r.decisions[0], [r.second]: r.decisions[1] }, master_simulations: simulations, history,
  };
});
if (json) {
  process.stdout.write(`${JSON.stringify({ rows: out, wall_seconds: wall }, null, 2)}\n`);
} else {
  for (const r of out) {
    const times = Object.entries(r.ms_per_decision).map(([k, v]) => `${k} ${v.toFixed(3)} ms`).join(', ');
    process.stdout.write(`${r.name}: ${r.matches} matches, win rate ${r.win_rate.toFixed(3)} ci=[${r.ci[0].toFixed(3)}, ${r.ci[1].toFixed(3)}], `
      + `draws ${r.draws}, points/round ${r.points_per_round >= 0 ? '+' : ''}${r.points_per_round.toFixed(2)}; per decision ${times}\n`);
  }
  process.stdout.write(`wall ${wall.toFixed(0)} s, master at ${simulations} playouts per decision, no time cap${history ? '' : ', no round history shown'}\n`);
}

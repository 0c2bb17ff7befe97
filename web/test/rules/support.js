// Shared helpers of the rules tests: vectors, random profiles and scripted random rounds, the
// state record compared across implementations, and the Python driver subprocess.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Rng } from '../../src/ai/rng.js';
import {
  ALL_SWITCHES, CARDS, HAND_YAKU_IDS, PRESETS, Profile, RulesError, SWITCHES, actionFromDict, actionToDict, bestClaims,
  canonicalJson, claimHandYaku, dealLayout, handClaims, preset, resultToDict,
} from '../../src/rules/index.js';

export { Rng };

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = path.resolve(HERE, '..', '..', '..');

/**
 * A vector file of spec/vectors/rules/.
 * @param {string} name e.g. `perft.json`
 * @returns {any}
 */
export function loadVector(name) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'spec', 'vectors', 'rules', name), 'utf8'));
}

/** Every vector file of spec/vectors/rules/. */
export function vectorFiles() {
  return fs.readdirSync(path.join(ROOT, 'spec', 'vectors', 'rules')).filter((f) => f.endsWith('.json')).sort();
}

/**
 * A random value for one switch (valid on its own; the caller retries the combination).
 * @param {Rng} rng
 * @param {(typeof SWITCHES)[number]} sw
 * @returns {unknown}
 */
function randomSwitch(rng, sw) {
  switch (sw.kind) {
    case 'name': return rng.choice([...PRESETS, 'custom', 'house_1']);
    case 'bool': return rng.below(2) === 1;
    case 'enum': return rng.choice(/** @type {readonly string[]} */ (sw.choices));
    case 'bright_values': return [0, 0, 0, 0].map(() => 1 + rng.below(rng.below(2) ? 15 : 100));
    case 'joker': return rng.choice(['', ...CARDS.filter((c) => c.kind === 'animal' && c.subclass !== 'sake').map((c) => c.id)]);
    case 'hand_yaku': {
      /** @type {Record<string, number>} */
      const out = {};
      for (const id of HAND_YAKU_IDS) if (rng.below(2)) out[id] = 1 + rng.below(rng.below(2) ? 20 : 100);
      return out;
    }
    case 'cards': {
      // Mostly whole months (willow, paulownia) or the rain man, sometimes any cards.
      const forbidden = sw.forbidden ?? [];
      const pick = rng.below(4) === 0
        ? CARDS.filter(() => rng.below(8) === 0).map((c) => c.index)
        : rng.choice([[40], [40, 41, 42, 43], [44, 45, 46, 47], [40, 44], []]);
      return pick.filter((c) => !forbidden.includes(c)).map((c) => CARDS[c].id);
    }
    default: {
      const small = { rounds: 13, double_threshold: 12, max_calls_per_round: 4, oya_ken_points: 6, monthly_yaku_points: 6, target_score: 60, pool_start: 60 };
      const hi = /** @type {Record<string, number>} */ (small)[sw.name] ?? 10;
      return rng.below(8) === 0 ? rng.below(10001) : rng.below(hi);
    }
  }
}

/**
 * A random valid profile: a preset with a random set of switches changed.
 * @param {Rng} rng
 * @param {number} [changes] about how many switches to change
 * @param {{extensions?: boolean}} [opts] extensions: change extension switches too (version 2)
 * @returns {Profile}
 */
export function randomProfile(rng, changes = 6, { extensions = true } = {}) {
  const pool = extensions ? ALL_SWITCHES : SWITCHES;
  for (;;) {
    const d = /** @type {Record<string, unknown>} */ (preset(rng.choice(PRESETS)).allSwitches());
    const n = rng.below(changes + 1);
    for (let i = 0; i < n; i++) {
      const sw = rng.choice(pool);
      d[sw.name] = randomSwitch(rng, sw);
    }
    try {
      return preset('nintendo').withSwitches(d);
    } catch (e) {
      if (!(e instanceof RulesError)) throw e;
    }
  }
}

/**
 * A random switch dictionary that may be invalid in any way (for validation cross-checks).
 * @param {Rng} rng
 * @param {{extensions?: boolean}} [opts]
 * @returns {Record<string, unknown>}
 */
export function randomProfileDict(rng, { extensions = true } = {}) {
  const d = /** @type {Record<string, unknown>} */ (randomProfile(rng, 6, { extensions }).toDict());
  const junk = [true, false, 0, 1, -1, 10000, 10001, 101, '', 'x', 'always', '05-bridge', '09-cup', [], {}, null, [1, 2, 3, 4], [10, 8, 7], { teshi: 0 }, { tenho: 5 }, { oya_ken: 1 },
    ['11-rainman'], ['12-phoenix', '11-rainman'], ['08-moon'], ['03-curtain'], ['11-rainman', '11-rainman'], 'per_seat', 'coin', 'card_draw', 'play_on', 'off', 'doubled_per_call'];
  const n = rng.below(3);
  for (let i = 0; i < n; i++) {
    const what = rng.below(10);
    const sw = rng.choice(extensions ? ALL_SWITCHES : SWITCHES);
    if (what === 0) delete d[sw.name];
    else if (what === 1) d[`x_${sw.name}`] = 1;
    else d[sw.name] = rng.choice(junk);
  }
  return d;
}

/**
 * A random deck: the card index at each of the 48 positions. With `special`, a quarter of the
 * decks are sorted by month at some hand or field positions so that hand yaku and whole-month
 * fields (rare in shuffled decks) are played often.
 * @param {Rng} rng
 * @param {boolean} [special]
 */
export function randomDeck(rng, special = false) {
  const deck = rng.shuffle(CARDS.map((c) => c.index));
  if (!special || rng.below(4) !== 0) return deck;
  const layout = dealLayout(rng.below(2));
  const zone = [...rng.choice([layout.hands[0], layout.hands[1], layout.field, layout.hands[rng.below(2)]])];
  // Put the cards of those positions plus a few more, sorted by month, on the zone's positions.
  const extra = rng.shuffle(Array.from({ length: 48 }, (_, i) => i).filter((p) => !zone.includes(p))).slice(0, rng.below(4) * 2);
  zone.push(...extra);
  // Group by month: months with more of these cards first.
  const byMonth = new Map();
  for (const c of CARDS) if (!byMonth.has(c.month)) byMonth.set(c.month, []);
  for (const c of rng.shuffle(CARDS.map((x) => x.index))) byMonth.get(CARDS[c].month).push(c);
  const months = rng.shuffle([...byMonth.keys()]);
  const wanted = [];
  const pairsOnly = rng.below(2) === 0;
  for (const m of months) {
    const group = byMonth.get(m);
    wanted.push(...(pairsOnly ? group.slice(0, 2) : group));
    if (wanted.length >= zone.length) break;
  }
  const take = wanted.slice(0, zone.length);
  // Swap the wanted cards into the zone.
  take.forEach((c, i) => {
    const from = deck.indexOf(c);
    const to = zone[i];
    const t = deck[to]; deck[to] = c; deck[from] = t;
  });
  return deck;
}

/**
 * The state record both implementations produce after each step (rules_driver.py `_record`).
 * @param {import('../../src/rules/round.js').RoundState} s
 */
export function stateRecord(s) {
  const v = (s.viewer === null ? [0, 1] : [s.viewer]).map((seat) => s.view(seat));
  const need = s.need;
  return {
    need: need === null ? null : need.type === 'reveal' ? ['reveal', need.positions.slice(), need.to] : ['action', need.seat, need.kind],
    legal: s.legalActions().map((a) => canonicalJson(actionToDict(a))).sort(),
    field: v[0].field,
    piles: v[0].piles,
    hand_positions: v.map((x) => x.handPositions),
    hands: v.map((x) => x.hand),
    opponent_hand_size: v.map((x) => x.opponentHandPositions.length),
    bases: v[0].bases,
    yaku: v[0].yaku,
    calls: v[0].calls,
    stock_count: v[0].stockCount,
    pending: v[0].pendingCard,
    options: v[0].captureOptions,
    result: s.result === null ? null : resultToDict(s.result),
  };
}

/**
 * An error as the driver reports it.
 * @param {unknown} e
 */
export function errorRecord(e) {
  if (!(e instanceof RulesError)) throw e;
  return { error: [e.name, e.reason] };
}

/**
 * @typedef {{reveal: [number, number], probe?: boolean} | {skip: true, probe?: boolean} | {apply: [number, Record<string, unknown>], probe?: boolean}} Step
 */

/**
 * Apply one script step to an engine.
 * @param {import('../../src/rules/round.js').RoundState} s
 * @param {Step} step
 */
export function applyStep(s, step) {
  if ('reveal' in step) s.reveal(step.reveal[0], step.reveal[1]);
  else if ('skip' in step) s.skipReveal();
  else s.apply(step.apply[0], actionFromDict(step.apply[1]));
}

/**
 * Run a script on an engine, producing the records the driver produces.
 * @param {import('../../src/rules/round.js').RoundState} s
 * @param {Step[]} script
 */
export function runScript(s, script) {
  /** @type {object[]} */
  const out = [stateRecord(s)];
  for (const step of script) {
    const target = step.probe ? s.copy() : s;
    try {
      applyStep(target, step);
    } catch (e) {
      out.push(errorRecord(e));
      if (!step.probe) break;
      continue;
    }
    out.push(step.probe ? { ok: true } : stateRecord(s));
  }
  return out;
}

/**
 * Random actions in wire form, legal or not, for probing the error reasons: mostly near the
 * legal ones (the seat's own positions, the field's cards).
 * @param {Rng} rng
 * @param {import('../../src/rules/round.js').RoundState} s
 * @param {number} seat
 * @returns {Record<string, unknown>}
 */
function randomActionDict(rng, s, seat) {
  const hand = s.hands[seat] ?? [];
  const near = hand.length > 0 && rng.below(3) > 0;
  switch (rng.below(6)) {
    case 0: return { type: 'play', position: near ? rng.choice(hand) : rng.below(48) };
    case 1: return { type: 'capture', card: s.field.length > 0 && rng.below(2) ? rng.choice(s.field) : rng.below(48) };
    case 2: return { type: 'koikoi' };
    case 3: return { type: 'stop' };
    case 4: return { type: 'no_hand_yaku' };
    default: {
      const n = rng.below(2) ? 4 : 8;
      const pool = near && hand.length >= n ? hand.slice() : Array.from({ length: 24 }, (_, i) => i);
      const ps = rng.shuffle(pool).slice(0, n).sort((a, b) => a - b);
      return { type: 'claim_hand_yaku', yaku: rng.choice(HAND_YAKU_IDS), positions: ps };
    }
  }
}

/**
 * Build a random script for one round (and run it on `s` as it is built): reveals in random order
 * within each need, skips where the engine may not see, random legal moves, the true hand-yaku
 * claim of a hidden hand now and then, and probes (illegal actions and bad reveals tried on a copy).
 * @param {Rng} rng
 * @param {import('../../src/rules/round.js').RoundState} s the engine, at its start
 * @param {number[]} deck
 * @param {{probes?: number, observerSkips?: boolean}} [opts] probes: chance in 1/100 of a probe before each step
 * @returns {Step[]}
 */
export function randomScript(rng, s, deck, { probes = 15, observerSkips = true } = {}) {
  /** @type {Step[]} */
  const script = [];
  /** @param {Step} step */
  const push = (step) => {
    script.push(step);
    if (step.probe) return true;
    try { applyStep(s, step); } catch (e) { if (!(e instanceof RulesError)) throw e; return false; }
    return true;
  };
  const layout = dealLayout(s.dealer);
  while (s.need !== null) {
    const need = s.need;
    if (rng.below(100) < probes) {
      // A probe: an unexpected reveal, a wrong card, a skip, or a random action.
      const kind = rng.below(4);
      if (kind === 0) push({ probe: true, reveal: [rng.below(48), rng.below(rng.below(8) === 0 ? 50 : 48)] });
      else if (kind === 1 && need.type === 'reveal') push({ probe: true, reveal: [rng.choice(need.positions), rng.below(10) === 0 ? rng.choice([-1, 48, 1000]) : rng.below(48)] });
      else if (kind === 2) push({ probe: true, skip: true });
      else {
        const seat = rng.below(8) === 0 ? rng.below(3) : (need.type === 'action' ? need.seat : rng.below(2));
        push({ probe: true, apply: [seat, randomActionDict(rng, s, seat === 2 ? 0 : seat)] });
      }
    }
    if (need.type === 'reveal') {
      const skip = need.to !== null && (s.viewer !== null ? s.viewer !== need.to : observerSkips && rng.below(4) === 0);
      if (skip) {
        if (!push({ skip: true })) return script;
        continue;
      }
      for (const p of rng.shuffle(need.positions.slice())) {
        if (!push({ reveal: [p, deck[p]] })) return script;
      }
      continue;
    }
    if (need.kind === 'hand_yaku') {
      // Every claim the true hand supports (lesser ones too) and no claim, each on a copy.
      const positions = layout.hands[need.seat];
      for (const c of handClaims(positions, positions.map((p) => deck[p]), s.profile)) {
        push({ probe: true, apply: [need.seat, actionToDict(claimHandYaku(c.yaku, c.positions))] });
      }
      push({ probe: true, apply: [need.seat, { type: 'no_hand_yaku' }] });
    }
    let options = s.legalActions().map(actionToDict);
    if (need.kind === 'hand_yaku' && !s.knowsHand(need.seat) && rng.below(2)) {
      // The hidden seat may hold a hand yaku: make its true best claim now and then.
      const positions = layout.hands[need.seat];
      const claims = bestClaims(positions, positions.map((p) => deck[p]), s.profile);
      if (claims.length > 0) options = claims.map((c) => actionToDict(claimHandYaku(c.yaku, c.positions)));
    }
    if (!push({ apply: [need.seat, rng.choice(options)] })) return script;
  }
  return script;
}

/** The Python interpreter that has koikoi_p2p installed, or null. */
export function findPython() {
  const candidates = [process.env.KOIKOI_PYTHON, path.join(ROOT, '.venv', 'bin', 'python'), 'python3'].filter(Boolean);
  for (const py of /** @type {string[]} */ (candidates)) {
    const r = spawnSync(py, ['-c', 'import koikoi_p2p.rules'], { cwd: ROOT, encoding: 'utf8' });
    if (r.status === 0) return py;
  }
  return null;
}

/**
 * Send requests to the Python driver and return its answers, one per request.
 * @param {string} python
 * @param {object[]} requests
 * @returns {any[]}
 */
export function runDriver(python, requests) {
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const r = spawnSync(python, [path.join(HERE, 'rules_driver.py')], {
    cwd: ROOT, input, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`rules_driver.py failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.split('\n').filter((l) => l.length > 0);
  if (lines.length !== requests.length) throw new Error(`driver answered ${lines.length} of ${requests.length}: ${r.stderr}`);
  return lines.map((l) => JSON.parse(l));
}

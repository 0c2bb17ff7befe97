// Koi-koi or stop for the strong player, decided by playing the rest of the round out many times
// (a port of koikoi_p2p/ai/rollout.py, step for step, so that with the same random source it
// gives the same averages). Each rollout deals the unseen cards (the opponent's hand and the
// stock) at random and plays on with a quick greedy policy for both seats until one side improves
// (which ends the round after a call under most rule sets) or the hands run out.

import { CARDS } from '../rules/cards.js';
import { roundScore, scorePile } from '../rules/scoring.js';

/** @typedef {import('../rules/profile.js').Profile} Profile */

const MONTH = CARDS.map((c) => c.month);
/** @type {Record<string, number>} */
const WORTH = { bright: 6, animal: 2, ribbon: 2, plain: 1 };
const VALUE = CARDS.map((c) => WORTH[c.kind]);

/**
 * @typedef {object} Position what the deciding seat knows when it must choose koi-koi or stop
 * @property {0 | 1} me
 * @property {readonly number[]} field
 * @property {readonly number[]} hand
 * @property {number} opponentHandSize
 * @property {readonly [readonly number[], readonly number[]]} piles
 * @property {readonly number[]} calls
 * @property {number} month
 */

/**
 * @typedef {object} RandomSource what a rollout draws from (PyRandom, or anything alike)
 * @property {<T>(items: T[]) => T[]} shuffle
 * @property {() => number} random
 */

/**
 * Cards captured when `played` meets the field (greedy choice between two); the field updated.
 * @param {number[]} field
 * @param {number} played
 * @returns {number[]}
 */
function take(field, played) {
  const month = MONTH[played];
  const matches = field.filter((f) => MONTH[f] === month);
  if (matches.length === 0) {
    field.push(played);
    return [];
  }
  if (matches.length === 2) {
    const best = VALUE[matches[1]] > VALUE[matches[0]] ? matches[1] : matches[0]; // Python max: first of equals
    field.splice(field.indexOf(best), 1);
    return [played, best];
  }
  for (const f of matches) field.splice(field.indexOf(f), 1);
  return [played, ...matches];
}

/**
 * Greedy: the play that captures the most value, else discard the least valuable card.
 * @param {number[]} hand
 * @param {number[]} field
 */
function pick(hand, field) {
  /** @type {Map<number, number>} */
  const months = new Map();
  for (const f of field) months.set(MONTH[f], Math.max(months.get(MONTH[f]) ?? 0, VALUE[f]));
  let best = hand[0];
  let bestValue = -1e9;
  for (const c of hand) {
    const gain = months.get(MONTH[c]);
    const value = gain !== undefined ? VALUE[c] + gain : -VALUE[c] * 0.5;
    if (value > bestValue) { best = c; bestValue = value; }
  }
  return best;
}

/**
 * @param {Set<number>} pile
 * @param {Profile} profile
 * @param {number} month
 */
const baseOfPile = (pile, profile, month) => scorePile([...pile], profile, month).base;

/**
 * One random continuation after a call; the points to me (negative: to the opponent).
 * @param {Position} pos
 * @param {number[]} unseen
 * @param {RandomSource} rng
 * @param {Profile} profile
 */
function playout(pos, unseen, rng, profile) {
  const me = pos.me;
  const other = /** @type {0 | 1} */ (1 - me);
  rng.shuffle(unseen);
  const n = pos.opponentHandSize;
  /** @type {number[][]} */
  const hands = [];
  hands[me] = [...pos.hand];
  hands[other] = unseen.slice(0, n);
  const stock = unseen.slice(n);
  const field = [...pos.field];
  /** @type {Set<number>[]} */
  const piles = [];
  piles[me] = new Set(pos.piles[me]);
  piles[other] = new Set(pos.piles[other]);
  const start = [baseOfPile(piles[0], profile, pos.month), baseOfPile(piles[1], profile, pos.month)];
  const calls = [...pos.calls, me];
  let seat = other;
  while (hands[me].length || hands[other].length) {
    const hand = hands[seat];
    if (hand.length) {
      const played = pick(hand, field);
      hand.splice(hand.indexOf(played), 1);
      for (const c of take(field, played)) piles[seat].add(c);
      if (stock.length) {
        for (const c of take(field, /** @type {number} */ (stock.shift()))) piles[seat].add(c);
      }
      const now = baseOfPile(piles[seat], profile, pos.month);
      if (now > start[seat]) {
        const points = roundScore(now, calls, seat, profile);
        return seat === me ? points : -points;
      }
    }
    seat = /** @type {0 | 1} */ (1 - seat);
  }
  return 0; // exhaustion after a call: the caller's yaku lapse (the usual reading)
}

/**
 * Average points to me (minus the opponent's) if I call koi-koi now.
 * @param {Position} pos
 * @param {Profile} profile
 * @param {RandomSource} rng
 * @param {number} [rollouts]
 */
export function callValue(pos, profile, rng, rollouts = 40) {
  const known = new Set([...pos.field, ...pos.hand, ...pos.piles[0], ...pos.piles[1]]);
  const unseen = [];
  for (let c = 0; c < 48; c++) if (!known.has(c)) unseen.push(c);
  let total = 0;
  for (let i = 0; i < rollouts; i++) total += playout(pos, unseen.slice(), rng, profile);
  return total / rollouts;
}

/**
 * The points I score by stopping now.
 * @param {Position} pos
 * @param {Profile} profile
 */
export function stopValue(pos, profile) {
  const now = scorePile(pos.piles[pos.me], profile, pos.month).base;
  return now ? roundScore(now, pos.calls, pos.me, profile) : 0;
}

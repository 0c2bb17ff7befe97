// The round result (spec/rules.md §9.8) and its wire form.

import { RulesError } from './errors.js';
import { YAKU_IDS } from './scoring.js';

/** Reasons a round ends (spec/rules.md §9.8). */
export const RESULT_REASONS = Object.freeze(['stop', 'auto_end', 'exhaustion', 'oya_ken', 'hand_yaku', 'field_month', 'field_pairs', 'hand_month', 'both_hand_yaku']);

/**
 * @typedef {object} RoundResult
 * @property {0 | 1 | null} winner
 * @property {number} points the round score (0 without a winner)
 * @property {Readonly<Record<string, number>>} yaku the winner's yaku ({} without a winner)
 * @property {number} base the winner's base (0 without a winner)
 * @property {readonly number[]} calls the calling seats, in order
 * @property {boolean} redeal
 * @property {0 | 1} next_dealer
 * @property {string} reason
 * @property {boolean} consumes_round
 */

/** The keys of the wire form, in the reference's order. */
const KEYS = ['winner', 'points', 'yaku', 'base', 'calls', 'redeal', 'next_dealer', 'reason', 'consumes_round'];

/**
 * A frozen round result.
 * @param {RoundResult} r
 * @returns {Readonly<RoundResult>}
 */
export function makeResult(r) {
  return Object.freeze({
    winner: r.winner, points: r.points, yaku: Object.freeze({ ...r.yaku }), base: r.base,
    calls: Object.freeze(r.calls.slice()), redeal: r.redeal, next_dealer: r.next_dealer,
    reason: r.reason, consumes_round: r.consumes_round,
  });
}

/**
 * The wire form of a result: a fresh plain object, keys in the order of spec/rules.md §9.8.
 * @param {RoundResult} r
 * @returns {Record<string, unknown>}
 */
export function resultToDict(r) {
  return {
    winner: r.winner, points: r.points, yaku: { ...r.yaku }, base: r.base, calls: r.calls.slice(),
    redeal: r.redeal, next_dealer: r.next_dealer, reason: r.reason, consumes_round: r.consumes_round,
  };
}

/**
 * @param {unknown} v
 * @param {number} hi
 */
const isCount = (v, hi) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= hi;

/**
 * Parse the wire form of a result: exactly its keys, each of its type.
 * @param {unknown} data
 * @returns {Readonly<RoundResult>}
 * @throws {RulesError} `bad_result`
 */
export function resultFromDict(data) {
  const bad = (/** @type {string} */ why) => new RulesError('bad_result', why);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw bad('a round result is a mapping');
  const d = /** @type {Record<string, unknown>} */ (data);
  const keys = Object.keys(d).sort();
  const want = KEYS.slice().sort();
  if (keys.length !== want.length || keys.some((k, i) => k !== want[i])) throw bad('a round result has exactly the keys of resultToDict()');
  if (!(d.winner === null || d.winner === 0 || d.winner === 1)) throw bad('winner is seat 0, 1 or null');
  // spec/rules.md §1.4: every value a profile can produce is below 2^53.
  if (!isCount(d.points, Number.MAX_SAFE_INTEGER)) throw bad('points must be an integer 0..2^53-1');
  if (!isCount(d.base, Number.MAX_SAFE_INTEGER)) throw bad('base must be an integer 0..2^53-1');
  const y = d.yaku;
  if (y === null || typeof y !== 'object' || Array.isArray(y)) throw bad('yaku is a mapping');
  for (const [k, v] of Object.entries(/** @type {object} */ (y))) {
    if (!YAKU_IDS.includes(k) || !isCount(v, Number.MAX_SAFE_INTEGER)) throw bad('yaku maps yaku ids to points');
  }
  if (!Array.isArray(d.calls) || !d.calls.every((s) => s === 0 || s === 1)) throw bad('calls are seats');
  if (typeof d.redeal !== 'boolean' || typeof d.consumes_round !== 'boolean') throw bad('redeal and consumes_round are booleans');
  if (d.next_dealer !== 0 && d.next_dealer !== 1) throw bad('next_dealer is seat 0 or 1');
  if (typeof d.reason !== 'string' || !RESULT_REASONS.includes(d.reason)) throw bad('unknown reason');
  /** @type {Record<string, number>} */
  const yaku = {};
  const ym = /** @type {Record<string, number>} */ (y);
  for (const k of YAKU_IDS) if (Object.hasOwn(ym, k)) yaku[k] = ym[k];
  return makeResult({
    winner: d.winner, points: /** @type {number} */ (d.points), yaku, base: /** @type {number} */ (d.base), calls: d.calls, redeal: d.redeal,
    next_dealer: d.next_dealer, reason: d.reason, consumes_round: d.consumes_round,
  });
}

// What the board draws, as one plain (structured-clonable) object built from a seat's game peer:
// the round as this seat's engine sees it, the question it is asked with its legal options, the
// hints (yaku made and one card away, what stop and koi-koi score under these rules) and the
// match around it. Built in the seat's worker; the page only reads it (the board decides nothing).
import { CARDS } from '../../src/api/rules.js';
import { actionToDict } from '../../src/api/rules.js';
import { roundScore, scorePile } from '../../src/api/rules.js';

const SAKE_CUP = 32;

/**
 * @typedef {{kind: string, options: {[key: string]: unknown}[]}} Ask
 * @typedef {{
 *   seat: 0 | 1, month: number, dealer: 0 | 1, turn: 0 | 1, phase: string, field: number[], hand: number[],
 *   handPositions: number[], opponentCount: number, piles: [number[], number[]], yaku: [Record<string, number>, Record<string, number>],
 *   close: [string[], string[]], stockCount: number, pendingCard: number | null, captureOptions: number[], calls: number[],
 *   roundIndex: number, cupAs: ['both' | 'plain' | null, 'both' | 'plain' | null],
 * }} RoundTable
 */

/**
 * Yaku a pile would gain with one more of the cards still in play (not in either pile):
 * "one card away". Uses the rules engine's scorer, so every switch is honoured.
 * @param {number[]} pile @param {number[]} other @param {any} profile @param {number} month
 * @returns {string[]}
 */
export function closeYaku(pile, other, profile, month) {
  const now = scorePile(pile, profile, month).yaku;
  const taken = new Set([...pile, ...other]);
  const found = new Set();
  for (let c = 0; c < 48; c++) {
    if (taken.has(c)) continue;
    const next = scorePile([...pile, c], profile, month).yaku;
    for (const id of Object.keys(next)) if (!(id in now)) found.add(id);
  }
  return [...found];
}

/**
 * The round part of the table, from the seat's engine.
 * @param {any} engine a RoundState with this seat as viewer @param {0 | 1} seat
 * @returns {RoundTable}
 */
export function roundTable(engine, seat) {
  const v = engine.view(seat);
  const profile = engine.profile;
  return {
    seat, month: v.month, dealer: v.dealer, turn: v.turn, phase: v.phase, field: v.field, hand: v.hand, handPositions: v.handPositions,
    opponentCount: v.opponentHandPositions.length, piles: v.piles, yaku: v.yaku,
    close: [closeYaku(v.piles[0], v.piles[1], profile, v.month), closeYaku(v.piles[1], v.piles[0], profile, v.month)],
    stockCount: v.stockCount, pendingCard: v.pendingCard, captureOptions: v.captureOptions, calls: v.calls, roundIndex: v.roundIndex,
    cupAs: [cupAs(v.piles[0], profile, v.month), cupAs(v.piles[1], profile, v.month)],
  };
}

/**
 * How the sake cup in a pile counts (spec/rules.md §6.1, §6.3), so the board's class counts
 * agree with the yaku: 'both' (an animal and a plain, cup_is_plain), 'plain' (cup_either, where
 * counting it as a plain scores more), or null (an animal only, or not in the pile).
 * @param {number[]} pile @param {any} profile @param {number} month
 * @returns {'both' | 'plain' | null}
 */
export function cupAs(pile, profile, month) {
  if (!pile.includes(SAKE_CUP)) return null;
  if (profile.cup_is_plain) return 'both';
  if (!profile.cup_either) return null;
  const asAnimal = scorePile(pile, { ...profile, cup_either: false }, month).base;
  return scorePile(pile, profile, month).base > asAnimal ? 'plain' : null;
}

/**
 * What each answer to the koi-koi question scores under this profile (spec/rules.md §7):
 * stopping now scores `stop`; calling plays on with the current base, and if the opponent wins
 * the round after the call each of their points counts `opponentFactor` times.
 * @param {any} engine @param {0 | 1} seat
 */
export function koikoiHint(engine, seat) {
  const profile = engine.profile;
  const v = engine.view(seat);
  // spec/rules.md §6.4 viewing_by_call: the seat's pile is scored with its own call so far.
  const base = scorePile(v.piles[seat], profile, v.month, v.calls.includes(seat)).base;
  const stop = roundScore(base, v.calls, seat, profile);
  const withCall = [...v.calls, seat];
  // A factor only where the score is one (§7.5 koikoi_bonus = winner_add adds points: no factor).
  const factor = (/** @type {0 | 1} */ who) => {
    const one = roundScore(1, withCall, who, profile);
    return roundScore(2, withCall, who, profile) === 2 * one ? one : 1;
  };
  const opponentFactor = factor(/** @type {0 | 1} */ (1 - seat));
  const myFactorLater = factor(seat);
  // spec/rules.md §9.4: the limit counts both seats' calls together, or each seat's (per_seat).
  const callsMade = profile.call_limit === 'per_seat' ? v.calls.filter((/** @type {number} */ s) => s === seat).length : v.calls.length;
  const limit = profile.max_calls_per_round;
  // No card left in the hand: no later turn of this seat can make another yaku (QA: the dialog
  // still promised that a further yaku raises the score).
  const handEmpty = v.hand.length === 0;
  return { base, stop, opponentFactor, myFactorLater, callsLeft: limit > 0 ? Math.max(0, limit - callsMade - 1) : null, handEmpty };
}

/**
 * The question the seat is asked now, with its options in wire form, or null.
 * @param {any} peer a GamePeer @param {any} engine the round engine of the deal in play
 * @returns {Ask | null}
 */
export function askOf(peer, engine) {
  const options = peer.legalActions();
  if (!options.length || !engine || !engine.need) return null;
  const need = engine.need;
  return { kind: need.kind, options: options.map((/** @type {any} */ a) => actionToDict(a)) };
}

/**
 * The profile as plain text for the terms dialog: the preset name and every switch that differs.
 * @param {any} profile
 */
export function profileSummary(profile) {
  return { name: profile.name, rounds: profile.rounds };
}

/** Card ids of a pile grouped by class, in card order. @param {number[]} pile */
export function groupByClass(pile) {
  /** @type {Record<string, number[]>} */
  const out = { bright: [], animal: [], ribbon: [], plain: [] };
  for (const c of pile) out[CARDS[c].kind].push(c);
  return out;
}

// Hand yaku of the 8 dealt cards (spec/rules.md §6.6) and the claims a hand allows (§9.7).

import { monthOf } from './cards.js';
import { HAND_YAKU_IDS, REDEAL_CLAIM } from './profile.js';

/** How many positions a claim of each hand yaku shows (spec/rules.md §6.6). */
export const CLAIM_SIZES = Object.freeze({
  teshi: Object.freeze([4]),
  kuttsuki: Object.freeze([8]),
  tenho: Object.freeze([4, 8]),
  double_tenho: Object.freeze([8]),
});

/**
 * Cards per month 1..12.
 * @param {readonly number[]} cards
 */
function monthCounts(cards) {
  const n = new Array(13).fill(0);
  for (const c of cards) n[monthOf(c)]++;
  return n;
}

/**
 * Whether exactly these cards make the hand yaku (spec/rules.md §6.6).
 * @param {string} yaku
 * @param {readonly number[]} cards
 * @returns {boolean}
 */
export function claimHolds(yaku, cards) {
  const counts = monthCounts(cards).filter((n) => n > 0).sort((a, b) => a - b);
  const shape = counts.join(',');
  switch (yaku) {
    case 'teshi': return shape === '4';
    case 'kuttsuki': return shape === '2,2,2,2';
    case 'tenho': return shape === '4' || (cards.length === 8 && counts.every((n) => n % 2 === 0));
    case 'double_tenho': return shape === '4,4';
    default: return false;
  }
}

/**
 * @typedef {object} HandClaim a claim a hand supports
 * @property {string} yaku
 * @property {number[]} positions ascending deck positions
 * @property {number} points
 */

/**
 * Every claim a dealt hand supports under the profile's listed hand yaku.
 * @param {readonly number[]} positions the 8 hand positions
 * @param {readonly number[]} cards the card at each of those positions
 * @param {{hand_yaku: Readonly<Record<string, number>>, hand_whole_month?: string}} profile
 * @returns {HandClaim[]}
 */
export function handClaims(positions, cards, profile) {
  const pairs = positions.map((p, i) => [p, cards[i]]).sort((a, b) => a[0] - b[0]);
  const counts = monthCounts(cards);
  /** @type {HandClaim[]} */
  const out = [];
  if (profile.hand_whole_month === 'redeal' && counts.includes(4)) {
    // spec/rules.md §5.4: a whole month in the hand is claimed as teshi, and the deal is void.
    for (let m = 1; m <= 12; m++) {
      if (counts[m] === 4) out.push({ yaku: 'teshi', positions: pairs.filter((x) => monthOf(x[1]) === m).map((x) => x[0]), points: REDEAL_CLAIM });
    }
    return out;
  }
  for (const yaku of HAND_YAKU_IDS) {
    if (!Object.hasOwn(profile.hand_yaku, yaku)) continue;
    const points = profile.hand_yaku[yaku];
    for (const size of CLAIM_SIZES[/** @type {keyof typeof CLAIM_SIZES} */ (yaku)]) {
      if (size === 8) {
        if (claimHolds(yaku, cards)) out.push({ yaku, positions: pairs.map((x) => x[0]), points });
      } else {
        // A four-card claim shows one whole month of the hand.
        for (let m = 1; m <= 12; m++) {
          if (counts[m] === 4) out.push({ yaku, positions: pairs.filter((x) => monthOf(x[1]) === m).map((x) => x[0]), points });
        }
      }
    }
  }
  return out;
}

/**
 * The claims a seat holding this hand may make: those with the highest points it holds (§9.7).
 * Empty when it holds none (it must answer NoHandYaku).
 * @param {readonly number[]} positions
 * @param {readonly number[]} cards
 * @param {{hand_yaku: Readonly<Record<string, number>>, hand_whole_month?: string}} profile
 * @returns {HandClaim[]}
 */
export function bestClaims(positions, cards, profile) {
  const all = handClaims(positions, cards, profile);
  const top = Math.max(0, ...all.map((c) => c.points));
  return all.filter((c) => c.points === top);
}

// How much a set of captured cards is worth, now and as a promise, to either player: the strong
// player's judgement, ported from koikoi_p2p/ai/evaluate.py with the same constants and the same
// order of floating-point operations (so both languages compute the same values to the last bit).
// The points already made come from the rules engine's scorer; the promise of the yaku a pile is
// building is discounted by the cards it still misses and is void once the other pile holds too
// many of its cards.

import { scorePile } from '../rules/scoring.js';

/** Card indices follow the canonical order (cards.tsv, the rules engine's CARDS). */
const BRIGHTS = [0, 8, 28, 40, 44];
const RAIN_MAN = 40;
const ANIMALS = [4, 12, 16, 20, 24, 29, 32, 36, 41];
const RIBBONS = [1, 5, 9, 13, 17, 21, 25, 33, 37, 42];
const SAKE_CUP = 32;

/**
 * @typedef {object} Family a yaku to build: `need` of `cards` make `points`
 * @property {string} name
 * @property {ReadonlySet<number>} cards
 * @property {number} need
 * @property {number} points
 */

/**
 * @param {string} name
 * @param {Iterable<number>} cards
 * @param {number} need
 * @param {number} points
 * @returns {Family}
 */
const family = (name, cards, need, points) => Object.freeze({ name, cards: new Set(cards), need, points });

/**
 * The sets worth building under the usual yaku (evaluate.py `families`).
 * @param {boolean} cupIsPlain
 * @param {{viewing?: boolean, sanko?: number}} [opts] viewing false drops hanami and tsukimi
 * @returns {Family[]}
 */
export function families(cupIsPlain = true, { viewing = true, sanko = 5 } = {}) {
  const special = new Set([...BRIGHTS, ...ANIMALS, ...RIBBONS]);
  const plains = [];
  for (let c = 0; c < 48; c++) if (!special.has(c) || (cupIsPlain && c === SAKE_CUP)) plains.push(c);
  const found = [
    family('brights', BRIGHTS.filter((c) => c !== RAIN_MAN), 3, sanko),
    family('inoshikacho', [20, 24, 36], 3, 5),
    family('akatan', [1, 5, 9], 3, 5),
    family('aotan', [21, 33, 37], 3, 5),
    family('hanami', [8, 32], 2, 5),
    family('tsukimi', [28, 32], 2, 5),
    family('tane', ANIMALS, 5, 1),
    family('tan', RIBBONS, 5, 1),
    family('kasu', plains, 10, 1),
  ];
  return viewing ? found : found.filter((f) => f.name !== 'hanami' && f.name !== 'tsukimi');
}

/**
 * The sets a profile rewards (viewing yaku only where they can score on their own).
 * @param {import('../rules/profile.js').Profile} profile
 */
export function familiesFor(profile) {
  return families(profile.cup_is_plain, { viewing: profile.viewing === 'always', sanko: profile.bright_values[3] });
}

/** What a set still missing n cards is worth, as a share of its points (evaluate.py PROMISE). */
export const PROMISE = Object.freeze([1.0, 0.45, 0.18, 0.07, 0.03, 0.01]);

/**
 * @param {ReadonlySet<number>} pile
 * @param {ReadonlySet<number>} cards
 */
function overlap(pile, cards) {
  let n = 0;
  for (const c of cards) if (pile.has(c)) n++;
  return n;
}

/**
 * The yaku `mine` is building and `theirs` cannot yet spoil, in expected-ish points.
 * @param {ReadonlySet<number>} mine
 * @param {ReadonlySet<number>} theirs
 * @param {readonly Family[]} fams
 */
export function promise(mine, theirs, fams) {
  let total = 0.0;
  for (const fam of fams) {
    const have = overlap(mine, fam.cards);
    const alive = fam.cards.size - overlap(theirs, fam.cards);
    if (alive < fam.need) continue;
    const missing = fam.need - have;
    if (missing <= 0) {
      // Made already (scored separately); further cards of the set still add a little.
      total += 0.3 * Math.min(alive - have, 1);
      continue;
    }
    total += fam.points * PROMISE[Math.min(missing, PROMISE.length - 1)];
  }
  return total;
}

/**
 * Scores piles from one seat's side: my points and promise minus the opponent's (evaluate.py
 * `Evaluator`). `month` is read at every call, so the owner may set it per decision.
 */
export class Evaluator {
  /**
   * @param {import('../rules/profile.js').Profile} profile
   * @param {readonly Family[]} fams
   */
  constructor(profile, fams) {
    this.profile = profile;
    this.fams = fams;
    /** @type {number | null} the round's month, for tsukifuda */
    this.month = null;
    this.madeWeight = 1.6; // points in hand beat points in prospect
    this.denyWeight = 0.9; // how much the opponent's prospects count against mine
  }

  /** @param {ReadonlySet<number>} cards */
  score(cards) {
    return scorePile([...cards], this.profile, this.month).base;
  }

  /**
   * @param {ReadonlySet<number>} mine
   * @param {ReadonlySet<number>} theirs
   */
  side(mine, theirs) {
    return this.madeWeight * this.score(mine) + promise(mine, theirs, this.fams);
  }

  /**
   * @param {ReadonlySet<number>} mine
   * @param {ReadonlySet<number>} theirs
   */
  value(mine, theirs) {
    return this.side(mine, theirs) - this.denyWeight * this.side(theirs, mine);
  }

  /**
   * What capturing `take` is worth to me, denial included.
   * @param {ReadonlySet<number>} mine
   * @param {ReadonlySet<number>} theirs
   * @param {Iterable<number>} take
   */
  gain(mine, theirs, take) {
    const after = new Set([...mine, ...take]);
    return this.value(after, theirs) - this.value(mine, theirs);
  }

  /**
   * What the opponent would gain by capturing `take` (for cards I leave exposed).
   * @param {ReadonlySet<number>} mine
   * @param {ReadonlySet<number>} theirs
   * @param {Iterable<number>} take
   */
  theirGain(mine, theirs, take) {
    const after = new Set([...theirs, ...take]);
    return this.value(after, mine) - this.value(theirs, mine);
  }
}

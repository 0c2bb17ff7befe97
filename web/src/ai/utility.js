// What a round's result is worth to the match, for the search player: roughly the chance of
// winning the match after it (a port of koikoi_p2p/ai/utility.py). The scores after the round
// (spec/rules.md §11.3: points added, or paid from pool to pool, caps and subtraction included),
// the match over if §11.4 ends it (a win 1, a draw 1/2, a loss 0), else a normal approximation:
// the score difference over the spread of the rounds still to play. A heuristic for choosing
// moves, never the authority on scores (the rules engine is).

import { playRound } from '../rules/simulate.js';
import { RoundState } from '../rules/round.js';
import { PRESETS, preset } from '../rules/profile.js';
import { GreedyPlayer } from './greedy.js';
import { PyRandom } from './pyrandom.js';

/** @typedef {import('../rules/profile.js').Profile} Profile */

/**
 * @typedef {object} MatchPosition the match before this round, from my seat
 * @property {number} mine my score (or pool)
 * @property {number} theirs the opponent's
 * @property {number} roundsPlayed rounds already played
 */

/** Spread of one round's points per profile (by its canonical encoding), measured once. */
const SPREADS = new Map();
/** @type {WeakMap<Profile, [number, number]>} */
const SPREAD_OF = new WeakMap();

/**
 * The presets' spreads as `measureSpread` finds them (web/test/ai/spread_table.test.js checks
 * each). Measuring takes 1-2 s in a browser's worker, and a search player measures at its first
 * decision, outside its time cap: that decision of a practice match took up to 2.8 s against
 * the 1 s budget. One round's play does not read the number of rounds, so these serve a preset
 * played over any number of rounds; a profile with switches is still measured.
 * @type {Readonly<{[name: string]: [number, number]}>}
 */
export const PRESET_SPREADS = Object.freeze({
  nintendo: [9.098585970724606, 5.86],
  'koikoi-online': [14.08634326809718, 7.673333333333333],
  'teaching-card': [8.556515386274683, 5.453333333333333],
  wikipedia: [9.30441949947562, 6.073333333333333],
  'board-game': [8.094579805167292, 5.28],
  'classic-variant': [5.398776610389511, 4.116666666666666],
  'koikoi-japan': [4.46455671558405, 3.26],
});

/** A profile's encoding without its number of rounds (which one round's play never reads). @param {Profile} profile */
const spreadKey = (profile) => JSON.stringify({ ...profile.toDict(), rounds: 0 });
/** @type {Map<string, [number, number]> | null} */
let known = null;

/**
 * The complementary error function to about 1e-15 relative (JavaScript has no Math.erfc): the
 * Maclaurin series of erf below |x| = 1, where 1 - erf loses little, and the classic continued
 * fraction of erfc beyond (Abramowitz and Stegun 7.1.5 and 7.1.14), evaluated by the modified
 * Lentz method (W. H. Press et al., Numerical Recipes, 3rd ed., §5.2); erfc(-x) = 2 - erfc(x).
 * @param {number} x
 * @returns {number}
 */
export function erfc(x) {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 1) {
    // erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 100; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  if (x > 27) return 0; // below the smallest double
  // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 5000; k++) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/**
 * (standard deviation of a round's point difference, mean points of a round), measured once per
 * profile on 300 fixed deals played by two greedy players (who call koi-koi now and then, as
 * people do), so it follows the profile's scoring and multipliers, house rules included. The
 * deals and the players' tie-breaks come from PyRandom with the seeds utility.py uses, so both
 * languages measure the same numbers (web/test/ai/master_parity.test.js compares them).
 * @param {Profile} profile
 * @returns {[number, number]}
 */
export function spread(profile) {
  const quick = SPREAD_OF.get(profile);
  if (quick !== undefined) return quick;
  const key = spreadKey(profile);
  known ??= new Map(PRESETS.map((name) => [spreadKey(preset(name)), PRESET_SPREADS[name]]));
  const found = known.get(key) ?? SPREADS.get(key) ?? measureSpread(profile);
  if (!known.has(key) && !SPREADS.has(key)) {
    if (SPREADS.size > 64) SPREADS.clear();
    SPREADS.set(key, found);
  }
  SPREAD_OF.set(profile, found);
  return found;
}

/**
 * `spread` measured: 300 fixed deals played by two greedy players.
 * @param {Profile} profile
 * @returns {[number, number]}
 */
export function measureSpread(profile) {
  const rng = new PyRandom(20260101); // fixed simulated deals
  const outcomes = [];
  for (let i = 0; i < 300; i++) outcomes.push(greedyRound(profile, rng, i));
  let sum = 0;
  for (const x of outcomes) sum += x;
  const mean = sum / outcomes.length;
  let squares = 0;
  for (const x of outcomes) squares += (x - mean) ** 2;
  const sd = Math.sqrt(squares / outcomes.length);
  let gain = 0;
  for (const x of outcomes) gain += Math.abs(x);
  gain /= outcomes.length;
  return [sd, gain];
}

/**
 * One random deal between two greedy players: seat 0's points (negative: seat 1's).
 * @param {Profile} profile
 * @param {PyRandom} rng
 * @param {number} i
 */
function greedyRound(profile, rng, i) {
  const players = [2 * i, 2 * i + 1].map((seed) => new GreedyPlayer(seed, { random: new PyRandom(seed) }));
  const deck = rng.shuffle(Array.from({ length: 48 }, (_, k) => k));
  const month = 1 + rng.randbelow(12);
  const state = new RoundState({ profile, dealer: i % 2, viewer: null, roundIndex: 1, month });
  playRound(state, deck, (s) => {
    const need = /** @type {import('../rules/round.js').NeedAction} */ (s.need);
    return players[need.seat].choose(s, need.seat);
  });
  const result = state.result;
  if (result === null || result.winner === null) return 0;
  return result.winner === 0 ? result.points : -result.points;
}

/**
 * @param {number} mine
 * @param {number} theirs
 */
const outcome = (mine, theirs) => (mine > theirs ? 1 : mine < theirs ? 0 : 0.5);

/**
 * `value(delta)`: the match-win estimate after a round that gives me `delta` points (negative:
 * the opponent scores `-delta`); `slope` its rate around 0 per point; memoised per delta.
 */
export class MatchUtility {
  /**
   * @param {Profile} profile
   * @param {MatchPosition} position
   */
  constructor(profile, position) {
    this.profile = profile;
    this.position = position;
    const [sd, meanGain] = spread(profile);
    const scale = profile.pool_start || profile.subtract_from_opponent ? 2.0 : 1.0;
    this.sd = Math.max(sd * scale, 1e-9);
    this.meanGain = Math.max(meanGain, 1e-9);
    /** @type {Map<number, number>} */
    this.memo = new Map();
    this.now = this.value(0);
    this.slope = sd > 0 ? Math.max((this.value(sd) - this.value(-sd)) / (2 * sd), 0) : 0;
  }

  /** @param {number} delta */
  value(delta) {
    let found = this.memo.get(delta);
    if (found === undefined) {
      found = this.compute(delta);
      this.memo.set(delta, found);
    }
    return found;
  }

  /** @param {number} delta */
  compute(delta) {
    const p = this.profile;
    const [mine, theirs] = this.after(delta);
    const played = this.position.roundsPlayed + 1;
    // spec/rules.md §11.4, in this order: bust, target score, last round.
    if (p.bust_ends_game && Math.min(mine, theirs) <= 0) {
      return theirs <= 0 && mine > 0 ? 1 : mine <= 0 && theirs > 0 ? 0 : 0.5;
    }
    if (p.target_score && Math.max(mine, theirs) >= p.target_score) return outcome(mine, theirs);
    let left;
    if (p.rounds) {
      left = p.rounds - played;
      if (left <= 0) {
        if (mine === theirs && p.match_tie === 'extra_round') return 0.5;
        return outcome(mine, theirs);
      }
    } else {
      left = Math.max(1, Math.ceil((p.target_score - Math.max(mine, theirs)) / this.meanGain));
    }
    const z = (mine - theirs) / (this.sd * Math.sqrt(left));
    return 0.5 * erfc(-z / Math.SQRT2);
  }

  /**
   * Both scores after the round (§11.3): points added, or paid from pool to pool.
   * @param {number} delta
   * @returns {[number, number]}
   */
  after(delta) {
    const p = this.profile;
    const mine = this.position.mine;
    const theirs = this.position.theirs;
    const points = Math.abs(delta);
    if (!points) return [mine, theirs];
    const winnerIsMe = delta > 0;
    const loser = winnerIsMe ? theirs : mine;
    let gain;
    let loss;
    if (p.pool_start) {
      const paid = p.transfer_cap ? Math.min(points, Math.max(loser, 0)) : points;
      gain = paid; loss = paid;
    } else {
      gain = points; loss = p.subtract_from_opponent ? points : 0;
    }
    return winnerIsMe ? [mine + gain, theirs - loss] : [mine - loss, theirs + gain];
  }
}

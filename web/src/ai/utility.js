// What a round's result is worth to the match, for the search player: roughly the chance of
// winning the match after it (a port of koikoi_p2p/ai/utility.py). The scores after the round
// (spec/rules.md §11.3: points added, or paid from pool to pool, caps and subtraction included),
// the match over if §11.4 ends it (a win 1, a draw 1/2, a loss 0), else a normal approximation:
// the score difference over the spread of the rounds still to play. A heuristic for choosing
// moves, never the authority on scores (the rules engine is).

import { playRound } from '../rules/simulate.js';
import { RoundState } from '../rules/round.js';
import { GreedyPlayer } from './players.js';
import { Rng } from './rng.js';

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
 * The complementary error function, with fractional error below 1.2e-7 everywhere (W. H. Press
 * et al., Numerical Recipes, 2nd ed., §6.2, `erfcc`: a Chebyshev fit).
 * @param {number} x
 */
export function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
    + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

/**
 * (standard deviation of a round's point difference, mean points of a round), measured on 300
 * fixed deals played by two greedy players, so it follows the profile's scoring and multipliers,
 * house rules included, and is the same on every run.
 * @param {Profile} profile
 * @returns {[number, number]}
 */
export function spread(profile) {
  const quick = SPREAD_OF.get(profile);
  if (quick !== undefined) return quick;
  const key = JSON.stringify(profile.toDict());
  let found = SPREADS.get(key);
  if (found === undefined) {
    const rng = new Rng('koikoi-p2p/ai/spread');
    const outcomes = [];
    for (let i = 0; i < 300; i++) outcomes.push(greedyRound(profile, rng, i));
    const mean = outcomes.reduce((a, b) => a + b, 0) / outcomes.length;
    const sd = Math.sqrt(outcomes.reduce((a, x) => a + (x - mean) ** 2, 0) / outcomes.length);
    const gain = outcomes.reduce((a, x) => a + Math.abs(x), 0) / outcomes.length;
    if (SPREADS.size > 64) SPREADS.clear();
    found = [sd, gain];
    SPREADS.set(key, found);
  }
  SPREAD_OF.set(profile, /** @type {[number, number]} */ (found));
  return /** @type {[number, number]} */ (found);
}

/**
 * One random deal between two greedy players: seat 0's points (negative: seat 1's).
 * @param {Profile} profile
 * @param {Rng} rng
 * @param {number} i
 */
function greedyRound(profile, rng, i) {
  const players = [new GreedyPlayer(2 * i), new GreedyPlayer(2 * i + 1)];
  const deck = rng.shuffle(Array.from({ length: 48 }, (_, k) => k));
  const month = 1 + rng.below(12);
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

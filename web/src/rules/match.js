// The match (spec/rules.md §11): round numbering and months, dealers, scores and pools, the end.
// The state is fully determined by the profile, the first dealer and the list of round results
// (§11.5): `record` appends one result and recomputes nothing else.

import { RulesError } from './errors.js';
import { Profile } from './profile.js';
import { makeResult, resultFromDict, resultToDict } from './result.js';
import { RoundState } from './round.js';

/** @typedef {import('./result.js').RoundResult} RoundResult */

/**
 * @typedef {object} RoundParams what the next deal is played as
 * @property {number} roundIndex the round of the match, from 1
 * @property {0 | 1} dealer
 * @property {number} month 1..12
 */

/**
 * The month of round n (spec/rules.md §11.2).
 * @param {number} roundIndex
 */
export function monthOfRound(roundIndex) {
  return ((roundIndex - 1) % 12) + 1;
}

/** The match tally. */
export class MatchState {
  /**
   * @param {Profile} profile
   * @param {number} firstDealer
   */
  constructor(profile, firstDealer) {
    if (firstDealer !== 0 && firstDealer !== 1) throw new RulesError('bad_seat', 'firstDealer must be seat 0 or 1');
    /** @readonly */ this.profile = profile;
    /** @readonly @type {0 | 1} */ this.firstDealer = firstDealer;
    /** @type {Readonly<RoundResult>[]} every deal's result, redeals included */
    this.results = [];
    /** @type {number[]} the round index each result was played as */
    this.roundIndices = [];
    /** @type {[number, number]} */
    this._scores = profile.pool_start > 0 ? [profile.pool_start, profile.pool_start] : [0, 0];
    /** @type {0 | 1} */
    this.dealer = firstDealer;
    /** rounds consumed so far */
    this.roundsPlayed = 0;
    this.over = false;
    /** @type {0 | 1 | null} the match winner once over (null: a drawn match) */
    this.winner = null;
  }

  /** Scores of seat 0 and seat 1; with a pool, the pool balances (spec/rules.md §11.3). @returns {[number, number]} */
  get scores() {
    return [this._scores[0], this._scores[1]];
  }

  /** Deals played, redeals included. */
  get deals() {
    return this.results.length;
  }

  /** The round index of the next deal. */
  get roundIndex() {
    return this.roundsPlayed + 1;
  }

  /**
   * The next deal's round index, dealer and month.
   * @returns {RoundParams}
   * @throws {RulesError} `match_over`
   */
  roundParams() {
    if (this.over) throw new RulesError('match_over', 'the match is over');
    return { roundIndex: this.roundIndex, dealer: this.dealer, month: monthOfRound(this.roundIndex) };
  }

  /**
   * A round state for the next deal.
   * @param {number | null} viewer
   */
  newRound(viewer) {
    const p = this.roundParams();
    return new RoundState({ profile: this.profile, dealer: p.dealer, viewer, roundIndex: p.roundIndex, month: p.month });
  }

  /**
   * Record the result of the deal just played, then check the end (spec/rules.md §11.3, §11.4).
   * @param {RoundResult} result
   * @throws {RulesError} `match_over`, `bad_result`
   */
  record(result) {
    if (this.over) throw new RulesError('match_over', 'the match is over');
    const r = resultFromDict(resultToDict(result));
    this.results.push(makeResult(r));
    this.roundIndices.push(this.roundIndex);
    if (r.winner !== null && r.points > 0) this._pay(r.winner, r.points);
    if (r.consumes_round) this.roundsPlayed++;
    this.dealer = r.next_dealer;
    this._checkOver();
  }

  /**
   * @param {0 | 1} winner
   * @param {number} points
   */
  _pay(winner, points) {
    const s = this._scores;
    if (this.profile.pool_start === 0) {
      s[winner] += points;
      // spec/rules.md §11.3: with subtract_from_opponent the loser loses what the winner gains.
      if (this.profile.subtract_from_opponent) s[1 - winner] -= points;
      return;
    }
    const loser = 1 - winner;
    // spec/rules.md §11.3: the loser pays, at most what it has left under transfer_cap.
    const paid = this.profile.transfer_cap ? Math.min(points, Math.max(s[loser], 0)) : points;
    s[loser] -= paid;
    s[winner] += paid;
  }

  _checkOver() {
    const p = this.profile;
    const [a, b] = this._scores;
    // spec/rules.md §11.4, in this order.
    if (p.bust_ends_game && (a <= 0 || b <= 0)) {
      this._end(a <= 0 && b <= 0 ? null : a <= 0 ? 1 : 0);
      return;
    }
    if (p.target_score > 0 && (a >= p.target_score || b >= p.target_score)) {
      this._end(a === b ? null : a > b ? 0 : 1); // a tie at the target is a drawn match
      return;
    }
    if (p.rounds > 0 && this.roundsPlayed >= p.rounds) {
      // Equal scores after the last round: drawn, or one more round at a time.
      if (a !== b) this._end(a > b ? 0 : 1);
      else if (p.match_tie !== 'extra_round') this._end(null);
    }
  }

  /**
   * @param {0 | 1 | null} winner
   */
  _end(winner) {
    this.over = true;
    this.winner = winner;
  }

  /**
   * The rounds of the match result (spec/game.md §6.2): `[roundIndex, winner, points]` of every
   * deal that was not a redeal.
   * @returns {Array<[number, 0 | 1 | null, number]>}
   */
  roundSummary() {
    /** @type {Array<[number, 0 | 1 | null, number]>} */
    const out = [];
    this.results.forEach((r, i) => { if (!r.redeal) out.push([this.roundIndices[i], r.winner, r.points]); });
    return out;
  }

  /** The state as plain data: the profile, the first dealer and the results (§11.5). */
  toDict() {
    return { profile: this.profile.toDict(), first_dealer: this.firstDealer, results: this.results.map(resultToDict) };
  }

  /**
   * Rebuild a match by replaying its results.
   * @param {unknown} data
   * @returns {MatchState}
   * @throws {RulesError} `bad_match` and the reasons of Profile.fromDict, resultFromDict, record
   */
  static fromDict(data) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new RulesError('bad_match', 'a match is a mapping');
    const d = /** @type {Record<string, unknown>} */ (data);
    const keys = Object.keys(d).sort().join(',');
    if (keys !== 'first_dealer,profile,results' || !Array.isArray(d.results)) {
      throw new RulesError('bad_match', 'a match has exactly profile, first_dealer and results');
    }
    const m = new MatchState(Profile.fromDict(d.profile), /** @type {number} */ (d.first_dealer));
    for (const r of d.results) m.record(resultFromDict(r));
    return m;
  }
}

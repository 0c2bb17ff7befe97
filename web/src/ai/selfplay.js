// Play a whole match between two computer players on seeded decks, each player reading only its
// own seat's engine (viewer = its seat), with an auditor's engine (viewer null) alongside that
// checks every rule. For tests, benchmarks and unattended play.

import { firstDealer } from '../rules/deal.js';
import { MatchState } from '../rules/match.js';
import { runRevealed } from '../rules/simulate.js';
import { Rng } from './rng.js';

/** @typedef {import('./players.js').Player} Player */
/** @typedef {import('../rules/profile.js').Profile} Profile */

/**
 * The first dealer drawn from a shuffled deck (spec/rules.md §5.1): pairs 2k, 2k+1 until one deals.
 * @param {Profile} profile
 * @param {number[]} deck
 * @returns {0 | 1}
 */
export function drawFirstDealer(profile, deck) {
  for (let k = 0; 2 * k + 1 < deck.length; k++) {
    const d = firstDealer(deck[2 * k], deck[2 * k + 1], profile);
    if (d !== null) return d;
  }
  return 0; // unreachable with 48 distinct cards: some pair differs in month
}

/**
 * Play a match.
 * @param {Profile} profile
 * @param {[Player, Player]} players seat 0's and seat 1's
 * @param {{seed?: string | number, maxDeals?: number}} [opts]
 * @returns {{match: MatchState, deals: number}}
 */
export function playMatch(profile, players, { seed = 0, maxDeals = 1000 } = {}) {
  const rng = new Rng(`selfplay/${seed}`);
  const shuffled = () => rng.shuffle(Array.from({ length: 48 }, (_, i) => i));
  const match = new MatchState(profile, drawFirstDealer(profile, shuffled()));
  let deals = 0;
  while (!match.over && deals < maxDeals) {
    const deck = shuffled();
    const engines = [match.newRound(null), match.newRound(0), match.newRound(1)];
    for (const e of engines) runRevealed(e, deck);
    while (engines[0].need !== null) {
      const need = /** @type {import('../rules/round.js').NeedAction} */ (engines[0].need);
      const action = players[need.seat].choose(engines[1 + need.seat], need.seat, { scores: match.scores });
      for (const e of engines) { e.apply(need.seat, action); runRevealed(e, deck); }
    }
    match.record(/** @type {import('../rules/result.js').RoundResult} */ (engines[0].result));
    deals++;
  }
  return { match, deals };
}

// Play a whole match between two computer players on seeded decks, each player reading only its
// own seat's engine (viewer = its seat), with an auditor's engine (viewer null) alongside that
// checks every rule. For tests, benchmarks and unattended play. As the Python arena does
// (koikoi_p2p/ai/arena.py), a player with `matchUpdate` is told the match context before every
// round, and one with `observe` is shown its seat's view after every public change of the round
// (each reveal, the opponent's every move).

import { firstDealer } from '../rules/deal.js';
import { MatchState } from '../rules/match.js';
import { Rng } from './rng.js';

/** @typedef {import('./players.js').Player} Player */
/** @typedef {import('../rules/profile.js').Profile} Profile */

/**
 * Feed the one reveal a round engine waits for (all its positions), or skip it where private.
 * @param {import('../rules/round.js').RoundState} state
 * @param {readonly number[]} deck
 */
function revealOne(state, deck) {
  const need = /** @type {import('../rules/round.js').NeedReveal} */ (state.need);
  if (need.to !== null && state.viewer !== null && state.viewer !== need.to) state.skipReveal();
  else for (const p of need.positions) state.reveal(p, deck[p]);
}

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
    const context = { scores: match.scores, roundsPlayed: match.roundsPlayed, profile };
    for (const p of players) if (p.matchUpdate) p.matchUpdate(context);
    const engines = [match.newRound(null), match.newRound(0), match.newRound(1)];
    /** @param {number | null} actor the seat that just moved (not shown its own move), or null */
    const show = (actor) => {
      for (const seat of /** @type {const} */ ([0, 1])) {
        const p = players[seat];
        if (p.observe && seat !== actor && engines[0].result === null) p.observe(engines[1 + seat].view(seat));
      }
    };
    const reveal = () => {
      while (engines[0].need !== null && engines[0].need.type === 'reveal') {
        for (const e of engines) revealOne(e, deck);
        show(null);
      }
    };
    reveal();
    while (engines[0].need !== null) {
      const need = /** @type {import('../rules/round.js').NeedAction} */ (engines[0].need);
      const action = players[need.seat].choose(engines[1 + need.seat], need.seat, context);
      for (const e of engines) e.apply(need.seat, action);
      show(need.seat);
      reveal();
    }
    match.record(/** @type {import('../rules/result.js').RoundResult} */ (engines[0].result));
    deals++;
  }
  return { match, deals };
}

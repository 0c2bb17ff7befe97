// Computer players for the JavaScript peer: a random one and a greedy rule-based one here, the
// strong one (strong.js), the search player (master.js) and the learned one (expert.js) beside;
// `createPlayer` names them all.
// All are deterministic given their seed and read only what their seat may know.
// The random and greedy players live in greedy.js.

import { GreedyPlayer, RandomPlayer } from './greedy.js';
import { ExpertPlayer } from './expert.js';
import { loadShipped } from './value.js';
import { MasterPlayer } from './master.js';
import { StrongPlayer } from './strong.js';

export { GreedyPlayer, RandomPlayer };

/** @typedef {import('../rules/round.js').RoundState} RoundState */
/** @typedef {import('../rules/actions.js').Action} Action */

/**
 * @typedef {object} MatchContext what a player may know of the match around the round
 * @property {[number, number]} scores the match scores (or pools) of seat 0 and seat 1
 * @property {number} [roundsPlayed] rounds already played (spec/rules.md §11.1)
 * @property {import('../rules/profile.js').Profile} [profile] the agreed rules
 */

/**
 * @typedef {object} Player
 * @property {string} name
 * @property {(state: RoundState, seat: 0 | 1, context?: MatchContext) => Action} choose the action for the need of `seat`
 * @property {(context: MatchContext) => void} [matchUpdate] told the match context before each round
 * @property {(view: import('../rules/round.js').RoundView) => void} [observe] shown the seat's view after
 *   every public change of the round, in order
 */

/** The computer's levels, weakest first, by player kind (Python's easy, medium, strong, master, expert). */
export const PLAYER_KINDS = Object.freeze(['random', 'greedy', 'strong', 'master', 'expert']);

/**
 * @typedef {object} PlayerOptions
 * @property {import('../rules/profile.js').Profile} [profile] the rules the player expects (strong, master)
 * @property {number} [simulations] master and expert: playouts per decision (default DEFAULT_SIMULATIONS)
 * @property {number | null} [maxSeconds] master: wall-time cap per decision (default DEFAULT_MAX_SECONDS; null: none)
 */

/**
 * Load what a level needs before `createPlayer` can make it: the expert's network (imported on
 * demand, so nobody else downloads it); the other levels need nothing.
 * @param {string} kind
 * @returns {Promise<void>}
 */
export async function preparePlayer(kind) {
  if (kind === 'expert') await loadShipped();
}

/**
 * A player by name (the expert once `preparePlayer('expert')` has resolved).
 * @param {'random' | 'greedy' | 'strong' | 'master' | 'expert'} kind
 * @param {string | number} seed
 * @param {PlayerOptions} [options]
 * @returns {Player}
 */
export function createPlayer(kind, seed, options = {}) {
  if (kind === 'random') return new RandomPlayer(seed);
  if (kind === 'greedy') return new GreedyPlayer(seed);
  if (kind === 'strong') return new StrongPlayer(seed, { profile: options.profile });
  if (kind === 'master') {
    return new MasterPlayer(seed, { profile: options.profile, simulations: options.simulations, maxSeconds: options.maxSeconds });
  }
  if (kind === 'expert') {
    return new ExpertPlayer(seed, { profile: options.profile, simulations: options.simulations, maxSeconds: options.maxSeconds });
  }
  throw new Error(`unknown player ${kind}`);
}

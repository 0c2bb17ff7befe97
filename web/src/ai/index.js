// Computer players for the JavaScript peer (random, greedy, strong, master, expert), deterministic given a seed.

export { Rng } from './rng.js';
export { RandomPlayer, GreedyPlayer, PLAYER_KINDS, createPlayer, preparePlayer } from './players.js';
export { StrongPlayer } from './strong.js';
export { MasterPlayer, OpponentReading, DEFAULT_SIMULATIONS, DEFAULT_MAX_SECONDS } from './master.js';
export { ExpertPlayer, LearnedLeaf, EXPERT_HORIZON } from './expert.js';
export { ValueNet, loadShipped } from './value.js';
export { MatchUtility } from './utility.js';
export { PyRandom } from './pyrandom.js';
export { knowledgeOf, targetsOf, distance, nearestYaku, usefulness } from './knowledge.js';
export { playMatch } from './selfplay.js';

/** @typedef {import('./players.js').Player} Player */

// Computer players for the JavaScript peer (random and greedy), deterministic given a seed.

export { Rng } from './rng.js';
export { RandomPlayer, GreedyPlayer, createPlayer } from './players.js';
export { knowledgeOf, targetsOf, distance, nearestYaku, usefulness } from './knowledge.js';
export { playMatch } from './selfplay.js';

/** @typedef {import('./players.js').Player} Player */

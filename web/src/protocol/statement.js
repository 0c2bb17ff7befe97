// Statements (spec/game.md §1.3): domain || 0x00 || canonical msgpack of a value. Everything the
// game layer hashes or signs is one.
import { concat, utf8 } from '../bytes.js';
import { encode } from './codec.js';

/**
 * @param {string} domain @param {import('./codec.js').Value} value
 */
export function statement(domain, value) {
  return concat(utf8(domain), Uint8Array.of(0), encode(value));
}

/** The game version of the terms and of the statement domains. */
export const GAME_VERSION = 2;

/** @param {string} what e.g. "terms", "round-result", "match-result" @param {number} [version] */
export function domain(what, version = GAME_VERSION) {
  return `koikoi-p2p/game/v${version}/${what}`;
}

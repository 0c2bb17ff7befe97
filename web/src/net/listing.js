// A room's lobby listing (spec/relay.md §4.2): what a host publishes about its room, checked by
// the same rules as the relay checks it. A lobby comes from the relay, which is not trusted: a
// listing that breaks a rule is not shown at all. The joiner signs the terms, never the listing.

import { nameProblem } from '../protocol/names.js';

const KEYS = ['name', 'fp', 'rules', 'custom', 'rounds', 'target', 'rated', 'password', 'turn'];
const BOOLS = new Set(['custom', 'rated', 'password']);
/** @type {{[key: string]: number}} */
const INT_MAX = { rounds: 10000, target: 10000, turn: 86400 };
const RULES_RE = /^[a-z0-9_-]{1,40}$/;
const FP_RE = /^[a-z2-7]{4}-[a-z2-7]{4}$/;
const MAX_ENTRIES = 32;

/**
 * @typedef {object} Listing
 * @property {string} [name] the host's display name
 * @property {string} [fp] the first two groups of the host's key fingerprint
 * @property {string} [rules] the preset the rules start from
 * @property {boolean} [custom] some switch differs from the preset
 * @property {number} [rounds] the match length (0: until `target`)
 * @property {number} [target] the score that ends the match
 * @property {boolean} [rated]
 * @property {boolean} [password]
 * @property {number} [turn] seconds for each decision
 */

/**
 * The listing in its normal form (known keys only, nil values dropped), or null when `value` is
 * no listing by spec/relay.md §4.2.
 * @param {unknown} value @returns {Listing | null}
 */
export function checkListing(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) return null;
  const map = /** @type {{[key: string]: unknown}} */ (value);
  if (Object.keys(map).length > MAX_ENTRIES) return null;
  /** @type {{[key: string]: unknown}} */
  const out = {};
  for (const key of KEYS) {
    if (!Object.hasOwn(map, key)) continue;
    const item = map[key];
    if (item === null || item === undefined) continue;
    if (key === 'name') {
      if (typeof item !== 'string' || nameProblem(item) !== null) return null;
    } else if (key === 'fp') {
      if (typeof item !== 'string' || !FP_RE.test(item)) return null;
    } else if (key === 'rules') {
      if (typeof item !== 'string' || !RULES_RE.test(item)) return null;
    } else if (BOOLS.has(key)) {
      if (typeof item !== 'boolean') return null;
    } else if (typeof item !== 'number' || !Number.isInteger(item) || item < 0 || item > INT_MAX[key]) {
      return null;
    }
    out[key] = item;
  }
  return /** @type {Listing} */ (out);
}

/**
 * What a lobby entry says of its room: its valid listing, else the `rules`, `rounds` and
 * `password` of an older host's `meta`, checked the same way (spec/relay.md §4.2).
 * @param {{listing?: unknown, meta?: unknown}} room @returns {Listing}
 */
export function roomListing(room) {
  const listing = checkListing(room.listing);
  if (listing) return listing;
  const meta = room.meta && typeof room.meta === 'object' ? /** @type {{[key: string]: unknown}} */ (room.meta) : {};
  /** @type {{[key: string]: unknown}} */
  const out = {};
  for (const key of ['rules', 'rounds', 'password']) {
    const one = checkListing({ [key]: meta[key] });
    if (one && key in one) out[key] = /** @type {any} */ (one)[key];
  }
  return /** @type {Listing} */ (out);
}

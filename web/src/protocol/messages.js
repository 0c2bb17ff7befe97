// The game messages (spec/game.md §3): every body has exactly its fields, of exactly their wire
// types; anything else is `bad_message` (an unknown type: `unknown_message`).
import { isMap } from './codec.js';
import { ProtocolError } from './errors.js';

/** A body or field that breaks spec/game.md §3 (reason `bad_message` unless given). */
export class MessageError extends ProtocolError {
  /** @param {string} detail @param {string} [reason] */
  constructor(detail, reason = 'bad_message') {
    super(reason, detail);
    this.name = 'MessageError';
  }
}

/** @param {unknown} v @param {number} [size] */
export function isBytes(v, size) {
  return v instanceof Uint8Array && (size === undefined || v.length === size);
}

// Bounds of the shape (spec/game.md §3.4): they keep a hostile body from costing memory or time
// before its meaning is checked. Exact lengths (a 32-byte digest, a 64-byte signature) and
// distinct positions are not shape: they are checked with the reason of the message's own rule.
export const MAX_POSITIONS = 48;
export const MAX_DATA = 64 * 1024;
export const MAX_DEAL = 1 << 20;
export const MAX_TEXT = 256;

/** A non-negative integer. @param {unknown} v */
const isInt = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A byte string of at most MAX_DATA bytes. @param {unknown} v */
const isData = (v) => v instanceof Uint8Array && v.length <= MAX_DATA;
/** A string of at most MAX_TEXT characters. @param {unknown} v */
const isText = (v) => typeof v === 'string' && (v.length <= MAX_TEXT || [...v].length <= MAX_TEXT);
/** A map with string keys. @param {unknown} v */
const isStringMap = (v) => isMap(v);

/** @param {unknown} v */
function isShareGroups(v) {
  return Array.isArray(v) && v.length <= MAX_POSITIONS && v.every((g) => Array.isArray(g) && g.length === 2
    && Array.isArray(g[0]) && g[0].length >= 1 && g[0].length <= MAX_POSITIONS
    && g[0].every((p) => isInt(p) && p <= 47) && isData(g[1]));
}

/** Field names and the wire kind of each (spec/game.md §3.1, §3.4). */
export const FIELDS = /** @type {Record<string, Record<string, (v: unknown) => boolean>>} */ ({
  terms: {
    version: isInt, profile: isStringMap, profile_digest: isData, rounds: isInt, deadlines: isStringMap,
    keys: Array.isArray, room: isText, names: Array.isArray, rated: (v) => typeof v === 'boolean', ratings: isText,
  },
  accept: { terms: isData },
  key: { deal: isInt, key: isData },
  shuffle: { deal: isInt, deck: isData },
  reveal: { shares: isShareGroups },
  act: { action: isStringMap, shares: isShareGroups },
  declare: { action: isStringMap, shares: isShareGroups },
  disclose: { deal: isInt, key: isData, shares: isShareGroups },
  round_sign: { deal: isInt, result: isStringMap, sig: isData },
  match_result: { result: isStringMap, sig: isData },
  resign: { result: isStringMap, sig: isData },
  match_sign: { sig: isData },
});

/**
 * @param {string} type @param {{[key: string]: unknown}} body
 */
export function checkBody(type, body) {
  const fields = FIELDS[type];
  if (!fields) throw new MessageError(`unknown message type ${type}`, 'unknown_message');
  for (const n of Object.keys(body)) if (!(n in fields)) throw new MessageError(`${type}: unexpected field ${n}`);
  for (const [n, ok] of Object.entries(fields)) {
    if (!(n in body)) throw new MessageError(`${type}: missing field ${n}`);
    if (!ok(body[n])) throw new MessageError(`${type}: field ${n} has the wrong type`);
  }
  if ('deal' in body && /** @type {number} */ (body.deal) > MAX_DEAL) throw new MessageError(`${type}: deal is out of range`);
}


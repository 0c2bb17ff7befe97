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

/** @param {unknown} v */
const isInt = (v) => typeof v === 'number' && Number.isSafeInteger(v);

/** @param {unknown} v */
function isShareGroups(v) {
  return Array.isArray(v) && v.every((g) => Array.isArray(g) && g.length === 2 && Array.isArray(g[0]) && g[0].length >= 1
    && g[0].every((p) => isInt(p) && p >= 0 && p <= 47) && new Set(g[0]).size === g[0].length && g[1] instanceof Uint8Array);
}

/** Field names and checks of each body (spec/game.md §3.1). */
export const FIELDS = /** @type {Record<string, Record<string, (v: unknown) => boolean>>} */ ({
  terms: {
    version: isInt, profile: isMap, profile_digest: (v) => isBytes(v, 32), rounds: isInt, deadlines: isMap,
    keys: (v) => Array.isArray(v) && v.length === 2 && v.every((k) => isBytes(k, 32)), room: (v) => typeof v === 'string',
    names: (v) => Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'string'),
    rated: (v) => typeof v === 'boolean', ratings: (v) => typeof v === 'string',
  },
  accept: { terms: (v) => isBytes(v, 32) },
  key: { deal: isInt, key: (v) => isBytes(v) },
  shuffle: { deal: isInt, deck: (v) => isBytes(v) },
  reveal: { shares: (v) => isShareGroups(v) && /** @type {unknown[]} */ (v).length >= 1 },
  act: { action: isMap, shares: isShareGroups },
  declare: { action: isMap, shares: isShareGroups },
  disclose: { deal: isInt, key: (v) => isBytes(v, 32), shares: isShareGroups },
  round_sign: { deal: isInt, result: isMap, sig: (v) => isBytes(v, 64) },
  match_result: { result: isMap, sig: (v) => isBytes(v, 64) },
  resign: { result: isMap, sig: (v) => isBytes(v, 64) },
  match_sign: { sig: (v) => isBytes(v, 64) },
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
}


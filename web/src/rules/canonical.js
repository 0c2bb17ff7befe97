// Canonical JSON (spec/rules.md §3.3): keys sorted at every level, no whitespace, separators
// `,` and `:`, non-ASCII kept as is, UTF-8 bytes. Only the values a profile holds are allowed:
// strings, safe integers, booleans, arrays and plain objects.

import { RulesError } from './errors.js';

/**
 * Serialise a JSON value canonically.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJson(value) {
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RulesError('bad_profile', 'only integers are encoded');
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // Sort by UTF-16 code units; every key here is ASCII, where that equals code point order.
    const keys = Object.keys(value).sort();
    const obj = /** @type {Record<string, unknown>} */ (value);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  throw new RulesError('bad_profile', `cannot encode ${String(value)}`);
}

/**
 * The UTF-8 bytes of the canonical JSON of a value.
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function encodeCanonical(value) {
  return new TextEncoder().encode(canonicalJson(value));
}

/**
 * Lowercase hexadecimal of bytes.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

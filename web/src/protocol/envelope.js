// The signed, hash-chained envelope (spec/protocol.md §6):
// [version, session_id(16), seq, prev(32), sender, type, body], canonical msgpack.
import { concat, utf8 } from '../bytes.js';
import { decode, encode, isMap } from './codec.js';
import { ProtocolError } from './errors.js';
import { sha256 } from './primitives.js';
import { label } from './labels.js';

const TYPE_PATTERN = /^[a-z][a-z0-9_.-]{0,31}$/;

/**
 * @typedef {import('./codec.js').Value} Value
 * @typedef {{version: number, sessionId: Uint8Array, seq: number, prev: Uint8Array, sender: number, type: string, body: {[key: string]: Value}}} Envelope
 */

/** An envelope that breaks §6.1 (reason `bad_envelope`). */
export class EnvelopeError extends ProtocolError {
  /** @param {string} detail */
  constructor(detail) {
    super('bad_envelope', detail);
    this.name = 'EnvelopeError';
  }
}

/**
 * Check the fields of §6.1; returns an error message or null.
 * @param {Envelope} e
 */
function fieldProblem(e) {
  if (!Number.isSafeInteger(e.version) || e.version < 0 || e.version > 255) return 'version';
  if (!(e.sessionId instanceof Uint8Array) || e.sessionId.length !== 16) return 'session id is 16 bytes';
  if (!Number.isSafeInteger(e.seq) || e.seq < 0 || e.seq > 0xffffffff) return 'seq is 0..2^32-1';
  if (!(e.prev instanceof Uint8Array) || e.prev.length !== 32) return 'prev is 32 bytes';
  if (e.sender !== 0 && e.sender !== 1) return 'sender is 0 or 1';
  if (typeof e.type !== 'string' || !TYPE_PATTERN.test(e.type)) return 'type';
  if (!isMap(e.body)) return 'body is a map';
  return null;
}

/**
 * The canonical bytes of an envelope.
 * @param {Envelope} e
 */
export function encodeEnvelope(e) {
  const problem = fieldProblem(e);
  if (problem) throw new EnvelopeError(problem);
  return encode([e.version, e.sessionId, e.seq, e.prev, e.sender, e.type, e.body]);
}

/**
 * Decode envelope bytes strictly (spec/protocol.md §3, §6.1); raises EnvelopeError.
 * @param {Uint8Array} bytes
 * @returns {Envelope}
 */
export function decodeEnvelope(bytes) {
  let value;
  try {
    value = decode(bytes);
  } catch (e) {
    throw new EnvelopeError(`not canonical msgpack (${/** @type {Error} */ (e).message})`);
  }
  if (!Array.isArray(value) || value.length !== 7) throw new EnvelopeError('an array of seven fields');
  const [version, sessionId, seq, prev, sender, type, body] = value;
  const e = /** @type {Envelope} */ (/** @type {unknown} */ ({ version, sessionId, seq, prev, sender, type, body }));
  const problem = fieldProblem(e);
  if (problem) throw new EnvelopeError(problem);
  return e;
}

/**
 * digest(envelope) = H(LABEL || "envelope" || envelope bytes) (spec/protocol.md §6.2).
 * @param {number} version @param {Uint8Array} bytes
 */
export function envelopeDigest(version, bytes) {
  return sha256(concat(label(version), utf8('envelope'), bytes));
}

// Transcript and evidence files (spec/protocol.md §8, §9; spec/game.md §8.1): a magic, then
// canonical msgpack values one after another, nothing between or after them.
import { concat, equal } from '../bytes.js';
import { encode } from './codec.js';

export const TRANSCRIPT_MAGIC = Uint8Array.from([0x89, 0x4b, 0x4f, 0x49, 0x4b, 0x4f, 0x49, 0x0a]); // \x89KOIKOI\n
export const EVIDENCE_MAGIC = Uint8Array.from([0x89, 0x4b, 0x4b, 0x45, 0x56, 0x49, 0x44, 0x0a]); // \x89KKEVID\n
export const ABANDON_MAGIC = Uint8Array.from([0x89, 0x4b, 0x4b, 0x41, 0x42, 0x4e, 0x44, 0x0a]); // \x89KKABND\n

/**
 * @typedef {{signature: Uint8Array, envelope: Uint8Array}} Entry
 * @typedef {{[key: string]: import('./codec.js').Value}} Record
 */

/**
 * A transcript file: header, one [signature, envelope] per envelope, and the closing marker when
 * the session ended normally.
 * @param {Record} handshakeRecord @param {Entry[]} entries @param {{closed: boolean, head: Uint8Array}} end
 */
export function encodeTranscript(handshakeRecord, entries, end) {
  const parts = [TRANSCRIPT_MAGIC, encode({ format: 2, kind: 'transcript', handshake: handshakeRecord })];
  for (const e of entries) parts.push(encode([e.signature, e.envelope]));
  if (end.closed) parts.push(encode({ end: true, count: entries.length, head: end.head }));
  return concat(...parts);
}

/**
 * An evidence file (spec/protocol.md §9): the reporter's claim, every envelope accepted before
 * the offence, and the offence map.
 * @param {{handshake: Record, reporter: number, reason: string, message: string, entries: Entry[], offence: Record}} e
 */
export function encodeEvidence(e) {
  const parts = [EVIDENCE_MAGIC, encode({ format: 2, kind: 'evidence', handshake: e.handshake, reporter: e.reporter, reason: e.reason, message: e.message })];
  for (const entry of e.entries) parts.push(encode([entry.signature, entry.envelope]));
  parts.push(encode({ offence: e.offence }));
  return concat(...parts);
}

/** @param {Uint8Array} data @param {Uint8Array} magic */
export function hasMagic(data, magic) {
  return data.length >= 8 && equal(data.subarray(0, 8), magic);
}

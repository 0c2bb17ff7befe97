// Round and match results (spec/game.md §6): the statements both seats sign, the match result
// map, and the co-signed result file with its standalone check.
import { equal } from '../bytes.js';
import { decode, encode, isMap } from './codec.js';
import { ProtocolError } from './errors.js';
import { ed25519Verify, isValidIdentityKey } from './primitives.js';
import { GAME_VERSION, domain, statement } from './statement.js';

export const RESULT_FORMAT = 'koikoi-p2p/cosigned-result/v1';

/**
 * The round statement (spec/game.md §6.1).
 * @param {{session: Uint8Array, deal: number, round: number, head: Uint8Array, result: {[key: string]: import('./codec.js').Value}}} v
 */
export function roundStatement(v) {
  return statement(domain('round-result'), { session: v.session, deal: v.deal, round: v.round, head: v.head, result: v.result });
}

/** @param {{[key: string]: import('./codec.js').Value}} result the §6.2 map */
export function matchStatement(result) {
  return statement(domain('match-result'), result);
}

/**
 * The match result map (spec/game.md §6.2).
 * @param {{session: Uint8Array, room: string, keys: [Uint8Array, Uint8Array], terms: Uint8Array, profile: string,
 *   profileDigest: Uint8Array, rounds: Array<[number, number | null, number]>, scores: [number, number],
 *   winner: number | null, head: Uint8Array}} v
 * @returns {{[key: string]: import('./codec.js').Value}}
 */
export function matchResult(v) {
  return {
    version: GAME_VERSION, session: v.session, room: v.room, keys: [v.keys[0], v.keys[1]], terms: v.terms,
    profile: v.profile, profile_digest: v.profileDigest, rounds: v.rounds.map((r) => [r[0], r[1], r[2]]),
    scores: [v.scores[0], v.scores[1]], winner: v.winner, head: v.head,
  };
}

/**
 * The co-signed result file (spec/game.md §6.3).
 * @param {{[key: string]: import('./codec.js').Value}} result @param {[Uint8Array, Uint8Array]} signatures
 */
export function encodeResultFile(result, signatures) {
  return encode({ format: RESULT_FORMAT, result, signatures: [signatures[0], signatures[1]] });
}

/** A co-signed result file that does not verify. */
export class ResultError extends ProtocolError {
  /** @param {string} reason @param {string} detail */
  constructor(reason, detail) {
    super(reason, detail);
    this.name = 'ResultError';
  }
}

const RESULT_FIELDS = ['version', 'session', 'room', 'keys', 'terms', 'profile', 'profile_digest', 'rounds', 'scores', 'winner', 'head'];

/** @param {unknown} v */
const isInt = (v) => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * Check a co-signed result file alone (spec/game.md §6.3); returns the result map.
 * @param {Uint8Array} data
 */
export function verifyResult(data) {
  let file;
  try {
    file = decode(data);
  } catch (e) {
    throw new ResultError('bad_result', `not canonical msgpack (${/** @type {Error} */ (e).message})`);
  }
  if (!isMap(file) || Object.keys(file).sort().join() !== 'format,result,signatures') throw new ResultError('bad_result', 'a result file has exactly format, result, signatures');
  if (file.format !== RESULT_FORMAT) throw new ResultError('bad_result', `format ${String(file.format)}`);
  const r = file.result;
  const sigs = file.signatures;
  if (!isMap(r) || Object.keys(r).sort().join() !== [...RESULT_FIELDS].sort().join()) throw new ResultError('bad_result', `the result has exactly ${RESULT_FIELDS.join(', ')}`);
  if (!Array.isArray(sigs) || sigs.length !== 2 || !sigs.every((s) => s instanceof Uint8Array && s.length === 64)) throw new ResultError('bad_result', 'two 64-byte signatures');
  const keys = r.keys;
  const ok = r.version === GAME_VERSION && r.session instanceof Uint8Array && r.session.length === 32
    && typeof r.room === 'string' && Array.isArray(keys) && keys.length === 2 && keys.every((k) => k instanceof Uint8Array && k.length === 32)
    && r.terms instanceof Uint8Array && r.terms.length === 32 && typeof r.profile === 'string'
    && r.profile_digest instanceof Uint8Array && r.profile_digest.length === 32
    && Array.isArray(r.rounds) && r.rounds.every((x) => Array.isArray(x) && x.length === 3 && isInt(x[0]) && (x[1] === null || x[1] === 0 || x[1] === 1) && isInt(x[2]))
    && Array.isArray(r.scores) && r.scores.length === 2 && r.scores.every(isInt)
    && (r.winner === null || r.winner === 0 || r.winner === 1) && r.head instanceof Uint8Array && r.head.length === 32;
  if (!ok) throw new ResultError('bad_result', 'a field of the wrong type or size');
  const [k0, k1] = /** @type {Uint8Array[]} */ (keys);
  if (equal(k0, k1)) throw new ResultError('bad_result', 'the two keys are the same');
  for (const k of [k0, k1]) if (!isValidIdentityKey(k)) throw new ResultError('bad_key', 'an identity key outside the prime-order subgroup');
  const st = matchStatement(r);
  for (const s of [0, 1]) {
    if (!ed25519Verify([k0, k1][s], st, /** @type {Uint8Array} */ (sigs[s]))) throw new ResultError('bad_signature', `seat ${s} did not sign this result`);
  }
  return r;
}

// Round and match results (spec/game.md §6): the statements both seats sign, the match result
// map, and the co-signed result file with its standalone check (§6.5).
import { decode, encode, isMap } from './codec.js';
import { equal } from '../bytes.js';
import { ed25519Verify, isValidIdentityKey } from './primitives.js';
import { ProtocolError } from './errors.js';
import { GAME_VERSION, domain, statement } from './statement.js';

export const RESULT_FORMAT = 'koikoi-p2p/cosigned-result/v2';

/**
 * @param {{session: Uint8Array, deal: number, round: number, head: Uint8Array, result: {[key: string]: import('./codec.js').Value}}} v
 */
export function roundStatement(v) {
  return statement(domain('round-result'), { session: v.session, deal: v.deal, round: v.round, head: v.head, result: v.result });
}

/** @param {{[key: string]: import('./codec.js').Value}} result */
export function matchStatement(result) {
  return statement(domain('match-result'), result);
}

/**
 * @param {{session: Uint8Array, room: string, keys: [Uint8Array, Uint8Array], names: [string, string], rated: boolean,
 *   terms: Uint8Array, profile: string, profileDigest: Uint8Array, rounds: Array<[number, number | null, number]>,
 *   scores: [number, number], winner: number | null, resigned: number | null, head: Uint8Array}} v
 * @returns {{[key: string]: import('./codec.js').Value}}
 */
export function matchResult(v) {
  return {
    version: GAME_VERSION, session: v.session, room: v.room, keys: [v.keys[0], v.keys[1]], names: [v.names[0], v.names[1]], rated: v.rated,
    terms: v.terms, profile: v.profile, profile_digest: v.profileDigest, rounds: v.rounds.map((r) => [r[0], r[1], r[2]]),
    scores: [v.scores[0], v.scores[1]], winner: v.winner, resigned: v.resigned, head: v.head,
  };
}

/** @param {{[key: string]: import('./codec.js').Value}} result @param {[Uint8Array, Uint8Array]} signatures */
export function encodeResultFile(result, signatures) {
  return encode({ format: RESULT_FORMAT, result, signatures: [signatures[0], signatures[1]] });
}

/** A co-signed result file that does not verify (spec/game.md §6.5). */
export class ResultError extends ProtocolError {
  /** @param {string} reason @param {string} detail */
  constructor(reason, detail) {
    super(reason, detail);
    this.name = 'ResultError';
  }
}

const RESULT_FIELDS = 'head,keys,names,profile,profile_digest,rated,resigned,room,rounds,scores,session,terms,version,winner';

/** @param {unknown} v */
const isInt = (v) => typeof v === 'number' && Number.isSafeInteger(v);
/** @param {unknown} v @param {number} n */
const isBytes = (v, n) => v instanceof Uint8Array && v.length === n;

/**
 * The shape of a result map (spec/game.md §6.2, §6.5); the problem, or null.
 * @param {{[key: string]: unknown}} r
 */
function resultProblem(r) {
  if (Object.keys(r).sort().join() !== RESULT_FIELDS) return 'match result fields differ from the format';
  if (!Array.isArray(r.keys) || r.keys.length !== 2 || !r.keys.every((k) => isBytes(k, 32))) return 'keys must be two 32-byte keys';
  if (!Array.isArray(r.scores) || r.scores.length !== 2 || !r.scores.every(isInt)) return 'scores must be two integers';
  if (!Array.isArray(r.rounds) || !r.rounds.every((x) => Array.isArray(x) && x.length === 3 && isInt(x[0])
    && (x[1] === null || x[1] === 0 || x[1] === 1) && isInt(x[2]))) return 'a round entry is [round_index, winner, points]';
  if (!(r.winner === null || r.winner === 0 || r.winner === 1)) return 'winner must be 0, 1 or nil';
  if (!(r.resigned === null || ((r.resigned === 0 || r.resigned === 1) && r.winner === 1 - r.resigned))) return 'resigned must be nil, or the seat other than the winner';
  if (!Array.isArray(r.names) || r.names.length !== 2 || !r.names.every((n) => typeof n === 'string')) return 'names must be two strings';
  if (typeof r.rated !== 'boolean') return 'rated must be true or false';
  if (!isInt(r.version) || typeof r.room !== 'string' || typeof r.profile !== 'string') return 'version, room or profile has the wrong type';
  if (r.version !== GAME_VERSION) return `unsupported game version ${String(r.version)}`;
  if (![r.session, r.terms, r.profile_digest, r.head].every((v) => isBytes(v, 32))) return 'session, digests and head must be bytes';
  return null;
}

/**
 * Check a co-signed result file alone (spec/game.md §6.5): canonical, exactly its fields and
 * types, version 2, two different valid identity keys, and each seat's signature over the match
 * statement. Returns the result map; raises ResultError (`bad_result`, `bad_key`, `bad_signature`).
 * @param {Uint8Array} data
 */
export function verifyResult(data) {
  /** @type {any} */
  let file;
  try {
    file = decode(data);
  } catch (e) {
    throw new ResultError('bad_result', `not a co-signed result: ${/** @type {Error} */ (e).message}`);
  }
  if (!isMap(file) || Object.keys(file).sort().join() !== 'format,result,signatures') throw new ResultError('bad_result', 'not a co-signed result');
  if (file.format !== RESULT_FORMAT) throw new ResultError('bad_result', 'unknown co-signed result format');
  const sigs = file.signatures;
  if (!Array.isArray(sigs) || sigs.length !== 2 || !sigs.every((s) => isBytes(s, 64))) throw new ResultError('bad_result', 'signatures must be two 64-byte signatures');
  const r = file.result;
  if (!isMap(r)) throw new ResultError('bad_result', 'result must be a map');
  const problem = resultProblem(/** @type {{[key: string]: unknown}} */ (r));
  if (problem) throw new ResultError('bad_result', problem);
  if (!equal(encodeResultFile(r, /** @type {[Uint8Array, Uint8Array]} */ (sigs)), data)) throw new ResultError('bad_result', 'co-signed result is not in canonical form');
  const keys = /** @type {Uint8Array[]} */ (r.keys);
  if (equal(keys[0], keys[1])) throw new ResultError('bad_result', 'the two seats have the same key');
  for (const k of keys) if (!isValidIdentityKey(k)) throw new ResultError('bad_key', 'an identity key outside the prime-order subgroup');
  const st = matchStatement(r);
  for (const s of [0, 1]) {
    if (!ed25519Verify(keys[s], st, /** @type {Uint8Array} */ (sigs[s]))) throw new ResultError('bad_signature', 'a signature does not cover this result');
  }
  return r;
}

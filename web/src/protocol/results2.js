// Round and match results of game version 2 (spec/game.md §6 on the v2-flow branch).
import { decode, encode, isMap } from './codec.js';
import { equal } from '../bytes.js';
import { ed25519Verify, isValidIdentityKey } from './primitives.js';
import { ResultError } from './results.js';
import { statement } from './statement.js';

export const RESULT_FORMAT_2 = 'koikoi-p2p/cosigned-result/v2';

/**
 * @param {{session: Uint8Array, deal: number, round: number, head: Uint8Array, result: {[key: string]: import('./codec.js').Value}}} v
 */
export function roundStatement2(v) {
  return statement('koikoi-p2p/game/v2/round-result', { session: v.session, deal: v.deal, round: v.round, head: v.head, result: v.result });
}

/** @param {{[key: string]: import('./codec.js').Value}} result */
export function matchStatement2(result) {
  return statement('koikoi-p2p/game/v2/match-result', result);
}

/**
 * @param {{session: Uint8Array, room: string, keys: [Uint8Array, Uint8Array], names: [string, string], rated: boolean,
 *   terms: Uint8Array, profile: string, profileDigest: Uint8Array, rounds: Array<[number, number | null, number]>,
 *   scores: [number, number], winner: number | null, resigned: number | null, head: Uint8Array}} v
 * @returns {{[key: string]: import('./codec.js').Value}}
 */
export function matchResult2(v) {
  return {
    version: 2, session: v.session, room: v.room, keys: [v.keys[0], v.keys[1]], names: [v.names[0], v.names[1]], rated: v.rated,
    terms: v.terms, profile: v.profile, profile_digest: v.profileDigest, rounds: v.rounds.map((r) => [r[0], r[1], r[2]]),
    scores: [v.scores[0], v.scores[1]], winner: v.winner, resigned: v.resigned, head: v.head,
  };
}

/** @param {{[key: string]: import('./codec.js').Value}} result @param {[Uint8Array, Uint8Array]} signatures */
export function encodeResultFile2(result, signatures) {
  return encode({ format: RESULT_FORMAT_2, result, signatures: [signatures[0], signatures[1]] });
}

/**
 * Check a co-signed result file of version 2 alone (spec/game.md §6.5 on the v2-flow branch).
 * @param {Uint8Array} data
 */
export function verifyResult2(data) {
  const file = /** @type {any} */ (decode(data));
  if (!isMap(file) || Object.keys(file).sort().join() !== 'format,result,signatures' || file.format !== RESULT_FORMAT_2) {
    throw new ResultError('bad_result', 'not a version 2 co-signed result file');
  }
  const r = file.result;
  const fields = 'head,keys,names,profile,profile_digest,rated,resigned,room,rounds,scores,session,terms,version,winner';
  if (!isMap(r) || Object.keys(r).sort().join() !== fields || r.version !== 2 || typeof r.rated !== 'boolean'
    || !Array.isArray(r.names) || r.names.length !== 2 || !r.names.every((n) => typeof n === 'string')
    || !(r.resigned === null || (r.resigned !== r.winner && (r.resigned === 0 || r.resigned === 1)))) {
    throw new ResultError('bad_result', 'a field of the wrong type');
  }
  const keys = /** @type {Uint8Array[]} */ (r.keys);
  if (!Array.isArray(keys) || keys.length !== 2 || equal(keys[0], keys[1]) || !keys.every(isValidIdentityKey)) throw new ResultError('bad_key', 'two different valid identity keys');
  const st = matchStatement2(r);
  const sigs = /** @type {Uint8Array[]} */ (/** @type {any} */ (file).signatures);
  if (!Array.isArray(sigs) || sigs.length !== 2) throw new ResultError('bad_result', 'two signatures');
  for (const s of [0, 1]) {
    if (!(sigs[s] instanceof Uint8Array) || !ed25519Verify(keys[s], st, sigs[s])) throw new ResultError('bad_signature', `seat ${s} did not sign this result`);
  }
  return r;
}

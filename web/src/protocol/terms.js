// Match terms (spec/game.md §2): what seat 0 proposes and seat 1 signs before any card exists.
import { equal } from '../bytes.js';
import { encode, isMap } from './codec.js';
import { ProtocolError } from './errors.js';
import { sha256 } from './primitives.js';
import { GAME_VERSION, domain, statement } from './statement.js';
import { Profile } from '../rules/profile.js';

export const DEFAULT_DEADLINES = Object.freeze({ step: 60, turn: 300 });

/** Terms that break spec/game.md §2 (reason `bad_terms`). */
export class TermsError extends ProtocolError {
  /** @param {string} detail */
  constructor(detail) {
    super('bad_terms', detail);
    this.name = 'TermsError';
  }
}

/**
 * @typedef {{version: number, profile: Profile, rounds: number, deadlines: {step: number, turn: number},
 *   keys: [Uint8Array, Uint8Array], room: string, body: {[key: string]: import('./codec.js').Value}, digest: Uint8Array}} Terms
 */

/**
 * The terms body seat 0 proposes.
 * @param {{profile: Profile, deadlines?: {step: number, turn: number}, keys: [Uint8Array, Uint8Array], room: string}} options
 * @returns {{[key: string]: import('./codec.js').Value}}
 */
export function makeTerms({ profile, deadlines = DEFAULT_DEADLINES, keys, room }) {
  return {
    version: GAME_VERSION,
    profile: /** @type {any} */ (profile.toDict()),
    profile_digest: profile.digest(),
    rounds: profile.rounds,
    deadlines: { step: deadlines.step, turn: deadlines.turn },
    keys: [keys[0], keys[1]],
    room,
  };
}

/**
 * The terms digest: SHA-256(statement("koikoi-p2p/game/v1/terms", body)) (spec/game.md §2.3).
 * @param {{[key: string]: import('./codec.js').Value}} body
 */
export function termsDigest(body) {
  return sha256(statement(domain('terms'), body));
}

/**
 * Check received terms against this session (spec/game.md §2.2); raises TermsError.
 * @param {{[key: string]: import('./codec.js').Value}} body
 * @param {{keys: [Uint8Array, Uint8Array], room: string}} session
 * @returns {Terms}
 */
export function checkTerms(body, session) {
  if (body.version !== GAME_VERSION) throw new TermsError(`version ${String(body.version)}`);
  let profile;
  try {
    profile = Profile.fromDict(body.profile);
  } catch (e) {
    throw new TermsError(`profile: ${/** @type {Error} */ (e).message}`);
  }
  if (!equal(/** @type {Uint8Array} */ (body.profile_digest), profile.digest())) throw new TermsError('the profile digest does not match the profile');
  if (body.rounds !== profile.rounds) throw new TermsError('rounds differs from the profile');
  const d = body.deadlines;
  if (!isMap(d) || Object.keys(d).length !== 2 || !inRange(d.step) || !inRange(d.turn)) throw new TermsError('deadlines are {step, turn}, each 1..86400');
  const keys = /** @type {Uint8Array[]} */ (body.keys);
  if (!equal(keys[0], session.keys[0]) || !equal(keys[1], session.keys[1])) throw new TermsError('keys are not this session\'s identities');
  if (body.room !== session.room) throw new TermsError('room is not this session\'s');
  // The decoded terms, encoded again, give the same bytes (the profile canonical as a map too).
  const again = makeTerms({ profile, deadlines: /** @type {any} */ (d), keys: session.keys, room: session.room });
  if (!equal(encode(again), encode(body))) throw new TermsError('not canonical');
  return {
    version: GAME_VERSION, profile, rounds: profile.rounds, deadlines: { step: Number(d.step), turn: Number(d.turn) },
    keys: session.keys, room: session.room, body, digest: termsDigest(body),
  };
}

/** @param {unknown} v */
function inRange(v) {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 86400;
}

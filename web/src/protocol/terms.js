// Match terms (spec/game.md §2): what seat 0 proposes and seat 1 signs before any card exists,
// with the display names, the rating fields and the profile name rule of §2.4.
import { equal } from '../bytes.js';
import { encode, isMap } from './codec.js';
import { LocalError, ProtocolError } from './errors.js';
import { sha256 } from './primitives.js';
import { GAME_VERSION, domain, statement } from './statement.js';
import { nameProblem } from './names.js';
import { Profile, PRESETS, preset, withRounds } from '../rules/profile.js';

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
 *   keys: [Uint8Array, Uint8Array], names: [string, string], room: string, rated: boolean, ratings: string,
 *   body: {[key: string]: import('./codec.js').Value}, digest: Uint8Array}} Terms
 */

/**
 * What is wrong with a `rated`/`ratings` pair (spec/game.md §2.2), or null: `ratings` is "" exactly
 * when `rated` is false, else an http:// or https:// URL of at most 200 printable ASCII characters.
 * @param {unknown} rated @param {unknown} ratings @returns {string | null}
 */
export function ratingsProblem(rated, ratings) {
  if (typeof rated !== 'boolean' || typeof ratings !== 'string') return 'rated is a bool and ratings a string';
  if (!rated) return ratings === '' ? null : 'an unrated match names no rating service';
  if (ratings.length > 200 || !/^https?:\/\/[!-~]+$/.test(ratings)) return 'the rating service is an http:// or https:// URL of at most 200 characters';
  return null;
}

/**
 * @param {{profile: Profile, deadlines?: {step: number, turn: number}, keys: [Uint8Array, Uint8Array],
 *   names: [string, string], room: string, rated?: boolean, ratings?: string}} o
 */
export function makeTerms(o) {
  const problem = ratingsProblem(o.rated ?? false, o.ratings ?? '');
  if (problem) throw new LocalError('bad_argument', problem);
  return {
    version: GAME_VERSION, profile: /** @type {any} */ (o.profile.toDict()), profile_digest: o.profile.digest(),
    rounds: o.profile.rounds, deadlines: { ...(o.deadlines ?? DEFAULT_DEADLINES) }, keys: [o.keys[0], o.keys[1]],
    names: [o.names[0], o.names[1]], room: o.room, rated: o.rated ?? false, ratings: o.ratings ?? '',
  };
}

/** @param {{[key: string]: import('./codec.js').Value}} body */
export function termsDigest(body) {
  return sha256(statement(domain('terms'), body));
}

/** @param {unknown} v */
const inRange = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 86400;

/**
 * @param {{[key: string]: import('./codec.js').Value}} body
 * @param {{keys: [Uint8Array, Uint8Array], room: string, names: [string, string]}} session
 * @returns {Terms}
 */
export function checkTerms(body, session) {
  if (body.version !== GAME_VERSION) throw new ProtocolError('unsupported_version', `game version ${String(body.version)}`);
  let profile;
  try {
    profile = Profile.fromDict(body.profile);
  } catch (e) {
    throw new TermsError(`profile: ${/** @type {Error} */ (e).message}`);
  }
  if (!equal(/** @type {Uint8Array} */ (body.profile_digest), profile.digest())) throw new TermsError('the profile digest does not match the profile');
  // §2.4: a preset's name means that preset at the agreed length.
  if (PRESETS.includes(profile.name) && !withRounds(preset(profile.name), profile.rounds).equals(profile)) {
    throw new TermsError(`a profile named ${profile.name} is not that preset`);
  }
  if (body.rounds !== profile.rounds) throw new TermsError('rounds differs from the profile');
  const d = body.deadlines;
  if (!isMap(d) || Object.keys(d).length !== 2 || !inRange(d.step) || !inRange(d.turn)) throw new TermsError('deadlines are {step, turn}, each 1..86400');
  // The shape says only "an array" (spec/game.md §3.4): the lengths and element types are the terms' rule.
  const keys = /** @type {unknown[]} */ (body.keys);
  if (keys.length !== 2 || !keys.every((k) => k instanceof Uint8Array)
    || !equal(/** @type {Uint8Array} */ (keys[0]), session.keys[0]) || !equal(/** @type {Uint8Array} */ (keys[1]), session.keys[1])) {
    throw new TermsError('keys are not this session\'s identities');
  }
  const names = /** @type {unknown[]} */ (body.names);
  if (names.length !== 2 || names.some((n) => typeof n !== 'string' || nameProblem(n)) || names[0] !== session.names[0] || names[1] !== session.names[1]) {
    throw new TermsError('names are not the handshake\'s');
  }
  if (body.room !== session.room) throw new TermsError('room is not this session\'s');
  const ratings = /** @type {string} */ (body.ratings);
  const ratingsBad = ratingsProblem(body.rated, ratings);
  if (ratingsBad) throw new TermsError(`rated and ratings: ${ratingsBad}`);
  const again = makeTerms({ profile, deadlines: /** @type {any} */ (d), keys: session.keys, names: session.names, room: session.room, rated: /** @type {boolean} */ (body.rated), ratings });
  if (!equal(encode(again), encode(body))) throw new TermsError('not canonical');
  return {
    version: GAME_VERSION, profile, rounds: profile.rounds, deadlines: { step: Number(d.step), turn: Number(d.turn) },
    keys: session.keys, names: session.names, room: session.room, rated: /** @type {boolean} */ (body.rated), ratings, body, digest: termsDigest(body),
  };
}

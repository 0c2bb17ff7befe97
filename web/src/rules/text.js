// Switches as text (spec/rules.md §3.7) and describing a custom profile (§3.8): how a host's
// `NAME=VALUE` or a room form is read, how a value is written back, and the switches that make a
// profile differ from its base preset.

import { CARDS } from './cards.js';
import { canonicalJson } from './canonical.js';
import { RulesError } from './errors.js';
import { ALL_SWITCHES, HAND_YAKU_IDS, PRESETS, Profile, pairedPool, preset } from './profile.js';

/** @typedef {import('./profile.js').Switches} Switches */

/** A text-only name (spec/rules.md §3.7) setting hanami_cancelled_by and tsukimi_cancelled_by to one list. */
export const PAIR_SWITCH = 'viewing_cancelled_by';

const BY_NAME = new Map(ALL_SWITCHES.map((s) => [s.name, s]));
const TRUE = ['true', 'yes', 'on'];
const FALSE = ['false', 'no', 'off'];
const DIGITS = /^[0-9]{1,6}$/;

/**
 * `none` in any letter case, or nothing, stands for the empty value of a map, card or list.
 * @param {string} t trimmed text
 */
const isNone = (t) => t === '' || t.toLowerCase() === 'none';

/**
 * The switch spec of a name.
 * @param {string} name
 */
function switchSpec(name) {
  const sw = BY_NAME.get(/** @type {keyof Switches} */ (name));
  if (!sw) throw new RulesError('unknown_switch', name);
  return sw;
}

/**
 * Comma-separated parts, each trimmed.
 * @param {string} text
 */
const parts = (text) => text.split(',').map((p) => p.trim());

/**
 * Read a switch value from text (spec/rules.md §3.7). The value is not yet checked against the
 * switch's rules (§3.2): `withSwitchText` does that in the context of a profile.
 * @param {string} name
 * @param {string} text
 * @returns {unknown} the value in its JSON form
 * @throws {RulesError} `unknown_switch`, `bad_switch`
 */
export function parseSwitch(name, text) {
  const sw = switchSpec(name);
  const bad = (/** @type {string} */ what) => new RulesError('bad_switch', `${name}: ${what}`);
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{') || t.startsWith('"')) {
    try {
      return JSON.parse(t);
    } catch {
      throw bad('not valid JSON');
    }
  }
  switch (sw.kind) {
    case 'bool':
      if (TRUE.includes(t.toLowerCase())) return true;
      if (FALSE.includes(t.toLowerCase())) return false;
      throw bad('true/yes/on or false/no/off');
    case 'int':
      if (!DIGITS.test(t)) throw bad('decimal digits (at most 6)');
      return Number(t);
    case 'enum':
      if (!(sw.choices ?? []).includes(t)) throw bad(`one of ${(sw.choices ?? []).join(', ')}`);
      return t;
    case 'name':
      return t;
    case 'bright_values': {
      const ps = parts(t);
      if (!ps.every((p) => DIGITS.test(p))) throw bad('four integers separated by commas');
      return ps.map(Number);
    }
    case 'hand_yaku': {
      if (isNone(t)) return {};
      /** @type {Record<string, number>} */
      const out = {};
      for (const p of parts(t)) {
        const m = /^([a-z_]+)\s*:\s*([0-9]{1,6})$/.exec(p);
        if (!m) throw bad('none, or id:points pairs separated by commas');
        if (Object.hasOwn(out, m[1])) throw bad(`${m[1]} named twice`);
        out[m[1]] = Number(m[2]);
      }
      return out;
    }
    case 'joker':
      return isNone(t) ? '' : t;
    case 'cards': {
      if (isNone(t)) return [];
      const chosen = new Set();
      for (const p of parts(t)) {
        if (/^[0-9]+$/.test(p)) {
          const month = Number(p);
          if (month < 1 || month > 12) throw bad(`no month ${p}`);
          for (const c of CARDS) if (c.month === month) chosen.add(c.index);
        } else {
          const c = CARDS.find((x) => x.id === p);
          if (!c) throw bad(`no card ${p}`);
          chosen.add(c.index);
        }
      }
      return [...chosen].sort((a, b) => a - b).map((i) => CARDS[i].id);
    }
    default:
      throw bad('cannot be read');
  }
}

/**
 * Write a switch value in its text form (spec/rules.md §3.7, the first form of each row).
 * @param {string} name
 * @param {unknown} value a valid value in its JSON form
 * @returns {string}
 */
export function formatSwitch(name, value) {
  const sw = switchSpec(name);
  switch (sw.kind) {
    case 'bool': return value ? 'true' : 'false';
    case 'int': return String(value);
    case 'bright_values': return /** @type {number[]} */ (value).join(',');
    case 'hand_yaku': {
      const hy = /** @type {Record<string, number>} */ (value);
      const ids = HAND_YAKU_IDS.filter((id) => Object.hasOwn(hy, id));
      return ids.length === 0 ? 'none' : ids.map((id) => `${id}:${hy[id]}`).join(',');
    }
    case 'joker': return value === '' ? 'none' : String(value);
    case 'cards': {
      const ids = /** @type {string[]} */ (value);
      return ids.length === 0 ? 'none' : ids.join(',');
    }
    default: return String(value);
  }
}

/**
 * A profile with one switch set from text, validated (spec/rules.md §3.7, §3.2).
 * @param {Profile} profile
 * @param {string} name
 * @param {string} text
 * @returns {Profile}
 * @throws {RulesError} `unknown_switch`, `bad_switch`
 */
export function withSwitchText(profile, name, text) {
  if (name === PAIR_SWITCH) {
    // spec/rules.md §3.7: one card list for both viewing yaku (ame-nagare, kiri-nagare).
    const both = parseSwitch('hanami_cancelled_by', text);
    return withSwitchText(withSwitchText(profile, 'hanami_cancelled_by', formatSwitch('hanami_cancelled_by', both)), 'tsukimi_cancelled_by', formatSwitch('tsukimi_cancelled_by', both));
  }
  const value = parseSwitch(name, text);
  // spec/rules.md §3.6: the rounds switch pairs the pool as withRounds does (board-game 6 -> 50).
  const pool = name === 'rounds' && typeof value === 'number' ? pairedPool(profile, value) : null;
  try {
    return profile.withSwitches(pool === null ? { [name]: value } : { rounds: /** @type {number} */ (value), pool_start: pool });
  } catch (e) {
    if (e instanceof RulesError && e.reason === 'bad_profile') throw new RulesError('bad_switch', e.message);
    throw e;
  }
}

/**
 * The switches of `profile` that differ from `base`, in table order, `name` left out, each in
 * its text form (spec/rules.md §3.8).
 * @param {Profile} profile
 * @param {Profile} base
 * @returns {Record<string, string>}
 */
export function differences(profile, base) {
  const a = profile.allSwitches();
  const b = base.allSwitches();
  /** @type {Record<string, string>} */
  const out = {};
  for (const sw of ALL_SWITCHES) {
    if (sw.name === 'name') continue;
    if (canonicalJson(a[sw.name]) !== canonicalJson(b[sw.name])) out[sw.name] = formatSwitch(sw.name, a[sw.name]);
  }
  return out;
}

/**
 * The base preset a profile is described against (spec/rules.md §3.8): its `name` when that is
 * a preset, else the preset with the fewest differing switches (the first of §3.4 on a tie).
 * @param {Profile} profile
 * @returns {string}
 */
export function nearestPreset(profile) {
  if (PRESETS.includes(profile.name)) return profile.name;
  let best = PRESETS[0];
  let fewest = Infinity;
  for (const name of PRESETS) {
    const n = Object.keys(differences(profile, preset(name))).length;
    if (n < fewest) { fewest = n; best = name; }
  }
  return best;
}

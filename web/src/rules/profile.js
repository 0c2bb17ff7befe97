// Rule profiles (spec/rules.md §3): every switch, validation, the six presets, the canonical
// encoding and its SHA-256 digest.
//
// Switch names stay in the spec's snake_case: they are the keys of the wire form and of the
// canonical encoding, so a profile reads the same here, in the spec and on the wire.

import { CARDS, SAKE_CUP } from './cards.js';
import { canonicalJson, toHex } from './canonical.js';
import { RulesError } from './errors.js';
import { sha256 } from './sha256.js';

/** Hand yaku ids in the spec's order (spec/rules.md §4). */
export const HAND_YAKU_IDS = Object.freeze(['teshi', 'kuttsuki', 'tenho', 'double_tenho']);

/** Integers are at most this (spec/rules.md §3.2). */
export const INT_LIMIT = 10000;

/**
 * @typedef {object} Switches every switch of spec/rules.md §3.2, in its JSON form
 * @property {string} name
 * @property {number} rounds
 * @property {number[]} bright_values
 * @property {boolean} named_extension
 * @property {boolean} tane_with_inoshikacho
 * @property {boolean} tan_with_ribbon_yaku
 * @property {string} ribbon_pair
 * @property {boolean} cup_is_plain
 * @property {string} joker_card
 * @property {string} viewing
 * @property {number} monthly_yaku_points
 * @property {string} monthly_yaku_scope
 * @property {number} double_threshold
 * @property {string} koikoi_multiplier
 * @property {number} max_calls_per_round
 * @property {string} after_call
 * @property {boolean} last_turn_stop_only
 * @property {string} exhaustion
 * @property {number} oya_ken_points
 * @property {string} dealer_after_draw
 * @property {Record<string, number>} hand_yaku
 * @property {string} hand_yaku_both
 * @property {string} field_whole_month
 * @property {boolean} redeal_consumes_round
 * @property {string} hand_capture
 * @property {string} first_dealer_tie
 * @property {number} pool_start
 * @property {boolean} transfer_cap
 * @property {boolean} bust_ends_game
 * @property {number} target_score
 * @property {string} match_tie
 * @property {string[]} [hanami_cancelled_by] extension switches (§3.2, second table): absent = default
 * @property {string[]} [tsukimi_cancelled_by]
 * @property {boolean} [cup_either]
 * @property {boolean} [brights_add]
 * @property {boolean} [sanko_with_rain]
 * @property {boolean} [single_yaku]
 * @property {string} [call_limit]
 * @property {string} [caller_pays_more]
 * @property {boolean} [subtract_from_opponent]
 * @property {string} [field_four_pairs]
 * @property {string} [first_dealer]
 * @property {boolean} [viewing_by_call]
 * @property {string} [koikoi_bonus]
 * @property {boolean} [akatan_aotan_on_top]
 * @property {boolean} [stop_on_own_last_turn]
 * @property {string} [hand_whole_month]
 * @property {string} [single_yaku_scope]
 */

/**
 * @typedef {object} SwitchSpec one row of a switch table
 * @property {keyof Switches} name
 * @property {'name'|'int'|'bool'|'enum'|'bright_values'|'joker'|'hand_yaku'|'cards'} kind how a value is checked
 * @property {readonly string[]} [choices] an enum's values
 * @property {readonly number[]} [forbidden] cards a card list may not name
 * @property {unknown} [default] an extension switch's default
 */

/**
 * The switch table (spec/rules.md §3.2), in the order of the spec: every switch is required.
 * @type {ReadonlyArray<SwitchSpec>}
 */
export const SWITCHES = Object.freeze([
  { name: 'name', kind: 'name' },
  { name: 'rounds', kind: 'int' },
  { name: 'bright_values', kind: 'bright_values' },
  { name: 'named_extension', kind: 'bool' },
  { name: 'tane_with_inoshikacho', kind: 'bool' },
  { name: 'tan_with_ribbon_yaku', kind: 'bool' },
  { name: 'ribbon_pair', kind: 'enum', choices: ['chofuku_10', 'separate_5_5'] },
  { name: 'cup_is_plain', kind: 'bool' },
  { name: 'joker_card', kind: 'joker' },
  { name: 'viewing', kind: 'enum', choices: ['always', 'bonus_only', 'off'] },
  { name: 'monthly_yaku_points', kind: 'int' },
  { name: 'monthly_yaku_scope', kind: 'enum', choices: ['current_month', 'any_month'] },
  { name: 'double_threshold', kind: 'int' },
  { name: 'koikoi_multiplier', kind: 'enum', choices: ['opponent_flat_x2', 'shared_one_plus_calls', 'winner_pow2', 'none'] },
  { name: 'max_calls_per_round', kind: 'int' },
  { name: 'after_call', kind: 'enum', choices: ['next_improvement_ends_round', 'shobu_only'] },
  { name: 'last_turn_stop_only', kind: 'bool' },
  { name: 'exhaustion', kind: 'enum', choices: ['draw', 'oya_ken', 'last_caller_scores_else_oya_ken'] },
  { name: 'oya_ken_points', kind: 'int' },
  { name: 'dealer_after_draw', kind: 'enum', choices: ['same', 'other'] },
  { name: 'hand_yaku', kind: 'hand_yaku' },
  { name: 'hand_yaku_both', kind: 'enum', choices: ['void_redeal', 'dealer'] },
  { name: 'field_whole_month', kind: 'enum', choices: ['redeal', 'play_on'] },
  { name: 'redeal_consumes_round', kind: 'bool' },
  { name: 'hand_capture', kind: 'enum', choices: ['free', 'compulsory'] },
  { name: 'first_dealer_tie', kind: 'enum', choices: ['redraw', 'higher_card'] },
  { name: 'pool_start', kind: 'int' },
  { name: 'transfer_cap', kind: 'bool' },
  { name: 'bust_ends_game', kind: 'bool' },
  { name: 'target_score', kind: 'int' },
  { name: 'match_tie', kind: 'enum', choices: ['draw', 'extra_round'] },
]);

/**
 * The extension switches (spec/rules.md §3.2, second table, protocol version 2): each may be
 * absent, meaning its default, and is encoded only when it differs from it (§3.3).
 * @type {ReadonlyArray<SwitchSpec>}
 */
export const EXTENSIONS = Object.freeze([
  { name: 'hanami_cancelled_by', kind: 'cards', forbidden: [8, 32], default: Object.freeze([]) },
  { name: 'tsukimi_cancelled_by', kind: 'cards', forbidden: [28, 32], default: Object.freeze([]) },
  { name: 'cup_either', kind: 'bool', default: false },
  { name: 'brights_add', kind: 'bool', default: false },
  { name: 'sanko_with_rain', kind: 'bool', default: false },
  { name: 'single_yaku', kind: 'bool', default: false },
  { name: 'call_limit', kind: 'enum', choices: ['per_round', 'per_seat'], default: 'per_round' },
  { name: 'caller_pays_more', kind: 'enum', choices: ['off', 'times_calls', 'doubled_per_call'], default: 'off' },
  { name: 'subtract_from_opponent', kind: 'bool', default: false },
  { name: 'field_four_pairs', kind: 'enum', choices: ['play_on', 'redeal'], default: 'play_on' },
  { name: 'first_dealer', kind: 'enum', choices: ['card_draw', 'coin', 'host', 'joiner'], default: 'card_draw' },
  { name: 'viewing_by_call', kind: 'bool', default: false },
  { name: 'koikoi_bonus', kind: 'enum', choices: ['off', 'winner_add'], default: 'off' },
  { name: 'akatan_aotan_on_top', kind: 'bool', default: false },
  { name: 'stop_on_own_last_turn', kind: 'bool', default: false },
  { name: 'hand_whole_month', kind: 'enum', choices: ['play_on', 'redeal'], default: 'play_on' },
  { name: 'single_yaku_scope', kind: 'enum', choices: ['pile', 'extensions'], default: 'pile' },
]);

/** The rank of the teshi claim that redeals a hand holding a whole month (above every hand yaku, 1..100). */
export const REDEAL_CLAIM = 101;

/** Every switch, core then extension, in table order. */
export const ALL_SWITCHES = Object.freeze([...SWITCHES, ...EXTENSIONS]);

const SWITCH_NAMES = new Set(ALL_SWITCHES.map((s) => s.name));
const EXTENSION_NAMES = new Set(EXTENSIONS.map((s) => s.name));
const NAME_RE = /^[a-z0-9_-]{1,40}$/;

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    && !(v instanceof Map) && !ArrayBuffer.isView(v);
}

/**
 * Equal JSON values (types included: `0` is not `false`).
 * @param {unknown} a
 * @param {unknown} b
 */
function sameJson(a, b) {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/**
 * @param {unknown} v
 * @param {number} lo
 * @param {number} hi
 * @returns {v is number}
 */
function isInt(v, lo, hi) {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/**
 * Check one switch value and return its frozen normal form.
 * @param {(typeof SWITCHES)[number]} sw
 * @param {unknown} v
 * @returns {unknown}
 */
function checkSwitch(sw, v) {
  const bad = (/** @type {string} */ why) => new RulesError('bad_switch', `${sw.name} ${why}`);
  switch (sw.kind) {
    case 'name':
      if (typeof v !== 'string' || !NAME_RE.test(v)) throw bad("is 1..40 characters of a-z, 0-9, '-' and '_'");
      return v;
    case 'int':
      if (!isInt(v, 0, INT_LIMIT)) throw bad(`must be an integer 0..${INT_LIMIT}`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw bad('must be true or false');
      return v;
    case 'enum':
      if (typeof v !== 'string' || !(sw.choices ?? []).includes(v)) throw bad(`must be one of ${(sw.choices ?? []).join(', ')}`);
      return v;
    case 'bright_values':
      if (!Array.isArray(v) || v.length !== 4 || !v.every((x) => isInt(x, 1, 100))) throw bad('is four integers 1..100');
      return Object.freeze(v.slice());
    case 'joker':
      if (v === '') return v;
      if (typeof v !== 'string' || !CARDS.some((c) => c.id === v && c.kind === 'animal' && c.index !== SAKE_CUP)) {
        throw bad('is empty or an animal card other than the cup');
      }
      return v;
    case 'hand_yaku': {
      if (!isPlainObject(v)) throw bad('is a map of hand yaku ids to points');
      for (const [k, x] of Object.entries(v)) {
        if (!HAND_YAKU_IDS.includes(k)) throw bad(`has an unknown hand yaku ${JSON.stringify(k)}`);
        if (!isInt(x, 1, 100)) throw bad('maps teshi/kuttsuki/tenho/double_tenho to 1..100');
      }
      /** @type {Record<string, number>} */
      const out = {};
      for (const k of HAND_YAKU_IDS) if (Object.hasOwn(v, k)) out[k] = /** @type {number} */ (v[k]);
      return Object.freeze(out);
    }
    case 'cards': {
      // A list of card ids in card-index order, each once, none of the yaku's own cards.
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && CARDS.some((c) => c.id === x))) {
        throw bad('is a list of card ids');
      }
      const idx = v.map((x) => CARDS.findIndex((c) => c.id === x));
      for (let i = 1; i < idx.length; i++) if (idx[i] <= idx[i - 1]) throw bad('lists card ids in card order, each once');
      const forbidden = sw.forbidden ?? [];
      if (idx.some((i) => forbidden.includes(i))) throw bad(`cannot name ${forbidden.map((i) => CARDS[i].id).join(' or ')}`);
      return Object.freeze(v.slice());
    }
    default:
      throw new RulesError('bad_switch', sw.name);
  }
}

/**
 * The rules that tie switches together (spec/rules.md §3.2).
 * @param {Switches} s
 */
function checkTogether(s) {
  if (s.rounds === 0 && s.target_score === 0) throw new RulesError('bad_switch', 'a match needs rounds or a target score');
  if (s.exhaustion !== 'draw' && s.oya_ken_points < 1) throw new RulesError('bad_switch', 'oya-ken exhaustion needs oya_ken_points >= 1');
  if (s.transfer_cap && s.pool_start === 0) throw new RulesError('bad_switch', 'transfer_cap needs a pool (pool_start > 0)');
  if (s.bust_ends_game && s.pool_start === 0) throw new RulesError('bad_switch', 'bust_ends_game needs a pool (pool_start > 0)');
  if (s.cup_either && s.cup_is_plain) throw new RulesError('bad_switch', 'cup_either needs cup_is_plain false');
  if (s.subtract_from_opponent && s.pool_start > 0) throw new RulesError('bad_switch', 'subtract_from_opponent needs scores from 0 (pool_start 0)');
  if ((s.single_yaku_scope ?? 'pile') !== 'pile' && !s.single_yaku) throw new RulesError('bad_switch', 'single_yaku_scope extensions needs single_yaku true');
  if (s.akatan_aotan_on_top && s.ribbon_pair !== 'separate_5_5') throw new RulesError('bad_switch', 'akatan_aotan_on_top needs ribbon_pair separate_5_5');
  if (s.hand_whole_month === 'redeal' && Object.keys(s.hand_yaku).some((k) => k !== 'kuttsuki')) {
    throw new RulesError('bad_switch', 'hand_whole_month redeal allows no hand yaku that shows a whole month (teshi, tenho, double_tenho)');
  }
}

/** A validated, immutable rule profile. Build one with `preset`, `Profile.fromDict` or `Profile.decode`. */
export class Profile {
  /**
   * Use `Profile.fromDict`; the constructor trusts its (already validated) argument.
   * @param {Switches} c
   */
  constructor(c) {
    /** @readonly @type {readonly string[]} */ this.hanami_cancelled_by = c.hanami_cancelled_by ?? [];
    /** @readonly @type {readonly string[]} */ this.tsukimi_cancelled_by = c.tsukimi_cancelled_by ?? [];
    /** @readonly @type {boolean} */ this.cup_either = c.cup_either ?? false;
    /** @readonly @type {boolean} */ this.brights_add = c.brights_add ?? false;
    /** @readonly @type {boolean} */ this.sanko_with_rain = c.sanko_with_rain ?? false;
    /** @readonly @type {boolean} */ this.single_yaku = c.single_yaku ?? false;
    /** @readonly @type {string} */ this.call_limit = c.call_limit ?? 'per_round';
    /** @readonly @type {string} */ this.caller_pays_more = c.caller_pays_more ?? 'off';
    /** @readonly @type {boolean} */ this.subtract_from_opponent = c.subtract_from_opponent ?? false;
    /** @readonly @type {string} */ this.field_four_pairs = c.field_four_pairs ?? 'play_on';
    /** @readonly @type {string} */ this.first_dealer = c.first_dealer ?? 'card_draw';
    /** @readonly @type {boolean} */ this.viewing_by_call = c.viewing_by_call ?? false;
    /** @readonly @type {string} */ this.koikoi_bonus = c.koikoi_bonus ?? 'off';
    /** @readonly @type {boolean} */ this.akatan_aotan_on_top = c.akatan_aotan_on_top ?? false;
    /** @readonly @type {boolean} */ this.stop_on_own_last_turn = c.stop_on_own_last_turn ?? false;
    /** @readonly @type {string} */ this.hand_whole_month = c.hand_whole_month ?? 'play_on';
    /** @readonly @type {string} */ this.single_yaku_scope = c.single_yaku_scope ?? 'pile';
    /** @readonly @type {string} */ this.name = c.name;
    /** @readonly @type {number} */ this.rounds = c.rounds;
    /** @readonly @type {readonly number[]} */ this.bright_values = c.bright_values;
    /** @readonly @type {boolean} */ this.named_extension = c.named_extension;
    /** @readonly @type {boolean} */ this.tane_with_inoshikacho = c.tane_with_inoshikacho;
    /** @readonly @type {boolean} */ this.tan_with_ribbon_yaku = c.tan_with_ribbon_yaku;
    /** @readonly @type {string} */ this.ribbon_pair = c.ribbon_pair;
    /** @readonly @type {boolean} */ this.cup_is_plain = c.cup_is_plain;
    /** @readonly @type {string} */ this.joker_card = c.joker_card;
    /** @readonly @type {string} */ this.viewing = c.viewing;
    /** @readonly @type {number} */ this.monthly_yaku_points = c.monthly_yaku_points;
    /** @readonly @type {string} */ this.monthly_yaku_scope = c.monthly_yaku_scope;
    /** @readonly @type {number} */ this.double_threshold = c.double_threshold;
    /** @readonly @type {string} */ this.koikoi_multiplier = c.koikoi_multiplier;
    /** @readonly @type {number} */ this.max_calls_per_round = c.max_calls_per_round;
    /** @readonly @type {string} */ this.after_call = c.after_call;
    /** @readonly @type {boolean} */ this.last_turn_stop_only = c.last_turn_stop_only;
    /** @readonly @type {string} */ this.exhaustion = c.exhaustion;
    /** @readonly @type {number} */ this.oya_ken_points = c.oya_ken_points;
    /** @readonly @type {string} */ this.dealer_after_draw = c.dealer_after_draw;
    /** @readonly @type {Readonly<Record<string, number>>} */ this.hand_yaku = c.hand_yaku;
    /** @readonly @type {string} */ this.hand_yaku_both = c.hand_yaku_both;
    /** @readonly @type {string} */ this.field_whole_month = c.field_whole_month;
    /** @readonly @type {boolean} */ this.redeal_consumes_round = c.redeal_consumes_round;
    /** @readonly @type {string} */ this.hand_capture = c.hand_capture;
    /** @readonly @type {string} */ this.first_dealer_tie = c.first_dealer_tie;
    /** @readonly @type {number} */ this.pool_start = c.pool_start;
    /** @readonly @type {boolean} */ this.transfer_cap = c.transfer_cap;
    /** @readonly @type {boolean} */ this.bust_ends_game = c.bust_ends_game;
    /** @readonly @type {number} */ this.target_score = c.target_score;
    /** @readonly @type {string} */ this.match_tie = c.match_tie;
    Object.freeze(this);
  }

  /**
   * Validate the JSON form of a profile: every core switch required, an extension switch only
   * when it differs from its default (spec/rules.md §3.3), nothing else.
   * @param {unknown} data
   * @returns {Profile}
   * @throws {RulesError} `bad_profile` (not a map, a missing switch, an extension switch at its
   *   default), `unknown_switch`, `bad_switch`
   */
  static fromDict(data) {
    return Profile._build(data, true);
  }

  /**
   * @param {unknown} data
   * @param {boolean} canonical refuse extension switches present at their default
   * @returns {Profile}
   */
  static _build(data, canonical) {
    if (!isPlainObject(data)) throw new RulesError('bad_profile', 'a profile is a mapping');
    const missing = SWITCHES.filter((s) => !Object.hasOwn(data, s.name)).map((s) => s.name);
    if (missing.length) throw new RulesError('bad_profile', `missing switches: ${missing.join(', ')}`);
    for (const k of Object.keys(data)) if (!SWITCH_NAMES.has(/** @type {keyof Switches} */ (k))) throw new RulesError('unknown_switch', k);
    // The JSON shapes first (spec/rules.md §3.3: bright_values four in a list, card lists of
    // strings, hand_yaku an object of hand-yaku ids), then an extension switch present at its
    // default (not canonical), then every value: the order the reference checks in.
    const shapeError = (/** @type {string} */ why) => new RulesError('bad_switch', why);
    const hy = data.hand_yaku;
    if (!isPlainObject(hy) || !Object.keys(hy).every((k) => HAND_YAKU_IDS.includes(k))) throw shapeError('hand_yaku is a mapping of hand yaku ids to points');
    if (!Array.isArray(data.bright_values) || data.bright_values.length !== 4) throw shapeError('bright_values is four integers');
    for (const sw of EXTENSIONS) {
      const v = data[sw.name];
      if (sw.kind === 'cards' && Object.hasOwn(data, sw.name) && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
        throw shapeError(`${sw.name} is a list of card ids`);
      }
    }
    if (canonical) {
      for (const sw of EXTENSIONS) {
        if (Object.hasOwn(data, sw.name) && sameJson(data[sw.name], sw.default)) {
          throw new RulesError('bad_profile', `${sw.name} is at its default and must be left out`);
        }
      }
    }
    /** @type {Record<string, unknown>} */
    const checked = {};
    for (const sw of SWITCHES) checked[sw.name] = checkSwitch(sw, data[sw.name]);
    for (const sw of EXTENSIONS) {
      checked[sw.name] = Object.hasOwn(data, sw.name) ? checkSwitch(sw, data[sw.name]) : sw.default;
    }
    const switches = /** @type {Required<Switches>} */ (/** @type {unknown} */ (checked));
    checkTogether(switches);
    return new Profile(switches);
  }

  /**
   * Decode canonical bytes (spec/rules.md §3.3); anything not exactly canonical is refused.
   * @param {Uint8Array} bytes
   * @returns {Profile}
   * @throws {RulesError} `bad_profile` and the reasons of `fromDict`
   */
  static decode(bytes) {
    let text;
    let data;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      data = JSON.parse(text);
    } catch {
      throw new RulesError('bad_profile', 'not JSON');
    }
    if (!isPlainObject(data)) throw new RulesError('bad_profile', 'a profile is a JSON object');
    const profile = Profile.fromDict(data);
    if (canonicalJson(profile.toDict()) !== text) throw new RulesError('bad_profile', 'not in canonical form');
    return profile;
  }

  /**
   * The JSON form: every switch, `bright_values` a list, `hand_yaku` a map in the spec's id order.
   * @returns {Switches}
   */
  toDict() {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const sw of ALL_SWITCHES) {
      const v = this[sw.name];
      // spec/rules.md §3.3: an extension switch appears only away from its default.
      if (EXTENSION_NAMES.has(sw.name) && canonicalJson(v) === canonicalJson(sw.default)) continue;
      out[sw.name] = Array.isArray(v) ? v.slice() : (typeof v === 'object' ? { ...v } : v);
    }
    return /** @type {Switches} */ (/** @type {unknown} */ (out));
  }

  /**
   * Every switch with its value, extension switches at their defaults included.
   * @returns {Required<Switches>}
   */
  allSwitches() {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const sw of ALL_SWITCHES) {
      const v = this[sw.name];
      out[sw.name] = Array.isArray(v) ? v.slice() : (typeof v === 'object' ? { ...v } : v);
    }
    return /** @type {Required<Switches>} */ (/** @type {unknown} */ (out));
  }

  /** The canonical encoding (spec/rules.md §3.3): UTF-8 JSON, keys sorted, no whitespace. */
  encode() {
    return new TextEncoder().encode(canonicalJson(this.toDict()));
  }

  /** SHA-256 of the canonical encoding: the `profile_digest` of the game terms. */
  digest() {
    return sha256(this.encode());
  }

  /** The digest in lowercase hexadecimal. */
  digestHex() {
    return toHex(this.digest());
  }

  /**
   * A copy with some switches changed, validated again.
   * @param {Partial<Switches>} changes
   * @returns {Profile}
   */
  withSwitches(changes) {
    return Profile._build({ ...this.allSwitches(), ...changes }, false);
  }

  /**
   * Points of a hand yaku under this profile, 0 when it is not listed.
   * @param {string} id
   */
  handYakuPoints(id) {
    return Object.hasOwn(this.hand_yaku, id) ? this.hand_yaku[id] : 0;
  }

  /**
   * The rank of a claim on the dealt hand (spec/rules.md §9.7): a hand yaku's points, or with
   * `hand_whole_month = redeal` REDEAL_CLAIM for `teshi` (the claim that redeals); 0 when the
   * claim is not offered.
   * @param {string} id
   */
  handClaimPoints(id) {
    if (id === 'teshi' && this.hand_whole_month === 'redeal') return REDEAL_CLAIM;
    return this.handYakuPoints(id);
  }

  /** Whether the seats declare on their dealt hands (hand yaku, or a whole month that redeals). */
  hasHandClaims() {
    return Object.keys(this.hand_yaku).length > 0 || this.hand_whole_month === 'redeal';
  }

  /**
   * Equal switches (so equal encodings).
   * @param {Profile} other
   */
  equals(other) {
    return canonicalJson(this.toDict()) === canonicalJson(other.toDict());
  }

}

/** @type {Switches} */
const NINTENDO = {
  name: 'nintendo', rounds: 12, bright_values: [10, 8, 7, 5], named_extension: true,
  tane_with_inoshikacho: false, tan_with_ribbon_yaku: false, ribbon_pair: 'chofuku_10',
  cup_is_plain: true, joker_card: '', viewing: 'always', monthly_yaku_points: 0,
  monthly_yaku_scope: 'current_month', double_threshold: 7, koikoi_multiplier: 'opponent_flat_x2',
  max_calls_per_round: 1, after_call: 'next_improvement_ends_round', last_turn_stop_only: false,
  exhaustion: 'draw', oya_ken_points: 1, dealer_after_draw: 'other', hand_yaku: { teshi: 6, kuttsuki: 6 },
  hand_yaku_both: 'void_redeal', field_whole_month: 'redeal', redeal_consumes_round: false,
  hand_capture: 'free', first_dealer_tie: 'higher_card', pool_start: 0, transfer_cap: false,
  bust_ends_game: false, target_score: 0, match_tie: 'draw',
};

/** The presets of spec/rules.md §3.4, each as changes to `nintendo`. @type {Record<string, Partial<Switches>>} */
const PRESET_CHANGES = {
  nintendo: {},
  'koikoi-online': {
    name: 'koikoi-online', named_extension: true, tane_with_inoshikacho: true, tan_with_ribbon_yaku: true,
    cup_is_plain: false, double_threshold: 8, koikoi_multiplier: 'shared_one_plus_calls', max_calls_per_round: 0,
    after_call: 'shobu_only', last_turn_stop_only: true, dealer_after_draw: 'same', hand_yaku_both: 'dealer',
    pool_start: 25, transfer_cap: true, bust_ends_game: true,
  },
  'teaching-card': {
    name: 'teaching-card', named_extension: false, tane_with_inoshikacho: true, tan_with_ribbon_yaku: true,
    ribbon_pair: 'separate_5_5', hand_capture: 'compulsory', first_dealer_tie: 'redraw',
  },
  wikipedia: {
    name: 'wikipedia', bright_values: [15, 8, 7, 6], named_extension: false, tane_with_inoshikacho: true,
    tan_with_ribbon_yaku: true, cup_is_plain: false, monthly_yaku_points: 4, max_calls_per_round: 0,
    after_call: 'shobu_only', exhaustion: 'oya_ken', dealer_after_draw: 'same', hand_yaku: {},
    hand_capture: 'compulsory',
  },
  'board-game': {
    name: 'board-game', named_extension: false, tane_with_inoshikacho: true, tan_with_ribbon_yaku: true,
    ribbon_pair: 'separate_5_5', cup_is_plain: false, double_threshold: 0, koikoi_multiplier: 'winner_pow2',
    max_calls_per_round: 0, after_call: 'shobu_only', dealer_after_draw: 'same',
    hand_yaku: { tenho: 6, double_tenho: 14 }, first_dealer_tie: 'redraw', pool_start: 100,
    transfer_cap: true, bust_ends_game: true,
  },
  'classic-variant': {
    name: 'classic-variant', rounds: 0, bright_values: [10, 8, 6, 5], named_extension: false,
    tane_with_inoshikacho: true, tan_with_ribbon_yaku: true, ribbon_pair: 'separate_5_5', cup_is_plain: false,
    joker_card: '05-bridge', viewing: 'bonus_only', monthly_yaku_points: 5, double_threshold: 0,
    koikoi_multiplier: 'none', max_calls_per_round: 0, after_call: 'shobu_only',
    exhaustion: 'last_caller_scores_else_oya_ken', dealer_after_draw: 'same', hand_yaku: {},
    redeal_consumes_round: true, first_dealer_tie: 'redraw', target_score: 50,
  },
  // The Steam game "KoiKoi Japan" (issue 28): the first preset with extension switches.
  'koikoi-japan': {
    name: 'koikoi-japan', rounds: 8, named_extension: false, tane_with_inoshikacho: true,
    tan_with_ribbon_yaku: true, ribbon_pair: 'separate_5_5', double_threshold: 0, koikoi_multiplier: 'none',
    max_calls_per_round: 0, after_call: 'shobu_only', exhaustion: 'oya_ken', dealer_after_draw: 'same',
    hand_yaku: {}, pool_start: 30, bust_ends_game: true, viewing_by_call: true, koikoi_bonus: 'winner_add',
    akatan_aotan_on_top: true, stop_on_own_last_turn: true, hand_whole_month: 'redeal', first_dealer: 'coin',
  },
};

/** Preset names in the spec's order. */
export const PRESETS = Object.freeze(Object.keys(PRESET_CHANGES));

/** @type {Map<string, Profile>} */
const PRESET_PROFILES = new Map(PRESETS.map((n) => [n, Profile.fromDict({ ...NINTENDO, ...PRESET_CHANGES[n] })]));

/**
 * A preset by name (spec/rules.md §3.4).
 * @param {string} name
 * @returns {Profile}
 * @throws {RulesError} `unknown_preset`
 */
export function preset(name) {
  const p = PRESET_PROFILES.get(name);
  if (!p) throw new RulesError('unknown_preset', `${JSON.stringify(name)}; presets: ${PRESETS.join(', ')}`);
  return p;
}

/** Pools a preset's source pairs with each match length (spec/rules.md §3.6). @type {Record<string, Record<number, number>>} */
const POOL_BY_LENGTH = { 'board-game': { 12: 100, 6: 50, 3: 25 } };

/**
 * The pool the profile's preset pairs with `rounds` (spec/rules.md §3.6), when its pool is still
 * the one paired with its current length; else null (the pool stays as it is).
 * @param {Profile} profile
 * @param {number} rounds
 * @returns {number | null}
 */
export function pairedPool(profile, rounds) {
  const pools = POOL_BY_LENGTH[profile.name.replace(/-custom$/, '')];
  if (!pools || !profile.pool_start || pools[profile.rounds] !== profile.pool_start) return null;
  return Object.hasOwn(pools, rounds) ? pools[rounds] : null;
}

/**
 * The profile played over another number of rounds (spec/rules.md §3.6): where the preset named
 * by the profile pairs that length with a pool, the pool changes too.
 * @param {Profile} profile
 * @param {number} rounds
 * @returns {Profile}
 */
export function withRounds(profile, rounds) {
  /** @type {Partial<Switches>} */
  const changes = { rounds };
  const pools = POOL_BY_LENGTH[profile.name];
  if (pools && Object.hasOwn(pools, rounds)) changes.pool_start = pools[rounds];
  return profile.withSwitches(changes);
}

// Yaku, base and round score (spec/rules.md §6, §7).

import {
  BLUE_RIBBONS, BOAR, BUTTERFLIES, CARDS, CHERRY_CURTAIN, DEER, FULL_MOON, POETRY_RIBBONS, RAIN_MAN,
  SAKE_CUP, cardIndex, cardIndices,
} from './cards.js';
import { RulesError } from './errors.js';

/** Every yaku id, in the order a yaku map lists them (spec/rules.md §4). */
export const YAKU_IDS = Object.freeze([
  'goko', 'shiko', 'ame_shiko', 'sanko', 'hanami', 'tsukimi', 'inoshikacho', 'akatan', 'aotan',
  'akatan_aotan', 'tane', 'tan', 'kasu', 'tsukifuda', 'teshi', 'kuttsuki', 'tenho', 'double_tenho', 'oya_ken',
]);

/** Yaku that let viewing yaku score under `viewing = bonus_only` (spec/rules.md §6.4). */
const BASIC = new Set(['goko', 'shiko', 'ame_shiko', 'sanko', 'inoshikacho', 'akatan', 'aotan', 'akatan_aotan', 'tane', 'tan', 'kasu']);

/** @typedef {Record<string, number>} YakuMap yaku id -> points, only yaku with points, in YAKU_IDS order */

/**
 * @typedef {object} ScoringProfile the switches scoring reads (a Profile has them all)
 * @property {readonly number[]} bright_values
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
 * @property {readonly string[]} [hanami_cancelled_by] extension switches (absent: default)
 * @property {readonly string[]} [tsukimi_cancelled_by]
 * @property {boolean} [cup_either]
 * @property {boolean} [brights_add]
 * @property {boolean} [sanko_with_rain]
 * @property {boolean} [single_yaku]
 * @property {string} [caller_pays_more]
 * @property {boolean} [viewing_by_call]
 * @property {string} [koikoi_bonus]
 * @property {boolean} [akatan_aotan_on_top]
 * @property {string} [single_yaku_scope]
 */

/**
 * The yaku of a pile for one allocation of the joker (spec/rules.md §6.1-§6.7).
 * @param {boolean[]} has has[c] = card c is in the pile
 * @param {number[]} monthCount cards of each month 1..12 in the pile
 * @param {number} animals *a*
 * @param {number} ribbons *r*
 * @param {number} plains *p*
 * @param {ScoringProfile} profile
 * @param {number | null} month the round's month, or null
 * @param {boolean} called the pile's holder has called koi-koi in the round (viewing_by_call)
 * @returns {YakuMap}
 */
function yakuOf(has, monthCount, animals, ribbons, plains, profile, month, called) {
  /** @type {YakuMap} */
  const y = {};
  // §6.2 brights: exclusive, or with brights_add each that holds.
  let brights = 0;
  for (const c of [0, 8, 28, 40, 44]) if (has[c]) brights++;
  const rain = has[RAIN_MAN];
  const others = brights - (rain ? 1 : 0);
  const bv = profile.bright_values;
  if (profile.brights_add) {
    if (brights === 5) y.goko = bv[0];
    if (others === 4) y.shiko = bv[1];
    if (rain && brights >= 4) y.ame_shiko = bv[2];
    if (others >= 3 || (profile.sanko_with_rain && brights >= 3)) y.sanko = bv[3];
  } else if (brights === 5) y.goko = bv[0];
  else if (brights === 4) { if (rain) y.ame_shiko = bv[2]; else y.shiko = bv[1]; }
  else if (brights === 3 && (!rain || profile.sanko_with_rain)) y.sanko = bv[3];
  // §6.4 viewing yaku: decided last (bonus_only looks at the basic yaku), placed in order below.
  // §6.4 ame-nagare / kiri-nagare: a cancelling card in the pile stops the viewing yaku.
  const cancelled = (/** @type {readonly string[] | undefined} */ ids) => (ids ?? []).some((id) => has[cardIndex(id)]);
  const hanami = has[SAKE_CUP] && has[CHERRY_CURTAIN] && !cancelled(profile.hanami_cancelled_by);
  const tsukimi = has[SAKE_CUP] && has[FULL_MOON] && !cancelled(profile.tsukimi_cancelled_by);
  // §6.5 named and counted yaku.
  const ext = profile.named_extension;
  const ino = has[BOAR] && has[DEER] && has[BUTTERFLIES];
  const aka = POETRY_RIBBONS.every((c) => has[c]);
  const ao = BLUE_RIBBONS.every((c) => has[c]);
  /** @type {YakuMap} */
  const rest = {};
  if (ino) rest.inoshikacho = 5 + (ext ? animals - 3 : 0);
  if (aka && ao && profile.ribbon_pair === 'chofuku_10') {
    rest.akatan_aotan = 10 + (ext ? ribbons - 6 : 0);
  } else {
    if (aka) rest.akatan = 5 + (ext ? ribbons - 3 : 0);
    if (ao) rest.aotan = 5 + (ext ? ribbons - 3 : 0);
    // §6.5 akatan_aotan_on_top: the red-and-blue 10 on top of akatan 5 and aotan 5.
    if (aka && ao && profile.akatan_aotan_on_top) rest.akatan_aotan = 10 + (ext ? ribbons - 6 : 0);
  }
  if (animals >= 5 && (!ino || profile.tane_with_inoshikacho)) rest.tane = 1 + (animals - 5);
  if (ribbons >= 5 && (!(aka || ao) || profile.tan_with_ribbon_yaku)) rest.tan = 1 + (ribbons - 5);
  if (plains >= 10) rest.kasu = 1 + (plains - 10);
  // §6.7 tsukifuda.
  let monthly = 0;
  if (profile.monthly_yaku_points > 0) {
    if (profile.monthly_yaku_scope === 'any_month') {
      for (let m = 1; m <= 12; m++) if (monthCount[m] === 4) monthly += profile.monthly_yaku_points;
    } else if (month !== null && monthCount[month] === 4) {
      monthly = profile.monthly_yaku_points;
    }
  }
  const basic = Object.keys(y).length > 0 || Object.keys(rest).some((k) => BASIC.has(k));
  const viewing = profile.viewing === 'always' || (profile.viewing === 'bonus_only' && basic);
  // §6.4 viewing_by_call: 1 each, 3 once the holder has called in this round.
  const view = profile.viewing_by_call ? (called ? 3 : 1) : 5;
  if (viewing && hanami) y.hanami = view;
  if (viewing && tsukimi) y.tsukimi = view;
  Object.assign(y, rest);
  if (monthly > 0) y.tsukifuda = monthly;
  if (!profile.single_yaku) return y;
  return profile.single_yaku_scope === 'extensions' ? highestOfExtensions(y) : singleYaku(y);
}

/**
 * §6.9 the pairs of yaku of which one extends the other (more cards of one class holding the
 * smaller yaku): the bright yaku among themselves, tane and inoshikacho, tan and each ribbon yaku,
 * akatan_aotan and akatan / aotan. Akatan and aotan share no card, so both may count.
 */
const EXTENSION_PAIRS = [
  ['goko', 'shiko'], ['goko', 'ame_shiko'], ['goko', 'sanko'], ['shiko', 'ame_shiko'], ['shiko', 'sanko'],
  ['ame_shiko', 'sanko'], ['inoshikacho', 'tane'], ['akatan', 'tan'], ['aotan', 'tan'], ['akatan_aotan', 'tan'],
  ['akatan', 'akatan_aotan'], ['aotan', 'akatan_aotan'],
];

/**
 * §6.9 `single_yaku` with `single_yaku_scope = extensions`: a yaku is cut when a yaku it extends,
 * or that extends it, has more points (or equal points and comes first in §4 order).
 * @param {YakuMap} y
 * @returns {YakuMap}
 */
function highestOfExtensions(y) {
  const rank = (/** @type {string} */ a, /** @type {string} */ b) =>
    y[a] > y[b] || (y[a] === y[b] && YAKU_IDS.indexOf(a) < YAKU_IDS.indexOf(b));
  /** @type {YakuMap} */
  const kept = {};
  for (const id of YAKU_IDS) {
    if (!Object.hasOwn(y, id)) continue;
    const beaten = EXTENSION_PAIRS.some(([a, b]) => {
      const other = a === id ? b : b === id ? a : '';
      return other !== '' && Object.hasOwn(y, other) && rank(other, id);
    });
    if (!beaten) kept[id] = y[id];
  }
  return kept;
}

/**
 * §6.9 `single_yaku`: only the yaku with the most points, the first in §4 order on a tie.
 * @param {YakuMap} y
 * @returns {YakuMap}
 */
function singleYaku(y) {
  let best = '';
  for (const id of YAKU_IDS) if (Object.hasOwn(y, id) && (best === '' || y[id] > y[best])) best = id;
  return best === '' ? {} : { [best]: y[best] };
}

/**
 * The sum of a yaku map's points.
 * @param {YakuMap} yaku
 */
export function baseOf(yaku) {
  let s = 0;
  for (const k in yaku) s += yaku[k];
  return s;
}

/**
 * The yaku and base of a pile of valid, distinct card indices (no checks: the engine's fast path).
 * @param {readonly number[]} pile
 * @param {ScoringProfile} profile
 * @param {number | null} month
 * @param {boolean} [called] the pile's holder has called koi-koi in the round (viewing_by_call)
 * @returns {{yaku: YakuMap, base: number}}
 */
export function scorePile(pile, profile, month, called = false) {
  /** @type {boolean[]} */
  const has = new Array(48).fill(false);
  const monthCount = new Array(13).fill(0);
  let animals = 0;
  let ribbons = 0;
  let plains = 0;
  for (const c of pile) {
    has[c] = true;
    monthCount[(c >> 2) + 1]++;
    const kind = CARDS[c].kind;
    if (kind === 'animal') animals++;
    else if (kind === 'ribbon') ribbons++;
    else if (kind === 'plain') plains++;
  }
  // §6.1: the sake cup is always an animal, and a plain too with cup_is_plain.
  if (has[SAKE_CUP] && profile.cup_is_plain) plains++;
  // §6.3 flexible cards (the joker, the cup with cup_either): k of them count as plains, for
  // k = 0..n; the highest base wins, the smallest k on equal bases.
  let flexible = 0;
  if (profile.joker_card !== '' && has[cardIndex(profile.joker_card)]) flexible++;
  if (profile.cup_either && has[SAKE_CUP]) flexible++;
  let yaku = yakuOf(has, monthCount, animals, ribbons, plains, profile, month, called);
  let base = baseOf(yaku);
  for (let k = 1; k <= flexible; k++) {
    const alt = yakuOf(has, monthCount, animals - k, ribbons, plains + k, profile, month, called);
    const altBase = baseOf(alt);
    if (altBase > base) { yaku = alt; base = altBase; }
  }
  return { yaku, base };
}

/**
 * @param {unknown} month
 * @returns {number | null}
 */
function checkMonth(month) {
  if (month === null || month === undefined) return null;
  if (typeof month !== 'number' || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RulesError('bad_month', 'month must be 1..12');
  }
  return month;
}

/**
 * The yaku of a captured pile (spec/rules.md §6), cards as indices or ids.
 * @param {Iterable<number | string>} cards
 * @param {ScoringProfile} profile
 * @param {number | null} [month] the round's month (for tsukifuda), or null
 * @param {boolean} [called] the pile's holder has called koi-koi in the round (viewing_by_call)
 * @returns {YakuMap}
 * @throws {RulesError} `unknown_card`, `duplicate_card`, `bad_month`
 */
export function scoreYaku(cards, profile, month = null, called = false) {
  const m = checkMonth(month);
  return scorePile(cardIndices(cards), profile, m, called).yaku;
}

/**
 * The winner's round score from its base (spec/rules.md §7): the threshold doubling, then the
 * koi-koi multiplier over the round's calls (the calling seats, in order).
 * @param {number} base
 * @param {readonly number[]} calls
 * @param {number} winner
 * @param {ScoringProfile} profile
 * @returns {number}
 */
export function roundScore(base, calls, winner, profile) {
  if (!Number.isInteger(base) || base < 0) throw new RulesError('bad_score', 'base must be a non-negative integer');
  if (winner !== 0 && winner !== 1) throw new RulesError('bad_seat', 'winner must be seat 0 or 1');
  for (const s of calls) if (s !== 0 && s !== 1) throw new RulesError('bad_seat', 'calls are seats 0 or 1');
  let score = base;
  // §7.1: the threshold looks at the base only.
  if (profile.double_threshold > 0 && base >= profile.double_threshold) score *= 2;
  switch (profile.koikoi_multiplier) {
    case 'opponent_flat_x2':
      if (calls.includes(1 - winner)) score *= 2;
      break;
    case 'shared_one_plus_calls':
      score *= 1 + calls.length;
      break;
    case 'winner_pow2':
      for (const s of calls) if (s === winner) score *= 2;
      break;
    default:
      break;
  }
  // §7.3 caller_pays_more: the loser's own calls make it pay more.
  const c = calls.filter((s) => s !== winner).length;
  if (profile.caller_pays_more === 'times_calls' && c >= 1) score *= c;
  else if (profile.caller_pays_more === 'doubled_per_call') score *= 2 ** c;
  // §7.5 koikoi_bonus: the winner's own calls add 1..3, or multiply by (calls - 2) from 4 on.
  if (profile.koikoi_bonus === 'winner_add') {
    const own = calls.filter((s) => s === winner).length;
    if (own >= 4) score *= own - 2;
    else score += own;
  }
  return score;
}

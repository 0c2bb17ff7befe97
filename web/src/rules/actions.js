// Actions and their wire form (spec/rules.md §8). An action is a frozen plain object with a
// `type`; `actionFromDict` checks a received wire object strictly and `actionToDict` gives it back.

import { RulesError } from './errors.js';
import { HAND_YAKU_IDS } from './profile.js';

/** @typedef {{readonly type: 'play', readonly position: number}} Play */
/** @typedef {{readonly type: 'capture', readonly card: number}} Capture */
/** @typedef {{readonly type: 'koikoi'}} KoiKoi */
/** @typedef {{readonly type: 'stop'}} Stop */
/** @typedef {{readonly type: 'claim_hand_yaku', readonly yaku: string, readonly positions: readonly number[]}} ClaimHandYaku */
/** @typedef {{readonly type: 'no_hand_yaku'}} NoHandYaku */
/** @typedef {Play | Capture | KoiKoi | Stop | ClaimHandYaku | NoHandYaku} Action */

/**
 * @param {unknown} v
 * @param {string} what
 * @returns {number}
 */
function index48(v, what) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 47) {
    throw new RulesError('bad_action', `${what} must be an integer 0..47, not ${JSON.stringify(v)}`);
  }
  return v;
}

/**
 * Play the hand card at a deck position.
 * @param {number} position
 * @returns {Play}
 */
export function play(position) {
  return Object.freeze({ type: 'play', position: index48(position, 'position') });
}

/**
 * Take one of two matching field cards.
 * @param {number} card
 * @returns {Capture}
 */
export function capture(card) {
  return Object.freeze({ type: 'capture', card: index48(card, 'card') });
}

/** @type {KoiKoi} */
export const KOIKOI = Object.freeze({ type: 'koikoi' });
/** @type {Stop} */
export const STOP = Object.freeze({ type: 'stop' });
/** @type {NoHandYaku} */
export const NO_HAND_YAKU = Object.freeze({ type: 'no_hand_yaku' });

/**
 * Claim a hand yaku, revealing the deck positions that show it (ascending, distinct, 4 or 8).
 * @param {string} yaku
 * @param {readonly number[]} positions
 * @returns {ClaimHandYaku}
 */
export function claimHandYaku(yaku, positions) {
  if (typeof yaku !== 'string' || !HAND_YAKU_IDS.includes(yaku)) {
    throw new RulesError('bad_action', `unknown hand yaku ${JSON.stringify(yaku)}`);
  }
  if (!Array.isArray(positions)) throw new RulesError('bad_action', 'claim positions are a list');
  const ps = positions.map((p) => index48(p, 'position'));
  if (ps.length !== 4 && ps.length !== 8) throw new RulesError('bad_action', 'a claim reveals 4 or 8 positions');
  for (let i = 1; i < ps.length; i++) {
    if (ps[i] <= ps[i - 1]) throw new RulesError('bad_action', 'claim positions must be distinct and ascending');
  }
  return Object.freeze({ type: 'claim_hand_yaku', yaku, positions: Object.freeze(ps) });
}

/** The keys each wire object has, exactly (spec/rules.md §8). */
const KEYS = {
  play: ['position', 'type'],
  capture: ['card', 'type'],
  koikoi: ['type'],
  stop: ['type'],
  claim_hand_yaku: ['positions', 'type', 'yaku'],
  no_hand_yaku: ['type'],
};

/**
 * Parse the wire form of an action, strictly: exactly the keys of its type, values in range.
 * @param {unknown} data
 * @returns {Action}
 * @throws {RulesError} `bad_action`
 */
export function actionFromDict(data) {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof Map) {
    throw new RulesError('bad_action', 'an action is a mapping');
  }
  const obj = /** @type {Record<string, unknown>} */ (data);
  const type = obj.type;
  if (typeof type !== 'string' || !Object.hasOwn(KEYS, type)) {
    throw new RulesError('bad_action', `unknown action type ${JSON.stringify(type)}`);
  }
  const want = KEYS[/** @type {keyof typeof KEYS} */ (type)];
  const keys = Object.keys(obj).sort();
  if (keys.length !== want.length || keys.some((k, i) => k !== want[i])) {
    throw new RulesError('bad_action', `${type} takes exactly ${JSON.stringify(want)}`);
  }
  switch (type) {
    case 'play': return play(/** @type {number} */ (obj.position));
    case 'capture': return capture(/** @type {number} */ (obj.card));
    case 'koikoi': return KOIKOI;
    case 'stop': return STOP;
    case 'no_hand_yaku': return NO_HAND_YAKU;
    default: return claimHandYaku(/** @type {string} */ (obj.yaku), /** @type {number[]} */ (obj.positions));
  }
}

/**
 * The wire form of an action (a fresh plain object).
 * @param {Action} action
 * @returns {Record<string, unknown>}
 */
export function actionToDict(action) {
  switch (action.type) {
    case 'play': return { type: 'play', position: action.position };
    case 'capture': return { type: 'capture', card: action.card };
    case 'claim_hand_yaku': return { type: 'claim_hand_yaku', yaku: action.yaku, positions: action.positions.slice() };
    default: return { type: action.type };
  }
}

/**
 * A short text form for logs and screens, e.g. `play 4`, `capture 27`, `claim teshi 4,5,10,11`.
 * @param {Action} action
 * @returns {string}
 */
export function actionText(action) {
  switch (action.type) {
    case 'play': return `play ${action.position}`;
    case 'capture': return `capture ${action.card}`;
    case 'claim_hand_yaku': return `claim ${action.yaku} ${action.positions.join(',')}`;
    case 'no_hand_yaku': return 'no hand yaku';
    default: return action.type;
  }
}

/**
 * Whether two actions are the same.
 * @param {Action} a
 * @param {Action} b
 */
export function sameAction(a, b) {
  return actionText(a) === actionText(b);
}

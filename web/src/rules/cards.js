// The 48 cards (spec/rules.md §2): index, id, month, class and subclass.

import { RulesError } from './errors.js';

/** @typedef {'bright' | 'animal' | 'ribbon' | 'plain'} CardClass */
/** @typedef {'' | 'rain' | 'sake' | 'poetry' | 'blue' | 'red'} CardSubclass */

/**
 * @typedef {object} Card
 * @property {number} index 0..47, the canonical order
 * @property {string} id e.g. `01-crane`
 * @property {number} month 1..12
 * @property {CardClass} kind the card's class
 * @property {CardSubclass} subclass
 * @property {string} english
 * @property {string} japanese
 */

/** @type {Array<[string, CardClass, CardSubclass, string, string]>} id, class, subclass, English, Japanese */
const TABLE = [
  ['01-crane', 'bright', '', 'Crane and Sun', '松に鶴'],
  ['01-poetry', 'ribbon', 'poetry', 'Pine Poetry Ribbon', '松に赤短'],
  ['01-plain1', 'plain', '', 'Pine Plain', '松のカス'],
  ['01-plain2', 'plain', '', 'Pine Plain', '松のカス'],
  ['02-warbler', 'animal', '', 'Bush Warbler', '梅に鶯'],
  ['02-poetry', 'ribbon', 'poetry', 'Plum Poetry Ribbon', '梅に赤短'],
  ['02-plain1', 'plain', '', 'Plum Plain', '梅のカス'],
  ['02-plain2', 'plain', '', 'Plum Plain', '梅のカス'],
  ['03-curtain', 'bright', '', 'Cherry Curtain', '桜に幕'],
  ['03-poetry', 'ribbon', 'poetry', 'Cherry Poetry Ribbon', '桜に赤短'],
  ['03-plain1', 'plain', '', 'Cherry Plain', '桜のカス'],
  ['03-plain2', 'plain', '', 'Cherry Plain', '桜のカス'],
  ['04-cuckoo', 'animal', '', 'Cuckoo', '藤に不如帰'],
  ['04-ribbon', 'ribbon', 'red', 'Wisteria Red Ribbon', '藤に短冊'],
  ['04-plain1', 'plain', '', 'Wisteria Plain', '藤のカス'],
  ['04-plain2', 'plain', '', 'Wisteria Plain', '藤のカス'],
  ['05-bridge', 'animal', '', 'Eight-plank Bridge', '菖蒲に八橋'],
  ['05-ribbon', 'ribbon', 'red', 'Iris Red Ribbon', '菖蒲に短冊'],
  ['05-plain1', 'plain', '', 'Iris Plain', '菖蒲のカス'],
  ['05-plain2', 'plain', '', 'Iris Plain', '菖蒲のカス'],
  ['06-butterflies', 'animal', '', 'Butterflies', '牡丹に蝶'],
  ['06-blue', 'ribbon', 'blue', 'Peony Blue Ribbon', '牡丹に青短'],
  ['06-plain1', 'plain', '', 'Peony Plain', '牡丹のカス'],
  ['06-plain2', 'plain', '', 'Peony Plain', '牡丹のカス'],
  ['07-boar', 'animal', '', 'Boar', '萩に猪'],
  ['07-ribbon', 'ribbon', 'red', 'Bush Clover Red Ribbon', '萩に短冊'],
  ['07-plain1', 'plain', '', 'Bush Clover Plain', '萩のカス'],
  ['07-plain2', 'plain', '', 'Bush Clover Plain', '萩のカス'],
  ['08-moon', 'bright', '', 'Full Moon', '芒に月'],
  ['08-geese', 'animal', '', 'Geese', '芒に雁'],
  ['08-plain1', 'plain', '', 'Pampas Plain', '芒のカス'],
  ['08-plain2', 'plain', '', 'Pampas Plain', '芒のカス'],
  ['09-cup', 'animal', 'sake', 'Sake Cup', '菊に盃'],
  ['09-blue', 'ribbon', 'blue', 'Chrysanthemum Blue Ribbon', '菊に青短'],
  ['09-plain1', 'plain', '', 'Chrysanthemum Plain', '菊のカス'],
  ['09-plain2', 'plain', '', 'Chrysanthemum Plain', '菊のカス'],
  ['10-deer', 'animal', '', 'Deer', '紅葉に鹿'],
  ['10-blue', 'ribbon', 'blue', 'Maple Blue Ribbon', '紅葉に青短'],
  ['10-plain1', 'plain', '', 'Maple Plain', '紅葉のカス'],
  ['10-plain2', 'plain', '', 'Maple Plain', '紅葉のカス'],
  ['11-rainman', 'bright', 'rain', 'Rain Man', '柳に小野道風'],
  ['11-swallow', 'animal', '', 'Swallow', '柳に燕'],
  ['11-ribbon', 'ribbon', 'red', 'Willow Red Ribbon', '柳に短冊'],
  ['11-lightning', 'plain', '', 'Lightning', '柳のカス'],
  ['12-phoenix', 'bright', '', 'Phoenix', '桐に鳳凰'],
  ['12-plain1', 'plain', '', 'Paulownia Plain', '桐のカス'],
  ['12-plain2', 'plain', '', 'Paulownia Plain', '桐のカス'],
  ['12-plain3', 'plain', '', 'Paulownia Plain', '桐のカス'],
];

/** The 48 cards in canonical order: `CARDS[i].index === i`. @type {ReadonlyArray<Readonly<Card>>} */
export const CARDS = Object.freeze(TABLE.map(([id, kind, subclass, english, japanese], index) =>
  Object.freeze({ index, id, month: Number(id.slice(0, 2)), kind, subclass, english, japanese })));

/** @type {ReadonlyMap<string, number>} */
const BY_ID = new Map(CARDS.map((c) => [c.id, c.index]));

/** Named cards the yaku refer to (spec/rules.md §2, §6). */
export const CRANE = 0;
export const CHERRY_CURTAIN = 8;
export const FULL_MOON = 28;
export const SAKE_CUP = 32;
export const RAIN_MAN = 40;
export const PHOENIX = 44;
export const BOAR = 24;
export const DEER = 36;
export const BUTTERFLIES = 20;
/** The three poetry ribbons (akatan) and the three blue ribbons (aotan). */
export const POETRY_RIBBONS = Object.freeze([1, 5, 9]);
export const BLUE_RIBBONS = Object.freeze([21, 33, 37]);

/**
 * The card index of a card reference: an index 0..47 or an id such as `01-crane`.
 * @param {number | string} ref
 * @returns {number}
 * @throws {RulesError} `unknown_card`
 */
export function cardIndex(ref) {
  if (typeof ref === 'number' && Number.isInteger(ref) && ref >= 0 && ref < 48) return ref;
  if (typeof ref === 'string') {
    const i = BY_ID.get(ref);
    if (i !== undefined) return i;
  }
  throw new RulesError('unknown_card', `no card ${JSON.stringify(ref)}`);
}

/**
 * The card named by an index or an id.
 * @param {number | string} ref
 * @returns {Readonly<Card>}
 */
export function card(ref) {
  return CARDS[cardIndex(ref)];
}

/**
 * The month 1..12 of a card index (the table orders cards by month, four to a month).
 * @param {number} index
 * @returns {number}
 */
export function monthOf(index) {
  return (index >> 2) + 1;
}

/**
 * Card indices of a list of references, checked: every card known, none twice.
 * @param {Iterable<number | string>} refs
 * @returns {number[]}
 * @throws {RulesError} `unknown_card`, `duplicate_card`
 */
export function cardIndices(refs) {
  const out = [];
  const seen = new Set();
  for (const ref of refs) {
    const i = cardIndex(ref);
    if (seen.has(i)) throw new RulesError('duplicate_card', CARDS[i].id);
    seen.add(i);
    out.push(i);
  }
  return out;
}

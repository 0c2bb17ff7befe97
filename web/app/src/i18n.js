// The page's text in the player's language. `t(key, params)` and `tn(key, n, params)` look a
// message up in messages.js, compiled by the build from the gettext catalogue
// (koikoi_p2p/locale/<lang>/LC_MESSAGES/koikoi.po) and the English source strings
// (web/app/messages.en.json), with {name} placeholders filled from params. Card and yaku names
// come from here too, so the board needs no other source.
import { CARDS } from '../../src/api/rules.js';
import { MESSAGES, PLURAL } from './messages.js';
import { VOCABULARY } from './vocabulary.js';

/** @typedef {'en' | 'ja'} Lang */


// The yaku names (spec/glossary.md §5): romaji in English, lower case inside a sentence; compiled
// from the terminal's gettext catalogue (context "yaku") by the build, so both clients say the same.
export const YAKU_NAMES = { en: VOCABULARY.en.yaku, ja: VOCABULARY.ja.yaku };

// The months' plants (spec/glossary.md §3), compiled like the classes (context "plant"); the
// months' names are messages of the section (context) "month", keyed by their number.
const PLANTS = /** @type {Record<Lang, Record<string, string>>} */ ({ en: VOCABULARY.en.plant, ja: VOCABULARY.ja.plant });
// The card classes' names (spec/glossary.md §4), from the catalogue's context "class" like the yaku.
// The kinds of ribbon (poetry, blue, red) are rows of the same section.
const CLASS = /** @type {Record<Lang, Record<string, string>>} */ ({ en: VOCABULARY.en.class, ja: VOCABULARY.ja.class });

// A card id to its index, for the rules' phrases that name a card (describe.js).
const CARD_INDEX = new Map(CARDS.map((c, i) => [c.id, i]));

/** @type {Lang} */
let current = 'en';

/** @param {Lang} lang */
export function setLang(lang) {
  current = lang === 'ja' ? 'ja' : 'en';
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

export function lang() {
  return current;
}

/**
 * Items in a running list: "a, b, c" in English, "a、b、c" in Japanese (QA: ASCII commas in
 * Japanese sentences). @param {string[]} items
 */
export function listOf(items) {
  return items.join(current === 'ja' ? '、' : ', ');
}

/** @param {string} text @param {{[name: string]: string | number}} params */
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));

/**
 * The form of a plural message the language's rule (the catalogue's Plural-Forms) gives `n`.
 * @param {string[]} forms @param {number} n
 */
function pluralForm(forms, n) {
  const index = PLURAL[current] === 'one' ? (n === 1 ? 0 : 1) : 0;
  return forms[Math.min(index, forms.length - 1)];
}

/**
 * A message of `section` in the current language (English when the catalogue lacks it; the key
 * itself when the English does, which the build's check rules out for literal keys).
 * @param {string} section @param {string} key
 */
function message(section, key) {
  return MESSAGES[current]?.[section]?.[key] ?? MESSAGES.en[section]?.[key];
}

/**
 * The page's message `key`, its placeholders filled from `params`. A plural message read without
 * a count gives its general form (the last).
 * @param {string} key @param {{[name: string]: string | number}} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const said = message('web', key);
  if (said === undefined) return key;
  return fill(Array.isArray(said) ? said[said.length - 1] : said, params);
}

/**
 * A count in words: the plural message `key` in the form the language's plural rule gives `n`,
 * with `{n}` and `params` filled in. The one place the app chooses a plural form.
 * @param {string} key @param {number} n @param {{[name: string]: string | number}} [params]
 */
export function tn(key, n, params = {}) {
  const said = message('web', key);
  if (said === undefined) return key;
  return fill(Array.isArray(said) ? pluralForm(said, n) : said, { n, ...params });
}

/** Why a match stopped, in words (the catalogue's context "reason"), or undefined for an unknown id. @param {string} id */
export function reasonMessage(id) {
  const said = message('reason', id);
  return typeof said === 'string' ? said : undefined;
}

/**
 * A part of the rules' descriptions (web/src/rules/describe.js, the twin of rules/describe.py) in
 * the current language: its template from the catalogue (section "rules", keyed by the English
 * template, which is the terminal's message id too), its values rendered the same way, a yaku or
 * card id by its name, as on the terminal; numbers stay as they are.
 * @param {import('../../src/rules/describe.js').PhraseValue} part
 * @returns {string}
 */
export function rulesPhrase(part) {
  if (typeof part === 'string') return part;
  if (typeof part === 'number') return String(part);
  if ('word' in part) return CARD_INDEX.has(part.word) ? cardName(/** @type {number} */ (CARD_INDEX.get(part.word))) : yakuName(part.word);
  if (!part.t) return '';
  const template = /** @type {string | undefined} */ (message('rules', part.t)) ?? part.t;
  return template.replace(/\{(\w+)\}/g, (whole, k) => (k in part.v ? rulesPhrase(part.v[k]) : whole));
}

/**
 * A message type (spec/game.md §3: `act`, `reveal`) in words, as the terminal's audit names what a
 * seat owed (the catalogue's context "word"), or undefined for an id the page has no words for.
 * @param {string} id
 */
export function wordName(id) {
  const said = message('word', id);
  return typeof said === 'string' ? said : undefined;
}

/** A role's name (spec/glossary.md §7: host, joiner, dealer ...), from the catalogue's context "role". @param {string} role */
export function roleName(role) {
  return /** @type {Record<string, string>} */ (VOCABULARY[current].role)[role] ?? role;
}

/**
 * The English of the page's message `key`: its forms (one, or singular and plural), which a
 * sentence the auditor wrote in English is read back against (verify_text.js).
 * @param {string} key @returns {string[]}
 */
export function englishForms(key) {
  const said = MESSAGES.en.web?.[key];
  return said === undefined ? [] : Array.isArray(said) ? said : [said];
}

/** The keys of every message, per language and section (for the completeness tests). */
export function messageKeys() {
  return Object.fromEntries(Object.entries(MESSAGES).map(([l, sections]) => [l, Object.fromEntries(Object.entries(sections).map(([s, m]) => [s, Object.keys(m)]))]));
}

/** @param {string} id */
export function yakuName(id) {
  return /** @type {Record<string, string>} */ (YAKU_NAMES[current])[id] ?? id;
}

/** @param {number} month 1..12 */
export function monthName(month) {
  return `${message('month', String(month))} (${plantName(month)})`;
}

/** A card class's name (spec/glossary.md §4). @param {'bright' | 'animal' | 'ribbon' | 'plain'} kind */
export function className(kind) {
  return CLASS[current][kind];
}

/** A month's plant (spec/glossary.md §3). @param {number} month 1..12 */
export function plantName(month) {
  return PLANTS[current][String(month)];
}

/** The short name of a card ("Crane and Sun"). @param {number} index */
export function cardName(index) {
  const c = CARDS[index];
  return current === 'ja' ? c.japanese : c.english;
}

/**
 * The full text equivalent of a card: month and plant, name, class, and (in English) the card id.
 * @param {number} index
 */
export function cardLabel(index) {
  const c = CARDS[index];
  // A ribbon by its kind (poetry ribbon, 赤短), any other card by its class.
  const cls = (c.kind === 'ribbon' && CLASS[current][c.subclass]) || CLASS[current][c.kind];
  // Starts with the month number the card's badge shows (so the visible text is in the name).
  // In Japanese the English id is noise to a screen reader (QA); a month's plains, which share
  // their name, are told apart by their number as the id does (松のカス1).
  if (current === 'ja') return `${c.month} ${monthName(c.month)}：${cardName(index)}${/plain(\d)$/.exec(c.id)?.[1] ?? ''}、${cls}`;
  return `${c.month} ${monthName(c.month)}: ${cardName(index)}, ${cls}, ${c.id}`;
}

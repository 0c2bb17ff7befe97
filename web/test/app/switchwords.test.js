// The rules page's "what these rules change from Nintendo's" in words (spec/rules.md §3.2): for
// every preset and for random switch sets, in English and Japanese, no line shows a switch's
// name, a value's id, a card id, true/false or a bare number without its unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, t } from '../../app/src/i18n.js';
import { changeLines } from '../../app/src/rulespage.js';
import { switchValue } from '../../app/src/words.js';
import { ALL_SWITCHES, HAND_YAKU_IDS, PRESETS, preset } from '../../src/rules/profile.js';
import { formatSwitch } from '../../src/rules/text.js';
import { CARDS, SAKE_CUP } from '../../src/rules/cards.js';
import { jitter } from '../../app/src/cards/draw.js';

const LANGS = /** @type {const} */ (['en', 'ja']);
const CHOICES = new Set(ALL_SWITCHES.flatMap((s) => s.choices ?? []));
const RAW_WORDS = new Set([...CHOICES, ...HAND_YAKU_IDS, ...ALL_SWITCHES.map((s) => s.name), 'true', 'false']);
const ANIMALS = CARDS.filter((c) => c.kind === 'animal' && c.index !== SAKE_CUP).map((c) => c.id);

/**
 * The ways a line can leak an id: snake_case, a card id (01-crane), a value's raw text as a
 * whole word; in Japanese any Latin letter at all.
 * @param {string} line @param {'en' | 'ja'} lang
 */
function leaks(line, lang) {
  /** @type {string[]} */
  const found = [];
  if (/[a-z0-9]+_[a-z0-9_]+/i.test(line)) found.push('snake_case');
  if (/\b\d\d-[a-z]/.test(line)) found.push('card id');
  if (lang === 'ja' && /[A-Za-z]/.test(line)) found.push('Latin letters');
  // The yaku's romaji names (teshi, oya-ken...) are the glossary's English names, not ids
  // (spec/glossary.md §1.1); an id such as oya_ken is caught as snake_case above.
  for (const word of ['chofuku', 'shobu', 'true', 'false', 'card_draw']) {
    if (new RegExp(`\\b${word}\\b`, 'i').test(line)) found.push(word);
  }
  return found;
}

/**
 * Check one value's words: not the raw text, not an id, a number only with its unit.
 * @param {string} name @param {unknown} value @param {'en' | 'ja'} lang
 */
function checkValue(name, value, lang) {
  const words = switchValue(name, value);
  const where = `${lang} ${name}=${JSON.stringify(value)}: "${words}"`;
  assert.notEqual(words, t('svUnknown'), `${where}: no words`);
  assert.ok(words.length > 0, where);
  // "none" is the page's own word for an empty value (a joker, a list, a map), not an id.
  if (words !== t('svNone')) {
    assert.ok(!RAW_WORDS.has(words), `${where}: a raw id`);
    if (typeof value !== 'boolean') assert.notEqual(words, formatSwitch(name, value), `${where}: the raw value`);
  }
  assert.doesNotMatch(words, /^\d+$/, `${where}: a number without its unit`);
  assert.deepEqual(leaks(words, lang), [], where);
  return words;
}

/** A random value for a switch, of its kind (not always a valid profile). @param {any} sw @param {() => number} rnd */
function randomValue(sw, rnd) {
  const int = (/** @type {number} */ hi) => Math.floor(rnd() * hi);
  const pick = (/** @type {readonly any[]} */ xs) => xs[int(xs.length)];
  switch (sw.kind) {
    case 'bool': return rnd() < 0.5;
    case 'enum': return pick(sw.choices);
    case 'int': return pick([0, 1, 2, 3, 5, 7, 12, 30, 100]);
    case 'bright_values': return [int(20) + 1, int(15) + 1, int(12) + 1, int(10) + 1];
    case 'joker': return rnd() < 0.3 ? '' : pick(ANIMALS);
    case 'hand_yaku': return Object.fromEntries(HAND_YAKU_IDS.filter(() => rnd() < 0.5).map((id) => [id, int(20) + 1]));
    case 'cards': {
      const forbidden = new Set(sw.forbidden);
      return CARDS.filter((c) => !forbidden.has(c.index) && rnd() < 0.06).map((c) => c.id);
    }
    default: throw new Error(`no random value for ${sw.kind}`);
  }
}

test('every value of every switch reads as words in both languages', () => {
  const rnd = jitter(23);
  for (const lang of LANGS) {
    setLang(lang);
    for (const sw of ALL_SWITCHES) {
      if (sw.name === 'name') continue;
      for (const choice of sw.choices ?? []) checkValue(sw.name, choice, lang);
      if (sw.kind === 'bool') for (const v of [true, false]) checkValue(sw.name, v, lang);
      for (let i = 0; i < 40; i++) checkValue(sw.name, randomValue(sw, rnd), lang);
    }
    // Edge values with their meaning in words.
    assert.equal(switchValue('max_calls_per_round', 0), lang === 'en' ? 'any number' : '無制限');
    assert.equal(switchValue('rounds', 1), lang === 'en' ? '1 round' : '1回戦');
    assert.equal(switchValue('hand_yaku', { teshi: 6, kuttsuki: 6 }),
      lang === 'en' ? 'teshi 6 points, kuttsuki 6 points' : '手四 6点、くっつき 6点');
    assert.equal(switchValue('first_dealer', 'coin'), lang === 'en' ? 'a fair coin from the shuffled deck' : '切った山札による公平なコイン');
    // A value from a newer peer reads as unknown, never as its id.
    assert.equal(switchValue('viewing', 'sometimes'), t('svUnknown'));
    assert.equal(switchValue('no_such_switch', 1), t('svUnknown'));
  }
  setLang('en');
});

test('the changes from Nintendo\'s rules, for every preset and random switch sets, show no id', () => {
  const rnd = jitter(7);
  const profiles = PRESETS.map((name) => preset(name));
  let tried = 0;
  while (profiles.length < PRESETS.length + 150 && tried < 5000) {
    tried++;
    const base = preset(PRESETS[Math.floor(rnd() * PRESETS.length)]);
    /** @type {Record<string, unknown>} */
    const changes = {};
    for (const sw of ALL_SWITCHES) if (sw.name !== 'name' && rnd() < 0.35) changes[sw.name] = randomValue(sw, rnd);
    try { profiles.push(base.withSwitches(/** @type {any} */ (changes))); } catch { /* not a valid profile: draw again */ }
  }
  assert.ok(profiles.length >= PRESETS.length + 150, `only ${profiles.length - PRESETS.length} valid random profiles`);
  for (const lang of LANGS) {
    setLang(lang);
    let lines = 0;
    for (const p of profiles) {
      for (const line of changeLines(p)) {
        assert.deepEqual(leaks(line, lang), [], `${lang} ${p.name}: ${line}`);
        assert.doesNotMatch(line, lang === 'en' ? /: \d+ \(Nintendo|Nintendo: \d+\)/ : /: \d+（|任天堂: \d+）/, `${lang}: a bare number: ${line}`);
        for (const raw of RAW_WORDS) {
          if (raw === 'none') continue;
          const shown = lang === 'en' ? [`: ${raw} (Nintendo: `, `(Nintendo: ${raw})`] : [`: ${raw}（任天堂: `, `（任天堂: ${raw}）`];
          assert.ok(!shown.some((s) => line.includes(s)), `${lang}: the raw value ${raw}: ${line}`);
        }
        lines++;
      }
    }
    assert.ok(lines > 500, `${lines} lines`);
  }
  setLang('en');
});

test('koikoi-japan\'s changes read as a player says them', () => {
  setLang('en');
  const lines = changeLines(preset('koikoi-japan'));
  for (const want of [
    'Both ribbon sets: akatan 5 points and aotan 5 points, both count (Nintendo: akatan-aotan 10 points, instead of the two)',
    'Koi-koi multiplier: calls multiply nothing (Nintendo: ×2 for beating a player who called)',
    'After a call: play goes on until someone stops (Nintendo: the next yaku by either player ends the round)',
    'Hands run out: the dealer scores (oya-ken) (Nintendo: nobody scores)',
    'Dealer after a round nobody won: the same dealer (Nintendo: the other player)',
    'Dealt-hand yaku: none (Nintendo: teshi 6 points, kuttsuki 6 points)',
    'Rounds: 8 rounds (Nintendo: 12 rounds)',
    'A month of four in a dealt hand: shown and dealt again (Nintendo: play on)',
  ]) assert.ok(lines.includes(want), `${want}\nnot in\n${lines.join('\n')}`);
  setLang('ja');
  const ja = changeLines(preset('koikoi-japan'));
  assert.ok(ja.includes('手役: なし（任天堂: 手四 6点、くっつき 6点）'), ja.join('\n'));
  assert.ok(ja.includes('手札がなくなったとき: 親権により親が得点（任天堂: 誰も得点しない）'), ja.join('\n'));
  setLang('en');
});

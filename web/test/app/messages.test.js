// The browser's sentences come from the gettext catalogue (issue 30): src/messages.js is the
// compilation of web/app/messages.en.json and koikoi_p2p/locale/*/koikoi.po, and the compilation
// refuses a catalogue that lacks a message, marks it fuzzy, leaves it empty or changes its
// placeholders, and code that looks up a key the English source lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MESSAGES_FILE, catalogueTexts, englishSource, keysInSource, messages, messagesModule, unusedKeys } from '../../app/catalogue.mjs';

test('src/messages.js is the compilation of the catalogue', () => {
  assert.equal(readFileSync(MESSAGES_FILE, 'utf8'), messagesModule(), 'run: node web/app/build.mjs');
  // (about 300: the rules page's own sentences gave way to the rules' phrases, section 'rules')
  assert.ok(keysInSource().size > 250, 'the walk finds the literal keys of the code');
});

/** The Japanese catalogue with one entry's text replaced. @param {string} from @param {string} to */
function jaWith(from, to) {
  const { ja } = catalogueTexts();
  assert.ok(ja.includes(from), from);
  return { ja: ja.replace(from, to) };
}

test('a missing, fuzzy, empty or re-placeholdered translation does not compile', () => {
  const entry = 'msgctxt "web"\nmsgid "Round {i} of {n}"\nmsgstr "第{i}回戦 / 全{n}回戦"';
  assert.ok(messages().messages.ja.web.roundOf);
  assert.throws(() => messages(undefined, jaWith(entry, '')), /roundOf.*not in the catalogue/);
  assert.throws(() => messages(undefined, jaWith(entry, `#, fuzzy\n${entry}`)), /fuzzy or untranslated/);
  assert.throws(() => messages(undefined, jaWith(entry, entry.replace(/msgstr ".*"/, 'msgstr ""'))), /fuzzy or untranslated/);
  assert.throws(() => messages(undefined, jaWith(entry, entry.replace('全{n}', '全{m}'))), /changes the placeholders/);
  const english = englishSource();
  delete english.web.roundOf;
  assert.throws(() => messages(english), /looks up "roundOf"/);
});

test('a key of the English source that no code looks up does not compile', () => {
  assert.deepEqual(unusedKeys(englishSource()), []);
  const english = englishSource();
  english.web.neverShown = 'a sentence no page shows';
  assert.deepEqual(unusedKeys(english), ['neverShown']);
  assert.throws(() => messages(english), /keys no code looks up: neverShown/);
  // Keys the code builds (t(`sw_${id}`)) or picks from a quoted table count as looked up.
  assert.ok(['sw_rounds', 'sv_viewing_bonus_only', 'presetNintendo', 'yes'].every((k) => k in english.web));
});

test('Japanese has one plural form, English two; the app picks them by the catalogue rule', () => {
  const { plural, messages: m } = messages();
  assert.deepEqual(plural, { en: 'one', ja: 'zero' });
  assert.deepEqual(m.en.web.pointsN, ['{n} point', '{n} points']);
  assert.deepEqual(m.ja.web.pointsN, ['{n}点']);
});

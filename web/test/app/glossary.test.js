// The browser app names every game term as spec/glossary.md does, in English and Japanese: the
// glossary's tables are parsed here, and a name of the app that differs from its row, a term the
// glossary lacks, a dropped name (glossary §8) in any of the app's text, or a Japanese sentence
// about the room's host that calls the host 親 (the dealer) fails. The terminal's twin of this
// test is tests/unit/test_glossary.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CARDS } from '../../src/api/rules.js';
import { YAKU_NAMES, className, messageKeys, plantName, setLang, t } from '../../app/src/i18n.js';
import { reasonIds, reasonText } from '../../app/src/words.js';

const here = (/** @type {string} */ p) => new URL(p, import.meta.url);

/** Each numbered section's table as rows keyed by the header's cells ("2. Cards" -> "cards"). */
function glossary() {
  /** @type {Record<string, Record<string, string>[]>} */
  const sections = {};
  let section = '';
  /** @type {string[]} */
  let header = [];
  for (const line of readFileSync(here('../../../spec/glossary.md'), 'utf8').split('\n')) {
    if (line.startsWith('## ')) {
      section = line.replace(/^## \d+\. /, '').split(' ')[0].toLowerCase();
      header = [];
    } else if (line.startsWith('|')) {
      const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      if (header.length === 0) header = cells;
      else if (!/^[-\s]+$/.test(cells[0])) {
        assert.equal(cells.length, header.length, line);
        (sections[section] ??= []).push(Object.fromEntries(header.map((h, i) => [h, cells[i]])));
      }
    }
  }
  return sections;
}

/** @param {string} section */
const byId = (section) => Object.fromEntries(glossary()[section].map((row) => [row.id, row]));

/** @param {'en' | 'ja'} lang */
const column = (lang) => (lang === 'en' ? 'English' : 'Japanese');

test('card and plant names are the glossary\u2019s', () => {
  const cards = byId('cards');
  const plants = byId('plants');
  assert.deepEqual(glossary().cards.map((r) => r.id), CARDS.map((c) => c.id));
  for (const c of CARDS) assert.deepEqual([c.english, c.japanese], [cards[c.id].English, cards[c.id].Japanese], c.id);
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    for (let m = 1; m <= 12; m++) assert.equal(plantName(m), plants[String(m)][column(lang)]);
  }
  setLang('en');
});

test('class names and the headings over a pile are the glossary\u2019s', () => {
  const classes = byId('classes');
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    for (const k of /** @type {const} */ (['bright', 'animal', 'ribbon', 'plain'])) {
      const name = classes[k][column(lang)];
      assert.equal(className(k), name);
      // The heading is the plural in English, capitalised as headings are.
      assert.equal(t(k), lang === 'en' ? `${name[0].toUpperCase()}${name.slice(1)}s` : name);
    }
  }
  setLang('en');
});

test('yaku names are the glossary\u2019s, and the app names no yaku it lacks', () => {
  const yaku = byId('yaku');
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    const names = /** @type {Record<string, string>} */ (YAKU_NAMES[lang]);
    assert.deepEqual(Object.keys(names).sort(), Object.keys(yaku).sort());
    for (const [id, name] of Object.entries(names)) assert.equal(name, yaku[id][column(lang)], `${lang} ${id}`);
  }
});

/** Every text the app shows from its tables, in one language. @param {'en' | 'ja'} lang */
function texts(lang) {
  setLang(lang);
  const keys = messageKeys()[lang].web;
  const all = [...keys.map((k) => t(/** @type {any} */ (k))), ...reasonIds()[lang].map(reasonText),
    ...Object.values(YAKU_NAMES[lang])];
  setLang('en');
  return all;
}

/** [dropped name, text] for each text using a name glossary §8 lists as not used. @param {string[]} all */
function droppedNamesIn(all) {
  /** @type {[string, string][]} */
  const hits = [];
  for (const row of glossary().names) {
    const chosen = row['use instead'].split(',').map((s) => s.trim());
    for (const text of all) {
      const rest = chosen.reduce((acc, name) => acc.split(name).join(''), text);
      if (rest.includes(row['not used'])) hits.push([row['not used'], text]);
    }
  }
  return hits;
}

test('the app uses no name the glossary drops, in its tables or its sources', () => {
  const sources = ['i18n.js', 'words.js'].flatMap((f) => readFileSync(here(`../../app/src/${f}`), 'utf8').split('\n'));
  assert.deepEqual(droppedNamesIn([...texts('en'), ...texts('ja'), ...sources]), []);
  assert.deepEqual(droppedNamesIn(['Three Brights 5', 'コンピューター', 'あがり']), [['Three Brights', 'Three Brights 5'], ['あがり', 'あがり']]);
});

/** Keys whose English is about the host (not the deal) and whose Japanese says 親 or lacks ホスト. */
function hostCalledDealer(/** @type {Record<string, [string, string]>} */ pairs) {
  return Object.entries(pairs).filter(([, [en, ja]]) => /\b(?:the|its|your)\s+host\b|\bhost['’]s\b|^host:/i.test(en) && !/deal/.test(en)
    && (ja.replaceAll('親権', '').includes('親') || !ja.includes('ホスト'))).map(([k]) => k);
}

test('the Japanese never calls the room\u2019s host the dealer (親)', () => {
  /** @type {Record<string, [string, string]>} */
  const pairs = {};
  for (const k of messageKeys().en.web) {
    setLang('en');
    const en = t(/** @type {any} */ (k));
    setLang('ja');
    pairs[k] = [en, t(/** @type {any} */ (k))];
  }
  setLang('en');
  assert.ok(Object.values(pairs).some(([en]) => /host/i.test(en)), 'the app speaks of the host');
  assert.deepEqual(hostCalledDealer(pairs), []);
  assert.deepEqual(hostCalledDealer({ x: ['The host proposes', '親が提案する'] }), ['x']);
});

test('the app\u2019s yaku and role names are the compilation of the terminal\u2019s gettext catalogue', async () => {
  const { VOCABULARY_FILE, parsePo, vocabularyModule } = await import('../../app/catalogue.mjs');
  assert.equal(readFileSync(VOCABULARY_FILE, 'utf8'), vocabularyModule(), 'run node web/app/build.mjs');
  const po = parsePo('msgid ""\nmsgstr "header"\n\nmsgctxt "yaku"\nmsgid "sanko"\nmsgstr "三光"\n\n#, fuzzy\nmsgid "a"\nmsgstr "b"\n\nmsgid ""\n"two "\n"lines"\nmsgstr "二行"\n');
  assert.deepEqual([...po], [['yaku\u0004sanko', '三光'], ['two lines', '二行']]);
});

test('a round is 回戦 in every Japanese text of the page, the match report\'s included (QA: the report said 第1局)', () => {
  // 局 only in the words for a match (対局), its end (終局) and a position (局面), never for a round.
  const japanese = Object.entries(messageKeys().ja).flatMap(([section, keys]) => keys.map((k) => {
    setLang('ja');
    return [`${section}.${k}`, section === 'web' ? t(/** @type {any} */ (k)) : ''];
  }));
  assert.deepEqual(japanese.filter(([, ja]) => /局/.test(ja.replace(/対局|終局|局面/g, ''))), []);
  // The report's round tabs say what the board's round line begins with, in both languages.
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    assert.ok(t('roundOf', { i: 3, n: 12 }).startsWith(t('roundNo', { n: 3 })), `${lang}: ${t('roundNo', { n: 3 })} / ${t('roundOf', { i: 3, n: 12 })}`);
    assert.ok(t('roundDoneOpen', { i: 3 }).startsWith(t('roundNo', { n: 3 })), lang);
  }
  setLang('en');
  assert.equal(t('roundNo', { n: 1 }), 'Round 1');
});

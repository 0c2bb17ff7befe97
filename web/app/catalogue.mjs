// The game's vocabulary for the browser app, compiled from the terminal's gettext catalogues
// (koikoi_p2p/locale/<lang>/LC_MESSAGES/koikoi.po) and the glossary (spec/glossary.md), so both
// clients take the yaku, class, role and plant names from the same translated source. build.mjs writes the
// result to src/vocabulary.js (committed, as the static build is) and `--check` fails when the
// committed file is not what the catalogues give.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const VOCABULARY_FILE = path.join(ROOT, 'web', 'app', 'src', 'vocabulary.js');
// The catalogue's contexts the app takes, and the glossary section that gives their ids.
const CONTEXTS = /** @type {const} */ ([['yaku', 'Yaku'], ['class', 'Classes'], ['role', 'Roles'], ['plant', 'Plants']]);

/** A quoted PO string's content (PO escapes are JSON's: \\" \\\\ \\n \\t). @param {string} quoted */
function unquote(quoted) {
  return JSON.parse(quoted);
}

/**
 * @typedef {{ context: string | undefined, msgid: string, plural: string | undefined, forms: string[], fuzzy: boolean }} PoEntry
 */

/**
 * The entries of a PO file, the header included (msgid ""), each with its translated forms
 * (msgstr, or msgstr[0..]) and whether a translator marked it fuzzy.
 * @param {string} text
 * @returns {PoEntry[]}
 */
export function poEntries(text) {
  /** @type {PoEntry[]} */
  const out = [];
  for (const block of text.split(/\n\s*\n/)) {
    /** @type {Record<string, string>} */
    const fields = {};
    let field = '';
    for (const line of block.split('\n')) {
      const start = /^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) (".*")$/.exec(line);
      if (start) {
        field = start[1];
        fields[field] = unquote(start[2]);
      } else if (/^".*"$/.test(line) && field) {
        fields[field] += unquote(line);
      } else if (!line.startsWith('#')) {
        field = '';
      }
    }
    if (!('msgid' in fields)) continue;
    const forms = 'msgid_plural' in fields
      ? Object.keys(fields).filter((f) => f.startsWith('msgstr[')).sort().map((f) => fields[f])
      : [fields.msgstr ?? ''];
    out.push({ context: fields.msgctxt, msgid: fields.msgid, plural: fields.msgid_plural, forms, fuzzy: /^#,.*\bfuzzy\b/m.test(block) });
  }
  return out;
}

/** The lookup key of a message: `${context}\u0004${msgid}`, or the msgid alone. @param {string | undefined | null} context @param {string} msgid */
const lookupKey = (context, msgid) => (context != null ? `${context}\u0004${msgid}` : msgid);

/**
 * The singular entries of a PO file: `${context}\u0004${msgid}` (or the msgid alone) -> msgstr.
 * Fuzzy entries are left out, as gettext leaves them out of a compiled catalogue.
 * @param {string} text
 * @returns {Map<string, string>}
 */
export function parsePo(text) {
  return new Map(poEntries(text).filter((e) => e.msgid && !e.fuzzy && e.plural === undefined)
    .map((e) => [lookupKey(e.context, e.msgid), e.forms[0]]));
}

/** The ids and English names of one glossary section's table. @param {string} heading */
function glossaryNames(heading) {
  const text = readFileSync(path.join(ROOT, 'spec', 'glossary.md'), 'utf8');
  const start = text.search(new RegExp(`^## \\d+\\. ${heading}\\b`, 'm'));
  if (start < 0) throw new Error(`spec/glossary.md has no section ${heading}`);
  const body = text.slice(start).split(/\n## /)[0];
  /** @type {[string, string][]} */
  const rows = [];
  for (const line of body.split('\n').filter((l) => l.startsWith('|')).slice(2)) {
    const [id, english] = line.split('|').slice(1, 3).map((c) => c.trim());
    rows.push([id, english]);
  }
  return rows;
}

/**
 * For each language (English, and each catalogue), each context: id -> name. English is the
 * glossary's name (the catalogue's message id); another language is its translation, which the
 * catalogue must have for every id the glossary lists there.
 * @returns {Record<string, Record<string, Record<string, string>>>}
 */
export function vocabulary() {
  const locale = path.join(ROOT, 'koikoi_p2p', 'locale');
  const langs = readdirSync(locale).filter((l) => existsSync(path.join(locale, l, 'LC_MESSAGES', 'koikoi.po'))).sort();
  /** @type {Record<string, Record<string, Record<string, string>>>} */
  const out = { en: {} };
  for (const lang of langs) {
    const po = parsePo(readFileSync(path.join(locale, lang, 'LC_MESSAGES', 'koikoi.po'), 'utf8'));
    out[lang] = {};
    for (const [context, heading] of CONTEXTS) {
      /** @type {Record<string, string>} */
      const names = {};
      for (const [id, english] of glossaryNames(heading)) {
        const said = po.get(`${context}\u0004${english}`);
        if (said) names[id] = said;
        else if (context === 'yaku' || context === 'plant') throw new Error(`${lang}: the catalogue has no ${context} "${english}"`);
      }
      out[lang][context] = names;
    }
  }
  // English: the glossary's names of the ids every catalogue translates.
  for (const [context, heading] of CONTEXTS) {
    out.en[context] = Object.fromEntries(glossaryNames(heading).filter(([id]) => langs.every((l) => id in out[l][context])));
  }
  return out;
}

/** The text of src/vocabulary.js. */
export function vocabularyModule() {
  return `// Generated by web/app/build.mjs from koikoi_p2p/locale/*/LC_MESSAGES/koikoi.po and
// spec/glossary.md (web/app/catalogue.mjs): do not edit; change the catalogue or the glossary.
export const VOCABULARY = ${JSON.stringify(vocabulary(), null, 2)};
`;
}

// -- the browser's sentences ------------------------------------------------------------------
// The app's English source strings are web/app/messages.en.json: per section (the message
// context: "web" for the page, "reason" for why a match stopped) the app's key -> its English
// message, or {msgid, plural?, context?} (context null: the terminal's own message, shared so both
// clients say the same words). Babel extracts it into the catalogue (babel.cfg); the build compiles
// the translations back, keyed as the app looks them up, into src/messages.js.
export const MESSAGES_FILE = path.join(ROOT, 'web', 'app', 'src', 'messages.js');
const ENGLISH_FILE = path.join(ROOT, 'web', 'app', 'messages.en.json');
// The plural rules the app knows how to apply (the catalogue header's Plural-Forms), by the
// expression's name the app's pluralIndex() takes. English is gettext's default (no catalogue).
const PLURAL_RULES = { 'nplurals=1; plural=0;': 'zero', 'nplurals=2; plural=(n != 1);': 'one' };

/** @typedef {string | { msgid: string, plural?: string, context?: string | null }} EnglishEntry */

/** The placeholders of a message. @param {string} text */
const placeholders = (text) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

/**
 * Whether a translated form keeps the English message's placeholders: it names none the English
 * lacks and every one each English form has (an English singular may say "a call" for {n}).
 * `optional`: a terminal message (context null) may leave out {message}, the protocol's English
 * detail of a failure, to the reason it follows, named in words: the Python catalogue test's rule
 * for the same messages. The page's own messages keep it (it may be the only explanation).
 * @param {string} form @param {string[]} english @param {boolean} [optional]
 */
function keepsPlaceholders(form, english, optional = false) {
  const mine = placeholders(form);
  const each = english.map(placeholders);
  return [...mine].every((p) => each.some((s) => s.has(p)))
    && [...each[0]].filter((p) => !(optional && p === 'message') && each.every((s) => s.has(p))).every((p) => mine.has(p));
}

/**
 * The message keys the app's code looks up literally (t('key'...), tn('key'...)) in web/app/src:
 * what the build checks the English source against.
 * @returns {Map<string, 't' | 'tn'>}
 */
export function keysInSource() {
  const dir = path.join(ROOT, 'web', 'app', 'src');
  /** @type {Map<string, 't' | 'tn'>} */
  const out = new Map();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.js') && n !== 'messages.js' && n !== 'vocabulary.js')) {
    for (const m of readFileSync(path.join(dir, name), 'utf8').matchAll(/\b(tn?)\(\s*'(\w+)'/g)) {
      if (out.get(m[2]) !== 'tn') out.set(m[2], /** @type {'t' | 'tn'} */ (m[1]));
    }
  }
  return out;
}

/**
 * The keys of the page's section ("web") that no code can look up: neither quoted whole anywhere in
 * web/app/src (t('key'), t(won ? 'a' : 'b'), a table of keys) nor begun by a key the code builds
 * (t(`sw_${id}`)). The build refuses them, so the English source (and the catalogue a translator
 * works through) holds only what a page can show.
 * @param {Record<string, Record<string, EnglishEntry>>} english
 * @returns {string[]}
 */
export function unusedKeys(english) {
  const dir = path.join(ROOT, 'web', 'app', 'src');
  const source = readdirSync(dir).filter((n) => n.endsWith('.js') && n !== 'messages.js' && n !== 'vocabulary.js')
    .map((n) => readFileSync(path.join(dir, n), 'utf8')).join('\n');
  const quoted = new Set([...source.matchAll(/['"`]([A-Za-z_]\w*)['"`]/g)].map((m) => m[1]));
  const built = [...source.matchAll(/`([A-Za-z_]\w*)\$\{/g)].map((m) => m[1]);
  return Object.keys(english.web).filter((key) => !quoted.has(key) && !built.some((start) => key.startsWith(start)));
}

/** The English source strings (messages.en.json). @returns {Record<string, Record<string, EnglishEntry>>} */
export const englishSource = () => JSON.parse(readFileSync(ENGLISH_FILE, 'utf8'));

/** Each language's catalogue text (koikoi_p2p/locale/<lang>/LC_MESSAGES/koikoi.po). @returns {Record<string, string>} */
export function catalogueTexts() {
  const locale = path.join(ROOT, 'koikoi_p2p', 'locale');
  const langs = readdirSync(locale).filter((l) => existsSync(path.join(locale, l, 'LC_MESSAGES', 'koikoi.po'))).sort();
  return Object.fromEntries(langs.map((l) => [l, readFileSync(path.join(locale, l, 'LC_MESSAGES', 'koikoi.po'), 'utf8')]));
}

/**
 * The compiled messages: for English (the source) and each catalogue, section -> key -> the text
 * (a plural message: its forms, as many as the language's rule has). Throws when the code looks up
 * a key the English lacks (or counts with one that has no plural), the English holds a key no code
 * looks up (unusedKeys), or a catalogue lacks a message,
 * has it fuzzy or empty, or changes its placeholders.
 * @param {Record<string, Record<string, EnglishEntry>>} [english] @param {Record<string, string>} [catalogues] lang -> PO text
 */
export function messages(english = englishSource(), catalogues = catalogueTexts()) {
  for (const [key, call] of keysInSource()) {
    const entry = english.web[key];
    if (entry === undefined) throw new Error(`web/app/src looks up "${key}", which web/app/messages.en.json lacks`);
    if (call === 'tn' && (typeof entry === 'string' || entry.plural === undefined)) throw new Error(`tn("${key}") needs a plural message`);
  }
  const unused = unusedKeys(english);
  if (unused.length) throw new Error(`web/app/messages.en.json holds keys no code looks up: ${unused.join(', ')} (remove them)`);
  /** @type {Record<string, string>} */
  const plural = { en: 'one' };
  /** @type {Record<string, Record<string, Record<string, string | string[]>>>} */
  const out = { en: {} };
  for (const [section, entries] of Object.entries(english)) {
    out.en[section] = Object.fromEntries(Object.entries(entries).map(([key, e]) => [key,
      typeof e === 'string' ? e : e.plural !== undefined ? [e.msgid, e.plural] : e.msgid]));
  }
  for (const [lang, text] of Object.entries(catalogues)) {
    const entries = poEntries(text);
    const header = entries.find((e) => e.msgid === '' && e.context === undefined)?.forms[0] ?? '';
    const rule = /^Plural-Forms: *(.*?) *$/m.exec(header)?.[1] ?? '';
    if (!(rule in PLURAL_RULES)) throw new Error(`${lang}: a plural rule the app does not know: ${rule}`);
    plural[lang] = PLURAL_RULES[/** @type {keyof typeof PLURAL_RULES} */ (rule)];
    const byKey = new Map(entries.map((e) => [lookupKey(e.context, e.msgid), e]));
    out[lang] = {};
    for (const [section, items] of Object.entries(english)) {
      /** @type {Record<string, string | string[]>} */
      const said = {};
      for (const [key, e] of Object.entries(items)) {
        const { msgid, plural: many, context } = typeof e === 'string' ? { msgid: e, plural: undefined, context: section } : { context: section, ...e };
        const found = byKey.get(lookupKey(context, msgid));
        const where = `${lang}: ${section} "${key}" (${JSON.stringify(msgid)})`;
        if (!found || found.plural !== many) throw new Error(`${where} is not in the catalogue (run pybabel extract and update: README)`);
        if (found.fuzzy || found.forms.some((f) => !f)) throw new Error(`${where} is fuzzy or untranslated`);
        for (const form of found.forms) {
          if (!keepsPlaceholders(form, many !== undefined ? [msgid, many] : [msgid], context === null)) throw new Error(`${where}: the translation ${JSON.stringify(form)} changes the placeholders`);
        }
        said[key] = many !== undefined ? found.forms : found.forms[0];
      }
      out[lang][section] = said;
    }
  }
  const templates = describeTemplates();
  out.en.rules = Object.fromEntries(templates.map((m) => [m, m]));
  for (const [lang, text] of Object.entries(catalogues)) {
    const byId = new Map(poEntries(text).filter((e) => e.context === undefined && e.plural === undefined).map((e) => [e.msgid, e]));
    /** @type {Record<string, string>} */
    const said = {};
    for (const m of templates) {
      const found = byId.get(m);
      const where = `${lang}: the rules' phrase ${JSON.stringify(m)} (web/src/rules/describe.js)`;
      if (!found) throw new Error(`${where} is not in the catalogue: koikoi_p2p/rules/describe.py says it otherwise`);
      if (found.fuzzy || !found.forms[0]) throw new Error(`${where} is fuzzy or untranslated`);
      if (!keepsPlaceholders(found.forms[0], [m])) throw new Error(`${where}: the translation changes the placeholders`);
      said[m] = found.forms[0];
    }
    out[lang].rules = said;
  }
  return { plural, messages: out };
}

/**
 * The message ids of the rules' descriptions: every template of web/src/rules/describe.js (the
 * twin of koikoi_p2p/rules/describe.py, whose phrases Babel extracts into the catalogue without a
 * context), the empty one left out. The build compiles them into section "rules", keyed by the
 * template, so the page renders a description from the same entries as the terminal.
 * @returns {string[]}
 */
export function describeTemplates() {
  const text = readFileSync(path.join(ROOT, 'web', 'src', 'rules', 'describe.js'), 'utf8');
  const found = [...text.matchAll(/\bP\(\s*(?:'([^'\\]*)'|"([^"\\]*)")/g)].map((m) => m[1] ?? m[2]);
  return [...new Set(found.filter((m) => m))];
}

/** The text of src/messages.js. */
export function messagesModule() {
  const { plural, messages: compiled } = messages();
  return `// Generated by web/app/build.mjs from web/app/messages.en.json (the English source) and
// koikoi_p2p/locale/*/LC_MESSAGES/koikoi.po (web/app/catalogue.mjs): do not edit; change the
// English source or the catalogue.
/** @type {Record<string, 'zero' | 'one'>} */
export const PLURAL = ${JSON.stringify(plural)};
/** @type {Record<string, Record<string, Record<string, string | string[]>>>} */
export const MESSAGES = ${JSON.stringify(compiled, null, 1)};
`;
}

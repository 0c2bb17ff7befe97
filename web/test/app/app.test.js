// The browser app's pure parts in Node: the two languages have the same keys, the card art gives
// 48 different faces with their id and month as text, the table hints come from the rules engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageKeys, setLang, cardLabel, t, YAKU_NAMES } from '../../app/src/i18n.js';
import { MESSAGES } from '../../app/src/messages.js';
import { backSvg, cardSvg } from '../../app/src/cards/art.js';
import { CARDS } from '../../src/rules/cards.js';
import { YAKU_IDS } from '../../src/rules/scoring.js';
import { preset } from '../../src/rules/profile.js';
import { closeYaku } from '../../app/src/table.js';
import { PRESETS, buildProfile, cleanName, presetSentence, presetShort, profileText } from '../../app/src/profiles.js';
import { nameProblem } from '../../src/protocol/names.js';
import { rendezvousTag } from '../../src/net/rendezvous.js';

test('English and Japanese have the same messages, and every yaku a name in both', () => {
  const { en, ja } = messageKeys();
  assert.deepEqual(ja, en);
  for (const id of YAKU_IDS) {
    assert.ok(YAKU_NAMES.en[/** @type {keyof typeof YAKU_NAMES.en} */ (id)], id);
    assert.ok(YAKU_NAMES.ja[/** @type {keyof typeof YAKU_NAMES.ja} */ (id)], id);
  }
});

test('no English count has a fixed plural: a count of one reads "1 point", never "1 points"', () => {
  setLang('en');
  const web = Object.entries(MESSAGES.en.web);
  const fixed = web.filter(([, m]) => typeof m === 'string'
    && /\{(?:n|base|m)\} (?:[a-z-]+ )?(?:points|cards|rounds|calls|seconds|messages|pts)\b/.test(m)).map(([k]) => k);
  assert.deepEqual(fixed, []);
  const plurals = web.filter(([, m]) => Array.isArray(m));
  assert.ok(plurals.length > 20, 'the page counts with plural messages');
  for (const [k, m] of plurals) {
    assert.equal(m.length, 2, k);
    assert.doesNotMatch(m[0], /\{n\} (?:points|cards|rounds)\b/, k);
  }
  // Japanese has the one form its catalogue's rule gives (nplurals=1).
  for (const [k] of plurals) assert.equal(/** @type {string[]} */ (MESSAGES.ja.web[k]).length, 1, k);
});

test('48 different faces and a back; each card named with its month and id', () => {
  const faces = CARDS.map((c) => cardSvg(c.index));
  assert.equal(new Set(faces.filter((_, i) => !CARDS[i].id.includes('plain'))).size, faces.filter((_, i) => !CARDS[i].id.includes('plain')).length);
  for (const c of CARDS) {
    assert.match(faces[c.index], new RegExp(`data-card="${c.id}"`));
    assert.match(faces[c.index], /^<svg [^>]*aria-hidden="true"/);
    setLang('en');
    assert.ok(cardLabel(c.index).startsWith(`${c.month} `));
    assert.ok(cardLabel(c.index).endsWith(c.id));
    setLang('ja');
    assert.ok(cardLabel(c.index).includes(c.japanese));
    assert.doesNotMatch(cardLabel(c.index), /[A-Za-z]/, 'no English (a card id, or part of one) in a Japanese label');
  }
  // Each label names one card: a month's plains apart too.
  for (const l of /** @type {const} */ (['en', 'ja'])) {
    setLang(l);
    assert.equal(new Set(CARDS.map((c) => cardLabel(c.index))).size, 48, l);
  }
  setLang('en');
  // The classes differ in their badge mark even in grey: a star, a diamond, a bar, a dot.
  assert.match(cardSvg(0), /#f0b429/);
  assert.notEqual(cardSvg(1), cardSvg(21));
  assert.match(backSvg(), /^<svg /);
  assert.throws(() => cardSvg(48), RangeError);
});

test('one card away: a pile with two poetry ribbons is one from akatan', () => {
  const p = preset('nintendo');
  assert.ok(closeYaku([1, 5], [], p, 1).includes('akatan'));
  assert.ok(!closeYaku([1, 5], [9], p, 1).includes('akatan')); // the third is in the other pile
});

test('profiles from the form, described against their preset', () => {
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    // every preset, the seventh included, has a name and a sentence in words, never its id
    for (const name of PRESETS) for (const said of [presetShort(name), presetSentence(name)]) assert.ok(!said.includes(name), `${lang} ${name}`);
  }
  setLang('en');
  assert.equal(profileText(buildProfile('nintendo', 1, '').toDict()), 'Nintendo');
  const custom = buildProfile('nintendo', 1, 'koikoi_multiplier=none\ncup_is_plain=false');
  // The terms dialog says the switches in words, never NAME=VALUE (the rules page's words).
  const en = profileText(custom.toDict());
  assert.match(en, /^custom, based on Nintendo: /, en);
  assert.match(en, /Koi-koi multiplier: calls multiply nothing/, en);
  assert.match(en, /Sake Cup also a plain: no/, en);
  assert.doesNotMatch(en, /=|koikoi_multiplier|false/, en);
  setLang('ja');
  const ja = profileText(custom.toDict());
  assert.doesNotMatch(ja, /[a-z_]+=|koikoi_multiplier|false/, ja);
  assert.match(ja, /^任天堂 の変更版: /, ja);
  assert.match(ja, /こいこいの倍率: 宣言による倍率なし/, ja);
  assert.match(ja, /菊に盃をカスにも数える: いいえ/, ja);
  setLang('en');
  assert.throws(() => buildProfile('nintendo', 1, 'no such line'));
  assert.equal(t('roundOf', { i: 1, n: 3 }), 'Round 1 of 3');
});

test('the rejoin tag is the one of spec/protocol.md §12.2', () => {
  // The Python peer's tag for the same id (koikoi_p2p.net.rendezvous.rendezvous_tag('K7QX2M')).
  assert.equal(rendezvousTag('K7QX2M'), '18d69c53e78b8cadb035e7432b72edb6');
});

test("a person's own deadline ends a margin before the opponent's clock for it (spec/protocol.md §12.4)", async () => {
  const { ownEnd } = await import('../../app/src/deadline.js');
  // 2 s early for a usual deadline; at most half of a short one.
  assert.equal(ownEnd({ since: 1000, seconds: 300 }), 1000 + 298000);
  assert.equal(ownEnd({ since: 0, seconds: 10 }), 8000);
  assert.equal(ownEnd({ since: 0, seconds: 3 }), 1500);
  assert.equal(ownEnd({ since: 0, seconds: 1 }), 500);
});

test("the person's own clock (a move, the terms) counts to where its seat stops; the opponent's to the deadline", async () => {
  const { remaining } = await import('../../app/src/board.js');
  const { ownEnd } = await import('../../app/src/deadline.js');
  const wait = (/** @type {number} */ seat, /** @type {string} */ type) => ({ seat, type, since: 1000, seconds: 14 });
  // The board's clock, the security-code and terms dialogs' (board.js answerClock): all read remaining().
  for (const type of ['act', 'accept']) {
    const mine = { seat: 1, deadlines: true, wait: wait(1, type) };
    assert.equal(remaining(mine, 1000), 12, type);
    // 0:00 exactly when the seat stops taking the decision (QA: it showed 0:02 there).
    assert.equal(remaining(mine, ownEnd(mine.wait)), 0, type);
  }
  // The opponent's clock counts to the deadline its claim waits for.
  assert.equal(remaining({ seat: 0, deadlines: true, wait: wait(1, 'act') }, 1000), 14);
  // Our own wait for the seat's work (a shuffle): no person decides it, the seat does not stop early.
  assert.equal(remaining({ seat: 1, deadlines: true, wait: wait(1, 'shuffle') }, 1000), 14);
});

test('a display name typed in the page is made one the protocol takes', () => {
  for (const raw of ['  Fuji  ', 'Cafe\u0301', 'a\u0000b\u200Bc', 'x'.repeat(40), '\u3000桜\u3000', '', '🌸'.repeat(33)]) {
    const name = cleanName(raw);
    assert.equal(nameProblem(name), null, JSON.stringify(raw));
  }
  assert.equal(cleanName('  Fuji  '), 'Fuji');
  assert.equal(cleanName('Cafe\u0301'), 'Café');
  assert.equal([...cleanName('🌸'.repeat(33))].length, 32);
});

test('the create form\'s rated match: the service typed, else the relay\'s own; unrated names none', async () => {
  const { ratedTerms } = await import('../../app/src/rated.js');
  assert.deepEqual(ratedTerms(false, 'https://ignored.example', 'ws://127.0.0.1:8765/v1'), { rated: false, ratings: '' });
  assert.deepEqual(ratedTerms(true, '', 'ws://127.0.0.1:8765/v1'), { rated: true, ratings: 'http://127.0.0.1:8765' });
  assert.deepEqual(ratedTerms(true, '', 'wss://relay.example/v1'), { rated: true, ratings: 'https://relay.example' });
  assert.deepEqual(ratedTerms(true, ' https://ratings.example/ ', 'ws://127.0.0.1:8765/v1'), { rated: true, ratings: 'https://ratings.example' });
  assert.throws(() => ratedTerms(true, 'ftp://ratings.example', 'ws://127.0.0.1:8765/v1'), /not a rating service/);
  assert.throws(() => ratedTerms(true, `https://${'a'.repeat(200)}.example`, 'ws://127.0.0.1:8765/v1'), /at most 200/);
});

test('a rated result already counted is the opponent\'s copy only when our first try was answered', async () => {
  const { submitRatedResult } = await import('../../app/src/rated.js');
  const repeat = { ok: true, counted: false, seq: 4 };
  /** @param {Array<number | Error>} statuses what each try meets: a status (then the repeat's body) or a failure */
  const run = async (statuses) => {
    const tries = [...statuses];
    let clock = 0;
    let retries = 0;
    const answer = await submitRatedResult(new Uint8Array([1]), 'http://127.0.0.1:9', {
      fetch: /** @type {typeof fetch} */ (/** @type {unknown} */ (async () => {
        const next = tries.shift();
        if (next instanceof Error) throw next;
        return { status: next, json: async () => (next === 200 ? repeat : {}) };
      })),
      sleep: async (ms) => { clock += ms; },
      now: () => clock,
      retrying: () => { retries += 1; },
    });
    return { answer, retries };
  };
  assert.deepEqual(await run([200]), { answer: 'the result is counted (your opponent’s copy arrived first)', retries: 0 });
  // The first try's answer was lost (it may have been counted): the repeat may be our own copy.
  assert.deepEqual(await run([new TypeError('Failed to fetch'), 200]), { answer: 'the result was already counted (result number 4)', retries: 1 });
  assert.deepEqual(await run([502, 200]), { answer: 'the result was already counted (result number 4)', retries: 1 });
});

test('round summaries come one by one, oldest first: a deal that ends while a summary is open waits behind it, across a reload', async () => {
  const { pendingRound } = await import('../../app/src/summary.js');
  // A dealt-hand yaku can end deal 3 at once while the person still reads deal 2's summary: the
  // seat's table then has both, and its lastRound is deal 3.
  const r2 = { deal: 2, roundIndex: 1 };
  const r3 = { deal: 3, roundIndex: 2 };
  const table = { rounds: [r2, r3], lastRound: r3 };
  assert.equal(pendingRound(table, -1), r2, 'nothing dismissed: the older summary first');
  assert.equal(pendingRound(table, 2), r3, 'the older one dismissed: the newer one next');
  assert.equal(pendingRound(table, 3), null, 'both dismissed: none');
  // A table of an older worker (no list): its last summary, as before.
  assert.equal(pendingRound({ lastRound: r3 }, 2), r3);
  assert.equal(pendingRound({ lastRound: null }, -1), null);
});

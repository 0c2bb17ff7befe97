// The rules page's yaku table agrees with the rules engine: for every preset, each set of cards it
// draws scores that yaku, for the points the table gives; what a preset changes from Nintendo's
// rules is listed in words in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, t } from '../../app/src/i18n.js';
import { YAKU_CARDS, changeLines, rulesLines, rulesTitle, yakuRows } from '../../app/src/rulespage.js';
import { ALL_SWITCHES, PRESETS, preset } from '../../src/rules/profile.js';
import { scoreYaku } from '../../src/rules/scoring.js';

/** The page's sentences of stopping, koi-koi, doubling and scores, as one text. @param {import('../../src/rules/profile.js').Profile} p */
const rulesText = (p) => rulesLines(p).join('\n');

const DEALT = new Set(['teshi', 'kuttsuki', 'tenho', 'double_tenho', 'oya_ken']);

test('every yaku the page draws scores as the page says, under every preset', () => {
  setLang('en');
  for (const name of PRESETS) {
    const p = preset(name);
    const rows = yakuRows(p.allSwitches());
    assert.ok(rows.length >= 10, name);
    for (const row of rows) {
      if (DEALT.has(row.id)) continue;
      // A viewing yaku that counts only beside another (the page says so) gets ten plains beside it.
      const beside = p.viewing === 'bonus_only' && (row.id === 'hanami' || row.id === 'tsukimi') ? YAKU_CARDS.kasu : [];
      const scored = scoreYaku([...YAKU_CARDS[row.id], ...beside], p, 1);
      assert.ok(row.id in scored, `${name}: ${row.id} from ${YAKU_CARDS[row.id]} scores ${JSON.stringify(scored)}`);
      assert.equal(scored[row.id], Number(/^\d+/.exec(row.points)?.[0]), `${name}: ${row.id}`);
      if (p.viewing_by_call && (row.id === 'hanami' || row.id === 'tsukimi')) {
        // spec/rules.md §6.4: the second number is the value once the holder has called koi-koi.
        const called = scoreYaku([...YAKU_CARDS[row.id], ...beside], p, 1, true);
        assert.equal(called[row.id], Number([...row.points.matchAll(/\d+/g)][1]?.[0]), `${name}: ${row.id} after a call`);
      }
    }
    // And the engine scores no yaku the page leaves out of this preset's table.
    const shown = new Set(rows.map((r) => r.id));
    for (const cards of Object.values(YAKU_CARDS)) {
      for (const id of Object.keys(scoreYaku(cards, p, 1))) assert.ok(shown.has(id), `${name}: ${id} missing from the table`);
    }
  }
});

test('what a preset changes from Nintendo\'s rules, in words', () => {
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    assert.deepEqual(changeLines(preset('nintendo')), []);
    const online = changeLines(preset('koikoi-online'));
    assert.ok(online.length >= 8);
    assert.ok(online.some((l) => l.includes(lang === 'en' ? 'Starting pool: 25 points (Nintendo: none, scores add up from 0)' : '持ち点: 25点（任天堂: なし、得点は0から累計）')), online.join('\n'));
    for (const line of online) assert.doesNotMatch(line, /^[a-z_]+:/, `a switch without words: ${line}`);
    const japan = changeLines(preset('koikoi-japan'));
    assert.ok(japan.length >= 10, japan.join('\n'));
    for (const line of japan) assert.doesNotMatch(line, /^[a-z_]+:/, `a switch without words: ${line}`);
  }
  setLang('en');
});

test('every switch has words on the page, in both languages', () => {
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    for (const sw of ALL_SWITCHES) {
      if (sw.name === 'name') continue;
      const key = /** @type {any} */ (`sw_${sw.name}`);
      assert.notEqual(t(key), key, `${lang}: no words for ${sw.name}`);
    }
  }
  setLang('en');
});

test('koikoi-japan on the page: viewing 1 or 3 by the holder\'s call, the six ribbons on top, the additive bonus, the own last turn, the hand of a month', () => {
  setLang('en');
  const d = preset('koikoi-japan').allSwitches();
  const rows = yakuRows(d);
  const hanami = rows.find((r) => r.id === 'hanami');
  assert.equal(hanami?.points, '1, or 3 after its holder’s own koi-koi');
  assert.equal(rows.find((r) => r.id === 'akatan_aotan')?.rule, 'all six poetry and blue ribbons, on top of akatan and aotan');
  const text = rulesText(preset('koikoi-japan'));
  // The terminal's sentences (rules/describe.py), rendered from the same catalogue entries.
  assert.match(text, /the winner's own calls add 1, 2 or 3 points/);
  assert.match(text, /on each player's own last turn only stop is offered/);
  assert.match(text, /all four cards of a month is shown and dealt again/);
  const nintendo = rulesText(preset('nintendo'));
  assert.doesNotMatch(nintendo, /own calls add|own last turn|shown and dealt again|single highest/);
  // single_yaku in both readings
  const pile = rulesText(preset('nintendo').withSwitches({ single_yaku: true }));
  assert.match(pile, /the base \(the single highest yaku\)/);
  const ext = rulesText(preset('nintendo').withSwitches({ single_yaku: true, single_yaku_scope: 'extensions' }));
  assert.match(ext, /of a yaku and its extensions only the highest counts/);
  setLang('ja');
  assert.equal(yakuRows(d).find((r) => r.id === 'tsukimi')?.points, '1点、持ち主がこいこいした後は3点');
  setLang('en');
});

test('the page\'s title lists the rules and the length as the language lists them', () => {
  const d = { name: 'nintendo', rounds: 1, target_score: 0 };
  setLang('en');
  assert.equal(rulesTitle(d, false), 'Rules: Nintendo, 1 round');
  // A Japanese list takes 、, not a Western comma (QA: "ルール: 任天堂, 1回戦").
  setLang('ja');
  assert.equal(rulesTitle(d, false), 'ルール: 任天堂、1回戦');
  assert.equal(rulesTitle({ ...d, rounds: 12 }, true), 'ルール: 任天堂（変更あり）、12回戦（1年分）');
  setLang('en');
});

// Every rules vector of spec/vectors/rules/ through the JavaScript engine (spec/rules.md §13):
// scoring (against the engine and an independent scorer), perft counts, whole games for viewer
// null, 0 and 1, and the actions each game must refuse.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  CARDS, RoundState, actionFromDict, baseOf, cardIndex, perft, preset, replayRound, resultToDict, roundScore, scoreYaku,
} from '../../src/rules/index.js';
import { loadVector, vectorFiles } from './support.js';

/** The files this test knows how to run; a new file must be added here (and run). */
const KNOWN = ['games.json', 'perft.json', 'scoring.json', 'switches.json', 'describe.json']; // describe.json: describe.test.js

test('every file of spec/vectors/rules is run by this test', () => {
  assert.deepEqual(vectorFiles().filter((f) => !KNOWN.includes(f)), []);
});

/**
 * An independent plain scorer of spec/rules.md §6-§7, written without the engine's code: it
 * looks at card ids and classes and applies each paragraph literally.
 * @param {string[]} ids
 * @param {import('../../src/rules/index.js').Profile} p
 * @param {number | null} month
 * @param {boolean} [called] the pile's holder has called (viewing_by_call)
 */
function plainScore(ids, p, month, called = false) {
  const has = (/** @type {string} */ id) => ids.includes(id);
  const of = (/** @type {string} */ kind) => ids.filter((id) => CARDS.find((c) => c.id === id)?.kind === kind).length;
  /** @param {boolean} jokerAsPlain */
  const allocate = (jokerAsPlain) => {
    let a = of('animal');
    const r = of('ribbon');
    let pl = of('plain') + (has('09-cup') && p.cup_is_plain ? 1 : 0);
    if (jokerAsPlain) { a -= 1; pl += 1; }
    /** @type {[string, number][]} */
    const y = [];
    const brights = ['01-crane', '03-curtain', '08-moon', '11-rainman', '12-phoenix'].filter(has);
    const rain = has('11-rainman');
    if (brights.length === 5) y.push(['goko', p.bright_values[0]]);
    if (brights.length === 4 && !rain) y.push(['shiko', p.bright_values[1]]);
    if (brights.length === 4 && rain) y.push(['ame_shiko', p.bright_values[2]]);
    if (brights.length === 3 && !rain) y.push(['sanko', p.bright_values[3]]);
    const ino = has('07-boar') && has('10-deer') && has('06-butterflies');
    const aka = has('01-poetry') && has('02-poetry') && has('03-poetry');
    const ao = has('06-blue') && has('09-blue') && has('10-blue');
    const named = [];
    if (ino) named.push(['inoshikacho', 5 + (p.named_extension ? a - 3 : 0)]);
    if (aka && ao && p.ribbon_pair === 'chofuku_10') named.push(['akatan_aotan', 10 + (p.named_extension ? r - 6 : 0)]);
    else {
      if (aka) named.push(['akatan', 5 + (p.named_extension ? r - 3 : 0)]);
      if (ao) named.push(['aotan', 5 + (p.named_extension ? r - 3 : 0)]);
      if (aka && ao && p.akatan_aotan_on_top) named.push(['akatan_aotan', 10 + (p.named_extension ? r - 6 : 0)]);
    }
    if (a >= 5 && !(ino && !p.tane_with_inoshikacho)) named.push(['tane', a - 4]);
    if (r >= 5 && !((aka || ao) && !p.tan_with_ribbon_yaku)) named.push(['tan', r - 4]);
    if (pl >= 10) named.push(['kasu', pl - 9]);
    const basic = y.length + named.length > 0;
    const viewOk = p.viewing === 'always' || (p.viewing === 'bonus_only' && basic);
    const view = p.viewing_by_call ? (called ? 3 : 1) : 5;
    if (viewOk && has('09-cup') && has('03-curtain')) y.push(['hanami', view]);
    if (viewOk && has('09-cup') && has('08-moon')) y.push(['tsukimi', view]);
    y.push(.../** @type {[string, number][]} */ (named));
    if (p.monthly_yaku_points > 0) {
      const months = [];
      for (let m = 1; m <= 12; m++) if (ids.filter((id) => Number(id.slice(0, 2)) === m).length === 4) months.push(m);
      const n = p.monthly_yaku_scope === 'any_month' ? months.length : (months.includes(/** @type {number} */ (month)) ? 1 : 0);
      if (n > 0) y.push(['tsukifuda', n * p.monthly_yaku_points]);
    }
    return y;
  };
  let yaku = allocate(false);
  const total = (/** @type {[string, number][]} */ y) => y.reduce((s, [, v]) => s + v, 0);
  if (p.joker_card !== '' && has(p.joker_card)) {
    const alt = allocate(true);
    if (total(alt) > total(yaku)) yaku = alt;
  }
  return Object.fromEntries(yaku);
}

describe('scoring.json', () => {
  const v = loadVector('scoring.json');
  test('every case: yaku (in spec order), base and round score, engine and independent scorer', () => {
    assert.ok(v.cases.length > 0);
    for (const c of v.cases) {
      const p = preset(c.preset);
      // The pile is the winner's; it has called when it is among the calls (viewing_by_call).
      const called = c.calls.includes(c.winner);
      const yaku = scoreYaku(c.cards, p, c.month, called);
      const label = `${c.preset}: ${c.comment ?? c.cards.join(' ')}`;
      assert.deepEqual(Object.entries(yaku), Object.entries(c.yaku), label);
      assert.equal(baseOf(yaku), c.base, label);
      assert.equal(roundScore(c.base, c.calls, c.winner, p), c.round_score, label);
      assert.deepEqual(plainScore(c.cards.map((/** @type {string} */ x) => CARDS[cardIndex(x)].id), p, c.month, called), c.yaku, `plain scorer: ${label}`);
    }
  });
  test('every invalid case raises its reason', () => {
    assert.ok(v.invalid.length > 0);
    for (const c of v.invalid) {
      assert.throws(() => scoreYaku(c.cards, preset(c.preset), c.month), (e) => /** @type {any} */ (e).reason === c.error, JSON.stringify(c));
    }
  });
});

/**
 * @param {any} m
 */
const move = (m) => ({ seat: m.seat, action: actionFromDict(m.action) });

describe('perft.json', () => {
  const v = loadVector('perft.json');
  for (const c of v.cases) {
    test(`${c.preset} after ${c.prefix.length} moves`, () => {
      const deck = c.deck.map(cardIndex);
      const s = new RoundState({ profile: preset(c.preset), dealer: c.dealer, viewer: null, roundIndex: 1, month: c.month });
      replayRound(s, deck, c.prefix.map(move));
      assert.deepEqual(perft(s, deck, c.counts.length), c.counts);
    });
  }
});

describe('games.json', () => {
  const v = loadVector('games.json');
  for (const c of v.cases) {
    for (const viewer of [null, 0, 1]) {
      test(`${c.preset} ${c.result.reason}, dealer ${c.dealer}, viewer ${viewer}`, () => {
        const deck = c.deck.map(cardIndex);
        const fresh = () => new RoundState({ profile: preset(c.preset), dealer: c.dealer, viewer, roundIndex: c.round_index, month: c.month });
        const moves = c.moves.map(move);
        const s = fresh();
        replayRound(s, deck, moves);
        assert.equal(s.need, null);
        assert.deepEqual(resultToDict(/** @type {any} */ (s.result)), c.result);
        assert.deepEqual(s.piles, c.piles.map((/** @type {string[]} */ p) => p.map(cardIndex).sort((a, b) => a - b)));
        for (const bad of c.illegal) {
          const t = fresh();
          replayRound(t, deck, moves.slice(0, bad.after));
          assert.throws(() => t.apply(bad.seat, actionFromDict(bad.action)), (e) => /** @type {any} */ (e).reason === bad.error, JSON.stringify(bad));
        }
      });
    }
  }
});

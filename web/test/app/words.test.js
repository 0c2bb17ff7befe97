// The words of the page (issue 24 §6) and the round summary's data (§3): plural forms by the
// language's rules, every violation reason of spec/game.md §9 in words in both languages, the
// score steps that multiply to the rules' round score, and the cards shown for each yaku.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { setLang, t } from '../../app/src/i18n.js';
import { reasonIds, reasonText, tn } from '../../app/src/words.js';
import { applySteps, roundInfo, scoreSteps, withExtras, yakuCards } from '../../app/src/round_info.js';
import { stepText } from '../../app/src/summary.js';
import { PRESETS, preset, withRounds } from '../../src/rules/profile.js';
import { roundScore, scorePile } from '../../src/rules/scoring.js';
import { newRound, playRound } from '../../src/rules/simulate.js';
import { koikoiHint } from '../../app/src/table.js';
import { jitter } from '../../app/src/cards/draw.js';
import { CARDS } from '../../src/api/rules.js';

test('counts take the plural form of the language: 1 point, 2 points; 1点, 2点', () => {
  setLang('en');
  assert.equal(tn('pointsN', 1), '1 point');
  assert.equal(tn('pointsN', 2), '2 points');
  assert.equal(tn('pointsN', 0), '0 points');
  assert.equal(tn('roundsLeftN', 1), '1 round left');
  assert.equal(tn('opponentHandN', 1), "Opponent's hand: 1 card");
  assert.equal(tn('stepCallsN', 2, { m: 3 }), '×3: 2 koi-koi calls this round');
  setLang('ja');
  assert.equal(tn('pointsN', 1), '1点');
  assert.equal(tn('roundsLeftN', 3), '残り3回戦');
  setLang('en');
});

test('every violation reason of spec/game.md §9 has words in English and Japanese, never its id', () => {
  const spec = readFileSync(path.join(REPO, 'spec', 'game.md'), 'utf8');
  const section = spec.slice(spec.indexOf('## 9. Violation reasons'), spec.indexOf('\n## 10'));
  const ids = [...new Set([...section.matchAll(/`([a-z][a-z_]+)`/g)].map((m) => m[1]))];
  assert.ok(ids.length >= 20, `found ${ids.length} reasons`);
  const { en, ja } = reasonIds();
  assert.deepEqual([...ja].sort(), [...en].sort());
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    for (const id of [...ids, 'terms_refused', 'sas_differs', 'own_timeout', 'abandoned', 'transport_closed', 'internal_error']) {
      const words = reasonText(id);
      assert.notEqual(words, t('reasonUnknown'), `${lang}: no words for ${id}`);
      assert.ok(!words.includes(id), `${lang}: ${id} shows its id`);
    }
    assert.equal(reasonText('no_such_reason_yet'), t('reasonUnknown'));
  }
  setLang('en');
});

test('the Japanese page calls the room host ホスト, never 親 (the dealer)', () => {
  setLang('ja');
  assert.match(t('termsTitle'), /ホスト/);
  assert.match(t('termsOpponent', { who: 'x' }), /^ホスト/);
  for (const k of /** @type {const} */ (['termsTitle', 'termsOpponent'])) assert.doesNotMatch(t(k), /親/);
  assert.equal(t('dealer'), '親');
  setLang('en');
});

test('the score steps of every preset, applied in turn, give the rules\' round score', () => {
  const rnd = jitter(11);
  /** @type {Set<string>} */
  const seen = new Set();
  for (const name of PRESETS) {
    const profile = preset(name);
    for (let i = 0; i < 200; i++) {
      const base = 1 + Math.floor(rnd() * 12);
      // up to 7 calls, so that koikoi-japan's x(n - 2) from four own calls on comes up too
      const calls = Array.from({ length: Math.floor(rnd() * (name === 'koikoi-japan' ? 8 : 4)) }, () => (rnd() < 0.5 ? 0 : 1));
      const winner = rnd() < 0.5 ? 0 : 1;
      const steps = scoreSteps(base, calls, winner, profile);
      const expected = roundScore(base, calls, winner, profile);
      assert.equal(applySteps(base, steps), expected, `${name} base ${base} calls ${calls} winner ${winner}`);
      assert.ok(expected === base || steps.length > 0, `${name}: a score that differs from its base has steps`);
      assert.ok(steps.every((s) => (s.add === undefined ? s.factor > 1 : s.factor === 1 && s.add > 0)), 'no step of x1 or +0');
      for (const s of steps) seen.add(s.why);
    }
  }
  for (const why of ['own_calls_add', 'own_calls_times', 'opponent_called', 'calls_shared', 'own_call', 'doubling']) assert.ok(seen.has(why), why);
});

test('koikoi-japan\'s additive bonus in words: +2 for two own calls, x3 for five; the opponent\'s calls add nothing', () => {
  const profile = preset('koikoi-japan');
  assert.deepEqual(scoreSteps(6, [0, 1, 0], 0, profile), [{ factor: 1, add: 2, why: 'own_calls_add', n: 2 }]);
  assert.deepEqual(scoreSteps(6, [1, 1], 0, profile), []);
  assert.deepEqual(scoreSteps(6, [0, 0, 0, 0, 0], 0, profile), [{ factor: 3, why: 'own_calls_times', n: 5 }]);
  assert.equal(roundScore(6, [0, 1, 0], 0, profile), 8);
  const res = { calls: [0, 1, 0], base: 6, points: 8 };
  setLang('en');
  assert.equal(stepText({ factor: 1, add: 2, why: 'own_calls_add', n: 2 }, res, 0, ['Ann', 'Bo']), '+2: Ann’s 2 own koi-koi calls');
  assert.equal(stepText({ factor: 1, add: 1, why: 'own_calls_add', n: 1 }, res, 0, ['Ann', 'Bo']), '+1: Ann’s own koi-koi call');
  assert.equal(stepText({ factor: 3, why: 'own_calls_times', n: 5 }, res, 1, ['Ann', 'Bo']), '×3: Bo’s 5 own koi-koi calls');
  setLang('ja');
  assert.equal(stepText({ factor: 1, add: 2, why: 'own_calls_add', n: 2 }, res, 0, ['Ann', 'Bo']), '+2: Ann自身のこいこい2回');
  setLang('en');
});

test('the cards shown for a yaku are in the pile and make that yaku by themselves', () => {
  const profile = preset('nintendo');
  const rnd = jitter(5);
  let seen = 0;
  for (let i = 0; i < 400; i++) {
    const pile = Array.from({ length: 48 }, (_, c) => c).filter(() => rnd() < 0.45);
    const { yaku } = scorePile(pile, profile, 1);
    for (const id of Object.keys(yaku)) {
      const cards = yakuCards(id, pile, profile, 1);
      assert.ok(cards.length > 0 && cards.every((c) => pile.includes(c)), id);
      assert.ok(id in scorePile(cards, profile, 1).yaku || id === 'tsukimi' || id === 'hanami', `${id} from ${cards}`);
      seen++;
    }
  }
  assert.ok(seen > 100);
});

test('a named yaku that counts further cards shows them: as many as its points count, of its kind', () => {
  const rnd = jitter(11);
  let extended = 0;
  for (const name of PRESETS) {
    const profile = preset(name);
    for (let i = 0; i < 300; i++) {
      const pile = Array.from({ length: 48 }, (_, c) => c).filter(() => rnd() < 0.5);
      const { yaku } = scorePile(pile, profile, 1);
      for (const id of ['inoshikacho', 'akatan', 'aotan', 'akatan_aotan']) {
        if (!(id in yaku)) continue;
        const own = yakuCards(id, pile, profile, 1);
        const shown = withExtras(id, own, pile, yaku[id]);
        const kind = id === 'inoshikacho' ? 'animal' : 'ribbon';
        const more = shown.slice(own.length);
        assert.deepEqual(shown.slice(0, own.length), own, id);
        assert.equal(more.length, yaku[id] - (id === 'akatan_aotan' ? 10 : 5), `${name} ${id} ${yaku[id]}: ${shown}`);
        assert.ok(more.every((c) => pile.includes(c) && !own.includes(c) && CARDS[c].kind === kind), `${id}: ${more}`);
        assert.equal(new Set(shown).size, shown.length);
        if (more.length) extended++;
      }
    }
  }
  assert.ok(extended > 50, `${extended} piles with further cards`);
  // Nothing added to the others, nor without further points.
  assert.deepEqual(withExtras('tane', [20, 24], [20, 24, 36], 9), [20, 24]);
  assert.deepEqual(withExtras('inoshikacho', [20, 24, 36], [20, 24, 36, 32], 5), [20, 24, 36]);
  // The sake cup comes last: it is the animal a cup counted as a plain leaves out.
  assert.deepEqual(withExtras('inoshikacho', [20, 24, 36], [20, 24, 36, 32, 4], 6), [20, 24, 36, 4]);
});

test('a round summary\'s data: the winner\'s yaku with cards, points moved, rounds left', () => {
  const profile = withRounds(preset('nintendo'), 6);
  const pile = [0, 8, 28, 3, 7];
  const result = { winner: 1, points: 6, yaku: { sanko: 6 }, base: 6, calls: [], redeal: false, next_dealer: 1, reason: 'stop', consumes_round: true };
  const view = { piles: [[4], pile], yaku: [{}, { sanko: 6 }], month: 2 };
  const info = roundInfo({ result, scores: [10, 16], roundIndex: 3, deal: 3 }, view, profile, [10, 10], { roundsPlayed: 3, over: false });
  assert.deepEqual(info.yaku[1], [{ id: 'sanko', points: 6, cards: [0, 8, 28] }]);
  assert.deepEqual(info.yaku[0], []);
  assert.deepEqual(info.moved, [0, 6]);
  assert.equal(info.roundsLeft, 3);
  assert.equal(info.last, false);
});

test('the koi-koi question knows when the caller has no card left (a call cannot bring another yaku)', () => {
  const profile = preset('nintendo');
  const rnd = jitter(23);
  let empty = 0;
  let held = 0;
  for (let i = 0; i < 400 && !(empty && held); i++) {
    const state = newRound(profile, { dealer: i % 2 });
    const deck = Array.from({ length: 48 }, (_, c) => c).sort(() => rnd() - 0.5);
    playRound(state, deck, (st, options) => {
      const need = /** @type {any} */ (st.need);
      if (need.kind === 'decide') {
        const hint = koikoiHint(st, need.seat);
        assert.equal(hint.handEmpty, st.view(need.seat).hand.length === 0);
        if (hint.handEmpty) empty++; else held++;
      }
      return options[Math.floor(rnd() * options.length)];
    });
  }
  assert.ok(empty > 0 && held > 0, `${empty} questions with an empty hand, ${held} with cards`);
});

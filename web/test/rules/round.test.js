// Unit tests of the round (spec/rules.md §9, §10) on arranged decks.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  KOIKOI, NO_HAND_YAKU, STOP, RoundState, actionToDict, arrangedDeck, capture, claimHandYaku, dealLayout, play,
  preset, runRevealed,
} from '../../src/rules/index.js';

/**
 * @param {import('../../src/rules/index.js').Profile} profile
 * @param {number[]} deck
 * @param {{dealer?: number, viewer?: number | null}} [opts]
 */
function start(profile, deck, { dealer = 0, viewer = null } = {}) {
  const s = new RoundState({ profile, dealer, viewer, roundIndex: 1, month: 1 });
  runRevealed(s, deck);
  return s;
}

/** @param {RoundState} s */
const legal = (s) => s.legalActions().map((a) => JSON.stringify(actionToDict(a)));

// Seat 0 deals: its hand is positions 4,5,10,11,16,17,22,23 (spec/rules.md §5.2).
const TESHI = ['01-crane', '01-poetry', '01-plain1', '01-plain2', '02-warbler', '03-curtain', '04-cuckoo', '05-bridge'];
const PLAIN8 = ['06-plain1', '07-plain1', '08-plain1', '09-plain1', '10-plain1', '11-lightning', '12-plain1', '05-plain2'];
const FIELD = ['10-plain2', '11-swallow', '12-plain2', '04-plain1', '05-plain1', '02-plain1', '06-plain2', '07-plain2'];

describe('the deal', () => {
  test('positions of §5.2 for both dealers', () => {
    assert.deepEqual(dealLayout(0).hands[1], [0, 1, 6, 7, 12, 13, 18, 19]);
    assert.deepEqual(dealLayout(0).field, [2, 3, 8, 9, 14, 15, 20, 21]);
    assert.deepEqual(dealLayout(0).hands[0], [4, 5, 10, 11, 16, 17, 22, 23]);
    assert.deepEqual(dealLayout(1).hands[1], dealLayout(0).hands[0]);
    assert.equal(dealLayout(1).stock[0], 24);
    assert.throws(() => dealLayout(2), { reason: 'bad_seat' });
  });

  test('reveals are asked field, hand 0 to seat 0, hand 1 to seat 1, in any order within a need', () => {
    const s = new RoundState({ profile: preset('wikipedia'), dealer: 1, viewer: 0, roundIndex: 1, month: 1 });
    assert.deepEqual(s.need, { type: 'reveal', positions: [2, 3, 8, 9, 14, 15, 20, 21], to: null });
    const deck = arrangedDeck(1, [PLAIN8, TESHI], FIELD);
    for (const p of [21, 2, 15, 3, 8, 9, 14, 20]) s.reveal(p, deck[p]);
    assert.deepEqual(s.need, { type: 'reveal', positions: [0, 1, 6, 7, 12, 13, 18, 19], to: 0 });
    assert.throws(() => s.skipReveal(), { reason: 'unexpected_reveal' });
    for (const p of dealLayout(1).hands[0]) s.reveal(p, deck[p]);
    assert.deepEqual(s.need, { type: 'reveal', positions: [4, 5, 10, 11, 16, 17, 22, 23], to: 1 });
    assert.throws(() => s.reveal(4, deck[4]), { reason: 'unexpected_reveal' });
    s.skipReveal();
    assert.deepEqual(s.need, { type: 'action', seat: 1, kind: 'play' });
    assert.equal(legal(s).length, 8, 'a hidden hand: every position is a play');
  });

  test('reveal errors: unexpected position, bad card, mismatch, card twice', () => {
    const s = new RoundState({ profile: preset('nintendo'), dealer: 0, viewer: null, roundIndex: 1, month: 1 });
    assert.throws(() => s.reveal(0, 1), { name: 'RulesError', reason: 'unexpected_reveal' });
    assert.throws(() => s.reveal(2, 48), { name: 'InconsistentReveal', reason: 'bad_card' });
    s.reveal(2, 5);
    assert.throws(() => s.reveal(2, 5), { reason: 'unexpected_reveal' });
    assert.throws(() => s.reveal(3, 5), { name: 'InconsistentReveal', reason: 'card_twice' });
  });

  test('a field with a whole month: redeal by the same dealer, or play on', () => {
    const field = ['01-crane', '01-poetry', '01-plain1', '01-plain2', ...FIELD.slice(0, 4)];
    const deck = arrangedDeck(1, [PLAIN8, TESHI.slice(4).concat(['10-deer', '10-blue', '11-rainman', '11-ribbon'])], field);
    const s = start(preset('nintendo'), deck, { dealer: 1 });
    assert.equal(s.result?.reason, 'field_month');
    assert.deepEqual([s.result?.redeal, s.result?.next_dealer, s.result?.consumes_round], [true, 1, false]);
    assert.equal(start(preset('classic-variant'), deck, { dealer: 1 }).result?.consumes_round, true);
    const on = start(preset('nintendo').withSwitches({ field_whole_month: 'play_on' }), deck, { dealer: 1 });
    assert.equal(on.need?.type, 'action');
  });
});

describe('hand yaku (spec/rules.md §9.7)', () => {
  const deck = arrangedDeck(0, [TESHI, PLAIN8], FIELD);
  const claim = claimHandYaku('teshi', [4, 5, 10, 11]);

  test('a held teshi must be claimed; the claim wins 6, never multiplied', () => {
    const s = start(preset('nintendo'), deck);
    assert.deepEqual(legal(s), [JSON.stringify(actionToDict(claim))]);
    assert.throws(() => s.apply(0, NO_HAND_YAKU), { reason: 'missed_hand_yaku' });
    assert.throws(() => s.apply(0, claimHandYaku('teshi', [4, 5, 10, 16])), { reason: 'false_hand_yaku' });
    assert.throws(() => s.apply(0, claimHandYaku('teshi', [0, 1, 6, 7])), { reason: 'not_in_hand' });
    assert.throws(() => s.apply(0, claimHandYaku('tenho', [4, 5, 10, 11])), { reason: 'bad_hand_yaku' });
    assert.throws(() => s.apply(0, claimHandYaku('kuttsuki', [4, 5, 10, 11])), { reason: 'false_hand_yaku' });
    assert.throws(() => s.apply(1, NO_HAND_YAKU), { reason: 'not_your_turn' });
    assert.throws(() => s.apply(0, play(4)), { reason: 'wrong_action' });
    s.apply(0, claim);
    assert.deepEqual(s.need, { type: 'reveal', positions: [4, 5, 10, 11], to: null });
    runRevealed(s, deck);
    assert.deepEqual(s.need, { type: 'action', seat: 1, kind: 'hand_yaku' });
    s.apply(1, NO_HAND_YAKU);
    assert.deepEqual(s.result, {
      winner: 0, points: 6, yaku: { teshi: 6 }, base: 6, calls: [], redeal: false, next_dealer: 0,
      reason: 'hand_yaku', consumes_round: true,
    });
  });

  test('an opponent sees only NoHandYaku, and a false claim fails when its cards are revealed', () => {
    const s = start(preset('nintendo'), deck, { viewer: 1 });
    assert.deepEqual(legal(s), [JSON.stringify(actionToDict(NO_HAND_YAKU))]);
    s.apply(0, claimHandYaku('teshi', [4, 5, 10, 16]));
    for (const p of [4, 5, 10]) s.reveal(p, deck[p]);
    assert.throws(() => s.reveal(16, deck[16]), { name: 'IllegalMove', reason: 'false_hand_yaku' });
    const t = start(preset('nintendo'), deck, { viewer: 1 });
    t.apply(0, NO_HAND_YAKU); // the opponent cannot know: checked in the replay (§10.4)
    assert.deepEqual(t.need, { type: 'action', seat: 1, kind: 'hand_yaku' });
  });

  test('both seats claim: void and redeal, or the dealer wins', () => {
    const both = arrangedDeck(0, [TESHI, ['08-moon', '08-geese', '08-plain1', '08-plain2', ...PLAIN8.slice(4)]], FIELD);
    /** @type {Array<[string, string, number | null]>} */
    const cases = [['void_redeal', 'both_hand_yaku', null], ['dealer', 'hand_yaku', 0]];
    for (const [rule, reason, winner] of cases) {
      const s = start(preset('nintendo').withSwitches({ hand_yaku_both: rule }), both);
      s.apply(0, claim);
      runRevealed(s, both);
      s.apply(1, /** @type {any} */ (s.legalActions()[0]));
      runRevealed(s, both);
      assert.equal(s.result?.reason, reason);
      assert.equal(s.result?.winner, winner);
    }
  });

  test('board-game: the highest hand yaku must be claimed (double tenho over tenho)', () => {
    const hand = ['01-crane', '01-poetry', '01-plain1', '01-plain2', '03-curtain', '03-poetry', '03-plain1', '03-plain2'];
    const s = start(preset('board-game'), arrangedDeck(0, [hand, PLAIN8], FIELD));
    assert.deepEqual(legal(s), [JSON.stringify(actionToDict(claimHandYaku('double_tenho', [4, 5, 10, 11, 16, 17, 22, 23])))]);
    assert.throws(() => s.apply(0, claimHandYaku('tenho', [4, 5, 10, 11])), { reason: 'lesser_hand_yaku' });
  });
});

describe('turns and decisions', () => {
  // Seat 0 holds the cherry curtain and the sake cup's month mates; the field offers matches.
  const hand0 = ['03-curtain', '09-cup', '08-moon', '01-crane', '12-phoenix', '11-rainman', '02-warbler', '04-cuckoo'];
  const field = ['03-plain1', '09-plain1', '08-plain1', '01-plain1', '12-plain1', '11-lightning', '02-plain1', '04-plain1'];
  const hand1 = ['05-plain1', '05-plain2', '06-plain1', '06-plain2', '07-plain1', '07-plain2', '10-plain1', '10-plain2'];
  const deck = arrangedDeck(0, [hand0, hand1], field, ['05-bridge', '06-blue', '07-ribbon', '10-blue', '05-ribbon', '06-butterflies', '07-boar', '10-deer']);
  const profile = preset('wikipedia').withSwitches({ hand_capture: 'free' });

  test('a matching card captures; the stock card follows; a yaku asks for a decision', () => {
    const s = start(profile, deck);
    assert.deepEqual(s.need, { type: 'action', seat: 0, kind: 'play' });
    assert.equal(legal(s).length, 8);
    s.apply(0, play(4)); // cherry curtain takes the cherry plain
    runRevealed(s, deck);
    assert.deepEqual(s.piles[0], [8, 10]);
    assert.deepEqual(s.need, { type: 'action', seat: 1, kind: 'play' });
    s.apply(1, play(0));
    runRevealed(s, deck);
    s.apply(0, play(5)); // sake cup: hanami
    runRevealed(s, deck);
    assert.deepEqual(s.need, { type: 'action', seat: 0, kind: 'decide' });
    assert.deepEqual(legal(s), [STOP, KOIKOI].map((a) => JSON.stringify(a)));
    s.apply(0, KOIKOI);
    assert.deepEqual(s.calls, [0]);
  });

  test('with the call limit used and play going on, Stop is still asked, alone', () => {
    const p = profile.withSwitches({ max_calls_per_round: 1 });
    const s = start(p, deck);
    for (const [seat, pos] of [[0, 4], [1, 0], [0, 5]]) { s.apply(seat, play(pos)); runRevealed(s, deck); }
    s.apply(0, KOIKOI);
    s.apply(1, play(1)); runRevealed(s, deck);
    s.apply(0, play(10)); runRevealed(s, deck); // the moon: tsukimi, an improvement
    assert.deepEqual(s.need, { type: 'action', seat: 0, kind: 'decide' });
    assert.deepEqual(legal(s), [JSON.stringify(STOP)]);
    assert.throws(() => s.apply(0, KOIKOI), { reason: 'no_call_left' });
    s.apply(0, STOP);
    assert.equal(s.result?.reason, 'stop');
    assert.deepEqual(s.result?.yaku, { hanami: 5, tsukimi: 5 });
    assert.equal(s.result?.points, 20, 'base 10 doubles (threshold 7); own call does not multiply');
  });

  test('nintendo: after a call the next improvement ends the round', () => {
    const s = start(preset('nintendo').withSwitches({ hand_yaku: {} }), deck);
    for (const [seat, pos] of [[0, 4], [1, 0], [0, 5]]) { s.apply(seat, play(pos)); runRevealed(s, deck); }
    s.apply(0, KOIKOI);
    s.apply(1, play(1)); runRevealed(s, deck);
    s.apply(0, play(10)); runRevealed(s, deck);
    assert.equal(s.result?.reason, 'auto_end');
  });

  test('compulsory matching: checked for a known hand, not for a hidden one', () => {
    const noMatch = arrangedDeck(0, [['05-bridge', ...hand0.slice(1)], hand1], field);
    const p = preset('teaching-card').withSwitches({ hand_yaku: {} });
    const s = start(p, noMatch);
    assert.throws(() => s.apply(0, play(4)), { reason: 'must_capture' });
    assert.equal(legal(s).length, 7);
    const hidden = start(p, noMatch, { viewer: 1 });
    hidden.apply(0, play(4));
    assert.deepEqual(hidden.need, { type: 'reveal', positions: [4], to: null });
  });

  test('two matching field cards: the seat chooses', () => {
    const two = arrangedDeck(0, [hand0, hand1], ['03-plain1', '03-plain2', ...field.slice(2)]);
    const s = start(profile, two);
    s.apply(0, play(4));
    runRevealed(s, two);
    assert.deepEqual(s.need, { type: 'action', seat: 0, kind: 'capture' });
    assert.deepEqual(legal(s), [capture(10), capture(11)].map((a) => JSON.stringify(actionToDict(a))));
    assert.throws(() => s.apply(0, capture(9)), { reason: 'bad_capture' });
    const before = JSON.stringify([s.field, s.piles, s.need]);
    assert.throws(() => s.apply(0, STOP), { reason: 'wrong_action' });
    assert.equal(JSON.stringify([s.field, s.piles, s.need]), before, 'a refused action changes nothing');
    s.apply(0, capture(11));
    assert.deepEqual(s.piles[0], [8, 11]);
  });

  test('a finished round refuses everything', () => {
    const s = start(preset('nintendo'), arrangedDeck(0, [TESHI, PLAIN8], FIELD));
    s.apply(0, claimHandYaku('teshi', [4, 5, 10, 11]));
    runRevealed(s, arrangedDeck(0, [TESHI, PLAIN8], FIELD));
    s.apply(1, NO_HAND_YAKU);
    assert.ok(s.over);
    assert.deepEqual(s.legalActions(), []);
    assert.throws(() => s.apply(0, STOP), { reason: 'not_your_turn' });
    assert.throws(() => s.skipReveal(), { reason: 'unexpected_reveal' });
  });

  test('constructor checks', () => {
    const p = preset('nintendo');
    assert.throws(() => new RoundState({ profile: p, dealer: 2, viewer: null, roundIndex: 1, month: 1 }), { reason: 'bad_seat' });
    assert.throws(() => new RoundState({ profile: p, dealer: 0, viewer: 2, roundIndex: 1, month: 1 }), { reason: 'bad_seat' });
    assert.throws(() => new RoundState({ profile: p, dealer: 0, viewer: 0, roundIndex: 0, month: 1 }), { reason: 'bad_round' });
    assert.throws(() => new RoundState({ profile: p, dealer: 0, viewer: 0, roundIndex: 1, month: 13 }), { reason: 'bad_month' });
  });
});

test("a seat's engine shows only its own side", () => {
  const s = new RoundState({ profile: preset('nintendo'), dealer: 0, viewer: 1, roundIndex: 1, month: 1 });
  assert.equal(s.view().seat, 1);
  assert.throws(() => s.view(0), { reason: 'bad_seat' });
  const audit = new RoundState({ profile: preset('nintendo'), dealer: 0, viewer: null, roundIndex: 1, month: 1 });
  assert.equal(audit.view(0).seat, 0);
  assert.equal(audit.view(1).seat, 1);
});

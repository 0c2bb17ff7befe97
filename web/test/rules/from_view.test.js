// RoundState.fromView (a determinisation for searching players): staged from a seat's view and the
// true hidden cards, the state plays on exactly as the real round does, whatever is chosen; the
// hidden cards are checked to be exactly the unseen ones.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS, RoundState, RulesError, preset, runRevealed } from '../../src/rules/index.js';
import { Rng } from '../../src/ai/rng.js';

/**
 * What the auditor's engine shows publicly, and everything a seat's state holds, to compare.
 * @param {RoundState} s
 */
const record = (s) => {
  const v = s.view(0);
  return JSON.stringify([s.need, s.legalActions(), v.field, v.piles, v.bases, v.calls, v.stockCount, s.result,
    s.view(0).hand, s.view(1).hand]);
};

/**
 * The hidden cards of `seat` in the true deck: the opponent's hand, then the stock in draw order.
 * @param {RoundState} truth an auditor's engine
 * @param {readonly number[]} deck the true deck
 * @param {0 | 1} seat
 */
function hiddenOf(truth, deck, seat) {
  const opp = truth.hands[1 - seat].map((p) => deck[p]);
  const stock = truth.layout.stock.slice(truth.stockNext).map((p) => deck[p]);
  return [...opp, ...stock];
}

test('fromView plays on as the real round, under every preset', () => {
  const rng = new Rng('from-view');
  let staged = 0;
  for (const name of PRESETS) {
    const profile = preset(name);
    for (let g = 0; g < 20; g++) {
      const deck = rng.shuffle(Array.from({ length: 48 }, (_, i) => i));
      const dealer = /** @type {0 | 1} */ (g % 2);
      const truth = new RoundState({ profile, dealer, viewer: null, roundIndex: 1 + (g % 12), month: 1 + (g % 12) });
      /** @type {RoundState[]} */
      const seats = [0, 1].map((s) => new RoundState({ profile, dealer, viewer: s, roundIndex: 1 + (g % 12), month: 1 + (g % 12) }));
      for (const e of [truth, ...seats]) runRevealed(e, deck);
      while (truth.need !== null) {
        const need = /** @type {import('../../src/rules/round.js').NeedAction} */ (truth.need);
        if (need.kind !== 'hand_yaku' && rng.below(3) === 0) {
          const seat = need.seat;
          const view = seats[seat].view(seat);
          const copy = RoundState.fromView(view, profile, hiddenOf(truth, deck, seat));
          staged++;
          // Both go on with the same random choices to the end of the round.
          const real = truth.copy();
          const branch = new Rng(`branch/${staged}`);
          while (real.need !== null) {
            assert.equal(record(copy), record(real));
            if (real.need.type === 'reveal') {
              for (const p of real.need.positions) real.reveal(p, deck[p]);
              assert.ok(copy.revealKnown());
              continue;
            }
            const a = branch.choice(real.legalActions());
            real.apply(real.need.seat, a);
            copy.apply(/** @type {0 | 1} */ (copy.need?.type === 'action' ? copy.need.seat : 0), a);
          }
          assert.equal(record(copy), record(real));
        }
        const action = rng.choice(truth.legalActions());
        for (const e of [truth, ...seats]) { e.apply(need.seat, action); runRevealed(e, deck); }
      }
    }
  }
  assert.ok(staged > 200, `only ${staged} states staged`);
});

test('fromView refuses hidden cards that are not exactly the unseen ones', () => {
  const profile = preset('nintendo');
  const deck = new Rng('from-view/bad').shuffle(Array.from({ length: 48 }, (_, i) => i));
  const truth = new RoundState({ profile, dealer: 0, viewer: null, roundIndex: 1, month: 1 });
  const seat0 = new RoundState({ profile, dealer: 0, viewer: 0, roundIndex: 1, month: 1 });
  for (const e of [truth, seat0]) runRevealed(e, deck);
  while (truth.need?.type === 'action' && truth.need.kind === 'hand_yaku') {
    const a = truth.legalActions()[0];
    const s = truth.need.seat;
    for (const e of [truth, seat0]) { e.apply(s, a); runRevealed(e, deck); }
  }
  const view = seat0.view(0);
  const hidden = hiddenOf(truth, deck, 0);
  assert.ok(RoundState.fromView(view, profile, hidden));
  const bad = (/** @type {number[]} */ h) => assert.throws(() => RoundState.fromView(view, profile, h), (e) => e instanceof RulesError && e.reason === 'bad_view');
  bad(hidden.slice(1));
  bad([view.field[0], ...hidden.slice(1)]);
  bad([hidden[1], ...hidden.slice(1)]);
  const decideView = { ...view, need: { type: /** @type {const} */ ('reveal'), positions: [0], to: null } };
  assert.throws(() => RoundState.fromView(decideView, profile, hidden), (e) => e instanceof RulesError && e.reason === 'bad_view');
});

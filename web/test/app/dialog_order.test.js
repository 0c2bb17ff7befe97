// The order of the page's dialogs (app/src/dialog_order.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wantedDialog } from '../../app/src/dialog_order.js';

const none = { sasConfirmed: true, confirmingResign: false, termsAnswered: true, shownRound: 0 };
const round1 = { deal: 1, result: { winner: 0 } };
const claim = { kind: 'hand_yaku', options: [{ type: 'claim_hand_yaku' }, { type: 'no_hand_yaku' }] };
const only = { kind: 'hand_yaku', options: [{ type: 'no_hand_yaku' }] };

test("the last round's summary comes before the next deal's dealt-hand question", () => {
  // Deal 2 asks about a dealt-hand yaku while deal 1's summary is unread (QA: the question pushed
  // the summary aside, and the summary came back over the next deal's board).
  const table = { mode: 'online', deal: 2, ask: claim, lastRound: round1 };
  assert.equal(wantedDialog(table, none).kind, 'round');
  assert.equal(wantedDialog(table, { ...none, shownRound: 1 }).kind, 'hand');
  // With nothing to claim the question is answered for the person at once, summary or not.
  assert.deepEqual(wantedDialog({ ...table, ask: only }, none), { kind: 'round', round: round1, autoHand: true });
  assert.deepEqual(wantedDialog({ ...table, ask: only }, { ...none, shownRound: 1 }), { kind: null, autoHand: true });
});

test('what outranks a summary: the end, a failure, the security code, a resignation, the terms', () => {
  const table = { mode: 'online', deal: 2, ask: claim, lastRound: round1, paired: { sas: 'abc' } };
  assert.equal(wantedDialog({ ...table, failure: {} }, none).kind, 'failure');
  assert.equal(wantedDialog({ ...table, over: {} }, none).kind, 'over');
  assert.equal(wantedDialog(table, { ...none, sasConfirmed: false }).kind, 'sas');
  assert.equal(wantedDialog(table, { ...none, confirmingResign: true }).kind, 'resign');
  assert.equal(wantedDialog({ ...table, termsProposed: {} }, { ...none, termsAnswered: false }).kind, 'terms');
  // Nothing is answered for the person under those.
  assert.equal(wantedDialog({ ...table, ask: only }, { ...none, sasConfirmed: false }).autoHand, undefined);
  // A koi-koi question of the deal being played comes first.
  assert.equal(wantedDialog({ ...table, ask: { kind: 'decide', options: [] }, hint: {} }, none).kind, 'decide');
  // Practice has no security code.
  assert.equal(wantedDialog({ ...table, mode: 'practice' }, { ...none, sasConfirmed: false }).kind, 'round');
});

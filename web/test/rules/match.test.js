// Unit tests of the match tally (spec/rules.md §11).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { MatchState, makeResult, preset, resultFromDict, resultToDict } from '../../src/rules/index.js';

/**
 * A result as the engine would give it.
 * @param {0 | 1 | null} winner
 * @param {number} points
 * @param {{redeal?: boolean, consumes?: boolean, next?: 0 | 1}} [opts]
 */
function result(winner, points, { redeal = false, consumes = true, next } = {}) {
  return makeResult({
    winner, points, yaku: winner === null ? {} : { kasu: points }, base: winner === null ? 0 : points, calls: [],
    redeal, next_dealer: next ?? (winner ?? 0), reason: redeal ? 'field_month' : winner === null ? 'exhaustion' : 'stop',
    consumes_round: consumes,
  });
}

describe('match', () => {
  test('scores add up; months follow the round index; the winner deals', () => {
    const m = new MatchState(preset('nintendo').withSwitches({ rounds: 14 }), 1);
    assert.deepEqual(m.roundParams(), { roundIndex: 1, dealer: 1, month: 1 });
    for (let i = 0; i < 12; i++) m.record(result(0, 1));
    assert.deepEqual(m.roundParams(), { roundIndex: 13, dealer: 0, month: 1 });
    m.record(result(1, 5));
    assert.deepEqual(m.scores, [12, 5]);
    assert.equal(m.over, false);
    m.record(result(null, 0, { next: 1 }));
    assert.deepEqual([m.over, m.winner], [true, 0]);
    assert.throws(() => m.roundParams(), { reason: 'match_over' });
    assert.throws(() => m.record(result(0, 1)), { reason: 'match_over' });
  });

  test('a redeal keeps the round unless it consumes one; the summary leaves redeals out', () => {
    const m = new MatchState(preset('nintendo'), 0);
    m.record(result(null, 0, { redeal: true, consumes: false }));
    assert.deepEqual(m.roundParams(), { roundIndex: 1, dealer: 0, month: 1 });
    m.record(result(1, 3));
    assert.deepEqual(m.roundSummary(), [[1, 1, 3]]);
    assert.equal(m.deals, 2);
    const c = new MatchState(preset('classic-variant'), 0);
    c.record(result(null, 0, { redeal: true, consumes: true }));
    assert.deepEqual(c.roundParams(), { roundIndex: 2, dealer: 0, month: 2 });
  });

  test('pools: the loser pays, capped at what it has; bust ends the match', () => {
    const m = new MatchState(preset('board-game').withSwitches({ pool_start: 10 }), 0);
    assert.deepEqual(m.scores, [10, 10]);
    m.record(result(0, 7));
    assert.deepEqual(m.scores, [17, 3]);
    m.record(result(0, 7));
    assert.deepEqual(m.scores, [20, 0], 'capped');
    assert.deepEqual([m.over, m.winner], [true, 0]);
    const uncapped = new MatchState(preset('board-game').withSwitches({ pool_start: 10, transfer_cap: false, bust_ends_game: false }), 0);
    uncapped.record(result(1, 14));
    assert.deepEqual(uncapped.scores, [-4, 24]);
    assert.equal(uncapped.over, false);
  });

  test('target score: the higher score wins as soon as one seat reaches it', () => {
    const m = new MatchState(preset('classic-variant'), 0);
    m.record(result(0, 30));
    m.record(result(1, 49));
    assert.equal(m.over, false);
    m.record(result(1, 1));
    assert.deepEqual([m.over, m.winner, m.scores], [true, 1, [30, 50]]);
  });

  test('equal scores: a drawn match, or extra rounds until they differ', () => {
    const drawn = new MatchState(preset('nintendo').withSwitches({ rounds: 2 }), 0);
    drawn.record(result(0, 3));
    drawn.record(result(1, 3));
    assert.deepEqual([drawn.over, drawn.winner], [true, null]);
    const extra = new MatchState(preset('nintendo').withSwitches({ rounds: 2, match_tie: 'extra_round' }), 0);
    extra.record(result(0, 3));
    extra.record(result(1, 3));
    assert.equal(extra.over, false);
    extra.record(result(null, 0, { next: 0 }));
    assert.equal(extra.over, false);
    extra.record(result(1, 1));
    assert.deepEqual([extra.over, extra.winner], [true, 1]);
  });

  test('toDict/fromDict rebuilds the tally; bad data is refused', () => {
    const m = new MatchState(preset('koikoi-online'), 1);
    m.record(result(1, 4));
    const copy = MatchState.fromDict(JSON.parse(JSON.stringify(m.toDict())));
    assert.deepEqual(copy.scores, [21, 29]);
    assert.throws(() => MatchState.fromDict({ profile: preset('nintendo').toDict(), first_dealer: 0 }), { reason: 'bad_match' });
    assert.throws(() => MatchState.fromDict([]), { reason: 'bad_match' });
    assert.throws(() => new MatchState(preset('nintendo'), 2), { reason: 'bad_seat' });
  });

  test('round results: strict wire form', () => {
    const r = resultToDict(result(0, 5));
    assert.deepEqual(resultToDict(resultFromDict(r)), r);
    assert.deepEqual(Object.keys(r), ['winner', 'points', 'yaku', 'base', 'calls', 'redeal', 'next_dealer', 'reason', 'consumes_round']);
    for (const bad of [{ ...r, points: -1 }, { ...r, extra: 1 }, { ...r, winner: 2 }, { ...r, reason: 'won' }, { ...r, yaku: { foo: 1 } }, { ...r, calls: [2] }, null]) {
      assert.throws(() => resultFromDict(bad), { reason: 'bad_result' });
    }
  });
});

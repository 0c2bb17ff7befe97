// The leaderboard's shown ranks (browser QA): players whose shown rating is the same share the
// better rank, instead of the service's order ranking two equal ratings 1 and 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownRanks } from '../../app/src/leaderboard.js';

test('equal shown ratings share the better rank; the next one keeps its place', () => {
  const players = [
    { rank: 1, conservative: 206.31 }, { rank: 2, conservative: 206.29 }, { rank: 3, conservative: 150 },
    { rank: 4, conservative: -110 }, { rank: 5, conservative: -110.04 },
  ];
  assert.deepEqual(shownRanks(players), [1, 1, 3, 4, 4]);
  assert.deepEqual(shownRanks([]), []);
  // A service that sends no rank: the place in its order.
  assert.deepEqual(shownRanks([{ conservative: 5 }, { conservative: 4 }]), [1, 2]);
});

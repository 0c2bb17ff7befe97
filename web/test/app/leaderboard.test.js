// The leaderboard's shown ranks (browser QA): players whose shown rating is the same share the
// better rank, instead of the service's order ranking two equal ratings 1 and 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchBoard, shownRanks } from '../../app/src/leaderboard.js';

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

test('the leaderboard asks which service answers for the relay first, and fetches a board only from one that does', async () => {
  /** @type {string[]} */ const asked = [];
  /** @param {Record<string, {url: string, body: any}>} answers */
  const fake = (answers) => /** @type {any} */ (async (/** @type {string} */ url) => {
    asked.push(url);
    const a = answers[url];
    return a ? { ok: true, status: 200, url: a.url, json: async () => a.body } : { ok: false, status: 404, url, json: async () => ({}) };
  });
  // A relay without a service says so (spec/relay.md §9): no request for a board that is not
  // there (QA: its 404 was logged in the console), and the page says there is no leaderboard.
  const none = fake({ 'http://relay.example:8765/ratings/service': { url: 'http://relay.example:8765/ratings/service', body: { ok: true, service: null } } });
  assert.equal(await fetchBoard('ws://relay.example:8765/v1', none), null);
  assert.deepEqual(asked, ['http://relay.example:8765/ratings/service']);
  // A relay run with --ratings redirects the question to the service's port: the board comes from there.
  asked.length = 0;
  const beside = fake({
    'http://relay.example:8765/ratings/service': { url: 'http://relay.example:8766/ratings/service', body: { ok: true, service: 'koikoi-ratings/v1' } },
    'http://relay.example:8766/ratings': { url: 'http://relay.example:8766/ratings', body: { players: [{ name: 'Fuji', rank: 1 }] } },
  });
  assert.deepEqual(await fetchBoard('ws://relay.example:8765/v1', beside), [{ name: 'Fuji', rank: 1 }]);
  assert.deepEqual(asked, ['http://relay.example:8765/ratings/service', 'http://relay.example:8766/ratings']);
});

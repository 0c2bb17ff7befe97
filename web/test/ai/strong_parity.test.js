// Parity of the JavaScript strong player (src/ai/strong.js) with the Python one
// (koikoi_p2p/ai/strong.py), under every preset and random house-rule profiles: Python plays
// seeded matches between two strong players
// (strong_driver.py, in a subprocess) and writes down every decision with the seat's view and
// options; the JavaScript player built with the same seed replays that player's decisions in the
// same order and must choose the same action every time. The comparison is exact, with nothing
// excluded: both draw from the same generator (PyRandom is CPython's Mersenne Twister), so even
// the tie-breaking jitter and the koi-koi rollouts agree.
//
// Without a Python that has koikoi_p2p installed the test is skipped; under CI=true it fails
// (driver.js).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Profile, actionFromDict, actionToDict, preset } from '../../src/rules/index.js';
import { StrongPlayer } from '../../src/ai/strong.js';
import { Rng, randomProfile } from '../rules/support.js';
import { python, runDriver, seatViewOf, skip } from './driver.js';

/** Matches per preset (each of `ROUNDS` rounds): a few hundred decisions per preset. */
const MATCHES = Number(process.env.KOIKOI_PARITY_MATCHES ?? 5);
const ROUNDS = 6;
const PRESETS = ['nintendo', 'koikoi-online', 'wikipedia', 'teaching-card', 'board-game', 'classic-variant'];

describe('the JavaScript strong player chooses as the Python one', { skip }, () => {
  test('python is available', () => assert.ok(python, 'CI=true: a Python with koikoi_p2p is required'));
  for (const name of PRESETS) {
    test(`${name}: every decision of ${MATCHES} seeded ${ROUNDS}-round self-play matches`, () => {
      const requests = [];
      for (let m = 0; m < MATCHES; m++) requests.push({ preset: name, seed: 1000 + m, rounds: ROUNDS, players: [2 * m + 7, 2 * m + 8] });
      const total = compare(requests, requests.map(() => preset(name)), name);
      assert.ok(total >= 200, `only ${total} decisions with a choice`);
    });
  }
  test('house rules: random profiles (extension switches included)', () => {
    const rng = new Rng('strong-parity/profiles');
    const profiles = Array.from({ length: 8 }, () => randomProfile(rng));
    const requests = profiles.map((p, m) => ({ profile: p.toDict(), seed: 2000 + m, rounds: 3, players: [3 * m + 1, 3 * m + 2] }));
    const total = compare(requests, profiles.map((p) => Profile.fromDict(p.toDict())), 'random profiles');
    assert.ok(total >= 200, `only ${total} decisions with a choice`);
  });
});

/**
 * Replay every decision of the driver's answers with JavaScript strong players of the same seeds.
 * @param {{seed: number, rounds: number, players: number[], [key: string]: unknown}[]} requests
 * @param {import('../../src/rules/profile.js').Profile[]} profiles the profile of each request
 * @param {string} label
 * @returns {number} the decisions compared that had more than one option
 */
function compare(requests, profiles, label) {
  const answers = runDriver(requests);
  assert.equal(answers.length, requests.length);
  /** @type {Record<string, number>} */
  const compared = {};
  answers.forEach((answer, m) => {
    answer.players.forEach((/** @type {any[]} */ decisions, /** @type {number} */ seat) => {
      const player = new StrongPlayer(requests[m].players[seat], { profile: profiles[m] });
      decisions.forEach((d, i) => {
        const options = d.options.map(actionFromDict);
        const mine = actionToDict(player.chooseFrom(seatViewOf(d.view), options));
        assert.deepEqual(mine, d.choice, `match ${m}, seat ${seat}, decision ${i} (${d.view.need.kind})`);
        if (options.length > 1) compared[d.view.need.kind] = (compared[d.view.need.kind] ?? 0) + 1;
      });
    });
  });
  const total = Object.values(compared).reduce((a, b) => a + b, 0);
  // Koi-koi decisions are among the real choices (more than one option) compared.
  assert.ok((compared.decide ?? 0) > 0, 'no koi-koi decision was compared');
  console.log(`# ${label}: ${total} decisions with a choice agree (${JSON.stringify(compared)})`);
  return total;
}

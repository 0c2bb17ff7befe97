// The JavaScript master's playouts (src/ai/master.js `playout`, on RoundState.fromView) against
// the Python master's (koikoi_p2p/ai/master.py `_playout`, on RoundState.from_view): the policy is
// deterministic given the full state, so at every decision of random play (the true hidden cards
// staged as the deal) each option's playout value must be exactly the Python one, both cut after
// the search's horizon of 4 turns and valued by the piles' prospects, and played to the end of
// the round. The master's sampling differs by design (each language its own random source), so
// this compares what a sampled deal is worth, the part that must be the same algorithm.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Prospects, playout } from '../../src/ai/master.js';
import { RoundState, actionFromDict, preset } from '../../src/rules/index.js';
import { python, roundViewOf, runDriver, skip } from './driver.js';

describe('the JavaScript master plays out as the Python one', { skip }, () => {
  test('python is available', () => assert.ok(python, 'CI=true: a Python with koikoi_p2p is required'));
  for (const name of ['nintendo', 'koikoi-online', 'wikipedia']) {
    test(`${name}: every option of 150 decisions, horizon 4 and to the end`, () => {
      const [records] = runDriver([{ kind: 'playouts', preset: name, seed: 77, count: 150 }]);
      const profile = preset(name);
      const prospects = new Prospects(profile);
      let compared = 0;
      records.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
        const view = roundViewOf(r.view);
        const root = RoundState.fromView(view, profile, r.hidden);
        r.options.forEach((/** @type {any} */ o, /** @type {number} */ k) => {
          const after = root.copy();
          after.apply(view.seat, actionFromDict(o));
          const mine = [playout(after.copy(), view.seat, 4, prospects), playout(after, view.seat)];
          assert.deepEqual(mine, r.values[k], `decision ${i} (${r.view.need.kind}), option ${k}`);
          compared++;
        });
      });
      assert.ok(compared >= 300, `only ${compared} options compared`);
      console.log(`# ${name}: ${compared} playout values agree`);
    });
  }
});

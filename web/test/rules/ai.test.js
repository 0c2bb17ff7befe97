// Computer players (web/src/ai): legal, deterministic given a seed, blind to what their seat
// does not know, and the greedy one beats the random one.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { GreedyPlayer, RandomPlayer, createPlayer, playMatch } from '../../src/ai/index.js';
import { PRESETS, RoundState, actionToDict, preset, resultToDict, runRevealed } from '../../src/rules/index.js';
import { Rng, randomDeck } from './support.js';

describe('computer players', () => {
  test('every preset: a whole match of legal moves (the auditor engine applies each one)', () => {
    for (const name of PRESETS) {
      for (const kinds of [['random', 'greedy'], ['greedy', 'greedy']]) {
        const players = /** @type {[any, any]} */ (kinds.map((k, i) => createPlayer(/** @type {any} */ (k), `${name}/${i}`)));
        const { match } = playMatch(preset(name).withSwitches(name === 'classic-variant' ? {} : { rounds: 3 }), players, { seed: name });
        assert.ok(match.over, `${name}: the match ends`);
      }
    }
  });

  test('deterministic given the seeds', () => {
    const run = () => playMatch(preset('nintendo'), [new GreedyPlayer('a'), new RandomPlayer('b')], { seed: 7 }).match;
    const a = run();
    const b = run();
    assert.deepEqual(a.results.map(resultToDict), b.results.map(resultToDict));
  });

  test("a player's choice depends only on what its seat knows", () => {
    // The same player state, asked through its own seat's engine and through an auditor's engine
    // (which holds the opponent's hand and the stock), chooses the same action.
    const rng = new Rng('ai/knowledge');
    for (let g = 0; g < 40; g++) {
      const profile = preset(rng.choice(PRESETS));
      const deck = randomDeck(rng, true);
      const params = { profile, dealer: rng.below(2), roundIndex: 1, month: 1 + rng.below(12) };
      const engines = [null, 0, 1].map((viewer) => new RoundState({ ...params, viewer }));
      for (const e of engines) runRevealed(e, deck);
      let step = 0;
      while (engines[0].need !== null) {
        const need = /** @type {import('../../src/rules/index.js').NeedAction} */ (engines[0].need);
        const seed = `${g}/${step++}`;
        const own = new GreedyPlayer(seed).choose(engines[1 + need.seat], need.seat);
        const audit = new GreedyPlayer(seed).choose(engines[0], need.seat);
        assert.deepEqual(actionToDict(own), actionToDict(audit));
        for (const e of engines) { e.apply(need.seat, own); runRevealed(e, deck); }
      }
    }
  });

  test('greedy beats random in most matches of every preset', () => {
    for (const name of PRESETS) {
      let greedyWins = 0;
      const n = 16;
      for (let i = 0; i < n; i++) {
        const seat = i % 2;
        const players = /** @type {[any, any]} */ (seat === 0 ? [new GreedyPlayer(i), new RandomPlayer(i)] : [new RandomPlayer(i), new GreedyPlayer(i)]);
        const { match } = playMatch(preset(name), players, { seed: `strength/${name}/${i}` });
        if (match.winner === seat) greedyWins++;
      }
      assert.ok(greedyWins >= n * 0.6, `${name}: greedy won ${greedyWins} of ${n}`);
    }
  });

  test('a player refuses to act when its seat is not asked', () => {
    const s = new RoundState({ profile: preset('nintendo'), dealer: 0, viewer: null, roundIndex: 1, month: 1 });
    assert.throws(() => new RandomPlayer(1).choose(s, 0));
  });
});

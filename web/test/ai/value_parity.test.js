// The learned player's network and features in JavaScript (src/ai/value.js, features.js,
// expert.js): the values of spec/vectors/ai/value_positions.json (computed by the Python port,
// koikoi_p2p/ai/value.py) within the file's tolerance, the same compact row read from a view and
// from a full state, and the expert blind to the cards its seat cannot see.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { ExpertPlayer, StrongPlayer, createPlayer, playMatch, preparePlayer } from '../../src/ai/index.js';
import { COMPACT, HAND, compactOfState, compactOfView } from '../../src/ai/features.js';
import { WEIGHTS } from '../../src/ai/expert_weights.js';
import { ValueNet, loadShipped, shipped } from '../../src/ai/value.js';
import { Rng } from '../../src/ai/rng.js';
import { RoundState, dealLayout, preset, runRevealed, withRounds } from '../../src/rules/index.js';

const VECTORS = JSON.parse(readFileSync(new URL('../../../spec/vectors/ai/value_positions.json', import.meta.url), 'utf8'));
const PY_WEIGHTS = readFileSync(new URL('../../../koikoi_p2p/ai/expert_weights.json', import.meta.url));

describe('learned value network', () => {
  test('the ES module holds the same document as the Python weights file', () => {
    assert.deepEqual(WEIGHTS, JSON.parse(PY_WEIGHTS.toString('utf8')));
    assert.equal(createHash('sha256').update(PY_WEIGHTS).digest('hex'), VECTORS.weights_sha256,
      'the vectors were made with other weights: python spec/vectors/generators/ai_vectors.py');
  });

  test('values agree with the Python port on the recorded positions', async () => {
    const net = await loadShipped();
    assert.equal(shipped(), net);
    assert.ok(VECTORS.cases.length >= 40);
    for (const { compact, value } of VECTORS.cases) {
      assert.equal(compact.length, COMPACT);
      const got = net.value(compact);
      assert.ok(Math.abs(got - value) <= VECTORS.tolerance, `${got} against ${value}`);
    }
  });

  test('a malformed document is refused', () => {
    assert.throws(() => new ValueNet({ format: 'other', layers: [] }), /not a/);
    assert.throws(() => new ValueNet({ format: WEIGHTS.format, layers: WEIGHTS.layers.slice(1) }), /inputs/);
  });

  test('a seat reads the same row from its view and from the full state', () => {
    for (const rules of ['nintendo', 'koikoi-online']) {
      const profile = preset(rules);
      const deck = new Rng(`value/rows/${rules}`).shuffle(Array.from({ length: 48 }, (_, i) => i));
      const s = new RoundState({ profile, dealer: 1, viewer: null, roundIndex: 3, month: 3 });
      const players = [new StrongPlayer(1, { profile }), new StrongPlayer(2, { profile })];
      let checked = 0;
      runRevealed(s, deck);
      while (s.need !== null && s.need.type === 'action') {
        for (const seat of /** @type {const} */ ([0, 1])) {
          assert.deepEqual(compactOfState(s, seat), compactOfView(s.view(seat)));
          checked++;
        }
        const seat = s.need.seat;
        s.apply(seat, players[seat].choose(s, seat));
        runRevealed(s, deck);
      }
      assert.ok(checked > 20);
    }
  });
});

describe('expert player', () => {
  before(() => preparePlayer('expert'));

  test('its choice does not depend on cards it cannot see, and a seed fixes it', () => {
    const profile = preset('nintendo');
    let compared = 0;
    for (let g = 0; compared < 6 && g < 40; g++) {
      const rng = new Rng(`expert/blind/${g}`);
      const deck = rng.shuffle(Array.from({ length: 48 }, (_, i) => i));
      const layout = dealLayout(0);
      const hidden = [...layout.hands[1], ...layout.stock];
      const cards = rng.shuffle(hidden.map((p) => deck[p]));
      const other = deck.slice();
      hidden.forEach((p, i) => { other[p] = cards[i]; });
      const states = [deck, other].map((d) => {
        const s = new RoundState({ profile, dealer: 0, viewer: null, roundIndex: 1, month: 1 });
        runRevealed(s, d);
        while (s.need?.type === 'action' && s.need.kind === 'hand_yaku') {
          s.apply(s.need.seat, s.legalActions()[0]);
          runRevealed(s, d);
        }
        return s;
      });
      if (states[0].need?.type !== 'action' || states[0].need.kind !== 'play' || states[0].legalActions().length < 2) continue;
      const choices = states.map((s) => [0, 1, 2].map((seed) => JSON.stringify(
        new ExpertPlayer(seed, { profile, simulations: 40, maxSeconds: null }).choose(s, 0))));
      assert.deepEqual(choices[0], choices[1], `deal ${g}`);
      compared++;
    }
    assert.ok(compared >= 5, `only ${compared} positions compared`);
  });

  test('plays what its network values, not what the prospects or the heuristic prefer', () => {
    // A made-up network worth 100 once one card has left the seat's hand: the expert plays that
    // card where the strong player's heuristic (the search's favourite) prefers another.
    const profile = preset('nintendo');
    const deck = new Rng('expert/wants').shuffle(Array.from({ length: 48 }, (_, i) => i));
    const s = new RoundState({ profile, dealer: 0, viewer: null, roundIndex: 1, month: 1 });
    runRevealed(s, deck);
    while (s.need?.type === 'action' && s.need.kind === 'hand_yaku') {
      s.apply(s.need.seat, s.legalActions()[0]);
      runRevealed(s, deck);
    }
    assert.equal(s.need?.type === 'action' && s.need.kind, 'play');
    const view = s.view(0);
    const options = s.legalActions();
    const prior = new StrongPlayer(9, { profile }).playValues({ ...view, opponentHandSize: 8 }, options);
    const order = options.map((_, i) => i).sort((a, b) => prior[b] - prior[a]);
    for (const rival of order.slice(1, 4)) {
      const option = options[rival];
      assert.equal(option.type, 'play');
      const card = view.hand[view.handPositions.indexOf(/** @type {{position: number}} */ (option).position)];
      let calls = 0;
      const net = /** @type {any} */ ({ value: (/** @type {number[]} */ row) => {
        assert.equal(row.length, COMPACT);
        calls++;
        return row[card] !== HAND ? 100 : 0;
      } });
      const expert = new ExpertPlayer(9, { profile, simulations: 60, maxSeconds: null, net });
      const chosen = expert.choose(s, 0);
      assert.deepEqual(chosen, option, `rival ${rival}`);
      assert.notDeepEqual(chosen, options[order[0]]);
      assert.ok(calls > 0);
    }
  });

  test('plays whole matches legally under the presets, by its level name', () => {
    for (const rules of ['nintendo', 'koikoi-online', 'wikipedia']) {
      const profile = withRounds(preset(rules), 1);
      const expert = createPlayer('expert', 5, { profile, simulations: 20, maxSeconds: null });
      assert.equal(expert.name, 'expert');
      const { match } = playMatch(profile, [expert, new StrongPlayer(6, { profile })], { seed: 7 });
      assert.ok(match.over, rules);
    }
  });
});

// The search player (src/ai/master.js): blind to the cards its seat cannot see, deterministic
// given its seed, within its playout budget, legal under every preset, and better than random.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { MasterPlayer, OpponentReading, RandomPlayer, StrongPlayer, createPlayer, playMatch } from '../../src/ai/index.js';
import { PRESETS, RoundState, dealLayout, preset, runRevealed, withRounds } from '../../src/rules/index.js';
import { Rng } from '../../src/ai/rng.js';

const SMALL = { simulations: 120, maxSeconds: null };

/**
 * Two decks that agree on everything seat 0 sees at its first decision (its hand and the field)
 * and differ in the cards it cannot see (seat 1's hand and the stock, reshuffled).
 * @param {string} label
 */
function twinDecks(label) {
  const rng = new Rng(label);
  const deck = rng.shuffle(Array.from({ length: 48 }, (_, i) => i));
  const layout = dealLayout(0);
  const hidden = [...layout.hands[1], ...layout.stock];
  const cards = rng.shuffle(hidden.map((p) => deck[p]));
  const other = deck.slice();
  hidden.forEach((p, i) => { other[p] = cards[i]; });
  return [deck, other];
}

/**
 * An auditor's engine (it knows every card) at seat 0's first play of a dealer-0 round.
 * @param {readonly number[]} deck
 * @param {import('../../src/rules/profile.js').Profile} profile
 */
function atFirstPlay(deck, profile) {
  const s = new RoundState({ profile, dealer: 0, viewer: null, roundIndex: 1, month: 1 });
  runRevealed(s, deck);
  while (s.need?.type === 'action' && s.need.kind === 'hand_yaku') {
    const seat = s.need.seat;
    s.apply(seat, s.legalActions()[0]);
    runRevealed(s, deck);
  }
  return s;
}

describe('master player', () => {
  test('its choice does not depend on cards it cannot see, and a seed fixes it', () => {
    const profile = preset('nintendo');
    let compared = 0;
    let differs = 0;
    for (let g = 0; compared < 12 && g < 60; g++) {
      const [a, b] = twinDecks(`master/blind/${g}`);
      const sa = atFirstPlay(a, profile);
      const sb = atFirstPlay(b, profile);
      if (sa.need?.type !== 'action' || sa.need.kind !== 'play' || sa.legalActions().length < 2) continue;
      // The engines hold different hidden cards (the auditor knows them all)...
      if (JSON.stringify(sa.view(0).opponentHand) !== JSON.stringify(sb.view(0).opponentHand)) differs++;
      const choices = [];
      for (const s of [sa, sb]) {
        const row = [];
        for (let seed = 0; seed < 4; seed++) row.push(JSON.stringify(new MasterPlayer(seed, { profile, ...SMALL }).choose(s, 0)));
        choices.push(row);
      }
      // ...yet the player chooses alike for every seed (so the distributions over seeds are equal).
      assert.deepEqual(choices[0], choices[1], `deal ${g}`);
      // The same seed twice: the same choice.
      assert.equal(JSON.stringify(new MasterPlayer(3, { profile, ...SMALL }).choose(sa, 0)), choices[0][3]);
      compared++;
    }
    assert.ok(compared >= 10, `only ${compared} positions compared`);
    assert.ok(differs >= compared - 1, 'the twin decks should differ in the hidden hand');
  });

  test('a decision never runs more playouts than its budget', () => {
    const profile = withRounds(preset('nintendo'), 1);
    for (const simulations of [1, 7, 60]) {
      const master = new MasterPlayer(simulations, { profile, simulations, maxSeconds: null });
      let most = 0;
      const counted = {
        name: 'counted',
        /** @type {import('../../src/ai/players.js').Player['choose']} */
        choose(state, seat, context) {
          const before = master.playouts;
          const a = master.choose(state, seat, context);
          most = Math.max(most, master.playouts - before);
          return a;
        },
      };
      playMatch(profile, [counted, new StrongPlayer(1)], { seed: simulations });
      assert.ok(most <= simulations, `${most} playouts with a budget of ${simulations}`);
      assert.ok(most >= 1, 'the search ran');
    }
  });

  test('a wall-time cap ends a decision early (on an injected clock)', () => {
    const profile = preset('nintendo');
    const [deck] = twinDecks('master/clock');
    const s = atFirstPlay(deck, profile);
    let t = 0;
    const master = new MasterPlayer(1, { profile, simulations: 100000, maxSeconds: 1, now: () => (t += 100) });
    master.choose(s, 0);
    assert.ok(master.playouts < 100, `${master.playouts} playouts after the deadline`);
  });

  test('the reading of discards: a card thrown on the field rules out its matches', () => {
    const profile = preset('nintendo');
    let totalDiscards = 0;
    let readings = 0;
    for (let g = 0; g < 40; g++) {
      const deck = new Rng(`master/reading/${g}`).shuffle(Array.from({ length: 48 }, (_, i) => i));
      const truth = new RoundState({ profile, dealer: 1, viewer: null, roundIndex: 1, month: 1 });
      const mine = new RoundState({ profile, dealer: 1, viewer: 0, roundIndex: 1, month: 1 });
      const reading = new OpponentReading();
      const step = () => {
        while (truth.need?.type === 'reveal') {
          for (const e of [truth, mine]) {
            const need = /** @type {import('../../src/rules/round.js').NeedReveal} */ (e.need);
            if (need.to !== null && e.viewer !== null && need.to !== e.viewer) e.skipReveal();
            else for (const p of need.positions) e.reveal(p, deck[p]);
          }
          reading.observe(mine.view(0));
        }
      };
      step();
      // Seat 1 (the dealer) moves by a player that captures when it can; seat 0 plays first card.
      let discards = 0;
      while (truth.need !== null && truth.need.type === 'action') {
        const seat = truth.need.seat;
        const options = truth.legalActions();
        let a = options[0];
        if (seat === 1 && truth.need.kind === 'play') {
          const capturing = options.find((o) => o.type === 'play' && truth.field.some((f) => (f >> 2) === (truth.deck[o.position] >> 2)));
          if (capturing === undefined) discards++;
          a = capturing ?? options[0];
        }
        for (const e of [truth, mine]) e.apply(seat, a);
        if (seat === 1) reading.observe(mine.view(0));
        step();
        // The belief never excludes a card the opponent really holds.
        const held = truth.hands[1].map((p) => truth.deck[p]);
        const excluded = reading.excluded(mine.view(0));
        for (const c of held) assert.ok(!excluded.has(c), `deal ${g}: card ${c} held but excluded`);
        if (excluded.size > 0) readings++;
      }
      totalDiscards += discards;
    }
    assert.ok(totalDiscards > 10 && readings > 10, `${totalDiscards} discards, ${readings} steps with a reading`);
  });

  test('legal under every preset (a short match each), through createPlayer', () => {
    for (const name of PRESETS) {
      const profile = name === 'classic-variant' ? preset(name) : withRounds(preset(name), 1);
      const players = /** @type {[any, any]} */ ([createPlayer('master', `${name}/m`, { profile, simulations: 40, maxSeconds: null }), createPlayer('strong', 5, { profile })]);
      const { match } = playMatch(profile, players, { seed: name, maxDeals: 4 });
      assert.ok(match.results.length >= 1, name);
    }
  });

  test('beats the random player in a small self-play', () => {
    const profile = withRounds(preset('nintendo'), 3);
    let wins = 0;
    let losses = 0;
    for (let g = 0; g < 10; g++) {
      const master = new MasterPlayer(g, { profile, simulations: 100, maxSeconds: null });
      const random = new RandomPlayer(g);
      const seat = g % 2;
      const { match } = playMatch(profile, seat === 0 ? [master, random] : [random, master], { seed: `vs-random/${g}` });
      if (match.winner === seat) wins++;
      else if (match.winner === 1 - seat) losses++;
    }
    assert.ok(wins >= 7 && wins > 2 * losses, `master won ${wins} of 10 matches against random (lost ${losses})`);
  });

  test('same seed, same match', () => {
    const profile = withRounds(preset('koikoi-online'), 1);
    const run = () => playMatch(profile, [new MasterPlayer('x', { profile, ...SMALL }), new StrongPlayer(4)], { seed: 3 }).match;
    assert.deepEqual(run().results.map((r) => JSON.stringify(r)), run().results.map((r) => JSON.stringify(r)));
  });
});

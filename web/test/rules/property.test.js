// Property tests over random games from seeded randomness (hypothesis-like): invariants after
// every step, the three viewers agree, the hidden hand stays hidden, a replay reproduces the state.
// KOIKOI_PROPERTY_GAMES raises the number of games (default keeps CI fast).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  EXTENSIONS, MatchState, PRESETS, RoundState, actionToDict, monthOf, playRound, preset, resultToDict, runRevealed, scorePile,
} from '../../src/rules/index.js';
import { Rng, randomDeck, randomProfile, stateRecord } from './support.js';

const GAMES = Number(process.env.KOIKOI_PROPERTY_GAMES ?? 60);

/**
 * The invariants of a round state after any step.
 * @param {RoundState} s
 * @param {string} where
 */
function checkInvariants(s, where) {
  const need = s.need;
  const legal = s.legalActions();
  assert.equal(legal.length > 0, need !== null && need.type === 'action', `${where}: legal actions exactly when an action is needed`);
  assert.equal(s.over, need === null, `${where}: over exactly when nothing is needed`);
  for (const seat of [0, 1]) {
    const counts = new Array(13).fill(0);
    for (const c of s.piles[seat]) counts[monthOf(c)]++;
    assert.ok(counts.every((n) => n % 2 === 0), `${where}: captures come in pairs of a month`);
    // the holder's own call counts for viewing_by_call (spec/rules.md §6.4)
    const { base } = scorePile(s.piles[seat], s.profile, s.month, s.calls.includes(seat));
    assert.ok(s.bases[seat] <= base, `${where}: the recorded base never exceeds the pile's`);
  }
  const max = s.profile.max_calls_per_round;
  if (max > 0 && s.profile.call_limit === 'per_seat') {
    for (const seat of [0, 1]) assert.ok(s.calls.filter((c) => c === seat).length <= max, `${where}: call limit per seat`);
  } else if (max > 0) assert.ok(s.calls.length <= max, `${where}: call limit`);
  const inAction = need !== null && need.type === 'action' && need.kind !== 'hand_yaku';
  if (inAction || (s.over && s.result !== null && !s.result.redeal && s.result.reason !== 'hand_yaku')) {
    const inFlight = s.phase === 'play_reveal' || s.phase === 'draw_reveal' ? 1 : 0;
    const total = s.field.length + s.piles[0].length + s.piles[1].length + (s.pending >= 0 ? 1 : 0)
      + s.hands[0].length + s.hands[1].length + s.stockCount + inFlight;
    assert.equal(total, 48, `${where}: every card is somewhere once`);
    const seen = new Set([...s.field, ...s.piles[0], ...s.piles[1]]);
    assert.equal(seen.size, s.field.length + s.piles[0].length + s.piles[1].length, `${where}: no card twice`);
  }
  if (s.viewer !== null) {
    // The opponent's hand stays hidden, but for the positions its hand-yaku claim revealed.
    const other = 1 - s.viewer;
    const shown = s.claims[other]?.positions ?? [];
    const v = s.view(s.viewer);
    v.opponentHandPositions.forEach((p, i) => {
      if (!shown.includes(p)) assert.equal(v.opponentHand[i], -1, `${where}: the opponent's hand stays hidden`);
    });
  }
  const r = s.result;
  if (r !== null) {
    assert.ok(r.points >= 0);
    if (r.winner === null) assert.equal(r.points, 0);
    if (r.redeal) { assert.equal(r.winner, null); assert.equal(r.next_dealer, s.dealer); }
    if (r.winner !== null) assert.equal(r.next_dealer, r.winner);
    if (!r.redeal) assert.equal(r.consumes_round, true);
  }
}

/**
 * Play one random game with three engines in lockstep (viewer null, 0 and 1), moves chosen from
 * the auditor's legal actions; check the invariants on all three after every step.
 * @param {Rng} rng
 * @param {import('../../src/rules/index.js').Profile} profile
 */
function lockstepGame(rng, profile) {
  const dealer = rng.below(2);
  const month = 1 + rng.below(12);
  const deck = randomDeck(rng, true);
  const engines = [null, 0, 1].map((viewer) => new RoundState({ profile, dealer, viewer, roundIndex: 1, month }));
  /** @type {Array<{seat: number, action: import('../../src/rules/index.js').Action}>} */
  const moves = [];
  let step = 0;
  for (const e of engines) { runRevealed(e, deck); checkInvariants(e, `start, viewer ${e.viewer}`); }
  while (engines[0].need !== null) {
    const need = /** @type {import('../../src/rules/round.js').NeedAction} */ (engines[0].need);
    const options = engines[0].legalActions();
    // Every legal action applies on a copy.
    for (const a of options) engines[0].copy().apply(need.seat, a);
    const action = rng.choice(options);
    moves.push({ seat: need.seat, action });
    step++;
    for (const e of engines) {
      // A hidden seat's engine lists a superset of the true legal plays.
      if (e.viewer !== null && e.viewer !== need.seat && need.kind === 'play') {
        const hidden = e.legalActions().map((a) => JSON.stringify(actionToDict(a)));
        for (const a of options) assert.ok(hidden.includes(JSON.stringify(actionToDict(a))));
      }
      e.apply(need.seat, action);
      runRevealed(e, deck);
      checkInvariants(e, `step ${step}, viewer ${e.viewer}`);
    }
    const pub = (/** @type {RoundState} */ e) => JSON.stringify([e.need, e.field, e.piles, e.bases, e.calls, e.stockCount, e.result]);
    assert.equal(pub(engines[1]), pub(engines[0]), 'seat 0 sees the public state the auditor sees');
    assert.equal(pub(engines[2]), pub(engines[0]), 'seat 1 sees the public state the auditor sees');
  }
  // A replay of the same moves reproduces the state exactly.
  const again = new RoundState({ profile, dealer, viewer: null, roundIndex: 1, month });
  runRevealed(again, deck);
  for (const m of moves) { again.apply(m.seat, m.action); runRevealed(again, deck); }
  assert.deepEqual(stateRecord(again), stateRecord(engines[0]));
  return /** @type {import('../../src/rules/index.js').RoundResult} */ (engines[0].result);
}

describe('random rounds', () => {
  for (const name of PRESETS) {
    test(`${name}: ${GAMES} games, invariants after every step, viewers agree, replay reproduces`, () => {
      const rng = new Rng(`property/${name}`);
      for (let i = 0; i < GAMES; i++) lockstepGame(rng, preset(name));
    });
  }
  /** Non-default values of each extension switch (spec/rules.md §3.2), on presets that allow them. */
  const ON = {
    hanami_cancelled_by: { hanami_cancelled_by: ['11-rainman', '11-swallow', '11-ribbon', '11-lightning'] },
    tsukimi_cancelled_by: { tsukimi_cancelled_by: ['11-rainman', '12-phoenix', '12-plain1', '12-plain2', '12-plain3'] },
    cup_either: { cup_either: true, cup_is_plain: false },
    brights_add: { brights_add: true },
    sanko_with_rain: { sanko_with_rain: true },
    single_yaku: { single_yaku: true },
    call_limit: { call_limit: 'per_seat', max_calls_per_round: 1, after_call: 'shobu_only' },
    caller_pays_more: { caller_pays_more: 'doubled_per_call' },
    subtract_from_opponent: { subtract_from_opponent: true, pool_start: 0, transfer_cap: false, bust_ends_game: false },
    field_four_pairs: { field_four_pairs: 'redeal' },
    first_dealer: { first_dealer: 'coin' },
    viewing_by_call: { viewing_by_call: true },
    koikoi_bonus: { koikoi_bonus: 'winner_add' },
    akatan_aotan_on_top: { ribbon_pair: 'separate_5_5', akatan_aotan_on_top: true },
    stop_on_own_last_turn: { stop_on_own_last_turn: true },
    hand_whole_month: { hand_whole_month: 'redeal', hand_yaku: {} },
    single_yaku_scope: { single_yaku: true, single_yaku_scope: 'extensions' },
  };
  for (const sw of EXTENSIONS) {
    test(`extension switch ${sw.name} on: ${GAMES} games over the presets`, () => {
      const rng = new Rng(`property/${sw.name}`);
      const on = /** @type {Record<string, object>} */ (ON)[sw.name];
      assert.ok(on, `a value for ${sw.name}`);
      for (let i = 0; i < GAMES; i++) lockstepGame(rng, preset(PRESETS[i % PRESETS.length]).withSwitches(on));
    });
  }
  test(`random profiles: ${GAMES * 2} games`, () => {
    const rng = new Rng('property/random-profiles');
    for (let i = 0; i < GAMES * 2; i++) lockstepGame(rng, randomProfile(rng, 10));
  });
});

describe('random matches', () => {
  test('scores, pools, end of match; toDict/fromDict rebuilds the same tally', () => {
    const rng = new Rng('property/matches');
    for (let i = 0; i < 12; i++) {
      const profile = i < PRESETS.length ? preset(PRESETS[i]).withSwitches({ rounds: 3 + rng.below(4) }) : randomProfile(rng, 8);
      const m = new MatchState(profile, rng.below(2));
      let deals = 0;
      while (!m.over && deals < 300) {
        const params = m.roundParams();
        const s = m.newRound(null);
        assert.equal(s.month, ((params.roundIndex - 1) % 12) + 1);
        const deck = randomDeck(rng, true);
        playRound(s, deck, (_, options) => rng.choice(options));
        const before = m.scores;
        m.record(/** @type {any} */ (s.result));
        deals++;
        if (profile.pool_start > 0) assert.equal(m.scores[0] + m.scores[1], 2 * profile.pool_start, 'pools keep their sum');
        else assert.ok(m.scores[0] >= before[0] && m.scores[1] >= before[1], 'scores only grow');
        if (profile.transfer_cap) assert.ok(m.scores.every((x) => x >= 0), 'a capped pool never goes below 0');
      }
      const copy = MatchState.fromDict(JSON.parse(JSON.stringify(m.toDict())));
      assert.deepEqual([copy.scores, copy.over, copy.winner, copy.roundsPlayed], [m.scores, m.over, m.winner, m.roundsPlayed]);
      assert.deepEqual(copy.roundSummary(), m.roundSummary());
      assert.deepEqual(copy.results.map(resultToDict), m.results.map(resultToDict));
    }
  });
});

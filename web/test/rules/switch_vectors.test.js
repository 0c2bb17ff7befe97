// The house-rule switch vectors (spec/vectors/rules/switches.json, spec/rules.md §3.2-§3.8,
// §5.1, §6, §7.3, §9.4, §11.3): encodings and digests, text forms, descriptions, scores, whole
// rounds, first dealers and match tallies. Each case with a `without` must come out differently
// once those switch values are applied: the case really depends on its switch.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import {
  MatchState, Profile, RoundState, actionFromDict, baseOf, cardIndex, chooseFirstDealer, differences, formatSwitch,
  makeResult, nearestPreset, preset, replayRound, resultFromDict, resultToDict, roundScore, scoreYaku, toHex,
  withSwitchText,
} from '../../src/rules/index.js';
import { ROOT, loadVector } from './support.js';

const FILE = path.join(ROOT, 'spec', 'vectors', 'rules', 'switches.json');
const v = fs.existsSync(FILE) ? loadVector('switches.json') : null;

/**
 * Run a function and return its value or its error reason.
 * @param {() => unknown} f
 */
function outcome(f) {
  try {
    return f();
  } catch (e) {
    return { error: /** @type {any} */ (e).reason ?? String(e) };
  }
}

/**
 * The case's profile with its `without` values applied (they remove the switch's effect).
 * @param {any} c
 */
const without = (c) => Profile.fromDict(c.profile).withSwitches(c.without);

describe('switches.json', { skip: v === null ? 'spec/vectors/rules/switches.json is not on this branch yet' : false }, () => {
  const vec = /** @type {any} */ (v);

  test('encoding: valid profiles give their bytes and SHA-256; invalid ones their reason', () => {
    for (const c of vec.encoding.valid) {
      const p = Profile.fromDict(c.profile);
      assert.equal(new TextDecoder().decode(p.encode()), c.encoding, c.comment);
      assert.equal(toHex(p.digest()), c.sha256, c.comment);
      assert.deepEqual(p.toDict(), c.profile, c.comment);
      assert.ok(Profile.decode(new TextEncoder().encode(c.encoding)).equals(p));
    }
    for (const c of vec.encoding.invalid) {
      assert.throws(() => Profile.fromDict(c.profile), { reason: c.error }, c.comment);
    }
  });

  test('text forms: read, validated against the base, written back', () => {
    for (const c of vec.text) {
      const label = `${c.switch}=${JSON.stringify(c.text)}`;
      if (c.error) {
        assert.throws(() => withSwitchText(preset(c.base), c.switch, c.text), { reason: c.error }, label);
        continue;
      }
      const p = withSwitchText(preset(c.base), c.switch, c.text);
      const value = /** @type {any} */ (p.allSwitches())[c.switch];
      assert.deepEqual(value, c.value, label);
      assert.equal(formatSwitch(c.switch, value), c.written, label);
      assert.deepEqual(/** @type {any} */ (withSwitchText(preset(c.base), c.switch, c.written).allSwitches())[c.switch], c.value, `${label}: the written form reads back`);
    }
  });

  test('differences from the nearest preset', () => {
    for (const c of vec.differences) {
      const p = Profile.fromDict(c.profile);
      assert.equal(nearestPreset(p), c.nearest);
      const d = differences(p, preset(c.nearest));
      assert.deepEqual(Object.entries(d), Object.entries(c.differences));
    }
  });

  test('scoring: yaku, base, round score; the switch matters', () => {
    for (const c of vec.scoring) {
      /** @param {Profile} p */
      const score = (p) => {
        // The pile is the winner's; it has called when the winner is among the calls (§6.4).
        const yaku = scoreYaku(c.cards, p, c.month, c.calls.includes(c.winner));
        return { yaku: Object.entries(yaku), base: baseOf(yaku), round_score: roundScore(baseOf(yaku), c.calls, c.winner, p) };
      };
      const got = score(Profile.fromDict(c.profile));
      assert.deepEqual(got, { yaku: Object.entries(c.yaku), base: c.base, round_score: c.round_score }, c.comment);
      if (c.without) assert.notDeepEqual(score(without(c)), got, `${c.comment}: without ${JSON.stringify(c.without)}`);
    }
  });

  test('rounds: replayed for viewer null, 0 and 1; refused actions; the switch matters', () => {
    for (const c of vec.rounds) {
      const deck = c.deck.map(cardIndex);
      const moves = c.moves.map((/** @type {any} */ m) => ({ seat: m.seat, action: actionFromDict(m.action) }));
      /**
       * @param {Profile} p
       * @param {number | null} viewer
       */
      const fresh = (p, viewer) => new RoundState({ profile: p, dealer: c.dealer, viewer, roundIndex: c.round_index, month: c.month });
      for (const viewer of [null, 0, 1]) {
        const s = fresh(Profile.fromDict(c.profile), viewer);
        replayRound(s, deck, moves);
        assert.deepEqual(resultToDict(/** @type {any} */ (s.result)), c.result, `${c.comment}, viewer ${viewer}`);
        assert.deepEqual(s.piles, c.piles.map((/** @type {string[]} */ p) => p.map(cardIndex).sort((a, b) => a - b)));
        for (const bad of c.illegal) {
          const t = fresh(Profile.fromDict(c.profile), viewer);
          replayRound(t, deck, moves.slice(0, bad.after));
          assert.throws(() => t.apply(bad.seat, actionFromDict(bad.action)), { reason: bad.error }, c.comment);
        }
      }
      if (c.without) {
        const other = outcome(() => {
          const s = fresh(without(c), null);
          replayRound(s, deck, moves);
          const refused = c.illegal.filter((/** @type {any} */ bad) => {
            const t = fresh(without(c), null);
            replayRound(t, deck, moves.slice(0, bad.after));
            return outcome(() => t.apply(bad.seat, actionFromDict(bad.action))) !== undefined;
          }).length;
          return { result: resultToDict(/** @type {any} */ (s.result)), refused };
        });
        assert.notDeepEqual(other, { result: c.result, refused: c.illegal.length }, `${c.comment}: without ${JSON.stringify(c.without)}`);
      }
    }
  });

  test('first dealer: the dealer or the positions needed next; the switch matters', () => {
    for (const c of vec.first_dealer) {
      /** @param {Profile} p */
      const run = (p) => outcome(() => chooseFirstDealer(p, c.revealed));
      const got = run(Profile.fromDict(c.profile));
      assert.deepEqual(got, c.error ? { error: c.error } : { dealer: c.dealer, need: c.need }, c.comment);
      if (c.without) assert.notDeepEqual(run(without(c)), got, c.comment);
    }
  });

  test('matches: scores, end and next round; the switch matters', () => {
    for (const c of vec.matches) {
      /** @param {Profile} p */
      const run = (p) => {
        const m = new MatchState(p, c.first_dealer);
        for (const r of c.results) m.record(makeResult(resultFromDict(r)));
        return { scores: m.scores, over: m.over, winner: m.winner, round_index: m.roundIndex };
      };
      const got = run(Profile.fromDict(c.profile));
      assert.deepEqual(got, { scores: c.scores, over: c.over, winner: c.winner, round_index: c.round_index }, c.comment);
      if (c.without) assert.notDeepEqual(outcome(() => run(without(c))), got, c.comment);
    }
  });
});

// The computer seat's follower (src/ai/follow.js): over a real two-peer match (both journaled
// game peers in memory, wire frames between them), its mirror of the round agrees with the peer's
// own engine at every decision, the player sees the opponent's moves and the match context, and
// a master with a small budget plays the whole match through it.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { Journal } from '../../src/protocol/journal.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { RoundFollower } from '../../src/ai/follow.js';
import { MasterPlayer } from '../../src/ai/master.js';

test('the follower mirrors the peer and the master plays a networked match through it', () => {
  const profile = withRounds(preset('nintendo'), 2);
  const rngs = [vectorStream('follow-0'), vectorStream('follow-1')];
  const make = (/** @type {0 | 1} */ seat) => Journal.create({
    seat, identity: new Identity(rngs[seat](32)), room: 'FOLLOW', seed: rngs[seat](32), profile,
  });
  const js = [make(0), make(1)];
  /** @type {import('../../src/rules/round.js').RoundView[]} */
  const seen = [];
  /** @type {any[]} */
  const contexts = [];
  const master = new MasterPlayer('follow', { profile, simulations: 60, maxSeconds: null });
  const spy = {
    name: 'spy',
    choose: () => { throw new Error('unused'); },
    /** @param {import('../../src/rules/round.js').RoundView} v */
    observe: (v) => { seen.push(v); master.observe(v); },
  };
  const followers = [new RoundFollower(master, 0), new RoundFollower(spy, 1)];
  let checked = 0;
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @param {0 | 1} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    for (const ev of out.events) {
      followers[seat].see(/** @type {any} */ (ev));
      assert.notEqual(ev.type, 'failure', JSON.stringify(ev));
      if (ev.type === 'terms_proposed') handle(seat, js[seat].acceptTerms());
      if (ev.type !== 'your_turn') continue;
      const flow = /** @type {any} */ (js[seat].peer.flow);
      const engine = flow.live.engine;
      const mirror = followers[seat].engine;
      if ('view' in engine) {
        assert.ok(mirror !== null, `seat ${seat}: the follower lost the round`);
        assert.deepEqual(mirror.view(seat), engine.view(seat), `seat ${seat}: the mirror agrees with the peer's engine`);
        checked++;
      }
      let action = /** @type {any} */ (ev).options[0];
      if (seat === 0 && 'view' in engine) {
        const context = RoundFollower.context(flow, engine.profile);
        contexts.push(context);
        action = master.choose(engine, 0, context);
      }
      handle(seat, js[seat].decide(action));
    }
  };
  handle(0, js[0].start());
  while (queues[0].length || queues[1].length) {
    for (const s of /** @type {const} */ ([0, 1])) {
      while (queues[s].length) handle(s, js[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
    }
  }
  assert.ok(js[0].peer.done && js[1].peer.done, 'the match ends');
  assert.ok(checked >= 12, `only ${checked} decisions checked`);
  // The spy saw the master's moves: views where the master (seat 0) was to move or had moved.
  assert.ok(seen.some((v) => v.turn === 0) && seen.some((v) => v.turn === 1));
  assert.ok(contexts.every((c) => c && c.scores.length === 2 && typeof c.roundsPlayed === 'number'));
  assert.ok(contexts.some((c) => c.roundsPlayed === 1), 'the second round is told one round was played');
  assert.ok(master.playouts > 0);
});

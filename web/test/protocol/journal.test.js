// A journaled peer restored at every point of a match continues it to the same transcript.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { Journal } from '../../src/protocol/journal.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';

test('restore from the saved journal after any input: same frames, same transcript', () => {
  const rngs = [vectorStream('journal-0'), vectorStream('journal-1')];
  const make = (/** @type {0 | 1} */ seat) => Journal.create({
    seat, identity: new Identity(rngs[seat](32)), room: 'JOURNAL', seed: rngs[seat](32), profile: withRounds(preset('wikipedia'), 1),
  });
  const js = [make(0), make(1)];
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  let restores = 0;
  /** @param {number} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    for (const ev of out.events) {
      if (ev.type === 'your_turn') handle(seat, js[seat].decide(/** @type {any} */ (ev).options[0]));
      if (ev.type === 'terms_proposed') handle(seat, js[seat].acceptTerms());
      assert.notEqual(ev.type, 'failure', JSON.stringify(ev));
    }
  };
  handle(0, js[0].start());
  let step = 0;
  while (queues[0].length || queues[1].length) {
    for (const s of [0, 1]) {
      while (queues[s].length) {
        const before = js[s].state.inputs.length;
        handle(s, js[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
        if (js[s].state.inputs.length > before && ++step % 9 === 0) {
          // Save, "crash", restore from the saved JSON; the frames it re-sends are exact repeats.
          const saved = JSON.parse(JSON.stringify(js[s].toJSON()));
          const { journal, frames } = Journal.restore(saved);
          js[s] = journal;
          queues[1 - s].push(...frames);
          restores += 1;
        }
      }
    }
  }
  assert.ok(restores >= 3, `only ${restores} restores`);
  assert.ok(js[0].peer.done && js[1].peer.done);
  assert.deepEqual(js[0].peer.transcript(), js[1].peer.transcript());
  assert.equal(auditBytes(js[0].peer.transcript()).ok, true);
});

test('frames the peer did not seal are dropped and counted, never logged or fatal (spec/protocol.md §12.2 item 1)', () => {
  const rngs = [vectorStream('journal-drop-0'), vectorStream('journal-drop-1')];
  const make = (/** @type {0 | 1} */ seat) => Journal.create({
    seat, identity: new Identity(rngs[seat](32)), room: 'JOURNAL', seed: rngs[seat](32), profile: withRounds(preset('wikipedia'), 1),
  });
  const js = [make(0), make(1)];
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {Uint8Array[][]} */
  const sent = [[], []];
  /** @param {number} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    sent[seat].push(...out.frames);
    for (const ev of out.events) {
      if (ev.type === 'your_turn') handle(seat, js[seat].decide(/** @type {any} */ (ev).options[0]));
      if (ev.type === 'terms_proposed') handle(seat, js[seat].acceptTerms());
      assert.notEqual(ev.type, 'failure', JSON.stringify(ev));
    }
  };
  const noise = vectorStream('journal-drop-noise');
  let injected = 0;
  handle(0, js[0].start());
  while (queues[0].length || queues[1].length) {
    for (const s of [0, 1]) {
      while (queues[s].length) {
        handle(s, js[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
        if (!js[s].peer.channel || injected >= 12) continue;
        // A stranger's envelope-shaped garbage, a frame we sealed ourselves reflected back, and a
        // handshake frame we sent: none opens under the peer's key.
        const logged = js[s].state.inputs.length;
        const garbage = noise(200);
        garbage[0] = 0x10;
        for (const f of [garbage, sent[s][sent[s].length - 1], js[s].peer.channel.handshakeSent[0]]) {
          const out = js[s].receive(f);
          assert.deepEqual([out.frames.length, out.events.length], [0, 0]);
          injected += 1;
        }
        assert.equal(js[s].state.inputs.length, logged);
      }
    }
  }
  assert.equal(injected, 12);
  assert.equal(js[0].dropped + js[1].dropped, 12);
  assert.ok(js[0].peer.done && js[1].peer.done);
  assert.deepEqual(js[0].peer.transcript(), js[1].peer.transcript());
  assert.equal(auditBytes(js[0].peer.transcript()).ok, true);
});

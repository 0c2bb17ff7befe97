// The joiner stops looking for the unbound rejoin tag once the host is known to hold the session
// (spec/protocol.md §12.2), as tests/adversarial/test_rejoin_fallback.py for Python. The unbound
// tag hashes only the room code the match started in: a stranger who knows the code can keep a
// room under it open for the whole match. While the joiner looked for it too, it joined such a
// room whenever the host's bound room was not listed yet; a stranger holding a frame the host once
// sent it could replay it there and be vouched for (test/net/replay_stranger.test.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { RelayClient } from '../../src/net/relay_client.js';
import { RelayRendezvous, peerHoldsSession, rendezvousTag } from '../../src/net/rendezvous.js';

test('the host holds the session once an envelope of it follows one of ours', () => {
  assert.equal(peerHoldsSession([], 1), false);
  assert.equal(peerHoldsSession([0], 1), false); // the host's terms: only we hold the session
  assert.equal(peerHoldsSession([0, 0], 1), false);
  assert.equal(peerHoldsSession([1], 1), false);
  assert.equal(peerHoldsSession([0, 1, 0], 1), true); // the host took our accept, then sent on
  assert.equal(peerHoldsSession([1, 0], 1), true);
});

test('the joiner looks for the unbound tag only until the host is bound', async (t) => {
  /** @type {string[]} */
  const asked = [];
  const lobby = RelayClient.lobby;
  /** @type {any} */ (RelayClient).lobby = async (/** @type {string} */ _url, /** @type {any} */ o) => {
    asked.push(o.rejoin);
    return [];
  };
  t.after(() => { /** @type {any} */ (RelayClient).lobby = lobby; });
  const connector = new RelayRendezvous('ws://127.0.0.1:9', 1, 'ROOM42', { pairTimeoutMs: 0, pollMs: 0 });
  const session = Uint8Array.from({ length: 32 }, (_, i) => i);
  const bound = rendezvousTag('ROOM42', session);
  const unbound = rendezvousTag('ROOM42');
  const lookups = async () => {
    asked.length = 0;
    await assert.rejects(connector.connect(), /in time/);
    return [...new Set(asked)].sort();
  };
  connector.bind(session);
  assert.deepEqual(await lookups(), [bound, unbound].sort()); // the host may not hold it yet
  connector.peerBound();
  assert.deepEqual(await lookups(), [bound]);
});

test('runMatch tells the joiner\'s transport when the host holds the session', async () => {
  const { runMatch } = await import('../../src/net/match.js');
  const { Identity } = await import('../../src/protocol/identity.js');
  const { vectorStream } = await import('../../src/mentalpoker/rng.js');
  const { preset, withRounds } = await import('../../src/rules/profile.js');
  /** @type {{queue: Uint8Array[], waiting: ((v: Uint8Array) => void)[]}[]} */
  const boxes = [{ queue: [], waiting: [] }, { queue: [], waiting: [] }];
  /** @type {string[][]} */
  const calls = [[], []];
  const transport = (/** @type {0 | 1} */ seat) => ({
    send(/** @type {Uint8Array} */ data) {
      const box = boxes[1 - seat];
      const w = box.waiting.shift();
      if (w) w(data); else box.queue.push(data);
    },
    receive() {
      const box = boxes[seat];
      const next = box.queue.shift();
      return next ? Promise.resolve(next) : new Promise((r) => box.waiting.push(r));
    },
    bind() { calls[seat].push('bind'); },
    peerBound() { calls[seat].push('peerBound'); },
  });
  const profile = withRounds(preset('nintendo'), 1);
  const play = (/** @type {0 | 1} */ seat) => {
    const rng = vectorStream(`fallback${seat}`);
    return runMatch(transport(seat), { seat, identity: new Identity(rng(32)), room: 'FALLBK', rng, profile, autoAccept: true }, {
      choose: (peer, ev) => /** @type {any} */ (ev).options[0],
    });
  };
  const [o0, o1] = await Promise.all([play(0), play(1)]);
  assert.ok(o0.ok && o1.ok);
  assert.deepEqual(calls[1], ['bind', 'peerBound']);
  assert.deepEqual(calls[0], ['bind', 'peerBound']); // harmless for the host: it has no fallback
});

test('a host waiting under the unbound tag opens its room again under the bound one when bound', async (t) => {
  // A resumed seat's link starts pairing before Match.resume has restored the session: its first
  // room carries the unbound tag, which a bound joiner no longer looks for (see above).
  /** @type {{tag: string, closed: boolean, waiting: boolean}[]} */
  const rooms = [];
  const create = RelayClient.create;
  /** @type {any} */ (RelayClient).create = async (/** @type {string} */ _url, /** @type {any} */ o) => {
    const room = { tag: o.meta.rejoin, closed: false, waiting: false };
    rooms.push(room);
    return {
      waitForPeer: () => { room.waiting = true; return new Promise(() => {}); }, // nobody comes
      close: async () => { room.closed = true; },
    };
  };
  t.after(() => { /** @type {any} */ (RelayClient).create = create; });
  const connector = new RelayRendezvous('ws://127.0.0.1:9', 0, 'ROOM42', { pairTimeoutMs: 0 });
  const session = Uint8Array.from({ length: 32 }, (_, i) => i);
  const first = connector.connect();
  while (!rooms[0]?.waiting) await new Promise((r) => setTimeout(r, 1));
  connector.bind(session);
  await assert.rejects(first, (/** @type {any} */ e) => e.reason === 'retagged');
  assert.deepEqual(rooms.map((r) => [r.tag, r.closed]), [[rendezvousTag('ROOM42'), true]]);
  void connector.connect();
  while (!rooms[1]?.waiting) await new Promise((r) => setTimeout(r, 1));
  assert.equal(rooms[1].tag, rendezvousTag('ROOM42', session));
});

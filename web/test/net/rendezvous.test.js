// The rejoin tag of spec/protocol.md §12.2, against the Python peer's for the same inputs
// (koikoi_p2p.net.rendezvous.rendezvous_tag), unbound and bound to a session id.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { rendezvousTag } from '../../src/net/rendezvous.js';

test('the rejoin tag, unbound and bound to the session, is the Python peer\'s', () => {
  assert.equal(rendezvousTag('K7QX2M'), '18d69c53e78b8cadb035e7432b72edb6');
  const session = Uint8Array.from({ length: 32 }, (_, i) => i);
  assert.equal(rendezvousTag('K7QX2M', session), 'e4b88071764fee2dcf9de3636fe8d42d');
});

/** An in-memory pair of transports that a test can break (a relay restart: everything in flight is lost). */
function breakablePair() {
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {{resolve: (v: Uint8Array) => void, reject: (e: Error) => void}[][]} */
  const waiting = [[], []];
  let broken = false;
  const err = new Error('the relay restarted');
  /** @param {number} side */
  const end = (side) => ({
    /** @param {Uint8Array} data */
    send(data) {
      if (broken) throw err;
      const w = waiting[1 - side].shift();
      if (w) w.resolve(data.slice());
      else queues[1 - side].push(data.slice());
    },
    /** @returns {Promise<Uint8Array>} */
    receive() {
      if (broken) return Promise.reject(err);
      const next = queues[side].shift();
      if (next) return Promise.resolve(next);
      return new Promise((resolve, reject) => waiting[side].push({ resolve, reject }));
    },
    async close() {},
  });
  return {
    ends: [end(0), end(1)],
    break() {
      broken = true;
      for (const q of queues) q.length = 0;
      for (const ws of waiting) for (const w of ws.splice(0)) w.reject(err);
    },
  };
}

test('a link whose transport fails pairs again through its connector and delivers everything once, in order', async () => {
  const { LinkTransport } = await import('../../src/net/link_transport.js');
  const { vectorStream } = await import('../../src/mentalpoker/rng.js');
  let current = breakablePair();
  const connector = (/** @type {number} */ side) => ({ connect: async () => current.ends[side] });
  const first = current;
  const links = [0, 1].map((side) => new LinkTransport(first.ends[side], {
    rng: vectorStream(`link-repair-${side}`), connect: connector(side), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 10,
  }));
  const payload = (/** @type {number} */ i) => Uint8Array.of(i, 0xaa, i);
  try {
    for (let i = 0; i < 3; i++) links[0].send(payload(i));
    for (let i = 0; i < 3; i++) assert.deepEqual(await links[1].receive(), payload(i));
    current = breakablePair();
    first.break();
    for (let i = 3; i < 6; i++) links[0].send(payload(i));
    for (let i = 3; i < 6; i++) assert.deepEqual(await links[1].receive(), payload(i));
    links[1].send(payload(9));
    assert.deepEqual(await links[0].receive(), payload(9));
    assert.deepEqual(links.map((l) => l.repairs), [1, 1]);
  } finally {
    for (const l of links) {
      l.closed = true;
      clearInterval(l.timer);
    }
  }
});

test('a resumed seat\'s link (no transport yet) pairs through its connector first and says when it is paired', async () => {
  const { LinkTransport } = await import('../../src/net/link_transport.js');
  const { vectorStream } = await import('../../src/mentalpoker/rng.js');
  const pair = breakablePair();
  /** @type {string[]} */
  const states = [];
  let calls = 0;
  // The resumed side's connector fails twice (the other seat has not opened its room yet).
  const resumed = new LinkTransport(null, {
    rng: vectorStream('link-resume-0'), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 10, onState: (s) => states.push(s),
    connect: { connect: async () => { if (++calls < 3) throw new Error('no room yet'); return pair.ends[0]; } },
  });
  const other = new LinkTransport(pair.ends[1], { rng: vectorStream('link-resume-1'), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 10 });
  const payload = (/** @type {number} */ i) => Uint8Array.of(i, 0x55);
  try {
    resumed.send(payload(1)); // before pairing: held, sent once paired
    assert.deepEqual(await other.receive(), payload(1));
    other.send(payload(2));
    assert.deepEqual(await resumed.receive(), payload(2));
    assert.equal(calls, 3);
    assert.deepEqual(states, ['reconnecting', 'connected']);
  } finally {
    for (const l of [resumed, other]) {
      l.closed = true;
      clearInterval(l.timer);
    }
  }
});

test('a link that cannot pair within giveUpMs fails with the connector\'s error', async () => {
  const { LinkTransport } = await import('../../src/net/link_transport.js');
  const { vectorStream } = await import('../../src/mentalpoker/rng.js');
  const link = new LinkTransport(null, {
    rng: vectorStream('link-give-up'), tickMs: 10, giveUpMs: 50,
    connect: { connect: async () => { throw new Error('the relay is gone'); } },
  });
  try {
    await assert.rejects(link.receive(), /the relay is gone/);
    assert.throws(() => link.send(Uint8Array.of(1)), /the relay is gone/);
  } finally {
    link.closed = true;
    clearInterval(link.timer);
  }
});

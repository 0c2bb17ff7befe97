// spec/protocol.md §12.1 rule 5: a relay that shows the other seat away for AWAY_MS (3 s), without
// its coming back, makes the link pair again (the peer's process may have died with its resume
// token, as a reloaded page's does), long before the keepalive bound; a seat that comes back in
// time, or news from a transport already replaced, changes nothing. The tests run the link on the
// real clock with a shorter bound: time in which the link itself did not run is not counted.
import test from 'node:test';
import assert from 'node:assert/strict';
import { AWAY_MS, LinkTransport } from '../../src/net/link_transport.js';

const BOUND_MS = 300;
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** A transport that shows the relay's news of the other seat, and never delivers anything. */
function fakeTransport(peer = 'present') {
  /** @type {((state: string) => void)[]} */
  const listeners = [];
  return {
    peer,
    sent: 0,
    closed: false,
    /** @param {Uint8Array} _f */ send(_f) { this.sent += 1; },
    receive: () => new Promise(() => {}),
    async close() { this.closed = true; },
    /** @param {(state: string) => void} l */ onPeer(l) { listeners.push(l); },
    /** @param {string} state */ say(state) { this.peer = state; for (const l of listeners) l(state); },
  };
}

/**
 * A link over `first` whose connector hands out fresh fake transports.
 * @param {ReturnType<typeof fakeTransport>} first @param {{awayMs?: number, unheard?: boolean}} [options]
 */
function linkOver(first, options = {}) {
  /** @type {ReturnType<typeof fakeTransport>[]} */
  const made = [];
  const connect = { connect: async () => { const t = fakeTransport(); made.push(t); return t; } };
  const link = new LinkTransport(/** @type {any} */ (first), {
    rng: (n) => new Uint8Array(n).fill(7), keepalive: 60, tickMs: 20, connect, awayMs: BOUND_MS, ...options,
  });
  link.heard = options.unheard ? false : true; // as after the peer's first frame
  return { link, made };
}

/** Wait until `done()` or `ms` pass. @param {() => boolean} done @param {number} ms */
async function until(done, ms) {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await sleep(20);
  return done();
}

test('the bound is the spec\'s 3 s', () => {
  assert.equal(AWAY_MS, 3000);
});

test('a seat shown away beyond the bound makes the link pair again; the old transport\'s late news means nothing', async () => {
  const first = fakeTransport();
  const { link, made } = linkOver(first);
  try {
    first.say('away');
    await sleep(BOUND_MS / 2);
    assert.equal(made.length, 0, 'paired again before the bound');
    assert.ok(await until(() => made.length === 1, 5000), 'did not pair again after the bound');
    assert.ok(first.closed, 'the old transport stays open');
    first.say('away');
    await sleep(BOUND_MS * 3);
    assert.equal(made.length, 1);
  } finally {
    await link.close();
  }
});

test('a seat already away when the transport is taken starts the clock', async () => {
  const first = fakeTransport('away');
  const { link, made } = linkOver(first);
  try {
    assert.ok(await until(() => made.length === 1, 5000), 'an away seat at the start was never noticed');
  } finally {
    await link.close();
  }
});

test('a seat that comes back in time keeps the transport', async () => {
  const first = fakeTransport();
  const { link, made } = linkOver(first);
  try {
    first.say('away');
    await sleep(BOUND_MS / 3);
    first.say('present');
    await sleep(BOUND_MS * 3);
    assert.equal(made.length, 0);
    assert.equal(first.closed, false);
  } finally {
    await link.close();
  }
});

test('awayMs Infinity turns it off', async () => {
  const first = fakeTransport();
  const { link, made } = linkOver(first, { awayMs: Infinity });
  try {
    first.say('away');
    await sleep(BOUND_MS * 3);
    assert.equal(made.length, 0);
  } finally {
    await link.close();
  }
});

test('a peer never heard on a fresh transport: its absence is left to the relay\'s grace (a host page reloading takes its room back)', async () => {
  const first = fakeTransport('away');
  const { link, made } = linkOver(first, { unheard: true });
  try {
    await sleep(BOUND_MS * 4);
    assert.equal(made.length, 0, 'paired again before the peer was ever heard');
    assert.equal(first.closed, false);
  } finally {
    await link.close();
  }
});

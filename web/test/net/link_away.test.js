// spec/protocol.md §12.1 rule 5: a relay that shows the other seat away for AWAY_MS, without its
// coming back, makes the link pair again (the peer's process may have died with its resume token,
// as a reloaded page's does), long before the keepalive bound; a seat that comes back in time, or
// news from a transport already replaced, changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { AWAY_MS, LinkTransport } from '../../src/net/link_transport.js';

/** A transport that shows the relay's news of the other seat, and never delivers anything. */
function fakeTransport() {
  /** @type {((state: string) => void)[]} */
  const listeners = [];
  return {
    sent: 0,
    closed: false,
    /** @param {Uint8Array} _f */ send(_f) { this.sent += 1; },
    receive: () => new Promise(() => {}),
    async close() { this.closed = true; },
    /** @param {(state: string) => void} l */ onPeer(l) { listeners.push(l); },
    /** @param {string} state */ say(state) { for (const l of listeners) l(state); },
  };
}

/**
 * A link over `first` whose connector hands out fresh fake transports, on a clock the test moves.
 * @param {ReturnType<typeof fakeTransport>} first @param {{awayMs?: number, keepalive?: number}} [options]
 */
function linkOver(first, options = {}) {
  let clock = 0;
  /** @type {ReturnType<typeof fakeTransport>[]} */
  const made = [];
  const connect = { connect: async () => { const t = fakeTransport(); made.push(t); return t; } };
  const link = new LinkTransport(/** @type {any} */ (first), {
    rng: (n) => new Uint8Array(n).fill(7), keepalive: 10, tickMs: 5, connect, now: () => clock, ...options,
  });
  return { link, made, advance: (/** @type {number} */ s) => { clock += s; } };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

test('a seat shown away beyond AWAY_MS makes the link pair again, well within the keepalive bound', async () => {
  assert.ok(AWAY_MS > 0 && AWAY_MS < 10000);
  const first = fakeTransport();
  const { link, made, advance } = linkOver(first);
  try {
    first.say('away');
    advance(AWAY_MS / 1000 - 0.5);
    await settle();
    assert.equal(made.length, 0, 'paired again before the bound');
    advance(0.6);
    await settle();
    assert.equal(made.length, 1, 'did not pair again after the bound');
    assert.ok(first.closed, 'the old transport stays open');
    // The new pairing starts with its own clock: the old transport's late news means nothing.
    first.say('away');
    advance(AWAY_MS / 1000 + 1);
    await settle();
    assert.equal(made.length, 1);
  } finally {
    link.close?.();
  }
});

test('a seat that comes back in time keeps the transport', async () => {
  const first = fakeTransport();
  const { link, made, advance } = linkOver(first);
  try {
    first.say('away');
    advance(AWAY_MS / 1000 - 0.5);
    await settle();
    first.say('present');
    advance(AWAY_MS / 1000 + 1);
    await settle();
    assert.equal(made.length, 0);
    assert.equal(first.closed, false);
  } finally {
    link.close?.();
  }
});

test('awayMs Infinity turns it off', async () => {
  const first = fakeTransport();
  const { link, made, advance } = linkOver(first, { awayMs: Infinity, keepalive: 0 });
  try {
    first.say('away');
    advance(3600);
    await settle();
    assert.equal(made.length, 0);
  } finally {
    link.close?.();
  }
});

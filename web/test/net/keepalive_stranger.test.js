// A stranger in the room cannot keep a vouching link alive (spec/protocol.md §12.1 rule 5, §12.2),
// the JavaScript side of tests/adversarial/test_keepalive_stranger.py. Link frames carry no
// proof. Before vouching, every frame refreshed the keepalive: a stranger that took the seat and
// answered HELLOs and PINGs, under an id of its own or under the real peer's id (our HELLO names
// it), held the connection open for good, and its ACKs made the link forget frames the real peer
// never got. Now only a connection on which the driver vouched for a payload counts, ACKs on any
// other are ignored, and a quiet real peer proves itself on each new connection with a repeat.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { ACK, DATA, HELLO, PING, PONG, decodeLinkFrame, encodeLinkFrame } from '../../src/net/reliable.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';

const DEAD = 0.3;
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @typedef {{send: (d: Uint8Array) => void, receive: () => Promise<Uint8Array>, close: () => Promise<void>, cut: () => void}} HubEnd
 */

/** Two seats; each connection of a seat talks to the latest connection of the other one (a relay room). */
class Hub {
  constructor() {
    /** @type {(HubEnd | null)[]} */
    this.ends = [null, null];
  }

  /** @param {number} side @returns {HubEnd} */
  connect(side) {
    /** @type {Uint8Array[]} */
    const inbox = [];
    /** @type {{resolve: (v: Uint8Array) => void, reject: (e: Error) => void}[]} */
    const waiting = [];
    let broken = false;
    const gone = new Error('the connection was cut');
    const hub = this;
    /** @type {HubEnd & {push: (d: Uint8Array) => void}} */
    const end = {
      push(data) {
        if (broken) return;
        const w = waiting.shift();
        if (w) w.resolve(data.slice());
        else inbox.push(data.slice());
      },
      send(data) {
        if (broken) throw gone;
        const other = /** @type {any} */ (hub.ends[1 - side]);
        other?.push(data);
      },
      receive() {
        if (broken) return Promise.reject(gone);
        const next = inbox.shift();
        if (next) return Promise.resolve(next);
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      cut() {
        broken = true;
        if (hub.ends[side] === end) hub.ends[side] = null;
        for (const w of waiting.splice(0)) w.reject(gone);
      },
      async close() { end.cut(); },
    };
    this.ends[side] = end;
    return end;
  }

  /** @param {number} side */
  cut(side) {
    this.ends[side]?.cut();
  }
}

/**
 * A link with a driver that vouches for every payload (all are authentic here) and, after every
 * new connection or peer restart, repeats its last payload, as the drivers do (match.js, seat.js).
 */
class Peer {
  /** @param {Hub} hub @param {number} side @param {{giveUpMs?: number}} [options] */
  constructor(hub, side, options = {}) {
    /** @type {string[]} */
    this.got = [];
    this.last = new TextEncoder().encode(`hello from ${side}`);
    this.link = new LinkTransport(hub.connect(side), {
      rng: vectorStream(`keepalive-stranger-${side}`), vouching: true, keepalive: DEAD, retransmit: 0.02, maxRetransmit: 0.1,
      tickMs: 10, giveUpMs: options.giveUpMs, connect: { connect: async () => hub.connect(side) },
      onConnect: () => this.link.send(this.last), onRestart: () => this.link.send(this.last),
    });
    /** @type {unknown} */
    this.error = null;
    this.done = this.#consume();
  }

  async #consume() {
    for (;;) {
      let payload;
      try {
        payload = await this.link.receive();
      } catch (e) {
        this.error = e;
        return;
      }
      this.link.vouch?.(); // (optional only so that this test runs against the link before vouching)
      const text = new TextDecoder().decode(payload);
      if (!this.got.includes(text)) this.got.push(text);
    }
  }

  /** @param {string} text */
  send(text) {
    this.last = new TextEncoder().encode(text);
    this.link.send(this.last);
  }

  stop() {
    this.link.closed = true;
    clearInterval(this.link.timer);
    void this.link.inner.close?.();
  }
}

/** @param {Hub} hub */
async function pair(hub, options = {}) {
  const a = new Peer(hub, 0, options);
  const b = new Peer(hub, 1, options);
  a.send('a0');
  b.send('b0');
  for (const [peer, want] of /** @type {const} */ ([[a, 'b0'], [b, 'a0']])) {
    while (!peer.got.includes(want)) await sleep(5);
  }
  return [a, b];
}

/**
 * Behave as a live peer at the link level (HELLO, PONG, an ACK for every DATA, PINGs of its own)
 * without ever sending a payload that could authenticate; stops when `stop.done` is set.
 * @param {HubEnd} end @param {Uint8Array} ownId @param {() => Uint8Array} victimId @param {{done: boolean}} stop
 */
async function stranger(end, ownId, victimId, stop) {
  const frame = (/** @type {number} */ kind, /** @type {Uint8Array} */ to, rest = {}) => encodeLinkFrame({ kind, from: ownId, to, ...rest });
  const pinging = (async () => {
    while (!stop.done) {
      try { end.send(frame(PING, victimId())); } catch { return; }
      await sleep((DEAD * 1000) / 6);
    }
  })();
  while (!stop.done) {
    let raw;
    try {
      raw = await Promise.race([end.receive(), sleep(50).then(() => null)]);
    } catch {
      break;
    }
    const f = raw && decodeLinkFrame(raw);
    if (!f) continue;
    try {
      if (f.kind === HELLO) end.send(frame(HELLO, f.from, { payload: new Uint8Array(16) }));
      else if (f.kind === PING) end.send(frame(PONG, f.from));
      else if (f.kind === DATA) end.send(frame(ACK, f.from, { next: /** @type {number} */ (f.n) + 1 }));
    } catch {
      break;
    }
  }
  await pinging;
}

for (const forged of [false, true]) {
  test(`a stranger answering the keepalive (${forged ? 'under the peer\'s id' : 'under its own id'}) does not hold the connection`, async () => {
    const hub = new Hub();
    const [a, b] = await pair(hub);
    const peerId = /** @type {Uint8Array} */ (a.link.link.peerId);
    b.stop(); // the real peer goes away...
    const stop = { done: false };
    const held = stranger(hub.connect(1), forged ? peerId : Uint8Array.of(9, 8, 7, 6, 5, 4, 3, 2), () => a.link.link.id, stop);
    hub.cut(0); // ... and a connects again: to the stranger
    await sleep(50);
    a.send('a1'); // the stranger "acknowledges" it at once
    await sleep(DEAD * 4 * 1000);
    stop.done = true;
    await held;
    try {
      // Its frames keep nothing alive: a dropped the connection again and again as if the seat
      // were silent (and would open the rejoin room again: §12.2 item 3), and still holds what
      // the stranger claimed to have. Before vouching: one repair (the cut), a1 taken as delivered.
      assert.ok(a.link.repairs >= 3, `repairs ${a.link.repairs}`);
      assert.ok(a.link.link.stats.dead >= 2, JSON.stringify(a.link.link.stats));
      assert.ok([...a.link.link.unacked.values(), ...a.link.link.queued].some((p) => new TextDecoder().decode(p) === 'a1'));
      assert.ok(a.link.link.stats.unproven >= 1, JSON.stringify(a.link.link.stats));
    } finally {
      a.stop();
    }
  });
}

test('a quiet real peer stays connected across reconnections (it proves itself with a repeat)', async () => {
  const hub = new Hub();
  const [a, b] = await pair(hub);
  try {
    for (let i = 0; i < 3; i++) {
      hub.cut(0); // a relay restart: both connect again
      hub.cut(1);
      await sleep(DEAD * 2 * 1000);
    }
    // Nothing new to say, yet each side proved itself on each new connection: no drop for silence.
    assert.deepEqual([a.link.repairs, b.link.repairs], [3, 3]);
    assert.deepEqual([a.link.link.stats.dead, b.link.link.stats.dead], [0, 0]);
    a.send('a1');
    while (!b.got.includes('a1')) await sleep(5);
  } finally {
    a.stop();
    b.stop();
  }
});

test('a stranger does not defer giving up: the bound counts from the last live frame', async () => {
  const hub = new Hub();
  const [a, b] = await pair(hub, { giveUpMs: 1000 });
  b.stop();
  const stop = { done: false };
  // The stranger is always there, so every connection succeeds, but none is live.
  const held = stranger(hub.connect(1), Uint8Array.of(1, 1, 2, 3, 5, 8, 13, 21), () => a.link.link.id, stop);
  hub.cut(0);
  try {
    const started = Date.now();
    while (!a.error && Date.now() - started < 5000) await sleep(20);
    assert.match(String(/** @type {any} */ (a.error)?.message), /nothing authenticated/);
    assert.equal(/** @type {any} */ (a.error).reason, 'unreachable');
  } finally {
    stop.done = true;
    await held;
    a.stop();
  }
});

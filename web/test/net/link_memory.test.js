// A peer's link memory is bounded in bytes (spec/protocol.md §12.1 rule 3), as in the Python link:
// early frames per pairing, and what was delivered and not yet taken by the driver. A frame that
// fits neither is not kept and not acknowledged, so a flood costs the bounds and an honest sender
// re-sends what was refused: a slow reader loses nothing. Measured through `bufferedBytes`.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { ACK, DATA, EARLY_BYTES, QUEUE_BYTES, ReliableLink, decodeLinkFrame, encodeLinkFrame } from '../../src/net/reliable.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { runMatch } from '../../src/net/match.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';

const FRAME = 60000; // about a relay frame (its max_frame_bytes is 65,536)

/** @param {Uint8Array} from @param {Uint8Array} to @param {number} n @param {number} size */
const data = (from, to, n, size) => encodeLinkFrame({ kind: DATA, from, to, n, payload: new Uint8Array(size).fill(n % 251) });

/** The `next` of every ACK among `frames`. @param {Uint8Array[]} frames */
const acks = (frames) => frames.map(decodeLinkFrame).filter((f) => f && f.kind === ACK).map((f) => /** @type {any} */ (f).next);

/** A victim link that knows a stranger's id (it said HELLO). */
function victim() {
  const link = new ReliableLink({ rng: vectorStream('victim') });
  link.start(0);
  return link;
}

test('a stranger cannot fill the early frames', () => {
  const link = victim();
  const stranger = Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9);
  /** @type {Uint8Array[]} */
  const out = [];
  // 4096 early frames of a relay frame each held 240 MB per pairing before the bound.
  for (let n = 1; n <= 400; n++) {
    const r = link.receive(data(stranger, link.id, n, FRAME), 0);
    assert.equal(r.deliver.length, 0);
    out.push(...r.out);
  }
  assert.ok(link.bufferedBytes <= EARLY_BYTES, String(link.bufferedBytes));
  assert.ok(link.stats.refused > 0);
  assert.deepEqual([...new Set(acks(out))], [0]); // nothing delivered, nothing acknowledged
});

test('nobody consuming does not grow what the link delivers; room again lets the rest through', () => {
  const link = victim();
  const sender = Uint8Array.of(7, 7, 7, 7, 7, 7, 7, 7);
  /** @type {Uint8Array[]} */
  const delivered = [];
  /** @type {Uint8Array[]} */
  const out = [];
  for (let n = 0; n < 400; n++) {
    const r = link.receive(data(sender, link.id, n, FRAME), 0);
    delivered.push(...r.deliver);
    out.push(...r.out);
  }
  assert.ok(link.queuedBytes <= QUEUE_BYTES, String(link.queuedBytes));
  assert.ok(link.bufferedBytes <= QUEUE_BYTES + EARLY_BYTES);
  assert.ok(delivered.length > 0 && delivered.length < 400);
  assert.equal(Math.max(...acks(out)), delivered.length); // the ACKs cover what was delivered only
  // The driver takes one: what waited early and is next moves on, with an ACK that covers it.
  const more = link.consumed(/** @type {Uint8Array} */ (delivered[0]).length);
  assert.ok(more.deliver.length > 0);
  assert.deepEqual(acks(more.out), [delivered.length + more.deliver.length]);
});

/**
 * An in-memory pair whose frames may be dropped or delayed behind later ones.
 * @param {string} seed
 */
function lossyPair(seed) {
  const pick = vectorStream(seed);
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {((v: Uint8Array) => void)[][]} */
  const waiting = [[], []];
  const deliver = (/** @type {number} */ to, /** @type {Uint8Array} */ frame) => {
    const w = waiting[to].shift();
    if (w) w(frame);
    else queues[to].push(frame);
  };
  /** @param {number} side */
  const end = (side) => ({
    send(/** @type {Uint8Array} */ frame) {
      const r = pick(1)[0];
      if (r < 12) return;
      setTimeout(() => deliver(1 - side, frame.slice()), r > 230 ? 20 : 0);
    },
    receive() {
      const next = queues[side].shift();
      return next ? Promise.resolve(next) : new Promise((resolve) => waiting[side].push(resolve));
    },
  });
  return [end(0), end(1)];
}

test('a slow reader under tight bounds loses nothing: every payload once, in order', async () => {
  const [t0, t1] = lossyPair('slow-reader');
  const bounds = { earlyBytes: 3 * 20000, queueBytes: 2 * 20000 };
  const a = new LinkTransport(t0, { rng: vectorStream('a'), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 20, ...bounds });
  const b = new LinkTransport(t1, { rng: vectorStream('b'), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 20, ...bounds });
  const sent = Array.from({ length: 80 }, (_, i) => new Uint8Array(20000).fill(i));
  for (const p of sent) a.send(p); // all at once: far more than b holds
  const got = [];
  let peak = 0;
  while (got.length < sent.length) {
    peak = Math.max(peak, b.bufferedBytes);
    got.push(await b.receive());
    await new Promise((r) => setTimeout(r, 5)); // a slow reader
  }
  assert.deepEqual(got.map((p) => p[0]), sent.map((p) => p[0]));
  assert.ok(got.every((p, i) => p.length === 20000 && p.every((x) => x === i)));
  assert.ok(peak <= bounds.earlyBytes + bounds.queueBytes, String(peak));
  assert.ok(b.link.stats.refused > 0, 'back-pressure happened');
  await Promise.all([a.close(), b.close()]);
  assert.ok(a.drained, 'the sender saw everything acknowledged');
});

test('a flood while nobody reads: the transport holds no more than its bounds', async () => {
  /** @type {((v: Uint8Array) => void) | null} */
  let wake = null;
  /** @type {Uint8Array[]} */
  const wire = [];
  /** @type {Uint8Array[]} */
  const sent = [];
  const inner = {
    send(/** @type {Uint8Array} */ f) { sent.push(f); },
    receive() {
      const next = wire.shift();
      return next ? Promise.resolve(next) : new Promise((/** @type {(v: Uint8Array) => void} */ r) => { wake = r; });
    },
  };
  const push = (/** @type {Uint8Array} */ f) => {
    const w = wake;
    wake = null;
    if (w) w(f);
    else wire.push(f);
  };
  const t = new LinkTransport(inner, { rng: vectorStream('flooded') });
  const stranger = Uint8Array.of(5, 5, 5, 5, 5, 5, 5, 5);
  for (let n = 0; n < 300; n++) push(data(stranger, t.link.id, n, FRAME));
  for (let i = 0; i < 50 && wire.length; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(wire.length, 0, 'the transport read everything');
  assert.ok(t.bufferedBytes <= QUEUE_BYTES + EARLY_BYTES, String(t.bufferedBytes));
  assert.ok(t.link.stats.refused > 0);
  await t.close();
});

test('a whole match completes with link bounds below a deck message', async () => {
  const [t0, t1] = lossyPair('tight-match');
  const tight = { earlyBytes: 0, queueBytes: 1 };
  const links = [t0, t1].map((t, i) => new LinkTransport(t, { rng: vectorStream(`m${i}`), retransmit: 0.05, maxRetransmit: 0.2, tickMs: 20, ...tight }));
  const profile = withRounds(preset('nintendo'), 1);
  const play = (/** @type {0 | 1} */ seat) => {
    const rng = vectorStream(`tight${seat}`);
    return runMatch(links[seat], { seat, identity: new Identity(rng(32)), room: 'TIGHT1', rng, profile, autoAccept: true }, {
      choose: (peer, ev) => /** @type {any} */ (ev).options[0],
    });
  };
  const [o0, o1] = await Promise.all([play(0), play(1)]);
  await Promise.all(links.map((l) => l.close()));
  assert.ok(o0.ok && o1.ok, JSON.stringify([o0.failure, o1.failure]));
  assert.deepEqual(o0.transcript, o1.transcript);
  assert.ok(links.some((l) => l.link.stats.refused > 0), 'back-pressure happened');
});

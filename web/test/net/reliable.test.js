// The retransmission link (spec/protocol.md §12.1): frames, and two peers playing a whole match
// over a transport that drops, repeats and reorders frames.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { ACK, DATA, HELLO, ReliableLink, decodeLinkFrame, encodeLinkFrame } from '../../src/net/reliable.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { runMatch } from '../../src/net/match.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';

test('link frames round-trip and malformed ones are ignored', () => {
  const id = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
  const to = Uint8Array.of(8, 7, 6, 5, 4, 3, 2, 1);
  for (const f of [{ kind: HELLO, from: id, to }, { kind: DATA, from: id, to, n: 7, payload: Uint8Array.of(9) }, { kind: ACK, from: id, to, next: 3 }]) {
    assert.deepEqual(decodeLinkFrame(encodeLinkFrame(f)), f);
  }
  assert.equal(decodeLinkFrame(Uint8Array.of(2, 0)), null);
  assert.equal(decodeLinkFrame(new Uint8Array(17).fill(9)), null);
});

test('in order exactly once through drops, repeats and reordering; a new peer id restarts the pairing', () => {
  const rng = vectorStream('link');
  const a = new ReliableLink({ rng, retransmit: 1 });
  const b = new ReliableLink({ rng, retransmit: 1 });
  let now = 0;
  /** @type {[Uint8Array[], Uint8Array[]]} */
  const wires = [[], []];
  const got = [];
  wires[1].push(...a.start(now));
  wires[0].push(...b.start(now));
  const pick = vectorStream('chaos');
  for (let i = 0; i < 50; i++) wires[1].push(...a.send(Uint8Array.of(i)));
  for (let step = 0; step < 2000 && got.length < 50; step++) {
    now += 0.1;
    for (const [link, side] of /** @type {const} */ ([[a, 0], [b, 1]])) {
      const wire = wires[side];
      while (wire.length) {
        const r = pick(1)[0];
        const frame = /** @type {Uint8Array} */ (wire.splice(r % wire.length, 1)[0]);
        if (r < 60) continue; // dropped
        const out = link.receive(frame, now);
        if (r > 230) link.receive(frame, now); // repeated
        wires[1 - side].push(...out.out);
        if (link === b) got.push(...out.deliver.map((p) => p[0]));
      }
      wires[1 - side].push(...link.tick(now).out);
    }
  }
  assert.deepEqual(got, Array.from({ length: 50 }, (_, i) => i));
  const c = new ReliableLink({ rng, retransmit: 1 });
  const hello = c.start(now)[0];
  assert.equal(b.receive(hello, now).restarted, true);
  assert.equal(b.recvNext, 0);
});

/** A lossy in-memory pair: each frame may be dropped, repeated or delayed behind the next one. */
/** @param {string} seed */
function lossyPair(seed) {
  const pick = vectorStream(seed);
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {((v: Uint8Array) => void)[][]} */
  const waiting = [[], []];
  const deliver = (/** @type {number} */ to, /** @type {Uint8Array} */ data) => {
    const w = waiting[to].shift();
    if (w) w(data);
    else queues[to].push(data);
  };
  /** @param {number} side */
  const end = (side) => ({
    send(/** @type {Uint8Array} */ data) {
      const r = pick(1)[0];
      if (r < 25) return;
      const later = r > 240;
      setTimeout(() => deliver(1 - side, data.slice()), later ? 30 : 0);
      if (r > 225 && r <= 240) setTimeout(() => deliver(1 - side, data.slice()), 5);
    },
    receive() {
      const next = queues[side].shift();
      return next ? Promise.resolve(next) : new Promise((resolve) => waiting[side].push(resolve));
    },
  });
  return [end(0), end(1)];
}

test('a whole match over a lossy transport through the links', async () => {
  const [t0, t1] = lossyPair('lossy');
  const links = [t0, t1].map((t, i) => new LinkTransport(t, { rng: vectorStream(`l${i}`), retransmit: 0.2, maxRetransmit: 1, tickMs: 50 }));
  const profile = withRounds(preset('nintendo'), 1);
  const play = (/** @type {0 | 1} */ seat) => {
    const rng = vectorStream(`peer${seat}`);
    return runMatch(links[seat], { seat, identity: new Identity(rng(32)), room: 'LOSSY1', rng, profile, autoAccept: true }, {
      choose: (peer, ev) => /** @type {any} */ (ev).options[0],
    });
  };
  const [o0, o1] = await Promise.all([play(0), play(1)]);
  await Promise.all(links.map((l) => l.close()));
  assert.ok(o0.ok && o1.ok, JSON.stringify([o0.failure, o1.failure]));
  assert.deepEqual(o0.transcript, o1.transcript);
  assert.equal(auditBytes(/** @type {Uint8Array} */ (o0.transcript)).ok, true);
});

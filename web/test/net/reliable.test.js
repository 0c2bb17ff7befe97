// The retransmission link (spec/protocol.md §12.1): frames, and two peers playing a whole match
// over a transport that drops, repeats and reorders frames.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { ACK, DATA, HELLO, PING, PROOF, ReliableLink, decodeLinkFrame, encodeLinkFrame, livenessProof } from '../../src/net/reliable.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { runMatch } from '../../src/net/match.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';

test('link frames round-trip and malformed ones are ignored', () => {
  const id = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
  const to = Uint8Array.of(8, 7, 6, 5, 4, 3, 2, 1);
  for (const f of [{ kind: HELLO, from: id, to, payload: new Uint8Array(16).fill(3) }, { kind: PROOF, from: id, to, payload: new Uint8Array(32).fill(4) }, { kind: DATA, from: id, to, n: 7, payload: Uint8Array.of(9) }, { kind: ACK, from: id, to, next: 3 }]) {
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

test('with confirm an ACK covers only the frames the receiver saved (§12.1 rule 3, §12.3 item 1)', () => {
  const rng = vectorStream('link-confirm');
  const a = new ReliableLink({ rng, retransmit: 1 });
  const b = new ReliableLink({ rng, retransmit: 1, confirm: true });
  let now = 0;
  /** Frames from one link to the other; returns what the receiver delivered. @param {ReliableLink} to @param {Uint8Array[]} frames */
  const carry = (to, frames) => {
    const from = to === a ? b : a;
    /** @type {Uint8Array[]} */
    const delivered = [];
    for (const f of frames) {
      const r = to.receive(f, now);
      delivered.push(...r.deliver);
      if (r.out.length) carry(from, r.out);
    }
    return delivered;
  };
  carry(a, b.start(now));
  carry(b, a.start(now));
  const sent = [1, 2, 3].map((i) => a.send(Uint8Array.of(i))).flat();
  const delivered = carry(b, sent);
  assert.deepEqual(delivered.map((p) => p[0]), [1, 2, 3]);
  assert.equal(a.unacked.size, 3, 'delivered is not saved: nothing acknowledged yet');
  b.consumed(3); // taken by the driver, still not saved
  assert.equal(a.unacked.size, 3);
  const tag = b.tag;
  const ack = b.confirm(tag);
  assert.equal(decodeLinkFrame(ack[0])?.next, 1);
  carry(a, ack);
  assert.deepEqual([...a.unacked.keys()], [1, 2]);
  // The sender re-sends what is unconfirmed; the receiver delivers nothing twice and acknowledges only what it saved.
  now += 2;
  assert.deepEqual(carry(b, a.tick(now).out), []);
  assert.deepEqual([...a.unacked.keys()], [1, 2]);
  carry(a, [...b.confirm(tag), ...b.confirm(tag)]);
  assert.equal(a.unacked.size, 0);
  assert.deepEqual(b.confirm(tag), [], 'nothing more was delivered');
  // A new pairing (the peer restarted) starts the count again; a confirm of the old one is ignored.
  const c = new ReliableLink({ rng, retransmit: 1 });
  carry(b, c.start(now));
  assert.equal(b.confirmed, 0);
  assert.deepEqual(b.confirm(tag), []);
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

test('vouching: a stranger that displaces the peer is rejected, the peer pairs again and nothing is lost', () => {
  const rng = vectorStream('link-vouch');
  const a = new ReliableLink({ rng, retransmit: 1, vouching: true });
  const b = new ReliableLink({ rng, retransmit: 1, vouching: true });
  const strangerId = Uint8Array.of(5, 5, 5, 5, 5, 5, 5, 5);
  let now = 0;
  /** @type {[Uint8Array[], Uint8Array[]]} frames on the way to a, to b */
  const wires = [[], []];
  /** @type {string[][]} payloads each side took (its driver vouches for every "p" one, rejects "junk") */
  const got = [[], []];
  const links = [a, b];
  /** @type {Uint8Array[]} a's outbox: what its driver re-sends when b's link restarts */
  const outbox = [];
  const pump = () => {
    for (let round = 0; round < 50 && (wires[0].length || wires[1].length); round++) {
      for (const side of [0, 1]) {
        for (const frame of wires[side].splice(0)) {
          const r = links[side].receive(frame, now);
          wires[1 - side].push(...r.out);
          for (const p of r.deliver) {
            const text = new TextDecoder().decode(p);
            got[side].push(text);
            if (text.startsWith('p')) links[side].vouch(r.tag, now);
            else links[side].reject(r.tag);
          }
          if (r.restarted && side === 0) for (const p of outbox) wires[1].push(...a.send(p));
        }
      }
    }
  };
  const say = (/** @type {string} */ text) => {
    const p = new TextEncoder().encode(text);
    outbox.push(p);
    wires[1].push(...a.send(p));
  };
  wires[1].push(...a.start(now));
  wires[0].push(...b.start(now));
  pump();
  say('p0');
  pump();
  assert.deepEqual(got[1], ['p0']);
  assert.equal(b.live, true);
  const aId = a.id;
  // The stranger takes the room: b pairs with it, keeping a's id (displaced, not retired).
  b.receive(encodeLinkFrame({ kind: HELLO, from: strangerId, to: new Uint8Array(8), payload: new Uint8Array(16) }), now);
  assert.deepEqual(b.peerId, strangerId);
  assert.equal(b.live, false);
  assert.equal(b.displaced.length, 1);
  const junk = b.receive(encodeLinkFrame({ kind: DATA, from: strangerId, to: b.id, n: 0, payload: new TextEncoder().encode('junk') }), now);
  assert.equal(b.reject(junk.tag), true); // an unproven pairing: the stranger's id is retired, b takes a fresh id
  assert.equal(b.peerId, null);
  say('p1');
  now += 2;
  wires[0].push(...b.tick(now).out); // b's HELLO from its fresh id: a pairs again, re-sends its outbox
  pump();
  assert.ok(got[1].includes('p1'), JSON.stringify(got[1]));
  assert.equal(b.peerId && Array.from(b.peerId).join(), Array.from(a.id).join());
  assert.equal(Array.from(a.id).join(), Array.from(aId).join()); // a kept its id; b restarted both counters
  assert.equal(b.displaced.length, 0); // vouched again: the displaced ids are retired
  // The stranger is retired for good: its frames are stale now.
  const stale = b.stats.stale;
  b.receive(encodeLinkFrame({ kind: PING, from: strangerId, to: b.id }), now);
  assert.equal(b.stats.stale, stale + 1);
  assert.equal(b.stats.rejected, 1);
});

test('vouching: ACKs and keepalive frames count only on a connection where a payload authenticated', () => {
  const rng = vectorStream('link-live');
  // (period: this test ticks at will, so no gap between ticks is taken for our own stall)
  const a = new ReliableLink({ rng, retransmit: 1, keepalive: 4, vouching: true, period: 100 });
  const peer = Uint8Array.of(7, 7, 7, 7, 7, 7, 7, 7);
  a.start(0);
  a.receive(encodeLinkFrame({ kind: HELLO, from: peer, to: new Uint8Array(8), payload: new Uint8Array(16) }), 0);
  a.send(Uint8Array.of(1));
  a.receive(encodeLinkFrame({ kind: ACK, from: peer, to: a.id, next: 1 }), 1);
  assert.equal(a.unacked.size, 1); // not live: the ACK is ignored
  assert.equal(a.stats.unproven, 1);
  for (let t = 1; t <= 5; t++) a.receive(encodeLinkFrame({ kind: PING, from: peer, to: a.id }), t);
  assert.equal(a.tick(5).silent, true); // PINGs from an unproven connection are not the peer's voice
  const r = a.receive(encodeLinkFrame({ kind: DATA, from: peer, to: a.id, n: 0, payload: Uint8Array.of(2) }), 5);
  a.vouch(r.tag, 5);
  a.receive(encodeLinkFrame({ kind: ACK, from: peer, to: a.id, next: 1 }), 6);
  assert.equal(a.unacked.size, 0);
  a.receive(encodeLinkFrame({ kind: PING, from: peer, to: a.id }), 8);
  assert.equal(a.tick(9).silent, false);
  // A new connection is not live until the peer proves itself on it again.
  a.reconnected(9);
  assert.equal(a.live, false);
  a.receive(encodeLinkFrame({ kind: PING, from: peer, to: a.id }), 12);
  assert.equal(a.tick(14).silent, true);
});

test('liveness proofs: once the session exists only a proof for this connection\'s challenge counts (§12.2 item 4)', () => {
  const a = new ReliableLink({ rng: vectorStream('link-proof'), retransmit: 1, keepalive: 4, vouching: true, period: 100 });
  const peer = Uint8Array.of(7, 7, 7, 7, 7, 7, 7, 7);
  const key = new Uint8Array(32).fill(1);
  const hello = decodeLinkFrame(a.start(0)[0]);
  assert.ok(hello && hello.kind === HELLO && hello.payload && hello.payload.length === 16);
  assert.equal(a.setLivenessKey(key).length, 1); // not live: it asks for a proof at once
  const r = a.receive(encodeLinkFrame({ kind: DATA, from: peer, to: a.id, n: 0, payload: Uint8Array.of(2) }), 0);
  a.vouch(r.tag, 0);
  assert.equal(a.live || a.vouched, false); // a payload proves nothing now (a repeat authenticates)
  const proof = (/** @type {Uint8Array} */ k, /** @type {Uint8Array} */ challenge) =>
    encodeLinkFrame({ kind: PROOF, from: peer, to: a.id, payload: livenessProof(k, a.id, peer, challenge) });
  a.receive(proof(new Uint8Array(32).fill(2), a.challenge), 1); // under another key
  a.receive(proof(key, new Uint8Array(16)), 1); // for another challenge
  assert.equal(a.live, false);
  assert.equal(a.stats.badProofs, 2);
  const old = a.challenge;
  a.receive(proof(key, old), 1);
  assert.ok(a.live && a.vouched);
  // A new connection has a fresh challenge: the old proof (replayed) proves nothing there.
  a.reconnected(2);
  assert.notDeepEqual(a.challenge, old);
  a.receive(proof(key, old), 2);
  assert.equal(a.live, false);
  assert.equal(a.stats.badProofs, 3);
  // The prover's side: a HELLO is answered with the proof for its challenge.
  const answer = a.receive(encodeLinkFrame({ kind: HELLO, from: peer, to: a.id, payload: new Uint8Array(16).fill(5) }), 3);
  const p = answer.out.map(decodeLinkFrame).find((f) => f && f.kind === PROOF);
  assert.ok(p && p.payload);
  assert.deepEqual(p.payload, livenessProof(key, peer, a.id, new Uint8Array(16).fill(5)));
});

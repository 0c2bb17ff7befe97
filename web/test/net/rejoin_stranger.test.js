// Issue 11 hole 5, the JavaScript side of tests/adversarial/test_rejoin_stranger.py: a stranger in
// the rejoin room cannot end a match, nor hold the room, while the two seats pair again.
//
// Two JavaScript seats play through a real relay process on loopback with the retransmission link
// and the relay rendezvous (spec/protocol.md §12.1, §12.2). Mid-match the relay restarts, so both
// seats meet again in a rejoin room; the real joiner is slowed down, and a stranger that knows the
// tag (as the relay does) gets there first. It either sends one DATA frame of garbage (before
// vouching the host's link adopted it and the garbage failed the match with `aead_failure`), or
// plays a live peer at the link level under the real joiner's link id, never sending a payload
// (before vouching the host never opened the room again and the joiner found it full until the
// deadline). Now the garbage is dropped and counted, the held connection is dropped after the
// keepalive bound like a silent seat, and the match completes with the transcript it would have
// had without any of it.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { pythonMissing, startRelay } from '../python.js';
import { RelayClient } from '../../src/net/relay_client.js';
import { RelayRendezvous, REJOIN_META } from '../../src/net/rendezvous.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { runMatch } from '../../src/net/match.js';
import { ACK, DATA, HELLO, PING, PONG, decodeLinkFrame, encodeLinkFrame } from '../../src/net/reliable.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';
import { systemRandom } from '../../src/mentalpoker/rng.js';
import { failureOf, linkState, stalled } from './watch.js';

const skip = pythonMissing();
const KEEPALIVE = 2;
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** The real joiner's connector, slowed down so that the stranger gets to the rejoin room first. */
class LateJoiner {
  /** @param {RelayRendezvous} inner @param {number} delayMs */
  constructor(inner, delayMs) {
    this.inner = inner;
    this.delayMs = delayMs;
  }

  /** @param {Uint8Array} sessionId */
  bind(sessionId) { this.inner.bind(sessionId); }

  async connect() {
    if (!this.inner.first) await sleep(this.delayMs);
    return this.inner.connect();
  }

  close() { return this.inner.close(); }
}

/**
 * Join the first rejoin room of the host's tag, read the host's HELLO, then send a HELLO and one
 * DATA frame of garbage (`holds` false), or answer the keepalive under the real joiner's link id
 * (which the host's HELLO names) and ping on its own until the host drops the connection.
 * @param {string} url @param {RelayRendezvous} host @param {boolean} holds @param {{done: boolean}} stop
 * @param {{sent: number, pings: number}} seen
 */
async function stranger(url, host, holds, stop, seen) {
  const own = systemRandom(8);
  while (!stop.done) {
    let rooms = [];
    try {
      rooms = await RelayClient.lobby(url, { rejoin: host.tag });
    } catch {
      await sleep(10);
      continue;
    }
    const room = rooms.find((r) => r.meta?.[REJOIN_META] === host.tag);
    if (!room) {
      await sleep(10);
      continue;
    }
    let client;
    try {
      client = await RelayClient.join(url, room.code);
    } catch {
      continue;
    }
    try {
      const hello = decodeLinkFrame(await client.receive());
      assert.ok(hello && hello.kind === HELLO);
      const id = holds && hello.to.some((b) => b !== 0) ? hello.to : own;
      const frame = (/** @type {number} */ kind, rest = {}) => encodeLinkFrame({ kind, from: id, to: hello.from, ...rest });
      seen.sent += 1;
      if (!holds) {
        const garbage = new Uint8Array(205);
        garbage.set(systemRandom(205));
        garbage[0] = 0x10; // an ENVELOPE frame's kind: it reaches the channel, which cannot open it
        client.send(frame(HELLO, { payload: new Uint8Array(16) }));
        client.send(frame(DATA, { n: 0, payload: garbage }));
        await sleep(500);
        return;
      }
      const pinging = (async () => {
        while (!stop.done && !client.failure) {
          try { client.send(frame(PING)); } catch { return; }
          seen.pings += 1;
          await sleep(200);
        }
      })();
      while (!stop.done) {
        let raw;
        try {
          raw = await Promise.race([client.receive(), sleep(100).then(() => null)]);
        } catch {
          break; // the host closed the room
        }
        const f = raw && decodeLinkFrame(raw);
        if (!f) continue;
        if (f.kind === HELLO) client.send(frame(HELLO, { payload: new Uint8Array(16) }));
        else if (f.kind === PING) client.send(frame(PONG));
        else if (f.kind === DATA) client.send(frame(ACK, { next: /** @type {number} */ (f.n) + 1 }));
      }
      await pinging;
      return;
    } finally {
      await client.close().catch(() => {});
    }
  }
}

/**
 * One 1-round match between two JavaScript seats through a relay, optionally restarted mid-match
 * with a stranger racing into the rejoin room.
 * @param {{restart: boolean, stranger?: 'garbage' | 'holds'}} o
 */
async function match(o) {
  let relay = /** @type {any} */ (await startRelay());
  const port = new URL(relay.url).port;
  const stop = { done: false };
  const seen = { sent: 0, pings: 0 };
  /** @type {Promise<unknown>[]} */
  const background = [];
  const restart = failureOf();
  /** @type {LinkTransport[]} */
  const links = [];
  try {
    const firstHost = await RelayClient.create(relay.url);
    const firstJoin = await RelayClient.join(relay.url, firstHost.code);
    await firstHost.waitForPeer(10000);
    const host = new RelayRendezvous(relay.url, 0, 'STRANGER', { first: firstHost, pairTimeoutMs: 20000 });
    const joiner = new LateJoiner(new RelayRendezvous(relay.url, 1, 'STRANGER', { first: firstJoin, pairTimeoutMs: 20000, pollMs: 100 }), 1000);
    for (const [seat, connect] of /** @type {const} */ ([[0, host], [1, joiner]])) {
      links.push(new LinkTransport(await connect.connect(), {
        rng: vectorStream(`rejoin-stranger-link-${seat}`), connect, keepalive: KEEPALIVE, vouching: true,
        retransmit: 0.1, maxRetransmit: 1, tickMs: 50,
      }));
    }
    let restarted = false;
    const profile = withRounds(preset('wikipedia'), 1);
    const play = (/** @type {0 | 1} */ seat) => {
      const rng = vectorStream(`rejoin-stranger-peer-${seat}`);
      return runMatch(links[seat], { seat, identity: new Identity(rng(32)), room: 'STRANGER', rng, profile, autoAccept: true }, {
        choose: (peer, ev) => /** @type {any} */ (ev).options[0],
        onEvent: (ev) => {
          // Mid-match, on the host's first move: the relay restarts (rooms and buffers lost).
          if (seat !== 0 || !o.restart || restarted || ev.type !== 'your_turn') return;
          restarted = true;
          if (o.stranger) background.push(stranger(relay.url, host, o.stranger === 'holds', stop, seen));
          background.push((async () => {
            await relay.stop();
            relay = await startRelay(['--port', port]);
          })().catch(restart.fail));
        },
      });
    };
    const outcomes = await Promise.race([Promise.all([play(0), play(1)]), restart.failed, stalled(90000, () => links.map(linkState))]);
    await Promise.all(links.map((l) => l.close()));
    return { outcomes, seen, repairs: links.map((l) => l.repairs) };
  } finally {
    stop.done = true;
    await Promise.allSettled(background);
    for (const l of links) {
      l.closed = true;
      clearInterval(l.timer);
    }
    await relay.stop();
  }
}

/** @type {Uint8Array | null} */
let reference = null;

/** The transcript of the same match without restart or stranger (the room and every seed are fixed). */
async function referenceTranscript() {
  if (!reference) {
    const { outcomes } = await match({ restart: false });
    assert.ok(outcomes.every((x) => x.ok), JSON.stringify(outcomes.map((x) => x.failure)));
    reference = /** @type {Uint8Array} */ (outcomes[0].transcript);
  }
  return reference;
}

test('a stranger that knows the rejoin tag and sends garbage only delays the pair', { skip, timeout: 120000 }, async () => {
  const want = await referenceTranscript();
  const { outcomes, seen, repairs } = await match({ restart: true, stranger: 'garbage' });
  assert.equal(seen.sent, 1, JSON.stringify(seen));
  assert.ok(outcomes.every((x) => x.ok), JSON.stringify(outcomes.map((x) => x.failure)));
  // The host dropped and counted the stranger's frame and paired again; the joiner never saw it.
  assert.deepEqual(outcomes.map((x) => x.dropped), [1, 0]);
  assert.ok(repairs[0] >= 2, JSON.stringify(repairs)); // the rejoin room the stranger took, then the next
  for (const x of outcomes) assert.deepEqual(x.transcript, want);
  assert.equal(auditBytes(want).ok, true);
});

test('a stranger that answers the keepalive cannot hold the rejoin room', { skip, timeout: 120000 }, async () => {
  const want = await referenceTranscript();
  const { outcomes, seen, repairs } = await match({ restart: true, stranger: 'holds' });
  assert.equal(seen.sent, 1, JSON.stringify(seen));
  assert.ok(seen.pings >= 3, JSON.stringify(seen));
  assert.ok(outcomes.every((x) => x.ok), JSON.stringify(outcomes.map((x) => x.failure)));
  // The host dropped the held connection after the keepalive bound and opened the room again.
  assert.ok(repairs[0] >= 2, JSON.stringify(repairs));
  assert.deepEqual(outcomes.map((x) => x.dropped), [0, 0]);
  for (const x of outcomes) assert.deepEqual(x.transcript, want);
});

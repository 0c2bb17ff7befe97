// spec/protocol.md §12.4: no abandonment claim while our own relay is unreachable. Two JavaScript
// seats play through a real relay process; on the host's first move the relay goes down for
// longer than the joiner's (scaled) deadline for that move. The joiner cannot reach the relay
// either, so it does not claim; once the relay is back both pair again in a rejoin room, the
// move arrives and the match ends with the transcript it would have had without the outage.
// Before, the joiner claimed abandonment while the relay was down.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { pythonMissing, startRelay } from '../python.js';
import { RelayClient } from '../../src/net/relay_client.js';
import { RelayRendezvous } from '../../src/net/rendezvous.js';
import { LinkTransport } from '../../src/net/link_transport.js';
import { runMatch } from '../../src/net/match.js';
import { RELAY_GRACE_S, RELAY_HOLD_MAX_S, RelayReach } from '../../src/net/reach.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';
import { failureOf, linkState, stalled } from './watch.js';

const skip = pythonMissing();
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
// The terms' deadlines (60 s for a step) times this: 6 s, shorter than the outage.
const SCALE = 0.1;
const OUTAGE_MS = 9000;

/** @param {{outage: boolean}} o */
async function match(o) {
  let relay = /** @type {any} */ (await startRelay());
  const port = new URL(relay.url).port;
  /** @type {Promise<unknown>[]} */
  const background = [];
  const restart = failureOf();
  /** @type {LinkTransport[]} */
  const links = [];
  /** @type {RelayRendezvous[]} */
  const connectors = [];
  try {
    const firstHost = await RelayClient.create(relay.url);
    const firstJoin = await RelayClient.join(relay.url, firstHost.code);
    await firstHost.waitForPeer(10000);
    connectors.push(new RelayRendezvous(relay.url, 0, 'OUTAGE', { first: firstHost, pairTimeoutMs: 20000 }));
    connectors.push(new RelayRendezvous(relay.url, 1, 'OUTAGE', { first: firstJoin, pairTimeoutMs: 20000, pollMs: 100 }));
    for (const seat of /** @type {const} */ ([0, 1])) {
      const connect = connectors[seat];
      links.push(new LinkTransport(await connect.connect(), {
        rng: vectorStream(`outage-link-${seat}`), connect, keepalive: 2, vouching: true,
        retransmit: 0.1, maxRetransmit: 1, tickMs: 50,
      }));
    }
    let cut = false;
    const profile = withRounds(preset('wikipedia'), 1);
    const play = (/** @type {0 | 1} */ seat) => {
      const rng = vectorStream(`outage-peer-${seat}`);
      return runMatch(links[seat], { seat, identity: new Identity(rng(32)), room: 'OUTAGE', rng, profile, autoAccept: true }, {
        deadlineScale: SCALE,
        choose: (peer, ev) => /** @type {any} */ (ev).options[0],
        onEvent: (ev) => {
          if (seat !== 0 || !o.outage || cut || ev.type !== 'your_turn') return;
          cut = true;
          background.push((async () => {
            await relay.stop();
            await sleep(OUTAGE_MS);
            relay = await startRelay(['--port', port]);
          })().catch(restart.fail));
        },
      });
    };
    const outcomes = await Promise.race([Promise.all([play(0), play(1)]), restart.failed, stalled(90000, () => links.map(linkState))]);
    await Promise.all(links.map((l) => l.close()));
    return { outcomes, cut, reach: connectors.map((c) => c.reach) };
  } finally {
    await Promise.allSettled(background);
    for (const l of links) {
      l.closed = true;
      clearInterval(l.timer);
    }
    await relay.stop();
  }
}

test('a relay outage longer than the deadline ends in no claim: the match goes on once the relay is back', { skip, timeout: 120000 }, async () => {
  const calm = await match({ outage: false });
  assert.ok(calm.outcomes.every((x) => x.ok), JSON.stringify(calm.outcomes.map((x) => x.failure && { reason: x.failure.reason, detail: x.failure.detail })));
  const { outcomes, cut, reach } = await match({ outage: true });
  assert.ok(cut);
  assert.ok(outcomes.every((x) => x.ok), JSON.stringify(outcomes.map((x) => x.failure && { reason: x.failure.reason, detail: x.failure.detail })));
  for (const x of outcomes) assert.deepEqual(x.transcript, calm.outcomes[0].transcript);
  assert.equal(auditBytes(/** @type {Uint8Array} */ (outcomes[0].transcript)).ok, true);
  // Both connectors saw the relay gone and back.
  for (const r of reach) {
    assert.equal(r.down, false);
    assert.ok(r.upSince > -Infinity, 'no outage was recorded');
  }
});

test('RelayReach: no claim while the relay is down, a grace after it answers again', () => {
  let now = 100;
  const reach = new RelayReach(() => now);
  now += 60;
  assert.equal(reach.hold(10, 12), 0);
  reach.missed();
  now += 30;
  assert.equal(reach.hold(10, 40), 10 + RELAY_HOLD_MAX_S - 40); // until the cap
  assert.equal(reach.hold(10, 10 + RELAY_HOLD_MAX_S), 0); // a relay that never answers: claim at the cap
  reach.missed();
  assert.equal(reach.downSince, 160);
  reach.reached();
  assert.equal(reach.hold(10, 41), 10);
  assert.equal(reach.hold(600, 601), RELAY_GRACE_S);
  now += 4;
  assert.equal(reach.hold(10, 45), 6);
  now += 7;
  assert.equal(reach.hold(10, 52), 0);
});

test('a connector that cannot reach the relay says so', { skip }, async () => {
  const relay = /** @type {any} */ (await startRelay());
  const url = relay.url;
  await relay.stop();
  for (const seat of /** @type {const} */ ([0, 1])) {
    const connector = new RelayRendezvous(url, seat, 'NOBODY', { pairTimeoutMs: 1000 });
    await assert.rejects(connector.connect(), (/** @type {any} */ e) => e.reason === 'unreachable');
    assert.equal(connector.reach.down, true);
  }
});

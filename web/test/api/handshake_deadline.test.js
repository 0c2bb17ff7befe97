// A seat whose opponent leaves (or stalls) before the session exists ends with a `failure`
// "timeout" once the handshake deadline passes (as the Python Match and run_peer), instead of
// waiting without end while its link looks for the peer through the relay (QA: a JS joiner whose
// host closed 0.5 s after the join heard nothing for 300 s and reconnected about 1.6 times a second).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { Match, newIdentity, memoryPair, hostRoom, joinRoom, RelayClient, LocalError } from '../../src/api/match.js';
import { pythonMissing, startRelay } from '../python.js';

const skip = pythonMissing();
/** @type {{url: string, stop: () => Promise<void>}} */ let relay;
before(async () => { if (!skip) relay = /** @type {any} */ (await startRelay()); });
after(async () => { await relay?.stop(); });

/** The events of a match until its last. @param {Match} match */
async function run(match) {
  /** @type {any[]} */
  const seen = [];
  for await (const ev of match.events()) seen.push(ev);
  return seen;
}

test('a seat whose peer never answers the handshake fails with timeout after handshakeDeadline', { timeout: 30_000 }, async () => {
  for (const seat of /** @type {const} */ ([0, 1])) {
    const [a] = memoryPair();
    // Seat 1 with enforceDeadlines off: the handshake's bound is kept all the same.
    const match = new Match(a, { seat, identity: newIdentity(), room: 'R', handshakeDeadline: 0.5, enforceDeadlines: seat === 0 });
    const seen = await run(match);
    assert.deepEqual(seen.map((e) => e.type), ['failure']);
    assert.equal(seen[0].reason, 'timeout');
    assert.equal(seen[0].who, 1 - seat);
    assert.match(seen[0].message, /handshake/);
  }
  assert.throws(() => new Match(memoryPair()[0], { seat: 0, identity: newIdentity(), room: 'R', handshakeDeadline: 0 }), LocalError);
});

test('a JS joiner whose host leaves during the handshake ends with a failure and stops pairing', { skip, timeout: 60_000 }, async () => {
  const host = await RelayClient.create(relay.url);
  const room = await joinRoom(relay.url, host.code);
  await host.waitForPeer();
  const transport = await room.connect();
  const match = new Match(transport, { seat: 1, identity: newIdentity(), room: room.code, handshakeDeadline: 2 });
  const running = run(match);
  await host.receive(); // the joiner's link said HELLO: the host leaves without a handshake frame
  await host.close();
  const seen = await running;
  assert.deepEqual(seen.map((e) => e.type), ['failure']);
  assert.equal(seen[0].reason, 'timeout');
  // The link closed with the match: its connector pairs no more.
  const connector = /** @type {any} */ (transport).connector;
  assert.equal(connector.stopped, true);
  assert.equal(/** @type {any} */ (transport).closed, true);
});

test('a JS host whose joiner leaves during the handshake ends with a failure', { skip, timeout: 60_000 }, async () => {
  const room = await hostRoom(relay.url);
  const joiner = await RelayClient.join(relay.url, room.code);
  const connecting = room.connect();
  await new Promise((r) => setTimeout(r, 200));
  await joiner.close();
  const match = new Match(await connecting, { seat: 0, identity: newIdentity(), room: room.code, handshakeDeadline: 2 });
  const seen = await run(match);
  assert.deepEqual(seen.map((e) => e.type), ['failure']);
  assert.equal(seen[0].reason, 'timeout');
});

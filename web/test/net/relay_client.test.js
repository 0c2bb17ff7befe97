// The relay client against the real relay process on loopback, and the relay code vectors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector } from '../helpers.js';
import { pythonMissing, startRelay } from '../python.js';
import { RelayClient, normaliseCode, RelayClosed } from '../../src/net/relay_client.js';

test('codes.json: typed codes normalise to the canonical form', () => {
  const v = vector('relay/codes.json');
  for (const c of v.cases) if (c.code) assert.equal(normaliseCode(c.input), c.code, c.input);
});

test('create, join, frames both ways in order, peer_left', { skip: pythonMissing() }, async () => {
  const relay = /** @type {any} */ (await startRelay());
  try {
    const host = await RelayClient.create(relay.url, { public: true, meta: { rules: 'nintendo' } });
    assert.equal(host.seat, 0);
    const rooms = await RelayClient.lobby(relay.url);
    assert.ok(rooms.some((r) => r.code === host.code));
    const joiner = await RelayClient.join(relay.url, host.code.toLowerCase());
    assert.equal(joiner.seat, 1);
    await host.waitForPeer(5000);
    for (let i = 0; i < 100; i++) host.send(Uint8Array.of(i, 1));
    for (let i = 0; i < 100; i++) joiner.send(Uint8Array.of(i, 2));
    for (let i = 0; i < 100; i++) assert.deepEqual(await joiner.receive(), Uint8Array.of(i, 1));
    for (let i = 0; i < 100; i++) assert.deepEqual(await host.receive(), Uint8Array.of(i, 2));
    await joiner.close();
    await assert.rejects(host.receive(), (e) => e instanceof RelayClosed && e.reason === 'peer_left');
  } finally {
    await relay.stop();
  }
});

test('join of an unknown room is refused with room_not_found', { skip: pythonMissing() }, async () => {
  const relay = /** @type {any} */ (await startRelay());
  try {
    await assert.rejects(RelayClient.join(relay.url, 'ZZZZZZ'), (e) => /** @type {any} */ (e).reason === 'room_not_found');
  } finally {
    await relay.stop();
  }
});

test('a relay that cannot be opened is unreachable with its URL as the message, for the words that name why', async () => {
  // Port 1 refuses. A browser cannot tell that from a relay that closed the connection unanswered
  // (too many new connections from this address, spec/relay.md §7.1): the app's words (errorRelay)
  // name both and take this URL (the worker passes the detail on). Before: the page said
  // "No relay answers at unreachable: no relay at URL.".
  await assert.rejects(RelayClient.lobby('ws://127.0.0.1:1'),
    (e) => /** @type {any} */ (e).reason === 'unreachable' && /** @type {any} */ (e).detail === 'ws://127.0.0.1:1/v1');
});

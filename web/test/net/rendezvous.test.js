// The rejoin tag of spec/protocol.md §12.2, against the Python peer's for the same inputs
// (koikoi_p2p.net.rendezvous.rendezvous_tag), unbound and bound to a session id.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { rendezvousTag } from '../../src/net/rendezvous.js';

test('the rejoin tag, unbound and bound to the session, is the Python peer\'s', () => {
  assert.equal(rendezvousTag('K7QX2M'), '18d69c53e78b8cadb035e7432b72edb6');
  const session = Uint8Array.from({ length: 32 }, (_, i) => i);
  assert.equal(rendezvousTag('K7QX2M', session), 'e4b88071764fee2dcf9de3636fe8d42d');
});

// A stranger that replays a frame the real peer once sent it (review finding, spec/protocol.md
// §12.2 items 2 and 3). A repeat authenticates (channel.authenticates: an exact repeat of one of
// the peer's handshake frames, or an old envelope that still opens). A stranger who once sat in a
// room with the host (the public room before the joiner came, or an unbound rejoin room) holds
// such frames: the host sends its outbox, or a repeat of its last frame, to whoever joins.
// Replayed to the joiner in a room of the stranger's, it used to make that pairing vouched and
// live: the host's id was retired, the stranger's ACKs taken, and the two seats never met again.
// Once the session exists only a proof answering this connection's HELLO challenge, under the
// session's liveness key, counts; the replay is delivered (the channel ignores the duplicate) and
// proves nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { ACK, DATA, decodeLinkFrame, encodeLinkFrame } from '../../src/net/reliable.js';
import { ReliableLink } from '../../src/net/reliable.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { equal } from '../../src/bytes.js';

/** @param {string} name */
const link = (name) => new ReliableLink({ rng: vectorStream(`replay-stranger/${name}`), vouching: true, keepalive: 10 });

/**
 * Deliver frames from one link to another; the receiving driver vouches for each payload that is
 * one of the host's genuine payloads (as channel.authenticates says for a repeat) and rejects others.
 * @param {ReliableLink} to @param {Uint8Array[]} frames @param {Uint8Array[]} genuine @param {number} now
 */
function pass(to, frames, genuine, now) {
  /** @type {Uint8Array[]} */
  const out = [];
  for (const f of frames) {
    const r = to.receive(f, now);
    out.push(...r.out);
    for (const p of r.deliver) {
      if (genuine.some((g) => equal(g, p))) to.vouch(r.tag, now);
      else to.reject(r.tag);
    }
  }
  return out;
}

test('a replayed genuine frame does not make a stranger the peer', () => {
  const host = link('host');
  const joiner = link('joiner');
  const payload = new Uint8Array([7, 7, 7]); // stands for the host's first handshake frame
  const genuine = [payload];
  // The host and the joiner pair; the joiner vouches for the host's payload.
  let toJoiner = [...host.start(0), ...host.send(payload)];
  let toHost = joiner.start(0);
  for (let i = 0; i < 4; i++) {
    toHost = pass(joiner, toJoiner, genuine, 0);
    toJoiner = pass(host, toHost, [], 0);
  }
  assert.ok(joiner.vouched && joiner.peerId !== null && equal(joiner.peerId, host.id));
  // The session exists on both sides: the links get its liveness key.
  const key = new Uint8Array(32).fill(9);
  toJoiner = host.setLivenessKey(key);
  toHost = joiner.setLivenessKey(key);
  for (let i = 0; i < 3; i++) {
    toHost = pass(joiner, toJoiner, genuine, 0).concat(toHost);
    toJoiner = pass(host, toHost, [], 0);
    toHost = [];
  }
  assert.ok(host.live && host.vouched, 'the joiner proved itself to the host');
  // The stranger saw the host's payload when it sat in a room with the host, and now holds the
  // joiner in a room of its own: it replays the payload under an id of its own.
  joiner.reconnected(1);
  const strangerId = new Uint8Array(8).fill(0x5a);
  const replay = encodeLinkFrame({ kind: DATA, from: strangerId, to: joiner.id, n: 0, payload });
  pass(joiner, [replay], genuine, 1);
  // Its ACK must not make the joiner forget what it sent.
  joiner.send(new Uint8Array([1]));
  pass(joiner, [encodeLinkFrame({ kind: ACK, from: strangerId, to: joiner.id, next: 1 })], genuine, 1);
  assert.equal(joiner.unacked.size, 1, 'the stranger acknowledged a frame it never passed on');
  // The joiner meets the host again: they must pair again.
  joiner.reconnected(2);
  const hello = joiner.reconnected(2);
  let heard = pass(host, hello, [], 2).concat(host.reconnected(2));
  for (let i = 0; i < 4; i++) heard = pass(host, pass(joiner, heard, genuine, 2), [], 2);
  assert.ok(joiner.peerId !== null && equal(joiner.peerId, host.id), 'the joiner no longer takes the host');
  assert.ok(joiner.live && joiner.vouched, 'the host proved itself on the new connection');
  assert.equal(joiner.stats.badProofs, 0);
  assert.ok(decodeLinkFrame(hello[0]) !== null);
});

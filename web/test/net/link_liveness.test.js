// spec/vectors/protocol/link_liveness.json (spec/protocol.md §12.2 item 4) through the JavaScript
// link: the channel's key derivation, the proof, the HELLO and PROOF frames, and a link that takes
// exactly the vector's proof as the answer to its challenge.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, h, hex } from '../helpers.js';
import { HELLO, PROOF, ReliableLink, decodeLinkFrame, encodeLinkFrame, livenessProof } from '../../src/net/reliable.js';
import { livenessKey } from '../../src/protocol/channel.js';

test('link_liveness.json: key, proof, frames; refused proofs leave the connection unproven', () => {
  const v = vector('protocol/link_liveness.json');
  assert.ok(v.cases.length >= 2);
  for (const c of v.cases) {
    const key = livenessKey(h(c.session_id), [h(c.send_0), h(c.send_1)]);
    assert.equal(hex(key), c.liveness_key);
    const mac = livenessProof(key, h(c.challenger), h(c.prover), h(c.challenge));
    assert.equal(hex(mac), c.mac);
    assert.equal(hex(encodeLinkFrame({ kind: HELLO, from: h(c.challenger), to: new Uint8Array(8), payload: h(c.challenge) })), c.hello);
    assert.equal(hex(encodeLinkFrame({ kind: PROOF, from: h(c.prover), to: h(c.challenger), payload: mac })), c.proof);
    // A link that is the challenger, with the vector's id and challenge.
    const draws = [h(c.challenger), h(c.challenge)];
    const link = new ReliableLink({ rng: () => /** @type {Uint8Array} */ (draws.shift()), vouching: true });
    assert.equal(hex(link.start(0)[0]), c.hello);
    link.setLivenessKey(key);
    for (const refused of Object.values(c.refused)) {
      link.receive(encodeLinkFrame({ kind: PROOF, from: h(c.prover), to: h(c.challenger), payload: h(/** @type {string} */ (refused)) }), 0);
    }
    assert.equal(link.live, false);
    assert.equal(link.stats.badProofs, Object.keys(c.refused).length);
    link.receive(h(c.proof), 0);
    assert.ok(link.live && link.vouched);
    assert.equal(decodeLinkFrame(h(c.proof))?.kind, PROOF);
  }
});

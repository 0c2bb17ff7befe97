// spec/vectors/protocol/session_*.json through the JavaScript session layer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, h, hex, reasonOf } from '../helpers.js';
import { decode, encode } from '../../src/protocol/codec.js';
import { sasString } from '../../src/protocol/sas.js';
import { decodeEnvelope, encodeEnvelope, envelopeDigest } from '../../src/protocol/envelope.js';
import { Identity } from '../../src/protocol/identity.js';
import { Handshake, commitment, prologue, transcriptHashes } from '../../src/protocol/handshake.js';
import { frameKeys, sealFrame } from '../../src/protocol/channel.js';
import { ed25519Verify } from '../../src/protocol/primitives.js';

/** Tagged JSON ({"bytes": hex}) to a codec value. @param {any} v @returns {any} */
function fromTagged(v) {
  if (Array.isArray(v)) return v.map(fromTagged);
  if (v !== null && typeof v === 'object') {
    if (Object.keys(v).length === 1 && typeof v.bytes === 'string') return h(v.bytes);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromTagged(x)]));
  }
  if (typeof v === 'number' && !Number.isSafeInteger(v)) return BigInt(v);
  return v;
}

test('session_codec.json', () => {
  const v = vector('protocol/session_codec.json');
  for (const c of v.cases) {
    let value = fromTagged(c.value);
    // JSON cannot carry 64-bit integers exactly: take them from the expected bytes.
    if (c.id === 'uint64_max') value = (1n << 64n) - 1n;
    if (c.id === 'int64_min') value = -(1n << 63n);
    assert.equal(hex(encode(value)), c.hex, c.id);
    assert.deepEqual(decode(h(c.hex)), value, c.id);
  }
  for (const c of v.invalid) assert.equal(reasonOf(() => decode(h(c.hex))), c.error, c.id);
});

test('session_sas.json', () => {
  for (const c of vector('protocol/session_sas.json').cases) assert.equal(sasString(h(c.sas_bytes)), c.sas, c.id);
});

test('session_envelope.json', () => {
  const v = vector('protocol/session_envelope.json');
  const identity = new Identity(h(v.provenance.identity_seed));
  for (const c of v.cases) {
    const f = c.fields;
    const e = { version: f.version, sessionId: h(f.session_id), seq: f.seq, prev: h(f.prev), sender: f.sender, type: f.type, body: fromTagged(f.body) };
    const raw = encodeEnvelope(e);
    assert.equal(hex(raw), c.raw, c.id);
    assert.deepEqual(decodeEnvelope(raw), e);
    assert.equal(hex(identity.sign(raw)), c.signature, c.id);
    assert.equal(hex(envelopeDigest(f.version, raw)), c.digest, c.id);
    const keys = frameKeys(f.version, h(c.send_key));
    assert.deepEqual([hex(keys.aead), hex(keys.nonce)], c.frame_keys, c.id);
    assert.equal(hex(sealFrame(keys, f.seq, identity.sign(raw), raw)), c.frame, c.id);
  }
  for (const c of v.invalid) assert.equal(reasonOf(() => decodeEnvelope(h(c.raw))), c.error, c.id);
  // spec/protocol.md §4.1: signatures every verifier refuses (libsodium's rule).
  assert.ok(v.bad_signatures.length >= 4);
  const identity0 = new Identity(h(v.provenance.identity_seed));
  for (const c of v.bad_signatures) {
    assert.equal(c.message, v.cases[0].raw, c.id);
    assert.equal(ed25519Verify(h(c.public_key), h(c.message), h(c.signature)), false, c.id);
  }
  assert.equal(ed25519Verify(identity0.publicKey, h(v.cases[0].raw), h(v.cases[0].signature)), true);
});

/** Run both seats of a vector case; `tamper` may change a frame before delivery. */
function runHandshake(/** @type {any} */ c, tamper = (/** @type {string} */ _name, /** @type {Uint8Array} */ f) => f) {
  const ids = c.identity_seeds.map((/** @type {string} */ s) => new Identity(h(s)));
  const seats = [0, 1].map((seat) => new Handshake({
    seat: /** @type {0 | 1} */ (seat), identity: ids[seat], room: c.room, name: c.names[seat], password: c.password,
    seed: h(c.seeds[seat]), version: c.version,
  }));
  const names = ['hello', 'reply', 'reveal', 'confirm', 'sign'];
  /** @type {Record<string, Uint8Array>} */
  const frames = {};
  let pending = seats[0].start();
  let to = 1;
  for (const name of names) {
    if (name === 'sign') pending = [/** @type {any} */ (seats[0].result).pendingSign];
    assert.equal(pending.length, 1);
    frames[name] = pending[0];
    pending = seats[to].receive(tamper(name, pending[0]));
    to = 1 - to;
  }
  return { seats, frames };
}

test('session_handshake.json: every frame and derived value', () => {
  const v = vector('protocol/session_handshake.json');
  for (const c of v.cases) {
    const { seats, frames } = runHandshake(c);
    for (const name of Object.keys(c.frames)) assert.equal(hex(frames[name]), c.frames[name], `${c.id} ${name}`);
    assert.equal(hex(prologue(c.version, c.room)), c.prologue);
    const e0 = frames.reveal.subarray(1, 33);
    assert.equal(hex(commitment(c.version, e0)), c.commitment);
    const hs = transcriptHashes(c.version, c.room, frames.hello, frames.reply, e0);
    assert.equal(hex(hs.h0), c.h0);
    assert.equal(hex(hs.h1), c.h_prologue);
    assert.equal(hex(hs.h2), c.h_hello);
    assert.equal(hex(hs.hk), c.h_k);
    assert.deepEqual(seats.map((s) => hex(/** @type {Uint8Array} */ (s.ephemeral))), c.ephemeral_secrets);
    for (const s of seats) {
      assert.equal(hex(s.ha), c.h_a);
      const r = /** @type {import('../../src/protocol/handshake.js').HandshakeResult} */ (s.result);
      assert.equal(hex(r.handshakeHash), c.handshake_hash);
      assert.equal(hex(r.sessionId), c.session_id);
      assert.equal(r.sas, c.sas);
      assert.equal(r.sasBytes ? hex(r.sasBytes) : null, c.sas_bytes);
      assert.equal(hex(r.recordBytes), c.record_msgpack);
      assert.deepEqual(r.identityKeys.map(hex), c.identity_keys);
      assert.equal(hex(r.sendSecrets[0]), c.keys['send 0']);
      assert.equal(hex(r.sendSecrets[1]), c.keys['send 1']);
      assert.deepEqual(r.names, c.names);
      assert.deepEqual(/** @type {Uint8Array[]} */ (r.record.signatures).map(hex), c.signatures);
      assert.equal(hex(/** @type {Uint8Array} */ (s.dh)), c.dh);
      assert.equal(s.spakeKey ? hex(s.spakeKey) : null, c.spake_key);
      for (const [l, k] of Object.entries(c.keys)) assert.equal(hex(/** @type {any} */ (s.keys)[l]), k, l);
    }
    assert.deepEqual(c.identity_seeds.map((/** @type {string} */ s) => new Identity(h(s)).fingerprint()), c.fingerprints);
  }
  for (const bad of v.invalid) {
    const base = v.cases.find((/** @type {any} */ c) => c.id === bad.base);
    const reason = reasonOf(() => runHandshake(base, (name, f) => {
      if (name !== bad.frame) return f;
      const g = f.slice();
      g[bad.xor_at] ^= bad.xor;
      return g;
    }));
    assert.equal(reason, bad.error, bad.id);
  }
});

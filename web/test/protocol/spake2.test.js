// spec/vectors/protocol/spake2.json (made by the python-spake2 package) through the JavaScript
// SPAKE2 of spec/protocol.md §5.4.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, h, hex } from '../helpers.js';
import { Spake2, Spake2Error, passwordToScalar, spake2Params } from '../../src/protocol/spake2.js';
import { scalarToBigInt } from '../../src/mentalpoker/group.js';
import { utf8 } from '../../src/bytes.js';

/** 32 bytes big-endian of a little-endian scalar. @param {Uint8Array} s */
const be = (s) => scalarToBigInt(s).toString(16).padStart(64, '0');

test('spake2.json: M, N, password scalars, exchanges, refused messages', () => {
  const v = vector('protocol/spake2.json');
  const { M, N } = spake2Params();
  assert.equal(hex(M), v.M);
  assert.equal(hex(N), v.N);
  for (const c of v.password_scalars) assert.equal(be(passwordToScalar(h(c.pw))), c.w, c.pw);
  for (const c of v.cases) {
    assert.equal(hex(utf8(c.password.normalize('NFC'))), c.pw);
    const a = new Spake2('A', h(c.pw), utf8(c.idA), utf8(c.idB), () => h(c.entropy_a));
    const b = new Spake2('B', h(c.pw), utf8(c.idA), utf8(c.idB), () => h(c.entropy_b));
    assert.equal(be(a.pw), c.w);
    assert.equal(be(a.xy), c.x);
    assert.equal(be(b.xy), c.y);
    assert.equal(hex(a.message()), c.message_a, c.id);
    assert.equal(hex(b.message()), c.message_b, c.id);
    assert.equal(hex(a.finish(b.message())), c.key, c.id);
    assert.equal(hex(/** @type {Uint8Array} */ (a.sharedElement)), c.K, c.id);
    assert.equal(hex(b.finish(a.message())), c.key, c.id);
  }
  const base = v.cases[0];
  for (const bad of v.invalid) {
    const side = bad.side_expected === 'B' ? 'A' : 'B';
    const me = new Spake2(side, h(base.pw), utf8(base.idA), utf8(base.idB), () => h(side === 'A' ? base.entropy_a : base.entropy_b));
    // The handshake reports every refusal as bad_key (spec/protocol.md §5.4).
    assert.equal(bad.error, 'bad_key');
    assert.throws(() => me.finish(h(bad.message)), Spake2Error, bad.id);
  }
});

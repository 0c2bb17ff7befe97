// spec/vectors/identity/identity_file.json through the JavaScript identity file (spec/identity.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, h } from '../helpers.js';
import { ready } from '../../src/sodium.js';
import { Identity } from '../../src/protocol/identity.js';
import { IdentityFileError, openIdentity, sealIdentity } from '../../src/protocol/identity_file.js';
import { toHex } from '../../src/bytes.js';

const data = vector('identity/identity_file.json');

test('valid files open to their seed, name and fingerprint, and reseal byte for byte', async () => {
  await ready();
  for (const c of data.valid) {
    const opened = openIdentity(h(c.file), c.passphrase);
    assert.equal(toHex(opened.identity.seed), c.seed, c.id);
    assert.equal(toHex(opened.identity.publicKey), c.public_key, c.id);
    assert.equal(opened.fingerprint, c.fingerprint, c.id);
    assert.equal(opened.name, c.name, c.id);
    const parts = [h(c.salt), h(c.nonce)];
    const again = sealIdentity(new Identity(h(c.seed)), c.name, c.passphrase, () => /** @type {Uint8Array} */ (parts.shift()),
      { opslimit: c.opslimit, memlimitKib: c.memlimit_kib });
    assert.equal(toHex(again), c.file, c.id);
  }
});

test('invalid files fail with the reason the spec names', async () => {
  await ready();
  for (const c of data.invalid) {
    assert.throws(() => openIdentity(h(c.file), c.passphrase),
      (/** @type {any} */ err) => err instanceof IdentityFileError && err.reason === c.reason, c.id);
  }
});

test('sealing refuses a short passphrase and takes a fresh salt and nonce each time', async () => {
  await ready();
  const me = new Identity(new Uint8Array(32).fill(1));
  const random = (/** @type {number} */ n) => crypto.getRandomValues(new Uint8Array(n));
  assert.throws(() => sealIdentity(me, '', 'short', random), RangeError);
  const a = sealIdentity(me, 'Hanako', 'long enough passphrase', random, { opslimit: 1, memlimitKib: 8 });
  const b = sealIdentity(me, 'Hanako', 'long enough passphrase', random, { opslimit: 1, memlimitKib: 8 });
  assert.notEqual(toHex(a.subarray(18, 58)), toHex(b.subarray(18, 58)));
  assert.equal(openIdentity(b, 'long enough passphrase').fingerprint, me.fingerprint());
});

// spec/vectors/relay/listings.json: the web client reads a lobby listing as the relay checks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decode } from '@msgpack/msgpack';
import { REPO } from '../helpers.js';
import { checkListing, roomListing } from '../../src/net/listing.js';

const vectors = JSON.parse(readFileSync(path.join(REPO, 'spec', 'vectors', 'relay', 'listings.json'), 'utf8'));

test('every listing vector is read as the relay reads it', () => {
  assert.ok(vectors.cases.length >= 25);
  for (const c of vectors.cases) {
    const value = decode(Buffer.from(c.hex, 'hex'));
    assert.deepEqual(checkListing(value), c.valid ? c.listing : null, c.name);
  }
});

test('a lobby entry without a valid listing shows the old meta, checked the same way', () => {
  assert.deepEqual(roomListing({ meta: { rules: 'nintendo', rounds: 12, password: true, other: 'x' } }), { rules: 'nintendo', rounds: 12, password: true });
  assert.deepEqual(roomListing({ meta: { rules: 'Evil\u202e', rounds: -3 } }), {});
  assert.deepEqual(roomListing({ listing: { name: 'x\n' }, meta: { rules: 'wikipedia' } }), { rules: 'wikipedia' });
  assert.deepEqual(roomListing({ listing: { name: 'Hanako', fp: 'abcd-ef23' }, meta: { rules: 'wikipedia' } }), { name: 'Hanako', fp: 'abcd-ef23' });
});

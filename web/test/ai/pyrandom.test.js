// PyRandom draws what CPython's random.Random draws for the same integer seed (the values below
// were printed by CPython 3.11: `random.Random(42).random()` and so on).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PyRandom } from '../../src/ai/pyrandom.js';

test('the same floats, bounded integers and shuffles as CPython', () => {
  const a = new PyRandom(42);
  assert.equal(a.random(), 0.6394267984578837);
  assert.equal(a.randbelow(48), 1);
  assert.equal(a.randbelow(2 ** 32), 3184935163);
  const b = new PyRandom(2n ** 64n + 3n); // a seed of three 32-bit words
  assert.deepEqual(b.shuffle(Array.from({ length: 12 }, (_, i) => i)), [4, 5, 10, 9, 6, 8, 2, 3, 0, 11, 1, 7]);
  assert.equal(b.random(), 0.9931964639895363);
  const c = new PyRandom(0);
  assert.deepEqual(Array.from({ length: 8 }, () => c.randbelow(7)), [6, 3, 6, 3, 0, 2, 4, 3]);
  assert.throws(() => new PyRandom(0.5), RangeError);
  assert.throws(() => c.randbelow(0), RangeError);
});

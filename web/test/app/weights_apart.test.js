// The built app keeps the expert's network in a file of its own (web/app/build.mjs): the worker
// names it for a dynamic import and does not hold it, the app bundle neither, the service worker
// caches it (so the expert plays offline), SHA256SUMS lists it, and the file is the same document
// as koikoi_p2p/ai/expert_weights.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const STATIC = new URL('../../../koikoi_web/static/', import.meta.url);
const read = (/** @type {string} */ name) => readFileSync(new URL(name, STATIC), 'utf8');

test('the expert weights are a hashed file of their own, imported by the worker on demand', async () => {
  const names = readdirSync(STATIC);
  const weights = names.filter((n) => /^weights-[0-9a-f]{12}\.js$/.test(n));
  assert.equal(weights.length, 1, names.join(' '));
  const [name] = weights;
  const workers = names.filter((n) => /^worker-[0-9a-f]{12}\.js$/.test(n));
  const apps = names.filter((n) => /^app-[0-9a-f]{12}\.js$/.test(n));
  assert.equal(workers.length, 1);
  assert.equal(apps.length, 1);
  const worker = read(workers[0]);
  assert.ok(worker.includes(`import("./${name}")`), 'the worker imports the weights by their built name');
  for (const bundle of [worker, read(apps[0])]) {
    assert.ok(!bundle.includes('koikoi-value-mlp/1",inputs'), 'a bundle holds the weights document');
    assert.ok(bundle.length < 1000 * 1024, `a bundle of ${bundle.length} bytes`);
  }
  assert.ok(JSON.parse(/** @type {string} */ (read('sw.js').match(/const FILES = (\[.*\]);/)?.[1])).includes(name), 'the service worker caches the weights');
  assert.match(read('SHA256SUMS'), new RegExp(`^[0-9a-f]{64}  ${name.replace('.', '\\.')}$`, 'm'));
  const { WEIGHTS } = await import(new URL(name, STATIC).href);
  const python = JSON.parse(readFileSync(new URL('../../../koikoi_p2p/ai/expert_weights.json', import.meta.url), 'utf8'));
  assert.deepEqual(WEIGHTS, python);
});

// The Node FileStore (src/api/file_store.js): what a seat saved survives, a torn last line (a
// crash mid-append, never acknowledged) is dropped, the journal goes when the match ends and the
// files stay; ids cannot name paths outside the folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileStore } from '../../src/api/node.js';

test('a FileStore keeps inputs in order, drops a torn last line, and forgets the journal', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'koikoi-store-'));
  try {
    const store = new FileStore(path.join(folder, 'matches'));
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.load('m1'), null);
    await store.create('m1', { version: 2, setup: { seat: 0 }, startedAt: 1, seat: 0, room: 'ABCDEF' });
    await store.append('m1', { input: { frame: '00ff' }, at: 2, sent: 1, sentHash: 'aa' });
    await store.append('m1', { input: { accept: true }, at: 3, sent: 2, sentHash: 'bb' });
    appendFileSync(path.join(folder, 'matches', 'm1.journal'), '{"input": {"fra');
    const loaded = await store.load('m1');
    assert.equal(loaded?.room, 'ABCDEF');
    assert.deepEqual(loaded?.inputs.map((i) => i.sent), [1, 2]);
    assert.deepEqual(await store.list(), ['m1']);
    const where = await store.keep('m1', 'transcript', new Uint8Array([1, 2, 3]));
    assert.deepEqual([...readFileSync(where)], [1, 2, 3]);
    await store.forget('m1');
    assert.deepEqual(await store.list(), []);
    await assert.rejects(store.create('../escape', /** @type {any} */ ({})), RangeError);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

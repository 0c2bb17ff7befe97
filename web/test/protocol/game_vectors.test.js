// Every spec/vectors/protocol/match_*.json through the JavaScript auditor: recorded matches (with
// their one-byte alterations and the failure each must cause), resigned matches, and evidence
// files with their verdicts. The file list is read from the folder, so a new vector runs too.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { VECTORS, vector, vectorBytes } from '../helpers.js';
import { FileError, auditBytes, transcriptShuffleWork } from '../../src/audit/replay.js';
import { auditBytesParallel, verifiedShuffles } from '../../src/audit/parallel_node.js';

/** The reason a file fails with: a container FileError, a deviation, or "incomplete". @param {Uint8Array} data */
function failure(data) {
  try {
    const r = auditBytes(data);
    if (r.ok) return null;
    return r.deviation ? r.deviation.reason : 'incomplete';
  } catch (e) {
    if (e instanceof FileError) return e.reason;
    throw e;
  }
}

const files = readdirSync(path.join(VECTORS, 'protocol')).filter((f) => f.startsWith('match_') && f.endsWith('.json'));

test('the match vectors are there', () => {
  assert.ok(files.length >= 2, files.join(', '));
});

for (const file of files) {
  const v = vector(`protocol/${file}`);
  const x = v.expected;
  if (v.provenance.evidence) {
    test(`${file}: the evidence verdict`, () => {
      const r = auditBytes(vectorBytes(`protocol/${v.provenance.evidence}`));
      assert.equal(r.kind, 'evidence');
      assert.equal(r.ok, x.ok);
      assert.ok(r.deviation, JSON.stringify(r.notes));
      assert.deepEqual([r.deviation.reason, r.deviation.seat, r.deviation.seq], [x.reason, x.seat, x.seq]);
    });
    continue;
  }
  const transcript = v.provenance.transcript ?? file.replace(/\.json$/, '.transcript');
  test(`${file}: the match replays to its recorded outcome`, () => {
    const r = auditBytes(vectorBytes(`protocol/${transcript}`));
    assert.equal(r.ok, x.ok, JSON.stringify(r.deviation ?? r.notes));
    assert.equal(r.complete, x.complete);
    assert.equal(r.messages, x.messages);
    assert.deepEqual(r.scores, x.scores);
    assert.equal(r.winner, x.winner);
    assert.deepEqual(r.rounds, x.rounds);
    if (x.result) assert.equal(r.result, x.result);
    if (x.profile) assert.equal(r.profile, x.profile);
    if (x.keys) assert.deepEqual(r.keys, x.keys);
    // The resignation's seat and message, which spec/protocol.md §9.2 weighs (null when none).
    if ('resigned' in x) assert.deepEqual(r.resigned, x.resigned);
    for (const note of x.notes ?? []) assert.ok(r.notes.includes(note), `${note} not in ${r.notes.join('; ')}`);
  });
  // The threaded auditor (src/audit/parallel_node.js) verifies the shuffles ahead; the replay
  // takes those as verified and reports exactly what the serial replay reports.
  test(`${file}: the same report with the shuffles verified ahead, on this thread and a worker`, async () => {
    const data = vectorBytes(`protocol/${transcript}`);
    const ahead = await verifiedShuffles(data, 2);
    assert.ok(ahead.size >= 2);
    // Every shuffle of a recorded match verifies.
    assert.equal(ahead.size, transcriptShuffleWork(data).reduce((n, w) => n + w.shuffles.length, 0));
    assert.deepEqual(auditBytes(data, {}, { verifiedShuffles: ahead }), auditBytes(data));
  });
  // The threaded auditor proper: the replay forward here, a worker verifying shuffles from the
  // last deal back (below four deals it is the serial auditor).
  test(`${file}: the threaded auditor reports what the serial one reports`, async () => {
    const data = vectorBytes(`protocol/${transcript}`);
    assert.deepEqual(await auditBytesParallel(data, {}, 2), auditBytes(data));
    assert.deepEqual(await auditBytesParallel(data, {}, 3), auditBytes(data));
  });
  if (v.cases) {
    test(`${file}: every altered copy fails as recorded`, () => {
      const data = vectorBytes(`protocol/${transcript}`);
      for (const c of v.cases) {
        let altered = data.slice();
        if (c.truncate_to !== undefined) altered = altered.slice(0, c.truncate_to);
        else altered[c.offset] ^= c.xor;
        assert.equal(failure(altered), c.error, c.name);
      }
    });
  }
}

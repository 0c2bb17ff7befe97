// spec/vectors/protocol/match_* through the JavaScript auditor: the recorded match, its one-byte
// alterations with the failure each must cause, and the evidence file's verdict.
import test from 'node:test';
import assert from 'node:assert/strict';
import { vector, vectorBytes } from '../helpers.js';
import { FileError, auditBytes } from '../../src/audit/replay.js';
import { verifyResult } from '../../src/protocol/results.js';
import { toHex } from '../../src/bytes.js';

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

test('match_nintendo_seed1: the whole match replays to its recorded outcome', () => {
  const v = vector('protocol/match_nintendo_seed1.json');
  const data = vectorBytes(`protocol/${v.provenance.transcript}`);
  const r = auditBytes(data);
  const x = v.expected;
  assert.equal(r.ok, x.ok);
  assert.equal(r.complete, x.complete);
  assert.equal(r.messages, x.messages);
  assert.equal(r.profile, x.profile);
  assert.deepEqual(r.keys, x.keys);
  assert.deepEqual(r.scores, x.scores);
  assert.equal(r.winner, x.winner);
  assert.deepEqual(r.rounds, x.rounds);
  assert.equal(r.result, x.result);
  const result = verifyResult(Buffer.from(x.result, 'hex'));
  assert.equal(toHex(/** @type {Uint8Array} */ (result.session)), x.session_id);
});

test('match_nintendo_seed1: every altered copy fails as recorded', () => {
  const v = vector('protocol/match_nintendo_seed1.json');
  const data = vectorBytes(`protocol/${v.provenance.transcript}`);
  for (const c of v.cases) {
    let altered = data.slice();
    if (c.truncate_to !== undefined) altered = altered.slice(0, c.truncate_to);
    else altered[c.offset] ^= c.xor;
    assert.equal(failure(altered), c.error, c.name);
  }
});

test('match_evidence_wrong_share: the evidence proves the deviation', () => {
  const v = vector('protocol/match_evidence_wrong_share.json');
  const r = auditBytes(vectorBytes(`protocol/${v.provenance.evidence}`));
  assert.equal(r.kind, 'evidence');
  assert.equal(r.ok, v.expected.ok);
  assert.ok(r.deviation);
  assert.equal(r.deviation.reason, v.expected.reason);
  assert.equal(r.deviation.seat, v.expected.seat);
  assert.equal(r.deviation.seq, v.expected.seq);
});

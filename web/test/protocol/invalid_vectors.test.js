// spec/vectors/protocol/game_invalid.json through the JavaScript auditor: malformed messages (which
// check names the reason, spec/game.md §3.4), session-level offences with the reason the auditor
// names (spec/protocol.md §9), abandonment claims with and without the claimant's round secret
// (§9.1 step 5), the files of two-file comparisons one by one (§9.2: this implementation has no
// comparison of two files; koikoi verify's verdict on the pair is in the vector), and files that
// are no kind the verifier knows (`unknown_file`, web/bin/verify.js as `koikoi verify`).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO, VECTORS, vector, vectorBytes } from '../helpers.js';
import { FileError, auditBytes } from '../../src/audit/replay.js';

const v = vector('protocol/game_invalid.json');

/** The verdict in the vector's shape. @param {Uint8Array} data */
function verdict(data) {
  try {
    const r = auditBytes(data);
    if (r.deviation) return { ok: r.ok, reason: r.deviation.reason, seat: r.deviation.seat, seq: r.deviation.seq };
    return { ok: r.ok, reason: r.ok ? null : 'incomplete', seat: null, seq: null };
  } catch (e) {
    if (e instanceof FileError) return { ok: false, reason: e.reason, seat: null, seq: e.index };
    throw e;
  }
}

for (const group of ['messages', 'session', 'claims']) {
  test(`game_invalid.json ${group}: every file gets its verdict`, () => {
    assert.ok(v[group].length >= 2);
    for (const c of v[group]) assert.deepEqual(verdict(vectorBytes(`protocol/${c.file}`)), c.expected, `${c.name}: ${c.how}`);
  });
}

test('game_invalid.json pairs: each file of a pair gets its own verdict', () => {
  for (const c of v.pairs) {
    c.files.forEach((/** @type {string} */ f, /** @type {number} */ i) => assert.deepEqual(verdict(vectorBytes(`protocol/${f}`)), c.single[i], `${c.name} ${f}`));
  }
  // The cut-short prefix is the finished match's own first envelopes: a copy, not another account.
  const [finished, prefix] = v.pairs[0].files.map((/** @type {string} */ f) => vectorBytes(`protocol/${f}`));
  assert.equal(v.pairs[0].expected.verdict, 'agree');
  assert.ok(prefix.length < finished.length);
});

test('game_invalid.json unknown: web/bin/verify.js names the files it does not know as koikoi verify does', () => {
  for (const c of v.unknown) {
    const run = spawnSync(process.execPath, [path.join(REPO, 'web', 'bin', 'verify.js'), '--json', path.join(VECTORS, 'protocol', c.file)], { encoding: 'utf8' });
    const said = JSON.parse(run.stdout);
    assert.deepEqual({ ok: said.ok, reason: said.reason, status: run.status }, c.expected, `${c.name}: ${c.how}`);
  }
});

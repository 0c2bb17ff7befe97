// spec/vectors/protocol/game_invalid.json through the JavaScript auditor: malformed messages (which
// check names the reason, spec/game.md §3.4), session-level offences with the reason the auditor
// names (spec/protocol.md §9), abandonment claims with and without the claimant's round secret
// (§9.1 step 5), two files of one session judged together (§9.2, src/audit/compare.js and
// web/bin/verify.js FILE OTHER), and files that are no kind the verifier knows (`unknown_file`,
// web/bin/verify.js as `koikoi verify`).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO, VECTORS, vector, vectorBytes } from '../helpers.js';
import { FileError, auditBytes } from '../../src/audit/replay.js';
import { compare, readAccount } from '../../src/audit/compare.js';

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

for (const group of ['messages', 'round_keys', 'session', 'claims']) {
  test(`game_invalid.json ${group}: every file gets its verdict`, () => {
    assert.ok(v[group].length >= 2);
    for (const c of v[group]) assert.deepEqual(verdict(vectorBytes(`protocol/${c.file}`)), c.expected, `${c.name}: ${c.how}`);
  });
}

/**
 * One account per file (each file is audited once, whatever pairs it is in).
 * @type {Map<string, import('../../src/audit/compare.js').Account>}
 */
const accounts = new Map();
/** @param {string} file */
function account(file) {
  if (!accounts.has(file)) accounts.set(file, readAccount(vectorBytes(`protocol/${file}`), file));
  return /** @type {import('../../src/audit/compare.js').Account} */ (accounts.get(file));
}

/** A file's own verdict from its account, in the vector's shape. @param {import('../../src/audit/compare.js').Account} a */
function verdictOf(a) {
  if (!a.report) return { ok: false, reason: a.error?.reason, seat: null, seq: a.error?.index ?? null };
  const d = a.report.deviation;
  if (d) return { ok: a.report.ok, reason: d.reason, seat: d.seat, seq: d.seq };
  return { ok: a.report.ok, reason: a.report.ok ? null : 'incomplete', seat: null, seq: null };
}

/** The comparison in the vector's shape. @param {string} first @param {string} second */
function pairVerdict(first, second) {
  try {
    const c = compare(account(first), account(second));
    const finding = c.finding ? { seat: c.finding.seat, seq: c.finding.seq, reason: c.finding.reason } : null;
    return { verdict: c.status, stands: c.stands, finding };
  } catch (e) {
    if (e instanceof FileError) return { error: e.reason };
    throw e;
  }
}

test('game_invalid.json pairs: each file alone and the two together get koikoi verify\'s verdicts (spec/protocol.md §9.2)', () => {
  assert.ok(v.pairs.length >= 10);
  for (const c of v.pairs) {
    const [first, second] = c.files;
    assert.deepEqual([verdictOf(account(first)), verdictOf(account(second))], c.single, `${c.name}: each file`);
    assert.deepEqual(pairVerdict(first, second), c.expected, `${c.name}: ${c.how}`);
    // The order of the files changes only which of them stands.
    const swapped = { ...c.expected };
    if (typeof swapped.stands === 'number') swapped.stands = 1 - swapped.stands;
    assert.deepEqual(pairVerdict(second, first), swapped, `${c.name}, files swapped`);
  }
  // The cut-short prefix is the finished match's own first envelopes: a copy, not another account.
  const [finished, prefix] = v.pairs[0].files.map((/** @type {string} */ f) => vectorBytes(`protocol/${f}`));
  assert.equal(v.pairs[0].expected.verdict, 'agree');
  assert.ok(prefix.length < finished.length);
});

test('game_invalid.json pairs: web/bin/verify.js FILE OTHER gives koikoi verify A B\'s verdict and exit status', () => {
  const verify = (/** @type {string[]} */ files, /** @type {string[]} */ flags) => spawnSync(process.execPath,
    [path.join(REPO, 'web', 'bin', 'verify.js'), ...flags, ...files.map((f) => path.join(VECTORS, 'protocol', f))], { encoding: 'utf8' });
  // The in-process checks above cover every pair; the command is run on a conflict (exit 1) in
  // JSON and on a pair where one account stands, in words.
  for (const name of ['two_claims_of_one_seat']) {
    const c = v.pairs.find((/** @type {any} */ p) => p.name === name);
    const run = verify(c.files, ['--json']);
    const said = JSON.parse(run.stdout);
    if (c.expected.error) {
      assert.deepEqual({ ok: said.ok, reason: said.reason, status: run.status }, { ok: false, reason: c.expected.error, status: 1 }, c.name);
      continue;
    }
    const stands = c.expected.stands === null ? null : path.join(VECTORS, 'protocol', c.files[c.expected.stands]);
    assert.deepEqual({ status: said.status, stands: said.stands, reason: said.finding ? said.finding.reason : null, exit: run.status },
      { status: c.expected.verdict, stands, reason: c.expected.finding ? c.expected.finding.reason : null, exit: c.expected.verdict === 'conflict' ? 1 : 0 }, c.name);
  }
  // In words: the first line says which account stands, as koikoi verify A B prints it.
  const text = verify(v.pairs.find((/** @type {any} */ c) => c.name === 'finished_and_a_claim').files, []);
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^the account of .*pair_finished\.transcript stands; .*pair_claim\.abandoned is refuted\n/);
  assert.match(text.stdout, /player 0 itself signed message \d+ after it, so it had received message \d+/);
});

test('game_invalid.json unknown: web/bin/verify.js names the files it does not know as koikoi verify does', () => {
  for (const c of v.unknown) {
    const run = spawnSync(process.execPath, [path.join(REPO, 'web', 'bin', 'verify.js'), '--json', path.join(VECTORS, 'protocol', c.file)], { encoding: 'utf8' });
    const said = JSON.parse(run.stdout);
    assert.deepEqual({ ok: said.ok, reason: said.reason, status: run.status }, c.expected, `${c.name}: ${c.how}`);
  }
});

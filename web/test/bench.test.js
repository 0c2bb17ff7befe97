// The benchmark script runs and reports its figures beside Python's, with each side's counted
// libsodium operations (no timing is asserted).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from './helpers.js';
import { pythonMissing } from './python.js';

test('bin/bench.js --json reports prove, verify, deal, opening and a 1-round audit with a ratio to Python', { skip: pythonMissing() }, () => {
  const out = execFileSync(process.execPath, [path.join(REPO, 'web', 'bin', 'bench.js'), '--json', '--repeat', '1', '--rounds', '1'], { encoding: 'utf8' });
  const report = JSON.parse(out);
  assert.equal(report.n, 48);
  for (const what of ['prove', 'verify', 'deal', 'opening', 'audit_1', 'audit_1_serial']) {
    const r = report.results[what];
    assert.ok(r.node > 0 && r.python > 0 && r.ratio > 0, what);
  }
  // The same work on both sides: a shuffle verification multiplies every received point once.
  for (const what of ['prove', 'verify', 'deal', 'audit_1_serial']) {
    const { nodeOps, pythonOps } = report.results[what];
    assert.ok(nodeOps.mult > 0 && pythonOps.mult > 0, what);
  }
  assert.ok(report.results.verify.nodeOps.validate === undefined, 'no separate validation of a point that is multiplied');
});

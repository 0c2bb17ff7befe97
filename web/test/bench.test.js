// The benchmark script runs and reports its three figures beside Python's (no timing is asserted).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from './helpers.js';
import { pythonMissing } from './python.js';

test('bin/bench.js --json reports prove, verify, deal and opening with a ratio to Python', { skip: pythonMissing() }, () => {
  const out = execFileSync(process.execPath, [path.join(REPO, 'web', 'bin', 'bench.js'), '--json', '--repeat', '1'], { encoding: 'utf8' });
  const report = JSON.parse(out);
  assert.equal(report.n, 48);
  for (const what of ['prove', 'verify', 'deal', 'opening']) {
    const r = report.results[what];
    assert.ok(r.node > 0 && r.python > 0 && r.ratio > 0, what);
  }
});

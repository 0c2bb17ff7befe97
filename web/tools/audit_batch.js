#!/usr/bin/env node
// node web/tools/audit_batch.js FILE...: one JSON verdict per line, for the
// cross-implementation tests that compare it with the Python auditor's on many files at once:
// {"ok": bool, "reason": ..., "index": ...} (index: the failing message, or null).
import { readFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { FileError, auditBytes } from '../src/audit/replay.js';

await ready();
for (const file of process.argv.slice(2)) {
  let verdict;
  try {
    const r = auditBytes(new Uint8Array(readFileSync(file)));
    if (r.deviation) verdict = { ok: r.ok, reason: r.deviation.reason, index: r.deviation.seq, seat: r.deviation.seat };
    else if (r.ok) verdict = { ok: true, reason: null, index: null };
    else verdict = { ok: false, reason: 'incomplete', index: null };
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    verdict = { ok: false, reason: e.reason, index: e.index };
  }
  process.stdout.write(`${JSON.stringify(verdict)}\n`);
}

#!/usr/bin/env node
// node web/bin/verify.js [--json] [--result] FILE: the JavaScript auditor, with the verdicts,
// reasons, message numbers and exit status of `koikoi verify`.
// node web/bin/verify.js [--json] FILE OTHER: two files of one session, judged together as
// `koikoi verify A B` does (spec/protocol.md §9.2); exit 0 unless they conflict or cannot be compared.
import { readFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { FileError, describe } from '../src/audit/replay.js';
import { auditBytesParallel } from '../src/audit/parallel_node.js';
import { compareBytes, comparisonJson, comparisonLines } from '../src/audit/compare.js';
import { ResultError, verifyResult } from '../src/protocol/results.js';
import { toHex } from '../src/bytes.js';
import { fingerprint } from '../src/protocol/identity.js';
import { ABANDON_MAGIC, EVIDENCE_MAGIC, TRANSCRIPT_MAGIC, hasMagic } from '../src/protocol/transcript.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const resultMode = args.includes('--result');
const files = args.filter((a) => !a.startsWith('--'));
if (files.length < 1 || files.length > 2 || (resultMode && files.length === 2)) {
  process.stderr.write('usage: node web/bin/verify.js [--json] [--result] FILE, or node web/bin/verify.js [--json] FILE OTHER\n');
  process.exit(2);
}
await ready();
/** @param {string} file */
function read(file) {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    process.stdout.write(`koikoi verify: cannot read ${file}: ${/** @type {Error} */ (e).message}\n`);
    process.exit(files.length === 2 ? 2 : 1);
  }
}
const data = read(files[0]);

/** @param {unknown} value @param {string} text @param {number} status @returns {never} */
function out(value, text, status) {
  process.stdout.write(`${json ? JSON.stringify(value, null, 2) : text}\n`);
  process.exit(status);
}

// spec/protocol.md §8, "Recognising a file": a file with none of the three magics is read as a
// co-signed result.
/** @param {Uint8Array} bytes */
const isAccount = (bytes) => [TRANSCRIPT_MAGIC, EVIDENCE_MAGIC, ABANDON_MAGIC].some((m) => hasMagic(bytes, m));

if (files.length === 2) {
  const other = read(files[1]);
  // Two accounts of one match are compared; a co-signed result is no account (it holds the
  // outcome alone) and is checked on its own: a usage error, as `koikoi verify A B` says.
  const result = [[files[0], data], [files[1], other]].find(([, bytes]) => !isAccount(/** @type {Uint8Array} */ (bytes)));
  if (result) {
    process.stdout.write(`koikoi verify: ${result[0]} is not a transcript, an evidence file or an abandonment file, the only files compared; a co-signed result is verified alone: koikoi verify ${result[0]}\n`);
    process.exit(2);
  }
  try {
    const c = compareBytes(data, other, [files[0], files[1]]);
    out(comparisonJson(c), comparisonLines(c).join('\n'), c.ok ? 0 : 1);
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    out({ ok: false, reason: e.reason, message: e.detail }, `cannot compare the two files: ${e.reason}: ${e.detail}`, 1);
  }
}

// One that is not a result file either is a file this verifier does not know.
if (resultMode || !isAccount(data)) {
  try {
    const r = verifyResult(data);
    const winner = r.winner === null ? 'a draw' : `player ${r.winner} won`;
    const keys = /** @type {Uint8Array[]} */ (r.keys);
    const scores = /** @type {number[]} */ (r.scores);
    const rounds = /** @type {[number, number | null, number][]} */ (r.rounds);
    const names = /** @type {string[] | undefined} */ (r.names) ?? ['', ''];
    // The fields and shapes of `koikoi verify --json` on a result (koikoi_p2p/cli/cmd_verify.py):
    // `you` is null and every player's `you` false, since this verifier knows no identity of yours.
    const report = {
      ok: true, kind: 'result', profile: r.profile, scores, winner: r.winner ?? null, resigned: r.resigned ?? null,
      rated: r.rated ?? false, names,
      rounds: rounds.map(([round, who, points]) => ({ round, winner: who, points })),
      keys: keys.map((k) => toHex(k)), session: toHex(/** @type {Uint8Array} */ (r.session)),
      terms: toHex(/** @type {Uint8Array} */ (r.terms)), head: toHex(/** @type {Uint8Array} */ (r.head)),
      players: keys.map((k, seat) => ({ seat, role: seat === 0 ? 'host' : 'joined', name: names[seat] ?? '', fingerprint: fingerprint(k), key: toHex(k), you: false })),
      you: null,
    };
    const n = rounds.length;
    out(report, `valid co-signed result: ${r.profile}, ${n} round${n === 1 ? '' : 's'}, scores ${scores[0]}-${scores[1]}, ${winner}; signed by both keys ${toHex(keys[0]).slice(0, 16)}... and ${toHex(keys[1]).slice(0, 16)}...`, 0);
  } catch (e) {
    if (!(e instanceof ResultError)) throw e;
    if (!resultMode && e.reason === 'bad_result') {
      out({ ok: false, reason: 'unknown_file', message: e.detail }, `INVALID file: ${files[0]} is no transcript, evidence, abandonment file or co-signed result (${e.detail})`, 1);
    }
    out({ ok: false, reason: e.reason, message: e.detail }, `INVALID co-signed result: ${e.reason}: ${e.detail}`, 1);
  }
}

try {
  // A transcript's shuffle proofs are verified on KOIKOI_THREADS threads (default: the cores), as
  // `koikoi verify` spreads its verification; 1: all on this thread.
  const configured = Number(process.env.KOIKOI_THREADS);
  const threads = Number.isInteger(configured) && configured >= 1 ? configured : undefined;
  const report = await auditBytesParallel(data, {}, threads);
  const { lines, status } = describe(report);
  out(report, lines.join('\n'), status);
} catch (e) {
  if (!(e instanceof FileError)) throw e;
  const where = e.index !== null ? ` at message ${e.index}` : '';
  out({ ok: false, reason: e.reason, message: e.detail, index: e.index }, `INVALID file${where}: ${e.reason}: ${e.detail}`, 1);
}

#!/usr/bin/env node
// node web/tools/abandon_match.js OUTFILE AFTER: a JavaScript match in memory in which seat 1
// goes silent after AFTER frames; seat 0 waits the (shrunk) deadline and writes its abandonment
// claim to OUTFILE. Prints the outcome as one JSON line.
import { writeFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { memoryPair, runMatch } from '../src/net/match.js';
import { Identity } from '../src/protocol/identity.js';
import { vectorStream } from '../src/mentalpoker/rng.js';
import { preset, withRounds } from '../src/rules/profile.js';

const [outFile, after] = process.argv.slice(2);
await ready();
const [t0, t1] = memoryPair();
let sent = 0;
const silent = { send: (/** @type {Uint8Array} */ f) => { if (sent++ < Number(after)) t1.send(f); }, receive: () => t1.receive() };
const profile = withRounds(preset('nintendo'), 1);
const play = (/** @type {0 | 1} */ seat, /** @type {any} */ t) => {
  const rng = vectorStream(`abandon/${seat}`);
  return runMatch(t, { seat, identity: new Identity(rng(32)), room: 'SILENT', rng, profile, autoAccept: true }, {
    choose: (_p, ev) => /** @type {any} */ (ev).options[0], deadlineScale: seat === 0 ? 0.002 : undefined,
  });
};
const first = play(0, t0);
void play(1, silent);
const o0 = await first;
if (o0.evidence) writeFileSync(outFile, o0.evidence);
const f = /** @type {any} */ (o0.failure);
process.stdout.write(`${JSON.stringify({ reason: f?.reason ?? null, blame: f?.blame ?? null, seq: f?.seq ?? null })}\n`);
process.exit(0);

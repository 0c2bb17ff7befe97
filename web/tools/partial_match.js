#!/usr/bin/env node
// node web/tools/partial_match.js OUTDIR SEED N...: one JavaScript-vs-JavaScript match in memory;
// writes OUTDIR/full.transcript and, for each N, OUTDIR/cut-N.transcript (the first N envelopes,
// no closing marker), and prints one JSON line with the identity seeds, the session id and, for
// each cut, the head and what the flow waits for there (seat, type, deadline). The interop tests
// build abandonment claims on these with the Python library and compare both auditors.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ready } from '../src/sodium.js';
import { memoryPair, runMatch } from '../src/net/match.js';
import { Identity } from '../src/protocol/identity.js';
import { vectorStream } from '../src/mentalpoker/rng.js';
import { preset, withRounds } from '../src/rules/profile.js';
import { decodeEnvelope } from '../src/protocol/envelope.js';
import { decodePrefix } from '../src/protocol/codec.js';
import { encodeTranscript } from '../src/protocol/transcript.js';
import { GameFlow } from '../src/protocol/flow.js';
import { verifyHandshakeRecord } from '../src/audit/replay.js';
import { toHex } from '../src/bytes.js';

const [outDir, seed, ...cuts] = process.argv.slice(2);
await ready();
const seeds = [0, 1].map((s) => vectorStream(`partial/${seed}/${s}`)(32));
const [t0, t1] = memoryPair();
const profile = withRounds(preset('nintendo'), 1);
const play = (/** @type {0 | 1} */ seat, /** @type {any} */ t) => {
  const rng = vectorStream(`partial/${seed}/rng/${seat}`);
  return runMatch(t, { seat, identity: new Identity(seeds[seat]), room: 'CLAIMS', rng, profile, autoAccept: true }, {
    choose: (_peer, ev) => /** @type {any} */ (ev).options[0],
  });
};
const [o0] = await Promise.all([play(0, t0), play(1, t1)]);
const data = /** @type {Uint8Array} */ (o0.transcript);
writeFileSync(path.join(outDir, 'full.transcript'), data);
const values = [];
for (let off = 8; off < data.length;) {
  const r = decodePrefix(data, off);
  values.push(r.value);
  off = r.end;
}
const record = /** @type {any} */ (values[0]).handshake;
const session = verifyHandshakeRecord(record);
const entries = values.slice(1, -1).map((v) => ({ signature: /** @type {any} */ (v)[0], envelope: /** @type {any} */ (v)[1] }));
const flow = new GameFlow({ viewer: null, sessionId: session.sessionId, room: session.room, identityKeys: session.identityKeys, names: session.names });
/** @type {Record<string, unknown>} */
const out = { seeds: seeds.map(toHex), session_id: toHex(session.sessionId), count: entries.length, cuts: {} };
let head = session.handshakeHash;
const wanted = new Set(cuts.map(Number));
for (let i = 0; i <= entries.length; i++) {
  if (wanted.has(i)) {
    writeFileSync(path.join(outDir, `cut-${i}.transcript`), encodeTranscript(record, entries.slice(0, i), { closed: false, head }));
    const signed = entries.slice(0, i).map((e) => decodeEnvelope(e.envelope).sender);
    /** @type {any} */ (out.cuts)[i] = { head: toHex(head), waiting: flow.waitingFor(), signed, deal: flow.deal };
  }
  if (i === entries.length) break;
  const e = decodeEnvelope(entries[i].envelope);
  const digest = /** @type {any} */ (await import('../src/protocol/envelope.js')).envelopeDigest(session.version, entries[i].envelope);
  flow.apply(e.sender, e.type, e.body, { seq: e.seq, head, digest });
  head = digest;
}
// Every deal of the full match was disclosed: the round secrets by deal, for claims that carry
// their claimant's key of the interrupted deal.
out.secrets = Object.fromEntries([...flow.disclosed.entries()].map(([d, pair]) => [d, pair.map((x) => (x ? toHex(x) : null))]));
process.stdout.write(`${JSON.stringify(out)}\n`);

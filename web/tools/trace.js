#!/usr/bin/env node
// node web/tools/trace.js FILE...: the public state of the game flow after every envelope of each
// transcript, one JSON line per file: [[state, seat, type, seconds, deal, scores], ...] where
// (seat, type, seconds) is the wait of spec/game.md §7.1, deal the deal the next message must name
// (null for a type without one) and scores the match tally. The flow replays as an observer with
// the round secrets the file discloses (§8.2). The cross-implementation fuzz compares it with the
// Python flow's state after the same envelopes.
import { readFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { decodePrefix, isMap } from '../src/protocol/codec.js';
import { decodeEnvelope, envelopeDigest } from '../src/protocol/envelope.js';
import { GameFlow } from '../src/protocol/flow.js';
import { verifyHandshakeRecord } from '../src/audit/replay.js';

await ready();
for (const file of process.argv.slice(2)) {
  const data = new Uint8Array(readFileSync(file));
  const values = [];
  for (let off = 8; off < data.length;) {
    const r = decodePrefix(data, off);
    values.push(r.value);
    off = r.end;
  }
  const session = verifyHandshakeRecord(/** @type {any} */ (values[0]).handshake);
  const entries = values.slice(1).filter((v) => !isMap(v)).map((v) => {
    const raw = /** @type {Uint8Array} */ (/** @type {any} */ (v)[1]);
    return { ...decodeEnvelope(raw), digest: envelopeDigest(session.version, raw) };
  });
  /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} */
  const secrets = new Map();
  for (const e of entries) {
    if (e.type !== 'disclose') continue;
    const pair = secrets.get(/** @type {number} */ (e.body.deal)) ?? [null, null];
    pair[e.sender] = /** @type {Uint8Array} */ (e.body.key);
    secrets.set(/** @type {number} */ (e.body.deal), pair);
  }
  const flow = new GameFlow({ viewer: null, sessionId: session.sessionId, room: session.room, identityKeys: session.identityKeys, names: session.names, secrets });
  const trace = [];
  let head = session.handshakeHash;
  for (const e of entries) {
    flow.apply(e.sender, e.type, e.body, { seq: e.seq, head, digest: e.digest });
    head = e.digest;
    const wait = flow.waitingFor();
    const next = flow.expected();
    trace.push([flow.state, wait ? wait.seat : null, wait ? wait.type : null, wait ? wait.seconds : null,
      next && next.deal !== undefined ? next.deal : null, flow.match ? flow.match.scores : [0, 0]]);
  }
  process.stdout.write(`${JSON.stringify(trace)}\n`);
}

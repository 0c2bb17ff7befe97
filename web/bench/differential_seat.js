#!/usr/bin/env node
// node --experimental-websocket web/bench/differential_seat.js CONFIG: one JavaScript seat of a
// match of the differential campaign (`koikoi bench differential`), whose other seat is the Python
// implementation. Frames travel on stdin and stdout, each as a 4-byte big-endian length and the
// frame; nothing else is written to stdout. CONFIG is JSON: {seat, seed, room, profile (the
// profile map seat 0 proposes; seat 1 uses it only for its computer player), strategy (random,
// greedy, strong or master), simulations (the master's playouts), deadlines (the terms' {step,
// turn} seat 0 proposes), transcript, outcome (files to
// write: the transcript, or the evidence file after a deviation, and the outcome JSON)}.
//
// With `--import ./web/bench/identity_shuffle.mjs` every shuffle of this seat keeps the order of
// its input (the bench's forced deals: the Python seat's permutation then decides the deck alone).
import { writeFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { runMatch } from '../src/net/match.js';
import { Identity } from '../src/protocol/identity.js';
import { vectorStream } from '../src/mentalpoker/rng.js';
import { Profile } from '../src/rules/profile.js';
import { createPlayer } from '../src/ai/players.js';
import { RoundFollower } from '../src/ai/follow.js';

const cfg = JSON.parse(process.argv[2]);
await ready();
const seat = /** @type {0 | 1} */ (cfg.seat);
const rng = vectorStream(`differential/${cfg.seed}/${seat}`);
const identity = new Identity(rng(32));
const profile = Profile.fromDict(cfg.profile);
const player = createPlayer(cfg.strategy, `differential/${cfg.seed}/${seat}`, { profile, simulations: cfg.simulations, maxSeconds: 5 });
const follower = new RoundFollower(player, seat);

/** @type {Uint8Array[]} */
const inbox = [];
/** @type {((f: Uint8Array) => void)[]} */
const waiting = [];
/** @type {((e: Error) => void)[]} */
const failing = [];
let closed = false;
let buffer = Buffer.alloc(0);
process.stdin.on('data', (/** @type {Buffer} */ chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  while (buffer.length >= 4) {
    const n = buffer.readUInt32BE(0);
    if (buffer.length < 4 + n) break;
    const frame = new Uint8Array(buffer.subarray(4, 4 + n));
    buffer = buffer.subarray(4 + n);
    const w = waiting.shift();
    failing.shift();
    if (w) w(frame);
    else inbox.push(frame);
  }
});
process.stdin.on('end', () => {
  closed = true;
  for (const f of failing.splice(0)) f(new Error('the other seat closed its pipe'));
  waiting.length = 0;
});

/** @type {import('../src/net/match.js').Transport} */
const transport = {
  send(data) {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    process.stdout.write(Buffer.concat([head, Buffer.from(data)]));
  },
  receive() {
    const next = inbox.shift();
    if (next) return Promise.resolve(next);
    if (closed) return Promise.reject(new Error('the other seat closed its pipe'));
    return new Promise((resolve, reject) => { waiting.push(resolve); failing.push(reject); });
  },
};

const outcome = await runMatch(transport, {
  seat, identity, room: cfg.room, rng, profile: seat === 0 ? profile : undefined, autoAccept: true,
  deadlines: cfg.deadlines,
}, {
  choose: (peer) => {
    const engine = /** @type {any} */ (peer.flow).live.engine;
    return player.choose(engine, seat, RoundFollower.context(/** @type {any} */ (peer.flow), engine.profile));
  },
  onEvent: (ev) => follower.see(/** @type {any} */ (ev)),
});
const saved = outcome.evidence ?? outcome.transcript;
if (saved) writeFileSync(cfg.transcript, saved);
const failure = /** @type {any} */ (outcome.failure);
writeFileSync(cfg.outcome, JSON.stringify({
  ok: outcome.ok, scores: outcome.scores, winner: outcome.winner,
  failure: failure ? { reason: failure.reason, detail: failure.detail, blame: failure.blame, seq: failure.seq } : null,
}));
// Let stdout drain before leaving.
process.stdout.write('', () => process.exit(outcome.ok ? 0 : 1));

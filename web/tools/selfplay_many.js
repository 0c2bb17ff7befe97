#!/usr/bin/env node
// node web/tools/selfplay_many.js OUTDIR COUNT SEED: COUNT JavaScript-vs-JavaScript matches
// in memory (random presets, 1 or 2 rounds, random and greedy players), each transcript written to
// OUTDIR/N.transcript, one JSON line per match ({file, rules, rounds, scores, winner}). The interop
// tests replay them with the Python auditor.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ready } from '../src/sodium.js';
import { memoryPair, runMatch } from '../src/net/match.js';
import { Identity } from '../src/protocol/identity.js';
import { vectorStream } from '../src/mentalpoker/rng.js';
import { PRESETS, preset, withRounds } from '../src/rules/profile.js';
import { createPlayer } from '../src/ai/players.js';

const [outDir, count, seed] = process.argv.slice(2);
await ready();
const pick = vectorStream(`selfplay-many/${seed}`);
for (let i = 0; i < Number(count); i++) {
  const rules = PRESETS[pick(1)[0] % PRESETS.length];
  const rounds = 1 + (pick(1)[0] % 2);
  const profile = withRounds(preset(rules), rounds);
  const [t0, t1] = memoryPair();
  const play = (/** @type {0 | 1} */ seat, /** @type {import('../src/net/match.js').Transport} */ t) => {
    const rng = vectorStream(`selfplay-many/${seed}/${i}/${seat}`);
    const player = createPlayer(pick(1)[0] % 2 ? 'greedy' : 'random', `${seed}/${i}/${seat}`);
    return runMatch(t, { seat, identity: new Identity(rng(32)), room: `FUZZ${i}`, rng, profile, autoAccept: true }, {
      choose: (peer) => player.choose(/** @type {any} */ (peer.flow).engine, seat),
    });
  };
  const [o0, o1] = await Promise.all([play(0, t0), play(1, t1)]);
  if (!o0.ok || !o1.ok) throw new Error(`match ${i} failed: ${JSON.stringify([o0.failure, o1.failure])}`);
  const file = path.join(outDir, `${i}.transcript`);
  writeFileSync(file, /** @type {Uint8Array} */ (o0.transcript));
  process.stdout.write(`${JSON.stringify({ file, rules, rounds, scores: o0.scores, winner: o0.winner })}\n`);
}

#!/usr/bin/env node
// node web/bench/journal_bytes.js [--json] [--rounds 6,12]: the bytes the JavaScript crash-safe
// journal writes over a whole match (issue 26 item 4), for each number of rounds: two seats of the
// public Match API play in memory (random computers), each with a FileStore in a temporary
// folder; the journal only appends (the header, then one line per input), so what it wrote is
// the size of `<id>.journal` just before the match's end forgets it. Per deal it must not grow
// with the match's length. --json prints [{rounds, deals, bytes: [seat 0, seat 1], transcript}].
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, memoryPair, newIdentity, ready } from '../src/api/match.js';
import { FileStore } from '../src/api/file_store.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const rounds = (args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : '6,12').split(',').map(Number);

/** A FileStore that notes its journal's size before forgetting it. */
class MeasuredStore extends FileStore {
  /** @type {Map<string, number>} */
  written = new Map();

  /** @param {string} id */
  async forget(id) {
    this.written.set(id, statSync(path.join(this.folder, `${id}.journal`)).size);
    return super.forget(id);
  }
}

/** Play one seat to its end with a random computer. @param {Match} match */
async function play(match) {
  const bot = match.computer('random', `bytes-${match.seat}`);
  /** @type {any} */
  let last = null;
  let deals = 0;
  for await (const ev of match.events()) {
    last = ev;
    if (ev.type === 'round_started') deals++;
    if (ev.type === 'terms_proposed') await match.decideTerms(true);
    else if (ev.type === 'your_turn' || ev.type === 'choice') await match.decide(bot.choose());
  }
  return { last, deals };
}

await ready();
const rows = [];
for (const n of rounds) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'koikoi-journal-bytes-'));
  try {
    const store = new MeasuredStore(folder);
    const [a, b] = memoryPair();
    const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'BYTES1', profile: 'nintendo', rounds: n, store, id: 'host' });
    const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'BYTES1', store, id: 'guest' });
    const [h, g] = await Promise.all([play(host), play(guest)]);
    if (h.last?.type !== 'match_over' || g.last?.type !== 'match_over') throw new Error(`the ${n}-round match did not end: ${h.last?.type}`);
    rows.push({ rounds: n, deals: h.deals, bytes: [store.written.get('host') ?? 0, store.written.get('guest') ?? 0], transcript: h.last.transcript.length });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
if (json) console.log(JSON.stringify(rows));
else for (const r of rows) console.log(`${r.rounds} rounds (${r.deals} deals): journal ${r.bytes.join(' / ')} bytes (seat 0 / 1), ${Math.round(r.bytes[0] / r.deals)} per deal; transcript ${r.transcript} bytes`);

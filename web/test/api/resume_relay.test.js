// Crash-safe resume over a real relay (spec/protocol.md §12.2, §12.3): the host seat runs in its
// own process with a FileStore, plays a few decisions against a seat in this process, and is
// killed with SIGKILL, so the folder is all that survives. A new process resumes it from that
// folder (`Match.resume` over `rejoinRoom`), the relay pairs the two again, and the match ends:
// both seats hold the same transcript, and `koikoi verify` accepts it and the co-signed result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import '../helpers.js';
import { Match, MemoryStore, joinRoom, newIdentity } from '../../src/api/match.js';
import { KOIKOI, PYTHON, pythonMissing, startRelay } from '../python.js';
import { REPO } from '../helpers.js';

// In web/tools: node --test runs every script under test/ as a test file.
const SEAT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools', 'crash_seat.mjs');
const skip = pythonMissing();
/** @type {{url: string, stop: () => Promise<void>}} */ let relay;
/** @type {string} */ let folder;
/** processes a test started: none outlives the file, even a test that failed or timed out @type {import('node:child_process').ChildProcess[]} */
const children = [];

before(async () => {
  if (skip) return;
  relay = /** @type {any} */ (await startRelay());
  folder = mkdtempSync(path.join(os.tmpdir(), 'koikoi-resume-'));
});

after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await relay?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/**
 * The seat process, with a way to wait for a line it prints.
 * @param {string[]} args
 */
function seat(...args) {
  const child = spawn(process.execPath, ['--experimental-websocket', SEAT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  /** @type {{re: RegExp, resolve: (m: RegExpMatchArray) => void}[]} */
  const waiting = [];
  const check = () => {
    for (const w of [...waiting]) {
      const m = out.match(w.re);
      if (m) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.on('data', (c) => { out += c; check(); });
  child.stderr.on('data', (c) => { out += c; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child, exited, output: () => out,
    /** @param {RegExp} re @returns {Promise<RegExpMatchArray>} */
    line: (re) => new Promise((resolve, reject) => {
      waiting.push({ re, resolve });
      check();
      exited.then(() => setTimeout(() => reject(new Error(`seat exited without ${re}: ${out}`)), 50));
    }),
  };
}

/** `koikoi verify` of a file. @param {string[]} args */
function verify(...args) {
  const r = spawnSync(KOIKOI, ['verify', ...args], { encoding: 'utf8', env: { ...process.env, HOME: folder, KOIKOI_HOME: path.join(folder, 'home') } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('a seat killed mid-match resumes from its FileStore over the relay; both transcripts agree and verify', { skip, timeout: 180_000 }, async () => {
  const store = path.join(folder, 'store');
  const first = seat('host', relay.url, store);
  const code = (await first.line(/room (\S+)/))[1];
  const room = await joinRoom(relay.url, code, { keepalive: 1 });
  const guest = new Match(await room.connect(), { seat: 1, identity: newIdentity(), room: code, store: new MemoryStore(), id: 'seat1' });
  const computer = guest.computer('random', 'resume-guest');
  const playing = (async () => {
    /** @type {any[]} */
    const seen = [];
    for await (const event of guest.events()) {
      seen.push(event);
      if (event.type === 'terms_proposed') await guest.decideTerms(true);
      else if (event.type === 'your_turn' || event.type === 'choice') await guest.decide(computer.choose());
    }
    return seen;
  })();
  // The host has decided three times: kill it where it stands (no chance to flush or close).
  await first.line(/decided 3\n/);
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  assert.deepEqual(readdirSync(store), ['seat0.journal'], `the journal is what survives\n${first.output()}`);
  const second = seat('resume', relay.url, store, code);
  const [, transcript, result] = await second.line(/over (\S+) (\S+)/);
  const seen = await playing;
  await second.exited;
  const last = seen.at(-1);
  assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}\n${second.output()}`);
  assert.ok(seen.filter((e) => e.type === 'opponent_moved').length >= 3);
  // The resumed host acknowledged every frame of ours, each once it was saved (§12.1 rule 3).
  assert.ok(/** @type {any} */ (guest.transport).drained, 'every frame the guest sent was acknowledged');
  // One match, one transcript: what the resumed host kept is byte for byte the guest's.
  assert.deepEqual(new Uint8Array(readFileSync(transcript)), last.transcript);
  assert.deepEqual(new Uint8Array(readFileSync(result)), last.result);
  assert.ok(!readdirSync(store).includes('seat0.journal'), 'the journal (the seeds) is forgotten at the end');
  const v = verify(transcript);
  assert.equal(v.status, 0, v.out);
  const vr = verify('--result', result);
  assert.equal(vr.status, 0, vr.out);
});

/** Every file under `dir` whose name ends with `ext`. @param {string} dir @param {string} ext @returns {string[]} */
function filesEnding(dir, ext) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => path.join(e.parentPath ?? e.path, e.name));
}

test('the same against the Python client: koikoi join waits out the crash and ends with the same transcript', { skip, timeout: 180_000 }, async () => {
  const store = path.join(folder, 'store-py');
  const home = path.join(folder, 'home-join');
  mkdirSync(home, { recursive: true });
  const first = seat('host', relay.url, store);
  const code = (await first.line(/room (\S+)/))[1];
  // The real terminal client, answering every prompt with its first choice (test/browser/join_seat.py).
  const join = spawn(PYTHON, [path.join(REPO, 'web', 'test', 'browser', 'join_seat.py'), code, relay.url, home], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(join);
  let joined = '';
  join.stdout.on('data', (c) => { joined += c; });
  join.stderr.on('data', (c) => { joined += c; });
  const joinExited = new Promise((resolve) => join.once('exit', resolve));
  await first.line(/decided 3\n/);
  first.child.kill('SIGKILL');
  await first.exited;
  const second = seat('resume', relay.url, store, code);
  const [, transcript, result] = await second.line(/over (\S+) (\S+)/);
  await Promise.all([second.exited, joinExited]);
  assert.match(joined, /EXIT 0/, `${joined}\n${second.output()}`);
  const theirs = filesEnding(home, '.transcript');
  assert.equal(theirs.length, 1, theirs.join(' '));
  assert.deepEqual(new Uint8Array(readFileSync(theirs[0])), new Uint8Array(readFileSync(transcript)));
  // The co-signed result too (the Python client keeps it beside its transcript).
  assert.deepEqual(new Uint8Array(readFileSync(theirs[0].replace(/\.transcript$/, '.result'))), new Uint8Array(readFileSync(result)));
  const v = verify(transcript);
  assert.equal(v.status, 0, v.out);
  const vr = verify('--result', result);
  assert.equal(vr.status, 0, vr.out);
});

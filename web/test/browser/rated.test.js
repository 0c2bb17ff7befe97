// A rated match in a real browser (issue 19, spec/ratings.md §2): `koikoi relay --web --ratings`
// serves the app on the relay's port and a rating service beside it on its own port; the terminal client hosts a rated match
// (`koikoi host --rated`); the page joins, is shown "rated" and the service's URL before it
// accepts, plays the match, and sends the co-signed result to that service, as the terminal does.
// The service counts the match once, with the host's name beside its fingerprint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { KOIKOI, PYTHON } from '../python.js';
import { browserMissing, launch, openPage, step } from './support.js';

const skip = browserMissing();

/** `koikoi relay --web --ratings sqlite:///...` on free loopback ports (the service on its own, the
 * relay's port redirecting the rating paths there); stopped by its pid. */
function ratedRelay(/** @type {string} */ dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(KOIKOI, ['relay', '--host', '127.0.0.1', '--port', '0', '--web', '--ratings', `sqlite:///${path.join(dir, 'ratings.sqlite3')}`,
      '--log-level', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KOIKOI_HOME: dir } });
    let out = '';
    child.stdout.on('data', (/** @type {Buffer} */ d) => {
      out += d.toString();
      const m = out.match(/relay listening on (ws:\/\/127\.0\.0\.1:(\d+)\/v1)/);
      const r = out.match(/ratings listening on (http:\/\/127\.0\.0\.1:\d+)\/ratings/);
      if (m && r) resolve({ url: m[1], http: `http://127.0.0.1:${m[2]}`, ratings: r[1], stop: () => child.kill('SIGTERM') });
    });
    child.stderr.on('data', (/** @type {Buffer} */ d) => { out += d.toString(); });
    child.on('exit', (code) => reject(new Error(`the relay exited (${code}): ${out}`)));
  });
}

test('a browser joins a rated match hosted by koikoi host --rated: it sees the service first, then both seats submit, counted once', { skip, timeout: 300000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-rated-'));
  const relay = /** @type {any} */ (await ratedRelay(dir));
  const browser = await launch();
  /** @type {import('node:child_process').ChildProcess | null} */
  let hostSeat = null;
  try {
    hostSeat = spawn(PYTHON, [path.join(REPO, 'web', 'test', 'browser', 'rated_host_seat.py'), relay.url, path.join(dir, 'host'), 'Hanako'],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    hostSeat.stdout?.on('data', (d) => { out += d.toString(); });
    hostSeat.stderr?.on('data', (d) => { out += d.toString(); });
    const until = Date.now() + 60000;
    while (!/CODE ([A-Z0-9]{6})/.test(out)) {
      if (Date.now() > until) throw new Error(`no room code; koikoi host said: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const code = /** @type {RegExpMatchArray} */ (out.match(/CODE ([A-Z0-9]{6})/))[1];
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), `${relay.http}/`);
    await page.goto(`${relay.http}/#join=${code}`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    let terms = '';
    const end = Date.now() + 240000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end in time; koikoi host said: ${out}`);
      const shown = page.locator('dialog[open] .terms');
      if (!terms && await shown.count()) terms = String(await shown.textContent());
      const r = await step(page);
      if (r === 'over') break;
      if (r === 'failed') throw new Error(`the page stopped: ${await page.locator('dialog[open]').textContent()}; koikoi host said: ${out}`);
    }
    // Before accepting: the host's name beside its fingerprint, and where the result goes.
    assert.match(terms, /Host: Hanako [a-z0-9]{4}-[a-z0-9]{4}/);
    // The service `koikoi host --rated` found through the relay: its own port, not the relay's.
    assert.notEqual(relay.ratings, relay.http);
    assert.ok(terms.includes(`Rated: the result goes to the rating service ${relay.ratings}`), terms);
    await page.locator('.notice').getByText(/^Rating service http:\/\/127\.0\.0\.1:\d+: the result (is|was already) counted$/).waitFor({ timeout: 30000 });
    await new Promise((resolve) => { if (hostSeat?.exitCode !== null) resolve(undefined); else hostSeat?.once('exit', resolve); });
    assert.match(out, /Final score/, out);
    assert.match(out, /Rating service [^\n]*counted/, out);
    assert.match(out, /EXIT 0/, out);
    const board = await (await fetch(`${relay.http}/ratings`)).json();   // redirected to the service
    assert.equal(board.results, 1);
    assert.deepEqual(board.players.map((/** @type {any} */ p) => p.games), [1, 1]);
    assert.ok(board.players.some((/** @type {any} */ p) => p.name === 'Hanako'));
    assert.deepEqual(errors, []);
    // The app's leaderboard page (issue 24 §4) shows the same two players, names beside keys.
    await page.goto(`${relay.http}/#`);
    await page.reload();
    await page.getByRole('button', { name: 'Leaderboard' }).click();
    const rows = page.locator('table.board-table tbody tr');
    await rows.nth(1).waitFor({ timeout: 20000 });
    assert.equal(await rows.count(), 2);
    const hanako = board.players.find((/** @type {any} */ p) => p.name === 'Hanako');
    assert.match(String(await page.locator('table.board-table').textContent()), new RegExp(`Hanako ${hanako.fingerprint}`));
    assert.deepEqual(errors, []);
  } finally {
    hostSeat?.kill();
    await browser.close();
    relay.stop();
  }
});

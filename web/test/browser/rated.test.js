// A rated match in a real browser (issue 19, spec/ratings.md §2): `koikoi relay --web --ratings`
// serves the app on the relay's port and a rating service beside it on its own port; the terminal client hosts a rated match
// (`koikoi host --rated`); the page joins, is shown "rated" and the service's URL before it
// accepts, plays the match, and sends the co-signed result to that service, as the terminal does.
// The service counts the match once, with the host's name beside its fingerprint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserMissing, launch, openPage, ratedHost, ratedRelay, step } from './support.js';

const skip = browserMissing();


test('a browser joins a rated match hosted by koikoi host --rated: it sees the service first, then both seats submit, counted once', { skip, timeout: 300000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-rated-'));
  const relay = /** @type {any} */ (await ratedRelay(dir));
  const browser = await launch();
  /** @type {import('node:child_process').ChildProcess | null} */
  let hostSeat = null;
  try {
    const host = await ratedHost(relay.url, path.join(dir, 'host'), 'Hanako');
    hostSeat = host.child;
    const code = host.code;
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), `${relay.http}/`);
    await page.goto(`${relay.http}/#join=${code}`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    let terms = '';
    const end = Date.now() + 240000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end in time; koikoi host said: ${host.output()}`);
      const shown = page.locator('dialog[open] .terms');
      if (!terms && await shown.count()) terms = String(await shown.textContent());
      const r = await step(page);
      if (r === 'over') break;
      if (r === 'failed') throw new Error(`the page stopped: ${await page.locator('dialog[open]').textContent()}; koikoi host said: ${host.output()}`);
    }
    // Before accepting: the host's name beside its fingerprint, and where the result goes.
    assert.match(terms, /Host: Hanako [a-z0-9]{4}-[a-z0-9]{4}/);
    // The service `koikoi host --rated` found through the relay: its own port, not the relay's.
    assert.notEqual(relay.ratings, relay.http);
    assert.ok(terms.includes(`Rated: the result goes to the rating service ${relay.ratings}`), terms);
    // Both pages send the co-signed result; the second copy is counted already and the page
    // says so calmly (QA: 'already counted' read as an error).
    await page.locator('.notice').getByText(/^Rating service http:\/\/127\.0\.0\.1:\d+: the result is counted( \(your opponent’s copy arrived first\))?$/).waitFor({ timeout: 30000 });
    await new Promise((resolve) => { if (hostSeat?.exitCode !== null) resolve(undefined); else hostSeat?.once('exit', resolve); });
    assert.match(host.output(), /Final score/, host.output());
    assert.match(host.output(), /Rating service [^\n]*counted/, host.output());
    assert.match(host.output(), /EXIT 0/, host.output());
    const board = await (await fetch(`${relay.http}/ratings`)).json();   // redirected to the service
    assert.equal(board.results, 1);
    assert.deepEqual(board.players.map((/** @type {any} */ p) => p.games), [1, 1]);
    assert.ok(board.players.some((/** @type {any} */ p) => p.name === 'Hanako'));
    assert.deepEqual(errors, []);
    // The app's leaderboard page (issue 24 §4) shows the same two players, names beside keys.
    await page.getByRole('button', { name: 'Home' }).click(); // the match summary stays until left
    await page.getByRole('button', { name: 'Leaderboard' }).click();
    const rows = page.locator('table.board-table tbody tr');
    await rows.nth(1).waitFor({ timeout: 20000 });
    assert.equal(await rows.count(), 2);
    const hanako = board.players.find((/** @type {any} */ p) => p.name === 'Hanako');
    assert.match(String(await page.locator('table.board-table').textContent()), new RegExp(`Hanako ${hanako.fingerprint}`));
    // This browser's own row is marked (QA), and the note on the ratings is under the table.
    const mine = page.locator('table.board-table tbody tr.mine');
    assert.equal(await mine.count(), 1);
    assert.doesNotMatch(String(await mine.textContent()), /Hanako/);
    assert.equal(await mine.getAttribute('aria-current'), 'true');
    assert.equal(await page.getByText(/careful estimate/).isVisible(), true);
    assert.deepEqual(errors, []);
  } finally {
    hostSeat?.kill();
    await browser.close();
    relay.stop();
  }
});

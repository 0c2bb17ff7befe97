// Online matches in a real browser through a real relay process (`koikoi relay --web`): two
// browser contexts play each other; a browser plays the terminal client `koikoi join`; a page
// reloaded in the middle of a deal resumes from IndexedDB and the match still ends co-signed.
// Every transcript the pages offer verifies with `koikoi verify`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { KOIKOI, PYTHON } from '../python.js';
import { browserMissing, download, launch, openPage, startWebRelay, step } from './support.js';

const skip = browserMissing();

/** Host a 1-round room from the page; resolves with the room code. @param {any} page */
async function host(page, password = '') {
  await page.getByRole('button', { name: 'Create a room' }).click();
  await page.getByLabel('Rounds').fill('1');
  if (password) await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const code = page.locator('.waiting .code');
  await code.waitFor({ timeout: 30000 });
  return String(await code.getAttribute('data-code'));
}

/** @param {string} file */
function verify(file) {
  const r = spawnSync(KOIKOI, ['verify', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /valid transcript/);
}

/**
 * Play both pages until both show the match summary.
 * @param {any[]} pages
 */
async function playBoth(pages) {
  const done = pages.map(() => false);
  const end = Date.now() + Number(process.env.KOIKOI_PLAY_MS ?? 200000);
  while (done.includes(false)) {
    if (Date.now() > end) {
      for (let i = 0; i < pages.length; i++) await pages[i].screenshot({ path: path.join(os.tmpdir(), `koikoi-stalled-${i}.png`) });
      throw new Error(`the match did not end in time (screenshots in ${os.tmpdir()}/koikoi-stalled-*.png)`);
    }
    for (let i = 0; i < pages.length; i++) {
      if (done[i]) continue;
      const r = await step(pages[i]);
      if (r === 'failed') throw new Error(`page ${i} stopped: ${await pages[i].locator('dialog[open]').textContent()}`);
      if (r === 'over') done[i] = true;
    }
  }
}

test('two browsers play a whole match through a relay; a reload mid-deal resumes; both transcripts verify', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    const bContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const b = await openPage(bContext, relay.web);
    const code = await host(a.page);
    await b.page.goto(`${relay.web}#join=${code}`);
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    // Both see the same security code (no password), compare it and go on.
    const sas = await Promise.all([a.page, b.page].map(async (p) => {
      const el = p.locator('dialog[open] .sascode');
      await el.waitFor({ timeout: 60000 });
      return el.getAttribute('data-sas');
    }));
    assert.equal(sas[0], sas[1]);
    // The joiner reloads its page as soon as its cards are dealt (mid-deal, before a round can end).
    const until = Date.now() + 90000;
    while (!(await b.page.locator('.hand .card').count())) {
      if (Date.now() > until) throw new Error('no cards dealt');
      await step(a.page);
      await step(b.page);
    }
    await b.page.reload();
    const reloaded = true;
    await playBoth([a.page, b.page]);
    assert.ok(reloaded);
    for (const p of [a.page, b.page]) {
      await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
      verify(await download(p, 'transcript'));
    }
    assert.deepEqual(a.errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a browser plays a whole match against koikoi join, with a room password', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  /** @type {import('node:child_process').ChildProcess | null} */
  let joiner = null;
  try {
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    const password = 'wisteria in may';
    const code = await host(page, password);
    const home = mkdtempSync(path.join(os.tmpdir(), 'koikoi-join-'));
    joiner = spawn(PYTHON, [path.join(REPO, 'web', 'test', 'browser', 'join_seat.py'), code, relay.url, home, password], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    joiner.stdout?.on('data', (d) => { out += d.toString(); });
    joiner.stderr?.on('data', (d) => { out += d.toString(); });
    const end = Date.now() + 240000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end in time; koikoi join said: ${out}`);
      // With a password there is no security code to compare (SPAKE2 authenticates the pair).
      assert.equal(await page.locator('dialog[open] .sascode').count(), 0);
      const r = await step(page);
      if (r === 'over') break;
      if (r === 'failed') throw new Error(`the page stopped: ${await page.locator('dialog[open]').textContent()}; koikoi join said: ${out}`);
    }
    verify(await download(page, 'transcript'));
    await new Promise((resolve) => { if (joiner?.exitCode !== null) resolve(undefined); else joiner?.once('exit', resolve); });
    assert.match(out, /Final score/, out);
    assert.match(out, /EXIT 0/, out);
    assert.deepEqual(errors, []);
  } finally {
    joiner?.kill();
    await browser.close();
    await relay.stop();
  }
});

test('the opponent who leaves misses its deadline: the page signs an abandonment claim that koikoi verify upholds', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    await a.page.getByRole('button', { name: 'Create a room' }).click();
    await a.page.getByLabel('Rounds').fill('1');
    await a.page.getByLabel('Seconds for each decision').fill('10');
    await a.page.getByLabel('Seconds for each automatic step').fill('10');
    await a.page.getByRole('button', { name: 'Create', exact: true }).click();
    const codeEl = a.page.locator('.waiting .code');
    await codeEl.waitFor({ timeout: 30000 });
    await b.page.goto(`${relay.web}#join=${await codeEl.getAttribute('data-code')}`);
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    // Play until it is the joiner's move, then the joiner goes away for good.
    const end = Date.now() + 90000;
    for (;;) {
      if (Date.now() > end) throw new Error('never the joiner\'s move');
      const theirs = await b.page.locator('.hand button.card').count();
      const ours = await a.page.locator('.hand button.card, .field button.card.choice, dialog[open] button.primary').count();
      if (theirs && !ours && !(await b.page.locator('dialog[open]').count())) break;
      await step(a.page);
      await step(b.page);
    }
    await b.page.close();
    // The host's clock for the joiner runs out (10 s), and its page stops with the claim.
    await a.page.locator('dialog.dlg-failure').waitFor({ timeout: 60000 });
    assert.match(String(await a.page.locator('dialog[open]').textContent()), /missed the deadline/);
    const claim = await download(a.page, 'evidence');
    const r = spawnSync(KOIKOI, ['verify', claim], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /abandoned by player 1 at message \d+/);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

// One identity on every device (issue 29 §2, spec/identity.md): an identity exported by the terminal
// (`koikoi identity export`) is imported in a real browser, which then plays a rated match that the
// rating service counts for that same fingerprint; the page then offers the export, its file goes
// back to a fresh terminal home, and the fingerprint is the same all the way round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KOIKOI } from '../python.js';
import { browserMissing, launch, openPage, ratedHost, ratedRelay, step } from './support.js';

const skip = browserMissing();
const PASS = 'correct horse battery staple';

/** `koikoi ...` with its own home; the passphrase from the environment. @param {string} home @param {string[]} args */
function koikoi(home, ...args) {
  const done = spawnSync(KOIKOI, args, { env: { ...process.env, KOIKOI_HOME: home, KOIKOI_PASSPHRASE: PASS, NO_COLOR: '1' }, encoding: 'utf-8', timeout: 120000 });
  return { code: done.status, out: done.stdout, err: done.stderr };
}

/** @param {string} home */
function fingerprintOf(home) {
  const shown = koikoi(home, 'identity', 'show');
  assert.equal(shown.code, 0, shown.err);
  return /** @type {RegExpMatchArray} */ (shown.out.match(/Fingerprint: (\S+)/))[1];
}


test('terminal -> browser -> terminal keeps the fingerprint, and the browser\'s rated match counts for it', { skip, timeout: 420000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-identity-'));
  const laptop = path.join(dir, 'laptop');
  const fresh = path.join(dir, 'fresh');
  assert.equal(koikoi(laptop, 'name', 'Taro').code, 0);
  const mine = fingerprintOf(laptop);
  const carried = path.join(dir, 'taro.koikoi-id');
  const exported = koikoi(laptop, 'identity', 'export', carried);
  assert.equal(exported.code, 0, exported.err);

  const relay = /** @type {any} */ (await ratedRelay(dir));
  const browser = await launch();
  /** @type {import('node:child_process').ChildProcess | null} */
  let hostSeat = null;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const { page, errors } = await openPage(context, `${relay.http}/`);
    await page.locator('.settings .fp').waitFor({ timeout: 30000 }); // the browser made its own key first
    const own = String(await page.locator('.settings .fp').textContent());
    assert.ok(!own.includes(mine));
    await page.locator('details.identity summary').click();
    const importForm = page.locator('form.identity-import');
    await importForm.locator('input[type=file]').setInputFiles(carried);
    // A wrong passphrase says so in words and changes nothing.
    await importForm.locator('input[name=import-passphrase]').fill('not the passphrase');
    await importForm.getByRole('button', { name: 'Import this identity' }).click();
    await page.locator('details.identity .status').getByText('The passphrase does not open that file').waitFor({ timeout: 60000 });
    await importForm.locator('input[name=import-passphrase]').fill(PASS);
    await importForm.getByRole('button', { name: 'Import this identity' }).click();
    // Replacing the browser's own identity is asked first.
    await page.locator('details.identity .status').getByText(`Replace it with ${mine}?`).waitFor({ timeout: 60000 });
    await page.getByRole('button', { name: 'Replace it' }).click();
    await page.locator('details.identity .status').getByText(`This browser now plays as ${mine}.`).waitFor({ timeout: 60000 });
    assert.equal(await page.locator('.settings .fp').textContent(), `Your key: ${mine}`);
    assert.equal(await page.locator('input[name=displayname]').inputValue(), 'Taro');
    assert.equal(await page.getByRole('button', { name: 'Replace it' }).isVisible(), false); // answered
    await page.screenshot({ path: path.join(dir, 'imported.png') });

    const host = await ratedHost(relay.url, path.join(dir, 'host'), 'Hanako');
    hostSeat = host.child;
    const code = host.code;
    await page.goto(`${relay.http}/#join=${code}`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    const end = Date.now() + 240000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end in time; koikoi host said: ${host.output()}`);
      const r = await step(page);
      if (r === 'over') break;
      if (r === 'failed') throw new Error(`the page stopped: ${await page.locator('dialog[open]').textContent()}; koikoi host said: ${host.output()}`);
    }
    await page.locator('.notice').getByText(/the result is counted( \(your opponent’s copy arrived first\))?$/).waitFor({ timeout: 60000 });
    await new Promise((resolve) => { if (hostSeat?.exitCode !== null) resolve(undefined); else hostSeat?.once('exit', resolve); });
    const board = await (await fetch(`${relay.http}/ratings`)).json();
    const taro = board.players.find((/** @type {any} */ p) => p.fingerprint === mine);
    assert.ok(taro, JSON.stringify(board.players));
    assert.equal(taro.name, 'Taro');
    assert.equal(taro.games, 1);

    // Home now offers the export (a rating to lose); the file goes back to a fresh terminal home.
    await page.getByRole('button', { name: 'Home' }).click(); // the match summary stays until left
    await page.getByRole('button', { name: 'Export my identity' }).first().click();
    const exportForm = page.locator('form.identity-export');
    await exportForm.locator('input[name=export-passphrase]').fill(PASS);
    await exportForm.locator('input[name=export-again]').fill(PASS);
    const downloading = page.waitForEvent('download', { timeout: 60000 });
    await exportForm.getByRole('button', { name: 'Export my identity' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), `koikoi-identity-${mine}.koikoi-id`);
    const back = path.join(dir, 'back.koikoi-id');
    await download.saveAs(back);
    await page.locator('details.identity .status').getByText(`Saved your identity (${mine})`).waitFor({ timeout: 30000 });
    await page.goto(`${relay.http}/`);
    assert.equal(await page.locator('.offer').count(), 0); // exported: no more offer
    const imported = koikoi(fresh, 'identity', 'import', back);
    assert.equal(imported.code, 0, imported.err);
    assert.equal(fingerprintOf(fresh), mine);
    assert.match(koikoi(fresh, 'identity', 'show').out, /Name: Taro/);
    assert.deepEqual(errors, []);
  } finally {
    hostSeat?.kill();
    await browser.close();
    relay.stop();
  }
  writeFileSync(path.join(dir, 'done'), 'ok');
});

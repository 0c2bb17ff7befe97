// The browser harness: Chromium from the Debian package `chromium` driven by playwright-core
// (Playwright cannot download a browser here), the app served by a real relay process
// (`koikoi relay --web`), and helpers that play as a person clicks.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import { readFileSync, writeFileSync } from 'node:fs';
import { REPO } from '../helpers.js';
import { spawn } from 'node:child_process';
import { KOIKOI, PYTHON, pythonMissing, startRelay } from '../python.js';

export const CHROMIUM = process.env.KOIKOI_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(REPO, 'web', 'test', 'screenshots');
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Why the browser tests cannot run, or false (under CI=true a missing browser is an error). */
export function browserMissing() {
  const py = pythonMissing();
  if (py) return py;
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`no browser at ${CHROMIUM} under CI=true: .ci/run installs the Debian package chromium`);
  return `Chromium is not installed (apt-get install chromium: the Debian package chromium)`;
}

/** A fresh browser (its own temporary profile) of the system's Chromium. */
export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A relay process serving the app; resolves with {url (ws), web (http), stop}. */
export async function startWebRelay(/** @type {string[]} */ extra = []) {
  const relay = /** @type {any} */ (await startRelay(['--web', ...extra]));
  return { ...relay, web: relay.url.replace('ws://', 'http://').replace(/\/v1$/, '/') };
}

/**
 * A page with its errors collected (a test fails on any page error).
 * @param {any} context
 */
export async function openPage(/** @type {any} */ context, /** @type {string} */ url) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (/** @type {Error} */ e) => errors.push(e.message));
  page.on('console', (/** @type {any} */ m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  return { page, errors };
}

/**
 * Take one step as a person would: answer the open dialog with its first choice (Stop at a
 * koi-koi question, "Next" after a round), else play or take the first card offered. Returns
 * 'over' when the match summary is open, 'failed' when the match stopped, otherwise what it did.
 * With `dialogsOnly` it answers the open dialog but never plays a card (the state is read once,
 * so a card that appears meanwhile is not clicked).
 * @param {any} page @param {{koikoi?: boolean, dialogsOnly?: boolean}} [o]
 */
export async function step(page, o = {}) {
  const state = await page.evaluate(() => {
    const dlg = document.querySelector('dialog.dlg[open]');
    return {
      dialog: dlg ? dlg.className : '',
      hand: document.querySelectorAll('.hand button.card').length,
      field: document.querySelectorAll('.field button.card.choice').length,
    };
  });
  if (state.dialog.includes('dlg-over')) return 'over';
  if (state.dialog.includes('dlg-failure')) return 'failed';
  if (state.dialog) {
    const pick = o.koikoi && state.dialog.includes('dlg-decide') ? 'dialog[open] button.koikoi-call' : 'dialog[open] button.primary';
    // Only the dialog's primary answer: the match summary has none, so a summary that replaced
    // a round summary meanwhile is never clicked away.
    await page.locator(pick).first().click({ timeout: 2000 }).catch(() => {});
    return 'dialog';
  }
  if (o.dialogsOnly) {
    await page.waitForTimeout(100);
    return 'wait';
  }
  if (state.field) {
    await page.locator('.field button.card.choice').first().click({ timeout: 2000 }).catch(() => {});
    return 'capture';
  }
  if (state.hand) {
    await page.locator('.hand button.card').first().click({ timeout: 2000 }).catch(() => {});
    return 'play';
  }
  await page.waitForTimeout(100);
  return 'wait';
}

/**
 * Play until the match is over (or stopped); returns 'over' or 'failed'.
 * @param {any} page @param {number} [limitMs]
 */
export async function playToEnd(page, limitMs = 120000) {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    const r = await step(page);
    if (r === 'over' || r === 'failed') return r;
  }
  throw new Error('the match did not end in time');
}

/** The bytes of a file the page offers for download ('transcript', 'result', 'evidence'). @param {any} page @param {string} kind */
export async function download(page, kind) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(`a[data-file="${kind}"]`).click()]);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'koikoi-dl-')), `${kind}.bin`);
  await dl.saveAs(file);
  return file;
}

/**
 * Compare a screenshot with the committed one (web/test/screenshots/NAME.png), allowing a small
 * share of differing pixels; KOIKOI_UPDATE_SCREENSHOTS=1 writes the new picture instead.
 * @param {Buffer} png @param {string} name @param {number} [tolerance] share of pixels that may differ
 */
export function compareScreenshot(png, name, tolerance = 0.02) {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  if (process.env.KOIKOI_UPDATE_SCREENSHOTS === '1' || !existsSync(file)) {
    if (process.env.CI === 'true' && !existsSync(file)) throw new Error(`no committed screenshot ${name}.png`);
    writeFileSync(file, png);
    return { differing: 0, share: 0, written: true };
  }
  const a = PNG.sync.read(readFileSync(file));
  const b = PNG.sync.read(png);
  if (a.width !== b.width || a.height !== b.height) throw new Error(`${name}: size ${b.width}x${b.height}, committed ${a.width}x${a.height}`);
  const differing = pixelmatch(a.data, b.data, null, a.width, a.height, { threshold: 0.2 });
  const share = differing / (a.width * a.height);
  if (share > tolerance) {
    writeFileSync(path.join(os.tmpdir(), `${name}.actual.png`), png);
    throw new Error(`${name}: ${(share * 100).toFixed(2)}% of pixels differ (more than ${tolerance * 100}%); the new picture is in ${os.tmpdir()}/${name}.actual.png`);
  }
  return { differing, share, written: false };
}

/**
 * `koikoi relay --web --ratings sqlite:///...` on free loopback ports (the service on its own, the
 * relay's port redirecting the rating paths there); stopped by its pid.
 * @param {string} dir @returns {Promise<{url: string, http: string, ratings: string, stop: () => void}>}
 */
export function ratedRelay(dir) {
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

/**
 * The terminal client hosting a rated 1-round match (rated_host_seat.py) as NAME; resolves once it
 * printed its room code. `output()` is everything it said so far.
 * @param {string} relayUrl @param {string} home @param {string} name
 */
export async function ratedHost(relayUrl, home, name) {
  const child = spawn(PYTHON, [path.join(REPO, 'web', 'test', 'browser', 'rated_host_seat.py'), relayUrl, home, name],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => { out += d.toString(); });
  child.stderr?.on('data', (d) => { out += d.toString(); });
  const until = Date.now() + 60000;
  while (!/CODE ([A-Z0-9]{6})/.test(out)) {
    if (Date.now() > until) { child.kill(); throw new Error(`no room code; koikoi host said: ${out}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  const code = /** @type {RegExpMatchArray} */ (out.match(/CODE ([A-Z0-9]{6})/))[1];
  return { child, code, output: () => out };
}

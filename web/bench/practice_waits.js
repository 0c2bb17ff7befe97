#!/usr/bin/env node
// node web/bench/practice_waits.js [--json] [--matches N] [--rounds R] [--level L] [--form-ms T]: the waits a player
// feels in practice (issue 26 item 6), in headless Chromium (the system's, as the browser tests
// launch it) against the app served by `koikoi relay --web`:
// - first hand: from the click on Start to the board showing the person's first hand;
// - next hand: from the click that dismisses a deal's summary to the board showing the next
//   deal's hand (a script in the page clicks the summary away the moment it opens: the worst
//   case for a person, who would read it while the next deal is set up).
// Both are timed inside the page (performance.now around the click, a MutationObserver for the
// hand), with card motion off (koikoi.motionMs = 0: animations excluded) and the computer's pause
// as the page ships it. The practice form is filled at once and Start clicked after --form-ms
// (default 0, quicker than any person: what the page does while the form shows, such as starting
// the seats' workers, has no time then). Prints the median, min, max and quartiles of each; --json prints the
// same as a JSON list of {name, median_s, floor_s, ratio, unit, note} (koikoi bench waits).
import os from 'node:os';
import { launch, openPage, startWebRelay, step, browserMissing } from '../test/browser/support.js';

const args = process.argv.slice(2);
/** @param {string} name @param {number} fallback */
const num = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const json = args.includes('--json');
const matches = num('--matches', 4);
const rounds = num('--rounds', 4);
const level = args.includes('--level') ? args[args.indexOf('--level') + 1] : 'greedy';
const formMs = num('--form-ms', 0);

/**
 * Click Start and time, in the page, until the person's first hand is on the board.
 * @param {any} page @returns {Promise<number>} ms
 */
function timedStart(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const shown = () => document.querySelector('.hand[data-deal] .card[data-card]') !== null;
    const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Start');
    if (!button) return reject(new Error('no Start button'));
    const t0 = performance.now();
    const watch = new MutationObserver(() => {
      if (shown()) { watch.disconnect(); resolve(performance.now() - t0); }
    });
    watch.observe(document.body, { childList: true, subtree: true, attributes: true });
    button.click();
  }));
}

/**
 * Installed in every page: the moment a deal's summary opens, click it away and time until the
 * next deal's hand is on the board (window.koikoiWaits.next, in ms; the last deal has none).
 */
function summaryWatcher() {
  /** @type {{next: number[], pending: {deal: number, t0: number} | null}} */
  const w = { next: [], pending: null };
  /** @type {any} */ (window).koikoiWaits = w;
  const check = () => {
    if (!w.pending) {
      const summary = /** @type {HTMLElement | null} */ (document.querySelector('dialog[open].dlg-round [data-deal]'));
      const button = /** @type {HTMLElement | null} */ (document.querySelector('dialog[open].dlg-round button.primary'));
      if (!summary || !button) return;
      w.pending = { deal: Number(summary.dataset.deal), t0: performance.now() };
      button.click();
    }
    const hand = /** @type {HTMLElement | null} */ (document.querySelector('.hand[data-deal]'));
    if (w.pending && hand && Number(hand.dataset.deal) > w.pending.deal && hand.querySelector('.card[data-card]')) {
      w.next.push(performance.now() - w.pending.t0);
      w.pending = null;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
}

/** @param {number[]} xs */
function summary(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { n: s.length, median: q(0.5), min: s[0], max: s[s.length - 1], p25: q(0.25), p75: q(0.75) };
}

async function main() {
  const missing = browserMissing();
  if (missing) throw new Error(`cannot run: ${missing}`);
  // The targets hold "at low load": the load average before and after goes into every row.
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const loadBefore = load();
  const relay = await startWebRelay();
  const browser = await launch();
  /** @type {number[]} */ const first = [];
  /** @type {number[]} */ const next = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(summaryWatcher);
    const { page, errors } = await openPage(context, relay.web);
    await page.evaluate(() => localStorage.setItem('koikoi.motionMs', '0'));
    for (let m = 0; m < matches; m++) {
      await page.evaluate(() => localStorage.removeItem('koikoi.current'));
      await page.goto(relay.web);
      await page.getByRole('button', { name: 'Practice against the computer' }).click();
      await page.getByLabel('Rounds').fill(String(rounds));
      await page.getByLabel('Computer').selectOption(level);
      if (formMs > 0) await page.waitForTimeout(formMs);
      first.push(await timedStart(page));
      const end = Date.now() + 300000;
      for (;;) {
        if (Date.now() > end) throw new Error('the practice match did not end in time');
        const r = await step(page);
        if (r === 'over') break;
        if (r === 'failed') throw new Error('the practice match stopped');
      }
      next.push(...await page.evaluate(() => /** @type {any} */ (window).koikoiWaits.next));
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await relay.stop();
  }
  // The targets (issue 26, "Must hold") stand in the floor column.
  const loads = `load average ${loadBefore} before, ${load()} after, ${os.cpus().length} CPUs`;
  /** @type {[string, ReturnType<typeof summary>, number][]} */
  const rows = [['practice: Start to the first hand', summary(first), 1000], ['practice: summary dismissed to the next hand', summary(next), 250]];
  if (json) {
    console.log(JSON.stringify(rows.map(([name, s, target]) => ({
      name, median_s: s.n ? s.median / 1000 : null, floor_s: target / 1000, ratio: s.n ? s.median / target : null, unit: 's',
      note: `${spread(s)}; floor: the target; ${matches} matches of ${rounds} rounds, computer ${level}, motion off, ${formMs} ms on the form; ${loads}`,
    }))));
  } else {
    for (const [name, s, target] of rows) {
      console.log(s.n ? `${name}: median ${s.median.toFixed(0)} ms, target ${target} ms (${spread(s)}; ${loads})` : `${name}: no sample (matches of one round have no next hand)`);
    }
  }
}

/** @param {{n: number, min: number, p25: number, p75: number, max: number}} s */
function spread(s) {
  if (!s.n) return 'n=0';
  return `n=${s.n}, min ${s.min.toFixed(0)}, p25 ${s.p25.toFixed(0)}, p75 ${s.p75.toFixed(0)}, max ${s.max.toFixed(0)} ms`;
}

await main();

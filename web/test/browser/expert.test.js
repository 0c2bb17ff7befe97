// The learned computer player (the expert level) in a real browser: chosen on the practice form,
// it plays a short match to its co-signed end in its worker, with no page error, its transcript
// verifies, and the computer's worker records a time for each of its decisions (seat.js
// DECISIONS). Those times are printed for the report, never asserted: speed is the benches' to
// measure (the in-play cap is 1 s a decision, the master's, which the expert inherits), and a
// wall-clock bound would fail on a loaded machine without anything being wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { KOIKOI } from '../python.js';
import { browserMissing, download, launch, openPage, playToEnd, startWebRelay } from './support.js';

const skip = browserMissing();

test('a practice match against the expert ends co-signed and its decision times are reported', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context, relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    // 2 rounds: a round won by a dealt hand would leave a 1-round match with no decision to time.
    await page.getByLabel('Rounds').fill('2');
    await page.getByLabel('Computer').selectOption('expert');
    await page.getByRole('button', { name: 'Start' }).click();
    assert.equal(await playToEnd(page, 240000), 'over');
    await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    assert.deepEqual(errors, []);

    const transcript = await download(page, 'transcript');
    const verify = spawnSync(KOIKOI, ['verify', transcript], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    assert.match(verify.stdout, /valid transcript/);
    assert.match(verify.stdout, /Computer \(expert\)/);

    // Both seats' workers: the person's records nothing, the computer's every decision it took.
    /** @type {{ms: number, options: number}[]} */
    const decisions = [];
    for (const worker of page.workers()) {
      const seen = await worker.evaluate(() => /** @type {any} */ (globalThis).koikoiDecisions ?? null).catch(() => null);
      if (Array.isArray(seen)) decisions.push(...seen);
    }
    const real = decisions.filter((d) => d.options >= 2).map((d) => d.ms).sort((a, b) => a - b);
    assert.ok(real.length >= 3, `only ${real.length} decisions with a choice were timed`);
    const q = (/** @type {number} */ p) => real[Math.min(real.length - 1, Math.floor(p * real.length))];
    process.stdout.write(`# expert in the browser: ${real.length} decisions with a choice (${decisions.length} in all); ms per decision `
      + `median ${q(0.5).toFixed(0)}, p90 ${q(0.9).toFixed(0)}, max ${real[real.length - 1].toFixed(0)}; in order: `
      + `${decisions.map((d) => `${d.ms.toFixed(0)}/${d.options}`).join(' ')}\n`);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

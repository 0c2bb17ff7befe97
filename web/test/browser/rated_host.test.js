// The host's page proposes a rated match (spec/ratings.md §2.1): the create form's checkbox with
// no service typed and none answering for the relay says so and opens no room; with the service
// typed, the joiner's page shows it before
// accepting, both co-signed results carry `rated`, and each page sends its result to the service
// once the match is over (§2.3; the relay here runs none, so the page says what it answered).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { KOIKOI } from '../python.js';
import { verifyResult } from '../../src/protocol/results.js';
import { browserMissing, download, launch, openPage, startWebRelay, step } from './support.js';

const skip = browserMissing();

test('a page hosts a rated match: the joiner sees the relay\'s service, the co-signed result is rated, both pages submit it', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const service = relay.web.replace(/\/$/, '');
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    // The host's service restarts behind its balancer: two 503s with an HTML body, then it counts
    // the result. The page tries again and says so (the joiner's, untouched, meets the relay's 404).
    let posts = 0;
    await a.page.route('**/ratings/results', async (/** @type {any} */ route) => {
      posts += 1;
      if (posts <= 2) await route.fulfill({ status: 503, contentType: 'text/html', body: '<html><body><h1>503 Service Unavailable</h1></body></html>' });
      else await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, counted: true }) });
    });
    await a.page.getByRole('button', { name: 'Create a room' }).click();
    await a.page.getByText('More options').click();
    await a.page.getByLabel('Another number of rounds').fill('2');
    assert.equal(await a.page.getByLabel(/^Rating service/).getAttribute('placeholder'), service);
    await a.page.getByLabel(/^Rated match/).check();
    // This relay runs no rating service: the form says so instead of proposing a match whose
    // result could go nowhere (browser QA), and opens no room.
    await a.page.getByRole('button', { name: 'Create', exact: true }).click();
    await a.page.getByText('No rating service answers for this relay (it may have none, or be restarting): type a rating service’s address under More options, try again in a moment, or play unrated.').waitFor();
    assert.equal(await a.page.locator('.waiting .code').count(), 0);
    // Typed, the service is the terms' (this one answers the host's page through the route above).
    await a.page.getByLabel(/^Rating service/).fill(service);
    await a.page.getByRole('button', { name: 'Create', exact: true }).click();
    const codeEl = a.page.locator('.waiting .code');
    await codeEl.waitFor({ timeout: 30000 });
    await b.page.goto(`${relay.web}#join=${await codeEl.getAttribute('data-code')}`);
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    const terms = b.page.locator('dialog.dlg-terms');
    const end = Date.now() + 90000;
    while (!(await terms.count())) {
      if (Date.now() > end) throw new Error('no terms shown');
      const sas = b.page.locator('dialog[open] .sascode');
      if (await sas.count()) await b.page.locator('dialog[open] button.primary').click();
      await step(a.page);
      await b.page.waitForTimeout(100);
    }
    assert.match(String(await terms.textContent()), new RegExp(`Rated: the result goes to the rating service ${service.replace(/[.]/g, '\\.')}`));
    // The host resigns at its first move: the shortest way to a co-signed result.
    const until = Date.now() + 120000;
    while (!(await a.page.locator('.hand button.card').count()) || (await a.page.locator('dialog[open]').count())) {
      if (Date.now() > until) throw new Error('never the host\'s move');
      if (!(await a.page.locator('.hand button.card').count())) await step(a.page);
      await step(b.page);
    }
    await a.page.locator('footer button.resign').click();
    await a.page.locator('dialog.dlg-resign button.resign-confirm').click();
    for (const p of [a.page, b.page]) {
      await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor({ timeout: 60000 });
      const file = await download(p, 'result');
      assert.equal(/** @type {any} */ (verifyResult(new Uint8Array(readFileSync(file)))).rated, true);
      const r = spawnSync(KOIKOI, ['verify', '--result', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      // The submission went to the terms' service and the page says what came of it.
      await p.getByText(new RegExp(`Rating service ${service.replace(/[.]/g, '\\.')}: `)).first().waitFor({ timeout: 30000 });
    }
    await a.page.getByText(/Rating service .*: the result is counted/).waitFor({ timeout: 30000 });
    assert.equal(posts, 3);
    const allowed = (/** @type {string} */ e) => /\/ratings\/results/.test(e) || /Failed to load resource/.test(e);
    assert.deepEqual([...a.errors, ...b.errors].filter((e) => !allowed(e)), []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

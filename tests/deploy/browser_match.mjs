// Two Chromium pages play a rated match on the deployed site (tests/deploy/test_deploy.py).
//
//   node tests/deploy/browser_match.mjs ORIGIN HOSTNAME SPKI
//
// ORIGIN is https://HOSTNAME:PORT/; Chromium resolves HOSTNAME to 127.0.0.1 and accepts the
// certificate whose public key hashes to SPKI (base64 SHA-256), so the page is a secure context
// under a name that is not localhost. One page hosts a 1-round rated match (the rating service is
// the site's own), the other joins by the link, both play it out as a person clicks, and both
// send the co-signed result. Prints one JSON line with what each page saw; exits 1 on a failure.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..', '..', 'web');
const { ARGS, CHROMIUM, step } = await import(pathToFileURL(path.join(web, 'test', 'browser', 'support.js')).href);
const { chromium } = createRequire(path.join(web, 'package.json'))('playwright-core');

const [origin, hostname, spki] = process.argv.slice(2);
const service = origin.replace(/\/$/, '');
const browser = await chromium.launch({
  executablePath: CHROMIUM, headless: true,
  args: [...ARGS, `--host-resolver-rules=MAP ${hostname} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${spki}`],
});

/** @param {any} context */
async function open(context) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (/** @type {Error} */ e) => errors.push(e.message));
  page.on('console', (/** @type {any} */ m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(origin);
  return { page, errors };
}

/** Whether the page is a secure context and its service worker is active. @param {any} page */
async function secure(page) {
  return page.evaluate(async () => {
    const registration = await Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(() => r(null), 20000))]);
    return { secureContext: window.isSecureContext, serviceWorker: Boolean(registration && /** @type {any} */ (registration).active) };
  });
}

let failed = false;
const report = {};
try {
  const a = await open(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
  const b = await open(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
  report.secure = [await secure(a.page), await secure(b.page)];
  await a.page.getByRole('button', { name: 'Create a room' }).click();
  await a.page.getByText('More options').click();
  await a.page.getByLabel('Another number of rounds').fill('1');
  await a.page.getByLabel(/^Rated match/).check();
  await a.page.getByRole('button', { name: 'Create', exact: true }).click();
  const codeEl = a.page.locator('.waiting .code');
  await codeEl.waitFor({ timeout: 30000 });
  const code = String(await codeEl.getAttribute('data-code'));
  await b.page.goto(`${origin}#join=${code}`);
  await b.page.getByRole('button', { name: 'Join', exact: true }).click();
  // The joiner's terms, read before either page is stepped on (a step answers the dialog).
  const shownTerms = b.page.locator('dialog.dlg-terms');
  const before = Date.now() + 90000;
  while (!(await shownTerms.count())) {
    if (Date.now() > before) throw new Error('no terms shown');
    const sas = b.page.locator('dialog[open] .sascode');
    if (await sas.count()) await b.page.locator('dialog[open] button.primary').click();
    await step(a.page);
    await b.page.waitForTimeout(100);
  }
  const terms = String(await shownTerms.textContent());
  const done = [false, false];
  const end = Date.now() + 240000;
  while (done.includes(false)) {
    if (Date.now() > end) throw new Error('the match did not end in time');
    for (const [i, p] of [a.page, b.page].entries()) {
      if (done[i]) continue;
      const r = await step(p);
      if (r === 'failed') throw new Error(`page ${i} stopped: ${await p.locator('dialog[open]').textContent()}`);
      if (r === 'over') done[i] = true;
    }
  }
  report.terms = terms;
  report.notices = [];
  const counted = new RegExp(`^Rating service ${service.replace(/[.]/g, '\\.')}: the result is counted( \\(your opponent’s copy arrived first\\))?$`);
  for (const p of [a.page, b.page]) {
    const notice = p.locator('.notice').getByText(counted);
    await notice.first().waitFor({ timeout: 60000 });
    report.notices.push(String(await notice.first().textContent()));
  }
  report.errors = [...a.errors, ...b.errors];
} catch (e) {
  failed = true;
  report.failure = String(/** @type {any} */ (e)?.stack ?? e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
process.exit(failed ? 1 : 0);

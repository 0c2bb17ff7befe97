import { launch, openPage, startWebRelay } from '/work/main/web/test/browser/support.js';
const relay = await startWebRelay();
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openPage(context, relay.web);
  const lines = [];
  page.on('console', (m) => { if (m.text().startsWith('TRACE')) lines.push(m.text()); });
  page.on('worker', (w) => w.on('console', (m) => { if (m.text().startsWith('TRACE')) lines.push(m.text()); }));
  await page.evaluate(() => localStorage.setItem('koikoi.motionMs', '0'));
  for (let m = 0; m < 2; m++) {
    lines.length = 0;
    await page.evaluate(() => localStorage.removeItem('koikoi.current'));
    await page.goto(relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByLabel('Rounds').fill('1');
    await page.waitForTimeout(Number(process.env.FORM ?? 800));
    const t0 = await page.evaluate(() => performance.timeOrigin + performance.now());
    await page.evaluate(() => new Promise((resolve) => {
      const shown = () => document.querySelector('.hand[data-deal] .card[data-card]') !== null;
      const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Start');
      const w = new MutationObserver(() => { if (shown()) { w.disconnect(); resolve(0); } });
      w.observe(document.body, { childList: true, subtree: true, attributes: true });
      (window).T0 = performance.timeOrigin + performance.now();
      button.click();
    }));
    const t1 = await page.evaluate(() => performance.timeOrigin + performance.now());
    const T0 = await page.evaluate(() => window.T0);
    console.log('first hand', (t1 - T0).toFixed(0), 'ms');
    for (const l of lines) { const m = l.match(/start=([\d.]+)/); const rel = m ? (Number(m[1]) - T0).toFixed(0) : '?'; console.log(rel.padStart(6), l.replace(/start=[\d.]+ /, '')); }
    await page.waitForTimeout(500);
  }
} finally { await browser.close(); await relay.stop(); }

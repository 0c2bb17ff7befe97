// The move log on a phone (browser QA): it opened upwards over the hand, so the cards under it
// could not be played while it was open. On a narrow screen it now opens below its title, in
// view, and leaves the hand uncovered; on a wide screen it still opens upwards over the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, openPage, startWebRelay, step } from './support.js';

const skip = browserMissing();

/** @param {{top: number, bottom: number, left: number, right: number}} a @param {{top: number, bottom: number, left: number, right: number}} b */
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the open move log leaves the hand uncovered on a phone', { skip, timeout: 180000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    for (const width of [390, 1280]) {
      const { page, errors } = await openPage(await browser.newContext({ viewport: { width, height: 844 } }), relay.web);
      await page.getByRole('button', { name: 'Practice against the computer' }).click();
      // Three rounds: a deal ended at once by a dealt-hand yaku must not end the match before the log fills.
      await page.getByLabel('Rounds', { exact: true }).fill('3');
      await page.getByRole('button', { name: 'Start' }).click();
      const end = Date.now() + 90000;
      // Until the person is asked to play and the log holds a few moves.
      while (!(await page.locator('.hand button.card').count()) || (await page.locator('.movelog li').count()) < 3
        || (await page.locator('dialog[open]').count())) {
        if (Date.now() > end) throw new Error('never a hand with moves logged');
        if (await page.locator('dialog.dlg-over').count()) throw new Error('the match ended before three moves');
        await step(page);
      }
      await page.locator('.movelog summary').click();
      await page.waitForTimeout(400);
      const at = await page.evaluate(() => {
        const box = (/** @type {Element} */ el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
        return {
          list: box(/** @type {Element} */ (document.querySelector('.movelog ol'))),
          summary: box(/** @type {Element} */ (document.querySelector('.movelog summary'))),
          cards: Array.from(document.querySelectorAll('.hand button.card')).map(box),
          height: innerHeight,
        };
      });
      if (width < 700) {
        assert.deepEqual(at.cards.filter((/** @type {any} */ c) => overlap(c, at.list)), [], 'the open log covers a card of the hand');
        assert.ok(at.list.top >= at.summary.bottom - 1, 'the log opens below its title');
        assert.ok(at.list.bottom <= at.height + 1 && at.list.top >= 0, 'the open log is in view');
        // A card of the hand can still be played with the log open.
        await page.locator('.hand button.card').first().click({ trial: true });
      } else {
        assert.ok(at.list.bottom <= at.summary.top + 1, 'on a wide screen the log opens upwards');
      }
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  } finally {
    await browser.close();
    await relay.stop();
  }
});

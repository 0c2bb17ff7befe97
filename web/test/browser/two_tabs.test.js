// One saved seat never runs in two tabs at once (spec/protocol.md §12.3). A page opened while a
// match is running resumes the saved match by itself; before the seat's Web Lock it did so while
// the first tab still played it: two copies of one seat, each signing its own moves at the same
// message numbers (an equivocation proof against an honest player) and sharing the round keys
// drawn before they split (an opponent who finishes a deal with one copy reads the other's cards).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, compareScreenshot, launch, openPage, startWebRelay } from './support.js';

const skip = browserMissing();

test('a second tab does not run the match the first tab is playing; after it closes, it does', { skip, timeout: 180000 }, async (t) => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const first = await openPage(context, relay.web);
    await first.page.getByRole('button', { name: 'Practice against the computer' }).click();
    // Three rounds, not one: a one-round match can end at the deal (a hand yaku), and an ended
    // match holds no lock, so the other tab would show its summary instead of refusing it.
    await first.page.getByLabel('Rounds').fill('3');
    await first.page.getByRole('button', { name: 'Start' }).click();
    await first.page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });

    // What the second tab shows, from its first drawing on (a MutationObserver sees every state
    // the page is left in between tasks): the board area's content, or 'empty'.
    await context.addInitScript(() => {
      /** @type {string[]} */ const shown = [];
      /** @type {any} */ (window).koikoiShown = shown;
      new MutationObserver(() => {
        const wrap = document.querySelector('main.screen.play .boardwrap');
        if (!wrap) return;
        const now = wrap.firstElementChild ? wrap.firstElementChild.className : 'empty';
        if (shown[shown.length - 1] !== now) shown.push(now);
      }).observe(document, { childList: true, subtree: true });
    });
    // A phone's second tab and a desktop's: the picture of the "opening" panel each shows while
    // its worker waits for the seat's lock (up to 5 s); compared only when it was still shown
    // after the picture was taken (a very slow machine may have moved on to the next panel).
    for (const size of [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 800 }]) {
      const page = await context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(relay.web);
      await page.locator('.opening, .cannotstart').first().waitFor({ timeout: 30000 });
      const png = await page.screenshot();
      const still = await page.evaluate(() => /** @type {any} */ (window).koikoiShown.length === 1);
      if (still) compareScreenshot(png, `opening-${size.name}`);
      else t.diagnostic(`opening-${size.name}: the panel had gone when the picture was taken; not compared`);
      await page.locator('.cannotstart').waitFor({ timeout: 30000 });
      await page.close();
    }
    const second = await openPage(context, relay.web);
    await second.page.getByText('This match is open in another tab or window.').first().waitFor({ timeout: 30000 });
    assert.equal(await second.page.locator('.hand button.card').count(), 0);
    // Never an empty table meanwhile (QA): a neutral "opening" panel, then the one that says why.
    const shown = await second.page.evaluate(() => /** @type {any} */ (window).koikoiShown);
    assert.deepEqual(shown, ['waiting panel opening', 'waiting panel cannotstart'], JSON.stringify(shown));
    // The first tab plays on.
    await first.page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 30000 });

    await first.page.close();
    await second.page.reload();
    await second.page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });
    assert.deepEqual([...first.errors, ...second.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('Back from the "open in another tab" panel goes where Back points and stays there', { skip, timeout: 180000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const second = await openPage(context, `${relay.web}#lobby`);
    await second.page.locator('.lobbypage').waitFor({ timeout: 10000 });
    const first = await openPage(context, relay.web);
    await first.page.getByRole('button', { name: 'Practice against the computer' }).click();
    // Three rounds, not one: a one-round match can end at the deal (a hand yaku), and an ended
    // match holds no lock, so the other tab would show its summary instead of refusing it.
    await first.page.getByLabel('Rounds').fill('3');
    await first.page.getByRole('button', { name: 'Start' }).click();
    await first.page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });
    // The second tab goes elsewhere: the match it finds current is played in the first tab.
    await second.page.evaluate(() => { location.hash = 'leaderboard'; });
    await second.page.locator('.cannotstart').waitFor({ timeout: 30000 });
    await second.page.goBack();
    await second.page.locator('.lobbypage').waitFor({ timeout: 5000 });
    // Not back into the match (it would wait out the lock and show the same panel again).
    await second.page.waitForTimeout(7000);
    assert.equal(await second.page.locator('.cannotstart').count(), 0);
    assert.equal(await second.page.locator('.lobbypage').count(), 1);
    // The first tab plays on.
    assert.ok(await first.page.locator('.board').count());
    assert.deepEqual([...first.errors, ...second.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

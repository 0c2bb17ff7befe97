// One saved seat never runs in two tabs at once (spec/protocol.md §12.3). A page opened while a
// match is running resumes the saved match by itself; before the seat's Web Lock it did so while
// the first tab still played it: two copies of one seat, each signing its own moves at the same
// message numbers (an equivocation proof against an honest player) and sharing the round keys
// drawn before they split (an opponent who finishes a deal with one copy reads the other's cards).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, openPage, startWebRelay } from './support.js';

const skip = browserMissing();

test('a second tab does not run the match the first tab is playing; after it closes, it does', { skip, timeout: 180000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const first = await openPage(context, relay.web);
    await first.page.getByRole('button', { name: 'Practice against the computer' }).click();
    await first.page.getByLabel('Rounds').fill('1');
    await first.page.getByRole('button', { name: 'Start' }).click();
    await first.page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });

    const second = await openPage(context, relay.web);
    await second.page.getByText('This match is open in another tab or window.').first().waitFor({ timeout: 30000 });
    assert.equal(await second.page.locator('.hand button.card').count(), 0);
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
    await first.page.getByLabel('Rounds').fill('1');
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

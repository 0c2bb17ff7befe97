// The keyboard alone plays a whole practice match (Tab and Enter on the home screen and the
// form; digits, arrows and Enter on the board; Enter or K/S in the dialogs), and the page
// switches between English and Japanese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, openPage, startWebRelay } from './support.js';

const skip = browserMissing();

/** Tab until the focused element's text is `text`. @param {any} page @param {string} text */
async function tabTo(page, text) {
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === text) return;
  }
  throw new Error(`Tab never reached ${text}`);
}

test('English and Japanese, switchable', { skip, timeout: 60000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(await browser.newContext(), relay.web);
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('heading', { name: '花札こいこい' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    await page.getByRole('button', { name: 'コンピューターと練習' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: '部屋を作る' }).waitFor(); // remembered
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('button', { name: 'Create a room' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a whole practice match with the keyboard alone', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 390, height: 844 } }), relay.web);
    await tabTo(page, 'Practice against the computer');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Start');
    await page.keyboard.press('Enter');
    const end = Date.now() + 180000;
    let moves = 0;
    let lostFocus = 0;
    let dealtHandMatches = 0;
    for (;;) {
      if (Date.now() > end) throw new Error('the match did not end in time');
      const s = await page.evaluate(() => ({
        dialog: document.querySelector('dialog[open]')?.className ?? '',
        hand: document.querySelectorAll('.hand button.card').length,
        field: document.querySelectorAll('.field button.card').length,
      }));
      if (s.dialog.includes('dlg-over')) {
        if (moves) break;
        // A one-round match can end before anyone plays: a dealt-hand yaku (four of a month, four
        // pairs) ends the round at the deal. That match says nothing about the keyboard on the
        // board, so the test goes home by keyboard and starts another (the deal is random).
        dealtHandMatches += 1;
        assert.ok(dealtHandMatches < 4, 'four matches in a row ended before any move');
        await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
        await tabTo(page, 'Home');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Practice against the computer');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Start');
        await page.keyboard.press('Enter');
        continue;
      }
      if (s.dialog.includes('dlg-failure')) throw new Error('the match stopped');
      if (s.dialog.includes('dlg-decide')) await page.keyboard.press('s');
      else if (s.dialog) await page.keyboard.press('Enter'); // the dialog focuses its first answer
      else if (s.field) { await page.keyboard.press('ArrowRight'); await page.keyboard.press('Enter'); moves += 1; }
      else if (s.hand) { await page.keyboard.press('1'); await page.keyboard.press('Enter'); moves += 1; }
      await page.waitForTimeout(120);
      // The board drawn anew after a move keeps the keyboard on the board, never on the page's body.
      if (moves && !(await page.locator('dialog[open]').count())) {
        const where = await page.evaluate(() => document.activeElement === document.body ? 'body' : (document.activeElement?.closest('.board, .boardwrap, main') ? 'board' : document.activeElement?.tagName));
        if (where === 'body') lostFocus += 1;
      }
    }
    assert.equal(lostFocus, 0, 'the focus fell to the page after a move');
    assert.ok(moves >= 1, 'no move was played by keyboard');
    await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    // The summary can replace the round's while a person presses Enter on it: its focus starts
    // on the heading, so that Enter neither opens the report nor leaves the match.
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H2');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    assert.match(await page.evaluate(() => document.querySelector('dialog[open]')?.className ?? ''), /dlg-over/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

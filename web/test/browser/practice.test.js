// A practice match in a real browser: the person's seat and the computer's run in two Web
// Workers and play through the same protocol and proofs; the transcript the page offers for
// download verifies with `koikoi verify`. Then the page, once opened, works offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { KOIKOI } from '../python.js';
import { browserMissing, download, launch, openPage, playToEnd, startWebRelay, step } from './support.js';

const skip = browserMissing();

test('a practice match against the worker finishes and its transcript verifies', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context, relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByLabel('Rounds').fill('1');
    await page.getByLabel('Computer').selectOption('random');
    await page.getByRole('button', { name: 'Start' }).click();
    // The first dealer is announced once: its title names it, the line says only what decided it.
    await page.waitForFunction(() => /First dealer/.test(document.querySelector('.announcer [aria-live]')?.textContent ?? ''), null, { timeout: 60000 });
    const said = String(await page.locator('.announcer [aria-live]').textContent());
    assert.equal(said.match(/First dealer/g)?.length, 1, said);
    assert.match(said, /^First dealer: [^.]+\. Drawn for the first dealer: .+\.$/, said);
    assert.equal(await playToEnd(page), 'over');
    await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    const transcript = await download(page, 'transcript');
    const verify = spawnSync(KOIKOI, ['verify', transcript], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    assert.match(verify.stdout, /valid transcript/);
    const result = await download(page, 'result');
    const r = spawnSync(KOIKOI, ['verify', '--result', result], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(errors, []);

    // The search player (master, the in-play budget: 1000 playouts, at most 1 s a decision) plays
    // a 1-round practice match to its co-signed end; a reload after our first move resumes both
    // seats from IndexedDB, the computer at the level its saved record names.
    await page.getByRole('button', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByLabel('Rounds').fill('1');
    await page.getByLabel('Computer').selectOption('master');
    await page.getByRole('button', { name: 'Start' }).click();
    let moved = '';
    while (!['play', 'over', 'failed'].includes(moved)) moved = await step(page);
    assert.notEqual(moved, 'failed');
    if (moved === 'play') {
      await page.reload();
      assert.equal(await playToEnd(page), 'over');
    }
    await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    const searched = spawnSync(KOIKOI, ['verify', await download(page, 'transcript')], { encoding: 'utf8' });
    assert.equal(searched.status, 0, searched.stdout + searched.stderr);
    assert.match(searched.stdout, /Computer \(master\)/);
    assert.deepEqual(errors, []);

    // Resigning in practice: the computer countersigns the result naming it the winner.
    await page.getByRole('button', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByLabel('Computer').selectOption('greedy');
    // 2 rounds: a first round won by a dealt hand would end a 1-round match before we could move.
    await page.getByLabel('Rounds').fill('2');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.hand button.card').first().waitFor({ timeout: 60000 });
    await page.locator('footer button.resign:not([disabled])').click();
    // The question says what resigning a practice match means: nothing rated (QA: it said the
    // result "counts like any other").
    assert.match(String(await page.locator('dialog.dlg-resign').textContent()), /wins this practice match, which ends here\. Nothing is rated or sent anywhere\./);
    await page.locator('dialog.dlg-resign button.resign-confirm').click();
    await page.locator('dialog.dlg-over').waitFor({ timeout: 60000 });
    assert.match(String(await page.locator('dialog[open] .big').textContent()), /You resigned: Computer \(medium\) wins the match/);
    const resigned = spawnSync(KOIKOI, ['verify', await download(page, 'transcript')], { encoding: 'utf8' });
    assert.equal(resigned.status, 0, resigned.stdout + resigned.stderr);
    assert.match(resigned.stdout, /resigned by player 0 at message \d+/);
    assert.deepEqual(errors, []);

    // The summary stays (a reload shows it again) until the player leaves it.
    await page.getByRole('button', { name: 'Home' }).click();
    // Offline: the service worker has every file; with the relay stopped a new practice starts.
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await relay.stop();
    await context.setOffline(true);
    await page.goto(relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a round summary stays over the board its round ended on; the next deal is drawn when it is dismissed', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page, errors } = await openPage(context, relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    await page.getByLabel('Rounds').fill('4');
    await page.getByLabel('Computer').selectOption('random');
    await page.getByRole('button', { name: 'Start' }).click();
    // The cards on the board (hand, field, piles), in order: what the person sees behind a dialog.
    const board = () => page.evaluate(() => Array.from(document.querySelectorAll('.board [data-card]'), (c) => c.getAttribute('data-card')).join(' '));
    let checked = 0;
    for (let moves = 0; moves < 600; moves++) {
      const open = String(await page.evaluate(() => document.querySelector('dialog.dlg[open]')?.className ?? ''));
      if (open.includes('dlg-over') || open.includes('dlg-failure')) break;
      if (open && !open.includes('dlg-round')) {
        await page.locator('dialog.dlg:not(.dlg-round)[open] button.primary').first().click({ timeout: 2000 }).catch(() => {});
        continue;
      }
      if (!open) {
        const card = page.locator('.field button.card.choice, .hand button.card:not([disabled])').first();
        if (await card.count()) await card.click({ timeout: 2000 }).catch(() => {});
        else await page.waitForTimeout(100);
        continue;
      }
      const ended = await board();
      assert.ok(ended.length > 0, 'a board behind the summary');
      // The board shows the round as it ended: every card the summary pictures for a yaku is in
      // a capture pile behind it (QA: the computer's winning move was missing).
      const pictured = await page.evaluate(() => Array.from(document.querySelectorAll('dialog[open] .seatyaku .ycards [data-card]'), (c) => c.getAttribute('data-card')));
      const captured = await page.evaluate(() => Array.from(document.querySelectorAll('.board .captures [data-card]'), (c) => c.getAttribute('data-card')));
      assert.deepEqual(pictured.filter((/** @type {string | null} */ c) => !captured.includes(c)), [], 'the yaku cards of the summary are captured on the board behind it');
      if (!checked) {
        // The move log numbers the moves from 1 after the first-dealer line, as its title counts
        // them (QA: "Moves (3)" listed 2 to 4).
        const ordinal = await page.evaluate(() => {
          const move = /** @type {HTMLLIElement | null} */ (document.querySelector('.movelog li.mine, .movelog li.theirs'));
          return document.querySelector('.movelog li.first') && move ? move.value : null;
        });
        if (ordinal !== null) assert.equal(ordinal, 1, 'the first move is numbered 1');
        // The next deal is made meanwhile (the computer does not wait for the person to read):
        // the board behind the summary must not change to it.
        await page.waitForTimeout(3000);
        const after = await board();
        assert.equal(after, ended, `the board behind the round summary changed: ${ended} -> ${after}`);
        if (process.env.KOIKOI_SCREENS_DIR) await page.screenshot({ path: path.join(process.env.KOIKOI_SCREENS_DIR, 'round-summary-over-its-board.png') });
      }
      // The match's last summary can give way to the match's end meanwhile (it has no primary).
      await page.locator('dialog.dlg-round[open] button.primary').click({ timeout: checked ? 3000 : 30000 }).catch((/** @type {unknown} */ e) => { if (!checked) throw e; });
      if (!checked) {
        await page.waitForFunction((/** @type {string} */ before) => Array.from(document.querySelectorAll('.board [data-card]'), (c) => c.getAttribute('data-card')).join(' ') !== before, ended, { timeout: 30000 });
        assert.equal(await page.locator('dialog.dlg-round[open]').count(), 0);
      }
      checked++;
    }
    assert.ok(checked > 0, 'no round ended before the match did');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test("the practice form keeps the rules' switches under More options, above Start, and still reads them", { skip, timeout: 120000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 390, height: 844 } }), relay.web);
    await page.getByRole('button', { name: 'Practice against the computer' }).click();
    const switches = page.getByLabel('Changed switches (one NAME=VALUE a line)');
    assert.equal(await switches.isVisible(), false, 'switches out of the way');
    // As in the room form: every option above the buttons, the rules by name with their sentence
    // once beneath, and a way to their whole rules.
    const form = await page.evaluate(() => {
      const f = /** @type {HTMLFormElement} */ (document.querySelector('form.practiceform'));
      const buttons = /** @type {HTMLElement} */ (f.querySelector('.choices'));
      return { after: Array.from(f.querySelectorAll('input, select, textarea, details')).filter((el) => !(buttons.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)).length,
        text: f.textContent ?? '' };
    });
    assert.equal(form.after, 0);
    assert.equal(form.text.split('12 months, scores add up, doubled at 7 points').length - 1, 1, form.text);
    // A rounds value the rules refuse (1.5) still lets "Read these rules" show the preset's own
    // rules (it used to do nothing: building the rules threw).
    const rounds = await page.getByLabel('Rounds').inputValue();
    await page.getByLabel('Rounds').fill('1.5');
    await page.getByRole('button', { name: 'Read these rules' }).click();
    await page.locator('dialog.rulespage[open]').waitFor({ timeout: 5000 });
    await page.keyboard.press('Escape');
    await page.locator('dialog.rulespage[open]').waitFor({ state: 'detached' });
    await page.getByLabel('Rounds').fill(rounds);
    await page.getByText('More options').click();
    await switches.fill('no_such_switch=1');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('form .error').getByText(/no_such_switch/).waitFor({ timeout: 5000 });
    await switches.fill('koikoi_multiplier=none');
    await page.getByLabel('Rounds').fill('3');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 60000 });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

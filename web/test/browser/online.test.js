// Online matches in a real browser through a real relay process (`koikoi relay --web`): two
// browser contexts play each other; a browser plays the terminal client `koikoi join`; a page
// reloaded in the middle of a deal resumes from IndexedDB and the match still ends co-signed.
// Every transcript the pages offer verifies with `koikoi verify`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { KOIKOI, PYTHON } from '../python.js';
import { browserMissing, download, launch, openPage, startWebRelay, step } from './support.js';

const skip = browserMissing();

/** Host a 1-round room from the page; resolves with the room code. @param {any} page */
async function host(page, password = '') {
  await page.getByRole('button', { name: 'Create a room' }).click();
  await page.getByText('More options').click();
  await page.getByLabel('Another number of rounds').fill('1');
  if (password) await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const code = page.locator('.waiting .code');
  await code.waitFor({ timeout: 30000 });
  return String(await code.getAttribute('data-code'));
}

/** @param {string} file */
function verify(file) {
  const r = spawnSync(KOIKOI, ['verify', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /valid transcript/);
}

/**
 * Play both pages until both show the match summary.
 * @param {any[]} pages
 */
async function playBoth(pages) {
  const done = pages.map(() => false);
  const end = Date.now() + Number(process.env.KOIKOI_PLAY_MS ?? 200000);
  while (done.includes(false)) {
    if (Date.now() > end) {
      for (let i = 0; i < pages.length; i++) await pages[i].screenshot({ path: path.join(os.tmpdir(), `koikoi-stalled-${i}.png`) });
      throw new Error(`the match did not end in time (screenshots in ${os.tmpdir()}/koikoi-stalled-*.png)`);
    }
    for (let i = 0; i < pages.length; i++) {
      if (done[i]) continue;
      const r = await step(pages[i]);
      if (r === 'failed') throw new Error(`page ${i} stopped: ${await pages[i].locator('dialog[open]').textContent()}`);
      if (r === 'over') done[i] = true;
    }
  }
}

test('two browsers play a whole match through a relay; a reload mid-deal resumes; both transcripts verify', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    const bContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const b = await openPage(bContext, relay.web);
    const code = await host(a.page);
    await b.page.goto(`${relay.web}#join=${code}`);
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    // Both see the same security code (no password), compare it and go on.
    const sas = await Promise.all([a.page, b.page].map(async (p) => {
      const el = p.locator('dialog[open] .sascode');
      await el.waitFor({ timeout: 60000 });
      return el.getAttribute('data-sas');
    }));
    assert.equal(sas[0], sas[1]);
    // The joiner reloads its page as soon as its cards are dealt (mid-deal, before a round can end).
    const until = Date.now() + 90000;
    while (!(await b.page.locator('.hand .card').count())) {
      if (Date.now() > until) throw new Error('no cards dealt');
      await step(a.page);
      await step(b.page);
    }
    // At phone width the opponent's fingerprint stays whole beside a name cut short.
    // Measured in one go inside the page: the board is drawn anew on every update.
    await b.page.locator('.player.them .ptag').waitFor();
    const fit = await b.page.evaluate(() => {
      const tag = /** @type {HTMLElement | null} */ (document.querySelector('.player.them .ptag'));
      const bar = document.querySelector('.player.them');
      if (!tag || !bar) return null;
      const t = tag.getBoundingClientRect();
      const r = bar.getBoundingClientRect();
      return { text: tag.textContent, inside: t.left >= r.left - 0.5 && t.right <= r.right + 0.5, whole: tag.scrollWidth <= tag.clientWidth };
    });
    assert.ok(fit, 'no player bar with a fingerprint');
    assert.match(String(fit.text), /^[a-z2-7]{4}-[a-z2-7]{4}$/);
    assert.ok(fit.inside, 'the fingerprint sticks out of the player bar');
    assert.ok(fit.whole, 'the fingerprint is cut short');
    await b.page.screenshot({ path: path.join(os.tmpdir(), 'koikoi-phone-online.png') });
    await b.page.reload();
    const reloaded = true;
    await playBoth([a.page, b.page]);
    assert.ok(reloaded);
    for (const p of [a.page, b.page]) {
      await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
      verify(await download(p, 'transcript'));
    }
    // Over a finished match no connection banner: the other page closing its link after the end
    // (which starts this one's pairing again) is no news for the person.
    await a.page.waitForTimeout(1500);
    for (const p of [a.page, b.page]) assert.equal(await p.locator('.notice').isVisible(), false, String(await p.locator('.notice').textContent()));
    assert.deepEqual(a.errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a browser plays a whole match against koikoi join, with a room password', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  /** @type {import('node:child_process').ChildProcess | null} */
  let joiner = null;
  try {
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    const password = 'wisteria in may';
    const code = await host(page, password);
    const home = mkdtempSync(path.join(os.tmpdir(), 'koikoi-join-'));
    joiner = spawn(PYTHON, [path.join(REPO, 'web', 'test', 'browser', 'join_seat.py'), code, relay.url, home, password], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    joiner.stdout?.on('data', (d) => { out += d.toString(); });
    joiner.stderr?.on('data', (d) => { out += d.toString(); });
    const end = Date.now() + 240000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end in time; koikoi join said: ${out}`);
      // With a password there is no security code to compare (SPAKE2 authenticates the pair).
      assert.equal(await page.locator('dialog[open] .sascode').count(), 0);
      const r = await step(page);
      if (r === 'over') break;
      if (r === 'failed') throw new Error(`the page stopped: ${await page.locator('dialog[open]').textContent()}; koikoi join said: ${out}`);
    }
    verify(await download(page, 'transcript'));
    await new Promise((resolve) => { if (joiner?.exitCode !== null) resolve(undefined); else joiner?.once('exit', resolve); });
    assert.match(out, /Final score/, out);
    assert.match(out, /EXIT 0/, out);
    assert.deepEqual(errors, []);
  } finally {
    joiner?.kill();
    await browser.close();
    await relay.stop();
  }
});

/**
 * Host a room (1 round unless told) with short deadlines from page `a` and join it from page `b`;
 * resolves with the room code. @param {any} a @param {any} b @param {string} web
 * @param {{turn?: number, step?: number, rounds?: number}} [o]
 */
async function pair(a, b, web, o = {}) {
  await a.getByRole('button', { name: 'Create a room' }).click();
  await a.getByText('More options').click();
  await a.getByLabel('Another number of rounds').fill(String(o.rounds ?? 1));
  if (o.turn) await a.getByLabel('Seconds for each decision').fill(String(o.turn));
  if (o.step) await a.getByLabel('Seconds for each automatic step').fill(String(o.step));
  await a.getByRole('button', { name: 'Create', exact: true }).click();
  const codeEl = a.locator('.waiting .code');
  await codeEl.waitFor({ timeout: 30000 });
  const code = String(await codeEl.getAttribute('data-code'));
  await b.goto(`${web}#join=${code}`);
  await b.getByRole('button', { name: 'Join', exact: true }).click();
  return code;
}

/**
 * Two pages, each in a context of its own, paired through the relay and played until the joiner is
 * to move. Two rounds: a first round won by a dealt hand would end a 1-round match before that.
 * @param {any} browser @param {string} web
 */
async function pairedAtJoinersMove(browser, web) {
  const a = await openPage(await browser.newContext(), web);
  const bContext = await browser.newContext();
  const b = await openPage(bContext, web);
  await pair(a.page, b.page, web, { rounds: 2 });
  await untilJoinersMove(a.page, b.page);
  return { a, b, bContext };
}

/**
 * Step both pages until the joiner is asked for its first move and the host's page waits on it.
 * The joiner's page only answers its dialogs and never plays a card: when it did, a check made
 * just after clicking the joiner's card could still see the old board (its worker had not posted
 * the next table yet) while the move was already on its way, and the host's page then waited for
 * its own move, with nothing to claim (the cause of the timeouts this test had on a loaded
 * machine; a count taken before stepping the joiner is no guard either, its card may appear
 * in between).
 * @param {any} a @param {any} b
 */
async function untilJoinersMove(a, b) {
  const end = Date.now() + 120000;
  for (;;) {
    if (Date.now() > end) {
      const seen = async (/** @type {any} */ p) => p.evaluate(() => `status "${document.querySelector('.status')?.textContent ?? ''}", dialog "${document.querySelector('dialog[open]')?.textContent ?? ''}", active ${document.querySelector('.player.active')?.className ?? 'none'}`);
      throw new Error(`never the joiner's move: host ${await seen(a)}; joiner ${await seen(b)}`);
    }
    const theirs = await b.locator('.hand button.card').count();
    const hostWaits = await a.locator('.player.them.active').count();
    const hostAsked = await a.locator('.hand button.card, .field button.card.choice, dialog[open]').count();
    if (theirs && hostWaits && !hostAsked && !(await b.locator('dialog[open]').count())) return;
    await step(a);
    await step(b, { dialogsOnly: true });
  }
}

/** @param {string} file @param {RegExp} expect */
function verifyClaim(file, expect) {
  const r = spawnSync(KOIKOI, ['verify', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, expect);
  return r.stdout;
}

test('a joiner who refuses the terms leaves, and the host page says so at once, with no claim', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    // The terms' deadline is the decision time: 300 s. The host must not wait it out.
    await pair(a.page, b.page, relay.web, { turn: 300 });
    // The joiner compares the security code, then refuses the terms.
    for (;;) {
      const refuse = b.page.locator('dialog[open]').getByRole('button', { name: 'Refuse', exact: true });
      if (await refuse.count()) {
        await refuse.click();
        break;
      }
      await b.page.locator('dialog[open] button.primary').first().click({ timeout: 60000 });
    }
    await a.page.locator('dialog.dlg-failure').waitFor({ timeout: 60000 });
    const said = String(await a.page.locator('dialog[open]').textContent());
    assert.match(said, /the opponent left without accepting the terms/, said);
    assert.equal(await a.page.locator('dialog[open] a[data-file="evidence"]').count(), 0, said);
    // No match began: no transcript to download (the host holds one of the handshake), and the
    // host may open the same room again.
    assert.equal(await a.page.locator('dialog[open] a[data-file="transcript"]').count(), 0, said);
    assert.equal(await a.page.locator('dialog[open] button[data-action="host-again"]').count(), 1, said);
    assert.deepEqual(a.errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('the opponent who leaves misses its deadline: the page signs an abandonment claim that koikoi verify upholds', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    // 2 rounds: a first round won by a dealt hand ends before the joiner is ever asked to play.
    await pair(a.page, b.page, relay.web, { turn: 10, step: 10, rounds: 2 });
    // Play until it is the joiner's move, then the joiner goes away for good.
    await untilJoinersMove(a.page, b.page);
    await b.page.close();
    // The host's clock for the joiner runs out (10 s), and its page stops with the claim.
    await a.page.locator('dialog.dlg-failure').waitFor({ timeout: 60000 });
    assert.match(String(await a.page.locator('dialog[open]').textContent()), /missed the deadline/);
    verifyClaim(await download(a.page, 'evidence'), /abandoned by player 1 at message \d+/);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a player who does not move: its clock survives a reload, its last seconds are shown and said once, its page says its own time ran out, the host claims abandonment', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    await pair(a.page, b.page, relay.web, { turn: 16, step: 20, rounds: 2 });
    await untilJoinersMove(a.page, b.page);
    // Both pages count the joiner's time down.
    const seconds = async (/** @type {any} */ p, /** @type {string} */ who) => {
      const text = String(await p.locator(`.player.${who} .timer.running`).textContent());
      const [m, s] = text.split(':').map(Number);
      return m * 60 + s;
    };
    await b.page.waitForTimeout(4000);
    assert.ok(await seconds(a.page, 'them') <= 13);
    const before = await seconds(b.page, 'me');
    assert.ok(before <= 13, `the joiner's clock shows ${before} s after 4 s of 16`);
    // What the reloaded page says to a screen reader, in order (its announcements' live region).
    await b.page.addInitScript(() => {
      /** @type {string[]} */ const said = [];
      /** @type {any} */ (window).koikoiSaid = said;
      new MutationObserver(() => {
        const text = String(document.querySelector('.visually-hidden[aria-live]')?.textContent ?? '');
        if (text && text !== said[said.length - 1]) said.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    // A reload does not give the joiner new time: its clock comes back from the saved state.
    await b.page.reload();
    await b.page.locator('.player.me .timer.running').waitFor({ timeout: 30000 });
    const after = await seconds(b.page, 'me');
    assert.ok(after <= before, `after the reload the joiner's clock shows ${after} s (before: ${before} s)`);
    // From 10 s left its last seconds are unmistakable: the status line says them beside what is
    // asked, its own clock is marked (QA: only the small clock turned pale pink).
    await b.page.locator('.board .status .timeleft:not([hidden])').waitFor({ timeout: 20000 });
    assert.match(String(await b.page.locator('.board .status').textContent()), /^Your turn: play a card from your hand\. Only \d+ seconds? left!$/);
    assert.equal(await b.page.locator('.player.me .timer.urgent').count(), 1);
    assert.equal(await a.page.locator('.board .status .timeleft:not([hidden]), .timer.urgent').count(), 0, 'the host is not the one to hurry');
    // Its own time runs out first (2 s earlier than the host's clock for it): the page says so and stops.
    await b.page.locator('dialog.dlg-failure .timeup').waitFor({ timeout: 40000 });
    const said = String(await b.page.locator('dialog[open]').textContent());
    assert.match(said, /Your time ran out/);
    assert.doesNotMatch(said, /missed the deadline/);
    // The headline says why; no "Why: your time for a decision ran out." repeats it.
    assert.doesNotMatch(said, /Why:/);
    // A screen reader heard the last seconds once, not every second.
    const heard = /** @type {string[]} */ (await b.page.evaluate(() => /** @type {any} */ (window).koikoiSaid));
    assert.equal(heard.filter((x) => /seconds? left/.test(x)).length, 1, JSON.stringify(heard));
    assert.match(heard.join(' '), /Hurry: \d+ seconds? left for your decision, then the match stops\./);
    assert.equal(await b.page.locator('.hand button.card').count(), 0);
    // The host's clock for the joiner runs out too: it signs the claim at the same message.
    await a.page.locator('dialog.dlg-failure').waitFor({ timeout: 40000 });
    assert.match(String(await a.page.locator('dialog[open]').textContent()), /missed the deadline/);
    // The message number is kept for a bug report, out of the sentence (QA: it meant nothing to a player).
    assert.doesNotMatch(said, /message \d/);
    const n = Number(await b.page.locator('dialog[open] .timeup').getAttribute('data-seq'));
    assert.ok(n > 0);
    verifyClaim(await download(a.page, 'evidence'), new RegExp(`abandoned by player 1 at message ${n}\\b`));
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a joiner who does not accept in time: its dialogs show the clock, its page says the match did not start, the host is told why it may have left', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    await pair(a.page, b.page, relay.web, { turn: 14, step: 20 });
    // The joiner's security-code dialog shows the time left to accept (spec/game.md §7.1: the
    // code is compared within the accept's turn deadline; QA: it ran out unseen behind the dialog).
    await b.page.locator('dialog[open] .sascode').waitFor({ timeout: 60000 });
    const clock = b.page.locator('dialog[open] .answerclock .timer');
    await clock.waitFor({ timeout: 20000 });
    assert.match(String(await clock.textContent()), /^0:\d\d$/);
    assert.match(String(await b.page.locator('dialog[open] .answerclock').textContent()), /Time left to compare the code and accept the terms/);
    // The host's dialog has no such clock: it is not the host's to answer.
    await a.page.locator('dialog[open] .sascode').waitFor({ timeout: 20000 });
    assert.equal(await a.page.locator('dialog[open] .answerclock').count(), 0);
    await a.page.locator('dialog[open] button.primary').click();
    await b.page.locator('dialog[open] button.primary').click();
    await b.page.locator('dialog.dlg-terms .answerclock .timer').waitFor({ timeout: 20000 });
    // Nobody answers the terms: the joiner's own clock runs out.
    await b.page.locator('dialog.dlg-failure .timeup').waitFor({ timeout: 40000 });
    const said = String(await b.page.locator('dialog[open]').textContent());
    assert.match(said, /Your time to accept the terms ran out \(14 s\): the match did not start, and nothing was signed\./);
    assert.doesNotMatch(said, /claim/);
    await a.page.locator('dialog.dlg-failure').waitFor({ timeout: 40000 });
    assert.match(String(await a.page.locator('dialog[open]').textContent()), /without accepting the terms \(they refused them, said the security codes differ, or ran out of time\)/);
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a player resigns online: display names beside fingerprints, the other page shows the resignation, the result is co-signed and verifies', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    for (const [p, name] of /** @type {[any, string][]} */ ([[a.page, 'Fuji'], [b.page, 'Sakura']])) {
      const input = p.getByLabel('Your name (optional)');
      await input.fill(name);
      await input.blur();
    }
    const fingerprints = await Promise.all([a.page, b.page].map(async (p) => {
      const fp = p.locator('.settings .fp');
      await fp.waitFor();
      return String(/: (\S+)/.exec(String(await fp.textContent()))?.[1]);
    }));
    // The room form says how the opponent will see the host.
    await a.page.getByRole('button', { name: 'Create a room' }).click();
    assert.match(String(await a.page.locator('.seenas').textContent()), new RegExp(`sees you as Fuji, key ${fingerprints[0]}`));
    await a.page.getByRole('button', { name: 'Back' }).click();
    await pair(a.page, b.page, relay.web, { rounds: 2 });
    // The joiner sees the host's name and key before accepting the terms.
    const terms = b.page.locator('dialog.dlg-terms');
    const end = Date.now() + 90000;
    while (!(await terms.count())) {
      if (Date.now() > end) throw new Error('no terms shown');
      const sas = b.page.locator('dialog[open] .sascode');
      if (await sas.count()) await b.page.locator('dialog[open] button.primary').click();
      await step(a.page);
      await b.page.waitForTimeout(100);
    }
    const shown = String(await terms.textContent());
    assert.match(shown, new RegExp(`Host: Fuji ${fingerprints[0].slice(0, 9)}`));
    assert.equal(await terms.locator('[data-fingerprint]').getAttribute('data-fingerprint'), fingerprints[0]);
    assert.match(shown, /Not rated/);
    // The host resigns at its first move (the resign button is live only while it is asked to act).
    const until = Date.now() + 120000;
    while (!(await a.page.locator('.hand button.card').count()) || (await a.page.locator('dialog[open]').count())) {
      if (Date.now() > until) throw new Error('never the host\'s move');
      if (!(await a.page.locator('.hand button.card').count())) await step(a.page);
      await step(b.page);
    }
    // It reloads its page first, and resigns as soon as the page lets it, before the link has
    // paired again: the resignation waits for the pairing, and the page says nothing of the
    // connection once the match is over.
    await a.page.reload();
    await a.page.locator('footer button.resign:not([disabled])').click({ timeout: 60000 });
    assert.match(String(await a.page.locator('dialog.dlg-resign').textContent()), /Both of you sign that result, so it counts like any other\./);
    await a.page.locator('dialog.dlg-resign button.resign-confirm').click();
    for (const p of [a.page, b.page]) {
      await p.locator('dialog.dlg-over').waitFor({ timeout: 60000 });
      await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    }
    await a.page.waitForTimeout(1500);
    for (const p of [a.page, b.page]) assert.equal(await p.locator('.notice').isVisible(), false, String(await p.locator('.notice').textContent()));
    assert.match(String(await a.page.locator('dialog[open] .big').textContent()), new RegExp(`You resigned: Sakura ${fingerprints[1].slice(0, 9)} wins`));
    assert.match(String(await b.page.locator('dialog[open] .big').textContent()), new RegExp(`Fuji ${fingerprints[0].slice(0, 9)} resigned: you win`));
    for (const p of [a.page, b.page]) {
      verifyClaim(await download(p, 'transcript'), /resigned by player 0 at message \d+/);
      const r = spawnSync(KOIKOI, ['verify', '--result', await download(p, 'result')], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
    }
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a host page reloaded while it waits keeps its room: the link it shared still pairs; a room that closed meanwhile gives way to a new one', { skip, timeout: 300000 }, async () => {
  // A short grace, so a page closed a few seconds outlives its room on the relay.
  const relay = await startWebRelay(['--resume-grace', '4']);
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    const code = await host(a.page);
    await a.page.reload();
    // The same waiting screen, the same code: the relay gave the seat back (spec/relay.md §8).
    const back = a.page.locator('.waiting .code');
    await back.waitFor({ timeout: 30000 });
    assert.equal(await back.getAttribute('data-code'), code);
    assert.equal(await a.page.locator('.waiting input.link').inputValue(), `${relay.web}#join=${code}&relay=${encodeURIComponent(relay.url)}`);
    await a.page.screenshot({ path: path.join(os.tmpdir(), 'koikoi-waiting-reloaded.png') });
    // The link shared before the reload pairs, and the match plays to a co-signed end.
    const b = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    await b.page.goto(`${relay.web}#join=${code}`);
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    await playBoth([a.page, b.page]);
    for (const p of [a.page, b.page]) await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor();

    // A host page closed for longer than the grace: its room is gone, and the page opens a new one.
    const cContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const c = await openPage(cContext, relay.web);
    const gone = await host(c.page);
    const url = c.page.url();
    await c.page.close();
    await new Promise((r) => setTimeout(r, 7000));
    const again = await openPage(cContext, url);
    await again.page.waitForFunction((/** @type {string} */ old) => {
      const shown = document.querySelector('.waiting .code')?.getAttribute('data-code');
      return shown && shown !== old;
    }, gone, { timeout: 30000 });
    const fresh = String(await again.page.locator('.waiting .code').getAttribute('data-code'));
    const d = await openPage(await browser.newContext(), relay.web);
    await d.page.goto(`${relay.web}#join=${fresh}`);
    await d.page.getByRole('button', { name: 'Join', exact: true }).click();
    // Paired: both pages show the same security code.
    const sas = await Promise.all([again.page, d.page].map(async (p) => {
      const el = p.locator('dialog[open] .sascode');
      await el.waitFor({ timeout: 60000 });
      return el.getAttribute('data-sas');
    }));
    assert.equal(sas[0], sas[1]);
    assert.deepEqual([...a.errors, ...b.errors, ...c.errors, ...again.errors, ...d.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a page whose opponent went offline says the opponent is away, the offline page says its own connection is lost; both clear once it is back', { skip, timeout: 300000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { a, b, bContext } = await pairedAtJoinersMove(browser, relay.web);
    // The host, waiting on the joiner, loses its network: the joiner's clock on its page stands
    // still (no claim runs out while our own relay is out of reach, spec/protocol.md §12.4), and
    // runs again once it is back (browser QA: it ran down to nothing on the offline page).
    const theirTimer = a.page.locator('.player.them .timer.running');
    await theirTimer.waitFor();
    assert.match(String(await theirTimer.textContent()), /^\d+:\d\d$/);
    await a.page.context().setOffline(true);
    await a.page.waitForFunction(() => document.querySelector('.player.them .timer.running')?.textContent === '‖', null, { timeout: 5000 });
    assert.match(String(await theirTimer.getAttribute('title')), /Paused: while your connection is lost, no claim that they left can run out/);
    assert.equal(await theirTimer.getAttribute('aria-label'), await theirTimer.getAttribute('title'));
    await a.page.context().setOffline(false);
    await a.page.waitForFunction(() => /^\d+:\d\d$/.test(document.querySelector('.player.them .timer.running')?.textContent ?? ''), null, { timeout: 90000 });
    await a.page.waitForFunction(() => {
      const el = /** @type {HTMLElement | null} */ (document.querySelector('.notice'));
      return !el || el.hidden || !/connection/i.test(el.textContent ?? '');
    }, null, { timeout: 90000 });
    await bContext.setOffline(true);
    const notice = (/** @type {any} */ p) => p.locator('.notice');
    // The page that lost its network says so at once (the browser knows), not at the link's
    // keepalive bound, 10 s later (QA).
    await b.page.waitForFunction(() => /Connection lost/.test(document.querySelector('.notice')?.textContent ?? ''), null, { timeout: 3000 });
    await a.page.waitForFunction(() => /opponent's connection dropped/.test(document.querySelector('.notice')?.textContent ?? ''), null, { timeout: 60000 });
    await b.page.waitForFunction(() => /Connection lost/.test(document.querySelector('.notice')?.textContent ?? ''), null, { timeout: 60000 });
    assert.doesNotMatch(String(await notice(a.page).textContent()), /Connection lost/);
    await bContext.setOffline(false);
    for (const p of [a.page, b.page]) {
      await p.waitForFunction(() => {
        const el = /** @type {HTMLElement | null} */ (document.querySelector('.notice'));
        return !el || el.hidden || !/connection/i.test(el.textContent ?? '');
      }, null, { timeout: 90000 });
    }
    await playBoth([a.page, b.page]);
    for (const p of [a.page, b.page]) await p.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
    assert.deepEqual([...a.errors, ...b.errors].filter((e) => !/WebSocket|ERR_INTERNET_DISCONNECTED|ERR_NAME|net::/.test(e)), []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a page whose opponent closed its tab says the opponent is away, never that its own connection was lost', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { a, bContext } = await pairedAtJoinersMove(browser, relay.web);
    // Every text the host's notice line shows from now on.
    await a.page.evaluate(() => {
      const seen = /** @type {string[]} */ ((/** @type {any} */ (window)).noticesSeen = []);
      const note = () => { const el = document.querySelector('.notice'); if (el && !(/** @type {HTMLElement} */ (el)).hidden) seen.push(el.textContent ?? ''); };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await bContext.close();
    await a.page.waitForFunction(() => /opponent's connection dropped/.test(document.querySelector('.notice')?.textContent ?? ''), null, { timeout: 60000 });
    const seen = /** @type {string[]} */ (await a.page.evaluate(() => (/** @type {any} */ (window)).noticesSeen));
    // QA: it said "Connection lost: reconnecting…" for about 3 s first, as if its own link failed.
    assert.deepEqual(seen.filter((text) => /Connection lost/.test(text)), [], JSON.stringify(seen));
    assert.deepEqual(a.errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('a joiner with another password: its page says the passwords differ, and the host\'s page says so too, not just that the opponent left', { skip, timeout: 240000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const a = await openPage(await browser.newContext(), relay.web);
    const b = await openPage(await browser.newContext(), relay.web);
    const code = await host(a.page, 'right one');
    await b.page.goto(`${relay.web}#join=${code}`);
    await b.page.getByLabel(/^Password/).fill('wrong one');
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    for (const [p, said] of /** @type {const} */ ([[b.page, /the room passwords differ/], [a.page, /most likely the passwords differ/]])) {
      await p.locator('dialog.dlg-failure').waitFor({ timeout: 60000 });
      assert.match(String(await p.locator('dialog[open]').textContent()), said);
      // The joiner goes Home at once, as a person does (QA): its link must still leave the room,
      // or the host takes it for a dropped connection and waits for it to come back.
      if (p === b.page) {
        assert.match(String(await p.locator('dialog[open]').textContent()), /Check the password with your friend and ask for a new link/);
        await b.page.getByRole('button', { name: 'Home' }).click();
      }
    }
    // No match began: nothing to download; the host opens the same room again, with a new code and
    // the same password, and the friend joins it with the right one.
    const stopped = a.page.locator('dialog[open]');
    assert.match(String(await stopped.textContent()), /Nothing was signed/);
    assert.equal(await stopped.locator('a[data-file]').count(), 0);
    await stopped.getByRole('button', { name: 'Open a new room with the same settings' }).click();
    const again = a.page.locator('.waiting .code');
    await again.waitFor({ timeout: 30000 });
    const code2 = String(await again.getAttribute('data-code'));
    assert.notEqual(code2, code);
    await b.page.goto(`${relay.web}#join=${code2}`);
    await b.page.getByLabel(/^Password/).fill('right one');
    await b.page.getByRole('button', { name: 'Join', exact: true }).click();
    await b.page.locator('dialog.dlg-terms').waitFor({ timeout: 60000 });
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

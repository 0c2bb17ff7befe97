// The main screens at 1280x800 and 390x844, compared with the pictures committed under
// web/test/screenshots/ (a small share of pixels may differ: fonts and anti-aliasing), and
// checked by axe-core for serious accessibility violations. The board, the koi-koi dialog and
// a round summary are the app's own components fed fixed positions of the rules engine; the
// replay view shows a transcript that `koikoi selfplay --seed` makes the same every time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { REPO } from '../helpers.js';
import { KOIKOI } from '../python.js';
import { browserMissing, compareScreenshot, launch, openPage, startWebRelay } from './support.js';
import { boardTable, koikoiTable, lowTime, matchOverTable, roundOverTable, termsTable, timeUpTable } from './fixtures.js';

const skip = browserMissing();
const SIZES = [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 390, height: 844 }];
const AXE = path.join(REPO, 'web', 'node_modules', 'axe-core', 'axe.min.js');

/** @param {any} page @param {string} where */
async function axe(page, where) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((/** @type {any} */ v) => `${where}: ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join('; ')}`), []);
}

/** The fixture page: the app's board and dialogs bundled with its stylesheet. */
async function fixturePage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-fixture-'));
  await build({ entryPoints: [path.join(REPO, 'web', 'test', 'browser', 'fixture_page.js')], bundle: true, format: 'iife', outfile: path.join(dir, 'page.js'), logLevel: 'error' });
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Koi-Koi</title><style>${readFileSync(path.join(REPO, 'web', 'app', 'styles.css'), 'utf8')}</style><script defer src="page.js"></script></head><body><div id="app"></div></body></html>`);
  return `file://${dir}/index.html`;
}

/**
 * The person's last seconds are unmistakable (QA: at 0:05 only the small clock turned pale, the
 * status line still said "Your turn"): on the board the status line says the seconds left and
 * the own clock is marked; in the koi-koi question its own clock line says them. With more time
 * left nothing of it shows. The own time-out's headline is not followed by a "Why:" saying it again.
 * @param {any} page @param {string} kind
 */
async function checkLowTime(page, kind) {
  const seen = await page.evaluate(() => {
    const text = (/** @type {string} */ q) => {
      const el = /** @type {HTMLElement | null} */ (document.querySelector(q));
      return el && el.checkVisibility() ? String(el.textContent).trim() : null;
    };
    return {
      status: text('.board .status .timeleft'), urgent: !!document.querySelector('.player.me .timer.urgent'),
      dialog: text('dialog[open] .answerclock'), dialogUrgent: !!document.querySelector('dialog[open] .answerclock.urgent .timer.urgent'),
      why: text('dialog[open] [data-reason]:not(.timeup)'), said: text('dialog[open]'),
    };
  });
  if (kind === 'lowtime') {
    assert.equal(seen.status, 'Only 6 seconds left!', JSON.stringify(seen));
    assert.ok(seen.urgent, JSON.stringify(seen));
  } else if (kind === 'lowdecide') {
    assert.match(String(seen.dialog), /^Time left to decide: 0:06 Only 6 seconds left!$/, JSON.stringify(seen));
    assert.ok(seen.dialogUrgent, JSON.stringify(seen));
  } else if (kind === 'decide') {
    assert.match(String(seen.dialog), /^Time left to decide: \d:\d\d$/, JSON.stringify(seen));
    assert.ok(!seen.dialogUrgent && seen.status === null && !seen.urgent, JSON.stringify(seen));
  } else if (kind === 'round') {
    // A player without yaku is said so in one heading (QA: "Sakura: yaku" over "no yaku").
    const heads = await page.locator('dialog[open] .seatyaku h3').allTextContents();
    assert.deepEqual(heads, ['You: yaku', 'Sakura m3qa-8cde: no yaku']);
    assert.equal(await page.locator('dialog[open] .seatyaku p').count(), 0);
  } else if (kind === 'timeup') {
    assert.match(String(seen.said), /Your time ran out/);
    assert.equal(seen.why, null, JSON.stringify(seen));
  } else {
    assert.ok(seen.status === null && !seen.urgent, `${kind}: ${JSON.stringify(seen)}`);
  }
}

test('board, koi-koi dialog, round and match summaries, terms, resignation and own time-out at both sizes match the committed pictures; no serious axe violations', { skip, timeout: 180000 }, async () => {
  const url = await fixturePage();
  const tables = {
    board: boardTable(), decide: koikoiTable(), round: roundOverTable(), over: matchOverTable(), terms: termsTable(), resign: boardTable(), timeup: timeUpTable(),
    lowtime: lowTime(boardTable()), lowdecide: lowTime(koikoiTable()),
  };
  const browser = await launch();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, reducedMotion: 'reduce' });
      const { page, errors } = await openPage(context, url);
      await page.waitForFunction(() => typeof (/** @type {any} */ (window).show) === 'function');
      for (const [kind, table] of Object.entries(tables)) {
        await page.evaluate((/** @type {[string, any]} */ [k, tb]) => /** @type {any} */ (window).show(k, tb), [kind, table]);
        await page.waitForTimeout(100);
        compareScreenshot(await page.screenshot(), `${kind}-${size.name}`);
        if (size.name === 'desktop') await axe(page, kind);
        await checkLowTime(page, kind);
      }
      // The terms of a host who gave no name: named by its key, not "Opponent" (QA).
      const terms = tables.terms;
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('terms', tb), terms);
      assert.equal(await page.locator('dialog[open] .terms h2 + p').textContent(), 'Host: Fuji ykpi-4zuw');
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('terms', tb), {
        ...terms, paired: { ...terms.paired, names: ['', ''] }, terms: { ...terms.terms, names: ['', ''] }, fixtureAsGame: true,
      });
      assert.equal(await page.locator('dialog[open] .terms h2 + p').textContent(), 'Host: ykpi-4zuw (no name given)');
      assert.match(String(await page.locator('dialog[open] .fp').textContent()), /ykpi-4zuw-pxd6-jkxt/);
      // The host before the first deal: while the opponent's machine shuffles (its keys, its
      // shuffle, the first reveals) the board says so, not "Waiting for …" (QA); while the
      // opponent reads the terms it is waited for; in a deal a step it owes is no shuffling.
      const before = { ...tables.board, round: null, ask: null, match: null, canResign: false };
      const statusOf = async (/** @type {any} */ wait, /** @type {any} */ round = null) => {
        await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('board', tb), { ...before, round: round ?? before.round, wait });
        return String(await page.locator('.board .status').textContent()).trim();
      };
      for (const type of ['key', 'shuffle', 'reveal']) {
        assert.equal(await statusOf({ seat: 1, type, seconds: 60, since: 0, deal: -1 }), 'Shuffling and dealing the cards with Sakura m3qa-8cde…', type);
      }
      assert.equal(await statusOf({ seat: 1, type: 'accept', seconds: 300, since: 0, deal: -1 }), 'Waiting for Sakura m3qa-8cde…');
      assert.equal(await statusOf({ seat: 1, type: 'key', seconds: 300, since: 0, deal: 1 }, tables.board.round), 'Waiting for Sakura m3qa-8cde…');
      // The joiner still asked to accept: the host's early keys are no deal yet (review).
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('board', tb), { ...before, termsProposed: true, wait: { seat: 1, type: 'key', seconds: 60, since: 0, deal: -1 } });
      assert.equal(String(await page.locator('.board .status').textContent()).trim(), 'Waiting for Sakura m3qa-8cde…');
      // Practice has no deadlines: a person who thinks long there is never hurried.
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('board', tb), { ...tables.lowtime, mode: 'practice', deadlines: false });
      assert.equal(await page.locator('.board .status .timeleft:not([hidden]), .timer.urgent').count(), 0);
      // The same summary in Japanese.
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('round', tb), { ...tables.round, fixtureLang: 'ja' });
      assert.deepEqual(await page.locator('dialog[open] .seatyaku h3').allTextContents(), ['Youの役', 'Sakura m3qa-8cdeは役なし']);
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

/** A one-round match `koikoi selfplay --seed 7` plays the same every time, in a folder of its own. */
function seededTranscript() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-report-'));
  const file = path.join(dir, 'match.transcript');
  const made = spawnSync(KOIKOI, ['selfplay', '--rounds', '1', '--seed', '7', '--transcript', file], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stdout + made.stderr);
  return { dir, file };
}

test('the home screen, the forms and the replay view: pictures and axe', { skip, timeout: 180000 }, async () => {
  const { dir, file } = seededTranscript();
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    for (const size of SIZES) {
      // bypassCSP only so that axe-core can be injected; the other tests run under the page's policy.
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, reducedMotion: 'reduce', bypassCSP: true });
      const { page, errors } = await openPage(context, relay.web);
      await page.getByRole('button', { name: 'Practice against the computer' }).waitFor();
      // The home screen uses a desktop window's width, the menu and the settings side by side
      // (QA: one narrow column on the left); a phone stacks them, nothing wider than the screen.
      await page.locator('.settings .fp').waitFor();
      const home = await page.evaluate(() => {
        const box = (/** @type {string} */ q) => /** @type {Element} */ (document.querySelector(q)).getBoundingClientRect();
        const menu = box('.menu');
        const settings = box('.settings');
        return { menu: [menu.left, menu.right, menu.top], settings: [settings.left, settings.right, settings.top], scroll: document.documentElement.scrollWidth };
      });
      assert.ok(home.scroll <= size.width, `${size.name}: the home screen is wider than the window: ${JSON.stringify(home)}`);
      if (size.name === 'desktop') {
        assert.ok(home.settings[0] > home.menu[1] && Math.abs(home.settings[2] - home.menu[2]) < 2, JSON.stringify(home));
        assert.ok(home.settings[1] - home.menu[0] > 0.8 * size.width, `the home screen uses the window's width: ${JSON.stringify(home)}`);
      } else {
        assert.ok(home.settings[2] > home.menu[2] && home.settings[1] <= size.width, JSON.stringify(home));
      }
      // The key's fingerprint is new in each browser: masked in the picture.
      compareScreenshot(await page.screenshot({ mask: [page.locator('.settings .fp')] }), `home-${size.name}`);
      if (size.name === 'desktop') await axe(page, 'home');
      await page.getByRole('button', { name: 'Create a room' }).click();
      if (size.name === 'desktop') await axe(page, 'create');
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'Join a room' }).click();
      await page.locator('.lobby li').first().waitFor();
      if (size.name === 'desktop') await axe(page, 'join');
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'Open a match report' }).click();
      await page.locator('#report-file').setInputFiles(file);
      await page.locator('.verdict.good').waitFor({ timeout: 120000 });
      for (let i = 0; i < 8; i++) await page.locator('.stepnav button.next').click();
      await page.mouse.move(0, 0);
      compareScreenshot(await page.screenshot(), `replay-${size.name}`);
      if (size.name === 'desktop') await axe(page, 'replay');
      assert.deepEqual(errors, []);
      await context.close();
    }
    // The same view as one self-contained file: koikoi verify FILE --html OUT.html.
    const html = path.join(dir, 'report.html');
    const v = spawnSync(KOIKOI, ['verify', file, '--html', html], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stdout + v.stderr);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, offline: true });
    const { page, errors } = await openPage(context, `file://${html}`);
    await page.locator('.verdict.good').waitFor({ timeout: 120000 });
    assert.match(String(await page.locator('.verdict').textContent()), /valid transcript: nintendo, 1 round,/);
    await page.locator('.stepnav button.next').click();
    assert.match(String(await page.locator('.stepcount').textContent()), /Step 2 of/);
    assert.deepEqual(errors, []);
    // A transcript with one byte changed is refused, and the page says where and why.
    const bad = readFileSync(file);
    bad[bad.length - 200] ^= 1;
    writeFileSync(path.join(dir, 'bad.transcript'), bad);
    const r = spawnSync(KOIKOI, ['verify', path.join(dir, 'bad.transcript'), '--html', html], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    await page.goto(`file://${html}`);
    await page.locator('.verdict.bad').waitFor({ timeout: 120000 });
    // The page says what koikoi verify says (its first line tells where the report was written).
    const verdict = r.stdout.trim().split('\n').filter((line) => !line.startsWith('Wrote the match report to ')).join('\n');
    assert.match(r.stdout, /^Wrote the match report to /);
    assert.equal(String(await page.locator('.verdict code.line').first().textContent()).trim(), verdict);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('the replay view in Japanese: seats named with their roles, koikoi verify\'s lines in Japanese, rounds as 回戦, a Back button home', { skip, timeout: 180000 }, async () => {
  const { dir, file } = seededTranscript();
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(await browser.newContext({ viewport: { width: 1280, height: 800 } }), relay.web);
    await page.getByLabel('Language').selectOption('ja');
    assert.equal(await page.title(), '花札こいこい'); // the tab's title follows the language (QA)
    await page.getByRole('button', { name: '対局レポートを開く' }).click();
    // An identity file is said to be one, not "no file of this program" (QA).
    const id = path.join(dir, 'me.koikoi-id');
    const exported = spawnSync(KOIKOI, ['identity', 'export', id], { encoding: 'utf8', env: { ...process.env, KOIKOI_HOME: path.join(dir, 'home'), KOIKOI_PASSPHRASE: 'correct horse battery' } });
    assert.equal(exported.status, 0, exported.stdout + exported.stderr);
    await page.locator('#report-file').setInputFiles(id);
    await page.locator('.verdict.bad').getByText(/身元のファイル/).waitFor({ timeout: 20000 });
    await page.locator('#report-file').setInputFiles(file);
    await page.locator('.verdict.good').waitFor({ timeout: 120000 });
    // The headline and the lines under it are the person's language: the lines say what
    // `koikoi verify --lang ja` says of the file (QA: they stayed English, folded away).
    assert.doesNotMatch(String(await page.locator('.verdict strong').textContent()), /[A-Za-z]{3}/);
    const said = spawnSync(KOIKOI, ['verify', '--lang', 'ja', file], { encoding: 'utf8', env: { ...process.env, KOIKOI_HOME: path.join(dir, 'nobody') } });
    assert.deepEqual((await page.locator('.verdict code.line').allTextContents()).map((/** @type {string} */ l) => l.trimEnd()), said.stdout.trimEnd().split('\n').map((l) => l.trimEnd()));
    // A round is 回戦 there as on the board (QA: the report said 第1局).
    assert.equal(String(await page.locator('.dealnav button').first().textContent()), '第1回戦');
    // A transcript without display names names each seat with its role (QA: a bare "Player 0").
    const heads = (await page.locator('.stage h3').allTextContents()).join(' ');
    assert.match(heads, /プレイヤー0 \(ホスト\)/);
    assert.match(heads, /プレイヤー1 \(参加者\)/);
    await page.getByRole('button', { name: '戻る' }).click();
    await page.getByRole('button', { name: 'コンピューターと練習' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('on a phone the two player bars never overlap: a long opponent name or none, its fingerprint, dealer, a two-digit score beside your running clock', { skip, timeout: 120000 }, async () => {
  const url = await fixturePage();
  const base = boardTable();
  const long = {
    ...base, paired: { ...base.paired, names: ['Fuji', 'Sakura of the Long Name'] },
    match: { ...base.match, scores: [0, 24], dealer: 1 }, round: { ...base.round, dealer: 1 }, fixtureAsGame: true,
  };
  // An opponent who gave no name is its fingerprint, "(no name)" beside it where there is room
  // for all of it (QA: "Opponent ykpi-4zuw" read as a name).
  const unnamed = { ...long, paired: { ...long.paired, names: ['Fuji', ''] } };
  const browser = await launch();
  try {
    for (const width of [320, 360, 390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 844 }, reducedMotion: 'reduce' });
      const { page, errors } = await openPage(context, url);
      await page.waitForFunction(() => typeof (/** @type {any} */ (window).show) === 'function');
      for (const table of [unnamed, long]) {
        await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('board', tb), table);
        await page.waitForTimeout(100);
        const bars = await page.evaluate(() => {
          const box = (/** @type {string} */ q) => document.querySelector(q)?.getBoundingClientRect() ?? null;
          const them = box('.player.them');
          const me = box('.player.me');
          const tag = /** @type {HTMLElement | null} */ (document.querySelector('.player.them .ptag'));
          const note = /** @type {HTMLElement | null} */ (document.querySelector('.player.them .pnote'));
          const noteBox = note?.getBoundingClientRect();
          // The note is whole on the bar's line, or not seen at all (a phone keeps it for screen readers).
          const noteSeen = note && noteBox && noteBox.width > 1
            ? (note.scrollWidth <= note.clientWidth && Math.abs(/** @type {HTMLElement} */ (note.firstElementChild).getBoundingClientRect().top - noteBox.top) < 2 ? 'whole' : 'cut')
            : note ? 'hidden' : null;
          return { them: them && [them.left, them.right], me: me && [me.left, me.right], dealer: !!document.querySelector('.player.them .dealer'),
            clock: !!document.querySelector('.player.me .timer'), tagWhole: tag ? tag.scrollWidth <= tag.clientWidth : null,
            tag: tag?.textContent ?? null, noteSeen, text: document.querySelector('.player.them')?.textContent ?? '' };
        });
        const what = `${width} px, ${table === long ? 'a long name' : 'no name'}`;
        assert.ok(bars.them && bars.me, `${what}: no bars`);
        assert.ok(bars.dealer && bars.clock, `${what}: the fixture lost its dealer badge or clock: ${JSON.stringify(bars)}`);
        assert.ok(bars.them[1] <= bars.me[0], `${what}: the opponent's bar runs under yours: ${JSON.stringify(bars)}`);
        assert.ok(bars.me[1] <= width, `${what}: your bar leaves the screen: ${JSON.stringify(bars)}`);
        assert.equal(bars.tagWhole, true, `${what}: the fingerprint is cut`);
        assert.equal(bars.tag, 'm3qa-8cde', what);
        assert.doesNotMatch(bars.text, /Opponent/, what);
        if (table === unnamed) {
          assert.equal(bars.noteSeen, width >= 700 ? 'whole' : 'hidden', `${what}: ${JSON.stringify(bars)}`);
          assert.match(bars.text, /^m3qa-8cde\(no name\)/, what);
          assert.equal(await page.locator('.captures.theirs .owner').textContent(), 'Captures of m3qa-8cde');
        } else {
          assert.equal(bars.noteSeen, null, what);
        }
        if (width === 390) await page.screenshot({ path: path.join(os.tmpdir(), `koikoi-bars-390-${table === long ? 'long' : 'unnamed'}.png`) });
      }
      const table = long;
      // A drawn card waiting beside the stock (lifted) leaves the stock's count readable (QA).
      await page.evaluate((/** @type {any} */ tb) => /** @type {any} */ (window).show('board', tb), { ...table, round: { ...table.round, pendingCard: 5 } });
      await page.waitForTimeout(100);
      const stock = await page.evaluate(() => {
        const count = document.querySelector('.stock .count')?.getBoundingClientRect();
        const card = document.querySelector('.pending .card')?.getBoundingClientRect();
        return count && card ? { countBottom: count.bottom, cardTop: card.top } : null;
      });
      assert.ok(stock, `${width} px: no stock count or drawn card`);
      assert.ok(stock.cardTop >= stock.countBottom, `${width} px: the drawn card covers the stock's count: ${JSON.stringify(stock)}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

// Seeing the game happen (issue 24 §2). With every animation stretched to seconds, the seat
// still acknowledges and answers the computer's frames at once (the view follows the tables, it
// never holds one) and the practice match ends co-signed; whole practice matches with the
// animations on and with reduced motion; pictures of a move in flight, the opponent's last move
// marked (with the move log open) and the koi-koi announcement at 1280x800 and 390x844, with axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { REPO } from '../helpers.js';
import { KOIKOI } from '../python.js';
import { browserMissing, compareScreenshot, download, launch, openPage, playToEnd, startWebRelay } from './support.js';
import { firstDeal, opponentKoikoi, opponentMove } from './motion_fixtures.js';

const skip = browserMissing();
const SIZES = [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 390, height: 844 }];
const AXE = path.join(REPO, 'web', 'node_modules', 'axe-core', 'axe.min.js');
/**
 * The stretched motion length (ms): one card's flight is about half of it, a half-turn's motion
 * about one and a half times it. Long enough that a seat or page that waited on a motion could
 * not hide it behind the seat's own work (proofs, signatures) on a busy machine.
 */
const STRETCH = 120000;

/** @param {any} page @param {string} where */
async function axe(page, where) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((/** @type {any} */ v) => `${where}: ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join('; ')}`), []);
}

/** A practice match against the easy computer, from the home screen. @param {any} page @param {number} [rounds] */
async function startPractice(page, rounds = 1) {
  await page.getByRole('button', { name: 'Practice against the computer' }).click();
  await page.getByLabel('Rounds').fill(String(rounds));
  await page.getByLabel('Computer').selectOption('random');
  await page.getByRole('button', { name: 'Start' }).click();
}

/** The transcript and the co-signed result the page offers verify. @param {any} page */
async function coSigned(page) {
  await page.locator('dialog[open]').getByText('Both players signed this result.').waitFor();
  const v = spawnSync(KOIKOI, ['verify', await download(page, 'transcript')], { encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  const r = spawnSync(KOIKOI, ['verify', '--result', await download(page, 'result')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
}

/**
 * One practice match with every motion stretched to STRETCH, clicked as soon as anything can be
 * clicked; the seat's delays read from the frames that passed the page.
 * @param {any} browser @param {string} web
 */
async function stretchedMatch(browser, web) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Between the page's two workers (practice), every frame passes the page with its time; the
  // person's clicks are logged with theirs.
  await context.addInitScript((/** @type {number} */ ms) => {
    localStorage.setItem('koikoi.motionMs', String(ms));
    /** @type {{from: number | string, at: number, busy: boolean}[]} */
    const log = [];
    /** @type {any} */ (window).frameLog = log;
    const moving = () => document.getAnimations().some((a) => a.playState === 'running');
    const Real = MessageChannel;
    /** @type {any} */ (window).MessageChannel = class {
      constructor() {
        const a = new Real();
        const b = new Real();
        this.port1 = a.port1;
        this.port2 = b.port1;
        a.port2.onmessage = (e) => { log.push({ from: 0, at: performance.now(), busy: moving() }); b.port2.postMessage(e.data); };
        b.port2.onmessage = (e) => { log.push({ from: 1, at: performance.now(), busy: moving() }); a.port2.postMessage(e.data); };
      }
    };
  }, STRETCH);
  const { page, errors } = await openPage(context, web);
  // Two rounds: enough moves unless both end early (a hand yaku at the deal, a quick yaku).
  await startPractice(page, 2);
  // Play as soon as anything can be clicked, never waiting for a card to stop moving.
  const end = Date.now() + 480000;
  let moved = 0;
  for (;;) {
    assert.ok(Date.now() < end, 'the match did not end in time');
    const did = await page.evaluate(() => {
      const q = (/** @type {string} */ s) => /** @type {HTMLElement | null} */ (document.querySelector(s));
      if (q('dialog.dlg-over[open]') || q('dialog.dlg-failure[open]')) return 'end';
      const b = q('dialog[open] button.primary') ?? q('.field button.card.choice') ?? q('.hand button.card');
      if (!b) return 'wait';
      /** @type {any} */ (window).frameLog.push({ from: 'person', at: performance.now(), busy: false });
      b.click();
      return 'click';
    });
    if (did === 'end') break;
    if (did === 'click') moved += 1;
    await page.waitForTimeout(150);
  }
  assert.ok(await page.locator('dialog.dlg-over[open]').count(), 'the match ended without a failure');
  await coSigned(page);
  const log = /** @type {{from: number | string, at: number, busy: boolean}[]} */ (await page.evaluate(() => /** @type {any} */ (window).frameLog));
  // Each frame our seat sent answers either the person's click just before it, or the
  // computer's frame just before it (shares, acknowledgements): then its delay is the seat's alone.
  /** @type {{delay: number, busy: boolean}[]} */ const answers = [];
  /** @type {number[]} */ const decisions = [];
  /** @type {any} */ let lastIn = null;
  /** @type {any} */ let lastPerson = null;
  for (const e of log) {
    if (e.from === 1) lastIn = e;
    else if (e.from === 'person') lastPerson ??= e; // from the first click, however many it took
    else if (lastPerson && (!lastIn || lastPerson.at >= lastIn.at)) { decisions.push(e.at - lastPerson.at); lastPerson = null; }
    else if (lastIn) { answers.push({ delay: e.at - lastIn.at, busy: lastIn.busy }); lastIn = null; }
  }
  assert.deepEqual(errors, []);
  await context.close();
  return { moved, answers, decisions };
}

test('animations stretched to seconds: the seat answers every frame at once and the practice match ends co-signed', { skip, timeout: 600000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    let moved = 0;
    /** @type {{delay: number, busy: boolean}[]} */ const answers = [];
    /** @type {number[]} */ const decisions = [];
    // A match whose two rounds both end at once gives too few moves to judge: play another (CI
    // once met a match of two clicks); four short matches in a row would be a fault of their own.
    for (let match = 0; match < 4 && !(moved >= 6 && answers.length >= 6 && decisions.length >= 6); match += 1) {
      const one = await stretchedMatch(browser, relay.web);
      moved += one.moved;
      answers.push(...one.answers);
      decisions.push(...one.decisions);
    }
    const whileMoving = answers.filter((a) => a.busy);
    const worst = Math.max(...answers.map((a) => a.delay), ...decisions);
    console.log(`# ${moved} clicks; ${answers.length} answers to the computer (${whileMoving.length} while cards moved), ${decisions.length} decisions sent; `
      + `slowest ${worst.toFixed(0)} ms; motion ${STRETCH} ms; answers ${answers.map((a) => `${a.delay.toFixed(0)}${a.busy ? '*' : ''}`).join(' ')}; decisions ${decisions.map((d) => d.toFixed(0)).join(' ')}`);
    assert.ok(moved >= 6 && answers.length >= 6 && decisions.length >= 6, 'four matches gave too few moves to judge');
    // The stretch was in force: frames arrived while cards were moving.
    assert.ok(whileMoving.length >= 3, `only ${whileMoving.length} frames arrived during a motion`);
    // A seat (or a page) that waited for the view would answer a motion's length late (a card's
    // flight alone is about half of STRETCH); the seat's own work is far shorter.
    for (const d of [...answers.map((a) => a.delay), ...decisions]) assert.ok(d < STRETCH / 4, `an answer took ${d.toFixed(0)} ms`);
  } finally {
    await browser.close();
    await relay.stop();
  }
});

test('whole practice matches with the animations on and with reduced motion end co-signed', { skip, timeout: 600000 }, async () => {
  const relay = await startWebRelay();
  const browser = await launch();
  try {
    for (const reducedMotion of /** @type {const} */ (['no-preference', 'reduce'])) {
      // A one-round match can end at the deal (a hand yaku: no card moves, the move log empty) or
      // after our first half-turn (a yaku and a stop: one line, and no move of the opponent's to
      // mark, which CI once met). Such a match tells nothing about the motion: play another (at
      // most four).
      for (let attempt = 1; ; attempt += 1) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion });
        const { page, errors } = await openPage(context, relay.web);
        await page.evaluate(() => { /** @type {any} */ (window).cardMotion = { moved: 0, marked: 0 }; });
        await startPractice(page);
        await page.locator('.hand button.card, dialog[open] button').first().waitFor({ timeout: 120000 });
        // Count, as the match goes, cards in flight and cards highlighted instead.
        await page.evaluate(() => {
          const seen = /** @type {any} */ (window).cardMotion = { flying: 0, highlighted: 0 };
          new MutationObserver(() => {
            seen.flying += document.querySelectorAll('.board .card.flying').length;
            seen.highlighted += document.querySelectorAll('.board .card.moved').length;
          // Class changes too: a redraw that keeps a card's element marks it without any child
          // list mutation in the same task (a run counted no highlight in a whole round).
          }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
        });
        assert.equal(await playToEnd(page, 480000), 'over');
        await coSigned(page);
        assert.deepEqual(errors, []);
        const seen = await page.evaluate(() => /** @type {any} */ (window).cardMotion);
        // The move log has a line per half-turn of the last round.
        const lines = await page.locator('.movelog li.mine, .movelog li.theirs').count();
        await context.close();
        if (lines < 2 && attempt < 4) continue;
        if (reducedMotion === 'reduce') {
          assert.equal(seen.flying, 0);
          assert.ok(seen.highlighted > 0, `reduced motion: ${JSON.stringify(seen)}, ${lines} lines in the move log`);
        } else {
          assert.ok(seen.flying > 0, `motion: ${JSON.stringify(seen)}, ${lines} lines in the move log`);
          assert.equal(seen.highlighted, 0);
        }
        assert.ok(lines >= 2, `${lines} lines in the move log`);
        break;
      }
    }
  } finally {
    await browser.close();
    await relay.stop();
  }
});

/** The fixture page: the board and the view around it, bundled with the stylesheet. */
async function fixturePage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'koikoi-motion-'));
  await build({ entryPoints: [path.join(REPO, 'web', 'test', 'browser', 'motion_page.js')], bundle: true, format: 'iife', outfile: path.join(dir, 'page.js'), logLevel: 'error' });
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Koi-Koi</title><style>${readFileSync(path.join(REPO, 'web', 'app', 'styles.css'), 'utf8')}</style><script defer src="page.js"></script></head><body><div id="app"></div></body></html>`);
  return `file://${dir}/index.html`;
}

test('a move in flight, the opponent\'s last move marked, the koi-koi announcement: pictures at both sizes and axe', { skip, timeout: 180000 }, async () => {
  const url = await fixturePage();
  const move = opponentMove();
  const call = opponentKoikoi();
  const browser = await launch();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const { page, errors } = await openPage(context, url);
      await page.waitForFunction(() => typeof (/** @type {any} */ (window).showSequence) === 'function');
      // The opponent's half-turn arrives: its played card, its capture and its draw move; the
      // picture is taken at a fixed point of every motion (paused there).
      await page.evaluate((/** @type {any[]} */ [a, b]) => {
        const show = /** @type {any} */ (window).showSequence;
        show([a], 0, true);
        show([b], 4000);
        for (const an of document.getAnimations()) { an.pause(); an.currentTime = 1500; }
      }, move);
      await page.waitForTimeout(300);
      assert.ok(await page.evaluate(() => document.getAnimations().length) >= 3);
      compareScreenshot(await page.screenshot(), `motion-flight-${size.name}`);
      // Escape skips the motion: every card lands at once. The cards the opponent's half-turn
      // touched stay marked; the move log says what it did.
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.getAnimations().filter((a) => a.playState !== 'finished').length), 0);
      const last = move[1].history.turns[move[1].history.turns.length - 1];
      const touched = [last.played, ...last.took, last.drawn, ...last.drawTook].filter((c) => c !== null);
      assert.equal(await page.locator('.board .card.lastmove').count(), touched.length);
      await page.locator('.movelog summary').click();
      assert.match(String(await page.locator('.movelog li.theirs').last().textContent()), /^Sakura m3qa-8cde played .+, took .+; drew /);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(150);
      compareScreenshot(await page.screenshot(), `motion-lastmove-${size.name}`);
      if (size.name === 'desktop') await axe(page, 'last move');
      // The opponent calls koi-koi: a banner with its yaku and their cards, and the live region.
      await page.evaluate((/** @type {any[]} */ [a, b]) => {
        const show = /** @type {any} */ (window).showSequence;
        show([a], 0, true);
        show([b], 0);
      }, call);
      await page.locator('.announce:not([hidden])').waitFor();
      assert.match(String(await page.locator('.announce .anntitle').first().textContent()), /Sakura m3qa-8cde: koi-koi!/);
      assert.match(String(await page.locator('.announcer [aria-live]').textContent()), /koi-koi!/);
      assert.ok(await page.locator('.announce .anncards .card').count() >= 1);
      await page.waitForTimeout(150);
      compareScreenshot(await page.screenshot(), `motion-koikoi-${size.name}`);
      if (size.name === 'desktop') await axe(page, 'koi-koi announcement');
      // A touch anywhere puts the banner away at once (it closes by itself only after 2.8 s).
      await page.waitForTimeout(200);
      await page.mouse.click(2, 2);
      await page.locator('.announce').waitFor({ state: 'hidden', timeout: 1000 });
      // The sound toggle says its state and is remembered.
      const toggle = page.locator('button.soundtoggle');
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      assert.equal(await page.evaluate(() => localStorage.getItem('koikoi.sound')), 'off');
      await page.evaluate(() => /** @type {any} */ (window).showSequence([], 0, true));
      assert.equal(await page.locator('button.soundtoggle').textContent(), 'Sound off');
      await page.locator('button.soundtoggle').click();
      // Under a modal dialog (the rest of the page inert) the announcement is said in the dialog.
      await page.evaluate((/** @type {any[]} */ [a, b]) => {
        const dlg = document.createElement('dialog');
        dlg.className = 'dlg dlg-over';
        dlg.append('The match is over');
        document.body.append(dlg);
        dlg.showModal();
        const show = /** @type {any} */ (window).showSequence;
        show([a], 0);
        show([b], 0);
      }, call);
      await page.waitForFunction(() => /koi-koi!/.test(document.querySelector('dialog[open] [aria-live]')?.textContent ?? ''));
      // ... and no banner covers a summary (QA: "made tane" sat over the match's summary).
      assert.equal(await page.locator('.announce').isVisible(), false, 'a banner over a dialog');
      await page.evaluate(() => document.querySelector('dialog[open]')?.remove());
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

test("the first dealer's announcement leaves the field and the hand in view; the opponent's paused clock says why in words: pictures at both sizes", { skip, timeout: 180000 }, async () => {
  const url = await fixturePage();
  const first = firstDeal();
  const [theirTurn] = opponentMove();
  const browser = await launch();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const { page, errors } = await openPage(context, url);
      await page.waitForFunction(() => typeof (/** @type {any} */ (window).showSequence) === 'function');
      await page.evaluate((/** @type {any} */ t) => /** @type {any} */ (window).showSequence([t], 0, true), first);
      await page.locator('.announce:not([hidden])').waitFor();
      assert.match(String(await page.locator('.announce .anntitle').textContent()), /First dealer: You/);
      // QA: on a phone the banner sat over the field for its 2.8 s; it now sits over the
      // opponent's side, clear of the field and the hand (both still to be read and played).
      const boxes = await page.evaluate(() => Object.fromEntries(['.announce', '.field', '.hand', '.deckzone'].map((s) => {
        const r = /** @type {Element} */ (document.querySelector(s)).getBoundingClientRect();
        return [s, { top: r.top, bottom: r.bottom, left: r.left, right: r.right }];
      })));
      const banner = boxes['.announce'];
      for (const s of ['.field', '.hand', '.deckzone']) {
        const b = boxes[s];
        const apart = banner.bottom <= b.top || b.bottom <= banner.top || banner.right <= b.left || b.right <= banner.left;
        assert.ok(apart, `${size.name}: the banner (${JSON.stringify(banner)}) covers ${s} (${JSON.stringify(b)})`);
      }
      assert.ok(banner.left >= 0 && banner.right <= size.width, `${size.name}: the banner is cut off`);
      compareScreenshot(await page.screenshot(), `motion-first-${size.name}`);
      await page.keyboard.press('Escape');
      await page.locator('.announce').waitFor({ state: 'hidden', timeout: 1000 });
      // Our relay out of reach while the opponent is to move: their clock shows the ‖ sign, named
      // for a screen reader by its aria-label, and a line says why (a title shows on no phone).
      await page.evaluate((/** @type {any} */ t) => /** @type {any} */ (window).showSequence([{ ...t, connection: 'reconnecting' }], 0, true), theirTurn);
      const timer = page.locator('.player.them .timer.running');
      assert.equal(await timer.textContent(), '‖');
      assert.match(String(await timer.getAttribute('aria-label')), /^Paused: while your connection is lost/);
      const note = page.locator('.pausenote');
      assert.ok(await note.isVisible(), 'no visible words beside the paused clock');
      assert.equal(await note.textContent(), '‖ Their clock is paused: your connection is down');
      const box = /** @type {any} */ (await note.boundingBox());
      assert.ok(box.x >= 0 && box.x + box.width <= size.width, `${size.name}: the line is cut off`);
      await page.waitForTimeout(150);
      compareScreenshot(await page.screenshot(), `paused-${size.name}`);
      // Connected again: no line.
      await page.evaluate((/** @type {any} */ t) => /** @type {any} */ (window).showSequence([t], 0, true), theirTurn);
      assert.equal(await page.locator('.pausenote').isVisible(), false);
      assert.deepEqual(errors, []);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

// The match report view: open or drop a transcript; the JavaScript auditor verifies it first
// (its verdict is shown as `koikoi verify` would print it); then step through every deal with
// every card face up, the yaku, the koi-koi calls and the scores. Also the whole page of
// `koikoi verify FILE --html OUT.html`, where the transcript comes inside the page.
import { h } from './dom.js';
import { cardEl } from './board.js';
import { cardName, listOf, monthName, t, yakuName } from './i18n.js';
import { groupByClass } from './table.js';
import { reasonText, tn } from './words.js';
import { verifyLines } from './verify_text.js';
import { ready } from '../../src/api/match.js';

/**
 * @param {HTMLElement} root @param {Uint8Array | null} bytes a file to show at once, or null
 * @param {(() => void) | null} [back] the app's way back (none on the page of `koikoi verify --html`)
 */
export async function openReport(root, bytes, back = null) {
  const status = h('p', { class: 'verdict', role: 'status', 'aria-live': 'polite' });
  const body = h('div', { class: 'replay' });
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'file', id: 'report-file', class: 'visually-hidden' }));
  const drop = h('label', { class: 'dropzone', for: 'report-file' }, [h('span', {}, t('dropFile')), h('span', { class: 'button' }, t('chooseFile'))]);
  const show = async (/** @type {Uint8Array} */ data) => {
    status.textContent = t('verifying');
    status.className = 'verdict';
    body.replaceChildren();
    await new Promise((r) => setTimeout(r, 30)); // let the page paint the message first
    // An identity file is this program's too, but no match: say what it is (QA: "not a file of
    // this program"). Its first 8 bytes are "koikoiID" (spec: the identity file).
    if (data.length >= 8 && new TextDecoder().decode(data.subarray(0, 8)) === 'koikoiID') {
      status.textContent = t('reportIdentityFile');
      status.className = 'verdict bad';
      return;
    }
    await ready();
    const { buildReport } = await import('./report_model.js');
    try {
      renderReport(status, body, buildReport(data));
    } catch (e) {
      const err = /** @type {any} */ (e);
      status.textContent = t('notVerifiedFile', { reason: typeof err?.reason === 'string' ? reasonText(err.reason) : String(err?.message ?? e) });
      status.className = 'verdict bad';
    }
  };
  input.addEventListener('change', async () => {
    const f = input.files?.[0];
    if (f) await show(new Uint8Array(await f.arrayBuffer()));
  });
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer?.files?.[0];
    if (f) await show(new Uint8Array(await f.arrayBuffer()));
  });
  const choices = back ? h('div', { class: 'choices' }, [h('button', { type: 'button', onclick: back }, t('back'))]) : null;
  root.replaceChildren(h('section', { class: 'panel report' }, [h('h1', {}, t('replayTitle')), drop, input, status, body, choices]));
  if (bytes) await show(bytes);
}

/**
 * @param {HTMLElement} status @param {HTMLElement} body @param {import('./report_model.js').MatchReport} rep
 */
function renderReport(status, body, rep) {
  // What `koikoi verify` prints of the file, in the page's language (verify_text.js).
  const lines = verifyLines(rep);
  status.replaceChildren(
    h('strong', {}, rep.ok ? t('verified') : rep.failure ? t('notVerifiedFile', { reason: reasonText(rep.failure.reason) }) : (rep.report?.deviation
      ? t('notVerified', { n: rep.report.deviation.seq ?? '?', reason: reasonText(rep.report.deviation.reason) })
      : rep.report?.kind === 'transcript' && !rep.report.complete ? t('notFinished') : lines[lines.length - 1] ?? '')),
    ...lines.map((l) => h('code', { class: 'line' }, l)),
  );
  status.className = `verdict ${rep.ok ? 'good' : 'bad'}`;
  const names = /** @type {[string, string]} */ ([0, 1].map((s) => rep.names[s] || t(s ? 'player1' : 'player0')));
  if (!rep.deals.length) return;
  let d = 0;
  let i = 0;
  const dealNav = h('div', { class: 'dealnav', role: 'tablist' });
  const stage = h('div', { class: 'stage' });
  const controls = h('div', { class: 'stepnav' });
  const draw = () => {
    const deal = rep.deals[d];
    dealNav.replaceChildren(...rep.deals.map((x, k) => h('button', {
      role: 'tab', 'aria-selected': k === d ? 'true' : 'false', class: k === d ? 'on' : '',
      onclick: () => { d = k; i = 0; draw(); },
    }, `${t('roundNo', { n: x.roundIndex })}${x.result && x.result.redeal ? ' ↺' : ''}`)));
    const steps = deal.steps;
    i = Math.max(0, Math.min(i, steps.length - 1));
    const step = steps[i];
    controls.replaceChildren(
      h('button', { onclick: () => { i = 0; draw(); }, disabled: i === 0 }, t('first')),
      h('button', { class: 'prev', onclick: () => { i -= 1; draw(); }, disabled: i === 0 }, t('prev')),
      h('span', { class: 'stepcount' }, t('step', { i: i + 1, n: steps.length })),
      h('button', { class: 'next primary', onclick: () => { i += 1; draw(); }, disabled: i >= steps.length - 1 }, t('nextStep')),
      h('button', { onclick: () => { i = steps.length - 1; draw(); }, disabled: i >= steps.length - 1 }, t('last')),
    );
    stage.replaceChildren(step ? stepView(step, names) : h('p', {}, t('none')));
  };
  body.replaceChildren(dealNav, controls, stage);
  body.tabIndex = 0;
  body.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') { i += 1; draw(); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { i -= 1; draw(); e.preventDefault(); }
  });
  draw();
}

/** @param {import('./report_model.js').Step} step @param {[string, string]} names */
function describeStep(step, names) {
  const who = step.seat === null ? '' : names[step.seat];
  switch (step.kind) {
    case 'dealt': return `${t('dealt')} — ${t('dealerIs', { who: names[step.snap.dealer] })}`;
    case 'play': return t('played', { who, card: cardName(/** @type {number} */ (step.card)) });
    case 'capture': return `${who}: ${t('takes', { cards: cardName(/** @type {number} */ (step.card)) })}`;
    case 'draw': return t('drawn', { who, card: cardName(/** @type {number} */ (step.card)) });
    case 'koikoi': return t('calls', { who });
    case 'stop': return t('stops', { who });
    case 'claim_hand_yaku': return step.yaku === 'hand_month' ? t('claimsMonth', { who }) : t('claims', { who, yaku: yakuName(step.yaku ?? '') });
    case 'no_hand_yaku': return t('noClaim', { who });
    case 'result': {
      const r = step.result;
      const line = r.winner === null ? t('roundDraw') : tn('theyTakeN', r.points, { who: names[r.winner] });
      const yaku = listOf(Object.entries(r.yaku).map(([id, p]) => `${yakuName(id)} ${p}`));
      return `${line}${yaku ? ` (${yaku})` : ''} — ${t(/** @type {any} */ (`reason_${r.reason}`))}; ${names[0]} ${step.scores?.[0]} – ${step.scores?.[1]} ${names[1]}`;
    }
    default: return step.kind;
  }
}

/** @param {import('./report_model.js').Step} step @param {[string, string]} names */
function stepView(step, names) {
  const s = step.snap;
  const row = (/** @type {number[]} */ cards, /** @type {string} */ cls, /** @type {string} */ label) => h('div', { class: `row ${cls}`, 'aria-label': label },
    cards.map((c) => (c >= 0 ? cardEl(c, { cls: c === step.card ? 'small hot' : 'small' }) : h('span', { class: 'card small unknown' }, '?'))));
  const pile = (/** @type {number} */ seat) => {
    const g = groupByClass(s.piles[seat]);
    const yaku = listOf(Object.entries(s.yaku[seat]).map(([id, p]) => `${yakuName(id)} ${p}`));
    return h('div', { class: 'rpile' }, [
      h('div', { class: 'groups' }, ['bright', 'animal', 'ribbon', 'plain'].map((k) => h('div', { class: 'group' }, [
        h('span', { class: 'glabel' }, `${t(/** @type {any} */ (k))} ${g[k].length}`), h('div', { class: 'stack' }, g[k].map((c) => cardEl(c, { cls: 'small' })))]))),
      h('p', { class: 'yaku' }, `${t('yakuMade')}: ${yaku || t('none')}`),
    ]);
  };
  return h('div', { class: 'rboard' }, [
    h('p', { class: 'steptext', 'aria-live': 'polite' }, `${t('roundNo', { n: s.roundIndex })} · ${t('month', { m: monthName(s.month) })} · ${describeStep(step, names)}`),
    h('h3', {}, `${names[1]}${s.dealer === 1 ? ` (${t('dealer')})` : ''}${s.calls.includes(1) ? ` — ${t('koikoiButton')}` : ''}`),
    row(s.hands[1], 'hand1', `${names[1]}: ${t('hand')}`), pile(1),
    h('h3', {}, `${t('field')} · ${tn('cardsLeftN', s.stock)}`), row(s.field, 'field', t('field')),
    h('h3', {}, `${names[0]}${s.dealer === 0 ? ` (${t('dealer')})` : ''}${s.calls.includes(0) ? ` — ${t('koikoiButton')}` : ''}`),
    row(s.hands[0], 'hand0', `${names[0]}: ${t('hand')}`), pile(0),
  ]);
}

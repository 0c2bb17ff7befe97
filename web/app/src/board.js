// The board: a component fed the table object (table.js) and callbacks. It draws the field,
// both hands, both captures grouped by class, the stock, the clocks and the question being asked,
// and reports clicks and keys as the option the person chose. It never decides legality: what
// can be clicked is exactly `table.ask.options`.
import { CARDS } from '../../src/api/rules.js';
import { h, svg } from './dom.js';
import { backSvg, cardSvg } from './cards/art.js';
import { cardLabel, cardName, listOf, monthName, t, yakuName } from './i18n.js';
import { tn } from './words.js';
import { groupByClass } from './table.js';
import { PERSON, ownEnd } from './deadline.js';

const BACK = backSvg();
const SAKE_CUP = 32;
/** @type {Map<number, string>} */
const FACES = new Map();
/** @param {number} c */
const face = (c) => {
  let s = FACES.get(c);
  if (!s) FACES.set(c, (s = cardSvg(c)));
  return s;
};

/**
 * @typedef {{
 *   decide: (option: {[key: string]: unknown}) => void,
 *   resign: () => void,
 *   showIds: boolean,
 *   names: [string, string],
 *   labels?: [import('./seatnames.js').SeatLabel, import('./seatnames.js').SeatLabel],
 * }} BoardProps
 */

/**
 * One card: a button when it can be chosen, else a figure; with its text equivalent.
 * @param {number} c @param {{action?: () => void, cls?: string, showId?: boolean, hot?: boolean, key?: string}} [o]
 */
export function cardEl(c, o = {}) {
  const label = cardLabel(c);
  const art = svg(face(c), 'art');
  const cls = `card ${CARDS[c].kind} m${CARDS[c].month}${o.cls ? ` ${o.cls}` : ''}${o.hot ? ' hot' : ''}`;
  const caption = o.showId ? h('span', { class: 'cid', 'aria-hidden': 'true' }, CARDS[c].id) : null;
  if (o.action) {
    return h('button', { class: cls, 'aria-label': label, title: label, onclick: o.action, dataset: { card: CARDS[c].id, key: o.key } }, [art, caption]);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, title: label, dataset: { card: CARDS[c].id } }, [art, caption]);
}

/** A face-down card. @param {string} [cls] */
export function backEl(cls = '') {
  return h('span', { class: `card back ${cls}`, 'aria-hidden': 'true' }, [svg(BACK, 'art')]);
}

const PAUSED = '‖';

/** Waits on a person's own answer (spec/game.md §7.1): a move or a call, the terms, a dealt hand's claim. */
const ASKED = new Set([...PERSON, 'declare']);
/** From how many seconds left the person's own clock warns. */
export const LOW_S = 10;

/**
 * The seconds left of the person's own decision once few are left, else null. The board's
 * status line and clock, the decision dialogs and the page's one announcement all read this
 * (QA: at 0:05 only the small clock turned pale, then the match ended at once).
 * @param {any} table @param {number} [now]
 * @returns {number | null}
 */
export function lowTime(table, now = Date.now()) {
  const w = table?.wait;
  // Practice has no deadlines (its clocks are not shown): nothing runs out there.
  if (!w || !table.deadlines || table.finished || w.seat !== table.seat || !ASKED.has(w.type)) return null;
  const left = remaining(table, now);
  return left <= LOW_S ? Math.max(0, Math.ceil(left)) : null;
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A captured pile grouped by class, with whose it is, its yaku and the yaku one card away. The
 * sake cup shows in each class it counts in (`cupAs`, table.js), so a count agrees with its yaku.
 * @param {number[]} pile @param {Record<string, number>} yaku @param {string[]} close @param {string} title @param {boolean} showIds
 * @param {boolean} [mine] @param {'both' | 'plain' | null} [cup]
 */
function capturesEl(pile, yaku, close, title, showIds, mine = false, cup = null) {
  const groups = groupByClass(pile);
  if (cup === 'plain') groups.animal = groups.animal.filter((c) => c !== SAKE_CUP);
  if (cup) groups.plain = [...groups.plain, SAKE_CUP];
  const made = Object.entries(yaku);
  const owner = mine ? t('capturesMine') : t('capturesTheirs', { who: title });
  return h('section', { class: `captures ${mine ? 'mine' : 'theirs'}`, 'aria-label': owner }, [
    h('span', { class: 'owner' }, owner),
    h('div', { class: 'groups' }, ['bright', 'animal', 'ribbon', 'plain'].map((k) => h('div', { class: `group g-${k}` }, [
      h('span', { class: 'glabel' }, `${t(/** @type {any} */ (k))} ${groups[k].length}`),
      h('div', { class: 'stack' }, groups[k].map((c) => (k === 'plain' && c === SAKE_CUP && cup === 'both'
        ? h('span', { class: 'cupplain', title: t('cupPlain') }, [h('span', { class: 'card small back-ref', role: 'img', 'aria-label': `${cardLabel(c)} — ${t('cupPlain')}` }, [svg(face(c), 'art')])])
        : cardEl(c, { cls: 'small', showId: showIds })))),
    ]))),
    h('div', { class: 'yaku' }, [
      h('span', { class: 'ylabel' }, `${t('yakuMade')}: `),
      made.length ? h('span', { class: 'made' }, made.map(([id, p]) => `${yakuName(id)} ${tn('pointsN', p)}`).join(' · ')) : h('span', { class: 'muted' }, t('none')),
      close.length ? h('span', { class: 'close' }, ` — ${t('yakuClose')}: ${listOf(close.map(yakuName))}`) : null,
    ]),
  ]);
}

/**
 * Draw the table into `root` (replacing what was there).
 * @param {HTMLElement} root @param {any} table @param {BoardProps} props
 */
export function renderBoard(root, table, props) {
  const r = table.round;
  const me = table.seat;
  const them = 1 - me;
  const ask = table.ask;
  const names = props.names;
  const scores = table.match ? table.match.scores : [0, 0];
  const rounds = table.terms ? table.terms.rounds : 1;

  /** options of a kind by the value that picks them */
  /** @type {Map<number, any>} */ const plays = new Map();
  /** @type {Map<number, any>} */ const captures = new Map();
  if (ask) {
    for (const o of ask.options) {
      if (o.type === 'play') plays.set(Number(o.position), o);
      if (o.type === 'capture') captures.set(Number(o.card), o);
    }
  }

  const waitSeat = table.wait ? table.wait.seat : null;
  const low = lowTime(table);
  const playerBar = (/** @type {number} */ seat, /** @type {boolean} */ mine) => h('div', { class: `player ${mine ? 'me' : 'them'}${waitSeat === seat ? ' active' : ''}` }, [
    // The name may be cut short; the fingerprint beside it never is. A player who gave no name is
    // the fingerprint, "(no name)" beside it while the bar has room (seatnames.js).
    ...(props.labels?.[seat].noName
      ? [h('span', { class: 'ptag alone' }, props.labels[seat].tag), h('span', { class: 'pnote' }, [h('span', {}, t('noName'))])]
      : [h('span', { class: 'pname' }, props.labels ? props.labels[seat].name : names[seat]),
        props.labels?.[seat].tag ? h('span', { class: 'ptag' }, props.labels[seat].tag) : null]),
    r && r.dealer === seat ? h('span', { class: 'dealer', title: t('dealer') }, t('dealer')) : null,
    h('span', { class: 'pscore', 'aria-label': `${names[seat]}: ${scores[seat]}` }, String(scores[seat])),
    // Both seats' clocks: the one waited on counts down (from when its wait began, kept across a reload).
    table.deadlines ? h('span', {
      class: `timer${waitSeat === seat ? ' running' : ''}${waitSeat === seat && clockPaused(table) ? ' paused' : ''}${mine && low !== null ? ' urgent' : ''}`,
      'data-seat': String(seat), 'aria-live': 'off',
      title: mine ? t('yourClock') : (clockPaused(table) ? t('clockPaused') : t('theirClock')),
      'aria-label': waitSeat === seat && clockPaused(table) ? t('clockPaused') : null,
    }, waitSeat === seat ? (clockPaused(table) ? PAUSED : clock(remaining(table))) : '') : null,
  ]);

  const status = statusText(table, names);
  /** @type {number[]} */ const hand = r ? r.hand : [];
  /** @type {number[]} */ const positions = r ? r.handPositions : [];
  /** @type {number[]} */ const fieldSet = r ? r.field : [];

  const handEl = h('section', { class: 'hand', 'aria-label': t('hand'), 'data-deal': String(table.deal ?? -1) }, hand.map((c, i) => {
    if (c < 0) return backEl();
    const option = plays.get(positions[i]);
    const matches = fieldSet.filter((f) => CARDS[f].month === CARDS[c].month).length;
    const el = cardEl(c, {
      action: option ? () => props.decide(option) : undefined, cls: option ? 'playable' : '', showId: props.showIds, key: String(i + 1),
    });
    if (option) {
      el.setAttribute('aria-label', `${cardLabel(c)} — ${matches ? t('fieldMatches', { n: matches }) : t('noMatch')}`);
      const month = CARDS[c].month;
      const mark = (/** @type {boolean} */ on) => root.querySelectorAll(`.field .card.m${month}`).forEach((f) => f.classList.toggle('match', on));
      el.addEventListener('mouseenter', () => mark(true));
      el.addEventListener('mouseleave', () => mark(false));
      el.addEventListener('focus', () => mark(true));
      el.addEventListener('blur', () => mark(false));
    }
    return el;
  }));

  const fieldEl = h('section', { class: 'field', 'aria-label': t('field') }, fieldSet.map((c) => {
    const option = captures.get(c);
    return cardEl(c, { action: option ? () => props.decide(option) : undefined, cls: option ? 'choice' : '', showId: props.showIds });
  }));

  const pending = r && r.pendingCard !== null ? h('div', { class: 'pending' }, [cardEl(r.pendingCard, { cls: 'lifted', showId: props.showIds })]) : null;

  const stockEl = h('div', { class: 'stock', 'aria-label': r ? tn('cardsLeftN', r.stockCount) : t('stock') }, [
    backEl('stockcard'), h('span', { class: 'count' }, r ? String(r.stockCount) : ''),
  ]);

  const oppHand = h('div', { class: 'opphand', role: 'img', 'aria-label': tn('opponentHandN', r ? r.opponentCount : 0) },
    Array.from({ length: r ? r.opponentCount : 0 }, () => backEl('tiny')));

  const info = h('div', { class: 'info' }, [
    r ? h('span', {}, t('roundOf', { i: r.roundIndex, n: rounds })) : null,
    r ? h('span', {}, t('month', { m: monthName(r.month) })) : null,
    r && r.calls.length ? h('span', { class: 'calls' }, r.calls.map((/** @type {number} */ s) => `${names[s]}: ${t('koikoiButton')}`).join(' · ')) : null,
  ]);

  // The ‖ sign's words, seen (a title shows on no phone; the clock's aria-label says them to a
  // screen reader, so this line is not read twice). tickClocks shows and hides it.
  const pauseNote = table.deadlines ? h('p', { class: 'pausenote', 'aria-hidden': 'true', hidden: !(waitSeat === them && clockPaused(table)) },
    `${PAUSED} ${t('clockPausedNote')}`) : null;

  root.replaceChildren(
    h('div', { class: 'board', dataset: { phase: r ? r.phase : 'none', ask: ask ? ask.kind : '' } }, [
      h('header', { class: 'bar' }, [playerBar(them, false), info, playerBar(me, true), pauseNote]),
      h('div', { class: 'side them' }, [oppHand, r ? capturesEl(r.piles[them], r.yaku[them], r.close[them], names[them], props.showIds, false, r.cupAs?.[them]) : null]),
      h('div', { class: 'middle' }, [fieldEl, h('div', { class: 'deckzone' }, [stockEl, pending])]),
      h('div', { class: 'side me' }, [r ? capturesEl(r.piles[me], r.yaku[me], r.close[me], names[me], props.showIds, true, r.cupAs?.[me]) : null]),
      // The seconds left of the person's decision, once few: seen here, said once by the page
      // (game.js), so the live line is not read out every second.
      h('div', { class: `status${low !== null ? ' urgent' : ''}`, role: 'status', 'aria-live': 'polite' }, [
        h('span', { class: 'statustext' }, status), ' ',
        h('span', { class: 'timeleft', 'aria-hidden': 'true', hidden: low === null }, low !== null ? tn('secondsLeftN', low) : ''),
      ]),
      handEl,
      h('footer', { class: 'actions' }, [
        h('span', { class: 'help' }, t('keyboardHelp')),
        table.finished || !table.paired ? null : h('button', {
          class: 'resign secondary', onclick: () => props.resign(), disabled: !table.canResign, title: table.canResign ? t('resign') : t('resignWhen'),
        }, t('resign')),
      ]),
    ]),
  );
}

/**
 * Whether the opponent's clock stands still: while our own relay is out of reach (or this device
 * offline) no claim that they abandoned runs out (spec/protocol.md §12.4), so a clock running
 * down to nothing would say what does not happen (browser QA). @param {any} table
 */
export function clockPaused(table) {
  return !!table?.wait && table.wait.seat !== table.seat && !table.finished
    && (table.connection === 'reconnecting' || (table.mode === 'online' && navigator.onLine === false));
}

/**
 * The person's clock inside a dialog that asks them. The joiner's security-code and terms
 * dialogs (`accept`): accepting the terms has the `turn` deadline (spec/game.md §7.1) and
 * comparing the code comes before it, so the time left is shown where the person reads (QA: it
 * ran out unseen behind the dialog). The koi-koi and dealt-hand questions (`decide`): the board
 * behind them is out of sight, so their clock and its last seconds show here. The dialog is drawn
 * once; `tickAnswerClock` shows the clock while the wait is the one the dialog answers.
 * @param {any} table @param {'accept' | 'decide'} [kind]
 */
export function answerClock(table, kind = 'accept') {
  if (!table?.deadlines || table.finished || (kind === 'accept' && table.seat !== 1)) return null;
  const el = h('p', { class: 'muted small answerclock', dataset: { for: kind } }, [t(kind === 'accept' ? 'timeToAccept' : 'timeToDecide'), ' ',
    h('span', { class: 'timer running', title: t('yourClock') }, ''), ' ', h('span', { class: 'timeleft', 'aria-hidden': 'true', hidden: true }, '')]);
  tickAnswerClock(el, table);
  return el;
}

/** The waits a dialog's clock (answerClock) counts. */
const ANSWERS = { accept: ['accept'], decide: ['act', 'declare'] };

/** Refresh the person's clock in a dialog (answerClock). @param {HTMLElement} root @param {any} table */
export function tickAnswerClock(root, table) {
  const el = /** @type {HTMLElement | null} */ (root.classList?.contains('answerclock') ? root : root.querySelector('.answerclock'));
  if (!el) return;
  const w = table?.wait;
  const mine = !!w && w.seat === table.seat && ANSWERS[el.dataset.for === 'decide' ? 'decide' : 'accept'].includes(w.type) && !table.finished;
  el.hidden = !mine;
  const timer = el.querySelector('.timer');
  if (mine && timer) {
    const left = remaining(table);
    timer.textContent = clock(left);
    timer.classList.toggle('low', left < 30);
  }
  showLow(el, mine ? lowTime(table) : null);
}

/**
 * Mark the person's last seconds in `el` (the status line or a dialog's clock line): the
 * highlight, and the seconds in words beside it. @param {Element} el @param {number | null} low
 */
function showLow(el, low) {
  el.classList.toggle('urgent', low !== null);
  el.querySelector('.timer')?.classList.toggle('urgent', low !== null);
  const words = /** @type {HTMLElement | null} */ (el.querySelector('.timeleft'));
  if (!words) return;
  words.hidden = low === null;
  words.textContent = low !== null ? tn('secondsLeftN', low) : '';
}

/**
 * Seconds left on the current wait: the opponent's to its deadline; our person's to the moment
 * our own seat stops taking the decision (deadline.js), not the deadline itself, so that "0:02"
 * still means two seconds. @param {any} table @param {number} [now]
 */
export function remaining(table, now = Date.now()) {
  const w = table.wait;
  if (!w) return 0;
  const end = w.seat === table.seat && PERSON.has(w.type) ? ownEnd(w) : w.since + w.seconds * 1000;
  return (end - now) / 1000;
}

/** Refresh the clocks without redrawing. @param {HTMLElement} root @param {any} table */
export function tickClocks(root, table) {
  if (!table || !table.wait) return;
  const el = root.querySelector(`.timer[data-seat="${table.wait.seat}"]`);
  if (el) {
    const paused = clockPaused(table);
    const left = remaining(table);
    el.textContent = paused ? PAUSED : clock(left);
    el.classList.toggle('low', !paused && left < 30);
    el.classList.toggle('paused', paused);
    if (table.wait.seat !== table.seat) el.setAttribute('title', paused ? t('clockPaused') : t('theirClock'));
    // The ‖ sign says nothing to a screen reader: while paused the clock is named by its words.
    if (paused) el.setAttribute('aria-label', t('clockPaused'));
    else el.removeAttribute('aria-label');
  }
  const note = /** @type {HTMLElement | null} */ (root.querySelector('.pausenote'));
  if (note) note.hidden = !clockPaused(table);
  const low = lowTime(table);
  const mine = root.querySelector(`.player.me .timer`);
  mine?.classList.toggle('urgent', low !== null);
  const status = root.querySelector('.board .status');
  if (status) showLow(status, low);
}

/** The waits of the deck's preparation and dealing (spec/game.md §4, §5), done by the machines. */
const DECK_STEPS = new Set(['key', 'shuffle', 'reveal']);

/** @param {any} table @param {[string, string]} names */
function statusText(table, names) {
  const ask = table.ask;
  const them = names[1 - table.seat];
  if (ask) {
    if (ask.kind === 'play') return t('yourTurnPlay');
    if (ask.kind === 'capture') return table.round && table.round.phase === 'draw_capture' ? t('yourTurnDraw') : t('yourTurnCapture');
    if (ask.kind === 'decide') return t('yourTurnDecide');
    if (ask.kind === 'hand_yaku') return t('yourTurnHandYaku');
  }
  if (table.wait && table.wait.seat !== table.seat) {
    // Before the first deal the steps the opponent's machine owes are the deck's keys, its
    // shuffles and the reveals of the first cards (spec/game.md §4, the states preparing, drawing
    // and opening): the cards are being shuffled and dealt, no person is waited for (QA: a bare
    // board said "Waiting for Opponent…" under a 1:00 clock).
    // (Not while our person still has the terms to accept: the host's early keys are no deal yet.)
    if (!table.round && !table.termsProposed && DECK_STEPS.has(table.wait.type)) return t('shufflingWith', { who: them });
    return table.wait.type === 'act' ? t('theirTurn', { who: them }) : t('waitingOpponent', { who: them });
  }
  if (table.wait) return t('shuffling');
  return '';
}

/**
 * The koi-koi question: what each answer scores under these rules.
 * @param {any} table @param {[string, string]} names @param {(o: any) => void} decide @param {() => void} [resign]
 */
export function koikoiDialog(table, names, decide, resign = () => {}) {
  const hint = table.hint;
  const stop = table.ask.options.find((/** @type {any} */ o) => o.type === 'stop');
  const call = table.ask.options.find((/** @type {any} */ o) => o.type === 'koikoi');
  const r = table.round;
  const mine = Object.entries(r.yaku[table.seat]);
  const mult = hint.opponentFactor > 1 ? t('koikoiMult', { m: hint.opponentFactor }) : '';
  return h('div', { class: 'koikoi' }, [
    h('h2', { id: 'dlg-title' }, t('koikoiTitle')),
    h('ul', { class: 'yakulist' }, mine.map(([id, p]) => h('li', {}, `${yakuName(id)} — ${tn('pointsN', p)}`))),
    h('div', { class: 'choices' }, [
      stop ? h('button', { class: 'primary', 'data-key': 's', onclick: () => decide(stop) }, [h('strong', {}, t('stopButton')), h('span', {}, tn('stopWhat', hint.stop))]) : null,
      call ? h('button', { class: 'koikoi-call', 'data-key': 'k', onclick: () => decide(call) }, [
        h('strong', {}, t('koikoiButton')),
        // No card left: no further yaku can come from a call (QA: the line promised one). What the
        // round then gives depends on the rules' end of hands (spec/rules.md §9.6), so no more is said.
        hint.handEmpty ? h('span', { class: 'warn' }, t('koikoiNoCards'))
          : h('span', {}, tn('koikoiWhat', hint.base, { base: hint.base, who: names[1 - table.seat], mult })),
        hint.callsLeft !== null ? h('span', { class: 'muted' }, tn('callsLeftN', hint.callsLeft)) : null,
      ]) : null,
    ]),
    answerClock(table, 'decide'),
    table.canResign ? h('p', { class: 'resignline' }, [h('button', { class: 'resign secondary', onclick: resign }, t('resign'))]) : null,
  ]);
}

/**
 * The words of a claim on the dealt hand: a hand yaku with its points, or (spec/rules.md §5.4,
 * hand_whole_month = redeal) showing a month of four so that the cards are dealt again.
 * @param {string} yaku @param {Record<string, number>} points @param {boolean} monthRedeals
 */
export function claimText(yaku, points, monthRedeals) {
  if (yaku === 'teshi' && monthRedeals && !(yaku in points)) return t('claimHandMonth');
  const n = points[yaku];
  return n === undefined ? t('claimHandYaku', { yaku: yakuName(yaku), n: '?' }) : tn('claimHandYaku', n, { yaku: yakuName(yaku) });
}

/**
 * The dealt-hand yaku question.
 * @param {any} table @param {(o: any) => void} decide
 */
export function handYakuDialog(table, decide) {
  const points = table.handYakuPoints ?? {};
  return h('div', { class: 'koikoi' }, [
    h('h2', { id: 'dlg-title' }, t('yourTurnHandYaku')),
    h('div', { class: 'choices' }, table.ask.options.map((/** @type {any} */ o) => h('button', { class: o.type === 'claim_hand_yaku' ? 'primary' : '', onclick: () => decide(o) },
      o.type === 'claim_hand_yaku' ? claimText(o.yaku, points, !!table.handMonthRedeal) : t('noHandYaku')))),
    answerClock(table, 'decide'),
  ]);
}

/** @param {number} c */
export function cardText(c) {
  return cardName(c);
}

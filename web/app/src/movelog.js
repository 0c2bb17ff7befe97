// The move log: a line per half-turn of the deal in play ("Sakura played Deer, took Maple Plain;
// drew Curtain"), from the history the seat's worker keeps (history.js), in a disclosure the
// player opens on any screen size. Its first line is the first dealer's draw while the match's
// first round is played.
import { h } from './dom.js';
import { cardName, listOf, t, yakuName } from './i18n.js';

/**
 * The text of one half-turn.
 * @param {import('./history.js').HalfTurn} x @param {string} who
 */
export function turnText(x, who) {
  if (x.claim === 'hand_month') return t('logClaimMonth', { who });
  if (x.claim) return t('logClaim', { who, yaku: yakuName(x.claim) });
  let s = x.played !== null ? t('logPlayed', { who, card: cardName(x.played) }) : who;
  if (x.took.length) s += t('logTook', { cards: listOf(x.took.map(cardName)) });
  if (x.drawn !== null) s += t('logDrew', { card: cardName(x.drawn) });
  if (x.drawTook.length) s += t('logTook', { cards: listOf(x.drawTook.map(cardName)) });
  if (x.call === 'koikoi') s += t('logKoikoi');
  if (x.call === 'stop') s += t('logStop');
  return s;
}

/**
 * The first dealer's draw as a sentence.
 * @param {import('./history.js').FirstDraw} first @param {[string, string]} names
 */
export function firstText(first, names) {
  const who = first.dealer === null ? '…' : names[first.dealer];
  if (first.method === 'coin' && first.draws.length === 1) return t('logCoin', { card: cardName(first.draws[0].card), who });
  return t('logFirst', { draws: drawsOf(first, names), who });
}

/**
 * What decided the first dealer, without naming it again (the announcement's title names it).
 * @param {import('./history.js').FirstDraw} first @param {[string, string]} names
 */
export function firstDrawsText(first, names) {
  if (first.method === 'coin' && first.draws.length === 1) return t('logCoinOnly', { card: cardName(first.draws[0].card) });
  return t('logDraws', { draws: drawsOf(first, names) });
}

/** @param {import('./history.js').FirstDraw} first @param {[string, string]} names */
function drawsOf(first, names) {
  return listOf(first.draws.map((d) => t('drewFor', { who: names[d.seat], card: cardName(d.card) })));
}

export class MoveLog {
  constructor() {
    this.list = h('ol', { class: 'loglines' });
    this.summary = h('summary', {}, t('movesTitle', { n: 0 }));
    this.el = /** @type {HTMLDetailsElement} */ (h('details', { class: 'movelog' }, [this.summary, this.list]));
    this.el.addEventListener('toggle', () => {
      this.list.scrollTop = this.list.scrollHeight;
      // On a phone the log opens below its title, under the hand (styles.css: opening upwards it
      // covered the hand, QA); bring it into view.
      if (this.el.open && window.matchMedia?.('(max-width: 699px)').matches) {
        requestAnimationFrame(() => this.list.scrollIntoView({ block: 'nearest' }));
      }
    });
  }

  /** @param {any} table @param {[string, string]} names */
  update(table, names) {
    const hist = table.history;
    const turns = /** @type {import('./history.js').HalfTurn[]} */ (hist && table.round ? hist.turns : []);
    /** @type {HTMLElement[]} */
    const lines = [];
    const first = hist && hist.first && hist.first.draws.length && table.round && table.round.roundIndex === 1 ? hist.first : null;
    if (first) lines.push(h('li', { class: 'first' }, firstText(first, names)));
    // The first-dealer line is not a move: the moves count from 1 after it, as the title counts
    // them (QA: "Moves (3)" listed 2 to 4).
    turns.forEach((x, i) => lines.push(h('li', { class: x.seat === table.seat ? 'mine' : 'theirs', value: first && i === 0 ? 1 : undefined }, turnText(x, names[x.seat]))));
    if (!lines.length) lines.push(h('li', { class: 'muted' }, t('movesNone')));
    this.summary.textContent = t('movesTitle', { n: turns.length });
    this.list.replaceChildren(...lines);
    this.list.scrollTop = this.list.scrollHeight;
  }
}

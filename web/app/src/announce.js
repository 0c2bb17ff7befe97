// Announcements: koi-koi and stop calls, yaku made, a round's end and the first dealer, for both
// seats, in a banner with the yaku and the cards that make them, and in an aria-live region so a
// screen reader hears them too. The banner closes by itself (or on Escape, or at a touch anywhere);
// clicks pass through it, so it never holds the game.
import { CARDS } from '../../src/api/rules.js';
import { h } from './dom.js';
import { cardEl } from './board.js';
import { lang, listOf, t, yakuName } from './i18n.js';
import { tn } from './words.js';
import { firstDrawsText } from './movelog.js';
import { withExtras } from './round_info.js';

const SAKE_CUP = 32;
const BOAR_DEER_BUTTERFLIES = [24, 36, 20];

/**
 * The cards of a pile that make a yaku (by the yaku's definition, spec/rules.md §6).
 * @param {string} id @param {number[]} pile @param {number} month @param {string | null} cupAs how the sake cup counts (table.js)
 */
export function yakuCards(id, pile, month, cupAs) {
  const of = (/** @type {(c: any) => boolean} */ f) => pile.filter((c) => f(CARDS[c]));
  switch (id) {
    case 'goko': case 'shiko': case 'ame_shiko': case 'sanko': return of((c) => c.kind === 'bright');
    case 'hanami': return pile.filter((c) => c === 8 || c === SAKE_CUP);
    case 'tsukimi': return pile.filter((c) => c === 28 || c === SAKE_CUP);
    case 'inoshikacho': return pile.filter((c) => BOAR_DEER_BUTTERFLIES.includes(c));
    case 'akatan': return of((c) => c.subclass === 'poetry');
    case 'aotan': return of((c) => c.subclass === 'blue');
    case 'akatan_aotan': return of((c) => c.subclass === 'poetry' || c.subclass === 'blue');
    case 'tane': return of((c) => c.kind === 'animal' && !(cupAs === 'plain' && c.index === SAKE_CUP));
    case 'tan': return of((c) => c.kind === 'ribbon');
    case 'kasu': return of((c) => c.kind === 'plain' || (cupAs !== null && c.index === SAKE_CUP));
    case 'tsukifuda': return of((c) => c.month === month);
    default: return [];
  }
}

export class Announcer {
  constructor() {
    this.region = h('div', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.banner = h('div', { class: 'announce', hidden: true, 'aria-hidden': 'true' });
    this.el = h('div', { class: 'announcer' }, [this.region, this.banner]);
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.firstShown = false;
    this.onKey = (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Escape') this.hide(); };
    document.addEventListener('keydown', this.onKey);
    // A touch or click anywhere puts the banner away too (QA: on a phone it hid the field for
    // seconds while the person wanted to play); the touch itself still reaches the board.
    this.shownAt = 0;
    this.onPointer = () => { if (!this.banner.hidden && performance.now() - this.shownAt > 300) this.hide(); };
    document.addEventListener('pointerdown', this.onPointer, { capture: true });
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('pointerdown', this.onPointer, { capture: true });
    if (this.timer) clearTimeout(this.timer);
  }

  hide() {
    this.banner.hidden = true;
  }

  /**
   * Say what the new table brings that the previous did not.
   * @param {any} prev @param {any} table @param {[string, string]} names @param {number} ms the motion length
   * @returns {string[]} the kinds announced ('koikoi', 'stop', 'yaku', 'round', 'first')
   */
  update(prev, table, names, ms) {
    const r = table.round;
    const p = prev && prev.round && r && prev.deal === table.deal && prev.round.roundIndex === r.roundIndex ? prev.round : null;
    /** @type {string[]} */ const kinds = [];
    /** @type {{title: string, lines: {text: string, cards: number[]}[]}[]} */ const items = [];
    const cupAs = (/** @type {number} */ s) => (r && r.cupAs ? r.cupAs[s] : null);
    const yakuLines = (/** @type {number} */ s, /** @type {string[]} */ ids, /** @type {Record<string, number>} */ points) => ids.map((id) => ({
      text: `${yakuName(id)} — ${tn('pointsN', points[id] ?? 0)}`,
      cards: withExtras(id, yakuCards(id, r ? r.piles[s] : [], r ? r.month : 0, cupAs(s)), r ? r.piles[s] : [], points[id] ?? 0),
    }));
    const hist = table.history;
    if (!this.firstShown && hist && hist.first && hist.first.dealer !== null && r && r.roundIndex === 1 && (hist.turns ?? []).length === 0) {
      this.firstShown = true;
      kinds.push('first');
      items.push({ title: t('annFirst', { who: names[hist.first.dealer] }), lines: [{ text: firstDrawsText(hist.first, names), cards: hist.first.draws.map((/** @type {any} */ d) => d.card) }] });
    } else if (hist && hist.first && (hist.turns ?? []).length) {
      this.firstShown = true;
    }
    if (p && r) {
      if (r.calls.length > p.calls.length) {
        const s = r.calls[r.calls.length - 1];
        kinds.push('koikoi');
        items.push({ title: t('annKoikoi', { who: names[s] }), lines: yakuLines(s, Object.keys(r.yaku[s]), r.yaku[s]) });
      }
      for (const s of [0, 1]) {
        const fresh = Object.keys(r.yaku[s]).filter((id) => !(id in p.yaku[s]) || r.yaku[s][id] > p.yaku[s][id]);
        if (fresh.length && !kinds.includes('koikoi')) {
          kinds.push('yaku');
          items.push({ title: t('annYaku', { who: names[s], yaku: listOf(fresh.map(yakuName)) }), lines: yakuLines(s, fresh, r.yaku[s]) });
        }
      }
    }
    const last = table.lastRound;
    if (last && (!prev || !prev.lastRound || prev.lastRound.deal !== last.deal) && prev && prev.round) {
      const res = last.result;
      const w = res.winner;
      kinds.push(res.reason === 'stop' ? 'stop' : 'round');
      const title = w === null ? t('roundDraw') : w === table.seat ? tn('roundWinnerYou', res.points) : tn('roundWinner', res.points, { who: names[w] });
      const pile = w !== null && r && r.roundIndex === last.roundIndex ? r.piles[w] : [];
      items.push({
        title: res.reason === 'stop' && w !== null ? `${t('annStop', { who: names[w] })} — ${title}` : `${t('roundOver')} — ${title}`,
        lines: Object.keys(res.yaku).map((id) => ({ text: `${yakuName(id)} — ${tn('pointsN', res.yaku[id])}`, cards: withExtras(id, yakuCards(id, pile, r ? r.month : 0, w !== null ? cupAs(w) : null), pile, res.yaku[id]) })),
      });
    }
    if (items.length) this.#show(items, ms);
    return kinds;
  }

  /**
   * Say `text` to a screen reader only (no banner), where the player is.
   * @param {string} text
   */
  say(text) {
    // A modal dialog makes the rest of the page inert (and unheard): the live region goes where
    // the player is, and is filled a moment after it is placed so that a screen reader hears it.
    const host = document.querySelector('dialog[open]') ?? this.el;
    if (this.region.parentNode !== host) {
      this.region.textContent = '';
      host.append(this.region);
      setTimeout(() => { this.region.textContent = text; }, 60);
    } else {
      this.region.textContent = text;
    }
  }

  /** @param {{title: string, lines: {text: string, cards: number[]}[]}[]} items @param {number} ms */
  #show(items, ms) {
    this.say(items.map((it) => [it.title, ...it.lines.map((l) => l.text)].map(sentence).join(lang() === 'ja' ? '' : ' ')).join(lang() === 'ja' ? '' : ' '));
    this.banner.replaceChildren(...items.map((it) => h('div', { class: 'annitem' }, [
      h('p', { class: 'anntitle' }, it.title),
      ...it.lines.map((l) => h('div', { class: 'annline' }, [h('span', {}, l.text), h('span', { class: 'anncards' }, l.cards.map((c) => cardEl(c, { cls: 'small' })))])),
    ])));
    // Over a summary (a round's or the match's says the same, with the yaku) or a failure the
    // banner would cover it (QA): the live region alone speaks. Over the koi-koi question it
    // still shows the yaku's cards.
    if (document.querySelector('dialog.dlg-round[open], dialog.dlg-over[open], dialog.dlg-failure[open]')) {
      this.hide();
      return;
    }
    this.banner.hidden = false;
    this.shownAt = performance.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), Math.max(2800, Math.min(6 * ms, 12000)));
  }
}

/** A title or line as a sentence of the page's language: its full stop added unless it has one. @param {string} text */
function sentence(text) {
  if (/[.!?。！？…]$/.test(text)) return text;
  return `${text}${lang() === 'ja' ? '。' : '.'}`;
}

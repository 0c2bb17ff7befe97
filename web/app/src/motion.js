// Card motion the chessground way: before the board is redrawn, note where every card is on
// screen (mid-flight cards where they are now, so a new state re-targets them); after, move each
// card from where it was to where the new state put it. The state is final before a card moves
// and nothing waits on an animation: the seat and the page's controls never see it. A played card
// travels from the hand (or the opponent's side), a drawn card turns face up on the stock and
// then lands, captured cards fly to their owner's pile once the card that took them has landed.
// A click or Escape finishes every motion at once; with prefers-reduced-motion cards move
// instantly and the ones that moved are highlighted instead.
import { CARDS } from '../../src/api/rules.js';

/** The motion length in ms (localStorage koikoi.motionMs: tests stretch it; 0 turns motion off). */
export const MOTION_KEY = 'koikoi.motionMs';
const DEFAULT_MS = 420;
const INDEX = new Map(CARDS.map((c) => [c.id, c.index]));

/** @typedef {{cards: Map<number, DOMRect>, zones: Map<number, string>, stock: DOMRect | null, opp: DOMRect | null}} Snapshot */

/** Which part of the board a card is in (a hand, the field, a pile, the drawn card). @param {Element} el */
function zoneOf(el) {
  const z = el.closest('.hand, .field, .captures, .pending');
  return z ? `${z.className}` : '';
}

export function motionMs() {
  let v = NaN;
  try {
    v = Number(localStorage.getItem(MOTION_KEY) ?? NaN);
  } catch { /* no storage: the default */ }
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_MS;
}

export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** @param {Element} el */
function cardOf(el) {
  const id = /** @type {HTMLElement} */ (el).dataset.card;
  return id === undefined ? -1 : INDEX.get(id) ?? -1;
}

export class Motion {
  /** @param {HTMLElement} root the board's container */
  constructor(root) {
    this.root = root;
    /** @type {Animation[]} */
    this.running = [];
    // Skippable: any press on the board (or Escape) finishes what is moving.
    root.addEventListener('pointerdown', () => this.skip(), { capture: true });
    this.onKey = (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Escape') this.skip(); };
    document.addEventListener('keydown', this.onKey);
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
  }

  /** Finish every motion now. */
  skip() {
    for (const a of this.running) {
      try { a.finish(); } catch { /* already gone */ }
    }
    this.running = [];
  }

  /** Whether a card is moving (tests and the screenshots read it). */
  get busy() {
    return this.running.some((a) => a.playState === 'running' || a.playState === 'paused');
  }

  /** Where each card is drawn now. @returns {Snapshot} */
  measure() {
    /** @type {Map<number, DOMRect>} */
    const cards = new Map();
    /** @type {Map<number, string>} */
    const zones = new Map();
    for (const el of Array.from(this.root.querySelectorAll('.board .card[data-card]'))) {
      const c = cardOf(el);
      if (c >= 0) { cards.set(c, el.getBoundingClientRect()); zones.set(c, zoneOf(el)); }
    }
    const rect = (/** @type {string} */ sel) => this.root.querySelector(sel)?.getBoundingClientRect() ?? null;
    // A card from the opponent's hand leaves from its last face-down card; a drawn one from the stock's top.
    return { cards, zones, stock: rect('.stock .card') ?? rect('.stock'), opp: rect('.opphand .card:last-child') ?? rect('.opphand') };
  }

  /**
   * Move the redrawn cards from where the snapshot saw them.
   * @param {Snapshot} before @param {any} prev the previous table @param {any} table the new one
   * @returns {number[]} the cards that moved or appeared
   */
  play(before, prev, table) {
    // The previous motions moved elements the redraw replaced: where they had got to is in `before`.
    for (const a of this.running) a.cancel();
    this.running = [];
    const r = table?.round;
    if (!r) return [];
    const sameDeal = prev && prev.round && prev.deal === table.deal && prev.round.roundIndex === r.roundIndex;
    // Only the half-turns this table adds (or completes) since the previous one say where a card comes from.
    const all = /** @type {import('./history.js').HalfTurn[]} */ (table.history?.turns ?? []);
    const had = /** @type {import('./history.js').HalfTurn[]} */ (sameDeal ? prev.history?.turns ?? [] : []);
    let from0 = 0;
    while (from0 < all.length && from0 < had.length && JSON.stringify(all[from0]) === JSON.stringify(had[from0])) from0++;
    const turns = all.slice(from0);
    /** @type {Map<number, {seat: number, drawn: boolean}>} */ const source = new Map();
    /** @type {Map<number, number>} */ const takenBy = new Map();
    /** @type {Map<number, number[]>} */ const took = new Map();
    for (const x of turns) {
      if (x.played !== null) { source.set(x.played, { seat: x.seat, drawn: false }); took.set(x.played, x.took); for (const c of x.took) takenBy.set(c, x.played); }
      if (x.drawn !== null) { source.set(x.drawn, { seat: x.seat, drawn: true }); took.set(x.drawn, x.drawTook); for (const c of x.drawTook) takenBy.set(c, x.drawn); }
    }
    /** @type {{el: HTMLElement, card: number, from: DOMRect | null, to: DOMRect, flip: boolean, went: boolean}[]} */
    const moves = [];
    for (const el of /** @type {HTMLElement[]} */ (Array.from(this.root.querySelectorAll('.board .card[data-card]')))) {
      const c = cardOf(el);
      if (c < 0) continue;
      const to = el.getBoundingClientRect();
      let from = sameDeal ? before.cards.get(c) ?? null : null;
      let flip = false;
      if (sameDeal && !from) {
        const s = source.get(c);
        if (s && s.drawn) { from = before.stock; flip = true; } else if (s && s.seat !== table.seat) from = before.opp;
      }
      if (from && Math.abs(from.left - to.left) < 1 && Math.abs(from.top - to.top) < 1 && Math.abs(from.width - to.width) < 1) continue;
      moves.push({ el, card: c, from, to, flip, went: !!sameDeal && (!before.zones.has(c) || before.zones.get(c) !== zoneOf(el)) });
    }
    // The cards that changed place (not the ones a redraw merely shifted).
    const moved = moves.filter((m) => m.went).map((m) => m.card);
    const ms = motionMs();
    if (reducedMotion() || ms === 0 || typeof Element.prototype.animate !== 'function') {
      for (const m of moves) if (m.went) m.el.classList.add('moved');
      return moved;
    }
    const D = ms;
    const playedMoves = moves.some((m) => source.has(m.card) && !source.get(m.card)?.drawn);
    const tY = playedMoves ? 0.55 * D : 0;
    const capAt = (/** @type {number} */ taker) => (source.get(taker)?.drawn ? tY + 0.9 * D : 0.55 * D);
    for (const m of moves) {
      const s = source.get(m.card);
      /** @type {Keyframe[]} */ let frames;
      let delay = 0;
      let duration = 0.55 * D;
      const wayCard = (took.get(m.card) ?? [])[0];
      const way = wayCard !== undefined && CARDS[wayCard] ? before.cards.get(wayCard) ?? null : null;
      if (s && s.drawn && m.flip) {
        // Turns face up on the stock (a card-wide flip), then lands (via what it takes).
        delay = tY;
        duration = way ? 1.35 * D : 0.9 * D;
        const at = /** @type {DOMRect} */ (m.from);
        frames = [
          { ...place(at, m.to, 0.05), offset: 0 },
          { ...place(at, m.to), offset: way ? 0.22 : 0.33 },
          ...(way ? [{ ...place(way, m.to), offset: 0.66 }] : []),
          { transform: 'none', offset: 1 },
        ];
      } else if (s && m.from) {
        // A played card (or one drawn before this redraw): to the field, via what it takes.
        delay = s.drawn ? tY : 0;
        duration = way ? D : 0.55 * D;
        frames = [{ ...place(m.from, m.to), offset: 0 }, ...(way ? [{ ...place(way, m.to), offset: 0.55 }] : []), { transform: 'none', offset: 1 }];
      } else if (m.from) {
        const taker = takenBy.get(m.card);
        if (taker !== undefined && r.piles.some((/** @type {number[]} */ p) => p.includes(m.card))) {
          delay = capAt(taker);
          duration = 0.45 * D;
        }
        frames = [{ ...place(m.from, m.to), offset: 0 }, { transform: 'none', offset: 1 }];
      } else {
        // A new deal (or a card with no known origin) appears where it lies.
        frames = [{ opacity: 0, transform: 'scale(.6)', offset: 0 }, { opacity: 1, transform: 'none', offset: 1 }];
      }
      m.el.classList.add('flying');
      const a = m.el.animate(frames, { duration, delay, easing: 'ease-in-out', fill: 'backwards' });
      const done = () => m.el.classList.remove('flying');
      a.addEventListener('finish', done);
      a.addEventListener('cancel', done);
      this.running.push(a);
    }
    return moved;
  }
}

/**
 * A keyframe that draws an element laid out at `to` over the rectangle `at`.
 * @param {DOMRect} at @param {DOMRect} to @param {number} [squeeze] horizontal scale (the flip)
 */
function place(at, to, squeeze = 1) {
  const sx = (at.width / (to.width || 1)) * squeeze;
  const sy = at.height / (to.height || 1);
  const dx = at.left - to.left + (at.width - at.width * squeeze) / 2;
  return { transformOrigin: '0 0', transform: `translate(${dx}px, ${at.top - to.top}px) scale(${sx}, ${sy})` };
}

// The public history of the deal in play, as the page shows it (the move log, the opponent's
// last move, which card was played and which drawn): a mirror engine of the seat fed the game
// peer's events in order (`deal`, `reveal`, `action`, and the first-dealer draw), as
// ai/follow.js feeds a computer. Built in the seat's worker; the table carries the plain result.
// A mirror that disagrees with an event stops until the next deal: the history only describes,
// the seat's own engine decides.
import { RoundState } from '../../src/api/rules.js';

/**
 * One half-turn: the card played and what it took, the card drawn and what it took, and the
 * call that ended it (or a dealt-hand claim, which is a half-turn of its own).
 * @typedef {{seat: 0 | 1, played: number | null, took: number[], drawn: number | null, drawTook: number[],
 *   call: 'koikoi' | 'stop' | null, claim: string | null}} HalfTurn
 * @typedef {{method: string, draws: {seat: 0 | 1, card: number}[], dealer: 0 | 1 | null}} FirstDraw
 * @typedef {{deal: number, turns: HalfTurn[], first: FirstDraw | null}} HistoryTable
 */

export class History {
  /** @param {0 | 1} seat */
  constructor(seat) {
    this.seat = seat;
    /** @type {any} */
    this.profile = null;
    /** @type {RoundState | null} */
    this.engine = null;
    this.deal = -1;
    /** @type {HalfTurn[]} */
    this.turns = [];
    /** @type {FirstDraw | null} */
    this.first = null;
  }

  /** One event of the game peer, in order. @param {{type: string, [key: string]: any}} ev */
  see(ev) {
    try {
      this.#see(ev);
    } catch {
      this.engine = null;
    }
  }

  /** @returns {HistoryTable} */
  table() {
    return { deal: this.deal, turns: this.turns.map((x) => ({ ...x, took: x.took.slice(), drawTook: x.drawTook.slice() })), first: this.first };
  }

  /** @param {{type: string, [key: string]: any}} ev */
  #see(ev) {
    if (ev.type === 'terms') {
      this.profile = ev.terms.profile;
      return;
    }
    if (ev.type === 'first_dealer') {
      if (this.first) this.first.dealer = ev.dealer;
      else this.first = { method: this.#method(), draws: [], dealer: ev.dealer };
      return;
    }
    if (ev.type === 'reveal' && ev.deal === 0) {
      // The first dealer's draw (spec/game.md): by card, pairs of positions 2k (seat 0) and
      // 2k+1 (seat 1); by coin, one card whose parity names the dealer.
      if (!this.first) this.first = { method: this.#method(), draws: [], dealer: null };
      ev.positions.forEach((/** @type {number} */ p, /** @type {number} */ i) => {
        /** @type {FirstDraw} */ (this.first).draws.push({ seat: /** @type {0 | 1} */ (p % 2), card: ev.cards[i] });
      });
      return;
    }
    if (ev.type === 'deal') {
      if (this.profile === null) return;
      this.deal = ev.deal;
      this.turns = [];
      this.engine = new RoundState({ profile: this.profile, dealer: ev.dealer, viewer: this.seat, roundIndex: ev.roundIndex, month: ev.month });
      return;
    }
    const engine = this.engine;
    if (engine === null || ev.deal !== this.deal) return;
    this.#skipHidden();
    if (ev.type === 'reveal') {
      const phase = engine.phase;
      const before = engine.piles.map((p) => p.slice());
      ev.positions.forEach((/** @type {number} */ p, /** @type {number} */ i) => engine.reveal(p, ev.cards[i]));
      const turn = this.turns[this.turns.length - 1];
      if (!turn || (phase !== 'play_reveal' && phase !== 'draw_reveal')) return;
      const card = ev.cards[0];
      const took = gained(before[turn.seat], engine.piles[turn.seat]).filter((c) => c !== card);
      if (phase === 'play_reveal') {
        turn.played = card;
        turn.took = took;
      } else {
        turn.drawn = card;
        turn.drawTook = took;
      }
    } else if (ev.type === 'action') {
      const a = ev.action;
      const seat = /** @type {0 | 1} */ (ev.seat);
      const phase = engine.phase;
      const before = engine.piles[seat].slice();
      engine.apply(seat, a);
      const turn = this.turns[this.turns.length - 1];
      if (a.type === 'play') this.turns.push(newTurn(seat));
      else if (a.type === 'claim_hand_yaku') {
        // spec/rules.md §5.4: with hand_whole_month = redeal the teshi claim shows a month of four for a new deal.
        const month = a.yaku === 'teshi' && engine.profile.hand_whole_month === 'redeal';
        this.turns.push({ ...newTurn(seat), claim: month ? 'hand_month' : a.yaku });
      }
      else if (turn && turn.seat === seat && a.type === 'capture') {
        const took = gained(before, engine.piles[seat]).filter((c) => c !== (phase === 'play_capture' ? turn.played : turn.drawn));
        if (phase === 'play_capture') turn.took = took;
        else turn.drawTook = took;
      } else if (turn && turn.seat === seat && (a.type === 'koikoi' || a.type === 'stop')) turn.call = a.type;
    }
  }

  #method() {
    return this.profile ? String(this.profile.first_dealer ?? 'card_draw') : 'card_draw';
  }

  /** Pass the private reveals meant for the other seat (the peer reports none of them). */
  #skipHidden() {
    const engine = /** @type {RoundState} */ (this.engine);
    while (engine.need !== null && engine.need.type === 'reveal' && engine.need.to !== null && engine.need.to !== this.seat) engine.skipReveal();
  }
}

/** @param {0 | 1} seat @returns {HalfTurn} */
function newTurn(seat) {
  return { seat, played: null, took: [], drawn: null, drawTook: [], call: null, claim: null };
}

/** Cards in `after` that were not in `before`. @param {number[]} before @param {number[]} after */
function gained(before, after) {
  const had = new Set(before);
  return after.filter((c) => !had.has(c));
}

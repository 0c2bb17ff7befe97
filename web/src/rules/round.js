// A round as a state machine seen from one seat (spec/rules.md §9, §10).
//
// Theory of operation. The round always waits for exactly one thing, its `need`: a reveal of
// deck positions (public, or private to one seat) or an action of one kind by one seat. The
// caller feeds reveals with `reveal(position, card)` (or passes a private reveal meant for the
// other seat with `skipReveal()`) and actions with `apply(seat, action)`. Both peers' engines ask
// for the same reveals in the same order whatever each knows (§10.2), so the game flow can decide
// who sends what from public data. Unknown cards are -1. An engine with `viewer = null` is fed
// every reveal (an audit) and checks every rule; one with `viewer = s` cannot check the rules that
// need the other seat's hidden hand (§10.4).
//
// Phases and what each needs:
//   field_reveal      public reveal of the 8 field positions
//   hand0_reveal      private reveal of seat 0's hand to seat 0
//   hand1_reveal      private reveal of seat 1's hand to seat 1
//   hand_yaku         action of the dealer, then of the non-dealer
//   hand_yaku_reveal  public reveal of the claimed positions
//   play              `play` by the seat to move
//   play_reveal       public reveal of the played position
//   play_capture      `capture` by the same seat
//   draw_reveal       public reveal of the next stock position
//   draw_capture      `capture` by the same seat
//   decide            `koikoi` or `stop`
//   over              nothing

import { KOIKOI, NO_HAND_YAKU, STOP, actionText, capture, claimHandYaku, play } from './actions.js';
import { CARDS, monthOf } from './cards.js';
import { dealLayout } from './deal.js';
import { IllegalMove, InconsistentReveal, RulesError } from './errors.js';
import { CLAIM_SIZES, bestClaims, claimHolds } from './handyaku.js';
import { makeResult } from './result.js';
import { roundScore, scorePile } from './scoring.js';

/** @typedef {import('./actions.js').Action} Action */
/** @typedef {import('./actions.js').ClaimHandYaku} ClaimHandYaku */
/** @typedef {import('./profile.js').Profile} Profile */
/** @typedef {import('./result.js').RoundResult} RoundResult */
/** @typedef {import('./deal.js').DealLayout} DealLayout */

/** @typedef {'hand_yaku' | 'play' | 'capture' | 'decide'} ActionKind */
/** @typedef {{readonly type: 'reveal', readonly positions: readonly number[], readonly to: 0 | 1 | null}} NeedReveal */
/** @typedef {{readonly type: 'action', readonly seat: 0 | 1, readonly kind: ActionKind}} NeedAction */
/** @typedef {NeedReveal | NeedAction} Need */

/**
 * @typedef {'field_reveal' | 'hand0_reveal' | 'hand1_reveal' | 'hand_yaku' | 'hand_yaku_reveal' | 'play'
 *   | 'play_reveal' | 'play_capture' | 'draw_reveal' | 'draw_capture' | 'decide' | 'over'} Phase
 */

/** The action kind each action type answers. */
const KIND_OF = {
  claim_hand_yaku: 'hand_yaku', no_hand_yaku: 'hand_yaku', play: 'play', capture: 'capture', koikoi: 'decide', stop: 'decide',
};

/**
 * @param {number} seat
 * @returns {seat is 0 | 1}
 */
const isSeat = (seat) => seat === 0 || seat === 1;

/**
 * Insert into a sorted array of small integers.
 * @param {number[]} arr
 * @param {number} x
 */
function insertSorted(arr, x) {
  let i = arr.length;
  while (i > 0 && arr[i - 1] > x) i--;
  arr.splice(i, 0, x);
}

/**
 * @param {number[]} arr
 * @param {number} x
 */
function remove(arr, x) {
  const i = arr.indexOf(x);
  if (i >= 0) arr.splice(i, 1);
}

/**
 * @typedef {object} RoundView what one seat sees of the round (or everything, for viewer null)
 * @property {0 | 1} seat the seat the view is for
 * @property {0 | 1 | null} viewer the engine's viewer
 * @property {Phase} phase
 * @property {Need | null} need
 * @property {0 | 1} dealer
 * @property {0 | 1} turn the seat to move (or that moved last)
 * @property {number} month
 * @property {number} roundIndex
 * @property {number[]} field field cards, ascending
 * @property {number[]} handPositions deck positions still in the seat's hand
 * @property {number[]} hand the card at each of those positions, -1 where unknown
 * @property {number[]} opponentHandPositions
 * @property {number[]} opponentHand the opponent's hand as this engine knows it, -1 where unknown
 * @property {[number[], number[]]} piles both piles, ascending
 * @property {[Record<string, number>, Record<string, number>]} yaku the yaku of each pile now
 * @property {[number, number]} bases each seat's base as recorded at the end of its last turn
 * @property {number[]} calls the calling seats, in order
 * @property {number} stockCount cards left in the stock
 * @property {number | null} pendingCard the card waiting for a capture choice
 * @property {number[]} captureOptions the field cards it may take
 * @property {Readonly<RoundResult> | null} result
 */

/** The round state machine (spec/rules.md §9). */
export class RoundState {
  /**
   * @param {object} params
   * @param {Profile} params.profile
   * @param {number} params.dealer 0 or 1
   * @param {number | null} params.viewer the seat this engine plays for, or null (sees every reveal)
   * @param {number} params.roundIndex the round of the match, from 1
   * @param {number} params.month 1..12 (spec/rules.md §11.2)
   */
  constructor({ profile, dealer, viewer, roundIndex, month }) {
    if (!isSeat(dealer)) throw new RulesError('bad_seat', 'dealer must be seat 0 or 1');
    if (!(viewer === null || isSeat(viewer))) throw new RulesError('bad_seat', 'viewer must be seat 0, seat 1 or null');
    if (!Number.isInteger(roundIndex) || roundIndex < 1) throw new RulesError('bad_round', 'roundIndex counts from 1');
    if (!Number.isInteger(month) || month < 1 || month > 12) throw new RulesError('bad_month', 'month must be 1..12');
    /** @readonly */ this.profile = profile;
    /** @readonly @type {0 | 1} */ this.dealer = dealer;
    /** @readonly @type {0 | 1 | null} */ this.viewer = viewer;
    /** @readonly */ this.roundIndex = roundIndex;
    /** @readonly */ this.month = month;
    /** @readonly @type {DealLayout} */ this.layout = dealLayout(dealer);
    /** card at each deck position, -1 unknown */
    this.deck = new Int8Array(48).fill(-1);
    /** position of each card, -1 unknown */
    this.where = new Int8Array(48).fill(-1);
    /** @type {[number[], number[]]} deck positions still in each hand */
    this.hands = [this.layout.hands[0].slice(), this.layout.hands[1].slice()];
    /** @type {number[]} field cards, ascending */
    this.field = [];
    /** @type {[number[], number[]]} */
    this.piles = [[], []];
    /** @type {[number, number]} base recorded at the end of each seat's previous turn (§6.8) */
    this.bases = [0, 0];
    /** @type {number[]} */
    this.calls = [];
    this.stockNext = 0;
    /** @type {0 | 1} */
    this.turn = dealer;
    /** card waiting for a capture choice, -1 none */
    this.pending = -1;
    /** @type {number[]} */
    this.options = [];
    /** @type {[ClaimHandYaku | null, ClaimHandYaku | null]} */
    this.claims = [null, null];
    /** @type {Phase} */
    this.phase = 'field_reveal';
    /** @type {Need | null} */
    this.need = null;
    /** positions of the current reveal not yet fed @type {number[]} */
    this.awaiting = [];
    /** @type {Readonly<RoundResult> | null} */
    this.result = null;
    this._askReveal('field_reveal', this.layout.field, null);
  }

  /** An independent copy (for trying an action, or a search). */
  copy() {
    const c = Object.create(RoundState.prototype);
    Object.assign(c, this);
    c.deck = this.deck.slice();
    c.where = this.where.slice();
    c.hands = [this.hands[0].slice(), this.hands[1].slice()];
    c.field = this.field.slice();
    c.piles = [this.piles[0].slice(), this.piles[1].slice()];
    c.bases = [this.bases[0], this.bases[1]];
    c.calls = this.calls.slice();
    c.options = this.options.slice();
    c.claims = [this.claims[0], this.claims[1]];
    c.awaiting = this.awaiting.slice();
    return /** @type {RoundState} */ (c);
  }

  /**
   * A fully known state (viewer null) that agrees with a seat's view and a guess of its hidden
   * cards, for computer players that search (a *determinisation*), as Python's
   * `RoundState.from_view`. `hidden` is every card the view's seat has not seen: the opponent's
   * remaining hand first (one card per position of `view.opponentHandPositions`, in that order),
   * then the stock in draw order. Only play, capture and decide needs can be staged. The state
   * then plays on like any other: `legalActions`, `apply`, reveals from `deck` (`revealKnown`).
   * @param {RoundView} view
   * @param {Profile} profile
   * @param {readonly number[]} hidden
   * @returns {RoundState}
   * @throws {RulesError} `bad_view` for another need, or when `hidden` is not exactly the unseen cards
   */
  static fromView(view, profile, hidden) {
    const need = view.need;
    if (need === null || need.type !== 'action' || !['play', 'capture', 'decide'].includes(need.kind)) {
      throw new RulesError('bad_view', 'only a play, capture or decide need can be staged');
    }
    const seat = view.seat;
    const seen = new Set([...view.hand, ...view.field, ...view.piles[0], ...view.piles[1]]);
    const pendingCard = need.kind === 'capture' ? view.pendingCard : null;
    if (pendingCard !== null) seen.add(pendingCard);
    const opponentPositions = view.opponentHandPositions;
    const n = opponentPositions.length;
    const hiddenSet = new Set(hidden);
    if (view.hand.some((c) => c < 0) || hidden.length !== n + view.stockCount || hiddenSet.size !== hidden.length
        || hidden.some((c) => !Number.isInteger(c) || c < 0 || c > 47 || seen.has(c)) || seen.size + hiddenSet.size !== 48) {
      throw new RulesError('bad_view', 'hidden must be exactly the cards the seat has not seen');
    }
    const state = new RoundState({ profile, dealer: view.dealer, viewer: null, roundIndex: view.roundIndex, month: view.month });
    const stockNext = 24 - view.stockCount;
    const places = [...opponentPositions, ...state.layout.stock.slice(stockNext)];
    /** @type {(p: number, c: number) => void} */
    const place = (p, c) => { state.deck[p] = c; state.where[c] = p; };
    view.handPositions.forEach((p, i) => place(p, view.hand[i]));
    places.forEach((p, i) => place(p, hidden[i]));
    /** @type {[number[], number[]]} */
    const hands = [[], []];
    hands[seat] = view.handPositions.slice();
    hands[1 - seat] = opponentPositions.slice();
    state.hands = hands;
    state.field = view.field.slice().sort((a, b) => a - b);
    state.piles = [view.piles[0].slice().sort((a, b) => a - b), view.piles[1].slice().sort((a, b) => a - b)];
    state.bases = [view.bases[0], view.bases[1]];
    state.calls = view.calls.slice();
    state.stockNext = stockNext;
    state.turn = view.turn;
    state.awaiting = [];
    if (need.kind === 'play') {
      state._askAction('play', need.seat, 'play');
    } else if (need.kind === 'capture') {
      if (pendingCard === null) throw new RulesError('bad_view', 'a capture need without its pending card');
      // The played card's choice comes before the turn's draw: count the draws made so far.
      const played = 16 - view.hand.length - n;
      state.pending = pendingCard;
      state.options = view.captureOptions.slice();
      state._askAction(view.stockCount === 24 - played + 1 ? 'play_capture' : 'draw_capture', need.seat, 'capture');
    } else {
      state._askAction('decide', need.seat, 'decide');
    }
    return state;
  }

  /**
   * Answer the pending reveal from the cards this engine already holds at those positions (the
   * fast path of a simulation over a fully known deck, `fromView`): the same as `reveal(p, deck[p])`
   * for every awaited position. False, and nothing changes, when a position is still unknown.
   * @returns {boolean}
   * @throws {RulesError} `unexpected_reveal` when no reveal is awaited
   */
  revealKnown() {
    const need = this.need;
    if (need === null || need.type !== 'reveal') throw new RulesError('unexpected_reveal', 'no reveal is awaited');
    for (const p of this.awaiting) if (this.deck[p] < 0) return false;
    for (const p of this.awaiting.slice()) this.reveal(p, this.deck[p]);
    return true;
  }

  /** Whether the round is over (then `result` is set and `need` is null). */
  get over() {
    return this.phase === 'over';
  }

  /** Cards left in the stock. */
  get stockCount() {
    return 24 - this.stockNext;
  }

  // ---- reveals (spec/rules.md §10.2) ----

  /**
   * @param {Phase} phase
   * @param {readonly number[]} positions
   * @param {0 | 1 | null} to
   */
  _askReveal(phase, positions, to) {
    this.phase = phase;
    this.need = Object.freeze({ type: 'reveal', positions: Object.freeze(positions.slice()), to });
    this.awaiting = positions.slice();
  }

  /**
   * Feed the card at one awaited position of the current reveal (any order within the need).
   * @param {number} position
   * @param {number} card
   * @throws {RulesError} `unexpected_reveal`
   * @throws {InconsistentReveal} `bad_card`, `reveal_mismatch`, `card_twice`
   * @throws {IllegalMove} `false_hand_yaku` when a claim's revealed cards do not make its yaku
   */
  reveal(position, card) {
    const need = this.need;
    if (need === null || need.type !== 'reveal' || !this.awaiting.includes(position)) {
      throw new RulesError('unexpected_reveal', `position ${position} is not awaited`);
    }
    if (need.to !== null && this.viewer !== null && this.viewer !== need.to) {
      throw new RulesError('unexpected_reveal', 'a private reveal to the other seat: use skipReveal()');
    }
    if (!Number.isInteger(card) || card < 0 || card > 47) throw new InconsistentReveal('bad_card', `${card} is no card index`);
    const known = this.deck[position];
    if (known >= 0 && known !== card) {
      throw new InconsistentReveal('reveal_mismatch', `position ${position} holds ${CARDS[known].id}, not ${CARDS[card].id}`);
    }
    if (known < 0 && this.where[card] >= 0) {
      throw new InconsistentReveal('card_twice', `card ${card} is already at ${this.where[card]}`);
    }
    if (this.phase === 'hand_yaku_reveal' && this.awaiting.length === 1) {
      // spec/rules.md §9.7: the claim is checked once its positions are revealed.
      const claim = /** @type {ClaimHandYaku} */ (this.claims[this.turn]);
      const cards = claim.positions.map((p) => (p === position ? card : this.deck[p]));
      if (!claimHolds(claim.yaku, cards)) throw new IllegalMove('false_hand_yaku', `the revealed cards do not make ${claim.yaku}`);
    }
    this.deck[position] = card;
    this.where[card] = position;
    remove(this.awaiting, position);
    if (this.awaiting.length === 0) this._revealed();
  }

  /**
   * Pass a private reveal this engine may not see: one to the other seat, or any private reveal
   * for an observer without the round keys (viewer null, spec/rules.md §10.1).
   * @throws {RulesError} `unexpected_reveal`
   */
  skipReveal() {
    const need = this.need;
    if (need === null || need.type !== 'reveal' || need.to === null || this.viewer === need.to) {
      throw new RulesError('unexpected_reveal', 'only a private reveal to another seat can be skipped');
    }
    this.awaiting = [];
    this._revealed();
  }

  _revealed() {
    switch (this.phase) {
      case 'field_reveal': {
        for (const p of this.layout.field) insertSorted(this.field, this.deck[p]);
        // spec/rules.md §5.3: a whole month, then four pairs, on the dealt field.
        if (this.profile.field_whole_month === 'redeal' && this._fieldMonthCounts().includes(4)) {
          this._finishRedeal('field_month');
        } else if (this.profile.field_four_pairs === 'redeal' && this._fieldMonthCounts().filter((n) => n === 2).length === 4) {
          this._finishRedeal('field_pairs');
        } else {
          this._askReveal('hand0_reveal', this.layout.hands[0], 0);
        }
        break;
      }
      case 'hand0_reveal':
        this._askReveal('hand1_reveal', this.layout.hands[1], 1);
        break;
      case 'hand1_reveal':
        if (this.profile.hasHandClaims()) {
          this.turn = this.dealer;
          this._askAction('hand_yaku', this.dealer, 'hand_yaku');
        } else {
          this._startTurn(this.dealer);
        }
        break;
      case 'hand_yaku_reveal':
        this._nextHandYakuSeat(this.turn);
        break;
      case 'play_reveal': {
        const p = /** @type {NeedReveal} */ (this.need).positions[0];
        this._resolve(this.deck[p], 'play_capture');
        break;
      }
      case 'draw_reveal': {
        const p = /** @type {NeedReveal} */ (this.need).positions[0];
        this._resolve(this.deck[p], 'draw_capture');
        break;
      }
      default:
        throw new RulesError('unexpected_reveal', `no reveal in phase ${this.phase}`);
    }
  }

  _fieldMonthCounts() {
    const n = new Array(13).fill(0);
    for (const c of this.field) n[monthOf(c)]++;
    return n;
  }

  // ---- actions ----

  /**
   * @param {Phase} phase
   * @param {0 | 1} seat
   * @param {ActionKind} kind
   */
  _askAction(phase, seat, kind) {
    this.phase = phase;
    this.need = Object.freeze({ type: 'action', seat, kind });
    this.awaiting = [];
  }

  /**
   * Whether this engine knows every card still in a seat's hand.
   * @param {number} seat
   */
  knowsHand(seat) {
    for (const p of this.hands[seat]) if (this.deck[p] < 0) return false;
    return true;
  }

  /**
   * Whether a decision of `seat` may still offer KoiKoi (spec/rules.md §9.4).
   * @param {number} seat
   */
  _mayCall(seat) {
    const max = this.profile.max_calls_per_round;
    const made = this.profile.call_limit === 'per_seat' ? this.calls.filter((s) => s === seat).length : this.calls.length;
    if (max > 0 && made >= max) return false;
    if (this.profile.last_turn_stop_only && this.hands[0].length === 0 && this.hands[1].length === 0) return false;
    // §9.4 stop_on_own_last_turn: the seat has played its last hand card.
    if (this.profile.stop_on_own_last_turn && this.hands[seat].length === 0) return false;
    return true;
  }

  /**
   * The legal actions of the seat the round waits for (spec/rules.md §10.3). For a hand this
   * engine cannot see: every unplayed position as a play, and only NoHandYaku for hand yaku.
   * Empty while a reveal is awaited or when the round is over.
   * @returns {Action[]}
   */
  legalActions() {
    const need = this.need;
    if (need === null || need.type !== 'action') return [];
    const seat = need.seat;
    switch (need.kind) {
      case 'hand_yaku': {
        if (!this.knowsHand(seat)) return [NO_HAND_YAKU];
        const claims = bestClaims(this.hands[seat], this.hands[seat].map((p) => this.deck[p]), this.profile);
        if (claims.length === 0) return [NO_HAND_YAKU];
        return claims.map((c) => claimHandYaku(c.yaku, c.positions));
      }
      case 'play': {
        let positions = this.hands[seat];
        if (this.profile.hand_capture === 'compulsory' && this.knowsHand(seat)) {
          const matching = positions.filter((p) => this._matchesField(this.deck[p]));
          if (matching.length > 0) positions = matching;
        }
        return positions.map(play);
      }
      case 'capture':
        return this.options.map(capture);
      default:
        return this._mayCall(seat) ? [STOP, KOIKOI] : [STOP];
    }
  }

  /**
   * @param {number} card
   */
  _matchesField(card) {
    const m = monthOf(card);
    for (const c of this.field) if (monthOf(c) === m) return true;
    return false;
  }

  /**
   * Apply an action of `seat`. The state is unchanged when it raises.
   * @param {number} seat
   * @param {Action} action
   * @throws {IllegalMove} with the reason of spec/rules.md §12
   */
  apply(seat, action) {
    const need = this.need;
    if (need === null) throw new IllegalMove('not_your_turn', 'the round is over');
    if (need.type !== 'action') throw new IllegalMove('not_your_turn', 'the round is waiting for a reveal');
    if (seat !== need.seat) throw new IllegalMove('not_your_turn', `seat ${need.seat} must act, not ${seat}`);
    const type = action && typeof action === 'object' ? action.type : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(KIND_OF, type)) throw new RulesError('bad_action', 'not an action');
    if (KIND_OF[/** @type {keyof typeof KIND_OF} */ (type)] !== need.kind) {
      throw new IllegalMove('wrong_action', `expected ${need.kind}, got ${actionText(action)}`);
    }
    switch (action.type) {
      case 'no_hand_yaku': this._noHandYaku(need.seat); break;
      case 'claim_hand_yaku': this._claimHandYaku(need.seat, action); break;
      case 'play': this._play(need.seat, action.position); break;
      case 'capture': this._capture(need.seat, action.card); break;
      case 'koikoi':
        if (!this._mayCall(need.seat)) throw new IllegalMove('no_call_left', 'no koi-koi call is left in this round');
        this.calls.push(need.seat); // spec/rules.md §9.5
        // §6.4 viewing_by_call: the call itself raises the viewing yaku; that base is recorded, so
        // the rise is not an improvement of a later turn.
        if (this.profile.viewing_by_call) this.bases[need.seat] = scorePile(this.piles[need.seat], this.profile, this.month, true).base;
        this._nextTurn();
        break;
      default:
        this._finishWin(need.seat, 'stop');
    }
  }

  // ---- hand yaku (spec/rules.md §9.7) ----

  /**
   * @param {0 | 1} seat
   */
  _noHandYaku(seat) {
    if (this.knowsHand(seat) && bestClaims(this.hands[seat], this.hands[seat].map((p) => this.deck[p]), this.profile).length > 0) {
      throw new IllegalMove('missed_hand_yaku', 'a dealt hand yaku must be claimed');
    }
    this.claims[seat] = null;
    this._nextHandYakuSeat(seat);
  }

  /**
   * @param {0 | 1} seat
   * @param {ClaimHandYaku} claim
   */
  _claimHandYaku(seat, claim) {
    const points = this.profile.handClaimPoints(claim.yaku);
    if (points === 0) throw new IllegalMove('bad_hand_yaku', `${claim.yaku} is not a hand yaku of this profile`);
    if (!claim.positions.every((p) => this.hands[seat].includes(p))) {
      throw new IllegalMove('not_in_hand', "a claimed position is not in the seat's hand");
    }
    const sizes = /** @type {readonly number[]} */ (CLAIM_SIZES[/** @type {keyof typeof CLAIM_SIZES} */ (claim.yaku)]);
    if (!sizes.includes(claim.positions.length)) {
      throw new IllegalMove('false_hand_yaku', `${claim.yaku} is shown with ${sizes.join(' or ')} cards`);
    }
    const cards = claim.positions.map((p) => this.deck[p]);
    if (cards.every((c) => c >= 0) && !claimHolds(claim.yaku, cards)) {
      throw new IllegalMove('false_hand_yaku', `these cards do not make ${claim.yaku}`);
    }
    if (this.knowsHand(seat)) {
      const best = bestClaims(this.hands[seat], this.hands[seat].map((p) => this.deck[p]), this.profile);
      if (best.length > 0 && best[0].points > points) throw new IllegalMove('lesser_hand_yaku', 'the hand holds a better hand yaku');
    }
    this.claims[seat] = claim;
    this.turn = seat;
    this._askReveal('hand_yaku_reveal', claim.positions, null);
  }

  /**
   * @param {0 | 1} seat the seat that just answered
   */
  _nextHandYakuSeat(seat) {
    if (seat === this.dealer) {
      const other = this.dealer === 0 ? 1 : 0;
      this.turn = other;
      this._askAction('hand_yaku', other, 'hand_yaku');
      return;
    }
    const d = this.claims[this.dealer];
    const n = this.claims[1 - this.dealer];
    if (d === null && n === null) {
      this._startTurn(this.dealer);
    } else if (this.profile.hand_whole_month === 'redeal' && (d?.yaku === 'teshi' || n?.yaku === 'teshi')) {
      // spec/rules.md §5.4: a hand holding a whole month is dealt again, before any hand yaku.
      this._finishRedeal('hand_month');
    } else if (d !== null && n !== null) {
      if (this.profile.hand_yaku_both === 'void_redeal') this._finishRedeal('both_hand_yaku');
      else this._finishHandYaku(this.dealer, d);
    } else if (d !== null) {
      this._finishHandYaku(this.dealer, d);
    } else {
      this._finishHandYaku(/** @type {0 | 1} */ (1 - this.dealer), /** @type {ClaimHandYaku} */ (n));
    }
  }

  // ---- a turn (spec/rules.md §9.2-§9.4) ----

  /**
   * @param {0 | 1} seat
   */
  _startTurn(seat) {
    this.turn = seat;
    this._askAction('play', seat, 'play');
  }

  /**
   * @param {0 | 1} seat
   * @param {number} position
   */
  _play(seat, position) {
    const hand = this.hands[seat];
    if (!hand.includes(position)) throw new IllegalMove('not_in_hand', `position ${position} is not in seat ${seat}'s hand`);
    if (this.profile.hand_capture === 'compulsory' && this.knowsHand(seat)) {
      // spec/rules.md §9.3: a seat holding a card of a field month must play one.
      if (!this._matchesField(this.deck[position]) && hand.some((p) => this._matchesField(this.deck[p]))) {
        throw new IllegalMove('must_capture', 'a hand card matches the field and must be played');
      }
    }
    remove(hand, position);
    this._askReveal('play_reveal', [position], null);
  }

  /**
   * Resolve a played or drawn card against the field (spec/rules.md §9.2).
   * @param {number} card
   * @param {'play_capture' | 'draw_capture'} capturePhase
   */
  _resolve(card, capturePhase) {
    const m = monthOf(card);
    const matches = this.field.filter((c) => monthOf(c) === m);
    const pile = this.piles[this.turn];
    if (matches.length === 2) {
      this.pending = card;
      this.options = matches;
      this._askAction(capturePhase, this.turn, 'capture');
      return;
    }
    if (matches.length === 0) {
      insertSorted(this.field, card);
    } else {
      for (const c of matches) { remove(this.field, c); insertSorted(pile, c); }
      insertSorted(pile, card);
    }
    if (capturePhase === 'play_capture') this._draw();
    else this._endTurn();
  }

  /**
   * @param {0 | 1} seat
   * @param {number} card
   */
  _capture(seat, card) {
    if (!this.options.includes(card)) throw new IllegalMove('bad_capture', `card ${card} is not a capture choice`);
    const pile = this.piles[seat];
    remove(this.field, card);
    insertSorted(pile, card);
    insertSorted(pile, this.pending);
    this.pending = -1;
    this.options = [];
    if (this.phase === 'play_capture') this._draw();
    else this._endTurn();
  }

  _draw() {
    const position = this.layout.stock[this.stockNext];
    this.stockNext++;
    this._askReveal('draw_reveal', [position], null);
  }

  _endTurn() {
    const seat = this.turn;
    const { base } = scorePile(this.piles[seat], this.profile, this.month, this.calls.includes(seat));
    const improved = base > this.bases[seat];
    this.bases[seat] = base;
    if (!improved) {
      this._nextTurn();
    } else if (this.calls.length > 0 && this.profile.after_call === 'next_improvement_ends_round') {
      this._finishWin(seat, 'auto_end');
    } else {
      this._askAction('decide', seat, 'decide');
    }
  }

  _nextTurn() {
    if (this.hands[0].length === 0 && this.hands[1].length === 0) {
      this._exhaustion();
      return;
    }
    this._startTurn(/** @type {0 | 1} */ (1 - this.turn));
  }

  // ---- the end (spec/rules.md §9.6, §9.8) ----

  /**
   * @param {RoundResult} result
   */
  _finish(result) {
    this.result = makeResult(result);
    this.phase = 'over';
    this.need = null;
    this.awaiting = [];
  }

  /**
   * @param {string} reason
   */
  _finishRedeal(reason) {
    this._finish({
      winner: null, points: 0, yaku: {}, base: 0, calls: [], redeal: true, next_dealer: this.dealer,
      reason, consumes_round: this.profile.redeal_consumes_round,
    });
  }

  /**
   * @param {0 | 1} seat
   * @param {string} reason
   */
  _finishWin(seat, reason) {
    const { yaku, base } = scorePile(this.piles[seat], this.profile, this.month, this.calls.includes(seat));
    this._finish({
      winner: seat, points: roundScore(base, this.calls, seat, this.profile), yaku, base, calls: this.calls,
      redeal: false, next_dealer: seat, reason, consumes_round: true,
    });
  }

  /**
   * A hand-yaku win: its points, never multiplied (spec/rules.md §7.3).
   * @param {0 | 1} seat
   * @param {ClaimHandYaku} claim
   */
  _finishHandYaku(seat, claim) {
    const points = this.profile.handYakuPoints(claim.yaku);
    this._finish({
      winner: seat, points, yaku: { [claim.yaku]: points }, base: points, calls: [], redeal: false,
      next_dealer: seat, reason: 'hand_yaku', consumes_round: true,
    });
  }

  _oyaKen() {
    const points = this.profile.oya_ken_points;
    this._finish({
      winner: this.dealer, points, yaku: { oya_ken: points }, base: points, calls: this.calls, redeal: false,
      next_dealer: this.dealer, reason: 'oya_ken', consumes_round: true,
    });
  }

  _exhaustion() {
    const rule = this.profile.exhaustion;
    if (rule === 'oya_ken') {
      this._oyaKen();
    } else if (rule === 'last_caller_scores_else_oya_ken') {
      // spec/rules.md §9.6: the last caller scores if it still has a yaku, else oya-ken.
      const last = this.calls.length > 0 ? this.calls[this.calls.length - 1] : -1;
      if (last >= 0 && scorePile(this.piles[last], this.profile, this.month, true).base > 0) this._finishWin(last === 0 ? 0 : 1, 'exhaustion');
      else this._oyaKen();
    } else {
      const next = this.profile.dealer_after_draw === 'same' ? this.dealer : 1 - this.dealer;
      this._finish({
        winner: null, points: 0, yaku: {}, base: 0, calls: this.calls, redeal: false,
        next_dealer: /** @type {0 | 1} */ (next), reason: 'exhaustion', consumes_round: true,
      });
    }
  }

  // ---- what a seat sees ----

  /**
   * The round as seat `seat` sees it through this engine (default: the viewer, or seat 0). An
   * engine with a viewer shows only its viewer's side; an auditor's (viewer null) either seat's.
   * @param {number | null} [seat]
   * @returns {RoundView}
   */
  view(seat = null) {
    const s = /** @type {0 | 1} */ (seat ?? this.viewer ?? 0);
    if (!isSeat(s)) throw new RulesError('bad_seat', 'seat must be 0 or 1');
    if (this.viewer !== null && s !== this.viewer) throw new RulesError('bad_seat', "this engine only knows its viewer's hand");
    const o = 1 - s;
    return {
      seat: s,
      viewer: this.viewer,
      phase: this.phase,
      need: this.need,
      dealer: this.dealer,
      turn: this.turn,
      month: this.month,
      roundIndex: this.roundIndex,
      field: this.field.slice(),
      handPositions: this.hands[s].slice(),
      hand: this.hands[s].map((p) => this.deck[p]),
      opponentHandPositions: this.hands[o].slice(),
      opponentHand: this.hands[o].map((p) => this.deck[p]),
      piles: [this.piles[0].slice(), this.piles[1].slice()],
      yaku: [scorePile(this.piles[0], this.profile, this.month, this.calls.includes(0)).yaku, scorePile(this.piles[1], this.profile, this.month, this.calls.includes(1)).yaku],
      bases: [this.bases[0], this.bases[1]],
      calls: this.calls.slice(),
      stockCount: this.stockCount,
      pendingCard: this.pending >= 0 ? this.pending : null,
      captureOptions: this.options.slice(),
      result: this.result,
    };
  }

  /**
   * Every card whose position this engine knows.
   * @returns {number[]} ascending card indices
   */
  knownCards() {
    const out = [];
    for (let c = 0; c < 48; c++) if (this.where[c] >= 0) out.push(c);
    return out;
  }
}

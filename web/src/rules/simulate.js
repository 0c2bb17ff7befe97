// Helpers that run rounds on a fully known deck: for tests, vectors, computer players and
// benchmarks. The engine itself never sees a deck; these feed it the reveals it asks for.

import { cardIndex, CARDS } from './cards.js';
import { dealLayout } from './deal.js';
import { RulesError } from './errors.js';
import { RoundState } from './round.js';

/** @typedef {import('./actions.js').Action} Action */
/** @typedef {{seat: 0 | 1, action: Action}} Move */

/**
 * Feed every reveal the round asks for from a known deck, until it needs an action or is over.
 * Private reveals this engine may not see are skipped.
 * @param {RoundState} state
 * @param {ArrayLike<number>} deck card index at each deck position
 */
export function runRevealed(state, deck) {
  let need = state.need;
  while (need !== null && need.type === 'reveal') {
    if (need.to !== null && state.viewer !== null && state.viewer !== need.to) {
      state.skipReveal();
    } else {
      for (const p of need.positions) state.reveal(p, deck[p]);
    }
    need = state.need;
  }
}

/**
 * @callback Chooser
 * @param {RoundState} state
 * @param {Action[]} options the legal actions
 * @returns {Action}
 */

/**
 * Play a round to its end on a known deck, choosing each action with `choose`.
 * @param {RoundState} state
 * @param {ArrayLike<number>} deck
 * @param {Chooser} choose
 * @returns {Move[]} the moves made
 */
export function playRound(state, deck, choose) {
  /** @type {Move[]} */
  const moves = [];
  runRevealed(state, deck);
  while (state.need !== null) {
    const need = state.need;
    if (need.type !== 'action') throw new RulesError('bad_deal', 'a reveal is still awaited');
    const action = choose(state, state.legalActions());
    state.apply(need.seat, action);
    moves.push({ seat: need.seat, action });
    runRevealed(state, deck);
  }
  return moves;
}

/**
 * Replay moves on a known deck.
 * @param {RoundState} state
 * @param {ArrayLike<number>} deck
 * @param {readonly Move[]} moves
 * @throws {RulesError} `extra_moves` when moves remain after the round ended
 */
export function replayRound(state, deck, moves) {
  runRevealed(state, deck);
  for (const m of moves) {
    if (state.need === null) throw new RulesError('extra_moves', 'the round ended before every move was applied');
    state.apply(m.seat, m.action);
    runRevealed(state, deck);
  }
}

/**
 * A deck with the given hands and field (by seat), the stock filled in with the given cards then
 * the remaining cards in index order.
 * @param {number} dealer
 * @param {[ReadonlyArray<number | string>, ReadonlyArray<number | string>]} hands
 * @param {ReadonlyArray<number | string>} field
 * @param {ReadonlyArray<number | string>} [stock]
 * @returns {number[]}
 * @throws {RulesError} `bad_deal`, `unknown_card`, `duplicate_card`
 */
export function arrangedDeck(dealer, hands, field, stock = []) {
  const layout = dealLayout(dealer);
  /** @type {number[]} */
  const deck = new Array(48).fill(-1);
  const used = new Set();
  /**
   * @param {readonly number[]} positions
   * @param {ReadonlyArray<number | string>} refs
   */
  const place = (positions, refs) => {
    if (refs.length > positions.length) throw new RulesError('bad_deal', 'too many cards');
    refs.forEach((ref, i) => {
      const c = cardIndex(ref);
      if (used.has(c)) throw new RulesError('duplicate_card', CARDS[c].id);
      used.add(c);
      deck[positions[i]] = c;
    });
  };
  place(layout.hands[0], hands[0]);
  place(layout.hands[1], hands[1]);
  place(layout.field, field);
  place(layout.stock, stock);
  const rest = CARDS.map((c) => c.index).filter((c) => !used.has(c));
  for (let p = 0; p < 48; p++) if (deck[p] < 0) deck[p] = /** @type {number} */ (rest.shift());
  return deck;
}

/**
 * Count the legal action sequences of each length 1..depth from a state on a known deck
 * (spec/rules.md §13 perft: reveals are not moves; a finished round has no actions).
 * @param {RoundState} state
 * @param {ArrayLike<number>} deck
 * @param {number} depth
 * @returns {number[]} counts[k - 1] for length k
 */
export function perft(state, deck, depth) {
  const counts = new Array(depth).fill(0);
  /**
   * @param {RoundState} s
   * @param {number} d
   */
  const walk = (s, d) => {
    if (d === depth || s.need === null) return;
    const need = /** @type {import('./round.js').NeedAction} */ (s.need);
    const actions = s.legalActions();
    counts[d] += actions.length;
    for (const a of actions) {
      const t = s.copy();
      t.apply(need.seat, a);
      runRevealed(t, deck);
      walk(t, d + 1);
    }
  };
  runRevealed(state, deck);
  walk(state, 0);
  return counts;
}

/**
 * A new round state.
 * @param {import('./profile.js').Profile} profile
 * @param {{dealer?: number, viewer?: number | null, roundIndex?: number, month?: number}} [opts]
 */
export function newRound(profile, { dealer = 0, viewer = null, roundIndex = 1, month = 1 } = {}) {
  return new RoundState({ profile, dealer, viewer, roundIndex, month });
}

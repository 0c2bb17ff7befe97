// The deal layout and the first dealer (spec/rules.md §5.1, §5.2).

import { CARDS, cardIndex } from './cards.js';
import { RulesError } from './errors.js';

/**
 * @typedef {object} DealLayout
 * @property {readonly [readonly number[], readonly number[]]} hands deck positions of seat 0's and seat 1's hand
 * @property {readonly number[]} field the 8 field positions
 * @property {readonly number[]} stock the 24 stock positions, in drawing order
 */

/**
 * @param {number} dealer
 * @returns {DealLayout}
 */
function build(dealer) {
  /** @type {number[]} */ const nonDealer = [];
  /** @type {number[]} */ const field = [];
  /** @type {number[]} */ const dealt = [];
  // spec/rules.md §5.2: four passes of two positions to the non-dealer, two to the field, two to the dealer.
  for (let pass = 0; pass < 4; pass++) {
    const p = pass * 6;
    nonDealer.push(p, p + 1);
    field.push(p + 2, p + 3);
    dealt.push(p + 4, p + 5);
  }
  const stock = Array.from({ length: 24 }, (_, i) => 24 + i);
  const hands = dealer === 0 ? [dealt, nonDealer] : [nonDealer, dealt];
  return Object.freeze({
    hands: /** @type {const} */ ([Object.freeze(hands[0]), Object.freeze(hands[1])]),
    field: Object.freeze(field),
    stock: Object.freeze(stock),
  });
}

const LAYOUTS = [build(0), build(1)];

/**
 * The deck positions of both hands, the field and the stock for a dealer.
 * @param {number} dealer 0 or 1
 * @returns {DealLayout}
 * @throws {RulesError} `bad_seat`
 */
export function dealLayout(dealer) {
  if (dealer !== 0 && dealer !== 1) throw new RulesError('bad_seat', 'dealer must be seat 0 or 1');
  return LAYOUTS[dealer];
}

/** Class order for the `higher_card` tie-break (spec/rules.md §5.1). */
const CLASS_RANK = { bright: 3, animal: 2, ribbon: 1, plain: 0 };

/**
 * The first dealer from one drawn pair (spec/rules.md §5.1): seat 0 drew `card0`, seat 1 `card1`.
 * @param {number | string} card0
 * @param {number | string} card1
 * @param {{first_dealer_tie: string}} profile
 * @returns {0 | 1 | null} the dealer, or null: draw the next pair
 * @throws {RulesError} `unknown_card`, `duplicate_card`
 */
export function firstDealer(card0, card1, profile) {
  const a = CARDS[cardIndex(card0)];
  const b = CARDS[cardIndex(card1)];
  if (a.index === b.index) throw new RulesError('duplicate_card', 'both seats cannot draw the same card');
  if (a.month !== b.month) return a.month < b.month ? 0 : 1;
  if (profile.first_dealer_tie === 'redraw') return null;
  const ra = CLASS_RANK[a.kind];
  const rb = CLASS_RANK[b.kind];
  if (ra === rb) return null;
  return ra > rb ? 0 : 1;
}

/**
 * @typedef {object} FirstDealerStep
 * @property {0 | 1 | null} dealer the first dealer, or null while the revealed cards do not decide
 * @property {number[]} need the deck positions to reveal next (empty once decided)
 */

/**
 * The first dealer under the profile's `first_dealer` switch, from the cards of deal 0 revealed
 * so far (spec/rules.md §5.1): `revealed[i]` is the card at deck position i. A pure function:
 * it names the dealer or asks for the next positions.
 * @param {{first_dealer?: string, first_dealer_tie: string}} profile
 * @param {ReadonlyArray<number | string>} revealed
 * @returns {FirstDealerStep}
 * @throws {RulesError} `bad_draw`: more cards than the decision needs, a repeated card or a non-card
 */
export function chooseFirstDealer(profile, revealed) {
  const bad = (/** @type {string} */ why) => new RulesError('bad_draw', why);
  /** @type {number[]} */
  const cards = [];
  for (const ref of revealed) {
    let c;
    try { c = cardIndex(ref); } catch { throw bad(`${JSON.stringify(ref)} is no card`); }
    if (cards.includes(c)) throw bad(`${CARDS[c].id} revealed twice`);
    cards.push(c);
  }
  const method = profile.first_dealer ?? 'card_draw';
  /** @type {(dealer: 0 | 1 | null, need: number[]) => FirstDealerStep} */
  const step = (dealer, need) => ({ dealer, need });
  if (method === 'host' || method === 'joiner') {
    if (cards.length > 0) throw bad(`${method}: no card is revealed`);
    return step(method === 'host' ? 0 : 1, []);
  }
  if (method === 'coin') {
    if (cards.length === 0) return step(null, [0]);
    if (cards.length > 1) throw bad('the coin is one card');
    return step(cards[0] % 2 === 0 ? 0 : 1, []);
  }
  for (let k = 0; 2 * k + 1 < cards.length; k++) {
    const d = firstDealer(cards[2 * k], cards[2 * k + 1], profile);
    if (d !== null) {
      if (cards.length > 2 * k + 2) throw bad('cards revealed after the deciding pair');
      return step(d, []);
    }
  }
  if (cards.length === 48) return step(cards[0] % 2 === 0 ? 0 : 1, []); // every pair tied: the coin of position 0
  // The next pair; a prefix that ends inside a pair asks for that whole pair, as the reference does.
  const k = Math.floor(cards.length / 2);
  return step(null, [2 * k, 2 * k + 1]);
}

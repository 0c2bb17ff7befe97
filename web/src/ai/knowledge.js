// What one seat may know during a round, read from public state and its own hand only: the
// field, both piles, the calls, its own hand and the cards it has not seen. A player built on this
// never reads the opponent's hand or the deck, so it may be handed any engine (its own seat's, or
// an auditor's in a simulation) without learning more than its seat knows.

import { CARDS, RAIN_MAN, SAKE_CUP, BOAR, DEER, BUTTERFLIES, CHERRY_CURTAIN, FULL_MOON, POETRY_RIBBONS, BLUE_RIBBONS } from '../rules/cards.js';

/** @typedef {import('../rules/round.js').RoundState} RoundState */

/**
 * @typedef {object} SeatKnowledge
 * @property {0 | 1} seat
 * @property {number[]} hand the card at each of `handPositions` (-1 where this engine does not know it)
 * @property {number[]} handPositions the deck positions of the seat's hand
 * @property {number[]} field
 * @property {number[]} myPile
 * @property {number[]} theirPile
 * @property {number} theirHandSize
 * @property {Set<number>} unseen cards in the opponent's hand or the stock, as far as the seat knows
 */

/**
 * The knowledge of `seat` in a round.
 * @param {RoundState} state
 * @param {0 | 1} seat
 * @returns {SeatKnowledge}
 */
export function knowledgeOf(state, seat) {
  const v = state.view(seat);
  const hand = v.hand;
  const seen = new Set([...hand.filter((c) => c >= 0), ...v.field, ...v.piles[0], ...v.piles[1]]);
  if (v.pendingCard !== null) seen.add(v.pendingCard);
  const unseen = new Set();
  for (const c of CARDS) if (!seen.has(c.index)) unseen.add(c.index);
  return {
    seat, hand, handPositions: v.handPositions, field: v.field, myPile: v.piles[seat], theirPile: v.piles[1 - seat],
    theirHandSize: v.opponentHandPositions.length, unseen,
  };
}

/**
 * @typedef {object} Target a step towards a yaku: `need` cards out of `cards`, worth about `points`
 * @property {string} id
 * @property {readonly number[]} cards
 * @property {number} need
 * @property {number} points
 */

/**
 * The yaku targets a profile scores, as card sets (spec/rules.md §6), for distance estimates.
 * @param {import('../rules/profile.js').Profile} profile
 * @param {number} month the round's month
 * @returns {Target[]}
 */
export function targetsOf(profile, month) {
  const byKind = (/** @type {string} */ k) => CARDS.filter((c) => c.kind === k).map((c) => c.index);
  const brights = byKind('bright').filter((c) => c !== RAIN_MAN);
  const plains = byKind('plain');
  if (profile.cup_is_plain) plains.push(SAKE_CUP);
  /** @type {Target[]} */
  const t = [
    { id: 'sanko', cards: brights, need: 3, points: profile.bright_values[3] },
    { id: 'shiko', cards: brights, need: 4, points: profile.bright_values[1] },
    { id: 'inoshikacho', cards: [BOAR, DEER, BUTTERFLIES], need: 3, points: 5 },
    { id: 'akatan', cards: POETRY_RIBBONS, need: 3, points: 5 },
    { id: 'aotan', cards: BLUE_RIBBONS, need: 3, points: 5 },
    { id: 'tane', cards: byKind('animal'), need: 5, points: 1 },
    { id: 'tan', cards: byKind('ribbon'), need: 5, points: 1 },
    { id: 'kasu', cards: plains, need: 10, points: 1 },
  ];
  if (profile.viewing !== 'off') {
    t.push({ id: 'hanami', cards: [SAKE_CUP, CHERRY_CURTAIN], need: 2, points: 5 });
    t.push({ id: 'tsukimi', cards: [SAKE_CUP, FULL_MOON], need: 2, points: 5 });
  }
  if (profile.monthly_yaku_points > 0) {
    t.push({ id: 'tsukifuda', cards: CARDS.filter((c) => c.month === month).map((c) => c.index), need: 4, points: profile.monthly_yaku_points });
  }
  return t;
}

/**
 * Cards still missing for a target, or Infinity when too few of them can still be had.
 * @param {Target} target
 * @param {ReadonlySet<number>} pile
 * @param {ReadonlySet<number>} obtainable cards that may still come to this pile
 */
export function distance(target, pile, obtainable) {
  let have = 0;
  let can = 0;
  for (const c of target.cards) {
    if (pile.has(c)) have++;
    else if (obtainable.has(c)) can++;
  }
  const missing = Math.max(0, target.need - have);
  return missing <= can ? missing : Infinity;
}

/**
 * The smallest number of cards a pile still needs for a yaku it does not have yet.
 * @param {Target[]} targets
 * @param {ReadonlySet<number>} pile
 * @param {ReadonlySet<number>} obtainable
 */
export function nearestYaku(targets, pile, obtainable) {
  let best = Infinity;
  for (const t of targets) {
    const d = distance(t, pile, obtainable);
    if (d > 0 && d < best) best = d;
  }
  return best;
}

/**
 * How much one more card helps a pile towards the yaku it lacks: each target the card belongs
 * to, not yet made and still reachable, adds its points over the cards it still misses.
 * @param {number} card
 * @param {Target[]} targets
 * @param {ReadonlySet<number>} pile
 * @param {ReadonlySet<number>} obtainable
 */
export function usefulness(card, targets, pile, obtainable) {
  let u = 0;
  for (const t of targets) {
    if (!t.cards.includes(card)) continue;
    const d = distance(t, pile, new Set([...obtainable, card]));
    // A made counted yaku still grows by one point per card.
    if (d === 0) u += t.id === 'tane' || t.id === 'tan' || t.id === 'kasu' ? 1 : 0;
    else if (d !== Infinity) u += t.points / d;
  }
  return u;
}

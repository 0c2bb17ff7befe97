// The random player and the greedy rule-based one (Python's strategy.py and greedy.py); players.js
// names them with the others. A module of their own so that utility.js (which plays the greedy
// player in its rollouts) imports nothing that imports master.js: expert.js extends master.js's
// classes when it loads, so a cycle through players.js broke whichever module loaded first.
//
// The greedy player, move by move:
// - hand yaku: a held hand yaku must be claimed (spec/rules.md §9.7); it makes the legal claim.
// - play: every hand card is scored; a card that captures earns the base it adds now (x10),
//   how much the captured cards help its own nearest yaku, and how much taking them denies the
//   opponent's nearest yaku; a card that captures nothing costs what it would give the opponent
//   (and, less, what it would have been worth to itself). The best card is played.
// - capture: the field card worth most by the same measure.
// - decide: Stop when the risk is high (the opponent already has a yaku, or is one card from one,
//   or few cards are left; when the seat leads the match, already when the opponent is two cards
//   from a yaku) or when the round already pays well; otherwise call koi-koi only if its own next
//   yaku is one card away and still obtainable.
// Ties are broken by the seeded random source.

import { KOIKOI, STOP } from '../rules/actions.js';
import { monthOf } from '../rules/cards.js';
import { roundScore, scorePile } from '../rules/scoring.js';
import { knowledgeOf, nearestYaku, targetsOf, usefulness } from './knowledge.js';
import { Rng } from './rng.js';

/** @typedef {import('../rules/round.js').RoundState} RoundState */
/** @typedef {import('../rules/actions.js').Action} Action */
/** @typedef {import('./players.js').MatchContext} MatchContext */

/**
 * The action the round waits for from `seat`, checked to be asked.
 * @param {RoundState} state
 * @param {0 | 1} seat
 */
function legalFor(state, seat) {
  const need = state.need;
  if (need === null || need.type !== 'action' || need.seat !== seat) throw new Error(`seat ${seat} is not asked to act`);
  return state.legalActions();
}

/** A player that picks uniformly among the legal actions. */
export class RandomPlayer {
  /**
   * @param {string | number} seed
   */
  constructor(seed) {
    this.name = 'random';
    this.rng = new Rng(`random-player/${seed}`);
  }

  /**
   * @param {RoundState} state
   * @param {0 | 1} seat
   * @returns {Action}
   */
  choose(state, seat) {
    return this.rng.choice(legalFor(state, seat));
  }
}

/** The greedy rule-based player described at the top of this file. */
export class GreedyPlayer {
  /**
   * @param {string | number} seed
   * @param {{stopAt?: number, random?: {choice: <T>(items: readonly T[]) => T}}} [opts] stopAt: a round
   *   score that is always banked (default 6); random: the source of tie-breaks (default a seeded
   *   Rng; a PyRandom of the same integer seed breaks ties as koikoi_p2p/ai/greedy.py does)
   */
  constructor(seed, { stopAt = 6, random } = {}) {
    this.name = 'greedy';
    this.rng = random ?? new Rng(`greedy-player/${seed}`);
    this.stopAt = stopAt;
  }

  /**
   * @param {RoundState} state
   * @param {0 | 1} seat
   * @param {MatchContext} [context]
   * @returns {Action}
   */
  choose(state, seat, context) {
    const options = legalFor(state, seat);
    if (options.length === 1) return options[0];
    const need = /** @type {import('../rules/round.js').NeedAction} */ (state.need);
    const k = knowledgeOf(state, seat);
    const targets = targetsOf(state.profile, state.month);
    const mine = new Set(k.myPile);
    const theirs = new Set(k.theirPile);
    // Cards that may still reach a pile: the field and everything unseen (own hand for itself).
    const forMe = new Set([...k.unseen, ...k.field, ...k.hand.filter((c) => c >= 0)]);
    const forThem = new Set([...k.unseen, ...k.field]);
    const baseNow = scorePile(k.myPile, state.profile, state.month).base;
    /**
     * Value of taking these cards into the pile.
     * @param {number[]} taken
     */
    const takeValue = (taken) => {
      const gain = scorePile([...k.myPile, ...taken], state.profile, state.month).base - baseNow;
      let v = gain * 10;
      for (const c of taken) v += usefulness(c, targets, mine, forMe) + 0.8 * usefulness(c, targets, theirs, forThem);
      return v;
    };
    switch (need.kind) {
      case 'play':
        return this._best(options, (a) => {
          if (a.type !== 'play') return 0;
          const card = k.hand[k.handPositions.indexOf(a.position)] ?? -1;
          if (card < 0) return 0; // a hand this engine does not see: no preference
          const matches = k.field.filter((c) => monthOf(c) === monthOf(card));
          if (matches.length === 0) {
            return -(0.8 * usefulness(card, targets, theirs, forThem) + 0.3 * usefulness(card, targets, mine, forMe));
          }
          if (matches.length === 2) return Math.max(...matches.map((m) => takeValue([card, m])));
          return takeValue([card, ...matches]);
        });
      case 'capture': {
        const pending = /** @type {number} */ (state.view(seat).pendingCard);
        return this._best(options, (a) => (a.type === 'capture' ? takeValue([pending, a.card]) : 0));
      }
      case 'decide':
        return this._decide(state, seat, k, targets, forMe, forThem, context);
      default:
        return options[0];
    }
  }

  /**
   * @param {RoundState} state
   * @param {0 | 1} seat
   * @param {import('./knowledge.js').SeatKnowledge} k
   * @param {import('./knowledge.js').Target[]} targets
   * @param {Set<number>} forMe
   * @param {Set<number>} forThem
   * @param {MatchContext} [context]
   * @returns {Action}
   */
  _decide(state, seat, k, targets, forMe, forThem, context) {
    const base = scorePile(k.myPile, state.profile, state.month).base;
    const now = roundScore(base, state.calls, seat, state.profile);
    const theirBase = scorePile(k.theirPile, state.profile, state.month).base;
    const threat = nearestYaku(targets, new Set(k.theirPile), forThem);
    const cardsLeft = k.hand.length;
    const ahead = context !== undefined && context.scores[seat] > context.scores[1 - seat];
    const risky = theirBase > 0 || threat <= 1 || cardsLeft <= 2 || (ahead && threat <= 2);
    if (risky || now >= this.stopAt) return STOP;
    const hope = nearestYaku(targets, new Set(k.myPile), forMe);
    return hope <= 1 && cardsLeft >= 3 ? KOIKOI : STOP;
  }

  /**
   * The option with the highest value; ties broken by the seeded source.
   * @param {Action[]} options
   * @param {(a: Action) => number} value
   */
  _best(options, value) {
    let best = -Infinity;
    /** @type {Action[]} */
    let top = [];
    for (const a of options) {
      const v = value(a);
      if (v > best + 1e-9) { best = v; top = [a]; } else if (Math.abs(v - best) <= 1e-9) top.push(a);
    }
    return this.rng.choice(top);
  }
}

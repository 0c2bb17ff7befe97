// The strong player (`--level strong`), a port of koikoi_p2p/ai/strong.py that keeps its policy
// exactly: one ply on yaku value with denial and exposure for plays and captures, koi-koi by
// rollouts of the rest of the round. It draws from PyRandom (CPython's generator), so for the
// same integer seed it makes the same choices as the Python player, tie-breaking jitter and
// rollouts included (web/test/ai/strong_parity.test.js checks it decision by decision).
//
// It reads only what its seat may know: its own hand, the field, both piles, the calls.

import { KOIKOI, STOP } from '../rules/actions.js';
import { monthOf } from '../rules/cards.js';
import { preset } from '../rules/profile.js';
import { Evaluator, familiesFor } from './evaluate.js';
import { PyRandom } from './pyrandom.js';
import { callValue, stopValue } from './rollout.js';

/** @typedef {import('../rules/round.js').RoundState} RoundState */
/** @typedef {import('../rules/actions.js').Action} Action */
/** @typedef {import('../rules/profile.js').Profile} Profile */

/**
 * @typedef {object} SeatView what a computer player reads of the round (a RoundView has it all,
 *   but for `opponentHandSize`, which `seatView` adds)
 * @property {0 | 1} seat
 * @property {readonly number[]} field
 * @property {readonly number[]} hand the seat's cards, in the order of `handPositions`
 * @property {readonly number[]} handPositions
 * @property {number} opponentHandSize
 * @property {readonly [readonly number[], readonly number[]]} piles
 * @property {readonly number[]} calls
 * @property {number} month
 * @property {number | null} pendingCard
 */

/**
 * The seat's view of a round engine, as the computer players read it.
 * @param {RoundState} state
 * @param {0 | 1} seat
 * @returns {SeatView & import('../rules/round.js').RoundView}
 */
export function seatView(state, seat) {
  const v = state.view(seat);
  return { ...v, opponentHandSize: v.opponentHandPositions.length };
}

/**
 * An integer seed for PyRandom from any seed: integers as they are (the same as Python's), text
 * by its UTF-8 bytes read as a big-endian integer.
 * @param {string | number | bigint} seed
 * @returns {number | bigint}
 */
export function integerSeed(seed) {
  if (typeof seed === 'bigint' || (typeof seed === 'number' && Number.isSafeInteger(seed))) return seed;
  let n = 0n;
  for (const b of new TextEncoder().encode(String(seed))) n = (n << 8n) | BigInt(b);
  return n;
}

/** One ply on yaku value with denial and exposure; koi-koi by rollouts (strong.py). */
export class StrongPlayer {
  /**
   * @param {string | number | bigint} seed
   * @param {{profile?: Profile}} [opts] the profile (default nintendo); `choose` follows the round's
   */
  constructor(seed, { profile } = {}) {
    this.name = 'strong';
    /** @type {Profile} */
    this.profile = profile ?? preset('nintendo');
    this.rollouts = 40; // continuations played out per koi-koi decision
    this.callMargin = 0.5; // points a call must be worth above stopping, on average
    this.rescueWeight = 0.5; // weight of taking field cards the opponent could take next
    this.evaluator = new Evaluator(this.profile, familiesFor(this.profile));
    this.random = new PyRandom(integerSeed(seed));
  }

  /**
   * Follow a round played under another profile than the one this player was built for.
   * @param {Profile} profile
   */
  useProfile(profile) {
    if (profile === this.profile) return;
    this.profile = profile;
    this.evaluator = new Evaluator(profile, familiesFor(profile));
  }

  /**
   * @param {RoundState} state
   * @param {0 | 1} seat
   * @returns {Action}
   */
  choose(state, seat) {
    const need = state.need;
    if (need === null || need.type !== 'action' || need.seat !== seat) throw new Error(`seat ${seat} is not asked to act`);
    this.useProfile(state.profile);
    return this.chooseFrom(seatView(state, seat), state.legalActions());
  }

  /**
   * The choice among `options` for a view (strong.py `choose`).
   * @param {SeatView} view
   * @param {readonly Action[]} options
   * @returns {Action}
   */
  chooseFrom(view, options) {
    if (options.length === 0) throw new Error('StrongPlayer needs at least one legal action');
    if (options.length === 1) return options[0];
    this.evaluator.month = view.month;
    const first = options[0];
    if (first.type === 'claim_hand_yaku' || first.type === 'no_hand_yaku') {
      // A hand yaku is points now with no risk: always claim the best one.
      return options.find((o) => o.type === 'claim_hand_yaku') ?? options[0];
    }
    if (first.type === 'koikoi' || first.type === 'stop') return this.decide(view, options);
    if (first.type === 'capture') return argmax(options, this.captureValues(view, options));
    return argmax(options, this.playValues(view, options));
  }

  /**
   * The heuristic worth of each capture option (what it gains, minus what it leaves).
   * @param {SeatView} view
   * @param {readonly Action[]} options
   * @returns {number[]}
   */
  captureValues(view, options) {
    const { mine, theirs } = piles(view);
    const pending = view.pendingCard;
    const ev = this.evaluator;
    return options.map((option) => {
      if (option.type !== 'capture') return -Infinity;
      const take = new Set([option.card]);
      if (pending !== null) take.add(pending);
      let value = ev.gain(mine, theirs, take);
      // The card left behind stays on the field for the opponent.
      const month = monthOf(option.card);
      const left = view.field.filter((c) => monthOf(c) === month && c !== option.card);
      let exposed = 0;
      for (const c of left) exposed += ev.theirGain(mine, theirs, [c]);
      value -= 0.5 * exposed;
      return value + this.random.random() * 1e-6;
    });
  }

  /**
   * The heuristic worth of each play option: captures with denial, exposure of discards.
   * @param {SeatView} view
   * @param {readonly Action[]} options
   * @returns {number[]}
   */
  playValues(view, options) {
    this.evaluator.month = view.month;
    const ev = this.evaluator;
    const { mine, theirs } = piles(view);
    /** @type {Map<number, number>} */
    const hand = new Map();
    view.handPositions.forEach((p, i) => hand.set(p, view.hand[i]));
    const unseen = unseenOf(view);
    return options.map((option) => {
      if (option.type !== 'play' || !hand.has(option.position)) return -Infinity;
      const played = /** @type {number} */ (hand.get(option.position));
      const month = monthOf(played);
      const matches = view.field.filter((c) => monthOf(c) === month);
      let value;
      if (matches.length === 0) {
        // The card lands on the field: worth to the opponent what they can take with it, weighted
        // by the chance they hold (or draw) a card of its month.
        let others = 0;
        for (const c of unseen) if (monthOf(c) === month) others++;
        const chance = Math.min(1.0, others / 3);
        value = -chance * ev.theirGain(mine, theirs, [played]);
        // A pair kept in hand can still take it back next turn.
        let pair = false;
        for (const [p, h] of hand) if (p !== option.position && monthOf(h) === month) pair = true;
        if (pair) value *= 0.5;
        value -= 0.2; // a play that captures nothing wastes a tempo
      } else if (matches.length === 2) {
        value = -Infinity;
        for (const m of matches) {
          const v = ev.gain(mine, theirs, [played, m]) + this.rescue(mine, theirs, [m], unseen);
          if (v > value) value = v;
        }
      } else {
        value = ev.gain(mine, theirs, [played, ...matches]);
        value += this.rescue(mine, theirs, matches, unseen);
      }
      return value + this.random.random() * 1e-6;
    });
  }

  /**
   * Field cards I take are cards the opponent can no longer take on their next turn.
   * @param {ReadonlySet<number>} mine
   * @param {ReadonlySet<number>} theirs
   * @param {readonly number[]} taken
   * @param {readonly number[]} unseen
   */
  rescue(mine, theirs, taken, unseen) {
    let total = 0.0;
    for (const c of taken) {
      const month = monthOf(c);
      let others = 0;
      for (const u of unseen) if (monthOf(u) === month) others++;
      total += Math.min(1.0, others / 3) * this.evaluator.theirGain(mine, theirs, [c]);
    }
    return this.rescueWeight * total;
  }

  /**
   * Koi-koi only when playing on is worth more, on average over rollouts, than the points in
   * hand plus a small margin.
   * @param {SeatView} view
   * @param {readonly Action[]} options
   * @returns {Action}
   */
  decide(view, options) {
    const koi = options.find((o) => o.type === 'koikoi');
    const stop = options.find((o) => o.type === 'stop');
    if (koi === undefined || stop === undefined) return options[0];
    if (view.hand.length === 0) return stop;
    /** @type {import('./rollout.js').Position} */
    const pos = {
      me: view.seat, field: view.field, hand: view.hand.filter((c) => c >= 0), opponentHandSize: view.opponentHandSize,
      piles: view.piles, calls: view.calls, month: view.month,
    };
    const now = stopValue(pos, this.profile);
    const later = callValue(pos, this.profile, this.random, this.rollouts);
    return later > now + this.callMargin ? KOIKOI : STOP;
  }
}

/**
 * The first option of the highest value (values carry a seeded jitter against exact ties).
 * @param {readonly Action[]} options
 * @param {readonly number[]} values
 */
function argmax(options, values) {
  let best = options[0];
  let bestValue = -Infinity;
  options.forEach((o, i) => {
    if (values[i] > bestValue) { best = o; bestValue = values[i]; }
  });
  return best;
}

/** @param {SeatView} view */
function piles(view) {
  return { mine: new Set(view.piles[view.seat]), theirs: new Set(view.piles[1 - view.seat]) };
}

/**
 * The cards the seat has not seen (its hand, the field and the piles excepted), ascending.
 * @param {SeatView} view
 */
function unseenOf(view) {
  const known = new Set([...view.field, ...view.hand, ...view.piles[0], ...view.piles[1]]);
  const out = [];
  for (let c = 0; c < 48; c++) if (!known.has(c)) out.push(c);
  return out;
}

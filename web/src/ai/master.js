// The search player (`--level master`), a port of koikoi_p2p/ai/master.py: determinised
// Monte-Carlo search over the rules engine, deterministic given its seed (the seeded Rng of
// rng.js deals the samples; with no wall-time cap a seed fixes every choice). Given a PyRandom
// of the same integer seed instead, and no match context, it chooses exactly as the Python
// master does (web/test/ai/master_parity.test.js); the match context differs a little, since
// each language measures a profile's spread of round points with its own greedy players.
//
// At a decision it knows what its seat knows (the engine's view of its seat) and the round's
// public history (`observe`). The unseen cards, the opponent's hand and the stock, are dealt at
// random, uniformly over the splits and orders consistent with that (`OpponentReading` drops the
// deals in which the opponent threw a card away while holding a match for the field), and
// `RoundState.fromView` builds each full state. Options are played out with a quick playout
// policy for both seats on the same deals (common random numbers), and outcomes are valued by
// their effect on the match-win chance (utility.js) when the match context is known.
//
// * Koi-koi or stop: koi-koi is played out to the end of the round; Stop is worth exactly its
//   points. The better mean wins.
// * Plays and captures: the strong player's heuristic ranks the options; its favourite is played
//   out on every deal and its best `candidates - 1` rivals by sequential halving, the playouts
//   cut after `horizon` turns and valued by both piles' prospects. A rival replaces the
//   favourite only when its paired gain clears `confidence` standard errors plus `priorBonus`.

import { KOIKOI, STOP, capture, play } from '../rules/actions.js';
import { CARDS, monthOf } from '../rules/cards.js';
import { dealLayout } from '../rules/deal.js';
import { preset } from '../rules/profile.js';
import { RoundState } from '../rules/round.js';
import { roundScore, scorePile } from '../rules/scoring.js';
import { PROMISE, familiesFor } from './evaluate.js';
import { Rng } from './rng.js';
import { StrongPlayer } from './strong.js';
import { MatchUtility } from './utility.js';

/** @typedef {import('../rules/actions.js').Action} Action */
/** @typedef {import('../rules/profile.js').Profile} Profile */
/** @typedef {import('../rules/round.js').RoundView} RoundView */

/** Playouts per decision in play (master.py DEFAULT_SIMULATIONS). */
export const DEFAULT_SIMULATIONS = 1000;
/** And never more than this many seconds per decision (master.py DEFAULT_MAX_SECONDS). */
export const DEFAULT_MAX_SECONDS = 1.0;

/**
 * @typedef {object} MatchContext what both seats know of the match before a round
 * @property {[number, number]} scores seat 0's and seat 1's points (or pools) before the round
 * @property {number} [roundsPlayed] rounds already played (spec/rules.md §11.1)
 * @property {Profile} [profile] the agreed rules
 */

// Rough worth of a card to the playout policy: what it usually brings to a yaku.
/** @type {Record<string, number>} */
const WORTH = { bright: 6.0, animal: 2.0, ribbon: 2.0, plain: 1.0 };
/** @type {Record<string, number>} */
const SPECIAL = {
  '03-curtain': 7.0, '08-moon': 7.0, '09-cup': 5.0, '11-rainman': 3.0, '07-boar': 3.0, '10-deer': 3.0, '06-butterflies': 3.0,
};
const VALUE = CARDS.map((c) => (SPECIAL[c.id] ?? WORTH[c.kind]) + (c.subclass === 'poetry' || c.subclass === 'blue' ? 1.0 : 0.0));
const PLAYS = Array.from({ length: 48 }, (_, p) => play(p));
const CAPTURES = Array.from({ length: 48 }, (_, c) => capture(c));

/** How a round outcome (points to me, negative: to the opponent) counts in the search. */
class Worth {
  /** @param {MatchUtility | null} utility */
  constructor(utility) {
    /** @type {(points: number) => number} */
    this.of = utility === null ? (x) => x : (x) => utility.value(x);
    this.slope = utility === null ? 1.0 : utility.slope;
  }
}

/**
 * The yaku both piles are building, in points: the strong player's promise as card-membership
 * tables, for the end of a playout cut short (master.py `Prospects`).
 */
export class Prospects {
  /** @param {Profile} profile */
  constructor(profile) {
    this.families = familiesFor(profile).map((f) => {
      const member = new Uint8Array(48);
      for (const c of f.cards) member[c] = 1;
      return { member, need: f.need, points: f.points, size: f.cards.size };
    });
  }

  /**
   * @param {readonly number[]} mine
   * @param {readonly number[]} theirs
   */
  promise(mine, theirs) {
    let total = 0.0;
    for (const { member, need, points, size } of this.families) {
      let t = 0;
      for (const c of theirs) t += member[c];
      if (size - t < need) continue; // the other pile holds too many of its cards: dead
      let m = 0;
      for (const c of mine) m += member[c];
      const missing = need - m;
      total += missing <= 0 ? 0.3 : points * PROMISE[Math.min(missing, PROMISE.length - 1)];
    }
    return total;
  }

  /**
   * @param {RoundState} state
   * @param {0 | 1} me
   */
  difference(state, me) {
    const mine = state.piles[me];
    const theirs = state.piles[1 - me];
    return this.promise(mine, theirs) - this.promise(theirs, mine);
  }
}

/**
 * What the opponent's discards say about its hand, from the round's public history (master.py
 * `OpponentReading`). A player who throws a card onto the field while a card of its hand matches
 * a field month gives that card away for nothing; people and every computer player here capture
 * when they can (under `hand_capture = compulsory` it is the rule, spec/rules.md §9.3). So after
 * each of the opponent's discards its hand holds no card of a month then on the field, and since
 * a hand only shrinks, it still holds none. A belief used to deal the unseen cards; a board that
 * contradicts it drops it.
 */
export class OpponentReading {
  constructor() {
    /** @type {string | null} */
    this.deal = null;
    /** months the opponent's hand cannot hold */
    this.months = new Set();
    /** @type {number[] | null} the field when the opponent's play was waiting for its reveal */
    this.playField = null;
  }

  /** @param {RoundView} view */
  observe(view) {
    const deal = `${view.roundIndex}/${view.dealer}`;
    if (deal !== this.deal) { // a new deal (a redeal ends before any play, so nothing is lost)
      this.deal = deal; this.months = new Set(); this.playField = null;
    }
    const need = view.need;
    const opponent = 1 - view.seat;
    if (need !== null && need.type === 'reveal' && need.to === null && need.positions.length === 1
        && view.turn === opponent && dealLayout(view.dealer).hands[opponent].includes(need.positions[0])) {
      this.playField = view.field.slice(); // the opponent played: its card is revealed next
      return;
    }
    if (this.playField !== null) {
      const before = this.playField;
      this.playField = null;
      const now = new Set(view.field);
      const added = view.field.filter((c) => !before.includes(c));
      if (before.every((c) => now.has(c)) && added.length === 1) {
        // The played card joined the field: nothing in the hand matched it.
        for (const c of before) this.months.add(monthOf(c));
      }
    }
  }

  /**
   * Cards the opponent's hand cannot hold this deal (none before any discard).
   * @param {RoundView} view
   * @returns {Set<number>}
   */
  excluded(view) {
    const out = new Set();
    if (this.deal !== `${view.roundIndex}/${view.dealer}`) return out;
    for (let c = 0; c < 48; c++) if (this.months.has(monthOf(c))) out.add(c);
    return out;
  }
}

/**
 * Play the round on with the playout policy; the points to `me` (negative: lost). For both seats:
 * play the hand card whose capture is worth most (its worth plus that of the best field card it
 * takes), or, with no capture, throw the least valuable card; take the more valuable of two field
 * cards; stop at the first yaku. With compulsory capture (§9.3) a capturing card always outranks
 * a throw, so the play is legal. With a `horizon` (and `prospects`), a round still running when
 * that many more turns have begun is worth the difference of the two piles' prospects.
 * @param {RoundState} state a fully known state (fromView)
 * @param {0 | 1} me
 * @param {number} [horizon]
 * @param {Prospects | null} [prospects]
 * @param {boolean} [yakuPlayouts] also weigh the base a capture adds (master.py `yaku_playouts`)
 */
export function playout(state, me, horizon = 0, prospects = null, yakuPlayouts = false) {
  let turns = 0;
  let mover = state.turn;
  const month = state.month;
  const profile = state.profile;
  while (state.result === null) {
    const need = /** @type {import('../rules/round.js').Need} */ (state.need);
    if (need.type === 'reveal') {
      if (!state.revealKnown()) throw new Error('a playout needs a fully known deal (RoundState.fromView)');
      continue;
    }
    const seat = need.seat;
    if (need.kind === 'play') {
      if (seat !== mover) {
        mover = seat;
        turns++;
        if (turns === horizon && prospects !== null) return prospects.difference(state, me);
      }
      const field = state.field;
      let bestP = -1;
      let bestV = -1e9;
      for (const p of state.hands[seat]) {
        const c = state.deck[p];
        const m = monthOf(c);
        let top = -1;
        /** @type {number[]} */
        const matches = [];
        for (const f of field) if (monthOf(f) === m) { matches.push(f); if (VALUE[f] > top) top = VALUE[f]; }
        let v = matches.length ? VALUE[c] + top : -0.5 * VALUE[c];
        if (matches.length && yakuPlayouts) {
          const pile = state.piles[seat];
          v += 10.0 * (scorePile([...pile, c, ...matches], profile, month).base - scorePile(pile, profile, month).base);
        }
        if (v > bestV) { bestP = p; bestV = v; }
      }
      state.apply(seat, PLAYS[bestP]);
    } else if (need.kind === 'capture') {
      const [a, b] = state.options;
      state.apply(seat, CAPTURES[VALUE[b] > VALUE[a] ? b : a]);
    } else {
      state.apply(seat, STOP);
    }
  }
  const result = state.result;
  if (result.winner === null) return 0.0;
  return result.winner === me ? result.points : -result.points;
}

/**
 * The cards a view's seat has not seen, ascending.
 * @param {RoundView} view
 */
function unseenOf(view) {
  const seen = new Set([...view.hand, ...view.field, ...view.piles[0], ...view.piles[1]]);
  if (view.pendingCard !== null) seen.add(view.pendingCard);
  const out = [];
  for (let c = 0; c < 48; c++) if (!seen.has(c)) out.push(c);
  return out;
}

/** Determinised search under a playout budget; `seed` makes every decision reproducible. */
export class MasterPlayer {
  /**
   * @param {string | number} seed
   * @param {object} [opts]
   * @param {Profile} [opts.profile] default nintendo; a round under another profile switches to it
   * @param {number} [opts.simulations] playouts per decision
   * @param {number | null} [opts.maxSeconds] wall-time cap per decision (null: none, so a seed fixes every choice)
   * @param {number} [opts.candidates]
   * @param {number} [opts.priorBonus]
   * @param {boolean} [opts.matchAware]
   * @param {number} [opts.horizon]
   * @param {boolean} [opts.yakuPlayouts]
   * @param {number} [opts.confidence]
   * @param {() => number} [opts.now] the clock in milliseconds (injected: the core does no I/O)
   * @param {{shuffle: <T>(items: T[]) => T[]}} [opts.random] the source of the sampled deals (default
   *   the seeded Rng; a PyRandom of the same integer seed deals exactly as the Python master does)
   */
  constructor(seed, {
    profile, simulations = DEFAULT_SIMULATIONS, maxSeconds = DEFAULT_MAX_SECONDS, candidates = 4, priorBonus = 0.2,
    matchAware = true, horizon = 4, yakuPlayouts = false, confidence = 1.0, now = () => performance.now(), random,
  } = {}) {
    if (!(Number.isInteger(simulations) && simulations >= 1)) throw new RangeError('simulations must be at least 1');
    this.name = 'master';
    this.seed = seed;
    /** @type {Profile} */
    this.profile = profile ?? preset('nintendo');
    this.budget = { simulations, maxSeconds };
    this.candidates = candidates;
    this.priorBonus = priorBonus;
    this.matchAware = matchAware;
    this.horizon = horizon;
    this.yakuPlayouts = yakuPlayouts;
    this.confidence = confidence;
    this.now = now;
    this.rng = random ?? new Rng(`master-player/${seed}`);
    this.prior = new StrongPlayer(seed, { profile: this.profile });
    this.prospects = new Prospects(this.profile);
    /** @type {MatchContext | null} */
    this.context = null;
    this.reading = new OpponentReading();
    /** playouts run so far (for budgets and benchmarks) */
    this.playouts = 0;
  }

  /**
   * Follow the round's public history: every view of this seat after a public change, in order.
   * @param {RoundView} view
   */
  observe(view) {
    this.reading.observe(view);
  }

  /**
   * The match context before a round (scores, rounds played, the profile).
   * @param {MatchContext} context
   */
  matchUpdate(context) {
    this.context = context;
    this.reading = new OpponentReading();
    if (context.profile !== undefined) this.useProfile(context.profile);
  }

  /** @param {Profile} profile */
  useProfile(profile) {
    if (profile === this.profile || profile.equals(this.profile)) return;
    this.profile = profile;
    this.prior = new StrongPlayer(this.seed, { profile });
    this.prospects = new Prospects(profile);
  }

  /**
   * @param {RoundState} state this seat's engine (or an auditor's: only the seat's view is read)
   * @param {0 | 1} seat
   * @param {MatchContext} [context] the match so far, if the caller did not say it by `matchUpdate`
   * @returns {Action}
   */
  choose(state, seat, context) {
    const need = state.need;
    if (need === null || need.type !== 'action' || need.seat !== seat) throw new Error(`seat ${seat} is not asked to act`);
    if (context !== undefined) this.context = { ...this.context, ...context };
    this.useProfile(state.profile);
    return this.chooseFrom(state.view(seat), state.legalActions());
  }

  /**
   * @param {RoundView} view
   * @param {readonly Action[]} options
   * @returns {Action}
   */
  chooseFrom(view, options) {
    if (options.length === 0) throw new Error('MasterPlayer needs at least one legal action');
    if (options.length === 1) return options[0];
    const first = options[0];
    // Claims are compulsory and only the best ones are offered (spec/rules.md §9.7).
    if (first.type === 'claim_hand_yaku' || first.type === 'no_hand_yaku') return first;
    const need = view.need;
    if (need === null || need.type !== 'action' || need.seat !== view.seat) return first;
    const worth = this.worth(view);
    if (need.kind === 'decide') return this.decide(view, options, worth);
    return this.search(view, options, worth);
  }

  /**
   * How round outcomes count: plain points, or the match-win estimate with a context.
   * @param {RoundView} view
   */
  worth(view) {
    const ctx = this.context;
    if (ctx === null || !this.matchAware) return new Worth(null);
    const seat = view.seat;
    return new Worth(new MatchUtility(this.profile, {
      mine: ctx.scores[seat], theirs: ctx.scores[1 - seat], roundsPlayed: ctx.roundsPlayed ?? 0,
    }));
  }

  /** @returns {number | null} the deadline of this decision, in the clock's milliseconds */
  deadline() {
    const cap = this.budget.maxSeconds;
    return cap === null ? null : this.now() + cap * 1000;
  }

  /**
   * @param {RoundView} view
   * @param {readonly Action[]} options
   * @param {Worth} worth
   * @returns {Action}
   */
  decide(view, options, worth) {
    const koi = options.find((o) => o.type === 'koikoi');
    if (koi === undefined) return STOP;
    const me = view.seat;
    const base = scorePile(view.piles[me], this.profile, view.month, view.calls.includes(me)).base;
    const stop = worth.of(roundScore(base, view.calls, me, this.profile));
    const deadline = this.deadline();
    let total = 0.0;
    let n = 0;
    for (const state of this.deals(view, this.budget.simulations)) {
      state.apply(me, KOIKOI);
      total += worth.of(playout(state, me, 0, null, this.yakuPlayouts));
      n++;
      this.playouts++;
      if (deadline !== null && this.now() > deadline) break;
    }
    return n && total / n > stop ? KOIKOI : STOP;
  }

  /**
   * The heuristic's favourite, unless a challenger beats it clearly on shared deals: the favourite
   * (the strong player's choice) is played out on every deal, its best few rivals by sequential
   * halving, each round on fresh deals, the weaker half dropped after each round (by their mean
   * gain over the favourite on the same deals). The last rival replaces the favourite only when
   * its paired gain exceeds `confidence` standard errors plus `priorBonus` points.
   * @param {RoundView} view
   * @param {readonly Action[]} options
   * @param {Worth} worth
   * @returns {Action}
   */
  search(view, options, worth) {
    const sv = { ...view, opponentHandSize: view.opponentHandPositions.length };
    this.prior.evaluator.month = view.month;
    const prior = options[0].type === 'capture' ? this.prior.captureValues(sv, options) : this.prior.playValues(sv, options);
    const order = options.map((_, i) => i).sort((a, b) => prior[b] - prior[a]);
    const alive = order.slice(0, Math.max(1, this.candidates));
    if (alive.length === 1) return options[alive[0]];
    const favourite = alive[0];
    let rivals = alive.slice(1);
    const me = view.seat;
    const budget = this.budget.simulations;
    const perRound = Math.floor(budget / (bitLength(rivals.length - 1) + 1));
    /** @type {Map<number, number[]>} */
    const values = new Map(alive.map((i) => [i, []]));
    let used = 0;
    const deadline = this.deadline();
    const late = () => deadline !== null && this.now() > deadline;
    const favValues = /** @type {number[]} */ (values.get(favourite));
    /** @param {number} i */
    const gain = (i) => {
      const mine = /** @type {number[]} */ (values.get(i));
      if (!mine.length) return 0;
      let a = 0;
      let b = 0;
      for (let k = 0; k < mine.length; k++) { a += mine[k]; b += favValues[k]; }
      return a / mine.length - b / mine.length;
    };
    for (;;) {
      const group = [favourite, ...rivals];
      const n = Math.max(1, Math.floor(perRound / group.length));
      for (const root of this.deals(view, n)) {
        if (used + group.length > budget) break;
        for (const i of group) {
          const state = root.copy();
          state.apply(me, options[i]);
          /** @type {number[]} */ (values.get(i)).push(worth.of(playout(state, me, this.horizon, this.prospects, this.yakuPlayouts)));
        }
        used += group.length;
        this.playouts += group.length;
        if (late()) break;
      }
      const gains = new Map(rivals.map((i) => [i, gain(i)]));
      rivals.sort((a, b) => /** @type {number} */ (gains.get(b)) - /** @type {number} */ (gains.get(a)));
      if (rivals.length === 1 || used + 2 > budget || late()) break;
      rivals = rivals.slice(0, Math.floor((rivals.length + 1) / 2));
    }
    const best = rivals[0];
    const bestValues = /** @type {number[]} */ (values.get(best));
    const diffs = bestValues.map((v, k) => v - favValues[k]);
    if (diffs.length < 2) return options[favourite];
    const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
    const variance = diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / (diffs.length - 1);
    const margin = this.confidence * Math.sqrt(variance / diffs.length) + this.priorBonus * worth.slope;
    return mean > margin ? options[best] : options[favourite];
  }

  /**
   * `count` full states, the unseen cards dealt uniformly at random (the seeded source) among the
   * deals that agree with what the opponent's discards told.
   * @param {RoundView} view
   * @param {number} count
   * @returns {Generator<RoundState>}
   */
  *deals(view, count) {
    const unseen = unseenOf(view);
    const n = view.opponentHandPositions.length;
    const excluded = this.reading.excluded(view);
    let allowed = unseen.filter((c) => !excluded.has(c));
    /** @type {number[]} */
    let rest = unseen.filter((c) => excluded.has(c));
    if (allowed.length < n) { // the reading contradicts the board (an unusual opponent): drop it
      allowed = unseen;
      rest = [];
    }
    for (let k = 0; k < count; k++) {
      const pick = this.rng.shuffle(allowed.slice());
      const stock = this.rng.shuffle([...pick.slice(n), ...rest]);
      yield RoundState.fromView(view, this.profile, [...pick.slice(0, n), ...stock]);
    }
  }
}

/** @param {number} x a non-negative integer */
function bitLength(x) {
  return x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1;
}

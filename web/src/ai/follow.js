// What a computer seat is told as a networked match goes, from the game peer's events (a mirror of
// the Python driver's `_MatchFollower`, koikoi_p2p/net/match.py): the match context before each
// decision (the agreed profile, the scores, the rounds played) and, for a player that follows the
// round's public history (`observe`, the master's reading of discards), its seat's view after
// every public change. The peer reports events after it has moved on, so the follower keeps its
// own engine of the seat, fed by the `deal`, `reveal` and `action` events (spec/game.md; the
// reveals meant for the other seat carry no event and are skipped). A mirror that disagrees
// with an event stops following: the reading is a belief, never needed for a legal move.

import { RoundState } from '../rules/round.js';

/** @typedef {import('./players.js').Player} Player */
/** @typedef {import('./players.js').MatchContext} MatchContext */

export class RoundFollower {
  /**
   * @param {Player} player
   * @param {0 | 1} seat
   */
  constructor(player, seat) {
    this.player = player;
    this.seat = seat;
    /** @type {import('../rules/profile.js').Profile | null} */
    this.profile = null;
    /** @type {RoundState | null} */
    this.engine = null;
    this.deal = -1;
  }

  /**
   * The match context of a flow (its match tally and the agreed profile), for `choose`.
   * @param {{match: {scores: [number, number], roundsPlayed: number} | null} | null | undefined} flow
   * @param {import('../rules/profile.js').Profile} profile
   * @returns {MatchContext | undefined}
   */
  static context(flow, profile) {
    const match = flow?.match;
    return match ? { scores: match.scores, roundsPlayed: match.roundsPlayed, profile } : undefined;
  }

  /**
   * One event of the game peer, in order.
   * @param {{type: string, [key: string]: any}} ev
   */
  see(ev) {
    if (!this.player.observe) return;
    try {
      this.#see(ev);
    } catch {
      this.engine = null; // out of step with the peer: follow again from the next deal
    }
  }

  /** @param {{type: string, [key: string]: any}} ev */
  #see(ev) {
    if (ev.type === 'terms') {
      this.profile = ev.terms.profile;
      return;
    }
    if (ev.type === 'deal') {
      if (this.profile === null) return;
      this.deal = ev.deal;
      this.engine = new RoundState({ profile: this.profile, dealer: ev.dealer, viewer: this.seat, roundIndex: ev.roundIndex, month: ev.month });
      this.#show();
      return;
    }
    const engine = this.engine;
    if (engine === null || ev.deal !== this.deal) return;
    if (ev.type === 'reveal') {
      this.#skipHidden();
      ev.positions.forEach((/** @type {number} */ p, /** @type {number} */ i) => engine.reveal(p, ev.cards[i]));
      this.#show();
    } else if (ev.type === 'action') {
      this.#skipHidden();
      engine.apply(ev.seat, ev.action);
      if (ev.seat !== this.seat && engine.result === null) this.#show();
    }
  }

  /** Pass the private reveals meant for the other seat (the peer reports none of them). */
  #skipHidden() {
    const engine = /** @type {RoundState} */ (this.engine);
    while (engine.need !== null && engine.need.type === 'reveal' && engine.need.to !== null && engine.need.to !== this.seat) engine.skipReveal();
  }

  #show() {
    const engine = /** @type {RoundState} */ (this.engine);
    this.#skipHidden();
    if (engine.result === null) this.player.observe?.(engine.view(this.seat));
  }
}

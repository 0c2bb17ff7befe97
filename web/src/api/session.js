// The embedding API of one seat (the JavaScript twin of koikoi_p2p.net.match.Match): an async
// iterator of events over any transport, and the verbs that answer them (decide, decideTerms,
// resign). Underneath it runs the journaled game peer (protocol/journal.js): every input is saved
// to the store before the frames it caused leave (spec/protocol.md §12.3), so a crashed seat is
// rebuilt by `Match.resume` and sends exactly what it sent before. Both deadlines of the terms
// are kept (spec/game.md §7.1, spec/protocol.md §12.4): the opponent's (then we sign an
// abandonment claim) and our own, less a margin (then no more input is taken: `time_up`).
import { JOURNAL_VERSION, Journal } from '../protocol/journal.js';
import { LocalError } from '../protocol/errors.js';
import { actionFromDict } from '../rules/actions.js';
import { RelayClosed } from '../net/relay_client.js';
import { peerHoldsSession } from '../net/rendezvous.js';
import { claimHold } from '../net/match.js';
import { systemRandom } from '../mentalpoker/rng.js';
import { PLAYER_KINDS, createPlayer } from '../ai/players.js';
import { RoundFollower } from '../ai/follow.js';
import { Profile, preset, withRounds } from '../rules/profile.js';
import { Identity } from '../protocol/identity.js';
import { fromHex, toHex } from '../bytes.js';

/**
 * @typedef {import('../rules/actions.js').Action} Action
 * @typedef {import('../rules/round.js').RoundView} RoundView
 * @typedef {import('../rules/result.js').RoundResult} RoundResult
 * @typedef {import('../protocol/terms.js').Terms} Terms
 * @typedef {import('./stores.js').MatchStore} MatchStore
 * @typedef {import('./stores.js').SavedInput} SavedInput
 */

/**
 * What a match runs over: frames in order, both ways. The relay helpers (`hostRoom`, `joinRoom`)
 * return one with the retransmission link; the optional members are that link's (spec/protocol.md
 * §12.1, §12.2) and a plain transport leaves them out.
 * @typedef {{send: (data: Uint8Array) => void, receive: () => Promise<Uint8Array>, close?: () => Promise<void>,
 *   onRestart?: () => void, onConnect?: () => void, bind?: (sessionId: Uint8Array) => void, peerBound?: () => void,
 *   vouch?: () => void, reject?: () => void, confirm?: () => void, setLivenessKey?: (key: Uint8Array) => void}} Transport
 *   `confirm` is called after each frame taken, once what it changed is saved: a link that waits
 *   for it acknowledges only frames that survive a crash (spec/protocol.md §12.1 rule 3, §12.3).
 */

/**
 * The events of `Match.events()`, in the order the match produces them (the Python `Event`s).
 * @typedef {{type: 'paired', seat: 0 | 1, sas: string | null, fingerprints: string[], names: string[],
 *   peerFingerprint: string, peerName: string}} PairedEvent
 *   The handshake is done: whom we play (compare `sas` aloud when the room has no password).
 * @typedef {{type: 'terms_proposed', terms: Terms}} TermsProposedEvent  Seat 1: answer with `decideTerms`.
 * @typedef {{type: 'terms_agreed', terms: Terms, profile: Profile, rounds: number, termsDigest: Uint8Array}} TermsAgreedEvent
 *   Both seats signed the terms (seat 1: after its `decideTerms(true)`).
 * @typedef {{type: 'first_dealer', dealer: number}} FirstDealerEvent
 * @typedef {{type: 'round_started', deal: number, roundIndex: number, dealer: number, month: number}} RoundStartedEvent
 * @typedef {{type: 'board', deal: number, view: RoundView}} BoardEvent  Cards were revealed to this seat.
 * @typedef {{type: 'your_turn', deal: number, view: RoundView, options: Action[]}} YourTurnEvent  Play a hand card.
 * @typedef {{type: 'choice', kind: 'capture' | 'decide' | 'hand_yaku', deal: number, view: RoundView, options: Action[]}} ChoiceEvent
 *   A choice other than a card to play: which field card to capture, koi-koi or stop.
 * @typedef {{type: 'opponent_moved', deal: number, action: Action, view: RoundView | null}} OpponentMovedEvent
 * @typedef {{type: 'round_over', deal: number, roundIndex: number, result: RoundResult, scores: [number, number]}} RoundOverEvent
 * @typedef {{type: 'match_over', scores: [number, number], winner: number | null, resigned: number | null,
 *   result: Uint8Array, transcript: Uint8Array, saved: {[kind: string]: string}}} MatchOverEvent
 *   Both seats signed the result. `result` is the co-signed result file, `transcript` the transcript
 *   (both pass `koikoi verify`); `saved` says where the store kept them.
 * @typedef {{type: 'time_up', seat: number, claimant: number, seq: number, expected: string, deadline: number}} TimeUpEvent
 *   Our own deadline passed: no more input is taken, and player `claimant` may claim abandonment at message `seq`.
 * @typedef {{type: 'failure', reason: string, message: string, who: number | null, seq: number | null,
 *   evidence: Uint8Array | null, transcript: Uint8Array | null, saved: {[kind: string]: string}}} FailureEvent
 *   The match stopped: `who` is the seat at fault (null: unknown, e.g. the network). `evidence` is
 *   the evidence or abandonment file when the other seat deviated or went silent.
 * @typedef {PairedEvent | TermsProposedEvent | TermsAgreedEvent | FirstDealerEvent | RoundStartedEvent | BoardEvent
 *   | YourTurnEvent | ChoiceEvent | OpponentMovedEvent | RoundOverEvent | MatchOverEvent | TimeUpEvent | FailureEvent} MatchEvent
 */

/**
 * @typedef {object} MatchOptions
 * @property {0 | 1} seat 0 hosts and proposes the terms; 1 joins and is asked to accept them
 * @property {Identity} identity this player's long-term key
 * @property {string} room the room code (bound into the handshake)
 * @property {string | null} [password] the room password (SPAKE2); without it compare the SAS
 * @property {string} [name] this player's display name, signed in the handshake
 * @property {Profile | string} [profile] seat 0: the rules (a Profile or a preset name; default "nintendo")
 * @property {number} [rounds] seat 0: the match length (default: the profile's)
 * @property {{step: number, turn: number}} [deadlines] seat 0: seconds per protocol step and per decision
 * @property {boolean} [rated] seat 0: a rated match on the service `ratings`
 * @property {string} [ratings] the rating service URL
 * @property {MatchStore | null} [store] where inputs and files are kept (crash-safe resume); null: nowhere
 * @property {string} [id] the match's name in the store (default: random)
 * @property {(n: number) => Uint8Array} [rng] the randomness (default: the system's)
 * @property {boolean} [enforceDeadlines] keep both deadlines of the terms (default true)
 * @property {number} [ownMarginS] our own deadline is the terms' less this (at most half; default 2)
 * @property {number} [handshakeDeadline] seconds the handshake may take from the start of `events()`
 *   (default 60, as the Python Match and `run_peer`): a peer that leaves or stalls before the
 *   session exists ends the match with a `failure` "timeout" instead of a wait without end
 */

const ZERO_HASH = toHex(new Uint8Array(32));
/** Seconds the handshake may take (koikoi_p2p.net.match.HANDSHAKE_DEADLINE, PeerSetup.handshake_deadline). */
export const HANDSHAKE_DEADLINE = 60;
/** @type {{journal: Journal, store: MatchStore, id: string} | null} set by `Match.resume` for the constructor */
let restoring = null;
/** Waits on a person's decision (spec/game.md §7.1): where our own deadline applies. */
const PERSON = new Set(['act', 'accept']);

export class Match {
  /**
   * A new match on `transport`; nothing is sent until `events()` is iterated.
   * @param {Transport} transport @param {MatchOptions} options
   */
  constructor(transport, options) {
    const restored = restoring;
    restoring = null;
    if (restored) {
      this.#init(transport, restored.journal, restored.store, restored.id, options);
      return;
    }
    // The arguments are checked here, with the reasons of the Python Match, rather than failing
    // later with an untyped error (or not at all: rounds 0 played the profile's length).
    if (!options || typeof options !== 'object') throw new LocalError('bad_argument', 'options are {seat, identity, room, ...}');
    if (options.seat !== 0 && options.seat !== 1) throw new LocalError('bad_seat', 'seat is 0 or 1');
    if (!transport || typeof transport.send !== 'function' || typeof transport.receive !== 'function') {
      throw new LocalError('bad_argument', 'transport has send and receive');
    }
    if (!(options.identity instanceof Identity)) throw new LocalError('bad_argument', 'identity is an Identity (generated, or from its file)');
    if (typeof options.room !== 'string' || options.room.length < 1 || [...options.room].length > 64) {
      throw new LocalError('bad_room', 'a room code is 1..64 characters');
    }
    if (options.profile != null && typeof options.profile !== 'string' && !(options.profile instanceof Profile)) {
      throw new LocalError('bad_argument', 'profile is a Profile or a preset\'s name');
    }
    const d = options.deadlines;
    const inRange = (/** @type {unknown} */ v) => Number.isInteger(v) && /** @type {number} */ (v) >= 1 && /** @type {number} */ (v) <= 86400;
    if (d != null && (typeof d !== 'object' || !inRange(d.step) || !inRange(d.turn))) {
      throw new LocalError('bad_argument', 'deadlines are {step, turn}, each 1..86400 seconds');
    }
    const rng = options.rng ?? systemRandom;
    let profile = typeof options.profile === 'string' ? preset(options.profile) : options.profile;
    if (options.seat === 0 && !profile) profile = preset('nintendo');
    if (profile && options.rounds != null) profile = withRounds(profile, options.rounds); // RulesError bad_switch
    const journal = Journal.create({
      seat: options.seat, identity: options.identity, room: options.room, password: options.password ?? null,
      seed: rng(32), name: options.name ?? '', profile, deadlines: options.deadlines,
      autoAccept: false, rated: options.rated ?? false, ratings: options.ratings ?? '',
    });
    this.#init(transport, journal, options.store ?? null, options.id ?? toHex(rng(8)), options);
    this.#fresh = true;
  }

  /**
   * A seat saved in `store` under `id`, rebuilt by replaying its inputs (spec/protocol.md §12.3).
   * What it sent and the peer may not have is sent again when `events()` starts; the peer ignores
   * exact repeats. Raises `no_saved_match`, or `replay_mismatch` when the replay would send
   * anything other than what was sent (that would be equivocation).
   * @param {Transport} transport @param {MatchStore} store @param {string} id
   * @param {{enforceDeadlines?: boolean, ownMarginS?: number, handshakeDeadline?: number}} [options]
   */
  static async resume(transport, store, id, options = {}) {
    if (!store || typeof store.load !== 'function') throw new LocalError('bad_argument', 'store is a MatchStore (MemoryStore, IndexedDbStore, FileStore)');
    if (typeof id !== 'string') throw new LocalError('bad_argument', 'id is the match\'s name in the store');
    const saved = await store.load(id);
    if (!saved) throw new LocalError('no_saved_match', `no saved match ${id}`);
    const journal = new Journal({ version: JOURNAL_VERSION, setup: /** @type {any} */ (saved.setup), inputs: [], sent: 0, sentHash: ZERO_HASH });
    restoring = { journal, store, id };
    const match = new Match(transport, /** @type {MatchOptions} */ ({ ...options, seat: journal.peer.seat }));
    match.#replaying = true;
    if (journal.peer.seat === 0) match.#absorb(journal.start(), false);
    let at = saved.startedAt;
    for (const entry of saved.inputs) {
      const input = entry.input;
      if ('frame' in input) {
        const before = match.#progress();
        const out = journal.receive(fromHex(input.frame));
        match.#absorb(out, match.#progress() > before);
      } else if ('decide' in input) match.#absorb(journal.decide(actionFromDict(/** @type {any} */ (input.decide))), false);
      else if ('resign' in input) match.#absorb(journal.resign(), false);
      else match.#absorb(journal.acceptTerms(), false);
      journal.state.inputs.length = 0;
      at = entry.at;
      match.#trackWait(at);
    }
    const last = saved.inputs[saved.inputs.length - 1];
    if (last && (journal.sent !== last.sent || toHex(journal.sentHash) !== last.sentHash)) {
      throw new LocalError('replay_mismatch', 'the replay does not send what was sent before');
    }
    match.#replaying = false;
    match.#fresh = false;
    // The question the crashed process asked (its event went with it) is asked again, as the
    // Python peer does after a restore (announce_pending).
    match.#askAgain();
    const flow = journal.peer.flow;
    if (match.seat === 1 && flow?.terms && flow.expected()?.type === 'accept') match.#queue.push({ type: 'terms_proposed', terms: flow.terms });
    return match;
  }

  /**
   * @param {Transport} transport @param {Journal} journal @param {MatchStore | null} store @param {string} id
   * @param {{enforceDeadlines?: boolean, ownMarginS?: number, handshakeDeadline?: number}} options
   */
  #init(transport, journal, store, id, options) {
    this.transport = transport;
    this.journal = journal;
    this.store = store;
    this.id = id;
    this.seat = journal.peer.seat;
    this.enforce = options.enforceDeadlines ?? true;
    this.ownMarginS = options.ownMarginS ?? 2;
    // A frame that does not authenticate is dropped only where a stranger can send it: over a
    // link that pairs again through the relay (it vouches, spec/protocol.md §12.2 item 1); over a
    // plain transport it fails the session (§7.2), as in the Python Match.
    journal.strangers = typeof transport.reject === 'function';
    this.handshakeDeadline = options.handshakeDeadline ?? HANDSHAKE_DEADLINE;
    if (typeof this.handshakeDeadline !== 'number' || !(this.handshakeDeadline > 0)) throw new LocalError('bad_option', 'handshakeDeadline is a number of seconds above 0');
    /** frames the peer may not hold yet (spec/protocol.md §12.3) @type {Uint8Array[]} */
    this.#outbox = [];
    /** @type {Uint8Array | null} */
    this.#lastSent = null;
    /** @type {MatchEvent[]} */
    this.#queue = [];
    this.#work = Promise.resolve();
    /** @type {{key: string, seat: number, type: string, seconds: number, since: number} | null} */
    this.#wait = null;
    /** @type {((e: unknown) => void)[]} */
    this.#followers = [];
    this.#finished = false;
    this.#bound = false;
    this.#settled = false;
    this.#keyed = false;
    /** @type {{[kind: string]: string}} */
    this.saved = {};
    this.dropped = 0;
  }

  /** @type {Uint8Array[]} */ #outbox = [];
  /** @type {Uint8Array | null} */ #lastSent = null;
  /** @type {MatchEvent[]} */ #queue = [];
  /** @type {Promise<void>} */ #work = Promise.resolve();
  /** @type {{key: string, seat: number, type: string, seconds: number, since: number} | null} */ #wait = null;
  /** @type {((e: unknown) => void)[]} */ #followers = [];
  /** @type {(() => void) | null} */ #wake = null;
  /** @type {ReturnType<typeof setTimeout> | null} */ #timer = null;
  #finished = false;
  #fresh = false;
  #replaying = false;
  #started = false;
  #bound = false;
  #settled = false;
  #keyed = false;
  /** @type {Transport} */ transport = /** @type {any} */ (null);
  /** @type {Journal} */ journal = /** @type {any} */ (null);
  /** @type {MatchStore | null} */ store = null;
  id = '';
  /** @type {0 | 1} */ seat = 0;
  enforce = true;
  ownMarginS = 2;
  handshakeDeadline = HANDSHAKE_DEADLINE;
  /** where the store kept this match's files (transcript, result, evidence) @type {{[kind: string]: string}} */
  saved = {};
  /** frames that did not authenticate under the channel, dropped over a link that pairs again through the relay (spec/protocol.md §12.2 item 1; over a plain transport such a frame fails the session, §7.2) */
  dropped = 0;

  /**
   * Run the match, yielding events until `match_over` or `failure` (always the last event).
   * @returns {AsyncGenerator<MatchEvent, void, void>}
   */
  async *events() {
    if (this.#started) throw new LocalError('bad_state', 'events() runs once per match');
    this.#started = true;
    this.#attach();
    if (this.#fresh && this.store) {
      const p = this.journal.peer;
      await this.store.create(this.id, { version: JOURNAL_VERSION, setup: this.journal.state.setup, startedAt: Date.now(), seat: p.seat, room: p.room });
    }
    if (this.#fresh) await this.#enqueue(() => this.#step(() => this.journal.start(), false));
    else this.#resend();
    if (!this.#wait) this.#trackWait(Date.now());
    this.#arm();
    const pump = this.#pump();
    try {
      for (;;) {
        const ev = this.#queue.shift();
        if (ev) {
          yield ev;
          if (ev.type === 'match_over' || ev.type === 'failure') return;
          continue;
        }
        await new Promise((resolve) => { this.#wake = () => resolve(undefined); });
      }
    } finally {
      this.#finish();
      await pump.catch(() => {});
      await this.transport.close?.().catch(() => {});
    }
  }

  /**
   * Answer the last `your_turn` or `choice` with one of its `options` (an Action, or its wire form).
   * Raises `illegal_action` when it is not legal now (the question is then asked again: `events()`
   * yields the `your_turn` or `choice` anew), `not_your_turn` when no decision is asked of this
   * seat, `deadline_passed` after our own deadline.
   * @param {Action} action
   */
  decide(action) {
    const chosen = action;
    return this.#enqueue(async () => {
      this.#checkOwn();
      const flow = this.journal.peer.flow;
      // The reasons of the Python Match (koikoi_p2p.protocol.peer.GamePeer.decide).
      if (!flow) throw new LocalError('not_started', 'the match has not started');
      if (!this.journal.peer.legalActions().length) throw new LocalError('not_your_turn', 'no decision is asked of this seat now');
      // Anything that is not one of the options (null, a number, a malformed object) is an
      // illegal choice like any other, never an untyped error out of the rules.
      let legal = false;
      try {
        legal = chosen !== null && typeof chosen === 'object' && flow.isLegal(this.seat, chosen);
      } catch {
        legal = false;
      }
      if (!legal) {
        this.#askAgain();
        throw new LocalError('illegal_action', 'not one of the legal actions now');
      }
      await this.#step(() => this.journal.decide(chosen), true);
    });
  }

  /**
   * Seat 1's answer to `terms_proposed`: sign the terms, or refuse them (nothing is signed, and
   * the match ends with a `failure` "terms_refused").
   * @param {boolean} accept
   */
  decideTerms(accept) {
    return this.#enqueue(async () => {
      // "no" or 0 is not an answer: a truthy value must not sign the terms (as Python's decide_terms).
      if (typeof accept !== 'boolean') throw new LocalError('bad_argument', 'accept is true or false');
      this.#checkOwn();
      const flow = this.journal.peer.flow;
      if (!flow) throw new LocalError('not_started', 'the match has not started');
      if (flow.expected()?.type !== 'accept' || this.seat !== 1) throw new LocalError('not_your_turn', 'no terms are waiting for this seat\'s decision');
      if (!accept) {
        this.#stop('terms_refused', 'we refused the proposed terms', this.seat, null); // Python: who is the refuser
        return;
      }
      await this.#step(() => this.journal.acceptTerms(), true);
    });
  }

  /**
   * Give the match up where this seat is asked to act (spec/game.md §6.3): the opponent
   * countersigns a result naming it the winner (`match_over.resigned` is this seat).
   */
  resign() {
    return this.#enqueue(async () => {
      this.#checkOwn();
      if (!this.journal.peer.flow) throw new LocalError('not_started', 'the match has not started');
      if (!this.canResign()) throw new LocalError('not_your_turn', 'a seat resigns when it is asked to act');
      await this.#step(() => this.journal.resign(), true);
    });
  }

  /** Whether this seat is asked to act now (where `resign` is allowed). */
  canResign() {
    const e = this.journal.peer.flow?.expected();
    return !this.#finished && !!e && e.type === 'act' && e.seat === this.seat;
  }

  /** The legal actions now (empty unless this seat is to act). @returns {Action[]} */
  legalActions() {
    return this.#finished ? [] : this.journal.peer.legalActions();
  }

  /**
   * A computer player for this seat ("random", "greedy", "strong", "master" or "expert"): it
   * follows the match from now on (create it before iterating) and `choose()` answers the current
   * question. The expert needs its network loaded first: `await preparePlayer('expert')`.
   * @param {'random' | 'greedy' | 'strong' | 'master' | 'expert'} [kind] @param {string} [seed]
   * @returns {{choose: () => Action}}
   */
  computer(kind = 'random', seed = toHex(systemRandom(8))) {
    if (!PLAYER_KINDS.includes(kind)) throw new LocalError('bad_argument', `a computer is one of ${PLAYER_KINDS.join(', ')}`);
    const setup = this.journal.state.setup;
    const profile = setup.profile ? this.journal.peer.profile ?? undefined : undefined;
    const player = createPlayer(kind, seed, { profile });
    const follower = new RoundFollower(player, this.seat);
    this.#followers.push((ev) => follower.see(/** @type {any} */ (ev)));
    return {
      choose: () => {
        const flow = /** @type {any} */ (this.journal.peer.flow);
        const engine = flow?.live?.engine;
        if (!engine || !this.legalActions().length) throw new LocalError('bad_state', 'nothing to choose now');
        return player.choose(engine, this.seat, RoundFollower.context(flow, engine.profile));
      },
    };
  }

  /** The transcript so far (the closed transcript once the match is over), or null before the session. */
  transcript() {
    return this.journal.peer.channel ? this.journal.peer.transcript() : null;
  }

  // --- internals ---------------------------------------------------------------------------

  #attach() {
    const t = this.transport;
    t.onRestart = () => this.#resend();
    t.onConnect = () => this.#resend();
    this.#bindSession();
  }

  /** The loop that takes frames from the transport until the match ends. */
  async #pump() {
    while (!this.#finished) {
      let frame;
      try {
        frame = await Promise.race([this.transport.receive(), this.#ended]);
      } catch (e) {
        const err = /** @type {any} */ (e);
        const reason = e instanceof RelayClosed ? err.reason : 'connection_closed';
        this.#stop(reason, `the connection closed before the end: ${err?.message ?? e}`, null, null);
        this.#notify();
        return;
      }
      if (frame === null || this.#finished) return;
      const f = frame;
      await this.#enqueue(async () => {
        const before = this.#progress();
        const dropped = this.journal.dropped;
        await this.#step(() => this.journal.receive(f), true, () => this.#progress() > before);
        // Tell a vouching link whether the frame was the peer's (spec/protocol.md §12.2 item 2).
        if (this.journal.dropped !== dropped) {
          this.dropped += 1;
          this.transport.reject?.();
        } else if (!this.journal.peer.failed) this.transport.vouch?.();
        // Saved (the step appended it before sending anything): the link may acknowledge it.
        this.transport.confirm?.();
      }).catch((e) => {
        // Our own side failed (the store could not save, a bug): stop rather than hang.
        this.#stop(/** @type {any} */ (e)?.reason ?? 'internal_error', String(/** @type {any} */ (e)?.message ?? e), null, null);
        this.#notify();
      });
    }
  }

  /** @type {(v: null) => void} */
  #end = () => {};
  /** resolves when the match has finished (the receive loop stops waiting then) @type {Promise<null>} */
  #ended = new Promise((resolve) => { this.#end = resolve; });

  /**
   * One input at a time, in order; a failure inside surfaces to the caller.
   * @param {() => Promise<void>} fn
   */
  #enqueue(fn) {
    const run = this.#work.then(fn);
    this.#work = run.catch(() => {});
    return run;
  }

  #notify() {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  /**
   * Apply one input, save it, then send what it caused (spec/protocol.md §12.3).
   * @param {() => import('../protocol/peer.js').Output} fn @param {boolean} logged whether it is an input
   * @param {() => boolean} [advanced] whether it showed the peer holds what we sent
   */
  async #step(fn, logged, advanced) {
    if (this.#finished) return;
    const count = this.journal.state.inputs.length;
    const out = fn();
    const at = Date.now();
    if (logged && this.journal.state.inputs.length > count && this.store) {
      /** @type {SavedInput} */
      const entry = { input: /** @type {any} */ (this.journal.state.inputs[this.journal.state.inputs.length - 1]), at, sent: this.journal.sent, sentHash: toHex(this.journal.sentHash) };
      await this.store.append(this.id, entry);
    }
    this.journal.state.inputs.length = 0;
    this.#absorb(out, advanced ? advanced() : false);
    this.#bindSession();
    this.#trackWait(at);
    for (const f of out.frames) this.#send(f);
    await this.#settle();
    this.#arm();
    this.#notify();
  }

  /** @param {Uint8Array} f */
  #send(f) {
    try {
      this.transport.send(f);
    } catch {
      /* a link re-sends after it reconnects; a dead transport ends the receive loop */
    }
  }

  #resend() {
    const frames = this.#outbox.length ? this.#outbox : this.#lastSent ? [this.#lastSent] : [];
    for (const f of frames) this.#send(f);
  }

  #progress() {
    const p = this.journal.peer;
    return p.channel ? 1000 + p.channel.next : p.handshake.received.length;
  }

  /** Once both seats hold the session the link's rejoin tag and liveness proofs bind to it (spec/protocol.md §12.2). */
  #bindSession() {
    const ch = this.journal.peer.channel;
    const t = this.transport;
    if (!ch) return;
    if (!this.#keyed && t.setLivenessKey) {
      t.setLivenessKey(ch.livenessKey);
      this.#keyed = true;
    }
    if (!this.#bound && t.bind && ch.accepted.some((a) => a.sender !== this.seat)) {
      t.bind(ch.sessionId);
      this.#bound = true;
    }
    if (this.#bound && !this.#settled && t.peerBound && peerHoldsSession(ch.accepted.map((a) => a.sender), this.seat)) {
      t.peerBound();
      this.#settled = true;
    }
  }

  /**
   * Note what an output changed (outbox, events) without sending.
   * @param {import('../protocol/peer.js').Output} out @param {boolean} peerAdvanced
   */
  #absorb(out, peerAdvanced) {
    if (peerAdvanced && this.journal.peer.channel) this.#outbox = [];
    this.#noteAgreed();
    this.#outbox.push(...out.frames);
    if (out.frames.length) this.#lastSent = out.frames[out.frames.length - 1];
    let revealed = -1;
    for (const ev of out.events) {
      for (const f of this.#followers) f(ev);
      if (this.#replaying) continue;
      if (ev.type === 'reveal') {
        revealed = /** @type {number} */ (ev.deal);
        continue;
      }
      if (revealed >= 0) this.#board(revealed);
      revealed = -1;
      this.#translate(/** @type {any} */ (ev));
    }
    if (revealed >= 0) this.#board(revealed);
  }

  /** The view of this seat of the deal in play, or null. */
  #view() {
    const engine = /** @type {any} */ (this.journal.peer.flow)?.live?.engine;
    return engine && 'view' in engine ? /** @type {RoundView} */ (engine.view(this.seat)) : null;
  }

  /** @param {number} deal */
  #board(deal) {
    const view = this.#view();
    if (view) this.#queue.push({ type: 'board', deal, view });
  }

  /** A peer event as the public event (the names of the Python API). @param {any} ev */
  #translate(ev) {
    const q = this.#queue;
    switch (ev.type) {
      case 'paired': {
        const other = 1 - this.seat;
        q.push({ type: 'paired', seat: this.seat, sas: ev.sas ?? null, fingerprints: ev.fingerprints, names: ev.names,
          peerFingerprint: ev.fingerprints[other], peerName: ev.names?.[other] ?? '' });
        break;
      }
      case 'terms_proposed': q.push({ type: 'terms_proposed', terms: ev.terms }); break;
      case 'terms': break; // proposed, not yet agreed: `terms_agreed` follows the accept (#noteAgreed)
      case 'first_dealer': q.push({ type: 'first_dealer', dealer: ev.dealer }); break;
      case 'deal': q.push({ type: 'round_started', deal: ev.deal, roundIndex: ev.roundIndex, dealer: ev.dealer, month: ev.month }); break;
      case 'your_turn': {
        const view = /** @type {RoundView} */ (this.#view());
        if (ev.kind === 'play') q.push({ type: 'your_turn', deal: ev.deal, view, options: ev.options });
        else q.push({ type: 'choice', kind: ev.kind, deal: ev.deal, view, options: ev.options });
        break;
      }
      case 'action':
        if (ev.seat !== this.seat) q.push({ type: 'opponent_moved', deal: ev.deal, action: ev.action, view: this.#view() });
        break;
      case 'round_over': q.push({ type: 'round_over', deal: ev.deal, roundIndex: ev.roundIndex, result: ev.result, scores: ev.scores }); break;
      case 'match_over': this.#over = ev; break;
      case 'failure': this.#failed = ev; break;
      default: break;
    }
  }

  /** Queue `terms_agreed` once seat 1's accept is in (both signed the terms), as Python's TermsAgreed. */
  #noteAgreed() {
    const flow = this.journal.peer.flow;
    if (this.#agreed || !flow?.accepted || !flow.terms) return;
    this.#agreed = true;
    if (!this.#replaying) {
      this.#queue.push({ type: 'terms_agreed', terms: flow.terms, profile: flow.terms.profile, rounds: flow.terms.rounds,
        termsDigest: /** @type {Uint8Array} */ (flow.termsDigest) });
    }
  }

  /**
   * After an illegal choice the question is asked again (Python's `announce_pending`): the
   * `your_turn` or `choice` is queued anew with the current view and options.
   */
  #askAgain() {
    const flow = /** @type {any} */ (this.journal.peer.flow);
    const options = this.journal.peer.legalActions();
    if (this.#finished || !flow?.live || !options.length) return;
    this.#translate({ type: 'your_turn', kind: flow.live.engine.need.kind, options, deal: flow.live.deal });
    this.#notify();
  }

  #agreed = false;
  /** @type {any} */ #over = null;
  /** @type {any} */ #failed = null;

  /** After each step: the end of the match (its files kept), or nothing. */
  async #settle() {
    if (this.#finished || this.#replaying) return;
    const peer = this.journal.peer;
    if (this.#failed) {
      const f = this.#failed;
      this.#failed = null;
      await this.#conclude({ type: 'failure', reason: f.reason, message: f.detail, who: f.blame ?? null, seq: f.seq ?? null, evidence: f.evidence ?? null, transcript: null, saved: {} });
    } else if (this.#over && peer.done) {
      const o = this.#over;
      this.#over = null;
      await this.#conclude({ type: 'match_over', scores: o.scores, winner: o.winner ?? null, resigned: o.resigned ?? null, result: peer.resultFile(), transcript: peer.transcript(), saved: {} });
    }
  }

  /**
   * Keep the files of an ended match, forget its journal (it holds the seed of every key), queue the last event.
   * @param {MatchOverEvent | FailureEvent} last
   */
  async #conclude(last) {
    this.#finish();
    const peer = this.journal.peer;
    if (last.type === 'failure' && peer.channel) last.transcript = peer.transcript();
    try {
      if (this.store) {
        /** @type {[string, Uint8Array | null][]} */
        const files = last.type === 'match_over'
          ? [['transcript', last.transcript], ['result', last.result]]
          : [['transcript', last.transcript], ['evidence', last.evidence]];
        for (const [kind, bytes] of files) if (bytes) this.saved[kind] = await this.store.keep(this.id, kind, bytes);
        await this.store.forget(this.id);
      }
    } finally {
      // The last event goes out even when the store failed: its files are in the event itself.
      last.saved = { ...this.saved };
      this.#queue.push(last);
      this.#notify();
    }
    this.#notify();
  }

  /**
   * Stop without a result (the network, a refusal, a deadline).
   * @param {string} reason @param {string} message @param {number | null} who @param {Uint8Array | null} evidence
   */
  #stop(reason, message, who, evidence) {
    if (this.#finished) return;
    const seq = this.journal.peer.channel ? this.journal.peer.channel.next : null;
    this.#work = this.#work.then(() => this.#conclude({ type: 'failure', reason, message, who, seq, evidence, transcript: null, saved: {} })).catch(() => {});
    this.#finish();
  }

  #finish() {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#end(null);
  }

  // --- deadlines (spec/game.md §7.1, spec/protocol.md §12.4) -----------------------------------

  /** Note the current wait: a new one starts its clock at `at`, the same one keeps it. @param {number} at */
  #trackWait(at) {
    const flow = this.journal.peer.flow;
    // Before the session: the handshake's own bound (the peer may have left, and a link that
    // pairs again would otherwise look for it without end).
    // Its clock starts when `events()` does, a resumed seat's too (not at its last saved input).
    const wait = this.#finished || (this.#replaying && !flow) ? null : flow ? flow.waitingFor()
      : { seat: 1 - this.seat, type: 'handshake', seconds: this.handshakeDeadline };
    if (!wait) {
      this.#wait = null;
      return;
    }
    const key = flow ? `${wait.seat}/${wait.type}/${this.#progress()}` : 'handshake';
    if (!this.#wait || this.#wait.key !== key) this.#wait = { ...wait, key, since: at };
  }

  #ownEnd() {
    const w = /** @type {{since: number, seconds: number}} */ (this.#wait);
    return w.since + (w.seconds - Math.min(this.ownMarginS, w.seconds / 2)) * 1000;
  }

  /** Arm the clock of the current wait. */
  #arm() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const w = this.#wait;
    // The handshake's bound is kept with enforceDeadlines off too (Python's Match keeps it always).
    if (this.#finished || !w || (!this.enforce && w.type !== 'handshake')) return;
    if (w.seat === this.seat) {
      if (!PERSON.has(w.type)) return;
      this.#timer = setTimeout(() => { this.#enqueue(async () => { this.#checkOwn(); }).catch(() => {}); }, Math.max(0, this.#ownEnd() - Date.now()));
      return;
    }
    const key = w.key;
    const due = () => {
      this.#enqueue(async () => {
        if (this.#finished || !this.#wait || this.#wait.key !== key) return;
        if (w.type === 'handshake') {
          // No session, so nothing to claim (as Python's run_peer: gave_up).
          this.#stop('timeout', `the handshake did not finish in time (${w.seconds} s)`, w.seat, null);
          this.#notify();
          return;
        }
        // Not while our own relay is unreachable, nor right after it answers again (§12.4).
        const hold = claimHold(this.transport, w.seconds, (Date.now() - w.since) / 1000);
        if (hold > 0) {
          this.#timer = setTimeout(due, Math.min(hold, 1) * 1000);
          return;
        }
        // The opponent missed its deadline: we sign an abandonment claim and stop (§12.4).
        const claim = this.journal.peer.abandonmentClaim();
        this.#stop('abandoned', `no ${w.type} from player ${w.seat} within ${w.seconds} s`, w.seat, claim);
      }).catch(() => {});
    };
    this.#timer = setTimeout(due, Math.max(0, w.since + w.seconds * 1000 - Date.now()));
  }

  /** Refuse input after our own deadline (the late side of §12.4): `time_up`, then a failure. */
  #checkOwn() {
    if (this.#finished) throw new LocalError('match_over', 'the match has ended');
    const w = this.#wait;
    if (!this.enforce || !w || w.seat !== this.seat || !PERSON.has(w.type) || Date.now() < this.#ownEnd()) return;
    const seq = this.journal.peer.channel ? this.journal.peer.channel.next : 0;
    this.#queue.push({ type: 'time_up', seat: this.seat, claimant: 1 - this.seat, seq, expected: w.type, deadline: w.seconds });
    const text = `your time ran out (${w.seconds} s for ${w.type}): player ${1 - this.seat} may claim abandonment by player ${this.seat} at message ${seq}`;
    this.#stop('own_timeout', text, this.seat, null);
    this.#notify();
    throw new LocalError('deadline_passed', text);
  }
}

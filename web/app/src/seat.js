// One seat of a match, driven in a worker: the core's journaled game peer over a transport (a
// message port to the practice computer, or the relay through the retransmission link), saved
// to IndexedDB after every input and before the frames it caused leave (spec/protocol.md §12.3).
// A person's seat posts the table after every change and waits for decisions from the page; a
// computer seat decides itself. When the match ends the journal (which holds the seed of every
// key) is deleted; the transcript and result files are kept for download.
// Every input is saved with the wall-clock time it was saved (as the Python driver's records,
// spec/protocol.md §12.3), so after a reload both clocks restart from when the current wait
// began, not from zero, and a person's own deadline is not renewed by reloading (§12.4).
import { JOURNAL_VERSION, Journal } from '../../src/api/match.js';
import { actionFromDict } from '../../src/api/rules.js';
import { createPlayer, preparePlayer } from '../../src/api/match.js';
import { RoundFollower } from '../../src/api/match.js';
import { toHex } from '../../src/api/match.js';
import { peerHoldsSession } from '../../src/api/match.js';
import { claimHold } from '../../src/api/match.js';
import { appendInput, deleteSeat, loadInputs, loadSeat, saveFinal, saveSeat } from './store.js';
import { askOf, koikoiHint, roundTable } from './table.js';
import { roundInfo } from './round_info.js';
import { LocalError } from '../../src/api/match.js';
import { History } from './history.js';
import { PERSON, ownEnd } from './deadline.js';

const ZERO_HASH = toHex(new Uint8Array(32));

/**
 * The wall time of each of this worker's computer decisions (and how many options it had), in
 * order: what the browser test reads (as `self.koikoiDecisions`) to report the expert's time per
 * decision in the page against the 1 s in-play budget; a developer can read it in the console.
 * @type {{ms: number, options: number}[]}
 */
export const DECISIONS = [];
/** @type {any} */ (globalThis).koikoiDecisions = DECISIONS;

/**
 * @typedef {import('./store.js').SeatRecord} SeatRecord
 * @typedef {{send: (data: Uint8Array) => void, receive: () => Promise<Uint8Array>, close?: () => Promise<void>, onRestart?: () => void,
 *   onConnect?: () => void, bind?: (sessionId: Uint8Array) => void, peerBound?: () => void, vouch?: () => void, reject?: () => void, confirm?: () => void,
 *   setLivenessKey?: (key: Uint8Array) => void}} Transport
 */

export class Seat {
  /**
   * @param {SeatRecord} record @param {Journal} journal
   * @param {{post: (msg: any) => void, deadlines?: boolean}} io
   */
  constructor(record, journal, io) {
    this.record = record;
    this.journal = journal;
    this.post = io.post;
    this.useDeadlines = io.deadlines ?? false;
    // The level is kept in the saved record, so a resumed practice match keeps its computer.
    this.player = record.role === 'computer' ? createPlayer(/** @type {any} */ (record.meta.level ?? 'random'), String(record.meta.playerSeed ?? record.id)) : null;
    /** tells the computer the round's public history (the master reads the opponent's discards) */
    this.follower = this.player ? new RoundFollower(this.player, /** @type {0 | 1} */ (record.setup.seat)) : null;
    /** the deal's public history for the page (move log, last move, first dealer's draw) */
    this.history = new History(/** @type {0 | 1} */ (record.setup.seat));
    /** @type {Transport | null} */
    this.transport = null;
    /** @type {Uint8Array[]} frames sent since the peer last proved it has what we sent (§12.3) */
    this.outbox = [];
    /** @type {Uint8Array | null} the latest frame sent: a repeat the peer can vouch for (§12.1 rule 5) */
    this.lastSent = null;
    /** @type {Promise<void>} inputs are applied and saved one at a time, in order */
    this.queue = Promise.resolve();
    this.replaying = false;
    /** what the page shows besides the round @type {any} */
    this.info = {
      /** @type {any} */ paired: null, /** @type {any} */ terms: null, termsProposed: false,
      /** @type {any} */ lastRound: null, /** @type {any} */ over: null, /** @type {any} */ failure: null,
      /** every deal's summary so far, oldest first (a page shows those its person has not dismissed) @type {any[]} */ rounds: [],
      /** @type {{seat: number, type: string, seconds: number, since: number, key: string, deal: number} | null} */ wait: null,
      connection: 'connected', /** @type {{seat: number, seq: number} | null} */ resigned: null,
      /** @type {{seq: number, type: string, seconds: number} | null} */ timeUp: null,
    };
    this.finished = false;
    /** the files of the ended match, for the page @type {{[kind: string]: Uint8Array}} */
    this.files = {};
    /** whether the link's rejoin tag is bound to the session (spec/protocol.md §12.2) */
    this.bound = false;
    this.settled = false;
    this.keyed = false;
    /** the round engine the board shows @type {any} */
    this.shown = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.deadlineTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} the person's own deadline (§12.4, the late side) */
    this.ownTimer = null;
    /** @type {(v: null) => void} */
    this.#late = () => {};
    /** resolves (with null) when the opponent's deadline has passed @type {Promise<null>} */
    this.late = new Promise((resolve) => { this.#late = resolve; });
    /** @type {(v: 'ended') => void} */
    this.#ended = () => {};
    /** resolves when the seat has finished (the receive loop stops waiting then) @type {Promise<'ended'>} */
    this.ended = new Promise((resolve) => { this.#ended = resolve; });
    journal.peer.onAccepted = (events) => this.#showFirst(events);
  }

  /**
   * The events of the opponent's envelope, taken in and shown before this seat composes its
   * answer (the shares of a drawn card, the next deal's key and shuffle): the page draws the move
   * while the answer is made and saved (issue 26). The step's own table follows.
   * @param {import('../../src/protocol/peer.js').PeerEvent[]} events
   */
  #showFirst(events) {
    for (const ev of events) this.#event(ev);
    if (this.replaying || this.record.role !== 'human') return;
    this.post({ type: 'table', table: this.table() });
  }

  /** @type {(v: null) => void} */
  #late;

  /** @type {(v: 'ended') => void} */
  #ended;

  /**
   * A new seat: its record saved before anything is sent.
   * @param {{id: string, role: 'human' | 'computer', options: any, meta: {[key: string]: unknown}}} spec
   * @param {{post: (msg: any) => void, deadlines?: boolean}} io
   */
  static async create(spec, io) {
    const journal = Journal.create(spec.options);
    /** @type {SeatRecord} */
    const record = { id: spec.id, role: spec.role, setup: journal.state.setup, sent: 0, sentHash: ZERO_HASH, count: 0, meta: spec.meta };
    if (record.role === 'computer') await preparePlayer(String(record.meta.level ?? 'random'));
    await saveSeat(record);
    return new Seat(record, journal, io);
  }

  /**
   * A saved seat rebuilt by replaying its inputs; the frames of its outbox are re-sent when the
   * transport is attached (the receiver ignores exact repeats).
   * @param {string} id @param {{post: (msg: any) => void, deadlines?: boolean}} io
   */
  static async restore(id, io) {
    const record = await loadSeat(id);
    if (!record) throw new LocalError('no_saved_match', `no saved seat ${id}`);
    if (record.role === 'computer') await preparePlayer(String(record.meta.level ?? 'random'));
    const inputs = await loadInputs(id);
    const journal = new Journal({ version: JOURNAL_VERSION, setup: record.setup, inputs: [], sent: 0, sentHash: ZERO_HASH });
    const seat = new Seat(record, journal, io);
    seat.replaying = true;
    // The host's opening went out only once it ran (a host waiting for its joiner has sent nothing).
    if (record.setup.seat === 0 && record.sent > 0) seat.#absorb(journal.start(), false);
    let at = Number(record.meta.startedAt ?? Date.now());
    for (const input of inputs) {
      const i = /** @type {any} */ (input);
      if ('frame' in i) {
        const before = seat.#progress();
        const out = journal.receive(fromHexFast(i.frame));
        seat.#absorb(out, seat.#progress() > before);
      } else if ('decide' in i) seat.#absorb(journal.decide(actionFromDict(i.decide)), false);
      else if ('resign' in i) seat.#absorb(journal.resign(), false);
      else seat.#absorb(journal.acceptTerms(), false);
      // The wait this input began started when the input was saved (older saves carry no time).
      if (typeof i.at === 'number') at = i.at;
      seat.#trackWait(at);
      // The board of a reloaded page shows the deal it showed before (between deals: the last one).
      const live = liveEngine(seat.peer.flow);
      if (live && 'view' in live) seat.shown = live;
    }
    if (journal.sent !== record.sent || toHex(journal.sentHash) !== record.sentHash) {
      throw new LocalError('replay_mismatch', 'the replay does not send what was sent before');
    }
    seat.replaying = false;
    return seat;
  }

  get peer() {
    return this.journal.peer;
  }

  #progress() {
    const ch = this.peer.channel;
    return ch ? 1000 + ch.next : this.peer.handshake.received.length;
  }

  /**
   * Attach the transport and run until the match ends or stops.
   * @param {Transport} transport
   */
  async run(transport) {
    this.transport = transport;
    this.bound = false;
    this.settled = false;
    this.keyed = false;
    transport.onRestart = () => this.#resend();
    transport.onConnect = () => this.#resend();
    this.#bindSession();
    if (this.journal.state.inputs.length === 0 && this.record.count === 0 && this.record.setup.seat === 0 && this.journal.sent === 0) {
      await this.#step(() => this.journal.start(), null);
    } else {
      this.#resend();
      await this.#continue();
    }
    this.#publish();
    while (!this.finished) {
      let frame;
      try {
        frame = await this.#nextFrame();
      } catch (e) {
        this.#stop({ reason: /** @type {any} */ (e).reason ?? 'transport_closed', detail: String(/** @type {any} */ (e).message ?? e), blame: null });
        break;
      }
      if (frame === 'ended') break;
      if (frame === null) {
        this.#abandon();
        break;
      }
      await this.#enqueue(async () => {
        const before = this.#progress();
        const dropped = this.journal.dropped;
        await this.#step(() => this.journal.receive(frame), { frame: toHex(frame) }, () => this.#progress() > before);
        // Tell a vouching link whether the frame was the peer's (spec/protocol.md §12.2 item 2).
        if (this.journal.dropped !== dropped) transport.reject?.();
        else if (!this.peer.failed) transport.vouch?.();
        // Saved (the step appended it before sending anything): the link may acknowledge it (§12.1 rule 3).
        transport.confirm?.();
      });
    }
    await this.queue;
    await transport.close?.();
  }

  /** The next frame, null when the opponent missed its deadline (§12.4), 'ended' once the seat has finished. */
  async #nextFrame() {
    const transport = /** @type {Transport} */ (this.transport);
    return /** @type {Promise<Uint8Array | null | 'ended'>} */ (Promise.race([transport.receive(), this.late, this.ended]));
  }

  /**
   * Note the current wait (spec/game.md §7.1): a new one (another seat or message, or any message
   * sent or accepted since, protocol.md §12.4) starts its clock at `at`; the same one keeps it.
   * @param {number} at
   */
  #trackWait(at) {
    const flow = this.peer.flow;
    const wait = flow && !this.finished ? flow.waitingFor() : null;
    if (!wait || !flow) {
      this.info.wait = null;
      return;
    }
    const key = `${wait.seat}/${wait.type}/${this.#progress()}`;
    if (!this.info.wait || this.info.wait.key !== key) this.info.wait = { ...wait, key, since: at, deal: dealOf(flow) };
  }

  /**
   * Arm the clock of the current wait (spec/protocol.md §12.4). The opponent's: when it runs out
   * with the flow still waiting for the same message, the receive loop stops and we sign the
   * claim. Our person's own (a move or the terms): it runs out a margin earlier (deadline.js
   * ownEnd, where the board's clock shows 0:00), and then the seat stops without sending
   * anything more, since the other seat may now claim abandonment.
   */
  #armDeadline() {
    for (const t of [this.deadlineTimer, this.ownTimer]) if (t) clearTimeout(t);
    this.deadlineTimer = this.ownTimer = null;
    const wait = this.info.wait;
    if (!this.useDeadlines || this.finished || !wait) return;
    if (wait.seat === this.peer.seat) {
      if (this.record.role !== 'human' || !PERSON.has(wait.type)) return;
      this.ownTimer = setTimeout(() => this.#enqueue(async () => { this.#checkOwnTime(); }), Math.max(0, ownEnd(wait) - Date.now()));
      return;
    }
    const key = wait.key;
    const due = () => {
      const now = this.peer.flow?.waitingFor();
      if (this.finished || !this.info.wait || this.info.wait.key !== key || !now || now.seat !== wait.seat) return;
      // Not while our own relay is unreachable, nor right after it answers again (§12.4).
      const hold = claimHold(this.transport, wait.seconds, (Date.now() - wait.since) / 1000);
      if (hold > 0) this.deadlineTimer = setTimeout(due, Math.min(hold, 1) * 1000);
      else this.#late(null);
    };
    this.deadlineTimer = setTimeout(due, Math.max(0, wait.since + wait.seconds * 1000 - Date.now()));
  }

  /** Whether our person's time for the current wait has run out. */
  #ownLate() {
    const wait = this.info.wait;
    return this.useDeadlines && this.record.role === 'human' && !!wait && wait.seat === this.peer.seat && PERSON.has(wait.type) && Date.now() >= ownEnd(wait);
  }

  /** Stop if our own deadline has passed (the late side of §12.4); returns whether it had. */
  #checkOwnTime() {
    if (this.finished || !this.#ownLate()) return false;
    const wait = /** @type {NonNullable<typeof this.info.wait>} */ (this.info.wait);
    const seq = this.peer.channel ? this.peer.channel.next : 0;
    this.info.timeUp = { seq, type: wait.type, seconds: wait.seconds };
    this.#stop({ reason: 'own_timeout', detail: `no ${wait.type} sent within ${wait.seconds} s: the other seat may claim abandonment at message ${seq}`, blame: this.peer.seat });
    return true;
  }

  /** @param {() => Promise<void>} fn */
  #enqueue(fn) {
    this.queue = this.queue.then(fn).catch((e) => this.#crash(e));
    return this.queue;
  }

  /**
   * Apply one input, save it, then send what it caused and show it.
   * @param {() => import('../../src/protocol/peer.js').Output} fn @param {unknown} input
   * @param {() => boolean} [advanced] whether the input showed the peer holds what we sent
   */
  async #step(fn, input, advanced) {
    if (this.finished) return;
    const logged = this.journal.state.inputs.length;
    const out = fn();
    const grew = this.journal.state.inputs.length > logged;
    const at = Date.now();
    if (this.journal.sent > 0) forgetToken(this.record.meta);
    if (grew) {
      this.record.count += 1;
      this.record.sent = this.journal.sent;
      this.record.sentHash = toHex(this.journal.sentHash);
      await appendInput(this.record, { ...this.journal.state.inputs[this.journal.state.inputs.length - 1], at });
    } else if (out.frames.length) {
      this.record.sent = this.journal.sent;
      this.record.sentHash = toHex(this.journal.sentHash);
      await saveSeat(this.record);
    }
    this.#absorb(out, advanced ? advanced() : false);
    this.#bindSession();
    this.#trackWait(at);
    for (const f of out.frames) this.#send(f);
    // Inputs are logged once; the journal keeps no copy (the store has them).
    if (input !== null) this.journal.state.inputs.length = 0;
    await this.#continue();
    this.#publish();
  }

  /** @param {Uint8Array} f */
  #send(f) {
    try {
      this.transport?.send(f);
    } catch {
      /* the link re-sends after it reconnects; a dead transport ends the loop */
    }
  }

  /**
   * Once both seats hold the session (we accepted an envelope the other seat signed), the link's
   * rejoin tag derives from the session id too (spec/protocol.md §12.2), as the Python driver's.
   */
  #bindSession() {
    const ch = this.peer.channel;
    if (!ch) return;
    // The session exists: liveness and vouching now need a proof bound to it (§12.2 item 4).
    if (!this.keyed && this.transport?.setLivenessKey) {
      this.transport.setLivenessKey(ch.livenessKey);
      this.keyed = true;
    }
    if (!this.bound && this.transport?.bind && ch.accepted.some((a) => a.sender !== this.peer.seat)) {
      this.transport.bind(ch.sessionId);
      this.bound = true;
    }
    // Once an envelope of the other seat follows one of ours it holds the session too: the joiner
    // stops looking for rooms under the unbound tag (spec/protocol.md §12.2).
    if (this.bound && !this.settled && this.transport?.peerBound
        && peerHoldsSession(ch.accepted.map((a) => a.sender), this.peer.seat)) {
      this.transport.peerBound();
      this.settled = true;
    }
  }

  /**
   * The outbox again; when it is empty, a repeat of the last frame sent, so that the peer's link
   * can count this connection live at once (spec/protocol.md §12.1 rule 5; its channel ignores
   * the repeat, §7.2 steps 1 and 6).
   */
  #resend() {
    const frames = this.outbox.length ? this.outbox : this.lastSent ? [this.lastSent] : [];
    for (const f of frames) this.#send(f);
  }

  /**
   * Record what an output changed (outbox, events) without sending.
   * @param {import('../../src/protocol/peer.js').Output} out @param {boolean} peerAdvanced
   */
  #absorb(out, peerAdvanced) {
    if (peerAdvanced && this.peer.channel) this.outbox = [];
    this.outbox.push(...out.frames);
    if (out.frames.length) this.lastSent = out.frames[out.frames.length - 1];
    for (const ev of out.events) this.#event(ev);
  }

  /** @param {any} ev */
  #event(ev) {
    this.follower?.see(ev);
    this.history.see(ev);
    const info = this.info;
    switch (ev.type) {
      case 'paired':
        info.paired = { seat: ev.seat, sas: ev.sas, names: ev.names, fingerprints: ev.fingerprints };
        break;
      case 'terms_proposed':
        info.termsProposed = true;
        info.terms = summariseTerms(ev.terms);
        break;
      case 'terms':
        info.termsProposed = false;
        info.terms = summariseTerms(ev.terms);
        break;
      case 'round_over':
        info.lastRound = this.#roundOver(ev);
        info.rounds = [...info.rounds, info.lastRound];
        this.#publishEnded(ev);
        break;
      case 'resigned':
        info.resigned = { seat: ev.seat, seq: ev.seq };
        break;
      case 'match_over':
        info.over = { scores: ev.scores, winner: ev.winner, resigned: ev.resigned ?? null };
        break;
      case 'failure':
        info.failure = { reason: ev.reason, detail: ev.detail, blame: ev.blame, seq: ev.seq };
        break;
      default:
        break;
    }
  }

  /**
   * What the round summary shows of a deal just over: its result, both seats' captures and yaku as
   * they ended (the board moves on to the next deal meanwhile), the scores before and after, and
   * how many rounds the match has left.
   * @param {any} ev a round_over event
   */
  #roundOver(ev) {
    const flow = /** @type {any} */ (this.peer.flow);
    const engine = flow?.closing?.live?.engine ?? null;
    const view = engine && 'view' in engine ? engine.view(this.peer.seat) : null;
    const profile = flow?.terms?.profile ?? null;
    const start = profile && profile.pool_start > 0 ? [profile.pool_start, profile.pool_start] : [0, 0];
    const before = this.info.lastRound ? this.info.lastRound.scores : start;
    return roundInfo(ev, view, profile, before, flow?.match ?? null);
  }

  /** Decisions the seat makes itself: a computer's moves and terms; the end of the match. */
  async #continue() {
    if (this.replaying) return;
    const peer = this.peer;
    if (peer.failed) return this.#finish();
    if (peer.done) return this.#finish();
    if (this.record.role !== 'computer') return;
    if (peer.flow && peer.flow.expected()?.type === 'accept' && peer.seat === 1 && !peer.autoAccept && this.info.termsProposed) {
      await this.#step(() => this.journal.acceptTerms(), true);
      return;
    }
    if (peer.legalActions().length && this.player) {
      // No thinking pause here: the computer decides and sends at once; the page paces how its
      // moves are shown (pace.js), so the protocol and the next deal never wait for it (issue 26).
      const engine = liveEngine(peer.flow);
      // The match so far, as the Python driver tells its strategies (scores, rounds played).
      const options = peer.legalActions().length;
      const started = performance.now();
      const action = this.player.choose(engine, peer.seat, RoundFollower.context(/** @type {any} */ (peer.flow), engine.profile));
      DECISIONS.push({ ms: performance.now() - started, options });
      await this.#step(() => this.journal.decide(action), true);
    }
  }

  /**
   * The person's decision from the page.
   * @param {{[key: string]: unknown}} dict an action in wire form, one of the options posted
   */
  decide(dict) {
    return this.#enqueue(async () => {
      const action = actionFromDict(dict);
      const flow = this.peer.flow;
      if (this.#checkOwnTime()) return;
      // A second click, or a click on a board that has moved on, is not a move: ignore it.
      if (this.finished || !flow || !flow.isLegal(this.peer.seat, action) || !this.peer.legalActions().length) return;
      await this.#step(() => this.journal.decide(action), true);
    });
  }

  acceptTerms() {
    return this.#enqueue(async () => {
      const flow = this.peer.flow;
      if (this.#checkOwnTime()) return;
      if (this.finished || !flow || flow.expected()?.type !== 'accept' || this.peer.seat !== 1) return;
      await this.#step(() => this.journal.acceptTerms(), true);
    });
  }

  /**
   * The person refused the terms, or said the security code differs: nothing more is sent, the
   * match ends here (PLAN item 3).
   * @param {'terms_refused' | 'sas_differs'} [reason]
   */
  refuseTerms(reason = 'terms_refused') {
    const detail = reason === 'sas_differs' ? 'the security codes differ' : 'you refused the proposed terms';
    return this.#enqueue(async () => this.#stop({ reason, detail, blame: null }));
  }

  /**
   * The relay says the other seat left the room for good (`peer_left`) before the terms were
   * accepted: the other side has signed nothing, so no claim of ours could hold; the match ends
   * here at once, as for a joiner who refused the terms (it leaves so). A relay could send this
   * falsely, but it can stop a match anyway.
   */
  peerLeft() {
    return this.#enqueue(async () => {
      const flow = /** @type {any} */ (this.peer.flow);
      if (this.finished || (flow && flow.accepted)) return;
      // With a password, a joiner that hangs up before the handshake ends most likely found the
      // passwords differ (the side that finds out first leaves): say so to the host, as the terminal does.
      if (!this.peer.channel && this.record.setup.password) {
        this.#stop({ reason: 'left_in_handshake', detail: 'the other side left during the handshake', blame: null });
        return;
      }
      // After the handshake a joiner could only refuse the terms or quit at their question: say so
      // to the host (the host proposed them: a joiner keeps peer_left). spec/game.md §2.5.
      this.#stop({ reason: this.peer.channel && this.peer.seat === 0 ? 'left_before_terms' : 'peer_left', detail: 'the other side left before the terms were accepted', blame: null });
    });
  }

  /** Resign where this seat is asked to act (spec/game.md §6.3): a result naming the other seat the winner, which it countersigns. */
  resign() {
    return this.#enqueue(async () => {
      if (this.#checkOwnTime()) return;
      if (this.finished || !this.#canResign()) return;
      // Only through the journal: a resignation it did not log would not survive a reload.
      await this.#step(() => this.journal.resign(), true);
    });
  }

  /** Whether the person is asked to accept or refuse the host's terms now (seat 1, nothing sent yet). */
  #termsAsked() {
    const flow = this.peer.flow;
    return this.info.termsProposed && this.peer.seat === 1 && !this.peer.autoAccept && !!flow && flow.expected()?.type === 'accept';
  }

  /** Whether the flow expects this seat's `act` now (where a resignation is allowed). */
  #canResign() {
    const e = this.peer.flow?.expected();
    return !!e && e.type === 'act' && e.seat === this.peer.seat;
  }

  #abandon() {
    try {
      const claim = this.peer.abandonmentClaim();
      const wait = /** @type {any} */ (this.peer.flow).waitingFor();
      this.#keepFile('evidence', claim);
      this.#stop({ reason: 'abandoned', detail: `no ${wait.type} from player ${wait.seat} within the deadline`, blame: wait.seat });
    } catch (e) {
      this.#stop({ reason: 'abandoned', detail: String(e), blame: null });
    }
  }

  /** @param {{reason: string, detail: string, blame: number | null}} failure */
  #stop(failure) {
    if (this.finished) return;
    this.info.failure = { ...failure, seq: null };
    this.#finish();
    this.#publish();
  }

  /** @param {unknown} e */
  #crash(e) {
    this.#stop({ reason: /** @type {any} */ (e)?.reason ?? 'internal_error', detail: String(/** @type {any} */ (e)?.message ?? e), blame: null });
  }

  #finish() {
    if (this.finished) return;
    this.finished = true;
    this.#ended('ended');
    for (const t of [this.deadlineTimer, this.ownTimer]) if (t) clearTimeout(t);
    const peer = this.peer;
    if (peer.channel) this.#keepFile('transcript', peer.done ? peer.transcript() : (peer.evidence ?? peer.transcript()));
    if (peer.done) this.#keepFile('result', peer.resultFile());
    if (peer.evidence) this.#keepFile('evidence', peer.evidence);
    // The journal holds the seed of every key: forget it now that the match is over. A person's
    // page keeps what its last screen shows (the summary and the files) first, so that a reload
    // at the end shows the same summary: one of the two records exists at every moment.
    const id = this.record.id;
    const forget = () => deleteSeat(id).catch(() => {});
    if (this.record.role === 'human') saveFinal(id, { table: this.table(), files: { ...this.files } }).then(forget, forget);
    else forget();
  }

  /** @param {'transcript' | 'result' | 'evidence'} kind @param {Uint8Array} bytes */
  #keepFile(kind, bytes) {
    if (this.record.role !== 'human') return;
    this.files[kind] = bytes;
    this.post({ type: 'file', kind, bytes, id: this.record.id });
  }

  /** The table for the page. */
  table() {
    const peer = this.peer;
    const flow = peer.flow;
    // Between deals (and after a resignation) the board keeps showing the deal just played.
    const live = liveEngine(flow);
    if (live && 'view' in live) this.shown = live;
    const engine = this.shown;
    const ask = this.finished || !live ? null : askOf(peer, live);
    this.#trackWait(Date.now());
    const match = flow && flow.match ? { scores: flow.match.scores, roundIndex: flow.match.roundIndex, dealer: flow.match.dealer, over: flow.match.over } : null;
    return {
      id: this.record.id, seat: peer.seat, mode: this.record.meta.mode, room: peer.room, meta: pageMeta(this.record.meta),
      // Asked now, from the flow itself: a reloaded page must not ask again terms already accepted.
      paired: this.info.paired, terms: this.info.terms, termsProposed: !this.finished && this.#termsAsked(),
      round: engine ? roundTable(engine, peer.seat) : null,
      ask, hint: ask && ask.kind === 'decide' && engine ? koikoiHint(engine, peer.seat) : null,
      handYakuPoints: ask && ask.kind === 'hand_yaku' && engine ? { ...engine.profile.hand_yaku } : null,
      // spec/rules.md §5.4: the teshi claim of hand_whole_month = redeal deals again (no points).
      handMonthRedeal: ask && ask.kind === 'hand_yaku' && engine ? engine.profile.hand_whole_month === 'redeal' : false,
      match, lastRound: this.info.lastRound, rounds: this.info.rounds, over: this.info.over, failure: this.info.failure, finished: this.finished,
      wait: this.info.wait, deal: dealOf(flow), connection: this.info.connection,
      deadlines: this.useDeadlines, resigned: this.info.resigned, timeUp: this.info.timeUp,
      canResign: !this.finished && this.#canResign(),
      history: this.history.table(),
    };
  }

  /**
   * The board as the deal ended, before the flow moves on: one input can end a deal and begin the
   * next (the last draw, the call, the signatures, the next shuffle), and the table published after
   * it shows the next deal, so without this the page never showed the move that ended the deal
   * (QA: the computer's winning capture was missing behind the round summary).
   * @param {any} ev the round_over event
   */
  #publishEnded(ev) {
    if (this.replaying || this.record.role !== 'human') return;
    const engine = /** @type {any} */ (this.peer.flow)?.closing?.live?.engine ?? null;
    if (!engine || !('view' in engine)) return;
    this.shown = engine;
    this.post({ type: 'table', table: { ...this.table(), round: roundTable(engine, this.peer.seat), ask: null, hint: null, wait: null, deal: ev.deal } });
  }

  #publish() {
    if (this.replaying || (this.record.role !== 'human' && !this.useDeadlines)) return;
    const table = this.table();
    if (this.record.role === 'human') this.post({ type: 'table', table });
    this.#armDeadline();
  }

  /**
   * How the link to the opponent is: paired, pairing again with our relay unreachable, or pairing
   * again with the relay answering and the opponent not there.
   * @param {'connected' | 'reconnecting' | 'peer_away'} state
   */
  connectionState(state) {
    if (this.finished) return; // the link after the end (the peer leaving) is no news for the page
    if (this.info.connection === state) return;
    this.info.connection = state;
    this.#publish();
  }
}

/**
 * The seat's notes as the page may see them: without the relay seat's resume token, which only
 * the worker needs (whoever holds it can take the host's relay seat).
 * @param {{[key: string]: unknown}} meta
 */
function pageMeta(meta) {
  const link = /** @type {any} */ (meta.link);
  if (!link || !('token' in link)) return meta;
  const { token: _token, ...rest } = link;
  return { ...meta, link: rest };
}

/**
 * A host's resume token serves only while it waits for its joiner (worker.js roomBack): once the
 * opening went out it is dropped from the saved notes.
 * @param {{[key: string]: unknown}} meta
 */
function forgetToken(meta) {
  const link = /** @type {any} */ (meta.link);
  if (link && 'token' in link) delete link.token;
}

/** The engine of the deal in play, or null (the flow keeps it with the live deal). @param {any} flow */
function liveEngine(flow) {
  if (!flow) return null;
  if ('live' in flow) return flow.live ? flow.live.engine : null;
  return flow.engine ?? null;
}

/** The number of the deal in play, or -1. @param {any} flow */
function dealOf(flow) {
  if (!flow) return -1;
  if (typeof flow.deal === 'number') return flow.deal;
  return flow.live ? flow.live.deal : -1;
}

/** The terms as the page shows them. @param {any} terms */
function summariseTerms(terms) {
  return {
    profile: terms.profile.toDict ? terms.profile.toDict() : terms.profile, rounds: terms.rounds, deadlines: terms.deadlines,
    names: terms.names ?? null, rated: terms.rated ?? false, ratings: terms.ratings ?? '',
  };
}

/** @param {string} hex */
function fromHexFast(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

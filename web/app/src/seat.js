// One seat of a match, driven in a worker: the core's journaled game peer over a transport (a
// message port to the practice computer, or the relay through the retransmission link), saved
// to IndexedDB after every input and before the frames it caused leave (spec/protocol.md §12.3).
// A person's seat posts the table after every change and waits for decisions from the page; a
// computer seat decides itself. When the match ends the journal (which holds the seed of every
// key) is deleted; the transcript and result files are kept for download.
import { Journal } from '../../src/protocol/journal.js';
import { actionFromDict } from '../../src/rules/actions.js';
import { createPlayer } from '../../src/ai/players.js';
import { toHex } from '../../src/bytes.js';
import { appendInput, deleteSeat, loadInputs, loadSeat, saveSeat, setValue } from './store.js';
import { askOf, koikoiHint, roundTable } from './table.js';
import { LocalError } from '../../src/protocol/errors.js';

const ZERO_HASH = toHex(new Uint8Array(32));

/**
 * @typedef {import('./store.js').SeatRecord} SeatRecord
 * @typedef {{send: (data: Uint8Array) => void, receive: () => Promise<Uint8Array>, close?: () => Promise<void>, onRestart?: () => void}} Transport
 */

export class Seat {
  /**
   * @param {SeatRecord} record @param {Journal} journal
   * @param {{post: (msg: any) => void, deadlines?: boolean, computerDelayMs?: number}} io
   */
  constructor(record, journal, io) {
    this.record = record;
    this.journal = journal;
    this.post = io.post;
    this.useDeadlines = io.deadlines ?? false;
    this.computerDelayMs = io.computerDelayMs ?? 0;
    this.player = record.role === 'computer' ? createPlayer(/** @type {any} */ (record.meta.level ?? 'random'), String(record.meta.playerSeed ?? record.id)) : null;
    /** @type {Transport | null} */
    this.transport = null;
    /** @type {Uint8Array[]} frames sent since the peer last proved it has what we sent (§12.3) */
    this.outbox = [];
    /** @type {Promise<void>} inputs are applied and saved one at a time, in order */
    this.queue = Promise.resolve();
    this.replaying = false;
    /** what the page shows besides the round @type {any} */
    this.info = {
      /** @type {any} */ paired: null, /** @type {any} */ terms: null, termsProposed: false,
      /** @type {any} */ lastRound: null, /** @type {any} */ over: null, /** @type {any} */ failure: null,
      /** @type {{seat: number, type: string, seconds: number, since: number} | null} */ wait: null, connection: 'connected',
    };
    this.finished = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.deadlineTimer = null;
    /** @type {(v: null) => void} */
    this.#late = () => {};
    /** resolves (with null) when the opponent's deadline has passed @type {Promise<null>} */
    this.late = new Promise((resolve) => { this.#late = resolve; });
  }

  /** @type {(v: null) => void} */
  #late;

  /**
   * A new seat: its record saved before anything is sent.
   * @param {{id: string, role: 'human' | 'computer', options: any, meta: {[key: string]: unknown}}} spec
   * @param {{post: (msg: any) => void, deadlines?: boolean, computerDelayMs?: number}} io
   */
  static async create(spec, io) {
    const journal = Journal.create(spec.options);
    /** @type {SeatRecord} */
    const record = { id: spec.id, role: spec.role, setup: journal.state.setup, sent: 0, sentHash: ZERO_HASH, count: 0, meta: spec.meta };
    await saveSeat(record);
    return new Seat(record, journal, io);
  }

  /**
   * A saved seat rebuilt by replaying its inputs; the frames of its outbox are re-sent when the
   * transport is attached (the receiver ignores exact repeats).
   * @param {string} id @param {{post: (msg: any) => void, deadlines?: boolean, computerDelayMs?: number}} io
   */
  static async restore(id, io) {
    const record = await loadSeat(id);
    if (!record) throw new LocalError('no_saved_match', `no saved seat ${id}`);
    const inputs = await loadInputs(id);
    const journal = new Journal({ version: 1, setup: record.setup, inputs: [], sent: 0, sentHash: ZERO_HASH });
    const seat = new Seat(record, journal, io);
    seat.replaying = true;
    if (record.setup.seat === 0) seat.#absorb(journal.start(), false);
    for (const input of inputs) {
      const i = /** @type {any} */ (input);
      if ('frame' in i) {
        const before = seat.#progress();
        const out = journal.receive(fromHexFast(i.frame));
        seat.#absorb(out, seat.#progress() > before);
      } else if ('decide' in i) seat.#absorb(journal.decide(actionFromDict(i.decide)), false);
      else seat.#absorb(journal.acceptTerms(), false);
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
    transport.onRestart = () => this.#resend();
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
      if (frame === null) {
        this.#abandon();
        break;
      }
      await this.#enqueue(async () => {
        const before = this.#progress();
        await this.#step(() => this.journal.receive(frame), { frame: toHex(frame) }, () => this.#progress() > before);
      });
    }
    await this.queue;
    await transport.close?.();
  }

  /** The next frame, or null when the opponent missed its deadline (§12.4). */
  async #nextFrame() {
    const transport = /** @type {Transport} */ (this.transport);
    return /** @type {Promise<Uint8Array | null>} */ (Promise.race([transport.receive(), this.late]));
  }

  /**
   * Arm the clock of the opponent's current wait (spec/game.md §7.1): when it runs out with the
   * flow still waiting for the same message, the receive loop stops and we sign the claim.
   */
  #armDeadline() {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const wait = this.info.wait;
    if (!this.useDeadlines || this.finished || !wait || wait.seat === this.peer.seat) return;
    const mark = this.#progress();
    this.deadlineTimer = setTimeout(() => {
      const now = this.peer.flow?.waitingFor();
      if (this.finished || this.#progress() !== mark || !now || now.seat !== wait.seat) return;
      this.#late(null);
    }, Math.max(0, wait.since + wait.seconds * 1000 - Date.now()));
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
    if (grew) {
      this.record.count += 1;
      this.record.sent = this.journal.sent;
      this.record.sentHash = toHex(this.journal.sentHash);
      await appendInput(this.record, this.journal.state.inputs[this.journal.state.inputs.length - 1]);
    } else if (out.frames.length) {
      this.record.sent = this.journal.sent;
      this.record.sentHash = toHex(this.journal.sentHash);
      await saveSeat(this.record);
    }
    this.#absorb(out, advanced ? advanced() : false);
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

  #resend() {
    for (const f of this.outbox) this.#send(f);
  }

  /**
   * Record what an output changed (outbox, events) without sending.
   * @param {import('../../src/protocol/peer.js').Output} out @param {boolean} peerAdvanced
   */
  #absorb(out, peerAdvanced) {
    if (peerAdvanced && this.peer.channel) this.outbox = [];
    this.outbox.push(...out.frames);
    for (const ev of out.events) this.#event(ev);
  }

  /** @param {any} ev */
  #event(ev) {
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
        info.lastRound = { result: ev.result, scores: ev.scores, roundIndex: ev.roundIndex, deal: ev.deal };
        break;
      case 'match_over':
        info.over = { scores: ev.scores, winner: ev.winner };
        break;
      case 'failure':
        info.failure = { reason: ev.reason, detail: ev.detail, blame: ev.blame, seq: ev.seq };
        break;
      default:
        break;
    }
  }

  /** Decisions the seat makes itself: a computer's moves and terms; the end of the match. */
  async #continue() {
    if (this.replaying) return;
    const peer = this.peer;
    if (peer.failed) return this.#finish();
    if (peer.done) return this.#finish();
    if (this.record.role !== 'computer') return;
    if (peer.flow && peer.flow.state === 'accepting' && peer.seat === 1 && !peer.autoAccept && this.info.termsProposed) {
      await this.#step(() => this.journal.acceptTerms(), true);
      return;
    }
    if (peer.legalActions().length && this.player) {
      if (this.computerDelayMs) await new Promise((r) => setTimeout(r, this.computerDelayMs));
      const action = this.player.choose(/** @type {any} */ (peer.flow).engine, peer.seat);
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
      // A second click, or a click on a board that has moved on, is not a move: ignore it.
      if (this.finished || !flow || !flow.isLegal(this.peer.seat, action) || !this.peer.legalActions().length) return;
      await this.#step(() => this.journal.decide(action), true);
    });
  }

  acceptTerms() {
    return this.#enqueue(async () => {
      const flow = this.peer.flow;
      if (this.finished || !flow || flow.state !== 'accepting' || this.peer.seat !== 1) return;
      await this.#step(() => this.journal.acceptTerms(), true);
    });
  }

  /** The person refused the terms: nothing is sent, the match ends here (PLAN item 3). */
  refuseTerms() {
    return this.#enqueue(async () => this.#stop({ reason: 'terms_refused', detail: 'you refused the proposed terms', blame: null }));
  }

  /** Resign, where the core offers it (spec/game.md, the resign message). */
  resign() {
    const peer = /** @type {any} */ (this.peer);
    const journal = /** @type {any} */ (this.journal);
    void peer;
    // Only through the journal: a resignation it did not log would not survive a reload.
    if (typeof journal.resign !== 'function') {
      this.post({ type: 'notice', key: 'errorGeneric', params: { reason: 'resign is not available in this version of the protocol' } });
      return Promise.resolve();
    }
    return this.#enqueue(() => this.#step(() => journal.resign(), true));
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
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    const peer = this.peer;
    if (peer.channel) this.#keepFile('transcript', peer.done ? peer.transcript() : (peer.evidence ?? peer.transcript()));
    if (peer.done) this.#keepFile('result', peer.resultFile());
    if (peer.evidence) this.#keepFile('evidence', peer.evidence);
    // The journal holds the seed of every key: forget it now that the match is over.
    deleteSeat(this.record.id).catch(() => {});
  }

  /** @param {'transcript' | 'result' | 'evidence'} kind @param {Uint8Array} bytes */
  #keepFile(kind, bytes) {
    if (this.record.role !== 'human') return;
    setValue(`file/${this.record.id}/${kind}`, bytes).catch(() => {});
    this.post({ type: 'file', kind, bytes, id: this.record.id });
  }

  /** The table for the page. */
  table() {
    const peer = this.peer;
    const flow = peer.flow;
    const engine = flow && flow.engine && 'view' in flow.engine ? flow.engine : null;
    const ask = this.finished ? null : askOf(peer);
    const wait = flow && !this.finished ? flow.waitingFor() : null;
    if (wait) {
      const same = this.info.wait && this.info.wait.seat === wait.seat && this.info.wait.type === wait.type && this.info.wait.deal === flow?.deal;
      this.info.wait = same ? this.info.wait : { ...wait, since: Date.now(), deal: flow?.deal };
    } else this.info.wait = null;
    const match = flow && flow.match ? { scores: flow.match.scores, roundIndex: flow.match.roundIndex, dealer: flow.match.dealer, over: flow.match.over } : null;
    return {
      id: this.record.id, seat: peer.seat, mode: this.record.meta.mode, room: peer.room, meta: this.record.meta,
      paired: this.info.paired, terms: this.info.terms, termsProposed: this.info.termsProposed && !this.finished,
      round: engine ? roundTable(engine, peer.seat) : null,
      ask, hint: ask && ask.kind === 'decide' && engine ? koikoiHint(engine, peer.seat) : null,
      handYakuPoints: ask && ask.kind === 'hand_yaku' && engine ? { ...engine.profile.hand_yaku } : null,
      match, lastRound: this.info.lastRound, over: this.info.over, failure: this.info.failure, finished: this.finished,
      wait: this.info.wait, deal: flow ? flow.deal : -1, connection: this.info.connection,
      canResign: typeof (/** @type {any} */ (this.journal)).resign === 'function',
    };
  }

  #publish() {
    if (this.replaying || (this.record.role !== 'human' && !this.useDeadlines)) return;
    const table = this.table();
    if (this.record.role === 'human') this.post({ type: 'table', table });
    this.#armDeadline();
  }

  /** @param {'connected' | 'reconnecting'} state */
  connectionState(state) {
    this.info.connection = state;
    this.#publish();
  }
}

/** The terms as the page shows them. @param {any} terms */
function summariseTerms(terms) {
  return {
    profile: terms.profile.toDict ? terms.profile.toDict() : terms.profile, rounds: terms.rounds, deadlines: terms.deadlines,
    names: terms.names ?? null, rated: terms.rated ?? false,
  };
}

/** @param {string} hex */
function fromHexFast(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

// One seat of a match, sans-I/O: the handshake, the channel and the game flow together. Feed it
// the frames that arrive (`receive`) and the person's decisions (`decide`, `acceptTerms`); it
// returns the frames to send and the events to show. Everything it does not decide itself (a
// move, accepting the terms) waits for the caller; every other message it makes at once.
import { Channel } from './channel.js';
import { Handshake } from './handshake.js';
import { LocalError, ProtocolError, RemoteViolation } from './errors.js';
import { GameFlow, GameViolation } from './flow.js';
import { DEFAULT_DEADLINES, makeTerms, ratingsProblem } from './terms.js';
import { encodeResultFile, matchStatement } from './results.js';
import { bestClaims } from '../rules/handyaku.js';
import { NO_HAND_YAKU, claimHandYaku } from '../rules/actions.js';
import { dealLayout } from '../rules/deal.js';
import { event } from './events.js';
import { ABANDON_MAGIC, encodeEvidence, encodeTranscript } from './transcript.js';
import { encode } from './codec.js';
import { concat, u8, utf8 } from '../bytes.js';

import { fingerprint } from './identity.js';
import { actionToDict, sameAction } from '../rules/actions.js';

/** The domain of an abandonment claim's statement (spec/protocol.md §12.4). */
export const ABANDON_DOMAIN = 'koikoi-p2p/faults/v2/abandon';

/**
 * @typedef {ReturnType<typeof event>} PeerEvent
 * @typedef {{frames: Uint8Array[], events: PeerEvent[]}} Output
 */

export class GamePeer {
  /**
   * @param {{seat: 0 | 1, identity: import('./identity.js').Identity, room: string, password?: string | null,
   *   rng: (n: number) => Uint8Array, seed?: Uint8Array, name?: string, profile?: import('../rules/profile.js').Profile,
   *   deadlines?: {step: number, turn: number}, autoAccept?: boolean, rated?: boolean, ratings?: string,
   *   tamper?: (type: string, body: {[key: string]: any}) => {[key: string]: any}}} options
   *   seat 0 proposes `profile` (and `deadlines`, and a rated match on the service `ratings`); seat 1 is asked (`terms_proposed`) unless `autoAccept`.
   *   `tamper` is for adversarial tests only: it changes a body after our own flow applied it and
   *   before it is signed, so the peer receives a message we did not play.
   */
  constructor(options) {
    if (options.seat === 0 && !options.profile) throw new LocalError('bad_argument', 'seat 0 proposes a profile');
    this.seat = options.seat;
    this.identity = options.identity;
    this.room = options.room;
    this.rng = options.rng;
    this.profile = options.profile ?? null;
    this.deadlines = options.deadlines ?? DEFAULT_DEADLINES;
    this.rated = options.rated ?? false;
    this.ratings = options.ratings ?? '';
    // A bad rating service is refused here, before anything is sent (spec/game.md §2.2).
    const ratingsBad = ratingsProblem(this.rated, this.ratings);
    if (ratingsBad) throw new LocalError('bad_argument', ratingsBad);
    this.autoAccept = options.autoAccept ?? false;
    this.tamper = options.tamper ?? null;
    /** the secret seed every draw of this match is hedged with (spec/protocol.md §5.7, crypto.md §3.5) */
    this.seed = options.seed ?? options.rng(32);
    this.name = options.name ?? '';
    this.handshake = new Handshake({
      seat: options.seat, identity: options.identity, room: options.room, name: this.name, password: options.password ?? null, seed: this.seed,
    });
    /** @type {Channel | null} */
    this.channel = null;
    /** @type {GameFlow | null} */
    this.flow = null;
    /** @type {PeerEvent[]} */
    this.pending = [];
    this.asked = false;
    /** @type {import('./handshake.js').HandshakeResult | null} */
    this.session = null;
    /** @type {PeerEvent | null} */
    this.failure = null;
    /** @type {Uint8Array | null} the evidence file, after a remote violation */
    this.evidence = null;
    /**
     * Called once an envelope of the other seat is accepted, with the events it caused (its move,
     * the cards it revealed, a round's end), before this seat composes its answer (shares, the
     * next deal's key and shuffle): an interface shows the opponent's move there, so the screen
     * does not wait for our reply (issue 26). Those events are then not repeated in the output.
     * @type {((events: PeerEvent[]) => void) | null}
     */
    this.onAccepted = null;
  }

  /** Seat 0's opening frames (empty for seat 1). @returns {Output} */
  start() {
    return this.#guard(() => (this.seat === 0 ? this.handshake.start() : []));
  }

  get done() {
    return !!this.flow && this.flow.done;
  }

  get failed() {
    return this.failure !== null;
  }

  /**
   * A frame from the transport.
   * @param {Uint8Array} frame
   * @returns {Output}
   */
  receive(frame) {
    return this.#guard(() => {
      if (!this.channel) {
        const out = this.handshake.receive(frame);
        if (this.handshake.done) out.push(...this.#paired());
        return out;
      }
      const flow = /** @type {GameFlow} */ (this.flow);
      const head = this.channel.head;
      const accepted = this.channel.receive(frame);
      if (!accepted) return [];
      flow.apply(accepted.sender, accepted.type, accepted.body, { seq: accepted.seq, head, digest: accepted.digest });
      if (this.onAccepted) {
        this.#drainFlowEvents();
        const shown = this.pending.splice(0);
        // A failing callback is the embedder's bug, not the peer's: the events go back to the
        // output as if there were no callback, and the match goes on (no answer left unmade).
        if (shown.length) {
          try {
            this.onAccepted(shown);
          } catch {
            this.pending.unshift(...shown);
          }
        }
      }
      return this.#advance();
    });
  }

  /**
   * The person's move when `your_turn` asked for one.
   * @param {import('../rules/actions.js').Action} action
   * @returns {Output}
   */
  decide(action) {
    const flow = this.flow;
    if (!flow || !flow.isLegal(this.seat, action)) throw new LocalError('illegal_choice', 'not one of the legal actions now');
    return this.#guard(() => {
      this.asked = false;
      const frames = this.#send('act', { action: /** @type {any} */ (actionToDict(action)), shares: [] });
      return frames.concat(this.#advance());
    });
  }

  /** Seat 1 accepts the proposed terms. @returns {Output} */
  acceptTerms() {
    const flow = this.flow;
    if (!flow || flow.expected()?.type !== 'accept' || this.seat !== 1) throw new LocalError('bad_state', 'no terms to accept');
    return this.#guard(() => {
      this.asked = false;
      const frames = this.#send('accept', { terms: /** @type {Uint8Array} */ (flow.termsDigest) });
      return frames.concat(this.#advance());
    });
  }

  /** The legal actions when it is this seat's move. */
  legalActions() {
    const flow = this.flow;
    const e = flow?.expected();
    return flow && e && e.type === 'act' && e.seat === this.seat ? flow.legalActions() : [];
  }

  /** @param {() => Uint8Array[]} fn @returns {Output} */
  #guard(fn) {
    if (this.failure) throw new LocalError('bad_state', 'the match stopped');
    try {
      const frames = fn();
      return { frames, events: this.pending.splice(0) };
    } catch (e) {
      if (e instanceof RemoteViolation || e instanceof GameViolation) {
        this.#fail(e);
        return { frames: [], events: this.pending.splice(0) };
      }
      throw e;
    }
  }

  /** @param {RemoteViolation | GameViolation} e */
  #fail(e) {
    const seq = e instanceof GameViolation ? e.seq : /** @type {number | undefined} */ (e.evidence.seq) ?? null;
    const blame = e instanceof GameViolation ? e.seat : (e.evidence.peerFault ? 1 - this.seat : null);
    if (this.session && this.channel) this.evidence = this.#evidenceFile(e, seq);
    this.failure = event('failure', { reason: e.reason, detail: e.detail, blame, seq, evidence: this.evidence });
    this.pending.push(this.failure);
  }

  /** @param {RemoteViolation | GameViolation} e @param {number | null} seq */
  #evidenceFile(e, seq) {
    const channel = /** @type {Channel} */ (this.channel);
    const flow = this.flow;
    /** @type {{[key: string]: any}} */
    let offence;
    let entries = channel.entries();
    if (e instanceof GameViolation && seq !== null && seq < entries.length) {
      const bad = entries[seq];
      entries = entries.slice(0, seq);
      offence = { seat: e.seat ?? 1 - this.seat, seq, envelope: bad.envelope, signature: bad.signature };
    } else {
      const ev = /** @type {RemoteViolation} */ (e).evidence ?? {};
      offence = {};
      for (const k of ['frame', 'envelope', 'signature', 'seq', 'accepted_envelope', 'accepted_signature', 'accepted_digest']) {
        if (ev[k] !== undefined) offence[k] = ev[k];
      }
      if (offence.envelope) offence.seat = 1 - this.seat;
    }
    offence.deal = flow && flow.live ? flow.live.deal : -1;
    /** @type {[number, Uint8Array][]} */
    const keys = [];
    if (flow) {
      for (const [d, entry] of flow.decks) {
        const disclosedPair = flow.disclosed.get(d);
        if (entry.deck.secret && !(disclosedPair && disclosedPair[this.seat])) keys.push([d, entry.deck.secret]);
      }
    }
    offence.round_keys = /** @type {any} */ (keys);
    return encodeEvidence({
      handshake: /** @type {any} */ (this.session).record, reporter: this.seat, reason: e.reason, message: e.detail, entries, offence,
    });
  }

  #paired() {
    const hs = /** @type {import('./handshake.js').HandshakeResult} */ (this.handshake.result);
    this.session = hs;
    this.channel = new Channel(hs, this.identity);
    this.flow = new GameFlow({ viewer: this.seat, sessionId: hs.sessionId, room: this.room, identityKeys: hs.identityKeys, names: hs.names });
    this.pending.push(event('paired', {
      seat: this.seat, sas: hs.sas, identityKeys: hs.identityKeys, names: hs.names,
      fingerprints: hs.identityKeys.map((k) => fingerprint(k)),
    }));
    // Seat 0 sends SIGN in one flight with its first envelope (spec/protocol.md §5.2).
    return [...(hs.pendingSign ? [hs.pendingSign] : []), ...this.#advance()];
  }

  /**
   * Make every message that is ours to send and needs no decision.
   * @returns {Uint8Array[]}
   */
  #advance() {
    const flow = /** @type {GameFlow} */ (this.flow);
    /** @type {Uint8Array[]} */
    const frames = [];
    for (;;) {
      this.#drainFlowEvents();
      const e = flow.expected();
      if (!e || e.seat !== this.seat) break;
      if (e.type === 'act') {
        if (!this.asked) {
          const need = /** @type {any} */ (flow.live).engine.need;
          this.pending.push(event('your_turn', { kind: need.kind, options: flow.legalActions(), deal: /** @type {any} */ (flow.live).deal }));
          this.asked = true;
        }
        break;
      }
      if (e.type === 'accept' && !this.autoAccept) {
        if (!this.asked) {
          this.pending.push(event('terms_proposed', { terms: flow.terms }));
          this.asked = true;
        }
        break;
      }
      frames.push(...this.#make(e));
    }
    this.#drainFlowEvents();
    return frames;
  }

  #drainFlowEvents() {
    const flow = /** @type {GameFlow} */ (this.flow);
    for (const ev of flow.events.splice(0)) {
      if (ev.type === 'match_over') {
        const sigs = /** @type {[Uint8Array, Uint8Array]} */ (flow.matchSignatures);
        this.pending.push(event('match_over', { ...ev, resultFile: encodeResultFile(/** @type {any} */ (flow.matchResult), sigs) }));
      } else this.pending.push(event(ev.type, ev));
    }
  }

  /** @param {import('./flow.js').Expectation} e */
  #make(e) {
    const flow = /** @type {GameFlow} */ (this.flow);
    const channel = /** @type {Channel} */ (this.channel);
    const hs = /** @type {import('./handshake.js').HandshakeResult} */ (this.session);
    const deal = /** @type {number} */ (e.deal);
    switch (e.type) {
      case 'terms':
        return this.#send('terms', makeTerms({ profile: /** @type {any} */ (this.profile), deadlines: this.deadlines, keys: channel.identityKeys, names: hs.names, room: this.room, rated: this.rated, ratings: this.ratings }));
      case 'accept':
        return this.#send('accept', { terms: /** @type {Uint8Array} */ (flow.termsDigest) });
      case 'key': {
        const deck = flow.deckOf(deal);
        return this.#send('key', { deal, key: deck.makeKey(deck.keyStream(this.seed, channel.head)) });
      }
      case 'shuffle': {
        const deck = flow.deckOf(deal);
        return this.#send('shuffle', { deal, deck: deck.makeShuffle(deck.shuffleStream(this.seed, channel.head)) });
      }
      case 'reveal':
        return this.#send('reveal', { shares: [] });
      case 'declare':
        return this.#send('declare', { action: /** @type {any} */ (actionToDict(this.#declaration())), shares: [] });
      case 'disclose': {
        const c = /** @type {any} */ (flow.closing);
        return this.#send('disclose', { deal: c.deal, key: flow.deckOf(c.deal).disclose(), shares: [] });
      }
      case 'round_sign': {
        const c = flow.closedDeal(deal);
        return this.#send('round_sign', { deal, result: c.result, sig: this.identity.sign(flow.roundStatementOf(c)) });
      }
      case 'match_result': {
        const result = flow.ownMatchResult(channel.head);
        return this.#send('match_result', { result, sig: this.identity.sign(matchStatement(result)) });
      }
      case 'match_sign':
        return this.#send('match_sign', { sig: this.identity.sign(matchStatement(/** @type {any} */ (flow.matchResult))) });
      default:
        throw new LocalError('bad_state', `nothing makes a ${e.type}`);
    }
  }

  /** Our forced declaration (spec/game.md §5.5): the first of our best claims, else none. */
  #declaration() {
    const flow = /** @type {GameFlow} */ (this.flow);
    const live = /** @type {any} */ (flow.live);
    const deck = flow.deckOf(live.deal);
    const positions = dealLayout(live.params.dealer).hands[this.seat].slice();
    const cards = positions.map((p) => /** @type {number} */ (deck.cardAt(p)));
    const best = bestClaims(positions, cards, /** @type {any} */ (flow.terms).profile);
    return best.length ? claimHandYaku(best[0].yaku, best[0].positions) : NO_HAND_YAKU;
  }

  /** Resign where we are asked to act (spec/game.md §6.3). @returns {Output} */
  resign() {
    const flow = /** @type {GameFlow} */ (this.flow);
    const e = flow?.expected();
    if (!e || e.type !== 'act' || e.seat !== this.seat) throw new LocalError('bad_state', 'we may resign only where we are asked to act');
    return this.#guard(() => {
      this.asked = false;
      const channel = /** @type {Channel} */ (this.channel);
      const result = flow.ownMatchResult(channel.head, this.seat);
      return this.#send('resign', { result, sig: this.identity.sign(matchStatement(result)) }).concat(this.#advance());
    });
  }

  /**
   * Apply our own message to the flow (which makes the share groups we owe), then seal it.
   * @param {string} type @param {{[key: string]: import('./codec.js').Value}} body
   */
  #send(type, body) {
    const flow = /** @type {GameFlow} */ (this.flow);
    const channel = /** @type {Channel} */ (this.channel);
    try {
      flow.apply(this.seat, type, body, {
        seq: channel.next, head: channel.head, own: true,
        makeShares: (positions, deal) => {
          const deck = flow.deckOf(deal);
          return deck.makeShares(positions, deck.shareStream(this.seed, channel.head, positions));
        },
      });
    } catch (e) {
      if (e instanceof GameViolation && e.seat === this.seat) throw new LocalError('own_message_refused', `${type}: ${e.message}`);
      throw e;
    }
    const sent = channel.send(type, this.tamper ? this.tamper(type, body) : body);
    flow.recordDigest(sent.seq, sent.digest);
    return [sent.frame];
  }

  /** The transcript so far (with the closing marker once the match is done). */
  transcript() {
    const channel = /** @type {Channel} */ (this.channel);
    return encodeTranscript(/** @type {any} */ (this.session).record, channel.entries(), { closed: this.done, head: channel.head });
  }

  /**
   * The abandonment file of spec/protocol.md §12.4, when the other seat is the one to speak and
   * missed its deadline: the claim over the transcript head, signed by this seat, with the
   * transcript so far and this seat's round secret of the interrupted deal.
   */
  abandonmentClaim() {
    const flow = /** @type {GameFlow} */ (this.flow);
    const channel = /** @type {Channel} */ (this.channel);
    const wait = flow?.waitingFor();
    if (!wait || wait.seat === this.seat) throw new LocalError('bad_state', 'nobody owes us a message');
    const claim = {
      session_id: channel.sessionId, seq: channel.next, head: channel.head, claimant: this.seat, absent: wait.seat,
      expected: wait.type, deadline: wait.seconds,
    };
    const sig = this.identity.sign(concat(utf8(ABANDON_DOMAIN), u8(0), encode(claim)));
    // The interrupted deal: the deal in play, else the one closing, else the last one started.
    const deal = flow.deal;
    const secret = deal >= 0 && flow.decks.has(deal) ? flow.deckOf(deal).secret : null;
    return concat(ABANDON_MAGIC, encode({
      claim, sig, transcript: encodeTranscript(/** @type {any} */ (this.session).record, channel.entries(), { closed: false, head: channel.head }),
      deal: secret ? deal : -1, round_key: secret ?? new Uint8Array(0),
    }));
  }

  /** The co-signed result file once done. */
  resultFile() {
    const flow = /** @type {GameFlow} */ (this.flow);
    if (!flow.done) throw new LocalError('bad_state', 'the match is not over');
    return encodeResultFile(/** @type {any} */ (flow.matchResult), /** @type {[Uint8Array, Uint8Array]} */ (flow.matchSignatures));
  }
}

export { ProtocolError, sameAction };

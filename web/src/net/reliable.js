// The retransmission link below the channel (spec/protocol.md §12.1), sans-I/O: it numbers,
// acknowledges and re-sends frames so that a transport that drops, repeats, reorders or
// reconnects delivers the channel an ordered stream. It adds no trust: every payload is still
// opened and checked by the channel. Link ids carry no proof either, so with `vouching` the driver
// says which pairing is real after each payload (`vouch`/`reject`, §12.2): a stranger in a rejoin
// room that answers HELLOs and PINGs and acknowledges every DATA frame, under an id of its own or
// the real peer's, neither keeps the connection alive nor makes us forget a frame (§12.1 rule 5).
// Once the session exists (`setLivenessKey`) a payload proves nothing (a repeat of an old frame
// authenticates too): only a PROOF answering this connection's HELLO challenge, a MAC under a
// key of the session over both link ids, makes the connection live and the pairing vouched
// (§12.2 item 4). A bad proof is dropped and counted.
// Memory is bounded in bytes (§12.1 rule 3): early frames per pairing, and what was delivered and
// not yet consumed (the caller says with `consumed`). A frame that fits neither is not kept and
// so not acknowledged: an honest sender re-sends it once the reader has caught up (back-pressure).
//
// Link frame: kind (1) || from (8) || to (8) || rest, integers big-endian:
//   1 HELLO   challenge (16)   2 DATA  n (u32) || payload      3 ACK  next (u32)
//   4 PING    nothing          5 PONG  nothing                 6 PROOF mac (32)
import { concat, equal, readU32be, u32be, u8 } from '../bytes.js';
import { hmac, macEqual } from '../protocol/primitives.js';

export const HELLO = 1;
export const DATA = 2;
export const ACK = 3;
export const PING = 4;
export const PONG = 5;
export const PROOF = 6;
export const CHALLENGE_BYTES = 16;
export const PROOF_BYTES = 32;
/** Domain of the liveness MAC (spec/protocol.md §12.2 item 4). */
export const LIVENESS_LABEL = new TextEncoder().encode('koikoi-p2p/v2/link-liveness');
export const WINDOW = 4096;
export const MAX_PAYLOAD = 1 << 20;
/** Payload bytes held of DATA frames that arrived early (out of order), per pairing (§12.1 rule 3). */
export const EARLY_BYTES = 1 << 20;
/** Payload bytes delivered and not yet consumed by the driver (§12.1 rule 3). */
export const QUEUE_BYTES = 2 << 20;
const NO_ID = new Uint8Array(8);

/**
 * @typedef {{kind: number, from: Uint8Array, to: Uint8Array, n?: number, next?: number, payload?: Uint8Array}} LinkFrame
 *   payload: DATA's payload, HELLO's challenge, PROOF's MAC
 * @typedef {{out: Uint8Array[], deliver: Uint8Array[], restarted: boolean, tag: LinkTag}} LinkOutput
 */

/** @param {LinkFrame} f */
export function encodeLinkFrame(f) {
  const head = concat(u8(f.kind), f.from, f.to);
  if (f.kind === DATA) return concat(head, u32be(/** @type {number} */ (f.n)), /** @type {Uint8Array} */ (f.payload));
  if (f.kind === ACK) return concat(head, u32be(/** @type {number} */ (f.next)));
  if (f.kind === HELLO || f.kind === PROOF) return concat(head, /** @type {Uint8Array} */ (f.payload));
  return head;
}

/**
 * The answer of `prover` to the HELLO challenge of `challenger` (spec/protocol.md §12.2 item 4).
 * @param {Uint8Array} key @param {Uint8Array} challenger @param {Uint8Array} prover @param {Uint8Array} challenge
 */
export function livenessProof(key, challenger, prover, challenge) {
  return hmac(key, concat(LIVENESS_LABEL, challenger, prover, challenge));
}

/**
 * Parse a link frame; null when it does not parse (rule 1: ignored).
 * @param {Uint8Array} data
 * @returns {LinkFrame | null}
 */
export function decodeLinkFrame(data) {
  if (data.length < 17) return null;
  const kind = data[0];
  const from = data.slice(1, 9);
  const to = data.slice(9, 17);
  if (kind === PING || kind === PONG) return data.length === 17 ? { kind, from, to } : null;
  if (kind === HELLO) return data.length === 17 + CHALLENGE_BYTES ? { kind, from, to, payload: data.slice(17) } : null;
  if (kind === PROOF) return data.length === 17 + PROOF_BYTES && !equal(to, NO_ID) ? { kind, from, to, payload: data.slice(17) } : null;
  if (kind === DATA) {
    if (data.length < 21 || data.length - 21 > MAX_PAYLOAD) return null;
    return { kind, from, to, n: readU32be(data, 17), payload: data.slice(21) };
  }
  if (kind === ACK) return data.length === 21 ? { kind, from, to, next: readU32be(data, 17) } : null;
  return null;
}

/** @param {Uint8Array} id */
const key = (id) => Array.from(id).join(',');

/** Displaced ids kept while a new pairing is unproven (older ones are retired), as the Python link. */
export const MAX_DISPLACED = 8;

/**
 * Which pairing and which transport connection a delivered payload came on: the driver hands it
 * back with `vouch` or `reject` once the channel has judged the payload (spec/protocol.md §12.2).
 * @typedef {{generation: number, connection: number}} LinkTag
 */

export class ReliableLink {
  /**
   * @param {{rng: (n: number) => Uint8Array, retransmit?: number, maxRetransmit?: number, keepalive?: number,
   *   vouching?: boolean, giveUp?: number, period?: number, earlyBytes?: number, queueBytes?: number, confirm?: boolean}} options
   *   times in seconds: first retransmission timeout (doubling up to maxRetransmit), and the
   *   keepalive bound (0: none) after which a silent peer makes the driver reconnect.
   *   `vouching`: the driver says which pairing is real (`vouch`/`reject`, §12.2); only a
   *   connection on which a payload authenticated counts as hearing from the peer, and ACKs on
   *   any other are ignored (§12.1 rule 5). Without it any new id is trusted at once, as a bare
   *   link over a private transport may. `giveUp` (with vouching and a keepalive): how long
   *   without a live connection before `tick` says to give up. `period`: how often `tick` runs,
   *   so that a longer gap (our own process stalled) is not taken for the peer's silence.
   *   `earlyBytes`, `queueBytes`: the byte bounds of early frames and of delivered payloads the
   *   caller has not `consumed` yet (defaults EARLY_BYTES, QUEUE_BYTES). `confirm`: an ACK covers
   *   only the frames the caller confirmed (`confirm`) once it saved them, so an acknowledgement
   *   promises the frame survives a crash of this process (§12.1 rule 3, §12.3 item 1).
   */
  constructor(options) {
    this.rng = options.rng;
    this.id = this.#freshId();
    /** @type {Uint8Array | null} */
    this.peerId = null;
    /** @type {Set<string>} */
    this.retired = new Set();
    /** @type {Uint8Array[]} ids an unproven pairing displaced (not retired yet) */
    this.displaced = [];
    this.vouching = options.vouching ?? false;
    /** the current pairing delivered a payload that authenticated */
    this.vouched = false;
    /** the peer proved itself on this connection (always, without vouching) */
    this.live = !this.vouching;
    /** pairing number and transport connection number, to tell stale deliveries apart */
    this.generation = 0;
    this.connection = 0;
    /** the peer addressed a frame to our current id */
    this.peerKnowsMe = false;
    this.sendNext = 0;
    this.recvNext = 0;
    /** with `confirm`: frames of this pairing the caller said it saved (what an ACK covers) */
    this.confirming = options.confirm ?? false;
    this.confirmed = 0;
    /** @type {Map<number, Uint8Array>} our DATA not yet acknowledged, by n */
    this.unacked = new Map();
    /** @type {Map<number, Uint8Array>} DATA that arrived early */
    this.held = new Map();
    /** payload bytes in `held` */
    this.heldBytes = 0;
    /** payload bytes delivered and not yet consumed */
    this.queuedBytes = 0;
    this.maxEarly = options.earlyBytes ?? EARLY_BYTES;
    this.maxQueued = options.queueBytes ?? QUEUE_BYTES;
    /** @type {Uint8Array[]} payloads waiting for a pairing */
    this.queued = [];
    this.baseTimeout = options.retransmit ?? 1;
    this.maxTimeout = options.maxRetransmit ?? 8;
    this.timeout = this.baseTimeout;
    this.keepalive = options.keepalive ?? 0;
    this.giveUp = options.giveUp ?? Infinity;
    this.period = options.period ?? 0.2;
    this.lastProgress = 0;
    this.lastHeard = 0;
    /** the last frame that counted for liveness (or the start) */
    this.lastLive = 0;
    this.lastPing = 0;
    /** @type {number | null} */
    this.lastTick = null;
    this.stats = { rejected: 0, unproven: 0, stale: 0, resets: 0, dead: 0, badProofs: 0, refused: 0 };
    /** @type {Uint8Array | null} the session's liveness key, once it exists (§12.2 item 4) */
    this.livenessKey = null;
    /** this connection's challenge: fresh on every connection */
    this.challenge = this.rng(CHALLENGE_BYTES);
  }

  /**
   * The session exists: from now on only a liveness proof under `key` makes a connection live
   * and a pairing vouched (§12.2 item 4). Returns a HELLO to send at once when the connection
   * is not live yet (it asks for a proof).
   * @param {Uint8Array} key
   * @returns {Uint8Array[]}
   */
  setLivenessKey(key) {
    if (!(key instanceof Uint8Array) || key.length !== 32) throw new TypeError('a liveness key is 32 bytes');
    if (this.livenessKey && equal(this.livenessKey, key)) return [];
    this.livenessKey = key;
    return this.vouching && !this.live ? [this.#hello()] : [];
  }

  #hello() {
    return this.#frame(HELLO, this.peerId ?? NO_ID, { payload: this.challenge });
  }

  /** @param {number} now */
  #proveLive(now) {
    if (this.live) return;
    this.live = true;
    this.lastHeard = now;
    this.lastLive = now;
  }

  #provePairing() {
    if (this.vouched) return;
    this.vouched = true;
    for (const old of this.displaced.splice(0)) this.retired.add(key(old));
  }

  #freshId() {
    let id;
    do id = this.rng(8); while (equal(id, NO_ID));
    return id;
  }

  /** A fresh id of our own: the peer then starts a new pairing too (its counters restart). */
  #newOwnId() {
    this.retired.add(key(this.id));
    this.id = this.#freshId();
    this.generation += 1;
    this.recvNext = 0;
    this.confirmed = 0;
    this.held.clear();
    this.heldBytes = 0;
    this.peerKnowsMe = false;
  }

  /** The opening HELLO (the first connection). @param {number} now */
  start(now) {
    this.lastProgress = now;
    this.lastHeard = now;
    this.lastLive = now;
    this.lastTick = now;
    this.connection = 1;
    this.live = !this.vouching;
    return [this.#hello()];
  }

  /** @param {number} kind @param {Uint8Array} to @param {Partial<LinkFrame>} [rest] */
  #frame(kind, to, rest = {}) {
    return encodeLinkFrame({ kind, from: this.id, to, ...rest });
  }

  /**
   * Send one payload (held until the peer's id is known).
   * @param {Uint8Array} payload
   * @returns {Uint8Array[]}
   */
  send(payload) {
    if (payload.length > MAX_PAYLOAD) throw new RangeError('a link payload is at most 2^20 bytes');
    if (!this.peerId) {
      this.queued.push(payload);
      return [];
    }
    const n = this.sendNext++;
    this.unacked.set(n, payload);
    return [this.#frame(DATA, this.peerId, { n, payload })];
  }

  /** The pairing and connection payloads delivered now belong to. @returns {LinkTag} */
  get tag() {
    return { generation: this.generation, connection: this.connection };
  }

  /**
   * A new peer id (rule 2): the first pairing, the peer process restarted, or a stranger. With
   * vouching the id it displaces is kept until the new pairing is vouched for (§12.2 item 2).
   * @param {Uint8Array} peer @param {number} now @param {LinkOutput} result
   */
  #adopt(peer, now, result) {
    const restarted = this.peerId !== null || this.displaced.length > 0;
    const again = this.displaced.findIndex((d) => equal(d, peer));
    if (again >= 0) {
      // A peer we had paired with speaks again after an unproven pairing displaced it: it kept
      // its counters for us, so both sides restart theirs under a fresh id of ours.
      this.displaced.splice(again, 1);
      this.#newOwnId();
    }
    if (this.peerId) {
      if (this.vouching) {
        this.displaced.push(this.peerId);
        for (const old of this.displaced.splice(0, Math.max(0, this.displaced.length - MAX_DISPLACED))) this.retired.add(key(old));
      } else this.retired.add(key(this.peerId));
      this.stats.resets += 1;
      // The driver re-sends what the peer may lack from its own records (its outbox); frames
      // numbered for the old pairing may have reached the old incarnation and are out of place.
      this.unacked.clear();
    }
    this.peerId = peer;
    this.vouched = false;
    this.live = !this.vouching; // a new id proves itself before it counts
    this.peerKnowsMe = false;
    this.generation += 1;
    this.recvNext = 0;
    this.confirmed = 0;
    this.held.clear();
    this.heldBytes = 0;
    this.timeout = this.baseTimeout;
    this.lastProgress = now;
    // Renumber what is still waiting (sent to a pairing that was rejected, or before any) in order.
    const waiting = [...[...this.unacked.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p), ...this.queued.splice(0)];
    this.unacked.clear();
    this.sendNext = 0;
    for (const p of waiting) result.out.push(...this.send(p));
    result.restarted = restarted;
  }

  /**
   * A frame from the transport (rules 1-3).
   * @param {Uint8Array} data @param {number} now
   * @returns {LinkOutput}
   */
  receive(data, now) {
    /** @type {LinkOutput} */
    const result = { out: [], deliver: [], restarted: false, tag: this.tag };
    const f = decodeLinkFrame(data);
    if (!f || equal(f.from, NO_ID)) return result;
    if (equal(f.from, this.id) || this.retired.has(key(f.from))) {
      this.stats.stale += 1; // our own frame reflected, or a restarted peer's old incarnation
      return result;
    }
    const toUs = equal(f.to, this.id);
    if (!toUs && !equal(f.to, NO_ID)) {
      this.stats.stale += 1; // addressed to an earlier incarnation of us
      return result;
    }
    if ((f.kind === DATA || f.kind === ACK) && !toUs) return result;
    if (!this.peerId || !equal(f.from, this.peerId)) this.#adopt(f.from, now, result);
    // Against our id now: adopting a displaced peer again gave us a fresh one it does not know.
    const knowsMe = equal(f.to, this.id);
    if (knowsMe) this.peerKnowsMe = true;
    if (this.live) {
      this.lastHeard = now;
      this.lastLive = now;
    } else if (f.kind === ACK) {
      this.stats.unproven += 1; // not from a peer that proved itself here: it promises nothing
      result.tag = this.tag;
      return result;
    }
    const peer = /** @type {Uint8Array} */ (this.peerId);
    switch (f.kind) {
      case HELLO:
        if (!knowsMe) result.out.push(this.#hello());
        if (this.livenessKey) {
          const mac = livenessProof(this.livenessKey, f.from, this.id, /** @type {Uint8Array} */ (f.payload));
          result.out.push(this.#frame(PROOF, peer, { payload: mac }));
        }
        break;
      case PROOF: {
        // Only a proof for this connection's challenge, by the current pairing, counts (§12.2).
        const k = this.livenessKey;
        if (!k || !knowsMe || !macEqual(/** @type {Uint8Array} */ (f.payload), livenessProof(k, this.id, f.from, this.challenge))) {
          this.stats.badProofs += 1; // stale or forged: dropped, never fatal
          break;
        }
        this.#proveLive(now);
        this.#provePairing();
        break;
      }
      case PING:
        result.out.push(this.#frame(PONG, peer));
        break;
      case DATA: {
        // In order within the delivery bound, or early within the early bound; a frame that fits
        // neither is not kept, and the ACK never covers a frame not delivered (back-pressure).
        const n = /** @type {number} */ (f.n);
        const payload = /** @type {Uint8Array} */ (f.payload);
        if (n < this.recvNext || this.held.has(n)) { /* a repeat */ }
        else if (n === this.recvNext && this.#room(payload.length)) {
          this.#deliver(payload, result.deliver);
          this.#pull(result.deliver);
        } else if (n < this.recvNext + WINDOW && this.heldBytes + payload.length <= this.maxEarly) {
          this.held.set(n, payload);
          this.heldBytes += payload.length;
        } else this.stats.refused += 1;
        result.out.push(this.#frame(ACK, peer, { next: this.#acknowledged() }));
        break;
      }
      case ACK: {
        const next = /** @type {number} */ (f.next);
        let progressed = false;
        for (const n of [...this.unacked.keys()]) {
          if (n < next) {
            this.unacked.delete(n);
            progressed = true;
          }
        }
        if (progressed) {
          this.timeout = this.baseTimeout;
          this.lastProgress = now;
        }
        break;
      }
      default:
        break;
    }
    result.tag = this.tag;
    return result;
  }

  /** What an ACK covers: every frame delivered, or with `confirm` those the caller saved. */
  #acknowledged() {
    return this.confirming ? this.confirmed : this.recvNext;
  }

  /**
   * With `confirm`: the payload delivered under `tag` that the caller took last is saved, so it
   * may be acknowledged (§12.1 rule 3). The caller confirms each payload it takes, in order,
   * once it is saved (or once it knows there is nothing to save). Returns the ACK to send.
   * @param {LinkTag} tag
   * @returns {Uint8Array[]}
   */
  confirm(tag) {
    if (!this.confirming || tag.generation !== this.generation || !this.peerId || this.confirmed >= this.recvNext) return [];
    this.confirmed += 1;
    return [this.#frame(ACK, this.peerId, { next: this.confirmed })];
  }

  /** Whether a payload of `size` bytes fits the delivery bound (an empty queue takes any). @param {number} size */
  #room(size) {
    return this.queuedBytes === 0 || this.queuedBytes + size <= this.maxQueued;
  }

  /** @param {Uint8Array} payload @param {Uint8Array[]} into */
  #deliver(payload, into) {
    into.push(payload);
    this.queuedBytes += payload.length;
    this.recvNext += 1;
  }

  /** Deliver the early frames that are next in order while they fit. @param {Uint8Array[]} into */
  #pull(into) {
    let moved = false;
    for (let next = this.held.get(this.recvNext); next && this.#room(next.length); next = this.held.get(this.recvNext)) {
      this.held.delete(this.recvNext);
      this.heldBytes -= next.length;
      this.#deliver(next, into);
      moved = true;
    }
    return moved;
  }

  /**
   * The caller took a delivered payload of `size` bytes (handed it to the driver): room again in
   * the delivery bound. Returns what that lets through: early frames next in order, and an ACK
   * covering them.
   * @param {number} size
   * @returns {{out: Uint8Array[], deliver: Uint8Array[], tag: LinkTag}}
   */
  consumed(size) {
    this.queuedBytes = Math.max(0, this.queuedBytes - size);
    /** @type {Uint8Array[]} */
    const deliver = [];
    const out = [];
    if (this.#pull(deliver) && this.peerId && !this.confirming) out.push(this.#frame(ACK, this.peerId, { next: this.recvNext }));
    return { out, deliver, tag: this.tag };
  }

  /** Payload bytes the link holds for the caller: early frames and delivered, unconsumed ones. */
  get bufferedBytes() {
    return this.heldBytes + this.queuedBytes;
  }

  /**
   * The payload delivered under `tag` authenticated (§12.2 item 2): the pairing is the real peer,
   * the ids it displaced are retired (old incarnations of a restarted peer), and when it came on
   * the current connection that connection is live (§12.1 rule 5).
   * @param {LinkTag} tag @param {number} now
   */
  vouch(tag, now) {
    if (tag.generation !== this.generation || !this.peerId) return;
    // Once the session exists a repeat of an old frame authenticates too: only a proof counts.
    if (this.livenessKey) return;
    if (tag.connection === this.connection) this.#proveLive(now);
    this.#provePairing();
  }

  /**
   * The payload delivered under `tag` did not authenticate. From an unproven pairing (a stranger
   * in the room, or a forger) that id is retired and we take a fresh id of our own, so the real
   * peer pairs with us again; returns true then (the caller drops the connection and pairs
   * again). From a proven pairing (a relay forging the peer's id) it is only counted.
   * @param {LinkTag} tag
   */
  reject(tag) {
    this.stats.rejected += 1;
    if (tag.generation !== this.generation || !this.peerId || this.vouched) return false;
    this.retired.add(key(this.peerId));
    this.peerId = null;
    this.#newOwnId();
    return true;
  }

  /**
   * Timers (rules 4 and 5): retransmit after a timeout without progress; keepalive pings. Returns
   * the frames to send, whether the peer has been silent beyond the keepalive bound (the caller
   * drops the connection and pairs again), and with vouching whether no connection was live for
   * `giveUp` (the caller gives up).
   * @param {number} now
   */
  tick(now) {
    /** @type {Uint8Array[]} */
    const out = [];
    if (this.lastTick !== null) {
      const stall = now - this.lastTick - this.period;
      if (stall > this.period) {
        // Our own process did not run (a long computation, a loaded machine): frames the peer
        // sent meanwhile may still wait unread, so that time is not the peer's silence (rule 5).
        this.lastHeard += stall;
        this.lastLive += stall;
      }
    }
    this.lastTick = now;
    if (this.unacked.size && now - this.lastProgress >= this.timeout) {
      out.push(...this.retransmit());
      this.timeout = Math.min(this.maxTimeout, this.timeout * 2);
      this.lastProgress = now;
    }
    const unproven = this.livenessKey !== null && !this.live;
    if ((!this.peerId || !this.peerKnowsMe || unproven) && now - this.lastProgress >= this.timeout) {
      out.push(this.#hello()); // until the peer knows us, or proved itself on this connection
      this.lastProgress = now;
    }
    let silent = false;
    let gaveUp = false;
    if (this.keepalive > 0) {
      if (this.vouching && now - this.lastLive >= this.giveUp) gaveUp = true;
      if (now - this.lastPing >= this.keepalive / 4) {
        out.push(this.#frame(PING, this.peerId ?? NO_ID));
        this.lastPing = now;
      }
      silent = now - this.lastHeard > this.keepalive;
      if (silent) this.stats.dead += 1;
    }
    return { out, silent, gaveUp };
  }

  /** Every unacknowledged DATA again (after a timeout, or at once after reconnecting). */
  retransmit() {
    const peer = this.peerId;
    if (!peer) return [];
    return [...this.unacked.entries()].sort((a, b) => a[0] - b[0]).map(([n, payload]) => this.#frame(DATA, peer, { n, payload }));
  }

  /**
   * After the transport connected again: a new connection, not live until the peer proves itself
   * on it (with vouching); a HELLO and every unacknowledged DATA.
   * @param {number} now
   */
  reconnected(now) {
    this.connection += 1;
    this.live = !this.vouching;
    this.challenge = this.rng(CHALLENGE_BYTES); // an old proof answers an old challenge
    this.lastProgress = now;
    this.lastHeard = now;
    this.lastTick = now;
    return [this.#hello(), ...this.retransmit()];
  }
}

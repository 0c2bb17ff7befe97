// The retransmission link below the channel (spec/protocol.md §12.1), sans-I/O: it numbers,
// acknowledges and re-sends frames so that a transport that drops, repeats, reorders or
// reconnects delivers the channel an ordered stream. It adds no trust: every payload is still
// opened and checked by the channel.
//
// Link frame: kind (1) || from (8) || to (8) || rest, integers big-endian:
//   1 HELLO   nothing        2 DATA  n (u32) || payload      3 ACK  next (u32)
//   4 PING    nothing        5 PONG  nothing
import { concat, equal, readU32be, u32be, u8 } from '../bytes.js';

export const HELLO = 1;
export const DATA = 2;
export const ACK = 3;
export const PING = 4;
export const PONG = 5;
export const WINDOW = 4096;
export const MAX_PAYLOAD = 1 << 20;
const NO_ID = new Uint8Array(8);

/**
 * @typedef {{kind: number, from: Uint8Array, to: Uint8Array, n?: number, next?: number, payload?: Uint8Array}} LinkFrame
 * @typedef {{out: Uint8Array[], deliver: Uint8Array[], restarted: boolean}} LinkOutput
 */

/** @param {LinkFrame} f */
export function encodeLinkFrame(f) {
  const head = concat(u8(f.kind), f.from, f.to);
  if (f.kind === DATA) return concat(head, u32be(/** @type {number} */ (f.n)), /** @type {Uint8Array} */ (f.payload));
  if (f.kind === ACK) return concat(head, u32be(/** @type {number} */ (f.next)));
  return head;
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
  if (kind === HELLO || kind === PING || kind === PONG) return data.length === 17 ? { kind, from, to } : null;
  if (kind === DATA) {
    if (data.length < 21 || data.length - 21 > MAX_PAYLOAD) return null;
    return { kind, from, to, n: readU32be(data, 17), payload: data.slice(21) };
  }
  if (kind === ACK) return data.length === 21 ? { kind, from, to, next: readU32be(data, 17) } : null;
  return null;
}

/** @param {Uint8Array} id */
const key = (id) => Array.from(id).join(',');

export class ReliableLink {
  /**
   * @param {{rng: (n: number) => Uint8Array, retransmit?: number, maxRetransmit?: number, keepalive?: number}} options
   *   times in seconds: first retransmission timeout (doubling up to maxRetransmit), and the
   *   keepalive bound (0: none) after which a silent peer makes the driver reconnect.
   */
  constructor(options) {
    let id;
    do id = options.rng(8); while (equal(id, NO_ID));
    this.id = id;
    /** @type {Uint8Array | null} */
    this.peerId = null;
    /** @type {Set<string>} */
    this.retired = new Set();
    this.sendNext = 0;
    this.recvNext = 0;
    /** @type {Map<number, Uint8Array>} our DATA not yet acknowledged, by n */
    this.unacked = new Map();
    /** @type {Map<number, Uint8Array>} DATA that arrived early */
    this.held = new Map();
    /** @type {Uint8Array[]} payloads waiting for a pairing */
    this.queued = [];
    this.baseTimeout = options.retransmit ?? 1;
    this.maxTimeout = options.maxRetransmit ?? 8;
    this.timeout = this.baseTimeout;
    this.keepalive = options.keepalive ?? 0;
    this.lastProgress = 0;
    this.lastHeard = 0;
    this.lastPing = 0;
  }

  /** The opening HELLO. @param {number} now */
  start(now) {
    this.lastProgress = now;
    this.lastHeard = now;
    return [this.#frame(HELLO, this.peerId ?? NO_ID)];
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

  /**
   * A frame from the transport (rules 1-3).
   * @param {Uint8Array} data @param {number} now
   * @returns {LinkOutput}
   */
  receive(data, now) {
    /** @type {LinkOutput} */
    const result = { out: [], deliver: [], restarted: false };
    const f = decodeLinkFrame(data);
    if (!f) return result;
    if (equal(f.from, this.id) || this.retired.has(key(f.from))) return result;
    const toUs = equal(f.to, this.id);
    if (!toUs && !equal(f.to, NO_ID)) return result;
    if ((f.kind === DATA || f.kind === ACK) && !toUs) return result;
    this.lastHeard = now;
    if (!this.peerId || !equal(f.from, this.peerId)) {
      // Rule 2: a new id starts a new pairing; the old one is retired.
      if (this.peerId) {
        this.retired.add(key(this.peerId));
        result.restarted = true;
      }
      this.peerId = f.from;
      this.sendNext = 0;
      this.recvNext = 0;
      this.unacked.clear();
      this.held.clear();
      this.timeout = this.baseTimeout;
      this.lastProgress = now;
      for (const p of this.queued.splice(0)) result.out.push(...this.send(p));
    }
    const peer = /** @type {Uint8Array} */ (this.peerId);
    switch (f.kind) {
      case HELLO:
        if (!toUs) result.out.push(this.#frame(HELLO, peer));
        break;
      case PING:
        result.out.push(this.#frame(PONG, peer));
        break;
      case DATA: {
        const n = /** @type {number} */ (f.n);
        if (n >= this.recvNext && n < this.recvNext + WINDOW) this.held.set(n, /** @type {Uint8Array} */ (f.payload));
        while (this.held.has(this.recvNext)) {
          result.deliver.push(/** @type {Uint8Array} */ (this.held.get(this.recvNext)));
          this.held.delete(this.recvNext);
          this.recvNext += 1;
        }
        result.out.push(this.#frame(ACK, peer, { next: this.recvNext }));
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
    return result;
  }

  /**
   * Timers (rules 4 and 5): retransmit after a timeout without progress; keepalive pings. Returns
   * the frames to send and whether the peer has been silent beyond the keepalive bound.
   * @param {number} now
   */
  tick(now) {
    /** @type {Uint8Array[]} */
    const out = [];
    if (this.unacked.size && now - this.lastProgress >= this.timeout) {
      out.push(...this.retransmit());
      this.timeout = Math.min(this.maxTimeout, this.timeout * 2);
      this.lastProgress = now;
    }
    if (!this.peerId && now - this.lastProgress >= this.timeout) {
      out.push(this.#frame(HELLO, NO_ID));
      this.lastProgress = now;
    }
    let silent = false;
    if (this.keepalive > 0) {
      if (now - this.lastPing >= this.keepalive / 4) {
        out.push(this.#frame(PING, this.peerId ?? NO_ID));
        this.lastPing = now;
      }
      silent = now - this.lastHeard > this.keepalive;
    }
    return { out, silent };
  }

  /** Every unacknowledged DATA again (after a timeout, or at once after reconnecting). */
  retransmit() {
    const peer = this.peerId;
    if (!peer) return [];
    return [...this.unacked.entries()].sort((a, b) => a[0] - b[0]).map(([n, payload]) => this.#frame(DATA, peer, { n, payload }));
  }

  /** After the transport connected again: a HELLO and every unacknowledged DATA. @param {number} now */
  reconnected(now) {
    this.lastProgress = now;
    return [this.#frame(HELLO, this.peerId ?? NO_ID), ...this.retransmit()];
  }
}

// The relay client's stream bookkeeping (spec/relay.md §5.2-§5.5, §8), sans-I/O: numbering our
// frames, keeping those the relay has not acknowledged, delivering the peer's frames exactly once
// and in order, and the count-based repair with `sync`. The driver (relay_client.js) feeds it
// decoded relay messages and sends what it returns.

export const ACK_EVERY = 32;

/**
 * @typedef {{[key: string]: unknown, type: string}} RelayMessage
 */

export class RelayStream {
  /** @param {{bufferFrames?: number, bufferBytes?: number}} [limits] */
  constructor(limits = {}) {
    this.bufferFrames = limits.bufferFrames ?? 256;
    this.bufferBytes = limits.bufferBytes ?? 1 << 20;
    /** next seq we send */
    this.outNext = 0;
    /** @type {{seq: number, data: Uint8Array}[]} our frames the relay has not acknowledged */
    this.unacked = [];
    this.unackedBytes = 0;
    /** frames below this were evicted before the relay acknowledged them */
    this.lostBelow = 0;
    /** next seq expected from the peer */
    this.inNext = 0;
    /** the count we last acknowledged to the relay */
    this.ackSent = 0;
    /** a sync is outstanding (at most one per half second) */
    this.syncPendingSince = -Infinity;
  }

  /**
   * Our next frame.
   * @param {Uint8Array} data
   * @returns {RelayMessage}
   */
  send(data) {
    const seq = this.outNext++;
    this.unacked.push({ seq, data });
    this.unackedBytes += data.length;
    while (this.unacked.length > this.bufferFrames || this.unackedBytes > this.bufferBytes) {
      const dropped = /** @type {{seq: number, data: Uint8Array}} */ (this.unacked.shift());
      this.unackedBytes -= dropped.data.length;
      this.lostBelow = dropped.seq + 1;
    }
    this.ackSent = this.inNext;
    return { type: 'frame', seq, data, ack: this.inNext };
  }

  /** The relay accepted every frame of ours below `count`. @param {number} count */
  acknowledged(count) {
    while (this.unacked.length && this.unacked[0].seq < count) {
      const done = /** @type {{seq: number, data: Uint8Array}} */ (this.unacked.shift());
      this.unackedBytes -= done.data.length;
    }
  }

  /**
   * Every frame we still hold from `from` on, to send again; null when some were evicted (the
   * stream is broken: resume_failed).
   * @param {number} from
   * @returns {RelayMessage[] | null}
   */
  resendFrom(from) {
    if (from < this.lostBelow) return null;
    this.acknowledged(from);
    return this.unacked.map((f) => ({ type: 'frame', seq: f.seq, data: f.data, ack: this.inNext }));
  }

  /**
   * A frame from the peer (spec/relay.md §5.5 rule 1, §8 rule 4): delivered once, in order.
   * @param {number} seq @param {Uint8Array} data @param {number} now seconds
   * @returns {{deliver: Uint8Array | null, out: RelayMessage[]}}
   */
  received(seq, data, now) {
    /** @type {RelayMessage[]} */
    const out = [];
    if (seq < this.inNext) return { deliver: null, out };
    if (seq > this.inNext) {
      const sync = this.requestSync(now);
      if (sync) out.push(sync);
      return { deliver: null, out };
    }
    this.inNext += 1;
    if (this.inNext - this.ackSent >= ACK_EVERY) {
      this.ackSent = this.inNext;
      out.push({ type: 'ack', seq: this.inNext });
    }
    return { deliver: data, out };
  }

  /** A sync request, unless one went out less than half a second ago. @param {number} now */
  requestSync(now) {
    if (now - this.syncPendingSince < 0.5) return null;
    this.syncPendingSince = now;
    this.ackSent = this.inNext;
    return { type: 'sync', received: this.inNext };
  }

  /**
   * The relay's sync reply (spec/relay.md §5.5 rule 3).
   * @param {number} accepted @param {number} sent @param {number} now
   * @returns {RelayMessage[] | null} null when our frames from `accepted` are gone
   */
  onSync(accepted, sent, now) {
    this.syncPendingSince = -Infinity;
    const out = this.resendFrom(accepted);
    if (!out) return null;
    if (sent > this.inNext) {
      const sync = this.requestSync(now);
      if (sync) out.push(sync);
    } else {
      this.ackSent = this.inNext;
      out.push({ type: 'ack', seq: this.inNext });
    }
    return out;
  }

  /** A new joiner restarts both directions at 0 (spec/relay.md §5.3). */
  reset() {
    this.outNext = 0;
    this.unacked = [];
    this.unackedBytes = 0;
    this.lostBelow = 0;
    this.inNext = 0;
    this.ackSent = 0;
  }

  /** The oldest of our frames the relay has not acknowledged, or -1. */
  oldestUnacked() {
    return this.unacked.length ? this.unacked[0].seq : -1;
  }
}

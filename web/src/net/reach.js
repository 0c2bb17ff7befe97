// Whether our own relay answers: an abandonment claim waits for it (spec/protocol.md §12.4).
// A waiting side that cannot reach the relay cannot tell a peer that left from a relay that is
// down, and the peer, behind the same relay, could not send either: a claim then would be
// contradicted as soon as the relay is back. So a passed deadline is not claimed while every
// attempt since the relay last answered failed, and once it answers again the claim waits
// min(deadline, RELAY_GRACE_S) more, time for both links to pair again and re-send.

export const RELAY_GRACE_S = 20;

/** RelayError reasons that mean the relay was not reached at all (no room request answered). */
export const UNREACHED = new Set(['unreachable', 'dropped', 'closed', 'relay_full', 'handshakes_busy',
  'source_handshakes', 'source_connections', 'bad_certificate']);

export class RelayReach {
  /** @param {() => number} [now] seconds, monotonic */
  constructor(now = () => performance.now() / 1000) {
    this.now = now;
    /** @type {number | null} since when every attempt failed to reach the relay */
    this.downSince = null;
    /** when the relay last answered again after such an outage (or when this began) */
    this.upSince = now();
  }

  /** The relay answered (a room made, joined or listed, or a room request refused). */
  reached() {
    if (this.downSince === null) return;
    this.downSince = null;
    this.upSince = this.now();
  }

  /** An attempt did not reach the relay (no connection, or the connection refused). */
  missed() {
    if (this.downSince === null) this.downSince = this.now();
  }

  get down() {
    return this.downSince !== null;
  }

  /**
   * Seconds a claim whose deadline has passed must still wait (0: none; Infinity: the relay is down).
   * @param {number} deadline the wait's deadline in seconds
   */
  hold(deadline) {
    if (this.downSince !== null) return Infinity;
    return Math.max(0, this.upSince + Math.min(deadline, RELAY_GRACE_S) - this.now());
  }
}

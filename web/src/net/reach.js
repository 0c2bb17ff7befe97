// Whether our own relay answers: an abandonment claim waits for it (spec/protocol.md §12.4).
// A waiting side that cannot reach the relay cannot tell a peer that left from a relay that is
// down, and the peer, behind the same relay, could not send either: a claim then would be
// contradicted as soon as the relay is back. So a passed deadline is not claimed while every
// attempt since the relay last answered failed, and once it answers again the claim waits
// min(deadline, RELAY_GRACE_S) more, time for both links to pair again and re-send. The hold ends
// RELAY_HOLD_MAX_S past the deadline whatever the relay does, so a relay that refuses only the
// waiting seat cannot keep it from ever claiming.

export const RELAY_GRACE_S = 20;
export const RELAY_HOLD_MAX_S = 600;

/**
 * RelayError reasons that mean no relay served us: nothing listens, the connection closed before
 * any reply, or the relay said it serves no rooms at all (as in Python; a browser sees neither 503
 * body, but a shutdown notice or close it does). A browser reports a connection the relay refused for its rate limits the same way,
 * so the connector counts an attempt as missed only when none of its requests had an answer.
 */
export const UNREACHED = new Set(['unreachable', 'closed', 'relay_unavailable', 'shutdown']);

export class RelayReach {
  /** @param {() => number} [now] seconds, monotonic */
  constructor(now = () => performance.now() / 1000) {
    this.now = now;
    /** @type {number | null} since when every attempt failed to reach the relay */
    this.downSince = null;
    /** when the relay last answered again after such an outage (none yet: -Infinity) */
    this.upSince = -Infinity;
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
   * Seconds a claim must still wait once `waited` (seconds since the wait began) passed
   * `deadline`: 0 for none; while the relay is down, until the next look.
   * @param {number} deadline @param {number} waited
   */
  hold(deadline, waited) {
    const cap = deadline + RELAY_HOLD_MAX_S - waited;
    if (cap <= 0) return 0;
    if (this.downSince !== null) return cap;
    return Math.max(0, Math.min(cap, this.upSince + Math.min(deadline, RELAY_GRACE_S) - this.now()));
  }
}

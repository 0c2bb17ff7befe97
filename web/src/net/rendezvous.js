// Pairing the two seats through the relay again (spec/protocol.md §12.2), after a relay restart or
// when the relay client cannot resume: seat 0 opens a public room whose meta carries the rejoin
// tag, seat 1 asks the relay for the rooms of that tag and joins the newest. The tag hashes the
// match's rendezvous id (the room code the match started in) and, once both seats hold the
// session, the session id, which no lobby reader knows. A stranger who still joins first gains
// nothing: every frame is sealed and signed end to end (the channel drops what does not open) and
// the link pairs with the real peer when it shows up.
import { concat, toHex, u8, utf8 } from '../bytes.js';
// The pure-JavaScript SHA-256 (no libsodium needed: a page's main thread computes tags too).
import { sha256 } from '../rules/sha256.js';
import { RelayReach, UNREACHED } from './reach.js';
import { RelayClient, RelayError } from './relay_client.js';

export const REJOIN_META = 'rejoin';
const LABEL = 'koikoi-p2p/faults/v2/rejoin';

/**
 * The rejoin tag: the first 32 hex digits of SHA-256(label || 0x00 || rendezvous [|| 0x00 ||
 * session id]) (spec/protocol.md §12.2).
 * @param {string} rendezvous @param {Uint8Array} [sessionId]
 */
export function rendezvousTag(rendezvous, sessionId) {
  /** @type {Uint8Array[]} */
  const parts = [utf8(LABEL), u8(0), utf8(rendezvous)];
  if (sessionId && sessionId.length) parts.push(u8(0), sessionId);
  return toHex(sha256(concat(...parts))).slice(0, 32);
}

/**
 * Whether, in transcript order, an envelope of the other seat follows one of `seat`'s: the other
 * seat then accepted ours, so it holds the session (spec/protocol.md §12.2).
 * @param {readonly number[]} senders @param {number} seat
 */
export function peerHoldsSession(senders, seat) {
  let mine = false;
  for (const sender of senders) {
    if (sender === seat) mine = true;
    else if (mine) return true;
  }
  return false;
}

const RETRY_REASONS = new Set(['room_full', 'room_not_found', 'room_closed']);
// The joiner's pause between two looks at the lobby: two tags a look stay under the relay's
// default rate of new connections per address (spec/relay.md §7.1), so a long wait is not refused.
export const POLL_MS = 600;

/** A connector for LinkTransport: each call returns a freshly paired relay client. */
export class RelayRendezvous {
  /**
   * @param {string} url @param {0 | 1} seat @param {string} rendezvous
   * @param {{first?: RelayClient | null, pairTimeoutMs?: number, pollMs?: number, WebSocket?: any}} [options]
   *   `first`: the client the match started on, returned by the first call.
   */
  constructor(url, seat, rendezvous, options = {}) {
    if ((seat !== 0 && seat !== 1) || !rendezvous) throw new RangeError('a seat (0 or 1) and a non-empty rendezvous id are needed');
    this.url = url;
    this.seat = seat;
    this.rendezvous = rendezvous;
    this.tag = rendezvousTag(rendezvous);
    /** @type {string | null} seat 1: the tag of a host that is not bound yet */
    this.fallback = null;
    this.pairTimeoutMs = options.pairTimeoutMs ?? 30000;
    this.pollMs = options.pollMs ?? POLL_MS;
    this.WebSocket = options.WebSocket;
    /** @type {RelayClient | null} */
    this.first = options.first ?? null;
    /** @type {RelayClient | null} */
    this.client = this.first;
    this.pairings = 0;
    /** whether the relay answers: abandonment claims wait for it (spec/protocol.md §12.4) */
    this.reach = new RelayReach();
    /** some request of the current attempt had an answer */
    this.answered = false;
  }

  /**
   * Seconds an abandonment claim whose deadline passed must still wait for the relay (spec/protocol.md
   * §12.4): the paired connection resuming counts as the relay down.
   * @param {number} deadline @param {number} waited
   */
  claimHold(deadline, waited) {
    const client = this.client;
    if (client) {
      if (client.ws === null && !client.failure) this.reach.missed();
      else this.reach.reached();
    }
    return this.reach.hold(deadline, waited);
  }

  /**
   * Both seats hold this session: the tag derives from it from now on. The joiner still looks for
   * the unbound tag too, since the host binds only once it holds the joiner's first envelope.
   * @param {Uint8Array} sessionId
   */
  bind(sessionId) {
    const tag = rendezvousTag(this.rendezvous, sessionId);
    if (tag === this.tag) return;
    this.fallback = this.seat === 1 ? this.tag : null;
    this.tag = tag;
    // A host already waiting under the unbound tag (a resumed seat starts pairing before its
    // session is restored) opens its room again under the bound one, which the joiner looks for.
    this.#retag?.();
  }

  /** @type {(() => void) | null} abandons the room seat 0 is waiting in */
  #retag = null;

  /**
   * The other seat holds the session too (we accepted an envelope of it chained after one of
   * ours): it opens rooms under the bound tag only, so the joiner stops looking for the unbound
   * one, which anyone who knows the rendezvous id can put on a room (spec/protocol.md §12.2).
   */
  peerBound() {
    this.fallback = null;
  }

  /** @returns {Promise<RelayClient>} */
  async connect() {
    if (this.first) {
      const first = this.first;
      this.first = null;
      this.pairings += 1;
      return first;
    }
    // Pairing again: the link re-sends what the other seat has not confirmed (spec/protocol.md
    // §12.1 rule 4), so the old room is left at once, not after waiting for the relay's
    // acknowledgement of frames the absent seat will not read (QA: it held "Connection lost" 2 s).
    await this.close({ drain: false });
    if (this.stopped) throw new RelayError('stopped', 'the pairing was stopped');
    let client;
    this.answered = false;
    try {
      client = this.seat === 0 ? await this.#host() : await this.#join();
    } catch (e) {
      // The relay answered (no peer yet, a room gone, ...) unless nothing of this attempt reached it.
      if (this.answered || (e instanceof RelayError && !UNREACHED.has(e.reason))) this.reach.reached();
      else this.reach.missed();
      throw e;
    }
    this.reach.reached();
    if (this.stopped) {
      await client.close().catch(() => {});
      throw new RelayError('stopped', 'the pairing was stopped');
    }
    this.client = client;
    this.pairings += 1;
    return client;
  }

  /** @type {(() => void) | null} abandons the pairing under way (`stop`) */
  #abort = null;
  /** whether `stop` was called: no more pairing */
  stopped = false;

  /**
   * No more pairing: a `connect` under way (the host waiting in its room, the joiner looking at
   * the lobby) fails at once, and so does any later one; then the current client is closed.
   */
  async stop() {
    this.stopped = true;
    this.#abort?.();
    await this.close();
  }

  /**
   * Close the current client (which closes its room, so the other seat pairs again too).
   * @param {{drain?: boolean}} [o] as RelayClient.close
   */
  async close(o = {}) {
    const client = this.client;
    this.client = null;
    if (client) await Promise.race([client.close(o).catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
  }

  async #host() {
    const tag = this.tag;
    const client = await RelayClient.create(this.url, { public: true, meta: { [REJOIN_META]: tag }, WebSocket: this.WebSocket });
    this.answered = true;
    try {
      await new Promise((resolve, reject) => {
        const retagged = () => reject(new RelayError('retagged', 'the rejoin tag changed: open the room again'));
        if (this.tag !== tag) retagged();
        this.#retag = retagged;
        this.#abort = () => reject(new RelayError('stopped', 'the pairing was stopped'));
        if (this.stopped) this.#abort();
        client.waitForPeer(this.pairTimeoutMs).then(resolve, reject);
      });
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    } finally {
      this.#retag = null;
      this.#abort = null;
    }
    return client;
  }

  async #join() {
    const deadline = Date.now() + this.pairTimeoutMs;
    for (;;) {
      for (const tag of [this.tag, this.fallback]) {
        if (tag === null) continue;
        const rooms = await RelayClient.lobby(this.url, { rejoin: tag, WebSocket: this.WebSocket });
        this.answered = true;
        this.reach.reached();
        for (const room of rooms) {
          if (room.meta?.[REJOIN_META] !== tag || typeof room.code !== 'string') continue;
          // Stopped while the lobby answered: joining now would close the other seat's room.
          if (this.stopped) throw new RelayError('stopped', 'the pairing was stopped');
          try {
            return await RelayClient.join(this.url, room.code, { WebSocket: this.WebSocket });
          } catch (e) {
            if (!(e instanceof RelayError) || !RETRY_REASONS.has(e.reason)) throw e;
          }
        }
      }
      if (Date.now() > deadline) throw new RelayError('rejoin_timeout', 'the other seat did not open a room in time');
      await new Promise((r) => {
        const timer = setTimeout(r, this.pollMs);
        this.#abort = () => { clearTimeout(timer); r(undefined); };
      });
      this.#abort = null;
      if (this.stopped) throw new RelayError('stopped', 'the pairing was stopped');
    }
  }
}

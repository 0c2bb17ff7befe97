// A transport with the retransmission link of spec/protocol.md §12.1 on top of another transport
// (the relay client): the same send/receive interface, with the link's timers on an interval.
// With a connector (`connect`, e.g. RelayRendezvous of §12.2) a failed or silent transport is
// replaced by a freshly paired one, after which the link re-sends what is unacknowledged. A seat
// resumed from its journal has no transport yet (`inner` null): the connector pairs it first.
// With `vouching` the driver tells the link, after each payload, whether it authenticated
// (`vouch`/`reject`): only the real peer then keeps a connection alive, and a stranger that
// joined the rejoin room and answers the keepalive is dropped like silence (§12.1 rule 5, §12.2).
// What the link delivered waits here until the driver takes it; the link counts those bytes
// against its delivery bound (§12.1 rule 3), so a driver that does not read (or reads slowly)
// makes the link stop acknowledging rather than grow.
import { ReliableLink } from './reliable.js';

/**
 * @typedef {import('./match.js').Transport} Transport
 */

/** How long the relay may show the other seat away before the link pairs again (spec/protocol.md §12.1 rule 5). */
export const AWAY_MS = 3000;

export class LinkTransport {
  /**
   * @param {Transport | null} inner null: pair through `connect` first
   * @param {{rng: (n: number) => Uint8Array, retransmit?: number, maxRetransmit?: number, keepalive?: number,
   *   tickMs?: number, onRestart?: () => void, onConnect?: () => void, now?: () => number, giveUpMs?: number,
   *   vouching?: boolean, onState?: (state: 'connected' | 'reconnecting') => void, earlyBytes?: number, queueBytes?: number, confirm?: boolean,
   *   awayMs?: number,
   *   connect?: {connect: () => Promise<Transport>, bind?: (sessionId: Uint8Array) => void, peerBound?: () => void,
   *     close?: () => Promise<void>, stop?: () => Promise<void>}}} options
   *   `onRestart` is called when the peer's link restarted (its process did): the driver re-sends
   *   what the peer may have lost. `connect` pairs again when the transport fails (§12.2); its
   *   `bind` is offered to the driver (`bind`) once both seats hold the session. `onState` hears
   *   when pairing again starts and ends (a screen shows it); after `giveUpMs` of failed pairing
   *   (default: never) the transport fails with the last error. `vouching`: the driver calls
   *   `vouch` or `reject` after each payload it takes; `giveUpMs` then counts from the last frame
   *   of a live connection, and `onConnect` (after every new connection) must send something the
   *   peer can authenticate at once (its outbox, or a repeat of its last frame: §12.1 rule 5).
   *   `confirm`: the driver saves what it takes and calls `confirm` after each payload once it is
   *   saved; only then is it acknowledged (§12.1 rule 3, §12.3 item 1). `awayMs` (with `connect`;
   *   the browser app passes AWAY_MS; default Infinity, never):
   *   a relay that shows the other seat away that long, without its coming back, makes the link pair
   *   again as a silent peer does (§12.1 rule 5): the peer's process may have died with its resume
   *   token (a reloaded page), and only a rejoin room brings it back.
   */
  constructor(inner, options) {
    this.connector = options.connect ?? null;
    if (!inner && !this.connector) throw new TypeError('a transport or a connector is needed');
    /** @type {Transport} */
    this.inner = inner ?? { send() { throw new Error('not paired yet'); }, receive: () => new Promise(() => {}) };
    this.onState = options.onState ?? (() => {});
    this.giveUpMs = options.giveUpMs ?? Infinity;
    /** how many times the transport was replaced */
    this.repairs = 0;
    /** @type {Promise<void> | null} */
    this.repairing = null;
    this.now = options.now ?? (() => performance.now() / 1000);
    this.vouching = options.vouching ?? false;
    this.awayMs = options.awayMs ?? Infinity;
    /** whether the peer is known on this link (anything came from it, or the seat was resumed
     * mid-match from its journal): `awayMs` counts only then */
    this.heard = !inner;
    /** @type {number | null} when the relay began to show the other seat away on this transport */
    this.awaySince = null;
    this.link = new ReliableLink({ ...options, giveUp: this.giveUpMs / 1000, period: (options.tickMs ?? 200) / 1000 });
    this.onRestart = options.onRestart ?? (() => {});
    this.onConnect = options.onConnect ?? (() => {});
    /** @type {{payload: Uint8Array, tag: import('./reliable.js').LinkTag}[]} */
    this.inbox = [];
    /** @type {import('./reliable.js').LinkTag | null} the pairing and connection of the payload last taken */
    this.taken = null;
    /** payloads the driver rejected (they did not authenticate: anyone could have sent them) */
    this.rejected = 0;
    /** @type {{resolve: (v: Uint8Array) => void, reject: (e: unknown) => void}[]} */
    this.waiters = [];
    /** @type {unknown} */
    this.error = null;
    this.closed = false;
    if (inner) {
      this.#watchPeer(inner);
      for (const f of this.link.start(this.now())) inner.send(f);
    } else {
      this.link.start(this.now()); // its HELLO goes out once paired (reconnected() repeats it)
      this.#repair(new Error('not paired yet'));
    }
    const period = (options.tickMs ?? 200) / 1000;
    /** @type {number | null} */
    let lastTimer = null;
    this.timer = setInterval(() => {
      const at = this.now();
      // Our own process did not run (§12.1 rule 5): that time is not the peer's absence either.
      if (lastTimer !== null && this.awaySince !== null && at - lastTimer - period > period) this.awaySince += at - lastTimer - period;
      lastTimer = at;
      if (this.repairing) return;
      const { out, silent, gaveUp } = this.link.tick(this.now());
      for (const f of out) this.#write(f);
      if (gaveUp) {
        // Every connection may have succeeded (a stranger is always there), but none was live.
        this.#fail(Object.assign(new Error(`nothing authenticated from the peer for ${this.giveUpMs / 1000} s`), { reason: 'unreachable' }));
        return;
      }
      // §12.1 rule 5: a peer silent beyond the keepalive bound, or shown away by the relay beyond
      // `awayMs`: drop the transport, pair again.
      if (silent && this.connector) this.#repair(new Error('the peer was silent'));
      // Not before the peer was ever heard: a joiner whose host is reloading its page waits for it
      // in the room the host takes back with its token (the relay's grace), not in a rejoin room.
      else if (this.heard && this.awaySince !== null && this.connector && (this.now() - this.awaySince) * 1000 >= this.awayMs) {
        this.#repair(new Error('the peer was away'));
      }
    }, options.tickMs ?? 200);
    this.#pump();
  }

  /**
   * Follow where the relay shows the other seat on this transport (§12.1 rule 5): away starts the
   * clock of `awayMs`, back (or a new transport) stops it.
   * @param {Transport} inner
   */
  #watchPeer(inner) {
    // A seat already away when the transport is taken (a rejoin room the other seat left, a join
    // reply that says so) starts the clock too: no event will.
    this.awaySince = inner.peer === 'away' ? this.now() : null;
    inner.onPeer?.((state) => {
      if (inner !== this.inner) return; // a replaced transport's late news
      if (state === 'away') this.awaySince ??= this.now();
      else this.awaySince = null;
    });
  }

  /** The session both seats hold: the connector's rejoin tag derives from it (§12.2). @param {Uint8Array} sessionId */
  bind(sessionId) {
    this.connector?.bind?.(sessionId);
  }

  /**
   * The session exists: liveness and vouching now need a proof under its key (§12.2 item 4).
   * @param {Uint8Array} key
   */
  setLivenessKey(key) {
    for (const f of this.link.setLivenessKey(key)) this.#write(f);
  }

  /** The other seat holds the session too: the connector drops the unbound tag (§12.2). */
  peerBound() {
    this.connector?.peerBound?.();
  }

  /**
   * The payload last taken with `receive` authenticated: its pairing is the real peer, and its
   * connection is live (spec/protocol.md §12.2 item 2, §12.1 rule 5).
   */
  vouch() {
    if (this.taken) this.link.vouch(this.taken, this.now());
  }

  /**
   * The payload last taken with `receive` is saved (or needs no saving: a repeat, a frame that did
   * not authenticate): with `confirm`, the link acknowledges it now (§12.1 rule 3).
   */
  confirm() {
    if (this.taken) for (const f of this.link.confirm(this.taken)) this.#write(f);
  }

  /**
   * The payload last taken with `receive` did not authenticate. From a pairing not vouched for
   * (a stranger in the room): the link retires that id, takes a fresh one, and we pair again.
   */
  reject() {
    this.rejected += 1;
    if (!this.taken || !this.link.reject(this.taken)) return;
    if (this.connector) this.#repair(new Error('a stranger in the room'));
  }

  /** @param {Uint8Array} f */
  #write(f) {
    if (this.repairing) return; // the link re-sends everything unacknowledged once paired again
    try {
      this.inner.send(f);
    } catch (e) {
      if (this.connector) this.#repair(e);
      else this.#fail(e);
    }
  }

  /**
   * Replace the transport by a freshly paired one (§12.2), retrying with backoff until it works
   * or we are closed; then a HELLO and every unacknowledged DATA (§12.1 rule 4).
   * @param {unknown} cause
   */
  #repair(cause) {
    if (this.repairing || this.closed) return this.repairing;
    void cause;
    const old = this.inner;
    this.onState('reconnecting');
    this.repairing = (async () => {
      // The old room is left at once: what the peer has not confirmed is re-sent once paired
      // again (§12.1 rule 4), and waiting for the relay's acknowledgement delayed the pairing 2 s.
      try { await old.close?.({ drain: false }); } catch { /* it failed already */ }
      let delay = 0.1;
      let paired = false;
      // With vouching the bound counts from the last frame of a live connection (§12.1 rule 5).
      const started = this.vouching ? this.link.lastLive : this.now();
      while (!this.closed && !paired) {
        try {
          this.inner = await /** @type {{connect: () => Promise<Transport>}} */ (this.connector).connect();
          this.#watchPeer(this.inner);
          paired = true;
        } catch (e) {
          if ((this.now() - started) * 1000 > this.giveUpMs) {
            this.repairing = null;
            this.#fail(e);
            return;
          }
          await new Promise((r) => setTimeout(r, 1000 * delay * (0.5 + Math.random() / 2)));
          delay = Math.min(2, delay * 2);
        }
      }
      this.repairing = null;
      if (!paired) return;
      if (this.closed) {
        await this.inner.close?.();
        return;
      }
      this.repairs += 1;
      this.onState('connected');
      for (const f of this.link.reconnected(this.now())) this.#write(f);
      this.onConnect(); // something the peer can vouch for on this connection
    })();
    return this.repairing;
  }

  async #pump() {
    while (!this.closed) {
      if (this.repairing) {
        await this.repairing;
        if (this.error) return;
        continue;
      }
      let data;
      try {
        data = await this.inner.receive();
      } catch (e) {
        if (this.closed) return;
        if (this.connector) {
          await this.#repair(e);
          continue;
        }
        this.#fail(e);
        return;
      }
      this.heard = true;
      const r = this.link.receive(data, this.now());
      for (const f of r.out) this.#write(f);
      if (r.restarted) this.onRestart();
      this.#hand(r.deliver, r.tag);
    }
  }

  /**
   * Delivered payloads to a waiting `receive`, else to the inbox (counted by the link until
   * taken), in order: what a take lets through comes after the rest of this batch.
   * @param {Uint8Array[]} payloads @param {import('./reliable.js').LinkTag} tag
   */
  #hand(payloads, tag) {
    const queue = payloads.map((payload) => ({ payload, tag }));
    for (let next = queue.shift(); next; next = queue.shift()) {
      const w = this.waiters.shift();
      if (!w) {
        this.inbox.push(next);
        continue;
      }
      this.taken = next.tag;
      w.resolve(next.payload);
      const more = this.#taken(next.payload.length);
      queue.push(...more.deliver.map((payload) => ({ payload, tag: more.tag })));
    }
  }

  /**
   * The driver took `size` bytes: room again in the link's bound. Sends the ACK that covers what
   * that lets through, and returns it.
   * @param {number} size
   */
  #taken(size) {
    const more = this.link.consumed(size);
    for (const f of more.out) this.#write(f);
    return more;
  }

  /** Payload bytes the link holds for the driver (early frames and the inbox), within its bounds. */
  get bufferedBytes() {
    return this.link.bufferedBytes;
  }

  /** @param {unknown} e */
  #fail(e) {
    if (this.error) return;
    this.error = e;
    clearInterval(this.timer);
    for (const w of this.waiters.splice(0)) w.reject(e);
  }

  /** @param {Uint8Array} payload */
  send(payload) {
    if (this.error) throw this.error;
    for (const f of this.link.send(payload)) this.#write(f);
  }

  /** @returns {Promise<Uint8Array>} */
  receive() {
    const next = this.inbox.shift();
    if (next) {
      this.taken = next.tag;
      const more = this.#taken(next.payload.length);
      this.#hand(more.deliver, more.tag);
      return Promise.resolve(next.payload);
    }
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Whether every payload we sent was acknowledged by the peer's link. */
  get drained() {
    return this.link.unacked.size === 0 && this.link.queued.length === 0;
  }

  /** Wait (bounded) until the peer's link acknowledged everything, then close the inner transport. */
  async close() {
    for (let i = 0; i < 150 && !this.drained && !this.error; i++) await new Promise((r) => setTimeout(r, 20));
    this.closed = true;
    clearInterval(this.timer);
    // A pairing under way (a host in its rejoin room, a joiner looking at the lobby) stops now,
    // not at its own timeout: nothing of ours connects to the relay after close.
    const connector = this.connector;
    await this.inner.close?.();
    if (connector?.stop) await connector.stop();
    else await connector?.close?.();
  }
}

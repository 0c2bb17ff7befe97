// A transport with the retransmission link of spec/protocol.md §12.1 on top of another transport
// (the relay client): the same send/receive interface, with the link's timers on an interval.
// With a connector (`connect`, e.g. RelayRendezvous of §12.2) a failed or silent transport is
// replaced by a freshly paired one, after which the link re-sends what is unacknowledged. A seat
// resumed from its journal has no transport yet (`inner` null): the connector pairs it first.
import { ReliableLink } from './reliable.js';

/**
 * @typedef {import('./match.js').Transport} Transport
 */

export class LinkTransport {
  /**
   * @param {Transport | null} inner null: pair through `connect` first
   * @param {{rng: (n: number) => Uint8Array, retransmit?: number, maxRetransmit?: number, keepalive?: number,
   *   tickMs?: number, onRestart?: () => void, now?: () => number, giveUpMs?: number,
   *   onState?: (state: 'connected' | 'reconnecting') => void,
   *   connect?: {connect: () => Promise<Transport>, bind?: (sessionId: Uint8Array) => void, close?: () => Promise<void>}}} options
   *   `onRestart` is called when the peer's link restarted (its process did): the driver re-sends
   *   what the peer may have lost. `connect` pairs again when the transport fails (§12.2); its
   *   `bind` is offered to the driver (`bind`) once both seats hold the session. `onState` hears
   *   when pairing again starts and ends (a screen shows it); after `giveUpMs` of failed pairing
   *   (default: never) the transport fails with the last error.
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
    this.link = new ReliableLink(options);
    this.onRestart = options.onRestart ?? (() => {});
    /** @type {Uint8Array[]} */
    this.inbox = [];
    /** @type {{resolve: (v: Uint8Array) => void, reject: (e: unknown) => void}[]} */
    this.waiters = [];
    /** @type {unknown} */
    this.error = null;
    this.closed = false;
    if (inner) for (const f of this.link.start(this.now())) inner.send(f);
    else {
      this.link.start(this.now()); // its HELLO goes out once paired (reconnected() repeats it)
      this.#repair(new Error('not paired yet'));
    }
    this.timer = setInterval(() => {
      if (this.repairing) return;
      const { out, silent } = this.link.tick(this.now());
      for (const f of out) this.#write(f);
      // §12.1 rule 5: a peer silent beyond the keepalive bound: drop the transport, pair again.
      if (silent && this.connector) this.#repair(new Error('the peer was silent'));
    }, options.tickMs ?? 200);
    this.#pump();
  }

  /** The session both seats hold: the connector's rejoin tag derives from it (§12.2). @param {Uint8Array} sessionId */
  bind(sessionId) {
    this.connector?.bind?.(sessionId);
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
      try { await old.close?.(); } catch { /* it failed already */ }
      let delay = 0.1;
      let paired = false;
      const started = Date.now();
      while (!this.closed && !paired) {
        try {
          this.inner = await /** @type {{connect: () => Promise<Transport>}} */ (this.connector).connect();
          paired = true;
        } catch (e) {
          if (Date.now() - started > this.giveUpMs) {
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
      this.link.lastHeard = this.now();
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
      const r = this.link.receive(data, this.now());
      for (const f of r.out) this.#write(f);
      if (r.restarted) this.onRestart();
      for (const p of r.deliver) {
        const w = this.waiters.shift();
        if (w) w.resolve(p);
        else this.inbox.push(p);
      }
    }
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
    if (next) return Promise.resolve(next);
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
    await this.inner.close?.();
    await this.connector?.close?.();
  }
}

// A transport with the retransmission link of spec/protocol.md §12.1 on top of another transport
// (the relay client): the same send/receive interface, with the link's timers on an interval.
import { ReliableLink } from './reliable.js';

/**
 * @typedef {import('./match.js').Transport} Transport
 */

export class LinkTransport {
  /**
   * @param {Transport} inner
   * @param {{rng: (n: number) => Uint8Array, retransmit?: number, maxRetransmit?: number, keepalive?: number,
   *   tickMs?: number, onRestart?: () => void, now?: () => number}} options
   *   `onRestart` is called when the peer's link restarted (its process did): the driver re-sends
   *   what the peer may have lost.
   */
  constructor(inner, options) {
    this.inner = inner;
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
    for (const f of this.link.start(this.now())) inner.send(f);
    this.timer = setInterval(() => {
      const { out } = this.link.tick(this.now());
      for (const f of out) this.#write(f);
    }, options.tickMs ?? 200);
    this.#pump();
  }

  /** @param {Uint8Array} f */
  #write(f) {
    try {
      this.inner.send(f);
    } catch (e) {
      this.#fail(e);
    }
  }

  async #pump() {
    while (!this.closed) {
      let data;
      try {
        data = await this.inner.receive();
      } catch (e) {
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
  }
}

// The retransmission link (spec/protocol.md §12.1) over relay connections that may be replaced:
// when the relay client gives up (the relay restarted, the room is gone) or the peer falls
// silent past the keepalive (its page reloaded: the relay only shows it away), the two seats
// meet again through the lobby (§12.2) and the link carries on; a seat that restarted (a new
// link id) is told to the driver, which re-sends its outbox (§12.3).
import { ReliableLink } from '../../../src/net/reliable.js';
import { RelayClient, RelayError } from '../../../src/net/relay_client.js';
import { rendezvousTag } from '../../../src/net/rendezvous.js';

export const META_KEY = 'rejoin';

/** The lobby tag of a rendezvous id (§12.2), version 2's: the core's. */
export { rendezvousTag };

/**
 * Pair seat `seat` with the other seat of the same rendezvous through the lobby: seat 0 opens a
 * public room tagged with it and waits; seat 1 joins the newest room with the tag.
 * @param {string} url @param {0 | 1} seat @param {string} rendezvous @param {{timeoutMs?: number, WebSocket?: any}} [options]
 * @returns {Promise<RelayClient>}
 */
export async function rendezvous(url, seat, rendezvous, options = {}) {
  const tag = rendezvousTag(rendezvous);
  const timeoutMs = options.timeoutMs ?? 30000;
  const ws = options.WebSocket ? { WebSocket: options.WebSocket } : {};
  if (seat === 0) {
    const client = await RelayClient.create(url, { public: true, meta: { [META_KEY]: tag }, ...ws });
    try {
      await client.waitForPeer(timeoutMs);
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    }
    return client;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const room of await RelayClient.lobby(url, { ...ws, rejoin: tag })) {
      if (room.meta && room.meta[META_KEY] === tag) {
        try {
          return await RelayClient.join(url, room.code, ws);
        } catch (e) {
          if (!(e instanceof RelayError) || !['room_full', 'room_not_found', 'room_closed'].includes(e.reason)) throw e;
        }
      }
    }
    if (Date.now() > deadline) throw new RelayError('rejoin_timeout', 'the other seat did not open a room in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * @typedef {{send: (data: Uint8Array) => void, receive: () => Promise<Uint8Array>, close?: () => Promise<void>}} Transport
 */

export class RejoiningLink {
  /**
   * @param {{connect: () => Promise<Transport>, first?: Transport | null, rng: (n: number) => Uint8Array,
   *   keepalive?: number, onRestart?: () => void, onState?: (state: 'connected' | 'reconnecting') => void, giveUpMs?: number}} options
   */
  constructor(options) {
    this.connect = options.connect;
    this.link = new ReliableLink({ rng: options.rng, keepalive: options.keepalive ?? 10 });
    this.onRestart = options.onRestart ?? (() => {});
    this.onState = options.onState ?? (() => {});
    this.giveUpMs = options.giveUpMs ?? 10 * 60 * 1000;
    /** @type {Transport | null} */
    this.inner = null;
    /** @type {Uint8Array[]} */
    this.inbox = [];
    /** @type {{resolve: (v: Uint8Array) => void, reject: (e: unknown) => void}[]} */
    this.waiters = [];
    /** @type {unknown} */
    this.error = null;
    this.closed = false;
    this.generation = 0;
    this.timer = setInterval(() => this.#tick(), 200);
    this.#use(options.first ?? null, true);
  }

  #now() {
    return performance.now() / 1000;
  }

  /** @param {Transport | null} inner @param {boolean} first */
  async #use(inner, first) {
    const gen = ++this.generation;
    if (!inner) {
      this.onState('reconnecting');
      const started = Date.now();
      for (;;) {
        if (this.closed) return;
        try {
          inner = await this.connect();
          break;
        } catch (e) {
          if (Date.now() - started > this.giveUpMs) return this.#fail(e);
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      if (gen !== this.generation || this.closed) { await inner.close?.(); return; }
    }
    this.inner = inner;
    this.onState('connected');
    const opening = first ? this.link.start(this.#now()) : this.link.reconnected(this.#now());
    for (const f of opening) this.#write(f);
    this.#pump(inner, gen);
  }

  /** @param {Transport} inner @param {number} gen */
  async #pump(inner, gen) {
    while (!this.closed && gen === this.generation) {
      let data;
      try {
        data = await inner.receive();
      } catch {
        if (gen === this.generation && !this.closed) this.#drop();
        return;
      }
      if (gen !== this.generation) return;
      const r = this.link.receive(data, this.#now());
      for (const f of r.out) this.#write(f);
      if (r.restarted) this.onRestart();
      for (const p of r.deliver) {
        const w = this.waiters.shift();
        if (w) w.resolve(p);
        else this.inbox.push(p);
      }
    }
  }

  /** The connection is no good: leave it and meet again through the lobby. */
  #drop() {
    const old = this.inner;
    this.inner = null;
    old?.close?.().catch(() => {});
    this.#use(null, false);
  }

  #tick() {
    if (this.closed || this.error) return;
    const { out, silent } = this.link.tick(this.#now());
    for (const f of out) this.#write(f);
    if (silent && this.inner) {
      this.link.lastHeard = this.#now(); // one drop per silence, not one per tick
      this.#drop();
    }
  }

  /** @param {Uint8Array} f */
  #write(f) {
    if (!this.inner) return; // re-sent after reconnecting
    try {
      this.inner.send(f);
    } catch {
      this.#drop();
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

  get drained() {
    return this.link.unacked.size === 0 && this.link.queued.length === 0;
  }

  /** Wait (bounded) until the peer's link acknowledged everything, then close. */
  async close() {
    for (let i = 0; i < 250 && !this.drained && !this.error; i++) await new Promise((r) => setTimeout(r, 20));
    this.closed = true;
    clearInterval(this.timer);
    await this.inner?.close?.().catch(() => {});
  }
}

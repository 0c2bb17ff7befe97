// The relay client (spec/relay.md): one seat of a room over a websocket, with resume after a
// dropped connection and count-based repair. The websocket constructor is injected (the
// browser's, or Node's global WebSocket), so the same code runs in both.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { RelayStream } from './relay_stream.js';

export const PATH = '/v1';
const CONNECT_TIMEOUT_MS = 10000;
const RESUMABLE_CODES = new Set([1006, 1011, 4004]);
/**
 * A peer_left this long after our seat was resumed is the other seat's own leave (spec/protocol.md
 * §12.1 rule 5: the other seat pairs again 3 s into our absence, and its leave may land just after
 * our resume).
 */
export const STEADY_S = 2.5;
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A relay failure with its machine-readable reason (spec/relay.md §6). */
export class RelayError extends Error {
  /** @param {string} reason @param {string} [message] */
  constructor(reason, message) {
    super(message ? `${reason}: ${message}` : reason);
    this.name = 'RelayError';
    this.reason = reason;
    /** the message as given, without the reason (for `unreachable`, the relay's URL) */
    this.detail = message ?? '';
  }
}

/** The paired stream ended (peer_left, rejected, resume_failed, shutdown, ...). */
export class RelayClosed extends RelayError {
  /** @param {string} reason @param {string} [message] */
  constructor(reason, message) {
    super(reason, message);
    this.name = 'RelayClosed';
  }
}

/**
 * A bare ws://host:port gets the version path /v1.
 * @param {string} url
 */
export function relayUrl(url) {
  /** @type {URL} */
  let u;
  try {
    u = new URL(url);
  } catch {
    // A typed error, as the Python client's (RelayError bad_url), not the runtime's TypeError.
    throw new RelayError('bad_url', `${url} isn't a valid URI`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new RelayError('bad_url', `${url} isn't a valid URI: scheme isn't ws or wss`);
  if (u.pathname === '' || u.pathname === '/') u.pathname = PATH;
  return u.toString();
}

/**
 * The canonical form of a typed room code (spec/relay.md §3): upper case, spaces and dashes
 * removed.
 * @param {string} input
 */
export function normaliseCode(input) {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** @param {string} code */
export function isWellFormedCode(code) {
  return code.length === 6 && [...code].every((c) => ALPHABET.includes(c));
}

/** @param {{[key: string]: unknown}} message */
function pack(message) {
  return msgpackEncode(message, { ignoreUndefined: true });
}

/** @param {unknown} data @returns {{[key: string]: any}} */
function unpack(data) {
  if (!(data instanceof ArrayBuffer) && !(data instanceof Uint8Array)) throw new RelayError('bad_relay_message', 'text message from the relay');
  let value;
  try {
    value = msgpackDecode(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  } catch {
    throw new RelayError('bad_relay_message', 'undecodable message from the relay');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (/** @type {any} */ (value).type) !== 'string') {
    throw new RelayError('bad_relay_message', 'relay messages are maps with a type');
  }
  return /** @type {{[key: string]: any}} */ (value);
}

/**
 * @typedef {{WebSocket?: any, now?: () => number}} ClientOptions
 */

/**
 * Open a websocket and wait until it is open. A failure is `unreachable` with the URL as its
 * message: a browser says nothing of why (a relay that is down, a relay that closed the connection
 * before answering because too many new connections came from this address, spec/relay.md §7.1,
 * and Node waits out the timeout on the latter), so the words shown for it name both.
 * @param {string} url @param {any} WS
 * @returns {Promise<WebSocket>}
 */
function openSocket(url, WS) {
  return new Promise((resolve, reject) => {
    let ws;
    try {
      ws = new WS(url);
    } catch (e) {
      reject(new RelayError('unreachable', String(e)));
      return;
    }
    ws.binaryType = 'arraybuffer';
    const timer = setTimeout(() => {
      try { ws.close(); } catch { /* closing anyway */ }
      reject(new RelayError('unreachable', url));
    }, CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      clearTimeout(timer);
      resolve(ws);
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(new RelayError('unreachable', url));
    };
  });
}

/**
 * Send one request on a fresh socket and wait for the reply of type `expected`.
 * @param {WebSocket} ws @param {{[key: string]: unknown}} message @param {string} expected
 * @returns {Promise<{[key: string]: any}>}
 */
function request(ws, message, expected) {
  return new Promise((resolve, reject) => {
    ws.onmessage = (ev) => {
      let m;
      try {
        m = unpack(ev.data);
      } catch (e) {
        reject(e);
        return;
      }
      if (m.type === expected) resolve(m);
      else if (m.type === 'error') reject(new RelayError(String(m.reason), String(m.message ?? '')));
      else reject(new RelayError('bad_relay_message', `expected ${expected}, got ${m.type}`));
    };
    ws.onclose = (ev) => reject(new RelayError('closed', `the relay closed the connection (${ev.code})`));
    ws.send(pack(message));
  });
}

/** The default websocket constructor of the platform. */
function defaultWebSocket() {
  const WS = /** @type {any} */ (globalThis).WebSocket;
  if (!WS) throw new RelayError('unreachable', 'no WebSocket in this JavaScript runtime (Node 20 needs --experimental-websocket)');
  return WS;
}

export class RelayClient {
  /**
   * @param {string} url @param {WebSocket} ws @param {{[key: string]: any}} reply @param {string} peer
   * @param {ClientOptions} options
   */
  constructor(url, ws, reply, peer, options) {
    const { code, seat, token } = reply;
    const meta = reply.meta ?? {};
    const limits = reply.limits ?? {};
    if (typeof code !== 'string' || (seat !== 0 && seat !== 1) || !(token instanceof Uint8Array) || token.length !== 24) {
      throw new RelayError('bad_relay_message', 'malformed room reply from the relay');
    }
    this.url = url;
    this.code = code;
    /** @type {0 | 1} */
    this.seat = seat;
    this.token = token;
    this.meta = meta;
    this.limits = limits;
    this.grace = Number(limits.resume_grace ?? 60);
    this.maxFrameBytes = Number(limits.max_frame_bytes ?? 65536);
    this.WS = options.WebSocket ?? defaultWebSocket();
    this.now = options.now ?? (() => performance.now() / 1000);
    /** @type {number | null} when this client last took its seat back (spec/relay.md §8) */
    this.resumedAt = null;
    /** @type {number | null} */
    this.failedAt = null;
    /** 'none' | 'present' | 'away' */
    this.peer = peer;
    this.stream = new RelayStream({ bufferFrames: Number(limits.buffer_frames ?? 256), bufferBytes: Number(limits.buffer_bytes ?? 1 << 20) });
    /** @type {Uint8Array[]} frames received, not yet taken */
    this.inbox = [];
    /** @type {{resolve: (v: Uint8Array) => void, reject: (e: Error) => void}[]} */
    this.waiters = [];
    /** @type {{[key: string]: unknown}[]} frames held until a peer is in the room */
    this.held = [];
    /** @type {RelayClosed | null} */
    this.failure = null;
    /** @type {((peer: string) => void)[]} */
    this.peerListeners = [];
    /** @type {((failure: RelayClosed) => void)[]} called once when the client fails or is closed */
    this.failListeners = [];
    this.closing = false;
    this.awaitingReopen = false;
    this.reconnects = 0;
    /** the relay's count of frames accepted from this seat, when it was taken back by `resume` */
    this.acceptedOnResume = 0;
    this.stallMark = -1;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.#attach(ws);
    this.watchdog = setInterval(() => this.#watchStalls(), 1000);
  }

  /**
   * Open a room as its host (seat 0); `listing` is what the lobby shows of it (spec/relay.md §4.2).
   * @param {string} url @param {{public?: boolean, meta?: {[key: string]: unknown}, listing?: {[key: string]: unknown}} & ClientOptions} [options]
   */
  static async create(url, options = {}) {
    const full = relayUrl(url);
    const ws = await openSocket(full, options.WebSocket ?? defaultWebSocket());
    try {
      /** @type {{[key: string]: unknown}} */
      const msg = { type: 'create', public: options.public ?? false, meta: options.meta ?? {} };
      if (options.listing) msg.listing = options.listing;
      const reply = await request(ws, msg, 'created');
      return new RelayClient(full, ws, reply, 'none', options);
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /**
   * Take seat 1 of the room with this code.
   * @param {string} url @param {string} code @param {ClientOptions} [options]
   */
  static async join(url, code, options = {}) {
    const canonical = normaliseCode(code);
    const full = relayUrl(url);
    const ws = await openSocket(`${full}${full.includes('?') ? '&' : '?'}room=${canonical}`, options.WebSocket ?? defaultWebSocket());
    try {
      const reply = await request(ws, { type: 'join', code: canonical }, 'joined');
      return new RelayClient(full, ws, reply, String(reply.peer ?? 'present'), options);
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /**
   * Take a seat back with its resume token from a new connection of a new process (spec/relay.md
   * §8): a host whose page was reloaded while it waited for its joiner keeps its room and code.
   * Nothing was sent or received on the seat before (`received` 0).
   * @param {string} url @param {string} code @param {Uint8Array} token @param {ClientOptions} [options]
   */
  static async resume(url, code, token, options = {}) {
    const canonical = normaliseCode(code);
    const full = relayUrl(url);
    const ws = await openSocket(`${full}${full.includes('?') ? '&' : '?'}room=${canonical}`, options.WebSocket ?? defaultWebSocket());
    try {
      const reply = await request(ws, { type: 'resume', token, received: 0 }, 'resumed');
      const client = new RelayClient(full, ws, { ...reply, token }, String(reply.peer ?? 'none'), options);
      client.acceptedOnResume = Number(reply.accepted ?? 0);
      return client;
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /**
   * The open public rooms: [{code, meta, age, listing}] (`listing`: unchecked, see listing.js). With `rejoin`, the rejoin rooms of that tag
   * (spec/relay.md §3: a lobby without it never lists rejoin rooms).
   * @param {string} url @param {ClientOptions & {rejoin?: string}} [options]
   */
  static async lobby(url, options = {}) {
    const ws = await openSocket(relayUrl(url), options.WebSocket ?? defaultWebSocket());
    try {
      const reply = await request(ws, options.rejoin ? { type: 'lobby', rejoin: options.rejoin } : { type: 'lobby' }, 'rooms');
      return /** @type {{code: string, meta: {[key: string]: unknown}, age: number, listing?: unknown}[]} */ (reply.rooms ?? []);
    } finally {
      ws.close();
    }
  }

  /** @param {WebSocket} ws */
  #attach(ws) {
    this.ws = ws;
    ws.onmessage = (ev) => {
      try {
        this.#onMessage(ws, unpack(ev.data));
      } catch (e) {
        this.#fail(e instanceof RelayError ? e.reason : 'bad_relay_message', String(e));
      }
    };
    ws.onclose = (ev) => this.#onClose(ws, ev.code);
    ws.onerror = () => { /* a close event follows */ };
  }

  /** @param {{[key: string]: unknown}} message */
  #write(message) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(pack(message));
  }

  /**
   * The other seat left (`peer_left`, reason `left`), and not within STEADY_S of our own resume:
   * a deliberate leave. Just after our resume it may be the other seat giving up on our absence
   * to pair again (spec/protocol.md §12.1 rule 5), not leaving the match.
   */
  get leftWhileSteady() {
    if (this.failure?.reason !== 'peer_left' || this.failure.detail !== 'left' || this.failedAt === null) return false;
    return this.resumedAt === null || this.failedAt - this.resumedAt >= STEADY_S;
  }

  /** @param {(peer: string) => void} listener called with 'present', 'away', 'none' or 'left' */
  onPeer(listener) {
    this.peerListeners.push(listener);
  }

  /** @param {string} state */
  #setPeer(state) {
    this.peer = state;
    for (const l of this.peerListeners) l(state);
  }

  /**
   * Resolve once a peer holds the other seat.
   * @param {number} [timeoutMs]
   */
  waitForPeer(timeoutMs) {
    if (this.peer !== 'none') return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = timeoutMs ? setTimeout(() => reject(new RelayError('timeout', 'nobody joined')), timeoutMs) : null;
      // Closed while waiting (e.g. a room abandoned for another): stop the clock, which would
      // otherwise keep a Node process alive until it ran out.
      this.failListeners.push((failure) => {
        if (timer) clearTimeout(timer);
        reject(failure);
      });
      this.onPeer((state) => {
        if (state === 'present' || state === 'away') {
          if (timer) clearTimeout(timer);
          resolve(undefined);
        } else if (state === 'left') {
          if (timer) clearTimeout(timer);
          reject(this.failure ?? new RelayClosed('peer_left'));
        }
      });
    });
  }

  /**
   * Send one frame to the peer (buffered until the relay acknowledges it).
   * @param {Uint8Array} data
   */
  send(data) {
    if (this.failure) throw this.failure;
    if (data.length > this.maxFrameBytes) throw new RelayError('frame_too_large', `${data.length} bytes`);
    const message = this.stream.send(data);
    if (this.peer === 'none') this.held.push(message);
    else this.#write(message);
  }

  /**
   * The next frame from the peer.
   * @returns {Promise<Uint8Array>}
   */
  receive() {
    const next = this.inbox.shift();
    if (next) return Promise.resolve(next);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** @param {Uint8Array} data */
  #deliver(data) {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(data);
    else this.inbox.push(data);
  }

  /** @param {WebSocket} ws @param {{[key: string]: any}} m */
  #onMessage(ws, m) {
    if (ws !== this.ws) return;
    const now = this.now();
    switch (m.type) {
      case 'frame': {
        if (this.awaitingReopen) return;
        if (typeof m.ack === 'number') this.stream.acknowledged(m.ack);
        const { deliver, out } = this.stream.received(Number(m.seq), /** @type {Uint8Array} */ (m.data), now);
        for (const o of out) this.#write(o);
        if (deliver) this.#deliver(deliver);
        return;
      }
      case 'ack':
        this.stream.acknowledged(Number(m.seq));
        return;
      case 'sync': {
        const out = this.stream.onSync(Number(m.accepted), Number(m.sent), now);
        if (!out) return this.#fail('resume_failed', 'frames the relay never accepted are gone');
        for (const o of out) this.#write(o);
        return;
      }
      case 'resumed': {
        const out = this.stream.resendFrom(Number(m.accepted));
        if (!out) return this.#fail('resume_failed', 'frames the relay never accepted are gone');
        this.resumedAt = this.now();
        for (const o of out) this.#write(o);
        this.#setPeer(String(m.peer ?? 'present'));
        return;
      }
      case 'peer_joined':
        this.#setPeer('present');
        for (const h of this.held.splice(0)) this.#write(h);
        return;
      case 'peer_away':
        this.#setPeer('away');
        return;
      case 'peer_back':
        this.#setPeer('present');
        return;
      case 'reopened':
        this.awaitingReopen = false;
        this.stream.reset();
        this.#setPeer('none');
        return;
      case 'peer_left':
        return this.#fail('peer_left', String(m.reason ?? 'left'));
      case 'rejected':
        return this.#fail('rejected', 'the host rejected this joiner');
      case 'shutdown':
        return this.#fail('shutdown', String(m.message ?? 'the relay is stopping'));
      case 'left':
        return;
      case 'error':
        if (m.reason === 'frame_gap') {
          const sync = this.stream.requestSync(now);
          if (sync) this.#write(sync);
        }
        return;
      default:
        return;
    }
  }

  /** @param {WebSocket} ws @param {number} code */
  #onClose(ws, code) {
    if (ws !== this.ws || this.failure) return;
    if (this.closing) return this.#fail('closed', 'closed by us');
    if (RESUMABLE_CODES.has(code) || code === 1005) {
      this.#reconnect();
      return;
    }
    const reasons = /** @type {Record<number, string>} */ ({
      1000: 'closed', 1001: 'shutdown', 4001: 'rejected', 4002: 'peer_left', 4003: 'expired', 4005: 'policy', 4006: 'replaced', 4007: 'resume_failed',
    });
    this.#fail(reasons[code] ?? 'closed', `connection closed with ${code}`);
  }

  async #reconnect() {
    const deadline = this.now() + this.grace;
    let delay = 0.05;
    this.ws = null;
    while (!this.failure && !this.closing && this.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000 * delay * (0.5 + Math.random() / 2)));
      delay = Math.min(2, delay * 2);
      let ws;
      try {
        ws = await openSocket(`${this.url}${this.url.includes('?') ? '&' : '?'}room=${this.code}`, this.WS);
      } catch {
        continue;
      }
      // Closed (or failed) while the socket opened: resuming now would take the seat back after
      // our leave was meant to end it (review).
      if (this.failure || this.closing) {
        ws.close();
        return;
      }
      this.reconnects += 1;
      this.#attach(ws);
      ws.send(pack({ type: 'resume', token: this.token, received: this.stream.inNext }));
      return;
    }
    this.#fail('resume_failed', 'could not reach the relay again within the grace');
  }

  #watchStalls() {
    const oldest = this.stream.oldestUnacked();
    if (oldest >= 0 && oldest === this.stallMark && this.ws && this.peer !== 'none') {
      const sync = this.stream.requestSync(this.now());
      if (sync) this.#write(sync);
    }
    this.stallMark = oldest;
  }

  /** @param {string} reason @param {string} message */
  #fail(reason, message) {
    if (this.failure) return;
    this.failedAt = this.now();
    this.failure = new RelayClosed(reason, message);
    clearInterval(this.watchdog);
    for (const w of this.waiters.splice(0)) w.reject(this.failure);
    for (const l of this.failListeners.splice(0)) l(this.failure);
    if (reason === 'peer_left') this.#setPeer('left');
    try { this.ws?.close(); } catch { /* already closed */ }
  }

  /** Host only: remove the joiner and reopen the room (spec/relay.md §5.3). */
  rejectPeer() {
    this.awaitingReopen = true;
    this.#write({ type: 'reject_peer' });
  }

  /**
   * Leave the room and close the connection.
   * @param {{drain?: boolean}} [o] `drain: false`: leave at once, without waiting for our last
   *   frames' acknowledgement (a link pairing again re-sends whatever its peer has not confirmed)
   */
  async close(o = {}) {
    if (this.failure) return;
    // Leaving closes the room and discards what the relay has not delivered: let our last
    // frames be acknowledged first (a bounded wait).
    const drain = o.drain ?? true;
    for (let i = 0; drain && i < 100 && this.stream.oldestUnacked() >= 0 && this.ws; i++) await new Promise((r) => setTimeout(r, 20));
    this.closing = true;
    this.#write({ type: 'leave' });
    clearInterval(this.watchdog);
    await new Promise((r) => setTimeout(r, 20));
    this.#fail('closed', 'closed by us');
  }

  get closedReason() {
    return this.failure ? this.failure.reason : null;
  }
}

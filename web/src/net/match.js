// The async driver of one seat: a sans-I/O GamePeer over a transport (the relay client, or an
// in-memory pair), with a chooser for the decisions. Node and the browser both run it.
import { GamePeer } from '../protocol/peer.js';
import { RelayClosed } from './relay_client.js';
import { peerHoldsSession } from './rendezvous.js';

/**
 * @typedef {{send: (data: Uint8Array) => void, receive: () => Promise<Uint8Array>, close?: (o?: {drain?: boolean}) => Promise<void>,
 *   vouch?: () => void, reject?: () => void, setLivenessKey?: (key: Uint8Array) => void,
 *   onPeer?: (listener: (state: string) => void) => void, peer?: string}} Transport
 * `close({drain: false})` leaves without waiting for the last frames' acknowledgement (RelayClient).
 * `vouch`/`reject` (a link that vouches for pairings, spec/protocol.md §12.2): the payload last
 * received authenticated, or did not. `onPeer` and `peer` (a relay client): where the relay says the
 * other seat is ('present', 'away', 'none', 'left'), as news and now.
 * @typedef {import('../protocol/peer.js').PeerEvent} PeerEvent
 * @typedef {{
 *   choose: (peer: GamePeer, event: PeerEvent) => import('../rules/actions.js').Action,
 *   acceptTerms?: (terms: unknown) => boolean,
 *   resign?: (peer: GamePeer, event: PeerEvent) => boolean,
 *   stall?: (peer: GamePeer, event: PeerEvent) => boolean,
 *   onEvent?: (event: PeerEvent) => void,
 *   deadlineScale?: number,
 * }} Chooser
 * `resign`: give the match up instead of deciding (spec/game.md §6.3) when it says so.
 * `stall`: never answer this decision (a person who walked away; tests of §12.4 claims).
 * `deadlineScale`: wait for the opponent the terms' deadline times this (1 in play; tests shrink it),
 * then stop with an abandonment claim (`failure.reason` "abandoned", the file in `evidence`);
 * undefined: wait forever.
 * @typedef {{ok: boolean, scores: number[] | null, winner: number | null, transcript: Uint8Array | null,
 *   result: Uint8Array | null, failure: PeerEvent | null, evidence: Uint8Array | null, dropped: number}} Outcome
 * `dropped`: frames that did not authenticate under the channel, dropped and counted (§12.2).
 */

/**
 * Play one seat to the end. `peerOptions` are those of GamePeer.
 * @param {Transport} transport @param {ConstructorParameters<typeof GamePeer>[0]} peerOptions @param {Chooser} chooser
 * @returns {Promise<Outcome>}
 */
export async function runMatch(transport, peerOptions, chooser) {
  const peer = new GamePeer(peerOptions);
  // The outbox (spec/protocol.md §12.3): what we sent since the peer last showed it received
  // something; sent again when the peer's link says its process restarted.
  /** @type {Uint8Array[]} */
  let outbox = [];
  /** @type {Uint8Array | null} the latest frame sent: a repeat the peer can vouch for */
  let lastSent = null;
  let dropped = 0;
  // After the peer's link restarted, and on every new connection, send something the peer can
  // authenticate at once (§12.1 rule 5): the outbox, or when it is empty a repeat of the last
  // frame (the peer's channel ignores it as a duplicate, §7.2 steps 1 and 6).
  const prove = () => {
    const frames = outbox.length ? outbox : lastSent ? [lastSent] : [];
    for (const f of frames) transport.send(f);
  };
  if ('onRestart' in transport) /** @type {any} */ (transport).onRestart = prove;
  if ('onConnect' in transport) /** @type {any} */ (transport).onConnect = prove;
  let bound = false;
  let settled = false;
  let keyed = false;
  /** @type {PeerEvent | null} */
  let failure = null;
  /** @type {PeerEvent | null} */
  let over = null;
  /** @param {import('../protocol/peer.js').Output} out */
  const handle = (out) => {
    for (const f of out.frames) {
      outbox.push(f);
      lastSent = f;
      transport.send(f);
    }
    for (const ev of out.events) {
      chooser.onEvent?.(ev);
      if (ev.type === 'your_turn') {
        if (chooser.stall?.(peer, ev)) continue;
        handle(chooser.resign?.(peer, ev) ? peer.resign() : peer.decide(chooser.choose(peer, ev)));
      }
      else if (ev.type === 'terms_proposed') {
        if (chooser.acceptTerms && !chooser.acceptTerms(ev.terms)) {
          failure = Object.freeze({ type: 'failure', reason: 'terms_refused', detail: 'we refused the proposed terms', blame: null, seq: null, evidence: null });
          return;
        }
        handle(peer.acceptTerms());
      } else if (ev.type === 'failure') failure = ev;
      else if (ev.type === 'match_over') over = ev;
    }
  };
  // The opponent's move reaches the chooser (the screen) before we compose our answer (issue 26).
  peer.onAccepted = (events) => handle({ frames: [], events });
  handle(peer.start());
  while (!peer.done && !failure) {
    let frame;
    try {
      const wait = peer.flow?.waitingFor();
      const theirs = wait && wait.seat !== peer.seat;
      const receiving = transport.receive();
      frame = await (theirs && chooser.deadlineScale !== undefined
        ? withDeadline(receiving, wait.seconds * 1000 * chooser.deadlineScale)
        : receiving);
      // §12.4: no claim while our own relay is unreachable, nor right after it answers again.
      const began = Date.now();
      const scaled = (wait?.seconds ?? 0) * (chooser.deadlineScale ?? 1);
      const held = () => claimHold(transport, scaled, (Date.now() - began) / 1000);
      for (let hold = held(); frame === null && hold > 0; hold = held()) {
        frame = await withDeadline(receiving, Math.min(hold, 1) * 1000);
      }
      if (frame === null) {
        // spec/protocol.md §12.4: the opponent missed its deadline; we sign a claim and stop.
        const claim = peer.abandonmentClaim();
        const w = /** @type {{seat: number, type: string}} */ (wait);
        failure = Object.freeze({
          type: 'failure', reason: 'abandoned', detail: `no ${w.type} from player ${w.seat} within the deadline`,
          blame: w.seat, seq: peer.channel ? peer.channel.next : null, evidence: claim,
        });
        break;
      }
    } catch (e) {
      const reason = e instanceof RelayClosed ? e.reason : 'transport_closed';
      failure = Object.freeze({ type: 'failure', reason, detail: String(/** @type {Error} */ (e).message), blame: null, seq: null, evidence: null });
      break;
    }
    if (peer.channel && !peer.channel.authenticates(frame)) {
      // spec/protocol.md §12.2 item 1: not sealed by the peer (a stranger in the room, the relay,
      // noise). It proves nothing against anyone: dropped, counted, never fatal.
      dropped += 1;
      transport.reject?.();
      continue;
    }
    const before = peer.channel ? peer.channel.next : -1;
    const out = peer.receive(frame);
    if (!peer.failed) transport.vouch?.();
    if (!peer.channel || peer.channel.next > before) outbox = [];
    // The session exists: liveness and vouching now need a proof bound to it (§12.2 item 4).
    if (!keyed && peer.channel && transport.setLivenessKey) {
      transport.setLivenessKey(peer.channel.livenessKey);
      keyed = true;
    }
    // spec/protocol.md §12.2: once we accepted an envelope of the other seat both hold the
    // session, and a transport that pairs again derives its rejoin tag from it.
    if (!bound && before >= 0 && peer.channel && peer.channel.next > before && 'bind' in transport) {
      /** @type {any} */ (transport).bind(peer.channel.sessionId);
      bound = true;
    }
    // Once an envelope of the other seat follows one of ours it holds the session too: the joiner
    // stops looking for rooms under the unbound tag (§12.2).
    if (bound && !settled && peer.channel && 'peerBound' in transport
        && peerHoldsSession(peer.channel.accepted.map((/** @type {any} */ a) => a.sender), peer.seat)) {
      /** @type {any} */ (transport).peerBound();
      settled = true;
    }
    handle(out);
  }
  const done = peer.done;
  return {
    ok: done,
    scores: done ? /** @type {any} */ (over)?.scores ?? null : null,
    winner: done ? /** @type {any} */ (over)?.winner ?? null : null,
    transcript: peer.channel ? peer.transcript() : null,
    result: done ? peer.resultFile() : null,
    failure,
    evidence: peer.evidence ?? /** @type {any} */ (failure)?.evidence ?? null,
    dropped,
  };
}

/**
 * Seconds an abandonment claim must still wait for our relay (spec/protocol.md §12.4), when the
 * transport pairs through a connector that keeps a record of the relay (RelayRendezvous).
 * @param {any} transport @param {number} deadline @param {number} waited seconds since the wait began
 */
export function claimHold(transport, deadline, waited) {
  const connector = transport?.connector;
  return connector && typeof connector.claimHold === 'function' ? connector.claimHold(deadline, waited) : 0;
}

/**
 * The value of a promise, or null when it takes longer than `ms`.
 * @template T @param {Promise<T>} promise @param {number} ms @returns {Promise<T | null>}
 */
function withDeadline(promise, ms) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * An in-memory pair of transports (frames delivered in order).
 * @returns {[Transport, Transport]}
 */
export function memoryPair() {
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {((v: Uint8Array) => void)[][]} */
  const waiting = [[], []];
  /** @param {number} side @returns {Transport} */
  const end = (side) => ({
    send(data) {
      const to = 1 - side;
      const w = waiting[to].shift();
      if (w) w(data.slice());
      else queues[to].push(data.slice());
    },
    receive() {
      const next = queues[side].shift();
      if (next) return Promise.resolve(next);
      return new Promise((resolve) => waiting[side].push(resolve));
    },
  });
  return [end(0), end(1)];
}

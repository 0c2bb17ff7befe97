// Crash safety for a game peer (spec/protocol.md §12.3), the way the reference driver does it:
// persist inputs, not internals. A GamePeer draws everything from its seed (the hedges of
// protocol.md §5.7 and crypto.md §3.5) and signs deterministically, so the setup and the log of
// inputs (each frame received, each decision made) rebuild the exact state by replay. The
// journal also keeps the count and a running hash of the frames sent; a replay that does not
// regenerate them is refused (`replay_mismatch`): sending anything else would be equivocation.
// The caller saves the journal after every input and before sending the frames it caused
// (the browser keeps it in IndexedDB), and forgets it when the match ends (it holds the seed).
import { concat, fromHex, toHex } from '../bytes.js';
import { GamePeer } from './peer.js';
import { Identity } from './identity.js';
import { LocalError } from './errors.js';
import { sha256 } from './primitives.js';
import { actionFromDict, actionToDict } from '../rules/actions.js';
import { Profile } from '../rules/profile.js';

/**
 * @typedef {{seat: 0 | 1, identity: string, room: string, password: string | null, seed: string, name: string,
 *   profile: unknown, deadlines: {step: number, turn: number} | null, autoAccept: boolean, rated?: boolean, ratings?: string}} Setup
 * @typedef {{frame: string} | {decide: unknown} | {accept: true} | {resign: true}} Input
 * @typedef {{version: 2, setup: Setup, inputs: Input[], sent: number, sentHash: string}} JournalState
 */

const ZERO = new Uint8Array(32);

/** The journal's format: 2 since game version 2 (a journal of version 1 replays another flow). */
export const JOURNAL_VERSION = 2;

export class Journal {
  /**
   * A fresh journal and its peer.
   * @param {{seat: 0 | 1, identity: Identity, room: string, password?: string | null, seed: Uint8Array, name?: string,
   *   profile?: Profile, deadlines?: {step: number, turn: number}, autoAccept?: boolean, rated?: boolean, ratings?: string}} options
   */
  static create(options) {
    /** @type {Setup} */
    const setup = {
      seat: options.seat, identity: toHex(options.identity.seed), room: options.room, password: options.password ?? null,
      seed: toHex(options.seed), name: options.name ?? '', profile: options.profile ? options.profile.toDict() : null,
      deadlines: options.deadlines ?? null, autoAccept: options.autoAccept ?? false,
      rated: options.rated ?? false, ratings: options.ratings ?? '',
    };
    return new Journal({ version: JOURNAL_VERSION, setup, inputs: [], sent: 0, sentHash: toHex(ZERO) });
  }

  /** @param {JournalState} state */
  constructor(state) {
    this.state = state;
    this.peer = Journal.#peerOf(state.setup);
    /** @type {Uint8Array} */
    this.sentHash = fromHex(state.sentHash);
    this.sent = 0;
    /** frames that did not authenticate under the channel: dropped, counted, never logged */
    this.dropped = 0;
    /**
     * Whether the transport may carry frames of others than the peer (a link that pairs again
     * through the relay, spec/protocol.md §12.2 item 1): then a frame that does not authenticate is
     * dropped; over a transport that joins only the two seats it fails the session as §7.2 says.
     */
    this.strangers = true;
  }

  /** @param {Setup} setup */
  static #peerOf(setup) {
    return new GamePeer({
      seat: setup.seat, identity: new Identity(fromHex(setup.identity)), room: setup.room, password: setup.password,
      seed: fromHex(setup.seed), name: setup.name, profile: setup.profile ? Profile.fromDict(setup.profile) : undefined,
      deadlines: setup.deadlines ?? undefined, autoAccept: setup.autoAccept,
      // A journal saved before the page could host a rated match has neither field: unrated.
      rated: setup.rated ?? false, ratings: setup.ratings ?? '',
      rng: () => { throw new LocalError('bad_state', 'a journaled peer draws only from its seed'); },
    });
  }

  /** @param {Uint8Array[]} frames */
  #count(frames) {
    for (const f of frames) {
      this.sentHash = sha256(concat(this.sentHash, sha256(f)));
      this.sent += 1;
    }
    this.state.sent = this.sent;
    this.state.sentHash = toHex(this.sentHash);
  }

  /** Seat 0's first frames. */
  start() {
    const out = this.peer.start();
    this.#count(out.frames);
    return out;
  }

  /** How far the peer has got: a number that grows with every accepted frame. */
  #progress() {
    const p = this.peer;
    return (p.channel ? 1000 + p.channel.next : p.handshake.received.length) + (p.failed ? 1 : 0);
  }

  /**
   * A frame from the transport; an exact repeat the peer ignored is not logged. A frame the peer
   * did not seal (a stranger in the rejoin room, the relay, noise) proves nothing against anyone:
   * it is dropped and counted, never fatal (spec/protocol.md §12.2 item 1), and not logged.
   * @param {Uint8Array} frame
   */
  receive(frame) {
    const channel = this.peer.channel;
    if (this.strangers && channel && !this.peer.failed && !channel.authenticates(frame)) {
      this.dropped += 1;
      return { frames: [], events: [] };
    }
    const before = this.#progress();
    const out = this.peer.receive(frame);
    if (this.#progress() !== before || out.frames.length || out.events.length) this.state.inputs.push({ frame: toHex(frame) });
    this.#count(out.frames);
    return out;
  }

  /** @param {import('../rules/actions.js').Action} action */
  decide(action) {
    const out = this.peer.decide(action);
    this.state.inputs.push({ decide: actionToDict(action) });
    this.#count(out.frames);
    return out;
  }

  acceptTerms() {
    const out = this.peer.acceptTerms();
    this.state.inputs.push({ accept: true });
    this.#count(out.frames);
    return out;
  }

  /** Resign where this seat is asked to act (spec/game.md §6.3). */
  resign() {
    const out = this.peer.resign();
    this.state.inputs.push({ resign: true });
    this.#count(out.frames);
    return out;
  }

  /** The plain data to save (JSON-safe). */
  toJSON() {
    return this.state;
  }

  /**
   * Rebuild a peer from a saved journal by replaying its inputs; returns the journal and every
   * frame the peer sent (to re-send: the receiver ignores exact repeats). Raises
   * `replay_mismatch` when the replay does not send exactly what was sent before.
   * @param {JournalState} saved
   */
  static restore(saved) {
    if (!saved || saved.version !== JOURNAL_VERSION) throw new LocalError('bad_state', 'not a journal of this version');
    const inputs = saved.inputs.slice();
    const journal = new Journal({ ...saved, inputs: [], sent: 0, sentHash: toHex(ZERO) });
    /** @type {Uint8Array[]} */
    const frames = [];
    if (saved.setup.seat === 0) frames.push(...journal.start().frames);
    for (const input of inputs) {
      let out;
      if ('frame' in input) out = journal.receive(fromHex(input.frame));
      else if ('decide' in input) out = journal.decide(actionFromDict(input.decide));
      else if ('resign' in input) out = journal.resign();
      else out = journal.acceptTerms();
      frames.push(...out.frames);
    }
    if (journal.sent !== saved.sent || toHex(journal.sentHash) !== saved.sentHash) {
      throw new LocalError('replay_mismatch', 'the replay does not send what was sent before');
    }
    return { journal, frames };
  }
}

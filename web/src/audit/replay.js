// The auditor: replays a transcript, evidence or abandonment file (spec/protocol.md §8, §9,
// §12.4; spec/game.md §8) and says what it proves, with the same reasons and message numbers as
// `koikoi verify`. A file that breaks the container raises FileError (reason, message index); a
// well-formed file gives a Report.
import { concat, equal, toHex, u8, utf8 } from '../bytes.js';
import { decodePrefix, encode, isMap } from '../protocol/codec.js';
import { decodeEnvelope, envelopeDigest } from '../protocol/envelope.js';
import { ProtocolError } from '../protocol/errors.js';
import { commitment, handshakeStatement, sessionIds, transcriptHashes, VERSION } from '../protocol/handshake.js';
import { ed25519Verify, isValidIdentityKey } from '../protocol/primitives.js';
import { nameProblem } from '../protocol/names.js';
import { ABANDON_MAGIC, EVIDENCE_MAGIC, TRANSCRIPT_MAGIC, hasMagic } from '../protocol/transcript.js';
import { CannotContinue, DECK_SIZE, GameFlow, GameViolation } from '../protocol/flow.js';
import { ABANDON_DOMAIN } from '../protocol/peer.js';
import { encodeResultFile } from '../protocol/results.js';
import { GAME_VERSION } from '../protocol/statement.js';
import { Deck } from '../mentalpoker/deck.js';

/** The file format of version 2 (spec/protocol.md §8). */
export const FORMAT = 2;

/** A file that breaks its container (spec/protocol.md §8): reason and the envelope index, if any. */
export class FileError extends ProtocolError {
  /** @param {string} reason @param {string} message @param {number | null} [index] */
  constructor(reason, message, index = null) {
    super(reason, message);
    this.name = 'FileError';
    this.index = index;
  }
}

/**
 * @typedef {{seat: number | null, seq: number | null, reason: string, message: string, text: string}} Deviation
 * @typedef {{kind: string, ok: boolean, complete: boolean, messages: number, profile: string | null,
 *   keys: string[], scores: number[] | null, winner: number | null, rounds: Array<[number, number | null, number]>,
 *   result: string | null, deviation: Deviation | null, waiting_for: number | null, notes: string[],
 *   session: string, resigned: {seat: number, seq: number} | null}} Report
 * @typedef {{[key: string]: import('../protocol/codec.js').Value}} Map_
 */

/**
 * @param {number | null} seat @param {number | null} seq @param {string} reason @param {string} message
 * @returns {Deviation}
 */
export function deviation(seat, seq, reason, message) {
  const where = seq === null ? '' : ` at message ${seq}`;
  const detail = message ? `${reason} (${message})` : reason;
  const text = seat === null ? `no player is shown to have deviated${where}: ${detail}` : `player ${seat} deviated${where}: ${detail}`;
  return { seat, seq, reason, message, text };
}

/**
 * Split a file into its values; every value canonical (bad_file otherwise).
 * @param {Uint8Array} data
 */
function values(data) {
  /** @type {{value: import('../protocol/codec.js').Value, offset: number}[]} */
  const out = [];
  let offset = 8;
  while (offset < data.length) {
    try {
      const r = decodePrefix(data, offset);
      out.push({ value: r.value, offset });
      offset = r.end;
    } catch (e) {
      throw new FileError('bad_file', `value at byte ${offset}: not in canonical form`);
    }
  }
  return out;
}

const RECORD_KEYS = ['hello', 'keys', 'names', 'reply', 'reveal', 'room', 'signatures', 'version'];

/**
 * Verify a handshake record (spec/protocol.md §5.6), with the file-level reasons of §8 (steps 5
 * to 7): `unsupported_version`, `bad_handshake` (fields, frames, keys, names),
 * `bad_handshake_signature`. Returns the session it opens.
 * @param {unknown} record
 */
export function verifyHandshakeRecord(record) {
  const bad = (/** @type {string} */ why) => new FileError('bad_handshake', `handshake record: ${why}`);
  const bytes = (/** @type {unknown} */ v, /** @type {number} */ n) => v instanceof Uint8Array && v.length === n;
  if (!isMap(record) || Object.keys(record).sort().join() !== RECORD_KEYS.join()) {
    throw bad(`a handshake record has exactly the fields ${RECORD_KEYS.join(', ')}`);
  }
  const { version, room, hello, reply, reveal, keys, names, signatures } = record;
  if (!Number.isInteger(version) || typeof room !== 'string' || !(hello instanceof Uint8Array) || !(reply instanceof Uint8Array)
    || !(reveal instanceof Uint8Array) || !Array.isArray(keys) || keys.length !== 2 || !keys.every((k) => k instanceof Uint8Array)
    || !Array.isArray(names) || names.length !== 2 || !names.every((n) => typeof n === 'string')
    || !Array.isArray(signatures) || signatures.length !== 2 || !signatures.every((x) => x instanceof Uint8Array)) {
    throw bad('a field of the wrong type');
  }
  if (version !== VERSION) throw new FileError('unsupported_version', `handshake record of version ${String(version)}`);
  // §5.6 step 3: the room; HELLO and REPLY have the layout of their mode and version; e0 opens C.
  if (room.length < 1 || [...room].length > 64) throw bad('the room is 1 to 64 characters');
  const mode = hello[2];
  if (hello[0] !== 0x01 || hello[1] !== version || (mode !== 0 && mode !== 1) || hello.length !== (mode ? 68 : 35)
    || reply[0] !== 0x02 || reply.length !== (mode ? 66 : 33) || reveal.length !== 32) {
    throw bad('HELLO, REPLY and e0 do not have the layout of their mode and version');
  }
  if (!equal(commitment(version, reveal), hello.subarray(3, 35))) throw bad('e0 does not open the commitment');
  // Step 4: both identity keys, different; both names.
  const [k0, k1] = /** @type {Uint8Array[]} */ (keys);
  for (const k of [k0, k1]) if (!bytes(k, 32) || !isValidIdentityKey(k)) throw bad('an identity key outside the prime-order subgroup');
  if (equal(k0, k1)) throw bad('both seats have the same identity key');
  for (const n of /** @type {string[]} */ (names)) {
    const problem = nameProblem(n);
    if (problem) throw bad(problem);
  }
  // Step 5: the signatures over the handshake hash.
  const { hk } = transcriptHashes(version, room, hello, reply, reveal);
  const { handshakeHash, sessionId } = sessionIds(version, hk, [k0, k1], /** @type {string[]} */ (names));
  for (const s of [0, 1]) {
    const sig = /** @type {Uint8Array} */ (signatures[s]);
    if (!bytes(sig, 64) || !ed25519Verify([k0, k1][s], handshakeStatement(version, s, handshakeHash), sig)) {
      throw new FileError('bad_handshake_signature', `handshake record: seat ${s} did not sign this handshake`);
    }
  }
  return {
    version, room, identityKeys: /** @type {[Uint8Array, Uint8Array]} */ ([k0, k1]),
    names: /** @type {[string, string]} */ (names), handshakeHash, sessionId, mode,
  };
}

/**
 * @typedef {ReturnType<typeof verifyHandshakeRecord>} Session
 * @typedef {{signature: Uint8Array, envelope: Uint8Array, e: import('../protocol/envelope.js').Envelope, digest: Uint8Array}} Entry
 */

/**
 * Check entry i of a file (spec/protocol.md §8 step 3).
 * @param {unknown} value @param {number} i @param {Session} session @param {Uint8Array} prev
 * @returns {Entry}
 */
function checkEntry(value, i, session, prev) {
  if (!Array.isArray(value) || value.length !== 2 || !(value[0] instanceof Uint8Array) || !(value[1] instanceof Uint8Array)) {
    throw new FileError('bad_file', 'an entry is [signature, envelope]', i);
  }
  const [signature, envelope] = /** @type {[Uint8Array, Uint8Array]} */ (value);
  let e;
  try {
    e = decodeEnvelope(envelope);
  } catch (err) {
    throw new FileError('bad_envelope', `envelope ${i}: ${/** @type {Error} */ (err).message}`, i);
  }
  if (signature.length !== 64) throw new FileError('bad_envelope', `envelope ${i}: a signature is 64 bytes`, i);
  if (e.version !== session.version) throw new FileError('unsupported_version', `envelope ${i} has version ${e.version}`, i);
  if (!equal(e.sessionId, session.sessionId.subarray(0, 16))) throw new FileError('wrong_session', `envelope ${i} names another session`, i);
  if (e.seq !== i) throw new FileError('bad_seq', `envelope ${i} carries seq ${e.seq}`, i);
  if (!equal(e.prev, prev)) throw new FileError('bad_prev', `envelope ${i} does not name the digest of the one before`, i);
  if (signature.length !== 64 || !ed25519Verify(session.identityKeys[e.sender], envelope, signature)) {
    throw new FileError('bad_signature', `envelope ${i} is not signed by seat ${e.sender}`, i);
  }
  return { signature, envelope, e, digest: envelopeDigest(session.version, envelope) };
}

/**
 * The entries of a file after its header, and what follows them.
 * @param {{value: import('../protocol/codec.js').Value, offset: number}[]} vals @param {Session} session
 * @param {(v: import('../protocol/codec.js').Value) => boolean} isTail
 */
function readEntries(vals, session, isTail) {
  /** @type {Entry[]} */
  const entries = [];
  let head = session.handshakeHash;
  let i = 1;
  for (; i < vals.length; i++) {
    const v = vals[i].value;
    if (isTail(v)) break;
    const entry = checkEntry(v, entries.length, session, head);
    entries.push(entry);
    head = entry.digest;
  }
  return { entries, head, tail: vals.slice(i) };
}

/**
 * The round secrets each `disclose` names, by its `deal` and sender (spec/game.md §8.2: the first
 * pass). Only the bodies are read: no proof is verified here, so the replay that follows verifies
 * each one once. A secret that does not match its key is ignored by the replay's decks (the
 * disclosure that carries it is judged at its own envelope).
 * @param {Entry[]} entries
 * @returns {Map<number, [Uint8Array | null, Uint8Array | null]>}
 */
export function disclosedSecrets(entries) {
  /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} */
  const found = new Map();
  for (const { e } of entries) {
    const { key, deal } = /** @type {Map_} */ (e.body ?? {});
    if (e.type !== 'disclose' || !(key instanceof Uint8Array) || !Number.isInteger(deal)) continue;
    const pair = found.get(/** @type {number} */ (deal)) ?? [null, null];
    pair[/** @type {0 | 1} */ (e.sender)] = key;
    found.set(/** @type {number} */ (deal), pair);
  }
  return found;
}

/**
 * Replay entries through the game flow as an observer (spec/game.md §8.2): the round secrets
 * each deal discloses are read first, so that the replay sees every card of those deals and
 * checks everything, every proof once, at the envelope that carries it.
 * @param {Session} session @param {Entry[]} entries
 * @param {AuditOptions} [options]
 */
function replay(session, entries, options = {}) {
  const secrets = disclosedSecrets(entries);
  return run(session, entries, secrets, null, new Map(), options.verifiedShuffles);
}

/**
 * @param {Session} session @param {Entry[]} entries
 * @param {Map<number, [Uint8Array | null, Uint8Array | null]>} secrets @param {Entry | null} offence
 * @param {Map<number, 0 | 1>} [dealViewers] @param {Set<string>} [verifiedShuffles]
 */
function run(session, entries, secrets, offence, dealViewers = new Map(), verifiedShuffles = undefined) {
  // Game version 2 only: terms of another version fail with unsupported_version (spec/game.md §1.2).
  const flow = new GameFlow({
    viewer: null, sessionId: session.sessionId, room: session.room, identityKeys: session.identityKeys, names: session.names,
    secrets, dealViewers, verifiedShuffles,
  });
  /** @type {Deviation | null} */
  let found = null;
  /** @type {CannotContinue | null} */
  let hidden = null;
  let offenceRejected = null;
  const all = offence ? [...entries, offence] : entries;
  for (let i = 0; i < all.length; i++) {
    const { e } = all[i];
    const head = i === 0 ? session.handshakeHash : all[i - 1].digest;
    try {
      flow.apply(e.sender, e.type, e.body, { seq: e.seq, head, digest: all[i].digest });
    } catch (err) {
      if (err instanceof GameViolation) {
        found = deviation(err.seat, err.seq, err.reason, err.detail);
        if (offence && i === all.length - 1) offenceRejected = found;
        break;
      }
      if (err instanceof CannotContinue) {
        hidden = err;
        break;
      }
      throw err;
    }
  }
  return { flow, found, hidden, offenceRejected };
}

/**
 * The common report fields from a flow.
 * @param {string} kind @param {Session} session @param {GameFlow} flow @param {number} messages
 * @returns {Report}
 */
function baseReport(kind, session, flow, messages) {
  const match = flow.match;
  const terms = flow.terms;
  // A finished match reports its co-signed result (after a resignation the winner is the other seat).
  const result = flow.done ? /** @type {any} */ (flow.matchResult) : null;
  const winner = result ? result.winner : match && match.over ? match.winner : null;
  // A resignation the replay accepted (spec/game.md §6.3): its seat and message, even before the
  // countersignature (spec/protocol.md §9.2 weighs it).
  const resign = /** @type {{seat: number, seq: number} | undefined} */ (flow.events.find((ev) => ev.type === 'resigned'));
  return {
    kind, ok: false, complete: flow.done, messages, profile: terms ? terms.profile.name : null,
    keys: session.identityKeys.map(toHex), scores: result ? result.scores : match ? match.scores : null, winner,
    rounds: match ? match.roundSummary() : [], result: null, deviation: null, waiting_for: null, notes: [],
    session: toHex(session.sessionId), resigned: resign ? { seat: resign.seat, seq: resign.seq } : null,
  };
}

/**
 * Notes for a replay that did not reach the end.
 * @param {Report} report @param {ReturnType<typeof run>} r
 */
function describeStop(report, r) {
  if (r.found) {
    report.deviation = r.found;
    return;
  }
  if (r.hidden) {
    report.notes.push(`deal ${r.flow.deal} stops before its round keys were disclosed: its hidden cards and moves cannot be checked from message ${r.hidden.seq} on`);
    return;
  }
  const wait = r.flow.expected();
  if (wait) {
    report.waiting_for = wait.seat;
    report.notes.push(`the match did not finish: the transcript stops while waiting for player ${wait.seat} (${wait.type})`);
  }
}

/**
 * What a comparison of two files needs besides the report (spec/protocol.md §9.2): the file's
 * session, its signed chain, its claim (an abandonment file), and what the replay waits for.
 * @typedef {{session?: Session, entries?: Entry[], claim?: Map_ | null, waiting?: {seat: number, type: string} | null}} Chain
 */

/**
 * Fill `chain` from a replay.
 * @param {Chain} chain @param {Session} session @param {Entry[]} entries @param {ReturnType<typeof run>} r
 */
function keepChain(chain, session, entries, r) {
  chain.session = session;
  chain.entries = entries;
  const wait = r.found || r.flow.done ? null : r.flow.expected();
  chain.waiting = wait ? { seat: wait.seat, type: wait.type } : null;
}

/**
 * What an auditor may be handed besides the file: `verifiedShuffles`, the digests of shuffle
 * messages verified ahead against the very same statements (audit/parallel.js verifies a
 * transcript's shuffles on worker threads): those are not verified a second time.
 * @typedef {{verifiedShuffles?: Set<string>}} AuditOptions
 */

/**
 * Verify a transcript file (spec/protocol.md §8, spec/game.md §8.2).
 * @param {Uint8Array} data @param {Chain} [chain] filled with the file's chain
 * @param {AuditOptions} [options]
 * @returns {Report}
 */
export function auditTranscript(data, chain = {}, options = {}) {
  if (!hasMagic(data, TRANSCRIPT_MAGIC)) throw new FileError('bad_magic', 'not a koikoi-p2p transcript');
  const vals = values(data);
  const header = vals[0]?.value;
  // spec/protocol.md §8 steps 3 and 4.
  if (!isMap(header) || Object.keys(header).sort().join() !== 'format,handshake,kind' || header.kind !== 'transcript' || !isMap(header.handshake)) {
    throw new FileError('bad_file', 'bad transcript header');
  }
  if (header.format !== FORMAT) throw new FileError('unsupported_version', `unsupported transcript format ${String(header.format)}`);
  const session = verifyHandshakeRecord(header.handshake);
  // The closing marker, when present, is the last value (spec/protocol.md §8).
  const last = vals.length > 1 ? vals[vals.length - 1].value : null;
  const hasClosing = isMap(last);
  const { entries, head, tail } = readEntries(hasClosing ? vals.slice(0, -1) : vals, session, () => false);
  void tail;
  let closed = false;
  if (hasClosing) {
    const c = /** @type {Map_} */ (last);
    if (!isMap(c) || Object.keys(c).sort().join() !== 'count,end,head' || c.end !== true || c.count !== entries.length
      || !(c.head instanceof Uint8Array) || !equal(c.head, head)) {
      throw new FileError('bad_closing', 'the closing marker does not match the envelopes');
    }
    closed = true;
  }
  const r = replay(session, entries, options);
  const report = baseReport('transcript', session, r.flow, entries.length);
  keepChain(chain, session, entries, r);
  describeStop(report, r);
  if (r.flow.done) {
    report.result = toHex(encodeResultFile(/** @type {any} */ (r.flow.matchResult), /** @type {any} */ (r.flow.matchSignatures)));
    if (!closed) report.notes.push('the transcript has no closing marker');
  }
  {
    const resigned = r.flow.matchResult ? /** @type {any} */ (r.flow.matchResult).resigned : null;
    if (r.flow.done && resigned !== null && resigned !== undefined) {
      const seq = entries.findIndex((x) => x.e.type === 'resign');
      report.notes.push(`resigned by player ${resigned} at message ${seq}`);
    }
    for (const d of r.flow.hiddenDeals) report.notes.push(`deal ${d} was replayed without its round keys: its public moves were checked, not the rules that need the hidden hands`);
  }
  report.ok = r.flow.done && closed && !report.deviation;
  return report;
}

/**
 * Verify an evidence file (spec/protocol.md §9, spec/game.md §8.3): ok when it proves that the
 * reporter's peer deviated.
 * @param {Uint8Array} data @param {Chain} [chain] filled with the file's chain
 * @returns {Report}
 */
export function auditEvidence(data, chain = {}) {
  if (!hasMagic(data, EVIDENCE_MAGIC)) throw new FileError('bad_magic', 'not a koikoi-p2p evidence file');
  const vals = values(data);
  const header = vals[0]?.value;
  const keys = 'format,handshake,kind,message,reason,reporter';
  if (!isMap(header) || Object.keys(header).sort().join() !== keys || header.kind !== 'evidence' || !isMap(header.handshake)
    || (header.reporter !== 0 && header.reporter !== 1) || typeof header.reason !== 'string' || typeof header.message !== 'string') {
    throw new FileError('bad_file', 'bad evidence header');
  }
  if (header.format !== FORMAT) throw new FileError('unsupported_version', `unsupported evidence format ${String(header.format)}`);
  const reporter = /** @type {0 | 1} */ (header.reporter);
  const accused = 1 - reporter;
  const session = verifyHandshakeRecord(header.handshake);
  const isOffence = (/** @type {unknown} */ v) => isMap(v) && 'offence' in v;
  const { entries, head, tail } = readEntries(vals, session, isOffence);
  if (tail.length !== 1 || !isMap(tail[0].value) || Object.keys(tail[0].value).join() !== 'offence' || !isMap(tail[0].value.offence)) {
    throw new FileError('bad_file', 'an evidence file ends with one offence map');
  }
  const offence = /** @type {Map_} */ (tail[0].value.offence);
  const n = entries.length;
  // The reporter's own round secret of the interrupted deal lets the replay see that deal as the
  // reporter did (spec/game.md §8.1).
  /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} */
  const extra = new Map();
  // `round_keys` = [[deal, secret], ...], every deal whose deck the reporter held; an entry that
  // is not [deal, 32-byte secret] (an empty secret: no key of that deal yet) is ignored
  // (spec/game.md §8.1). The offence has no other secret field.
  if (Array.isArray(offence.round_keys)) {
    for (const item of offence.round_keys) {
      if (Array.isArray(item) && item.length === 2 && Number.isInteger(item[0]) && item[1] instanceof Uint8Array && item[1].length === 32) {
        /** @type {[Uint8Array | null, Uint8Array | null]} */
        const pair = [null, null];
        pair[reporter] = item[1];
        extra.set(/** @type {number} */ (item[0]), pair);
      }
    }
  }
  const prefix = replayEvidencePrefix(session, entries, extra, reporter);
  const report = baseReport('evidence', session, prefix.flow, n);
  keepChain(chain, session, entries, prefix);
  // A deviation found inside the accepted envelopes proves the case at that envelope.
  if (prefix.found) {
    report.deviation = prefix.found;
    report.ok = prefix.found.seat === accused;
    return report;
  }
  const envelope = offence.envelope;
  const signature = offence.signature;
  if (!(envelope instanceof Uint8Array) || !(signature instanceof Uint8Array)) {
    report.notes.push('the offence is a frame that does not open: the session was attacked, but the relay or the network may have sent it (unattributable)');
    return report;
  }
  if (!ed25519Verify(session.identityKeys[accused], envelope, signature)) {
    report.notes.push(`the offending envelope is not signed by player ${accused} (unattributable)`);
    return report;
  }
  let e;
  try {
    e = decodeEnvelope(envelope);
  } catch (err) {
    report.deviation = deviation(accused, null, 'bad_envelope', /** @type {Error} */ (err).message);
    report.ok = true;
    return report;
  }
  if (e.version !== session.version || !equal(e.sessionId, session.sessionId.subarray(0, 16))) {
    report.deviation = deviation(accused, e.seq, e.version !== session.version ? 'unsupported_version' : 'wrong_session', 'signed by the accused');
    report.ok = true;
    return report;
  }
  if (e.sender !== accused) {
    report.deviation = deviation(accused, e.seq, 'wrong_sender', `signed by player ${accused} as seat ${e.sender}`);
    report.ok = true;
    return report;
  }
  const s = e.seq;
  const digestBefore = s === 0 ? session.handshakeHash : s - 1 < n ? entries[s - 1].digest : null;
  if (s < n) {
    const old = entries[s];
    if (equal(old.envelope, envelope)) {
      report.notes.push(`the offence is envelope ${s}, which the reporter had already accepted (disputed)`);
      return report;
    }
    if (old.e.sender === accused) {
      report.deviation = deviation(accused, s, 'equivocation', `two different envelopes signed by player ${accused} at message ${s}`);
      report.ok = true;
      return report;
    }
    if (digestBefore && equal(e.prev, digestBefore)) {
      report.deviation = deviation(accused, s, 'bad_seq', `player ${accused} spoke at message ${s}, which was the reporter's`);
      report.ok = true;
      return report;
    }
    report.notes.push(`the offending envelope does not continue the reporter's chain at message ${s} (disputed)`);
    return report;
  }
  if (s > n) {
    report.notes.push(`the offending envelope is message ${s}, after ${n} accepted ones: the relay may have dropped those between (disputed)`);
    return report;
  }
  if (!equal(e.prev, head)) {
    if (n > 0 && entries[n - 1].e.sender === accused) {
      report.deviation = deviation(accused, s, 'bad_prev', `player ${accused} contradicts its own envelope ${n - 1}`);
      report.ok = true;
      return report;
    }
    report.notes.push(`the offending envelope does not name the reporter's chain head (disputed)`);
    return report;
  }
  // The next envelope of the reporter's chain: the game decides (spec/game.md §8.3), on the flow
  // the prefix left (replaying the prefix again would verify every proof in it a second time).
  const offenceEntry = { signature, envelope, e, digest: envelopeDigest(session.version, envelope) };
  const judged = continueWith(prefix, offenceEntry, n === 0 ? session.handshakeHash : entries[n - 1].digest);
  if (judged.offenceRejected) {
    report.deviation = judged.offenceRejected;
    report.ok = judged.offenceRejected.seat === accused;
    return report;
  }
  if (judged.hidden) {
    report.notes.push(`deal ${judged.flow.deal}: the offence cannot be checked without the round keys`);
    return report;
  }
  report.notes.push(`the offending envelope is a legal message (the evidence does not show a deviation)`);
  return report;
}

/**
 * @param {Session} session @param {Entry[]} entries @param {Map<number, [Uint8Array | null, Uint8Array | null]>} extra
 * @param {0 | 1} reporter
 */
function replayEvidencePrefix(session, entries, extra, reporter) {
  return replayWithViewer(session, entries, extra, reporter, null);
}

/**
 * A replay that went through all its entries, continued with the offence: the same verdict as a
 * replay of the entries and the offence from the start, with the prefix applied once.
 * @param {ReturnType<typeof run>} prefix @param {Entry} offence @param {Uint8Array} head the digest before it
 * @returns {ReturnType<typeof run>}
 */
function continueWith(prefix, offence, head) {
  const { flow } = prefix;
  if (prefix.found || prefix.hidden) return prefix;
  const { e } = offence;
  try {
    flow.apply(e.sender, e.type, e.body, { seq: e.seq, head, digest: offence.digest });
  } catch (err) {
    if (err instanceof GameViolation) {
      const found = deviation(err.seat, err.seq, err.reason, err.detail);
      return { flow, found, hidden: null, offenceRejected: found };
    }
    if (err instanceof CannotContinue) return { flow, found: null, hidden: err, offenceRejected: null };
    throw err;
  }
  return { flow, found: null, hidden: null, offenceRejected: null };
}

/**
 * Replay where the interrupted deal is seen with only the reporter's secret: the flow then plays
 * that deal as the reporter's seat would (private reveals to the accused are passed).
 * @param {Session} session @param {Entry[]} entries @param {Map<number, [Uint8Array | null, Uint8Array | null]>} extra
 * @param {0 | 1} reporter @param {Entry | null} offence
 */
function replayWithViewer(session, entries, extra, reporter, offence) {
  const secrets = disclosedSecrets(entries);
  /** @type {Map<number, 0 | 1>} */
  const viewers = new Map();
  for (const [d, pair] of extra) {
    const have = secrets.get(d);
    // A deal whose both secrets were disclosed is seen whole; otherwise as the reporter saw it.
    if (have && have[0] && have[1]) continue;
    secrets.set(d, pair);
    viewers.set(d, reporter);
  }
  return run(session, entries, secrets, offence, viewers);
}

const CLAIM_FIELDS = ['absent', 'claimant', 'deadline', 'expected', 'head', 'seq', 'session_id'];

/**
 * Verify an abandonment file (spec/protocol.md §9.1, §12.4): ok when the claim holds.
 * @param {Uint8Array} data @param {Chain} [chain] filled with the file's chain and claim
 * @returns {Report}
 */
export function auditAbandonment(data, chain = {}) {
  // Step 1: the container.
  if (!hasMagic(data, ABANDON_MAGIC)) throw new FileError('bad_magic', 'not a koikoi-p2p abandonment file');
  if (data.length > 64 * 1024 * 1024) throw new FileError('bad_file', 'an abandonment file is at most 64 MiB');
  let file;
  try {
    const r = decodePrefix(data, 8);
    if (r.end !== data.length) throw new Error('trailing');
    file = r.value;
  } catch {
    throw new FileError('bad_file', 'the abandonment file is one canonical map');
  }
  if (!isMap(file) || Object.keys(file).sort().join() !== 'claim,deal,round_key,sig,transcript') throw new FileError('bad_file', 'bad abandonment file');
  const { claim, sig, transcript, deal, round_key: roundKey } = file;
  if (!isMap(claim) || !(sig instanceof Uint8Array) || !(transcript instanceof Uint8Array) || typeof deal !== 'number' || !Number.isInteger(deal)
    || !(roundKey instanceof Uint8Array) || deal < -1 || (roundKey.length !== 0 && roundKey.length !== 32)) {
    throw new FileError('bad_file', 'bad abandonment file');
  }
  // Step 2: the claim's fields.
  const bytes32 = (/** @type {unknown} */ v) => v instanceof Uint8Array && v.length === 32;
  const int = (/** @type {unknown} */ v) => typeof v === 'number' && Number.isSafeInteger(v);
  if (Object.keys(claim).sort().join() !== CLAIM_FIELDS.join() || !bytes32(claim.session_id) || !bytes32(claim.head)
    || !int(claim.seq) || /** @type {number} */ (claim.seq) < 0 || (claim.claimant !== 0 && claim.claimant !== 1)
    || claim.absent !== 1 - /** @type {number} */ (claim.claimant) || typeof claim.expected !== 'string'
    || [...claim.expected].length < 1 || [...claim.expected].length > 32
    || !int(claim.deadline) || /** @type {number} */ (claim.deadline) < 1 || /** @type {number} */ (claim.deadline) > 86400) {
    throw new FileError('bad_claim', 'a claim field is missing or out of range');
  }
  const claimant = /** @type {0 | 1} */ (claim.claimant);
  const absent = 1 - claimant;
  const n = /** @type {number} */ (claim.seq);
  // Step 3: the embedded transcript's container.
  if (!hasMagic(transcript, TRANSCRIPT_MAGIC)) throw new FileError('bad_magic', 'the claim does not carry a transcript');
  const vals = values(transcript);
  const header = vals[0]?.value;
  if (!isMap(header) || Object.keys(header).sort().join() !== 'format,handshake,kind' || header.kind !== 'transcript' || !isMap(header.handshake)) {
    throw new FileError('bad_file', 'bad transcript header');
  }
  if (header.format !== FORMAT) throw new FileError('unsupported_version', `unsupported transcript format ${String(header.format)}`);
  const session = verifyHandshakeRecord(header.handshake);
  const last = vals.length > 1 ? vals[vals.length - 1].value : null;
  const closed = isMap(last);
  const { entries, head } = readEntries(closed ? vals.slice(0, -1) : vals, session, () => false);
  // Step 4: the claim names this unfinished transcript, and its claimant signed it.
  if (closed) throw new FileError('bad_claim', 'nobody abandons a finished match: the transcript has its closing marker');
  if (!equal(/** @type {Uint8Array} */ (claim.session_id), session.sessionId)) throw new FileError('bad_claim', 'the claim names another session');
  if (n !== entries.length || !equal(/** @type {Uint8Array} */ (claim.head), head)) throw new FileError('bad_claim', 'the claim does not name the transcript\'s length and head');
  const statement = concat(utf8(ABANDON_DOMAIN), u8(0), encode(claim));
  if (sig.length !== 64 || !ed25519Verify(session.identityKeys[claimant], statement, sig)) throw new FileError('bad_signature', 'the signature does not verify');
  // Step 5: the replay, with the claimant's round secret of the interrupted deal.
  /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} */
  const extra = new Map();
  if (deal >= 0 && roundKey.length === 32) {
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    const pair = [null, null];
    pair[claimant] = roundKey;
    extra.set(deal, pair);
  }
  const r = replayWithViewer(session, entries, extra, claimant, null);
  const report = baseReport('abandonment', session, r.flow, n);
  keepChain(chain, session, entries, r);
  chain.claim = claim;
  if (r.found) {
    report.deviation = r.found;
    report.notes.push('the claim is moot: the transcript shows an earlier deviation');
    return report;
  }
  if (r.hidden) {
    // The replay cannot reach message N without the round keys of a deal the claim does not open.
    const message = `deal ${r.flow.deal} cannot be checked from message ${r.hidden.seq} on without the claimant's round key, so nothing shows whose turn message ${n} was`;
    report.deviation = { seat: null, seq: n, reason: 'unproven_claim', message, text: `no player is shown to have deviated at message ${n}: unproven_claim (${message})` };
    report.notes.push(`the claim proves nothing: ${message}`);
    return report;
  }
  // Step 6: the claim says what the replay says, else it is the claimant's false statement.
  const wait = r.flow.waitingFor();
  report.waiting_for = wait ? wait.seat : null;
  /** @type {string | null} */
  let falsehood = null;
  if (!wait) falsehood = `the match is complete at message ${n}`;
  else if (wait.seat !== absent) falsehood = `at message ${n} player ${wait.seat} was to speak, not player ${absent}`;
  else if (wait.type !== claim.expected) falsehood = `at message ${n} the match waits for ${wait.type}, not ${String(claim.expected)}`;
  else if (wait.seconds !== claim.deadline) falsehood = `the terms give ${wait.type} a deadline of ${wait.seconds} s, not the ${String(claim.deadline)} s the claim names`;
  if (falsehood) {
    report.deviation = deviation(claimant, n, 'false_claim', falsehood);
    report.notes.push(`the claim is false: ${falsehood}`);
    return report;
  }
  // Step 7: the absent seat took part.
  const signedByAbsent = entries.map((e, i) => (e.e.sender === absent ? i : -1)).filter((i) => i >= 0);
  if (!signedByAbsent.length) {
    const message = `player ${absent} signed no envelope of this session, so nothing shows that it ever took part in the match`;
    report.deviation = { seat: null, seq: n, reason: 'unproven_claim', message, text: `no player is shown to have deviated at message ${n}: unproven_claim (${message})` };
    report.notes.push(`the claim proves nothing: ${message}`);
    return report;
  }
  const message = `nothing came within the ${String(claim.deadline)} s deadline when ${String(claim.expected)} was due; claimed by player ${claimant}`;
  report.deviation = { seat: absent, seq: n, reason: 'abandoned', message, text: `abandoned by player ${absent} at message ${n} (${message})` };
  report.notes.push(`abandoned by player ${absent} at message ${n}`, `player ${absent} last signed message ${signedByAbsent[signedByAbsent.length - 1]}`);
  report.ok = true;
  return report;
}

/**
 * Any file: transcript, evidence or abandonment, by its magic.
 * @param {Uint8Array} data @param {Chain} [chain] filled with the file's chain
 * @param {AuditOptions} [options] (used for a transcript)
 * @returns {Report}
 */
export function auditBytes(data, chain = {}, options = {}) {
  if (hasMagic(data, EVIDENCE_MAGIC)) return auditEvidence(data, chain);
  if (hasMagic(data, ABANDON_MAGIC)) return auditAbandonment(data, chain);
  return auditTranscript(data, chain, options);
}

/**
 * A transcript's shuffle work, deal by deal, read without checking anything (the replay checks
 * it all): each deal's key and shuffle messages in the order sent, and the round secrets its
 * disclosures name. What audit/parallel.js verifies ahead; a wrong guess only means the replay
 * verifies that message itself. Empty for a file that is not a readable transcript.
 * @param {Uint8Array} data
 * @returns {{version: number, sessionId: Uint8Array, deal: number, keys: {from: number, message: Uint8Array}[],
 *   shuffles: {from: number, message: Uint8Array}[], secrets: [Uint8Array | null, Uint8Array | null]}[]}
 */
export function transcriptShuffleWork(data) {
  try {
    if (!hasMagic(data, TRANSCRIPT_MAGIC)) return [];
    const vals = values(data);
    const header = vals[0]?.value;
    if (!isMap(header) || !isMap(header.handshake)) return [];
    const session = verifyHandshakeRecord(header.handshake);
    /** @type {Entry[]} */
    const entries = [];
    for (const { value } of vals.slice(1)) {
      if (!Array.isArray(value) || value.length !== 2 || !(value[1] instanceof Uint8Array)) continue;
      const e = decodeEnvelope(value[1]);
      entries.push({ signature: new Uint8Array(0), envelope: value[1], e, digest: new Uint8Array(0) });
    }
    const secrets = disclosedSecrets(entries);
    /** @type {Map<number, ReturnType<typeof transcriptShuffleWork>[number]>} */
    const deals = new Map();
    for (const { e } of entries) {
      const { deal, key, deck } = /** @type {Map_} */ (e.body ?? {});
      if (!Number.isInteger(deal) || (e.type !== 'key' && e.type !== 'shuffle')) continue;
      const d = /** @type {number} */ (deal);
      const work = deals.get(d) ?? { version: GAME_VERSION, sessionId: session.sessionId, deal: d, keys: [], shuffles: [], secrets: secrets.get(d) ?? [null, null] };
      deals.set(d, work);
      if (e.type === 'key' && key instanceof Uint8Array) work.keys.push({ from: e.sender, message: key });
      if (e.type === 'shuffle' && deck instanceof Uint8Array) work.shuffles.push({ from: e.sender, message: deck });
    }
    return [...deals.values()].filter((w) => w.keys.length === 2 && w.shuffles.length > 0);
  } catch {
    return [];
  }
}

/**
 * The one-line verdicts `koikoi verify` prints, and its exit status.
 * @param {Report} report
 * @returns {{lines: string[], status: number}}
 */
export function describe(report) {
  const lines = [];
  if (report.kind === 'abandonment') {
    for (const note of report.notes) lines.push(note);
    lines.push(report.ok ? 'the claim holds' : 'the claim does NOT hold');
    return { lines, status: report.ok ? 0 : 1 };
  }
  if (report.kind === 'evidence') {
    if (report.deviation) lines.push(report.deviation.text);
    for (const note of report.notes) lines.push(note);
    lines.push(report.ok ? 'the evidence proves the deviation' : 'the evidence does NOT prove a deviation');
    return { lines, status: report.ok ? 0 : 1 };
  }
  if (report.deviation) {
    lines.push(`INVALID transcript: ${report.deviation.text}`);
    return { lines, status: 1 };
  }
  if (!report.ok) {
    for (const note of report.notes) lines.push(note);
    lines.push(`INCOMPLETE transcript: not a finished, verified match (${report.messages} messages)`);
    return { lines, status: 1 };
  }
  const scores = /** @type {number[]} */ (report.scores);
  const winner = report.winner === null ? 'a draw' : `player ${report.winner} wins`;
  for (const note of report.notes) if (note.startsWith('resigned by')) lines.push(note);
  const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(`valid transcript: ${report.profile}, ${plural(report.rounds.length, 'round')}, ${plural(report.messages, 'message')}; final scores ${scores[0]}-${scores[1]} (${winner}); result co-signed by both`);
  return { lines, status: 0 };
}

/**
 * Verify the shuffles of some deals of a transcript (transcriptShuffleWork), each deal on an
 * observer deck of its own, fed its keys, then its shuffles in order, as the replay's deck would be
 * (with the deal's disclosed secrets where they match its keys); returns the digests of the shuffle
 * messages that verified. A message that fails is left out: the replay verifies it and says why.
 * @param {ReturnType<typeof transcriptShuffleWork>} work
 * @returns {string[]}
 */
export function verifyShuffleWork(work) {
  /** @type {Set<string>} */
  const verified = new Set();
  for (const w of work) {
    try {
      const first = /** @type {0 | 1} */ (w.shuffles[0].from);
      const deck = new Deck({ n: DECK_SIZE, version: w.version, sessionId: w.sessionId, round: w.deal, firstShuffler: first }, null, { verifiedShuffles: verified });
      for (const k of w.keys) deck.receiveKey(k.from, k.message);
      for (const k of [0, 1]) {
        const x = w.secrets[k];
        if (x) try { deck.receiveSecret(k, x); } catch { /* the replay judges it at its disclosure */ }
      }
      if (!deck.secrets[0] || !deck.secrets[1]) deck.secrets = [null, null];
      for (const s of w.shuffles) deck.receiveShuffle(s.from, s.message);
    } catch {
      // the rest of this deal is the replay's to judge
    }
  }
  return [...verified];
}

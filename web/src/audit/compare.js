// Two files of one session, two accounts: which one stands (spec/protocol.md §9.2), with the
// verdicts, findings and notes of `koikoi verify A B`. Each file is audited on its own first; then
// the two signed chains are laid side by side. Only a signature can refute an account (the
// claimant's own envelope after the message it says never came, two envelopes one seat signed for
// one number, the accused's message in the other file); time cannot (no trusted clock).
import { equal } from '../bytes.js';
import { ProtocolError } from '../protocol/errors.js';
import { ABANDON_MAGIC, EVIDENCE_MAGIC, TRANSCRIPT_MAGIC, hasMagic } from '../protocol/transcript.js';
import { FileError, auditBytes, deviation } from './replay.js';

export const AGREE = 'agree';
export const STANDS = 'stands';
export const CONFLICT = 'conflict';

/**
 * @typedef {import('./replay.js').Report} Report
 * @typedef {import('./replay.js').Deviation} Deviation
 * @typedef {import('./replay.js').Entry} Entry
 * @typedef {{seq: number, head: Uint8Array, claimant: number}} Claim
 * @typedef {{name: string, kind: string, report: Report | null, error: {reason: string, message: string, index: number | null} | null,
 *   sessionId: Uint8Array | null, entries: Entry[], claim: Claim | null, waiting: {seat: number, type: string} | null}} Account
 * @typedef {{status: string, ok: boolean, accounts: [Account, Account], stands: number | null, finding: Deviation | null, notes: string[]}} Comparison
 */

/**
 * Decode and audit one file into an account; a file that does not verify is an account of kind
 * `invalid` (spec/protocol.md §9.2: it is no account).
 * @param {Uint8Array} data @param {string} name
 * @returns {Account}
 */
export function readAccount(data, name) {
  /** @type {import('./replay.js').Chain} */
  const chain = {};
  try {
    if (![TRANSCRIPT_MAGIC, EVIDENCE_MAGIC, ABANDON_MAGIC].some((m) => hasMagic(data, m))) {
      throw new FileError('bad_magic', 'neither a transcript, an evidence file nor an abandonment file');
    }
    const report = auditBytes(data, chain);
    const c = chain.claim;
    const claim = c ? { seq: /** @type {number} */ (c.seq), head: /** @type {Uint8Array} */ (c.head), claimant: /** @type {number} */ (c.claimant) } : null;
    return {
      name, kind: report.kind, report, error: null, sessionId: chain.session ? chain.session.sessionId : null,
      entries: chain.entries ?? [], claim, waiting: chain.waiting ?? null,
    };
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    const index = e instanceof FileError ? e.index : null;
    return { name, kind: 'invalid', report: null, error: { reason: e.reason, message: e.detail, index }, sessionId: null, entries: [], claim: null, waiting: null };
  }
}

/** A deviation the file proves on its own; an abandonment is a claim, not a proof. @param {Account} a */
function proven(a) {
  const d = a.report ? a.report.deviation : null;
  if (!a.report || !d || d.seat === null) return null;
  if (a.kind === 'transcript' || (a.kind === 'evidence' && a.report.ok)) return d;
  if (a.kind === 'abandonment' && d.reason !== 'abandoned' && d.reason !== 'false_claim') return d;
  return null;
}

/** @param {Account} a */
const holds = (a) => a.kind === 'abandonment' && a.report !== null && a.report.ok;
/** @param {Account} a */
const finished = (a) => a.report !== null && a.report.complete;
/** @param {Account} a */
const findingOf = (a) => (a.report ? a.report.deviation : null);

/**
 * @param {string} status @param {[Account, Account]} accounts
 * @param {{stands?: number | null, finding?: Deviation | null, notes?: string[]}} [rest]
 * @returns {Comparison}
 */
function verdict(status, accounts, rest = {}) {
  return { status, ok: status !== CONFLICT, accounts, stands: rest.stands ?? null, finding: rest.finding ?? null, notes: rest.notes ?? [] };
}

/**
 * Judge two files of one session (spec/protocol.md §9.2). Throws FileError `bad_file` when
 * neither verifies and `different_sessions` when they belong to two sessions.
 * @param {Uint8Array} first @param {Uint8Array} second @param {[string, string]} [names]
 * @returns {Comparison}
 */
export function compareBytes(first, second, names = ['file 1', 'file 2']) {
  return compare(readAccount(first, names[0]), readAccount(second, names[1]));
}

/**
 * @param {Account} a @param {Account} b
 * @returns {Comparison}
 */
export function compare(a, b) {
  /** @type {[Account, Account]} */
  const accounts = [a, b];
  // Each file on its own first: one that does not verify is no account.
  const invalid = accounts.filter((x) => x.kind === 'invalid');
  if (invalid.length === 2) {
    throw new FileError('bad_file', `neither file verifies: ${a.error?.reason}: ${a.error?.message} / ${b.error?.reason}: ${b.error?.message}`);
  }
  if (invalid.length === 1) {
    const good = a.kind === 'invalid' ? 1 : 0;
    const bad = accounts[1 - good];
    const error = /** @type {NonNullable<Account['error']>} */ (bad.error);
    return verdict(STANDS, accounts, { stands: good, finding: findingOf(accounts[good]), notes: [`${bad.name} does not verify (${error.reason}: ${error.message}): it is no account`] });
  }
  if (!equal(/** @type {Uint8Array} */ (a.sessionId), /** @type {Uint8Array} */ (b.sessionId))) {
    throw new FileError('different_sessions', 'the two files belong to different sessions');
  }
  // Rule 1: two envelopes, one number, one signer.
  const forked = fork(a.entries, b.entries);
  if (forked) {
    return verdict(AGREE, accounts, { finding: forked, notes: [`the two files hold two different envelopes, both signed by that player, for message ${forked.seq}: together they prove it`] });
  }
  // Rule 2: a proven deviation, else a resignation.
  const deviated = earliestDeviation(accounts);
  if (deviated) return deviated;
  const resigned = resignation(accounts);
  if (resigned) return resigned;
  // Rule 3: a finished match.
  const done = [0, 1].filter((i) => finished(accounts[i]));
  if (done.length) return withFinished(accounts, done);
  // Rule 3, second part: a claim that does not hold.
  const holding = [0, 1].filter((i) => holds(accounts[i]));
  const failed = [0, 1].filter((i) => accounts[i].kind === 'abandonment' && !holds(accounts[i]));
  if (failed.length && !holding.length) {
    if (failed.length === 2) return verdict(AGREE, accounts, { notes: ['neither claim holds on its own'] });
    return verdict(STANDS, accounts, { stands: 1 - failed[0], finding: findingOf(accounts[failed[0]]), notes: [`the claim in ${accounts[failed[0]].name} does not hold on its own`] });
  }
  if (holding.length === 2) return twoClaims(accounts);
  if (holding.length === 1) return claimAgainst(accounts, holding[0]);
  // Rule 7: nothing to weigh.
  const longer = b.entries.length > a.entries.length ? b : a;
  const n = longer.entries.length;
  const note = longer.waiting
    ? `the longer account stops at message ${n}, waiting for player ${longer.waiting.seat} (${longer.waiting.type})`
    : `the longer account stops at message ${n}`;
  return verdict(AGREE, accounts, { notes: ['neither file proves a deviation or an abandonment', note] });
}

/**
 * Two different envelopes for one number signed by one seat, one in each file.
 * @param {Entry[]} x @param {Entry[]} y
 * @returns {Deviation | null}
 */
function fork(x, y) {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (!equal(x[i].envelope, y[i].envelope)) {
      if (x[i].e.sender !== y[i].e.sender) return null;
      return deviation(x[i].e.sender, x[i].e.seq, 'equivocation', 'a different signed envelope for this number in each file');
    }
  }
  return null;
}

/** @param {[Account, Account]} accounts @returns {Comparison | null} */
function earliestDeviation(accounts) {
  const found = [0, 1].map((i) => ({ d: proven(accounts[i]), i })).filter((f) => f.d !== null);
  if (!found.length) return null;
  const at = (/** @type {Deviation} */ d) => (d.seq === null ? Infinity : d.seq);
  found.sort((p, q) => at(/** @type {Deviation} */ (p.d)) - at(/** @type {Deviation} */ (q.d)) || p.i - q.i);
  const { d, i } = found[0];
  const dev = /** @type {Deviation} */ (d);
  if (found.length === 2 && sameDeviation(dev, /** @type {Deviation} */ (found[1].d))) return verdict(AGREE, accounts, { finding: dev });
  const other = accounts[1 - i];
  const notes = [`${accounts[i].name} proves it`];
  if (found.length === 2) notes.push(`the deviation ${other.name} shows comes later, after this one`);
  else if (other.kind === 'abandonment') notes.push(`the claim in ${other.name} comes after the deviation or rests on it`);
  return verdict(STANDS, accounts, { stands: i, finding: dev, notes });
}

/** @param {Deviation} p @param {Deviation} q */
function sameDeviation(p, q) {
  return p.seat === q.seat && p.seq === q.seq && p.reason === q.reason && p.message === q.message;
}

/**
 * A resignation (spec/game.md §6.3): the earliest one in either file ends the match.
 * @param {[Account, Account]} accounts @returns {Comparison | null}
 */
function resignation(accounts) {
  const found = [0, 1].flatMap((i) => {
    const r = accounts[i].report;
    return r && r.resigned ? [{ seq: r.resigned.seq, i, seat: r.resigned.seat }] : [];
  }).sort((p, q) => p.seq - q.seq || p.i - q.i || p.seat - q.seat);
  if (!found.length) return null;
  const { seq, i, seat } = found[0];
  const finding = { ...deviation(seat, seq, 'resigned', 'its signed match result names the other player the winner'), text: `resigned by player ${seat} at message ${seq}` };
  if (found.length === 2 && found[1].seq === seq) return verdict(AGREE, accounts, { finding });
  const notes = [`${accounts[i].name} holds player ${seat}'s resignation`];
  const other = accounts[1 - i];
  if (other.claim && other.claim.seq > seq) notes.push(`the claim in ${other.name} comes after the match ended by resignation`);
  const claimed = other.claim !== null;
  return verdict(claimed ? STANDS : AGREE, accounts, { stands: claimed ? i : null, finding, notes });
}

/** @param {[Account, Account]} accounts @param {number[]} done @returns {Comparison} */
function withFinished(accounts, done) {
  if (done.length === 2) return verdict(AGREE, accounts, { notes: ['both files hold the finished, co-signed match'] });
  const d = done[0];
  const other = accounts[1 - d];
  const full = accounts[d].entries;
  if (!other.claim) return verdict(AGREE, accounts, { notes: [`${other.name} is the same match cut short`] });
  const claim = other.claim;
  const notes = [`the match is finished and co-signed in ${accounts[d].name}`];
  if (claim.seq < full.length) {
    const answer = full[claim.seq].e;
    notes.push(`player ${answer.sender} signed message ${claim.seq} (${answer.type}), which the claim in ${other.name} says never came`);
  }
  const later = ownLater(full, claim);
  if (later !== null) notes.push(`player ${claim.claimant} itself signed message ${later} after it, so it had received message ${claim.seq}`);
  return verdict(STANDS, accounts, { stands: d, notes });
}

/**
 * The first envelope the claimant signed at or after the message it says never came, on a chain
 * that extends the claim's own (rule 4).
 * @param {Entry[]} chain @param {Claim} claim
 */
function ownLater(chain, claim) {
  if (chain.length <= claim.seq || (claim.seq > 0 && !equal(chain[claim.seq - 1].digest, claim.head))) return null;
  const found = chain.slice(claim.seq).find((x) => x.e.sender === claim.claimant);
  return found ? found.e.seq : null;
}

/**
 * Rule 4: one claim that holds on its own, against the other file's chain.
 * @param {[Account, Account]} accounts @param {number} index @returns {Comparison}
 */
function claimAgainst(accounts, index) {
  const mine = accounts[index];
  const other = accounts[1 - index];
  const claim = /** @type {Claim} */ (mine.claim);
  const later = ownLater(other.entries, claim);
  if (later !== null) {
    const finding = deviation(claim.claimant, claim.seq, 'false_claim', `player ${claim.claimant} signed message ${later} after it, in ${other.name}, so it had received message ${claim.seq}`);
    return verdict(STANDS, accounts, { stands: 1 - index, finding, notes: [`the claim in ${mine.name} is contradicted by its own claimant's signature`] });
  }
  if (other.entries.length > claim.seq) {
    const answer = other.entries[claim.seq].e;
    return verdict(STANDS, accounts, {
      stands: index, finding: findingOf(mine),
      notes: [`player ${answer.sender} did sign message ${claim.seq} (${answer.type}), in ${other.name}, but nothing shows player ${claim.claimant} ever received it: it came after the deadline or was lost on the way, which no file can tell apart (the protocol has no trusted clock)`],
    });
  }
  return verdict(AGREE, accounts, { finding: findingOf(mine), notes: [`the claim in ${mine.name} holds, and ${other.name} does not contradict it`] });
}

/**
 * Rules 5 and 6: two claims that each hold on its own.
 * @param {[Account, Account]} accounts @returns {Comparison}
 */
function twoClaims(accounts) {
  const seqOf = (/** @type {number} */ i) => /** @type {Claim} */ (accounts[i].claim).seq;
  const [first, second] = seqOf(1) < seqOf(0) ? [1, 0] : [0, 1];
  const c1 = /** @type {Claim} */ (accounts[first].claim);
  const c2 = /** @type {Claim} */ (accounts[second].claim);
  if (c1.seq === c2.seq && c1.claimant === c2.claimant) return verdict(AGREE, accounts, { finding: findingOf(accounts[first]) });
  const later = ownLater(accounts[second].entries, c1);
  if (later !== null) {
    return verdict(STANDS, accounts, {
      stands: second, finding: findingOf(accounts[second]),
      notes: [`the claim in ${accounts[first].name} (message ${c1.seq}) is contradicted by player ${c1.claimant}'s own message ${later} in ${accounts[second].name}`],
    });
  }
  if (c1.claimant === c2.claimant) {
    return verdict(CONFLICT, accounts, { notes: [`player ${c1.claimant} signed two claims, at messages ${c1.seq} and ${c2.seq}`] });
  }
  return verdict(STANDS, accounts, {
    stands: first, finding: findingOf(accounts[first]),
    notes: [
      `player ${c2.claimant} signed message ${c1.seq} only after player ${c1.claimant} had stopped waiting for it, or it was lost on the way: no file can tell which (the protocol has no trusted clock)`,
      `the claim in ${accounts[second].name} (message ${c2.seq}) rests on messages ${c1.seq} to ${c2.seq - 1} that player ${c1.claimant}'s account shows it never received`,
    ],
  });
}

/**
 * The verdict in words, first line first, as `koikoi verify A B` prints it.
 * @param {Comparison} c @returns {string[]}
 */
export function comparisonLines(c) {
  const lines = [];
  if (c.status === STANDS && c.stands !== null) lines.push(`the account of ${c.accounts[c.stands].name} stands; ${c.accounts[1 - c.stands].name} is refuted`);
  else if (c.status === AGREE) lines.push('the two files agree');
  else lines.push('the two files CONFLICT: they cannot both be true and cannot show which is');
  if (c.finding) lines.push(c.finding.text);
  return [...lines, ...c.notes];
}

/**
 * The verdict as `koikoi verify --json A B` gives it.
 * @param {Comparison} c
 */
export function comparisonJson(c) {
  return {
    status: c.status, ok: c.ok, stands: c.stands === null ? null : c.accounts[c.stands].name, finding: c.finding, notes: c.notes,
    files: c.accounts.map((a) => ({ file: a.name, kind: a.kind, report: a.report, error: a.error })),
  };
}

// The auditor on several threads (Node): a transcript's shuffle proofs, the bulk of its work
// (spec/crypto.md §6.3), verified deal by deal on worker threads and on the calling thread at once,
// before the replay (replay.js), which then takes each of them as verified when its statement and
// message are those verified here (mentalpoker/deck.js shuffleStatementDigest) and verifies
// everything else, in order, as it always does. The verdict is the serial auditor's.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { auditBytes, transcriptShuffleWork, verifyShuffleWork } from './replay.js';

/** The fewest deals whose shuffles are worth verifying on other threads. */
const MIN_DEALS = 4;

/**
 * Split the deals into `parts` groups of about equal work (shuffles).
 * @template {{shuffles: unknown[]}} T @param {T[]} work @param {number} parts
 * @returns {T[][]}
 */
function split(work, parts) {
  /** @type {T[][]} */
  const groups = Array.from({ length: parts }, () => []);
  const load = new Array(parts).fill(0);
  for (const w of [...work].sort((a, b) => b.shuffles.length - a.shuffles.length)) {
    const i = load.indexOf(Math.min(...load));
    groups[i].push(w);
    load[i] += w.shuffles.length;
  }
  return groups;
}

/**
 * The digests of a transcript's shuffle messages that verify, on `threads` threads (the calling
 * one included; default: the machine's cores).
 * @param {Uint8Array} data @param {number} [threads]
 * @returns {Promise<Set<string>>}
 */
export async function verifiedShuffles(data, threads = os.availableParallelism()) {
  const work = transcriptShuffleWork(data);
  const groups = split(work, Math.max(1, Math.min(threads, work.length)));
  const workers = groups.slice(1).map((group) => new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./parallel_worker.js', import.meta.url), { workerData: group });
    worker.once('message', resolve);
    worker.once('error', reject);
  }));
  const verified = new Set(groups.length ? verifyShuffleWork(groups[0]) : []);
  for (const digests of /** @type {string[][]} */ (await Promise.all(workers))) for (const d of digests) verified.add(d);
  return verified;
}

/**
 * auditBytes with a transcript's shuffles verified on several threads first.
 * @param {Uint8Array} data @param {import('./replay.js').Chain} [chain] @param {number} [threads]
 */
export async function auditBytesParallel(data, chain = {}, threads = os.availableParallelism()) {
  // A worker costs its start and a libsodium of its own: below a few deals the calling thread
  // alone is as quick.
  if (threads <= 1 || transcriptShuffleWork(data).length < MIN_DEALS) return auditBytes(data, chain);
  return auditBytes(data, chain, { verifiedShuffles: await verifiedShuffles(data, threads) });
}

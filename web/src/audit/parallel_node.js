// The auditor on several threads (Node): the replay (replay.js) runs on the calling thread from the
// first deal on, as the serial auditor does, while worker threads verify the transcript's shuffle
// proofs (spec/crypto.md §6.3, the bulk of its work) deal by deal from the last deal back. Before
// it verifies a shuffle the replay reads, without waiting, what the workers have verified so far
// (receiveMessageOnPort), and takes a shuffle as verified when its whole statement and message
// have the digest of one verified there (mentalpoker/deck.js shuffleStatementDigest); any other it
// verifies itself. The two meet in the middle: the calling thread never waits for a worker, so the
// threads cost a loaded machine no more than the workers' start, and the verdict is the serial
// auditor's.
import os from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
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
    const worker = new Worker(new URL('./parallel_worker.js', import.meta.url), { workerData: { work: group } });
    worker.once('message', resolve);
    worker.once('error', reject);
  }));
  const verified = new Set(groups.length ? verifyShuffleWork(groups[0]) : []);
  for (const digests of /** @type {string[][]} */ (await Promise.all(workers))) for (const d of digests) verified.add(d);
  return verified;
}

/**
 * The digests verified so far: those the replay added, and those the workers have posted, read
 * from their ports without waiting whenever the replay asks.
 */
class Arriving {
  /** @param {import('node:worker_threads').MessagePort[]} ports */
  constructor(ports) {
    this.ports = ports;
    /** @type {Set<string>} */
    this.set = new Set();
  }

  #drain() {
    for (const port of this.ports) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        for (const d of /** @type {string[]} */ (m.message)) this.set.add(d);
      }
    }
  }

  /** @param {string} digest */
  has(digest) {
    if (this.set.has(digest)) return true;
    this.#drain();
    return this.set.has(digest);
  }

  /** @param {string} digest */
  add(digest) {
    this.set.add(digest);
    return this;
  }
}

/**
 * auditBytes with a transcript's shuffles verified on other threads meanwhile, from the last deal
 * back, while the replay goes forward.
 * @param {Uint8Array} data @param {import('./replay.js').Chain} [chain] @param {number} [threads]
 */
export async function auditBytesParallel(data, chain = {}, threads = os.availableParallelism()) {
  // A worker costs its start and a libsodium of its own: below a few deals the calling thread
  // alone is as quick.
  const work = threads > 1 ? transcriptShuffleWork(data) : [];
  if (work.length < MIN_DEALS) return auditBytes(data, chain);
  const helpers = Math.min(threads - 1, Math.floor(work.length / 2));
  const backwards = [...work].reverse();
  const ports = [];
  const workers = [];
  for (let k = 0; k < helpers; k++) {
    const { port1, port2 } = new MessageChannel();
    const group = backwards.filter((_, i) => i % helpers === k);
    workers.push(new Worker(new URL('./parallel_worker.js', import.meta.url), { workerData: { work: group, port: port2 }, transferList: [port2] }));
    ports.push(port1);
  }
  // A worker that fails only means its deals are verified here.
  for (const w of workers) w.on('error', () => {});
  try {
    return auditBytes(data, chain, { verifiedShuffles: /** @type {Set<string>} */ (/** @type {unknown} */ (new Arriving(ports))) });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    for (const p of ports) p.close();
  }
}

// A worker thread of parallel_node.js: verifies the shuffles of the deals it is given, returns
// the digests of those that verified.
import { parentPort, workerData } from 'node:worker_threads';
import { ready } from '../sodium.js';
import { verifyShuffleWork } from './replay.js';

await ready();
parentPort?.postMessage(verifyShuffleWork(workerData));

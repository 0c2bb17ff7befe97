// A worker thread of parallel_node.js: verifies the shuffles of the deals it is given, in order.
// With a `port` it posts the digests of each deal's verified shuffles there as soon as that deal
// is done (the replay reads them while it runs); without, it answers all of them at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { ready } from '../sodium.js';
import { verifyShuffleWork } from './replay.js';

await ready();
const { work, port } = workerData;
if (port) {
  for (const deal of work) port.postMessage(verifyShuffleWork([deal]));
  port.close();
} else {
  parentPort?.postMessage(verifyShuffleWork(work));
}

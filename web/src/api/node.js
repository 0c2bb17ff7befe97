// koikoi-p2p/node: what only Node has. Everything else is in the main entry ("koikoi-p2p"),
// which runs in Node and in browsers alike.
export { FileStore } from './file_store.js';

// A MatchStore in a folder (Node only): `<id>.journal` holds the header and then one input per
// line (JSON), each append written and fsynced before the promise resolves, so a seat sends only
// what survives a crash (spec/protocol.md §12.3). An ended match leaves `<id>.transcript`,
// `<id>.result` or `<id>.evidence` (the files `koikoi verify` reads) and its journal is deleted:
// it holds the seed of every key.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync, renameSync } from 'node:fs';
import path from 'node:path';

/** @typedef {import('./stores.js').MatchStore} MatchStore */

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** @implements {MatchStore} */
export class FileStore {
  /** @param {string} folder created when missing */
  constructor(folder) {
    this.folder = folder;
  }

  /** @param {string} id @param {string} ext */
  #path(id, ext) {
    if (!SAFE_ID.test(id)) throw new RangeError(`a match id is 1 to 64 letters, digits, - or _: ${JSON.stringify(id)}`);
    return path.join(this.folder, `${id}.${ext}`);
  }

  /** Write a file durably (write to a temporary name, fsync, rename). @param {string} file @param {Uint8Array | string} data */
  #writeAtomic(file, data) {
    mkdirSync(this.folder, { recursive: true });
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, typeof data === 'string' ? new TextEncoder().encode(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  }

  /** @param {string} id @param {import('./stores.js').SavedMatch} header */
  async create(id, header) {
    this.#writeAtomic(this.#path(id, 'journal'), `${JSON.stringify(header)}\n`);
  }

  /** @param {string} id @param {import('./stores.js').SavedInput} entry */
  async append(id, entry) {
    const fd = openSync(this.#path(id, 'journal'), 'a');
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** @param {string} id @returns {Promise<import('./stores.js').LoadedMatch | null>} */
  async load(id) {
    let text;
    try {
      text = readFileSync(this.#path(id, 'journal'), 'utf8');
    } catch (e) {
      if (/** @type {any} */ (e).code === 'ENOENT') return null;
      throw e;
    }
    // A crash while appending can leave a partial last line: it was never acknowledged, so nothing
    // it caused was sent; it is dropped.
    const lines = text.split('\n');
    const complete = lines.slice(0, -1).filter((l) => l.length);
    const [header, ...inputs] = complete.map((l) => JSON.parse(l));
    return { ...header, inputs };
  }

  async list() {
    let names;
    try {
      names = readdirSync(this.folder);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith('.journal')).map((n) => n.slice(0, -'.journal'.length)).sort();
  }

  /** @param {string} id @param {string} kind @param {Uint8Array} bytes */
  async keep(id, kind, bytes) {
    const file = this.#path(id, kind);
    this.#writeAtomic(file, bytes);
    return file;
  }

  /** @param {string} id */
  async forget(id) {
    rmSync(this.#path(id, 'journal'), { force: true });
  }
}

// Where a Match keeps what makes it crash-safe (spec/protocol.md §12.3): the setup (which holds
// the seed every key is drawn from), then every input with the count and running hash of the
// frames sent so far, each saved before the frames it caused leave. When the match ends the
// store keeps its files (transcript, result, evidence) and forgets the journal. Two stores here
// run anywhere (memory) or in a browser (IndexedDB); the Node entry adds a folder of files.

/**
 * @typedef {{version: number, setup: unknown, startedAt: number, seat: 0 | 1, room: string}} SavedMatch
 *   The first record of a match (`setup` is secret: it holds the seed of every key).
 * @typedef {{input: {frame: string} | {decide: unknown} | {accept: true} | {resign: true}, at: number, sent: number, sentHash: string}} SavedInput
 *   One input (a frame received, a decision) with the wall-clock time it was saved and the frames sent after it.
 * @typedef {SavedMatch & {inputs: SavedInput[]}} LoadedMatch
 */

/**
 * The interface a store implements. Every method may be async; each write must be durable when
 * its promise resolves (a seat sends only after that).
 * @typedef {object} MatchStore
 * @property {(id: string, header: SavedMatch) => Promise<void>} create  a new match, before anything is sent
 * @property {(id: string, entry: SavedInput) => Promise<void>} append  one more input
 * @property {(id: string) => Promise<LoadedMatch | null>} load  a saved match, null when there is none
 * @property {() => Promise<string[]>} list  the matches saved and not finished (to resume)
 * @property {(id: string, kind: string, bytes: Uint8Array) => Promise<string>} keep  keep a file of an ended match; returns where
 * @property {(id: string) => Promise<void>} forget  drop the journal (the match ended)
 */

/** A store in memory: no crash safety, but the same interface (tests, short-lived bots). @implements {MatchStore} */
export class MemoryStore {
  /** @type {Map<string, LoadedMatch>} */
  #matches = new Map();
  /** the files kept, by `id/kind` @type {Map<string, Uint8Array>} */
  files = new Map();

  /** @param {string} id @param {SavedMatch} header */
  async create(id, header) {
    this.#matches.set(id, { ...structuredClone(header), inputs: [] });
  }

  /** @param {string} id @param {SavedInput} entry */
  async append(id, entry) {
    const m = this.#matches.get(id);
    if (!m) throw new Error(`no saved match ${id}`);
    m.inputs.push(structuredClone(entry));
  }

  /** @param {string} id */
  async load(id) {
    const m = this.#matches.get(id);
    return m ? structuredClone(m) : null;
  }

  async list() {
    return [...this.#matches.keys()];
  }

  /** @param {string} id @param {string} kind @param {Uint8Array} bytes */
  async keep(id, kind, bytes) {
    this.files.set(`${id}/${kind}`, bytes.slice());
    return `${id}/${kind}`;
  }

  /** @param {string} id */
  async forget(id) {
    this.#matches.delete(id);
  }
}

/**
 * A store in the browser's IndexedDB (one database, default "koikoi-matches"): the header and each
 * input are one small write each, committed with strict durability before the promise resolves.
 * @implements {MatchStore}
 */
export class IndexedDbStore {
  /** @param {string} [name] the database name */
  constructor(name = 'koikoi-matches') {
    this.name = name;
    /** @type {Promise<IDBDatabase> | null} */
    this.opening = null;
  }

  /** @returns {Promise<IDBDatabase>} */
  #db() {
    if (!this.opening) {
      this.opening = new Promise((resolve, reject) => {
        const req = indexedDB.open(this.name, 1);
        req.onupgradeneeded = () => {
          for (const s of ['matches', 'inputs', 'files']) req.result.createObjectStore(s);
        };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    return this.opening;
  }

  /**
   * One transaction, resolved once committed.
   * @template T @param {string[]} stores @param {IDBTransactionMode} mode
   * @param {(tx: IDBTransaction) => IDBRequest<T> | void} fn @returns {Promise<T | undefined>}
   */
  async #run(stores, mode, fn) {
    const d = await this.#db();
    return new Promise((resolve, reject) => {
      const tx = d.transaction(stores, mode, { durability: 'strict' });
      const req = fn(tx);
      tx.oncomplete = () => resolve(req ? req.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    });
  }

  /** @param {string} id */
  static #range(id) {
    return IDBKeyRange.bound(`${id}/`, `${id}/\uffff`);
  }

  /** @param {string} id @param {SavedMatch} header */
  async create(id, header) {
    await this.#run(['matches'], 'readwrite', (tx) => { tx.objectStore('matches').put({ ...header, count: 0 }, id); });
  }

  /** @param {string} id @param {SavedInput} entry */
  async append(id, entry) {
    await this.#run(['matches', 'inputs'], 'readwrite', (tx) => {
      const matches = tx.objectStore('matches');
      const get = matches.get(id);
      get.onsuccess = () => {
        const header = get.result;
        if (!header) {
          tx.abort();
          return;
        }
        tx.objectStore('inputs').put(entry, `${id}/${String(header.count).padStart(8, '0')}`);
        matches.put({ ...header, count: header.count + 1 }, id);
      };
    });
  }

  /** @param {string} id @returns {Promise<LoadedMatch | null>} */
  async load(id) {
    const header = await this.#run(['matches'], 'readonly', (tx) => tx.objectStore('matches').get(id));
    if (!header) return null;
    const inputs = await this.#run(['inputs'], 'readonly', (tx) => tx.objectStore('inputs').getAll(IndexedDbStore.#range(id)));
    const { count: _count, ...rest } = header;
    return { ...rest, inputs: inputs ?? [] };
  }

  async list() {
    const keys = await this.#run(['matches'], 'readonly', (tx) => tx.objectStore('matches').getAllKeys());
    return (keys ?? []).map(String);
  }

  /** @param {string} id @param {string} kind @param {Uint8Array} bytes */
  async keep(id, kind, bytes) {
    await this.#run(['files'], 'readwrite', (tx) => { tx.objectStore('files').put(bytes, `${id}/${kind}`); });
    return `${id}/${kind}`;
  }

  /** A file kept by `keep`, or null. @param {string} key as `keep` returned it @returns {Promise<Uint8Array | null>} */
  async file(key) {
    return (await this.#run(['files'], 'readonly', (tx) => tx.objectStore('files').get(key))) ?? null;
  }

  /** @param {string} id */
  async forget(id) {
    await this.#run(['matches', 'inputs'], 'readwrite', (tx) => {
      tx.objectStore('inputs').delete(IndexedDbStore.#range(id));
      tx.objectStore('matches').delete(id);
    });
  }
}

// IndexedDB storage for the page and its workers: a seat's journal (the setup and every input,
// appended one record at a time so a save costs one small write), the player's identity and
// settings. A seat saves each input before it sends the frames that input caused (spec/protocol.md
// §12.3), and deletes its journal when the match ends: the setup holds the seed of every key.

const DB = 'koikoi';
const VERSION = 1;

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

/** @returns {Promise<IDBDatabase>} */
function db() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, VERSION);
      req.onupgradeneeded = () => {
        const d = req.result;
        d.createObjectStore('kv');
        d.createObjectStore('seats');
        d.createObjectStore('inputs');
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return opening;
}

/**
 * Run one transaction and resolve when it has committed (so the data is on disk before we go on).
 * @template T
 * @param {string[]} stores @param {IDBTransactionMode} mode @param {(tx: IDBTransaction) => IDBRequest<T> | void} fn
 * @returns {Promise<T | undefined>}
 */
async function run(stores, mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(stores, mode, { durability: 'strict' });
    const req = fn(tx);
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}

/** @param {string} key */
export function getValue(key) {
  return run(['kv'], 'readonly', (tx) => tx.objectStore('kv').get(key));
}

/** @param {string} key @param {unknown} value */
export function setValue(key, value) {
  return run(['kv'], 'readwrite', (tx) => { tx.objectStore('kv').put(value, key); });
}

/**
 * @typedef {{id: string, role: 'human' | 'computer', setup: any, sent: number, sentHash: string, count: number,
 *   meta: {[key: string]: unknown}}} SeatRecord
 */

/** @param {string} id @returns {Promise<SeatRecord | undefined>} */
export function loadSeat(id) {
  return run(['seats'], 'readonly', (tx) => tx.objectStore('seats').get(id));
}

/** Every saved seat (the interrupted matches). @returns {Promise<SeatRecord[]>} */
export function listSeats() {
  return run(['seats'], 'readonly', (tx) => tx.objectStore('seats').getAll()).then((v) => v ?? []);
}

/** @param {SeatRecord} record */
export function saveSeat(record) {
  return run(['seats'], 'readwrite', (tx) => { tx.objectStore('seats').put(record, record.id); });
}

/**
 * Append one input and the new sent counters in one transaction.
 * @param {SeatRecord} record (its count already includes the new input) @param {unknown} input
 */
export function appendInput(record, input) {
  return run(['seats', 'inputs'], 'readwrite', (tx) => {
    tx.objectStore('inputs').put(input, `${record.id}/${String(record.count - 1).padStart(8, '0')}`);
    tx.objectStore('seats').put(record, record.id);
  });
}

/** The inputs of a seat, in order. @param {string} id @returns {Promise<unknown[]>} */
export function loadInputs(id) {
  const range = IDBKeyRange.bound(`${id}/`, `${id}/\uffff`);
  return run(['inputs'], 'readonly', (tx) => tx.objectStore('inputs').getAll(range)).then((v) => v ?? []);
}

/** Forget a seat and its inputs (the match ended). @param {string} id */
export function deleteSeat(id) {
  const range = IDBKeyRange.bound(`${id}/`, `${id}/\uffff`);
  return run(['seats', 'inputs'], 'readwrite', (tx) => {
    tx.objectStore('inputs').delete(range);
    tx.objectStore('seats').delete(id);
  });
}

/**
 * What the last screen of an ended match showed (its final table and its files), kept until the
 * person leaves that screen, so that a reload at the end shows the same summary.
 * @typedef {{table: any, files: {[kind: string]: Uint8Array}}} FinalRecord
 */

/** @param {string} id @param {FinalRecord} final */
export function saveFinal(id, final) {
  return setValue(`final/${id}`, final);
}

/** @param {string} id @returns {Promise<FinalRecord | undefined>} */
export function loadFinal(id) {
  return /** @type {Promise<FinalRecord | undefined>} */ (getValue(`final/${id}`));
}

/** @param {string} id */
export function deleteFinal(id) {
  return run(['kv'], 'readwrite', (tx) => { tx.objectStore('kv').delete(`final/${id}`); });
}

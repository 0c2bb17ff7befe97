// The learned value network in plain JavaScript: a port of koikoi_p2p/ai/value.py. A ReLU
// perceptron from the inputs of features.js to one output, the round points a seat can expect
// (negative: the opponent's). The weights are expert_weights.js, the same document as
// koikoi_p2p/ai/expert_weights.json (written by `koikoi train --js`); float64 throughout, so the
// two languages agree to rounding (web/test/ai/value_parity.test.js).
// The weights (some 440 KB) are imported only when the expert is wanted (`loadShipped`): the
// browser's build keeps them in a file of their own (web/app/build.mjs), so a seat that never
// plays the expert neither downloads nor parses them.

import { CARDS, COMPACT, INPUTS, LOCATIONS, MONTH, MY_TURN, SCALARS, SCALE } from './features.js';

export const FORMAT = 'koikoi-value-mlp/1';

/**
 * @typedef {object} WeightsDocument
 * @property {string} format
 * @property {{w: number[][], b: number[]}[]} layers weights inputs x outputs, and biases
 * @property {Record<string, unknown>} [provenance]
 */

export class ValueNet {
  /** @param {WeightsDocument} doc */
  constructor(doc) {
    if (doc.format !== FORMAT) throw new Error(`not a ${FORMAT} document`);
    const layers = doc.layers;
    if (layers.length === 0 || layers[0].w.length !== INPUTS || layers[layers.length - 1].b.length !== 1) {
      throw new Error(`a value network takes ${INPUTS} inputs to one output`);
    }
    /** @type {{w: Float64Array, b: Float64Array, rows: number, cols: number}[]} row-major weights */
    this.layers = layers.map(({ w, b }) => {
      const rows = w.length;
      const cols = b.length;
      const flat = new Float64Array(rows * cols);
      for (let i = 0; i < rows; i++) {
        if (w[i].length !== cols) throw new Error('layer shapes do not chain');
        for (let j = 0; j < cols; j++) flat[i * cols + j] = w[i][j];
      }
      return { w: flat, b: Float64Array.from(b), rows, cols };
    });
    for (let k = 1; k < this.layers.length; k++) {
      if (this.layers[k].rows !== this.layers[k - 1].cols) throw new Error('layer shapes do not chain');
    }
    this.provenance = doc.provenance ?? {};
  }

  /**
   * The value of one compact row (features.js): the first layer as the sum of the rows its
   * one-hot inputs select, then the scaled scalars.
   * @param {readonly number[]} row
   * @returns {number}
   */
  value(row) {
    if (row.length !== COMPACT) throw new Error(`a compact row has ${COMPACT} entries`);
    const first = this.layers[0];
    const cols = first.cols;
    let h = Float64Array.from(first.b);
    /** @param {number} r @param {number} x */
    const add = (r, x) => {
      const off = r * cols;
      for (let j = 0; j < cols; j++) h[j] += first.w[off + j] * x;
    };
    for (let c = 0; c < CARDS; c++) add(c * LOCATIONS + row[c], 1.0);
    add(CARDS * LOCATIONS + row[MONTH] - 1, 1.0);
    for (let k = 0; k < SCALARS; k++) {
      const x = row[MY_TURN + k] * SCALE[k];
      if (x !== 0) add(CARDS * LOCATIONS + 12 + k, x);
    }
    for (let k = 1; k < this.layers.length; k++) {
      const { w, b, rows, cols: n } = this.layers[k];
      const out = Float64Array.from(b);
      for (let i = 0; i < rows; i++) {
        const x = h[i] > 0 ? h[i] : 0; // the ReLU of the layer before
        if (x === 0) continue;
        const off = i * n;
        for (let j = 0; j < n; j++) out[j] += w[off + j] * x;
      }
      h = out;
    }
    return h[0];
  }
}

/** @type {ValueNet | null} */
let shippedNet = null;
/** @type {Promise<ValueNet> | null} */
let loading = null;

/**
 * Load the network shipped with the app (expert_weights.js, imported on the first call), parsed
 * once; a failed load (say, offline before the file was cached) is tried again on the next call.
 * @returns {Promise<ValueNet>}
 */
export function loadShipped() {
  loading ??= import('./expert_weights.js').then(({ WEIGHTS }) => {
    shippedNet = new ValueNet(/** @type {WeightsDocument} */ (WEIGHTS));
    return shippedNet;
  }, (/** @type {unknown} */ e) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** The shipped network, once `loadShipped()` has resolved (else an error saying so). */
export function shipped() {
  if (shippedNet === null) throw new Error("the expert's network is not loaded: await loadShipped() (or preparePlayer('expert')) first");
  return shippedNet;
}

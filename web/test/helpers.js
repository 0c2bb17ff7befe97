// Shared test helpers: vectors are loaded from spec/vectors (never pasted into tests).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { ready } from '../src/sodium.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const VECTORS = path.join(REPO, 'spec', 'vectors');

await ready();

/** @param {string} relative path under spec/vectors */
export function vector(relative) {
  return JSON.parse(readFileSync(path.join(VECTORS, relative), 'utf8'));
}

/** @param {string} relative path under spec/vectors */
export function vectorBytes(relative) {
  return new Uint8Array(readFileSync(path.join(VECTORS, relative)));
}

/** @param {string} hex */
export function h(hex) {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** @param {Uint8Array} bytes */
export function hex(bytes) {
  return Buffer.from(bytes).toString('hex');
}

/**
 * The reason of the typed error fn throws, or null when it returns.
 * @param {() => unknown} fn
 */
export function reasonOf(fn) {
  try {
    fn();
  } catch (e) {
    return /** @type {{reason?: string}} */ (e).reason ?? `not a typed error: ${e}`;
  }
  return null;
}

/**
 * The byte source of spec/protocol.md §11: SHA-256 blocks over seed || u64(j); every request
 * starts at a fresh block.
 * @param {string} seed
 * @returns {(n: number) => Uint8Array}
 */
export function protocolStream(seed) {
  const s = Buffer.from(seed, 'ascii');
  let j = 0n;
  return (n) => {
    const blocks = [];
    for (let got = 0; got < n; got += 32) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(j++);
      blocks.push(createHash('sha256').update(s).update(counter).digest());
    }
    return new Uint8Array(Buffer.concat(blocks).subarray(0, n));
  };
}

// Byte helpers shared by every layer: Uint8Array at every boundary, integers big-endian
// (spec/README.md conventions) unless a section says otherwise.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Concatenate byte strings.
 * @param {...Uint8Array} parts
 * @returns {Uint8Array}
 */
export function concat(...parts) {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Byte-wise equality (not constant time: only for public values).
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function equal(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Lexicographic comparison of two byte strings.
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {number}
 */
export function compare(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** @param {string} text */
export function utf8(text) {
  return encoder.encode(text);
}

/**
 * Strict UTF-8 decoding; throws TypeError on invalid input.
 * @param {Uint8Array} bytes
 */
export function fromUtf8(bytes) {
  return decoder.decode(bytes);
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** @param {string} hex */
export function fromHex(hex) {
  if (hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) throw new TypeError('bad hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {number} v */
export function u8(v) {
  return Uint8Array.of(v & 0xff);
}

/** @param {number} v */
export function u16be(v) {
  return Uint8Array.of((v >>> 8) & 0xff, v & 0xff);
}

/** @param {number} v */
export function u32be(v) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v >>> 0);
  return out;
}

/** @param {number | bigint} v */
export function u64be(v) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(v));
  return out;
}

/**
 * Read a big-endian unsigned integer of 4 bytes.
 * @param {Uint8Array} bytes
 * @param {number} offset
 */
export function readU32be(bytes, offset) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset);
}

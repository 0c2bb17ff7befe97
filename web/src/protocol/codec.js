// Canonical msgpack (spec/protocol.md §3): every value has exactly one encoding. The encoder
// writes shortest forms and sorts map entries by their encoded keys; the decoder is strict
// (no floats, no extension types, no 0xc1, string keys only, nesting at most 32, nothing after
// the value) and the input must re-encode to the same bytes.
//
// Data model in JavaScript: null, booleans, integers (a number when it is a safe integer, else a
// bigint), strings, Uint8Array, arrays, and plain objects with string keys.
import { compare, equal, fromUtf8, utf8 } from '../bytes.js';
import { CodecError } from './errors.js';

/**
 * @typedef {null | boolean | number | bigint | string | Uint8Array | ValueArray | ValueMap} Value
 * @typedef {Value[]} ValueArray
 * @typedef {{[key: string]: Value}} ValueMap
 */

export const MAX_DEPTH = 32;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

class Writer {
  constructor() {
    /** @type {number[]} */
    this.bytes = [];
  }

  /** @param {number[]} b */
  push(...b) {
    for (const x of b) this.bytes.push(x);
  }

  /** @param {Uint8Array} b */
  raw(b) {
    for (const x of b) this.bytes.push(x);
  }

  /** @param {number} v @param {number} size */
  uint(v, size) {
    for (let i = size - 1; i >= 0; i--) this.bytes.push(Number((BigInt(v) >> BigInt(8 * i)) & 0xffn));
  }
}

/**
 * @param {Writer} w @param {number | bigint} value
 */
function writeInt(w, value) {
  const v = BigInt(value);
  if (v < INT64_MIN || v > UINT64_MAX) throw new CodecError('integer out of range');
  if (v >= 0n) {
    if (v <= 127n) w.push(Number(v));
    else if (v <= 0xffn) { w.push(0xcc); w.uint(Number(v), 1); }
    else if (v <= 0xffffn) { w.push(0xcd); w.uint(Number(v), 2); }
    else if (v <= 0xffffffffn) { w.push(0xce); w.uint(Number(v), 4); }
    else { w.push(0xcf); for (let i = 7; i >= 0; i--) w.push(Number((v >> BigInt(8 * i)) & 0xffn)); }
    return;
  }
  if (v >= -32n) w.push(Number(v) & 0xff);
  else if (v >= -128n) { w.push(0xd0, Number(v) & 0xff); }
  else if (v >= -32768n) { w.push(0xd1); w.uint(Number(v & 0xffffn), 2); }
  else if (v >= -2147483648n) { w.push(0xd2); w.uint(Number(v & 0xffffffffn), 4); }
  else { w.push(0xd3); const u = v & 0xffffffffffffffffn; for (let i = 7; i >= 0; i--) w.push(Number((u >> BigInt(8 * i)) & 0xffn)); }
}

/**
 * @param {Writer} w @param {number} n @param {number} fix fix-form base or -1 @param {number} fixMax
 * @param {number} c8 @param {number} c16 @param {number} c32
 */
function writeHeader(w, n, fix, fixMax, c8, c16, c32) {
  if (fix >= 0 && n <= fixMax) w.push(fix | n);
  else if (c8 >= 0 && n <= 0xff) { w.push(c8); w.uint(n, 1); }
  else if (n <= 0xffff) { w.push(c16); w.uint(n, 2); }
  else if (n <= 0xffffffff) { w.push(c32); w.uint(n, 4); }
  else throw new CodecError('too long');
}

/** @param {Writer} w @param {Uint8Array} b */
function writeStrBytes(w, b) {
  writeHeader(w, b.length, 0xa0, 31, 0xd9, 0xda, 0xdb);
  w.raw(b);
}

/**
 * @param {Writer} w @param {Value} value @param {number} depth
 */
function write(w, value, depth) {
  if (depth > MAX_DEPTH) throw new CodecError('nested too deeply');
  if (value === null) w.push(0xc0);
  else if (value === true) w.push(0xc3);
  else if (value === false) w.push(0xc2);
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new CodecError('not an integer (floats are not allowed)');
    writeInt(w, value);
  } else if (typeof value === 'bigint') writeInt(w, value);
  else if (typeof value === 'string') writeStrBytes(w, utf8(value));
  else if (value instanceof Uint8Array) {
    writeHeader(w, value.length, -1, 0, 0xc4, 0xc5, 0xc6);
    w.raw(value);
  } else if (Array.isArray(value)) {
    writeHeader(w, value.length, 0x90, 15, -1, 0xdc, 0xdd);
    for (const item of value) write(w, item, depth + 1);
  } else if (typeof value === 'object') {
    const entries = Object.keys(value).map((k) => {
      const kw = new Writer();
      writeStrBytes(kw, utf8(k));
      return { key: Uint8Array.from(kw.bytes), value: value[k] };
    });
    // spec/protocol.md §3 rule 2: sorted by the bytes of the encoded keys.
    entries.sort((a, b) => compare(a.key, b.key));
    writeHeader(w, entries.length, 0x80, 15, -1, 0xde, 0xdf);
    for (const e of entries) {
      w.raw(e.key);
      write(w, e.value, depth + 1);
    }
  } else throw new CodecError(`cannot encode a ${typeof value}`);
}

/**
 * The canonical msgpack encoding of a value.
 * @param {Value} value
 * @returns {Uint8Array}
 */
export function encode(value) {
  const w = new Writer();
  write(w, value, 1);
  return Uint8Array.from(w.bytes);
}

class Reader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 0;
  }

  /** @param {number} n */
  take(n) {
    if (this.pos + n > this.bytes.length) throw new CodecError('truncated');
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** @param {number} n big-endian unsigned of n bytes */
  uint(n) {
    const b = this.take(n);
    let v = 0n;
    for (const x of b) v = (v << 8n) | BigInt(x);
    return v;
  }
}

/** @param {bigint} v @returns {number | bigint} */
function toInt(v) {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/**
 * @param {Reader} r @param {number} depth
 * @returns {Value}
 */
function read(r, depth) {
  if (depth > MAX_DEPTH) throw new CodecError('nested too deeply');
  const t = r.take(1)[0];
  if (t <= 0x7f) return t;
  if (t >= 0xe0) return t - 0x100;
  if ((t & 0xe0) === 0xa0) return readStr(r, t & 0x1f);
  if ((t & 0xf0) === 0x90) return readArray(r, t & 0x0f, depth);
  if ((t & 0xf0) === 0x80) return readMap(r, t & 0x0f, depth);
  switch (t) {
    case 0xc0: return null;
    case 0xc2: return false;
    case 0xc3: return true;
    case 0xc4: return r.take(Number(r.uint(1))).slice();
    case 0xc5: return r.take(Number(r.uint(2))).slice();
    case 0xc6: return r.take(Number(r.uint(4))).slice();
    case 0xcc: return toInt(r.uint(1));
    case 0xcd: return toInt(r.uint(2));
    case 0xce: return toInt(r.uint(4));
    case 0xcf: return toInt(r.uint(8));
    case 0xd0: return toInt(BigInt.asIntN(8, r.uint(1)));
    case 0xd1: return toInt(BigInt.asIntN(16, r.uint(2)));
    case 0xd2: return toInt(BigInt.asIntN(32, r.uint(4)));
    case 0xd3: return toInt(BigInt.asIntN(64, r.uint(8)));
    case 0xd9: return readStr(r, Number(r.uint(1)));
    case 0xda: return readStr(r, Number(r.uint(2)));
    case 0xdb: return readStr(r, Number(r.uint(4)));
    case 0xdc: return readArray(r, Number(r.uint(2)), depth);
    case 0xdd: return readArray(r, Number(r.uint(4)), depth);
    case 0xde: return readMap(r, Number(r.uint(2)), depth);
    case 0xdf: return readMap(r, Number(r.uint(4)), depth);
    default: throw new CodecError(`type byte 0x${t.toString(16)} is not allowed`);
  }
}

/** @param {Reader} r @param {number} n */
function readStr(r, n) {
  try {
    return fromUtf8(r.take(n));
  } catch (e) {
    if (e instanceof CodecError) throw e;
    throw new CodecError('invalid UTF-8');
  }
}

/** @param {Reader} r @param {number} n @param {number} depth */
function readArray(r, n, depth) {
  if (n > r.bytes.length - r.pos) throw new CodecError('truncated');
  const out = [];
  for (let i = 0; i < n; i++) out.push(read(r, depth + 1));
  return out;
}

/** @param {Reader} r @param {number} n @param {number} depth */
function readMap(r, n, depth) {
  if (2 * n > r.bytes.length - r.pos) throw new CodecError('truncated');
  /** @type {{[key: string]: Value}} */
  const out = {};
  for (let i = 0; i < n; i++) {
    const key = read(r, depth + 1);
    if (typeof key !== 'string') throw new CodecError('a map key that is not a string');
    if (Object.prototype.hasOwnProperty.call(out, key)) throw new CodecError('duplicate key');
    // defineProperty: a key such as "__proto__" stays an ordinary own property.
    Object.defineProperty(out, key, { value: read(r, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Decode one canonical value: strict parse, nothing after it, and the re-encoding must give the
 * same bytes (spec/protocol.md §3, decoding). Raises CodecError (reason `non_canonical`).
 * @param {Uint8Array} bytes
 * @returns {Value}
 */
export function decode(bytes) {
  const { value, end } = decodePrefix(bytes, 0);
  if (end !== bytes.length) throw new CodecError('trailing bytes');
  return value;
}

/**
 * Decode one canonical value starting at `offset`; returns it and the offset after it. Used to
 * read files that are a sequence of values.
 * @param {Uint8Array} bytes @param {number} offset
 * @returns {{value: Value, end: number}}
 */
export function decodePrefix(bytes, offset) {
  const r = new Reader(bytes);
  r.pos = offset;
  const value = read(r, 1);
  if (!equal(encode(value), bytes.subarray(offset, r.pos))) throw new CodecError('not the canonical encoding');
  return { value, end: r.pos };
}

/**
 * Whether a value is a plain object (a msgpack map).
 * @param {unknown} v
 * @returns {v is {[key: string]: Value}}
 */
export function isMap(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

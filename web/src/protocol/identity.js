// Long-term identities (spec/protocol.md §5.1): an Ed25519 key pair from a 32-byte seed, and the
// fingerprint people compare.
import { concat, fromHex, toHex, utf8 } from '../bytes.js';
import { ed25519FromSeed, ed25519Sign, sha256 } from './primitives.js';
import { label } from './labels.js';
import { LocalError } from './errors.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lowercase RFC 4648 base32 without padding. @param {Uint8Array} bytes */
export function base32(bytes) {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The fingerprint of an identity key: the first 10 bytes of H("koikoi-p2p/1 fingerprint" || key)
 * in lowercase base32, as four groups of four characters joined by "-". The label keeps its 1 in
 * every protocol version (spec/protocol.md §1 rule 5, §5.1): it names a key, not a session.
 * @param {Uint8Array} publicKey
 */
export function fingerprint(publicKey) {
  const digest = sha256(concat(label(1), utf8('fingerprint'), publicKey)).slice(0, 10);
  const text = base32(digest);
  return [0, 4, 8, 12].map((i) => text.slice(i, i + 4)).join('-');
}

export class Identity {
  /** @param {Uint8Array} seed the 32-byte RFC 8032 seed */
  constructor(seed) {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new LocalError('bad_argument', 'a seed is 32 bytes');
    const kp = ed25519FromSeed(seed);
    this.seed = seed.slice();
    this.publicKey = kp.publicKey;
    /** @private */
    this.privateKey = kp.privateKey;
  }

  /** A fresh identity. @param {(n: number) => Uint8Array} rng */
  static generate(rng) {
    return new Identity(rng(32));
  }

  /** The key file's content: hex of the seed and a newline. */
  toFile() {
    return `${toHex(this.seed)}\n`;
  }

  /** @param {string} text */
  static fromFile(text) {
    return new Identity(fromHex(text.trim()));
  }

  /** Pure Ed25519 over the bytes. @param {Uint8Array} message */
  sign(message) {
    return ed25519Sign(this.privateKey, message);
  }

  fingerprint() {
    return fingerprint(this.publicKey);
  }
}

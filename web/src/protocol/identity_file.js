// The portable identity file (spec/identity.md): an identity's key and display name sealed under a
// passphrase, so that one identity plays from every device and a lost browser loses nothing.
// Pure: bytes in, identity out (and back); the salt and nonce come from the caller's generator.
import { concat, u32be, utf8 } from '../bytes.js';
import { Identity } from './identity.js';
import { nameProblem } from './names.js';
import { argon2id, xchachaOpen, xchachaSeal } from './primitives.js';

const MAGIC = utf8('koikoiID');
// ignoreBOM: a name that starts with U+FEFF is kept as it is, and refused (a format character), as
// every reader must; the default decoder would drop it and accept what another reader refuses.
const NAME_DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const VERSION = 1;
const KDF_ARGON2ID13 = 1;
const HEADER = 58; // magic 8, version 1, kdf 1, opslimit 4, memlimit_kib 4, salt 16, nonce 24
const SEED = 32;
const TAG = 16;
const SMALLEST = HEADER + SEED + 1 + TAG;
const LARGEST = SMALLEST + 128;
export const DEFAULT_OPSLIMIT = 3;
export const DEFAULT_MEMLIMIT_KIB = 64 * 1024;
export const MIN_PASSPHRASE = 8;

/** A file that gives no identity; `reason` is one of spec/identity.md §4's words. */
export class IdentityFileError extends Error {
  /** @param {string} reason @param {string} message */
  constructor(reason, message) {
    super(`${reason}: ${message}`);
    this.name = 'IdentityFileError';
    this.reason = reason;
  }
}

/** The Argon2id parameters every reader accepts (spec/identity.md §2). @param {number} ops @param {number} kib */
export function withinBounds(ops, kib) {
  return ops >= 1 && ops <= 16 && kib >= 8 && kib <= 1 << 20;
}

/** NFC, then UTF-8 (spec/identity.md §3 step 1). @param {string} passphrase */
function passphraseBytes(passphrase) {
  return utf8(passphrase.normalize('NFC'));
}

/**
 * The file's bytes (spec/identity.md §3). Throws RangeError for a short passphrase, a bad name or
 * parameters outside the bounds.
 * @param {Identity} identity @param {string} name @param {string} passphrase
 * @param {(n: number) => Uint8Array} randomBytes the salt, then the nonce
 * @param {{opslimit?: number, memlimitKib?: number}} [params]
 */
export function sealIdentity(identity, name, passphrase, randomBytes, params = {}) {
  const ops = params.opslimit ?? DEFAULT_OPSLIMIT;
  const kib = params.memlimitKib ?? DEFAULT_MEMLIMIT_KIB;
  if ([...passphrase.normalize('NFC')].length < MIN_PASSPHRASE) {
    throw new RangeError(`a passphrase has at least ${MIN_PASSPHRASE} characters`);
  }
  const problem = nameProblem(name);
  if (problem !== null) throw new RangeError(problem);
  if (!withinBounds(ops, kib)) throw new RangeError('Argon2id parameters outside spec/identity.md §2');
  const salt = randomBytes(16);
  const nonce = randomBytes(24);
  const header = concat(MAGIC, Uint8Array.of(VERSION, KDF_ARGON2ID13), u32be(ops), u32be(kib), salt, nonce);
  const encoded = utf8(name);
  const key = argon2id(passphraseBytes(passphrase), salt, ops, kib * 1024);
  return concat(header, xchachaSeal(key, nonce, header, concat(identity.seed, Uint8Array.of(encoded.length), encoded)));
}

/**
 * The identity in a file (spec/identity.md §4), checked in the spec's order; the KDF runs only on
 * a file whose parameters are within bounds.
 * @param {Uint8Array} data @param {string} passphrase
 * @returns {{identity: Identity, name: string, fingerprint: string}}
 */
export function openIdentity(data, passphrase) {
  const same = MAGIC.every((b, i) => data[i] === b);
  if (data.length < MAGIC.length || !same) throw new IdentityFileError('not_identity_file', 'this is not a koikoi identity file');
  if (data.length < 10) throw new IdentityFileError('damaged_identity_file', 'the file is cut short');
  if (data[8] !== VERSION || data[9] !== KDF_ARGON2ID13) {
    throw new IdentityFileError('unsupported_version', 'an identity file of a version this client does not read');
  }
  if (data.length < SMALLEST || data.length > LARGEST) {
    throw new IdentityFileError('damaged_identity_file', `the file has ${data.length} bytes: it is cut short or has bytes added`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const ops = view.getUint32(10);
  const kib = view.getUint32(14);
  if (!withinBounds(ops, kib)) throw new IdentityFileError('damaged_identity_file', 'the key-derivation parameters are out of bounds');
  const header = data.subarray(0, HEADER);
  const key = argon2id(passphraseBytes(passphrase), data.subarray(18, 34), ops, kib * 1024);
  const plain = xchachaOpen(key, data.subarray(34, 58), header, data.subarray(HEADER));
  if (plain === null) throw new IdentityFileError('wrong_passphrase', 'the passphrase is wrong, or the file was altered');
  if (plain.length < SEED + 1 || plain.length !== SEED + 1 + plain[SEED]) {
    throw new IdentityFileError('bad_identity_file', 'the sealed identity has the wrong layout');
  }
  let name;
  try {
    name = NAME_DECODER.decode(plain.subarray(SEED + 1));
  } catch {
    throw new IdentityFileError('bad_identity_file', 'the display name is not UTF-8');
  }
  const problem = nameProblem(name);
  if (problem !== null) throw new IdentityFileError('bad_identity_file', problem);
  const identity = new Identity(plain.slice(0, SEED));
  return { identity, name, fingerprint: identity.fingerprint() };
}

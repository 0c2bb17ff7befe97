// The session layer's primitives (spec/protocol.md §4.1), all from libsodium: SHA-256,
// HMAC-SHA-256, HKDF-SHA-256 (RFC 5869, built on that HMAC), ChaCha20-Poly1305 (RFC 8439),
// X25519 (RFC 7748) and pure Ed25519 (RFC 8032).
import { sodium } from '../sodium.js';
import { concat, u32be } from '../bytes.js';

/** SHA-256. @param {Uint8Array} data */
export function sha256(data) {
  return sodium().crypto_hash_sha256(data);
}

/** SHA-512. @param {Uint8Array} data */
export function sha512(data) {
  return sodium().crypto_hash_sha512(data);
}

/**
 * HMAC-SHA-256 (RFC 2104) with a key of any length.
 * @param {Uint8Array} key @param {Uint8Array} data
 */
export function hmac(key, data) {
  const s = sodium();
  const state = s.crypto_auth_hmacsha256_init(key);
  s.crypto_auth_hmacsha256_update(state, data);
  return s.crypto_auth_hmacsha256_final(state);
}

/**
 * HKDF-SHA-256, extract then expand (RFC 5869).
 * @param {Uint8Array} ikm @param {Uint8Array} salt @param {Uint8Array} info @param {number} length
 */
export function hkdf(ikm, salt, info, length) {
  const prk = hmac(salt.length ? salt : new Uint8Array(32), ikm);
  /** @type {Uint8Array[]} */
  const blocks = [];
  /** @type {Uint8Array} */
  let previous = new Uint8Array(0);
  for (let i = 1; blocks.length * 32 < length; i++) {
    previous = hmac(prk, concat(previous, info, Uint8Array.of(i)));
    blocks.push(previous);
  }
  return concat(...blocks).slice(0, length);
}

/**
 * HKDF-Expand (RFC 5869 §2.3) with SHA-256.
 * @param {Uint8Array} prk @param {Uint8Array} info @param {number} length
 */
export function hkdfExpand(prk, info, length) {
  /** @type {Uint8Array[]} */
  const blocks = [];
  /** @type {Uint8Array} */
  let previous = new Uint8Array(0);
  for (let i = 1; blocks.length * 32 < length; i++) {
    previous = hmac(prk, concat(previous, info, Uint8Array.of(i)));
    blocks.push(previous);
  }
  return concat(...blocks).slice(0, length);
}

/**
 * ChaCha20-Poly1305 (RFC 8439): ciphertext || 16-byte tag.
 * @param {Uint8Array} key @param {Uint8Array} nonce 12 bytes @param {Uint8Array} ad @param {Uint8Array} plaintext
 */
export function aeadSeal(key, nonce, ad, plaintext) {
  return sodium().crypto_aead_chacha20poly1305_ietf_encrypt(plaintext, ad, null, nonce, key);
}

/**
 * Open a ChaCha20-Poly1305 box; null when it does not authenticate.
 * @param {Uint8Array} key @param {Uint8Array} nonce @param {Uint8Array} ad @param {Uint8Array} sealed
 * @returns {Uint8Array | null}
 */
export function aeadOpen(key, nonce, ad, sealed) {
  if (sealed.length < 16) return null;
  try {
    return sodium().crypto_aead_chacha20poly1305_ietf_decrypt(null, sealed, ad, nonce, key);
  } catch {
    return null;
  }
}

/**
 * Argon2id v1.3 (RFC 9106), parallelism 1, as libsodium's crypto_pwhash computes it
 * (spec/identity.md §3); the caller bounds the parameters.
 * @param {Uint8Array} password @param {Uint8Array} salt 16 bytes
 * @param {number} opslimit @param {number} memlimit in bytes @param {number} [length]
 */
export function argon2id(password, salt, opslimit, memlimit, length = 32) {
  const s = sodium();
  return s.crypto_pwhash(length, password, salt, opslimit, memlimit, s.crypto_pwhash_ALG_ARGON2ID13);
}

/**
 * XChaCha20-Poly1305 (IETF) with a 24-byte nonce: ciphertext || 16-byte tag.
 * @param {Uint8Array} key @param {Uint8Array} nonce @param {Uint8Array} ad @param {Uint8Array} plaintext
 */
export function xchachaSeal(key, nonce, ad, plaintext) {
  return sodium().crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, ad, null, nonce, key);
}

/**
 * Open an XChaCha20-Poly1305 box; null when it does not authenticate.
 * @param {Uint8Array} key @param {Uint8Array} nonce @param {Uint8Array} ad @param {Uint8Array} sealed
 * @returns {Uint8Array | null}
 */
export function xchachaOpen(key, nonce, ad, sealed) {
  if (sealed.length < 16) return null;
  try {
    return sodium().crypto_aead_xchacha20poly1305_ietf_decrypt(null, sealed, ad, nonce, key);
  } catch {
    return null;
  }
}

/**
 * The X25519 public key of a 32-byte secret.
 * @param {Uint8Array} secret
 */
export function x25519Public(secret) {
  return sodium().crypto_scalarmult_base(secret);
}

/**
 * X25519(secret, public); null when libsodium refuses (an all-zero result: a low-order key).
 * @param {Uint8Array} secret @param {Uint8Array} peer
 * @returns {Uint8Array | null}
 */
export function x25519(secret, peer) {
  try {
    return sodium().crypto_scalarmult(secret, peer);
  } catch {
    return null;
  }
}

/**
 * An Ed25519 key pair from its 32-byte RFC 8032 seed.
 * @param {Uint8Array} seed
 * @returns {{publicKey: Uint8Array, privateKey: Uint8Array}}
 */
export function ed25519FromSeed(seed) {
  const kp = sodium().crypto_sign_seed_keypair(seed);
  return { publicKey: kp.publicKey, privateKey: kp.privateKey };
}

/**
 * Pure Ed25519 signature.
 * @param {Uint8Array} privateKey libsodium's 64-byte secret key @param {Uint8Array} message
 */
export function ed25519Sign(privateKey, message) {
  return sodium().crypto_sign_detached(message, privateKey);
}

/**
 * Ed25519 verification.
 * @param {Uint8Array} publicKey @param {Uint8Array} message @param {Uint8Array} signature
 */
export function ed25519Verify(publicKey, message, signature) {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    return sodium().crypto_sign_verify_detached(signature, message, publicKey);
  } catch {
    return false;
  }
}

/**
 * An identity key is a canonical encoding of a point of the prime-order subgroup, not of small
 * order (spec/protocol.md §5.1).
 * @param {Uint8Array} key
 */
export function isValidIdentityKey(key) {
  return key instanceof Uint8Array && key.length === 32 && sodium().crypto_core_ed25519_is_valid_point(key);
}

/**
 * Noise-style mix(h, x) = H(h || u32(len(x)) || x) (spec/protocol.md §5.3).
 * @param {Uint8Array} h @param {Uint8Array} x
 */
export function mix(h, x) {
  return sha256(concat(h, u32be(x.length), x));
}

/**
 * Constant-time comparison of two MACs.
 * @param {Uint8Array} a @param {Uint8Array} b
 */
export function macEqual(a, b) {
  if (a.length !== b.length) return false;
  return sodium().memcmp(a, b);
}

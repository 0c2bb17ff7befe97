// The one module that loads libsodium (libsodium-wrappers-sumo: the sumo build carries the
// edwards25519 point and scalar functions). Everything else calls `sodium()` after the edge has
// awaited `ready()` once, so the core stays synchronous.
import libsodium from 'libsodium-wrappers-sumo';

let loaded = false;

/** Load libsodium; call once (and await it) before using any other module. */
export async function ready() {
  await libsodium.ready;
  loaded = true;
}

/**
 * The loaded libsodium binding.
 * @returns {typeof libsodium}
 */
export function sodium() {
  if (!loaded) throw new Error('libsodium not loaded: await ready() from web/src/sodium.js first');
  return libsodium;
}

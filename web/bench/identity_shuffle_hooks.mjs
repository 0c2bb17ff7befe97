// The load hook registered by identity_shuffle.mjs (the differential bench only): see there.
const DRAW = 'const permutation = randomPermutation(rng, n);';

/**
 * @param {string} url @param {any} context
 * @param {(url: string, context: any) => Promise<{source?: string | ArrayBuffer | Uint8Array, format?: string}>} nextLoad
 */
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.endsWith('/src/mentalpoker/shuffle.js')) return loaded;
  const source = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(/** @type {any} */ (loaded.source));
  if (!source.includes(DRAW)) throw new Error('identity_shuffle.mjs: shuffle.js no longer draws its permutation as expected');
  return { ...loaded, source: source.replace(DRAW, 'const permutation = Array.from({ length: n }, (_, i) => i); void randomPermutation;') };
}

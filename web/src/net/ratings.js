// The rating service a relay runs (spec/ratings.md §2.1), as the Python client names it
// (koikoi_p2p.ratings.client.service_url): what `koikoi host --rated` proposes by default.

/**
 * The rating service of a relay or service URL (spec/ratings.md §2.1): ws:// becomes http://,
 * wss:// https://; the path loses a trailing `/`, `/v1` or `/ratings`. Throws RangeError otherwise.
 * `ws://relay.example:8765/v1` -> `http://relay.example:8765`.
 * @param {string} url @returns {string}
 */
export function serviceUrl(url) {
  let u;
  try {
    u = new URL(url.trim());
  } catch {
    throw new RangeError(`not a relay or rating service URL: ${url}`);
  }
  const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[u.protocol] ?? u.protocol;
  if ((scheme !== 'http:' && scheme !== 'https:') || !u.host) throw new RangeError(`not a relay or rating service URL: ${url}`);
  let path = u.pathname.replace(/\/+$/, '');
  for (const suffix of ['/v1', '/ratings']) if (path.endsWith(suffix)) path = path.slice(0, -suffix.length);
  return `${scheme}//${u.host}${path}`;
}

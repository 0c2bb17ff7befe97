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

/** What `GET /ratings/service` answers on a rating service (spec/ratings.md §7.6). */
export const SERVICE_TAG = 'koikoi-ratings/v1';
const ASK = '/ratings/service';

/**
 * The rating service of a relay (spec/ratings.md §2.1), as the Python client's `locate`: asks
 * `GET {base}/ratings/service`, following redirects (a relay run with `--ratings` sends it to the
 * service's own port); the URL that answered is the service. With no such answer, the relay's own
 * URL (`serviceUrl`). Throws RangeError only for a URL that is neither a relay's nor a service's.
 * @param {string} relay @param {typeof fetch} [fetcher] @returns {Promise<string>}
 */
export async function locateService(relay, fetcher = fetch) {
  return (await findService(relay, fetcher)) ?? serviceUrl(relay);
}

/**
 * The rating service that answers for a relay (§2.1), or null when none answers within 5 s: the
 * browser's create form then asks for one to be typed instead of proposing a rated match whose
 * result could go nowhere. Throws RangeError for a URL that is neither a relay's nor a service's.
 * @param {string} relay @param {typeof fetch} [fetcher] @returns {Promise<string | null>}
 */
export async function findService(relay, fetcher = fetch) {
  const base = serviceUrl(relay);
  try {
    const res = await fetcher(base + ASK, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
    const body = res.ok ? await res.json() : null;
    if (body?.service === SERVICE_TAG && res.url.endsWith(ASK)) return serviceUrl(res.url.slice(0, -ASK.length));
  } catch { /* no answer */ }
  return null;
}

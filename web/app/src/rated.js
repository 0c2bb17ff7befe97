// The create-room form's rated match (spec/ratings.md §2.1): as `koikoi host --rated [--ratings
// URL]`, the rating service is the one typed, else the relay's own (ws:// -> http://).
import { serviceUrl } from '../../src/api/match.js';
import { ratingsProblem } from '../../src/api/match.js';
import { t } from './i18n.js';

/** How long a rated result is offered again to a service that is restarting or out of reach. */
export const RATED_RETRY_MS = 60000;

/**
 * The terms' `rated` and `ratings` for the form's choice; throws an Error (shown under the form)
 * for a service the terms could not carry, before any room is opened.
 * @param {boolean} rated @param {string} typed the service field ("" for the relay's)
 * @param {string} relay the relay URL of the form @returns {{rated: boolean, ratings: string}}
 */
export function ratedTerms(rated, typed, relay) {
  if (!rated) return { rated: false, ratings: '' };
  let ratings;
  try {
    ratings = serviceUrl(typed.trim() || relay);
  } catch {
    throw new Error(`${typed.trim() || relay} is not a rating service (http:// or https://) or relay (ws://, wss://) URL`);
  }
  const problem = ratingsProblem(true, ratings);
  if (problem) throw new Error(problem);
  return { rated: true, ratings };
}

/**
 * Send a co-signed result to the rating service `base` (spec/ratings.md §2.3, §3.1) and say how
 * it went, translated. A service restarting (its balancer answers 502-504) or out of reach is
 * tried again with backoff for RATED_RETRY_MS (a result may be sent again; it counts once).
 * A repeat is the opponent's copy only when our first try was answered: a try that failed may
 * have been counted with its answer lost, and the repeat then is our own.
 * @param {Uint8Array} bytes @param {string} base the service's URL, no trailing slash
 * @param {{fetch?: typeof fetch, sleep?: (ms: number) => Promise<void>, now?: () => number,
 *   retrying?: () => void, stopped?: () => boolean, counted?: () => void}} [io]
 * @returns {Promise<string>}
 */
export async function submitRatedResult(bytes, base, io = {}) {
  const post = io.fetch ?? fetch;
  const sleep = io.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const now = io.now ?? Date.now;
  const until = now() + RATED_RETRY_MS;
  let answer = '';
  let tried = false;   // an earlier try went out and its answer was not the service's
  for (let delay = 1000; ; delay = Math.min(delay * 2, 15000)) {
    let again = false;
    try {
      const res = await post(`${base}/ratings/results`, { method: 'POST', body: new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)]), headers: { 'Content-Type': 'application/octet-stream' } });
      again = res.status >= 502 && res.status <= 504;
      const body = await res.json().catch(() => ({}));
      if (body.ok) io.counted?.(); // this browser's key now has a rating to lose: offer the export
      // After a retry, the number the service gave the copy it counted, as the terminal says it.
      const seq = Number.isSafeInteger(body.seq) ? String(body.seq) : '?';
      answer = body.ok ? t(body.counted ? 'ratedCounted' : tried ? 'ratedAlready' : 'ratedRepeat', { seq })
        : t('ratedRefused', { reason: String(body.reason ?? res.status), message: String(body.message ?? '') });
    } catch (e) {
      again = true;
      answer = t('ratedUnreachable', { reason: e instanceof Error ? e.message : String(e) });
    }
    if (!again || now() + delay > until || io.stopped?.()) return answer;
    tried = true;
    io.retrying?.();
    await sleep(delay * (0.5 + Math.random() / 2));
  }
}

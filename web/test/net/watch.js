// What a network test needs to fail with a reason instead of hanging until its timeout: a match
// that does not end reports what each link was doing, and a background task that fails (a relay
// that cannot start again on its port) fails the match at once.

/** @typedef {import('../../src/net/link_transport.js').LinkTransport} LinkTransport */

/**
 * What a link is doing, for the message of a match that does not end.
 * @param {LinkTransport} l
 */
export function linkState(l) {
  const inner = /** @type {any} */ (l.inner);
  const connector = /** @type {any} */ (l.connector);
  return {
    repairing: Boolean(l.repairing), repairs: l.repairs, error: l.error ? String(l.error) : null, awaySince: l.awaySince,
    inbox: l.inbox.length, waiters: l.waiters.length, drained: l.drained,
    inner: { ws: inner.ws ? inner.ws.readyState : null, failure: inner.failure?.reason ?? null, peer: inner.peer ?? null, code: inner.code ?? null },
    pairings: connector?.inner?.pairings ?? connector?.pairings ?? null,
  };
}

/**
 * Rejects after `ms` with `state()` in its message; the timer does not keep the process alive.
 * @param {number} ms @param {() => unknown} state
 * @returns {Promise<never>}
 */
export function stalled(ms, state) {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`the match did not end within ${ms / 1000} s: ${JSON.stringify(state())}`)), ms).unref();
  });
}

/**
 * A promise that rejects when `fail` is called: race it against the work a background task serves.
 * @returns {{failed: Promise<never>, fail: (e: unknown) => void}}
 */
export function failureOf() {
  /** @type {(e: unknown) => void} */
  let fail = () => {};
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => { fail = reject; });
  failed.catch(() => {});
  return { failed, fail };
}

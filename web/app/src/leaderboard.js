// The leaderboard of the relay's rating service (spec/ratings.md §7.1: GET {service}/ratings),
// shown only when the relay has one. Every value is text put in text nodes: a name from the
// service can inject nothing. Names are not unique: the fingerprint sits beside each.
import { h } from './dom.js';
import { t } from './i18n.js';
import { findService } from '../../src/api/match.js';

/**
 * The service's leaderboard, or null when the relay has no rating service (or none answers).
 * The page first asks which service answers for the relay (spec/ratings.md §2.1, as the create
 * form does), then fetches the board from that one only: a relay without a service says so to
 * that question, where a fetch of its `/ratings` was a 404 in the console (QA).
 * @param {string} relay a relay or service URL @param {typeof fetch} [fetcher] @returns {Promise<any[] | null>}
 */
export async function fetchBoard(relay, fetcher = fetch) {
  let base;
  try {
    base = await findService(relay, fetcher);
  } catch {
    return null;
  }
  if (base === null) return null;
  try {
    const res = await fetcher(`${base}/ratings`, { headers: { Accept: 'application/json' } });
    if (!res.ok) return null;
    const body = await res.json();
    return Array.isArray(body?.players) ? body.players : null;
  } catch {
    return null;
  }
}

/** @param {unknown} x */
const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
/** @param {unknown} x @param {number} max */
const text = (x, max) => (typeof x === 'string' ? x.replace(/[\p{C}\p{Zl}\p{Zp}]/gu, '').slice(0, max) : '');

/**
 * The ranks as shown: players whose shown rating is the same share the better rank (QA: two equal
 * ratings were ranked 1 and 2). @param {any[]} players @returns {number[]}
 */
export function shownRanks(players) {
  /** @type {number[]} */
  const ranks = [];
  players.forEach((p, i) => {
    const same = i > 0 && num(p.conservative).toFixed(1) === num(players[i - 1].conservative).toFixed(1);
    ranks.push(same ? ranks[i - 1] : num(p.rank) || i + 1);
  });
  return ranks;
}

/**
 * The table of players; this browser's own row marked. @param {any[]} players @param {string} [mine] its fingerprint
 */
export function boardTable(players, mine = '') {
  if (!players.length) return h('p', { class: 'muted' }, t('lbEmpty'));
  const shown = players.slice(0, 200);
  const ranks = shownRanks(shown);
  return h('table', { class: 'board-table' }, [
    h('thead', {}, [h('tr', {}, [t('lbRank'), t('lbPlayer'), t('lbRating'), t('lbGames'), t('lbRecord')].map((c) => h('th', { scope: 'col' }, c)))]),
    h('tbody', {}, shown.map((p, i) => h('tr', mine && text(p.fingerprint, 19) === mine ? { class: 'mine', 'aria-current': 'true' } : {}, [
      h('td', { class: 'num' }, String(ranks[i])),
      h('th', { scope: 'row' }, [text(p.name, 32) || t('lobbyNoName'), ' ', h('span', { class: 'muted small' }, text(p.fingerprint, 19))]),
      h('td', { class: 'num' }, num(p.conservative).toFixed(1)),
      h('td', { class: 'num' }, String(num(p.games))),
      h('td', { class: 'num' }, `${num(p.wins)} / ${num(p.losses)} / ${num(p.draws)}`),
    ]))),
  ]);
}

/**
 * The leaderboard screen.
 * @param {{screen: (c: HTMLElement[], cls?: string) => void, topBar: () => HTMLElement, defaultRelay: () => string, home: () => void, fingerprint?: () => string}} ctx
 */
export async function leaderboardScreen(ctx) {
  const body = h('div', { class: 'lbbody', 'aria-live': 'polite' }, h('p', { class: 'muted' }, t('lbLoading')));
  // The note explains the ratings: only under a table of them.
  const note = h('p', { class: 'muted small', hidden: true }, t('lbNote'));
  ctx.screen([ctx.topBar(), h('section', { class: 'panel leaderboard' }, [
    h('h2', {}, t('leaderboardTitle')), body, note,
    h('div', { class: 'choices' }, [h('button', { type: 'button', onclick: ctx.home }, t('back'))]),
  ])]);
  const players = await fetchBoard(ctx.defaultRelay());
  body.replaceChildren(players === null ? h('p', {}, t('lbNone')) : boardTable(players, ctx.fingerprint?.() ?? ''));
  note.hidden = !players?.length;
}

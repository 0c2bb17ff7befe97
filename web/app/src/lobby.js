// The lobby: every public room waiting on the relay, with what its host chose to publish (its
// listing, spec/relay.md §4.2, checked here as the relay checks it): the host's name and key
// fingerprint prefix, the rules, the length, rated or not, password or not, and how long it has
// waited. One click joins; the joiner then sees the host's signed terms (not this listing) and
// accepts or refuses them.
import { h } from './dom.js';
import { t } from './i18n.js';
import { RelayClient } from '../../src/api/match.js';
import { roomListing } from '../../src/api/match.js';
import { lengthText, presetShort } from './rooms.js';

/** "40 s", "3 min", "2 h". @param {number} seconds */
export function waitedText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t('lobbySeconds', { n: s });
  if (s < 3600) return t('lobbyMinutes', { n: Math.floor(s / 60) });
  return t('lobbyHours', { n: Math.floor(s / 3600) });
}

/**
 * The facts of one room's listing, in words.
 * @param {import('../../src/net/listing.js').Listing} l @param {number} age
 */
export function roomFacts(l, age) {
  const rules = l.rules ? (l.custom ? t('lobbyChanged', { rules: presetShort(l.rules) }) : presetShort(l.rules)) : t('lobbyRulesUnknown');
  return [
    rules,
    typeof l.rounds === 'number' ? lengthText(l.rounds, l.target ?? 0) : null,
    typeof l.rated === 'boolean' ? t(l.rated ? 'lobbyRated' : 'lobbyUnrated') : null,
    t(l.password ? 'lobbyPassword' : 'lobbyNoPassword'),
    t('lobbyWaited', { t: waitedText(age) }),
  ].filter((x) => x !== null);
}

/**
 * "Host: NAME FINGERPRINT", the fingerprint in an element of its own that never breaks across
 * lines (QA: a phone broke "2x6c-t5d5" at its hyphen), wherever the language puts the host.
 * @param {string} name @param {string} fp
 * @returns {(string | HTMLElement)[]}
 */
export function hostLine(name, fp) {
  const [before, after = ''] = t('lobbyHost', { who: '\u0000' }).split('\u0000');
  return [`${before}${name}${fp ? ' ' : ''}`, fp ? h('span', { class: 'fp' }, fp) : '', after].filter((x) => x !== '');
}

/**
 * One room: a button that joins it (a password room first asks for the password).
 * @param {{code: string, age: number, listing?: unknown, meta?: unknown}} room
 * @param {(code: string, password: string) => void} join
 */
function roomItem(room, join) {
  const l = roomListing(room);
  const facts = roomFacts(l, Number(room.age) || 0);
  const who = 'name' in l || 'fp' in l ? hostLine(l.name || t('lobbyNoName'), l.fp ?? '') : [t('lobbyOlder')];
  const li = h('li', { class: 'room', dataset: { code: room.code } });
  const ask = () => {
    const input = /** @type {HTMLInputElement} */ (h('input', { type: 'password', name: 'roompassword', autocomplete: 'off' }));
    // A visible label (QA: the box had none; its name was for a screen reader only).
    const form = h('form', { class: 'roompw', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); join(room.code, input.value); } }, [
      h('p', { class: 'small' }, t('lobbyPasswordAsk')), h('label', { class: 'roompwlabel' }, [h('span', {}, t('lobbyPasswordLabel')), input]),
      h('button', { class: 'primary', type: 'submit' }, t('lobbyJoin')),
    ]);
    li.append(form);
    input.focus();
  };
  li.append(h('button', {
    type: 'button', class: 'roomjoin',
    onclick: () => (l.password ? (li.querySelector('.roompw') ? null : ask()) : join(room.code, '')),
  }, [
    h('span', { class: 'who' }, who),
    h('span', { class: 'what' }, facts.join(' · ')),
    h('span', { class: 'go' }, t('lobbyJoin')),
  ]));
  return li;
}

/**
 * Fill `list` with the public rooms of the relay at `url` (rejoin rooms are never shown).
 * @param {HTMLElement} list @param {string} url @param {(code: string, password: string) => void} join
 * @param {(reason: string, url: string) => string} errorText
 */
export async function refreshRooms(list, url, join, errorText) {
  try {
    const rooms = (await RelayClient.lobby(url)).filter((r) => !r.meta || !('rejoin' in r.meta));
    list.replaceChildren(...(rooms.length ? rooms.map((r) => roomItem(r, join)) : [h('li', { class: 'muted' }, t('noRooms'))]));
    list.dataset.count = String(rooms.length);
  } catch (e) {
    list.replaceChildren(h('li', { class: 'muted' }, errorText(/** @type {any} */ (e).reason ?? 'unreachable', url)));
  }
}

/**
 * The lobby screen.
 * @param {{screen: (c: HTMLElement[], cls?: string) => void, topBar: () => HTMLElement, defaultRelay: () => string, home: () => void,
 *   joinByCode: () => void, playScreen: (begin: (g: any) => void) => void, errorText: (reason: string, url: string) => string}} ctx
 */
export function lobbyScreen(ctx) {
  const url = ctx.defaultRelay();
  const list = h('ul', { class: 'lobby rooms', 'aria-live': 'polite' }, [h('li', { class: 'muted' }, t('lbLoading'))]);
  const join = (/** @type {string} */ code, /** @type {string} */ password) => ctx.playScreen((g) => g.startOnline({ action: 'join', url, code, password }));
  ctx.screen([ctx.topBar(), h('section', { class: 'panel lobbypage' }, [
    h('h2', {}, t('lobby')),
    h('p', { class: 'muted small' }, t('lobbyNote')),
    list,
    h('div', { class: 'choices' }, [
      h('button', { type: 'button', onclick: () => refreshRooms(list, url, join, ctx.errorText) }, t('refresh')),
      h('button', { type: 'button', onclick: ctx.joinByCode }, t('join')),
      h('button', { type: 'button', onclick: ctx.home }, t('back')),
    ]),
  ])], 'lobbyscreen');
  // The waited times and the rooms change: look again now and then while this list is shown.
  const timer = setInterval(() => {
    if (!list.isConnected) clearInterval(timer);
    else if (!list.querySelector('.roompw')) refreshRooms(list, url, join, ctx.errorText);
  }, 15000);
  return refreshRooms(list, url, join, ctx.errorText);
}

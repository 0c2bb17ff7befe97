// The app shell: settings, the home screen, the forms (practice, join), the play screen and the
// match report; creating a room (rooms.js), the lobby (lobby.js), the rules page (rulespage.js)
// and the leaderboard (leaderboard.js) have modules of their own. The location fragment selects
// a screen: `#join=CODE` (with `&relay=URL`) opens the join form filled in, `#report` the replay
// view, `#lobby`, `#rules` and `#leaderboard` those pages. The relay is the
// page's own origin (`koikoi relay --web`) unless the fragment or the form names another.
import { h } from './dom.js';
import { lang, setLang, t } from './i18n.js';
import { Game, currentMatch, errorText, newWorker, prepareWorkers } from './game.js';
import { PRESETS, buildProfile, cleanName } from './profiles.js';
import { isWellFormedCode, normaliseCode } from '../../src/api/match.js';
import { openReport } from './report.js';
import { serviceUrl } from '../../src/api/match.js';
import { backSvg } from './cards/art.js';
import { svg } from './dom.js';
import { exportOffered, identitySection } from './identity_panel.js';
import { createForm as roomForm, rulesChooser } from './rooms.js';
import { lobbyScreen, refreshRooms } from './lobby.js';
import { openRules } from './rulespage.js';
import { leaderboardScreen } from './leaderboard.js';
import { preset } from '../../src/api/rules.js';

const SETTINGS = 'koikoi.settings';
const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const workerUrl = /** @type {HTMLElement} */ (document.querySelector('meta[name="koikoi-worker"]')).getAttribute('content') ?? 'worker.js';

/** @type {{lang: 'en' | 'ja', name: string, showIds: boolean, relay: string, level: string, rules: string, rounds: number}} */
const settings = {
  lang: navigator.language?.startsWith('ja') ? 'ja' : 'en', name: '', showIds: false, relay: '', level: 'greedy', rules: 'nintendo', rounds: 1,
  ...JSON.parse(localStorage.getItem(SETTINGS) ?? '{}'),
};
setLang(settings.lang);
document.title = t('title'); // the tab's title in the page's language too (QA)
const save = () => localStorage.setItem(SETTINGS, JSON.stringify(settings));

/** @type {Game | null} */
let game = null;
let fingerprint = '';

/** The fragment as key=value pairs. */
function fragment() {
  const out = new URLSearchParams(location.hash.replace(/^#/, ''));
  return out;
}

/** The relay to use: the form's, the fragment's, or the page's own origin. */
function defaultRelay() {
  const f = fragment().get('relay');
  if (f) return f;
  if (settings.relay) return settings.relay;
  if (location.protocol === 'http:' || location.protocol === 'https:') return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1`;
  return 'ws://127.0.0.1:8765/v1';
}

function stopGame() {
  game?.destroy();
  game = null;
}

/** @param {(HTMLElement | null)[]} children @param {string} [cls] */
function screen(children, cls = '') {
  stopGame();
  app.replaceChildren(h('main', { class: `screen ${cls}` }, children));
  const first = /** @type {HTMLElement | null} */ (app.querySelector('h1, h2'));
  if (first) { first.tabIndex = -1; first.focus({ preventScroll: true }); }
}

function topBar() {
  return h('nav', { class: 'topbar', 'aria-label': t('settings') }, [
    h('button', { class: 'link home', onclick: () => { location.hash = ''; home(); } }, t('title')),
    h('span', { class: 'spacer' }),
    h('label', { class: 'lang' }, [t('language'), ' ',
      h('select', { 'aria-label': t('language'), onchange: (/** @type {Event} */ e) => { settings.lang = /** @type {any} */ (e.target).value; save(); setLang(settings.lang); document.title = t('title'); route(); } },
        [h('option', { value: 'en', selected: lang() === 'en' }, 'English'), h('option', { value: 'ja', selected: lang() === 'ja' }, '日本語')])]),
  ]);
}

function home() {
  const cur = currentMatch();
  screen([
    topBar(),
    h('header', { class: 'hero' }, [svg(backSvg(), 'heroart'), h('div', {}, [h('h1', {}, t('title')), h('p', { class: 'tagline' }, t('tagline'))])]),
    identityOffer(),
    // A phone stacks the menu over the settings; a wider window sets them side by side.
    h('div', { class: 'homegrid' }, [h('div', { class: 'menu' }, [
      cur ? h('button', { class: 'primary', onclick: () => resumeGame(cur) }, t('resume')) : null,
      h('button', { class: cur ? '' : 'primary', onclick: practiceForm }, t('practice')),
      h('button', { onclick: createForm }, t('create')),
      h('button', { onclick: lobby }, t('findRooms')),
      h('button', { onclick: () => joinForm('') }, t('join')),
      h('button', { onclick: () => openRules(homeRules()) }, t('rulesHelp')),
      // The page asks the relay's rating service (a probe from here would log a 404 on every
      // home screen of a relay without one) and says so when there is none.
      h('button', { onclick: () => go('leaderboard') }, t('leaderboard')),
      h('button', { onclick: () => { location.hash = 'report'; reportScreen(null); } }, t('replay')),
    ]),
    settingsPanel()]),
    h('p', { class: 'muted small' }, `${t('offline')} ${t('installHint')}`),
  ], 'home');
}

/** The rules the home screen's rules page opens with: the last preset chosen. */
function homeRules() {
  try {
    return preset(settings.rules).toDict();
  } catch {
    return preset('nintendo').toDict();
  }
}

/** What the room, lobby and leaderboard modules borrow from the shell. */
function shell() {
  return {
    settings, save, screen, topBar, nameField, seenAs, defaultRelay, defaultRelayOrigin, relayService, playScreen, errorText,
    fingerprint: () => fingerprint, home: () => { location.hash = ''; home(); }, showRules: openRules,
    joinByCode: () => joinForm(''),
  };
}

function createForm() {
  roomForm(shell());
}

/** A page with its own fragment: drawn by route() once the fragment changes. @param {string} hash */
function go(hash) {
  if (location.hash === `#${hash}`) route();
  else location.hash = hash;
}

function lobby() {
  go('lobby');
}

function leaderboard() {
  leaderboardScreen(shell());
}

/**
 * The name field of the settings and of the room forms: what the opponent sees beside this
 * player's key fingerprint.
 */
function nameField() {
  return h('label', {}, [t('yourName'), h('input', {
    name: 'displayname', value: settings.name, maxlength: 32, autocomplete: 'nickname',
    onchange: (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      settings.name = cleanName(input.value);
      input.value = settings.name;
      save();
      refreshSeenAs();
    },
  })]);
}

/** How the opponent will see this player: the name and the key's fingerprint. */
function seenAs() {
  return h('p', { class: 'muted small seenas' }, seenAsText());
}

const seenAsText = () => t('seenAs', { name: settings.name || t('noName'), fp: fingerprint || '…' });

function refreshSeenAs() {
  document.querySelectorAll('.seenas').forEach((el) => { el.textContent = seenAsText(); });
}

function settingsPanel() {
  return h('section', { class: 'panel settings', 'aria-label': t('settings') }, [
    h('h2', {}, t('settings')),
    nameField(),
    h('label', { class: 'check' }, [h('input', { type: 'checkbox', checked: settings.showIds, onchange: (/** @type {Event} */ e) => { settings.showIds = /** @type {HTMLInputElement} */ (e.target).checked; save(); } }), t('cardIds')]),
    fingerprint ? h('p', { class: 'muted small fp' }, t('fingerprint', { fp: fingerprint })) : null,
    identitySection(identityHooks, openIdentity),
  ]);
}

/** What the identity section needs from the shell: a worker, the name, and what to redraw. */
const identityHooks = {
  worker: () => newWorker(workerUrl),
  name: () => settings.name,
  fingerprint: () => fingerprint,
  imported: (/** @type {string} */ fp, /** @type {string} */ name) => {
    fingerprint = fp;
    settings.name = name;
    save();
    document.querySelectorAll('.settings .fp').forEach((el) => { el.textContent = t('fingerprint', { fp }); });
    document.querySelectorAll('input[name="displayname"]').forEach((el) => { /** @type {HTMLInputElement} */ (el).value = name; });
    refreshSeenAs();
  },
};
let openIdentity = false;

/** The home screen's offer to export, once this browser's key has a rating to lose. */
function identityOffer() {
  if (!exportOffered()) return null;
  return h('section', { class: 'panel offer', 'aria-label': t('identityTitle') }, [
    h('p', {}, t('identityOffer')),
    h('button', { onclick: () => {
      const details = /** @type {HTMLDetailsElement | null} */ (document.querySelector('details.identity'));
      if (details) { details.open = true; details.scrollIntoView(); /** @type {HTMLElement | null} */ (details.querySelector('input'))?.focus(); }
      openIdentity = true;
    } }, t('identityOfferButton')),
  ]);
}

/** @param {string} label @param {HTMLElement} control */
const field = (label, control) => h('label', {}, [label, control]);

/** @param {HTMLFormElement} form @param {string} name */
const val = (form, name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;

/** @param {HTMLFormElement} form */
function profileOf(form) {
  const rounds = Number(val(form, 'rounds')) || null;
  settings.rules = val(form, 'rules');
  if (rounds) settings.rounds = rounds;
  save();
  return buildProfile(val(form, 'rules'), rounds, val(form, 'switches') ?? '').toDict();
}

/** @param {HTMLFormElement} form @param {unknown} e */
function formError(form, e) {
  const out = /** @type {HTMLElement} */ (form.querySelector('.error'));
  out.textContent = t('errorGeneric', { reason: String(/** @type {any} */ (e)?.message ?? e) });
}

function practiceForm() {
  const chosen = PRESETS.includes(settings.rules) ? settings.rules : 'nintendo';
  const rules = rulesChooser(chosen, () => {}, () => {
    // The rounds box takes any number: one the rules refuse (1.5, -1) shows the preset's own length.
    let profile;
    try { profile = buildProfile(rules.select.value, Number(val(form, 'rounds')) || null, ''); } catch { profile = buildProfile(rules.select.value, null, ''); }
    openRules(profile.toDict());
  });
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'panel form practiceform', onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const profile = profileOf(form);
      settings.level = val(form, 'level');
      save();
      playScreen((g) => g.startPractice({ profile, level: settings.level }));
    } catch (err) { formError(form, err); }
  } }, [
    h('h2', {}, t('practice')),
    field(t('level'), h('select', { name: 'level' }, [
      h('option', { value: 'random', selected: settings.level === 'random' }, t('levelEasy')),
      h('option', { value: 'greedy', selected: settings.level === 'greedy' }, t('levelMedium')),
      h('option', { value: 'strong', selected: settings.level === 'strong' }, t('levelStrong')),
      h('option', { value: 'master', selected: settings.level === 'master' }, t('levelMaster')),
      h('option', { value: 'expert', selected: settings.level === 'expert' }, t('levelExpert'))])),
    ...rules.field,
    field(t('rounds'), h('input', { name: 'rounds', type: 'number', min: 1, max: 12, value: settings.rounds })),
    // The rules' switches are for players who know them (QA): out of the way, as in the room form,
    // and above the buttons like every option.
    h('details', { class: 'more' }, [
      h('summary', {}, t('moreOptions')),
      h('div', { class: 'moregrid' }, [
        field(t('switches'), h('textarea', { name: 'switches', rows: 2, spellcheck: 'false', placeholder: 'koikoi_multiplier=none' })),
      ]),
    ]),
    h('p', { class: 'error', role: 'alert' }),
    h('div', { class: 'choices' }, [h('button', { class: 'primary', type: 'submit' }, t('start')), h('button', { type: 'button', onclick: home }, t('back'))]),
  ]));
  screen([topBar(), form]);
  // The two seats' workers start while the person chooses: Start finds them loaded and warm.
  prepareWorkers(workerUrl, 2);
}

/** The rating service of the default relay, or "" when it has none that can be named. */
function relayService() {
  try {
    return serviceUrl(defaultRelay());
  } catch {
    return '';
  }
}

function defaultRelayOrigin() {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1`;
}

/** @param {string} code */
function joinForm(code) {
  const rooms = h('ul', { class: 'lobby rooms' });
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'panel form', onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    const c = normaliseCode(val(form, 'code'));
    if (!isWellFormedCode(c)) { /** @type {HTMLElement} */ (form.querySelector('.error')).textContent = t('badCode'); return; }
    const url = val(form, 'relay');
    playScreen((g) => g.startOnline({ action: 'join', url, code: c, password: val(form, 'password') }));
  } }, [
    h('h2', {}, t('join')),
    field(t('code'), h('input', { name: 'code', value: code, required: true, autocomplete: 'off', spellcheck: 'false', class: 'codeinput', maxlength: 9 })),
    field(t('password'), h('input', { name: 'password', type: 'password', autocomplete: 'off' })),
    field(t('relay'), h('input', { name: 'relay', value: defaultRelay(), required: true, spellcheck: 'false' })),
    nameField(), seenAs(),
    h('p', { class: 'error', role: 'alert' }),
    h('div', { class: 'choices' }, [h('button', { class: 'primary', type: 'submit' }, t('joinButton')), h('button', { type: 'button', onclick: home }, t('back'))]),
    h('h3', {}, t('lobby')), rooms,
    h('button', { type: 'button', onclick: () => refreshRooms(rooms, val(form, 'relay'), joinRoom, errorText) }, t('refresh')),
  ]));
  const joinRoom = (/** @type {string} */ c, /** @type {string} */ password) => {
    const url = val(form, 'relay');
    playScreen((g) => g.startOnline({ action: 'join', url, code: c, password }));
  };
  screen([topBar(), form]);
  refreshRooms(rooms, defaultRelay(), joinRoom, errorText);
}

/** @param {(g: Game) => void} begin */
function playScreen(begin) {
  stopGame();
  // The fragment named the room to join: it is used now, and a reload must resume instead.
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  const root = h('main', { class: 'screen play' });
  // The rules page opens over the match (a dialog of its own): the seat keeps running.
  const rules = h('button', { class: 'rulesfab', type: 'button', 'aria-label': t('rulesHelp'), title: t('rulesHelp'),
    onclick: () => openRules(game?.table?.terms?.profile ?? homeRules()) }, '?');
  app.replaceChildren(root, rules);
  game = new Game(root, {
    workerUrl, settings,
    onHome: () => { location.hash = ''; home(); },
    // The host of a match that never started opens a room with the same settings (a new code).
    onHostAgain: (o) => playScreen((g) => g.startOnline(o)),
    onReport: (bytes) => { location.hash = 'report'; reportScreen(bytes); },
  });
  begin(game);
}

/** @param {{id: string, mode: string, computer?: string}} cur */
function resumeGame(cur) {
  playScreen((g) => g.resume(cur));
}

/** @param {Uint8Array | null} bytes */
function reportScreen(bytes) {
  const root = h('div', { class: 'reportwrap' });
  screen([topBar(), root], 'report');
  openReport(root, bytes, home);
}

/** @param {{resume?: boolean}} [o] `resume: false`: the screen the address names, even with a match to continue */
function route(o = {}) {
  if (game) return; // a match in progress keeps its screen (a language change redraws on the next table)
  // An interrupted match comes first: a reload (even of a #join link) continues it.
  const cur = o.resume === false ? null : currentMatch();
  if (cur) return resumeGame(cur);
  const f = fragment();
  if (f.has('join')) return joinForm(f.get('join') ?? '');
  if (location.hash === '#report') return reportScreen(null);
  if (location.hash === '#lobby') return lobbyScreen(shell());
  if (location.hash === '#leaderboard') return leaderboard();
  if (location.hash === '#rules') { home(); openRules(homeRules()); return undefined; }
  return home();
}

// The identity's fingerprint for the settings panel, from a short-lived worker.
(() => {
  const w = newWorker(workerUrl);
  w.onmessage = (ev) => {
    if (ev.data.type === 'identity') {
      fingerprint = ev.data.fingerprint;
      refreshSeenAs();
      const fp = document.querySelector('.settings .fp') ?? null;
      if (!fp && document.querySelector('.settings')) /** @type {HTMLElement} */ (document.querySelector('.settings')).append(h('p', { class: 'muted small fp' }, t('fingerprint', { fp: fingerprint })));
      w.terminate();
    }
  };
  w.postMessage({ type: 'identity' });
})();

// The report button draws its screen at once and sets #report too; the hashchange that follows
// must not draw it again (a file chosen in between would go to the replaced input and be lost).
// A panel that says the match could not start or go on is a dead end: the browser's Back leaves
// it as its Home button does, for whatever entry Back reaches (popstate comes before hashchange,
// and alone when the two entries differ in nothing the fragment shows).
let leftDeadEnd = { href: '', at: 0 };
window.addEventListener('popstate', () => {
  if (!game?.deadEnd) return;
  game.deadEnd();
  stopGame();
  leftDeadEnd = { href: location.href, at: Date.now() };
  // Not back into the match that led here (one open in another tab stays current): Back goes
  // where Back points, and the home screen offers to continue it, as after the Home button.
  route({ resume: false });
});
window.addEventListener('hashchange', () => {
  const routed = leftDeadEnd.href === location.href && Date.now() - leftDeadEnd.at < 1000;
  leftDeadEnd = { href: '', at: 0 };
  if (routed) return;
  if (game || (location.hash === '#report' && app.querySelector('main.screen.report'))) return;
  route();
});
if ('serviceWorker' in navigator && (location.protocol === 'https:' || location.hostname === '127.0.0.1' || location.hostname === 'localhost')) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}
route();

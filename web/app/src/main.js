// The app shell: settings, the home screen, the forms (practice, create, join with the lobby),
// the play screen and the match report. The location fragment selects a screen: `#join=CODE`
// (with `&relay=URL`) opens the join form filled in, `#report` the replay view. The relay is the
// page's own origin (`koikoi relay --web`) unless the fragment or the form names another.
import { h } from './dom.js';
import { lang, setLang, t } from './i18n.js';
import { Game, currentMatch, errorText, newWorker } from './game.js';
import { PRESETS, buildProfile, cleanName } from './profiles.js';
import { RelayClient, isWellFormedCode, normaliseCode } from '../../src/net/relay_client.js';
import { openReport } from './report.js';
import { ratedTerms } from './rated.js';
import { locateService, serviceUrl } from '../../src/net/ratings.js';
import { backSvg } from './cards/art.js';
import { svg } from './dom.js';
import { exportOffered, identitySection } from './identity_panel.js';

const SETTINGS = 'koikoi.settings';
const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const workerUrl = /** @type {HTMLElement} */ (document.querySelector('meta[name="koikoi-worker"]')).getAttribute('content') ?? 'worker.js';

/** @type {{lang: 'en' | 'ja', name: string, showIds: boolean, relay: string, level: string, rules: string, rounds: number}} */
const settings = {
  lang: navigator.language?.startsWith('ja') ? 'ja' : 'en', name: '', showIds: false, relay: '', level: 'greedy', rules: 'nintendo', rounds: 1,
  ...JSON.parse(localStorage.getItem(SETTINGS) ?? '{}'),
};
setLang(settings.lang);
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
      h('select', { 'aria-label': t('language'), onchange: (/** @type {Event} */ e) => { settings.lang = /** @type {any} */ (e.target).value; save(); setLang(settings.lang); route(); } },
        [h('option', { value: 'en', selected: lang() === 'en' }, 'English'), h('option', { value: 'ja', selected: lang() === 'ja' }, '日本語')])]),
  ]);
}

function home() {
  const cur = currentMatch();
  screen([
    topBar(),
    h('header', { class: 'hero' }, [svg(backSvg(), 'heroart'), h('div', {}, [h('h1', {}, t('title')), h('p', { class: 'tagline' }, t('tagline'))])]),
    identityOffer(),
    h('div', { class: 'menu' }, [
      cur ? h('button', { class: 'primary', onclick: () => resumeGame(cur) }, t('resume')) : null,
      h('button', { class: cur ? '' : 'primary', onclick: practiceForm }, t('practice')),
      h('button', { onclick: createForm }, t('create')),
      h('button', { onclick: () => joinForm('') }, t('join')),
      h('button', { onclick: () => { location.hash = 'report'; reportScreen(null); } }, t('replay')),
    ]),
    settingsPanel(),
    h('p', { class: 'muted small' }, `${t('offline')} ${t('installHint')}`),
  ], 'home');
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

function rulesSelect() {
  return h('select', { name: 'rules' }, PRESETS.map((p) => h('option', { value: p, selected: p === settings.rules }, p)));
}

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
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'panel form', onsubmit: (/** @type {Event} */ e) => {
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
      h('option', { value: 'master', selected: settings.level === 'master' }, t('levelMaster'))])),
    field(t('rules'), rulesSelect()),
    field(t('rounds'), h('input', { name: 'rounds', type: 'number', min: 1, max: 12, value: settings.rounds })),
    field(t('switches'), h('textarea', { name: 'switches', rows: 2, spellcheck: 'false', placeholder: 'koikoi_multiplier=none' })),
    h('p', { class: 'error', role: 'alert' }),
    h('div', { class: 'choices' }, [h('button', { class: 'primary', type: 'submit' }, t('start')), h('button', { type: 'button', onclick: home }, t('back'))]),
  ]));
  screen([topBar(), form]);
}

function createForm() {
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'panel form', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const profile = profileOf(form);
      const url = val(form, 'relay');
      const checked = /** @type {HTMLInputElement} */ (form.elements.namedItem('rated')).checked;
      // No service typed: the one the relay points to, else the relay's own (spec/ratings.md §2.1).
      let typed = val(form, 'ratings');
      if (checked && !typed.trim()) typed = await locateService(url).catch(() => '');
      settings.relay = url === defaultRelayOrigin() ? '' : url;
      save();
      const deadlines = { turn: Number(val(form, 'turn')) || 300, step: Number(val(form, 'step')) || 60 };
      const pub = val(form, 'visibility') === 'public';
      const password = val(form, 'password');
      const rated = ratedTerms(checked, typed, url);
      playScreen((g) => g.startOnline({ action: 'host', url, public: pub, password, profile, deadlines, ...rated }));
    } catch (err) { formError(form, err); }
  } }, [
    h('h2', {}, t('create')),
    field(t('relay'), h('input', { name: 'relay', value: defaultRelay(), required: true, spellcheck: 'false' })),
    field(t('visibility'), h('select', { name: 'visibility' }, [h('option', { value: 'private' }, t('private')), h('option', { value: 'public' }, t('public'))])),
    field(t('rules'), rulesSelect()),
    field(t('rounds'), h('input', { name: 'rounds', type: 'number', min: 1, max: 12, value: settings.rounds })),
    field(t('switches'), h('textarea', { name: 'switches', rows: 2, spellcheck: 'false', placeholder: 'first_dealer=coin' })),
    field(t('turnDeadline'), h('input', { name: 'turn', type: 'number', min: 10, max: 86400, value: 300 })),
    field(t('stepDeadline'), h('input', { name: 'step', type: 'number', min: 10, max: 600, value: 60 })),
    field(t('password'), h('input', { name: 'password', type: 'password', autocomplete: 'off' })),
    h('label', { class: 'check' }, [h('input', { name: 'rated', type: 'checkbox', onchange: showRelayService }), t('rated')]),
    // Empty: the relay's own service, shown as the placeholder (spec/ratings.md §2.1).
    field(t('ratings'), h('input', { name: 'ratings', type: 'url', spellcheck: 'false', placeholder: relayService() })),
    nameField(), seenAs(),
    h('p', { class: 'error', role: 'alert' }),
    h('div', { class: 'choices' }, [h('button', { class: 'primary', type: 'submit' }, t('createButton')), h('button', { type: 'button', onclick: home }, t('back'))]),
  ]));
  screen([topBar(), form]);
}

/**
 * When "rated" is ticked, the service field's placeholder names the service the relay points to
 * (asked only then: a relay without one answers 404).
 * @param {Event} e
 */
function showRelayService(e) {
  const box = /** @type {HTMLInputElement} */ (e.target);
  const form = box.form;
  if (!box.checked || !form) return;
  locateService(val(form, 'relay')).then((found) => {
    const input = /** @type {HTMLInputElement | null} */ (form.elements.namedItem('ratings'));
    if (input) input.placeholder = found;
  }, () => {});
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
  const lobby = h('ul', { class: 'lobby' });
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
    h('h3', {}, t('lobby')), lobby,
    h('button', { type: 'button', onclick: () => refreshLobby(lobby, val(form, 'relay'), form) }, t('refresh')),
  ]));
  screen([topBar(), form]);
  refreshLobby(lobby, defaultRelay(), form);
}

/** @param {HTMLElement} list @param {string} url @param {HTMLFormElement} form */
async function refreshLobby(list, url, form) {
  try {
    const rooms = (await RelayClient.lobby(url)).filter((r) => !r.meta || !('rejoin' in r.meta));
    list.replaceChildren(...(rooms.length ? rooms.map((r) => h('li', {}, [h('button', { type: 'button', onclick: () => {
      /** @type {HTMLInputElement} */ (form.elements.namedItem('code')).value = r.code;
    } }, `${r.code} — ${String(r.meta?.rules ?? '')}`)])) : [h('li', { class: 'muted' }, t('noRooms'))]));
  } catch (e) {
    list.replaceChildren(h('li', { class: 'muted' }, errorText(/** @type {any} */ (e).reason ?? 'unreachable', url)));
  }
}

/** @param {(g: Game) => void} begin */
function playScreen(begin) {
  stopGame();
  // The fragment named the room to join: it is used now, and a reload must resume instead.
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  const root = h('main', { class: 'screen play' });
  app.replaceChildren(root);
  game = new Game(root, {
    workerUrl, settings,
    onHome: () => { location.hash = ''; home(); },
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
  openReport(root, bytes);
}

function route() {
  if (game) return; // a match in progress keeps its screen (a language change redraws on the next table)
  // An interrupted match comes first: a reload (even of a #join link) continues it.
  const cur = currentMatch();
  if (cur) return resumeGame(cur);
  const f = fragment();
  if (f.has('join')) return joinForm(f.get('join') ?? '');
  if (location.hash === '#report') return reportScreen(null);
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
window.addEventListener('hashchange', () => {
  if (game || (location.hash === '#report' && app.querySelector('main.screen.report'))) return;
  route();
});
if ('serviceWorker' in navigator && (location.protocol === 'https:' || location.hostname === '127.0.0.1' || location.hostname === 'localhost')) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}
route();

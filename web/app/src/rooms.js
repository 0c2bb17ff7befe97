// Creating a room, as a player thinks of it: the rules by the name of what plays them (one plain
// sentence under the choice), the match length as the sources play it, public or private, a password, rated
// or not. Everything an engineer might want (switches, deadlines, the relay, the rating service,
// another length) waits under "More options". What the host publishes in the lobby is the
// room's listing (spec/relay.md §4.2); what the joiner signs is the terms, shown before it plays.
import { h } from './dom.js';
import { t } from './i18n.js';
import { tn } from './words.js';
import { PRESETS, buildProfile, presetSentence, presetShort } from './profiles.js';

export { PRESET_TEXT, presetSentence, presetShort } from './profiles.js';
import { ratedTerms } from './rated.js';
import { findService } from '../../src/api/match.js';
import { differences } from '../../src/api/rules.js';
import { Profile, preset, withRounds } from '../../src/api/rules.js';

/** The match lengths each preset's source plays, its own default first (0: to a target score). */
export const LENGTHS = /** @type {{[name: string]: number[]}} */ ({
  nintendo: [12, 6], 'koikoi-online': [12, 6], 'teaching-card': [12, 6], wikipedia: [12, 6], 'board-game': [12, 6, 3], 'classic-variant': [0],
  'koikoi-japan': [8],
});

/** "12 rounds (a whole year of months)", "until 50 points". @param {number} n @param {number} target */
export function lengthText(n, target) {
  if (n === 0) return tn('roundsUntil', target);
  if (n === 12) return t('rounds12');
  if (n === 6) return t('rounds6');
  if (n === 3) return t('rounds3');
  if (n === 1) return t('rounds1');
  return tn('roundsN', n);
}

/**
 * What the lobby shows of this room (spec/relay.md §4.2): built from the profile and the form,
 * never the password itself.
 * @param {any} profile a profile in its JSON form @param {{name: string, fingerprint: string, rated: boolean, password: boolean, turn: number}} o
 */
export function roomListing(profile, o) {
  let custom = true;
  try {
    const base = withRounds(preset(profile.name), profile.rounds);
    custom = Object.keys(differences(Profile.fromDict(profile), base)).length > 0;
  } catch { /* not a preset: custom */ }
  /** @type {{[key: string]: unknown}} */
  const listing = {
    rules: profile.name, custom, rounds: profile.rounds, target: profile.target_score, rated: o.rated, password: o.password,
    turn: Math.max(0, Math.min(86400, Math.round(o.turn))),
  };
  if (o.name) listing.name = o.name;
  if (/^[a-z2-7]{4}-[a-z2-7]{4}/.test(o.fingerprint)) listing.fp = o.fingerprint.slice(0, 9);
  return listing;
}

/**
 * @typedef {object} RoomsContext what the shell (main.js) lends the form
 * @property {any} settings @property {() => void} save
 * @property {(children: HTMLElement[], cls?: string) => void} screen @property {() => HTMLElement} topBar
 * @property {() => HTMLElement} nameField @property {() => HTMLElement} seenAs
 * @property {() => string} defaultRelay @property {() => string} defaultRelayOrigin @property {() => string} relayService
 * @property {() => string} fingerprint @property {() => void} home
 * @property {(begin: (g: any) => void) => void} playScreen
 * @property {(profile: any) => void} showRules
 */

/** @param {HTMLFormElement} form @param {string} name */
const val = (form, name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
/** @param {string} label @param {HTMLElement} control @param {string} [cls] */
const field = (label, control, cls) => h('label', { class: cls }, [label, control]);

/**
 * A form's rules field: the presets by their names, and under it, once, the chosen one's sentence
 * (what plays it) with a link to its whole rules (QA: each choice repeated the sentence shown
 * beneath it, which a phone cut short anyway).
 * @param {string} chosen a preset @param {(name: string) => void} changed @param {() => void} showRules
 * @returns {{select: HTMLSelectElement, field: HTMLElement[]}}
 */
export function rulesChooser(chosen, changed, showRules) {
  const line = h('span', { class: 'presetline', id: 'presetline' }, presetSentence(chosen));
  const select = /** @type {HTMLSelectElement} */ (h('select', { name: 'rules', 'aria-describedby': 'presetline', onchange: () => {
    line.textContent = presetSentence(select.value);
    changed(select.value);
  } }, PRESETS.map((p) => h('option', { value: p, selected: p === chosen }, presetShort(p)))));
  return { select, field: [
    field(t('rules'), select),
    h('p', { class: 'muted small rulesrow' }, [line, ' ', h('button', { type: 'button', class: 'linkish', onclick: showRules }, t('seeRules'))]),
  ] };
}

/** The create-room form. @param {RoomsContext} ctx */
export function createForm(ctx) {
  const { settings } = ctx;
  const chosen = PRESETS.includes(settings.rules) ? settings.rules : 'nintendo';
  const rounds = /** @type {HTMLSelectElement} */ (h('select', { name: 'rounds' }));
  const fillRounds = (/** @type {string} */ name) => {
    const lengths = LENGTHS[name] ?? [preset(name).rounds];
    const target = preset(name).toDict().target_score;
    rounds.replaceChildren(...lengths.map((n, i) => h('option', { value: n, selected: i === 0 }, lengthText(n, target))));
  };
  fillRounds(chosen);
  const { select: rules, field: rulesField } = rulesChooser(chosen, fillRounds, () => {
    try { ctx.showRules(buildProfile(rules.value, Number(rounds.value) || null, '').toDict()); } catch { /* a preset always builds */ }
  });
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'panel form createroom', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const error = /** @type {HTMLElement} */ (form.querySelector('.error'));
    try {
      const other = Number(val(form, 'otherrounds')) || 0;
      const length = other > 0 ? other : Number(val(form, 'rounds'));
      const profile = buildProfile(val(form, 'rules'), length || null, val(form, 'switches') ?? '').toDict();
      settings.rules = val(form, 'rules');
      const url = val(form, 'relay');
      settings.relay = url === ctx.defaultRelayOrigin() ? '' : url;
      ctx.save();
      const deadlines = { turn: Number(val(form, 'turn')) || 300, step: Number(val(form, 'step')) || 60 };
      const pub = /** @type {HTMLInputElement} */ (form.querySelector('input[name="visibility"]:checked')).value === 'public';
      const password = val(form, 'password');
      const checked = /** @type {HTMLInputElement} */ (form.elements.namedItem('rated')).checked;
      // No service typed: the one the relay points to (spec/ratings.md §2.1). None answering, the
      // page says so rather than propose a rated match whose result could go nowhere.
      let typed = val(form, 'ratings');
      if (checked && !typed.trim()) {
        /** @type {string | null | undefined} */
        let found;
        try {
          found = await findService(url);
        } catch {
          found = undefined; // not a relay's URL: ratedTerms below says so
        }
        if (found === null) {
          error.textContent = t('noRatingService');
          return;
        }
        typed = found ?? '';
      }
      const rated = ratedTerms(checked, typed, url);
      const listing = pub ? roomListing(profile, { name: settings.name, fingerprint: ctx.fingerprint(), rated: rated.rated, password: !!password, turn: deadlines.turn }) : null;
      ctx.playScreen((g) => g.startOnline({ action: 'host', url, public: pub, password, profile, deadlines, listing, ...rated }));
    } catch (err) {
      error.textContent = t('errorGeneric', { reason: String(/** @type {any} */ (err)?.message ?? err) });
    }
  } }, [
    h('h2', {}, t('create')),
    ...rulesField,
    field(t('rounds'), rounds),
    h('fieldset', { class: 'visibility' }, [
      h('legend', {}, t('visibility')),
      h('label', { class: 'check' }, [h('input', { type: 'radio', name: 'visibility', value: 'private', checked: true }), t('private')]),
      h('label', { class: 'check' }, [h('input', { type: 'radio', name: 'visibility', value: 'public' }), t('public')]),
    ]),
    field(t('passwordShort'), h('input', { name: 'password', type: 'password', autocomplete: 'off', 'aria-describedby': 'pwhint' })),
    h('p', { class: 'muted small hint', id: 'pwhint' }, t('passwordHint')),
    h('label', { class: 'check' }, [h('input', { name: 'rated', type: 'checkbox' }), t('ratedShort')]),
    h('details', { class: 'more' }, [
      h('summary', {}, t('moreOptions')),
      h('div', { class: 'moregrid' }, [
        field(t('otherRounds'), h('input', { name: 'otherrounds', type: 'number', min: 1, max: 100, inputmode: 'numeric' })),
        field(t('switches'), h('textarea', { name: 'switches', rows: 2, spellcheck: 'false', placeholder: 'first_dealer=coin' })),
        field(t('turnDeadline'), h('input', { name: 'turn', type: 'number', min: 10, max: 86400, value: 300 })),
        field(t('stepDeadline'), h('input', { name: 'step', type: 'number', min: 10, max: 600, value: 60 })),
        field(t('relay'), h('input', { name: 'relay', value: ctx.defaultRelay(), required: true, spellcheck: 'false' })),
        // Empty: the relay's own service, shown as the placeholder (spec/ratings.md §2.1).
        field(t('ratingsUrl'), h('input', { name: 'ratings', type: 'url', spellcheck: 'false', placeholder: ctx.relayService() })),
        ctx.nameField(), ctx.seenAs(),
      ]),
    ]),
    // Every option above the buttons (QA: More options sat below Create).
    h('p', { class: 'error', role: 'alert' }),
    h('div', { class: 'choices' }, [h('button', { class: 'primary', type: 'submit' }, t('createButton')), h('button', { type: 'button', onclick: ctx.home }, t('back'))]),
  ]));
  ctx.screen([ctx.topBar(), form]);
}

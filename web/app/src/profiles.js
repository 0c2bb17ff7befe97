// Rule profiles for the forms and the terms dialog: the presets of spec/rules.md §3.4 (the
// seventh, koikoi-japan, included) by their names in the page's language, switches changed as
// NAME=VALUE text (the rules engine parses and checks them), and a profile described as the preset
// it is, or "custom, based on X: what it changes" in words (spec/rules.md §3.8), never a switch's
// or a value's id.
import { PRESETS, Profile, preset, withRounds } from '../../src/api/rules.js';
import { differences, nearestPreset, withSwitchText } from '../../src/api/rules.js';
import { t } from './i18n.js';
import { listed, switchValue } from './words.js';

export { PRESETS };

/** The sentence and short name of each preset (i18n keys). */
export const PRESET_TEXT = /** @type {const} */ ({
  nintendo: ['presetNintendo', 'shortNintendo'],
  'koikoi-online': ['presetKoikoiOnline', 'shortKoikoiOnline'],
  'teaching-card': ['presetTeachingCard', 'shortTeachingCard'],
  wikipedia: ['presetWikipedia', 'shortWikipedia'],
  'board-game': ['presetBoardGame', 'shortBoardGame'],
  'classic-variant': ['presetClassicVariant', 'shortClassicVariant'],
  'koikoi-japan': ['presetKoikoiJapan', 'shortKoikoiJapan'],
});

/** A preset's short name in the page's language (the preset id for one this app does not know). @param {string} name */
export function presetShort(name) {
  const keys = /** @type {any} */ (PRESET_TEXT)[name];
  return keys ? t(keys[1]) : name;
}

/** A preset in one plain sentence. @param {string} name */
export function presetSentence(name) {
  const keys = /** @type {any} */ (PRESET_TEXT)[name];
  return keys ? t(keys[0]) : name;
}

/**
 * The profile a form describes; raises the engine's RulesError with its reason on a bad switch.
 * @param {string} name a preset @param {number | null} rounds @param {string} switchText lines of NAME=VALUE
 * @returns {Profile}
 */
export function buildProfile(name, rounds, switchText) {
  let p = preset(name);
  for (const raw of switchText.split(/\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw Object.assign(new Error(`not NAME=VALUE: ${line}`), { reason: 'bad_switch' });
    p = withSwitchText(p, line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  if (rounds) p = withRounds(p, rounds);
  return p;
}

/** A switch and its value in words, as the rules page says them ("Koi-koi multiplier: none"). @param {string} name @param {unknown} value */
function switchWords(name, value) {
  const key = `sw_${name}`;
  const what = t(key) === key ? t('svUnknown') : t(key);
  return t('switchIs', { what, value: switchValue(name, value) });
}

/**
 * A profile for the terms dialog: its preset's name, or "custom, based on X: ..." with each
 * changed switch in words (the length is said beside it, so a preset with another length is
 * still that preset).
 * @param {any} dict a profile in its JSON form
 */
export function profileText(dict) {
  const p = Profile.fromDict(dict);
  if (PRESETS.includes(p.name)) {
    const diff = differences(p, preset(p.name));
    const keys = Object.keys(diff).filter((k) => k !== 'rounds');
    if (!keys.length) return presetShort(p.name);
  }
  const base = nearestPreset(p);
  const changed = Object.keys(differences(p, preset(base))).filter((k) => k !== 'rounds');
  if (!changed.length) return presetShort(base);
  const mine = /** @type {any} */ (p.allSwitches());
  return t('basedOn', { base: presetShort(base), changes: listed(changed.map((name) => switchWords(name, mine[name]))) });
}

/**
 * A display name as the protocol takes it (spec/protocol.md §5.1): NFC, without control, format
 * or line separator characters, no spaces at either end, at most 32 characters ("" for none).
 * @param {string} raw
 */
export function cleanName(raw) {
  const points = [...raw.normalize('NFC').replace(/[\p{C}\p{Zl}\p{Zp}]/gu, '').trim()].slice(0, 32);
  return points.join('').replace(/^\p{Zs}+|\p{Zs}+$/gu, '');
}

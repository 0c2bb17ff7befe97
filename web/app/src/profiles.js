// Rule profiles for the forms and the terms dialog: the presets of spec/rules.md §3.4 (the
// seventh, koikoi-japan, included), switches changed as NAME=VALUE text (the rules engine parses
// and checks them), and a profile described as the preset it is, or "custom, based on X:
// switch=value ..." (spec/rules.md §3.8).
import { PRESETS, Profile, preset, withRounds } from '../../src/api/rules.js';
import { differences, nearestPreset, withSwitchText } from '../../src/api/rules.js';
import { t } from './i18n.js';

export { PRESETS };

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

/** @param {any} dict a profile in its JSON form */
export function profileText(dict) {
  const p = Profile.fromDict(dict);
  if (PRESETS.includes(p.name)) {
    const diff = differences(p, preset(p.name));
    const keys = Object.keys(diff).filter((k) => k !== 'rounds');
    if (!keys.length) return p.name;
  }
  const base = nearestPreset(p);
  const diff = differences(p, preset(base));
  return t('basedOn', { base, changes: Object.entries(diff).map(([k, v]) => `${k}=${v}`).join(', ') });
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

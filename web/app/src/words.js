// Words a player reads instead of codes: every reason a match can stop or a request fail for (the
// reasons of spec/game.md §9, spec/protocol.md §2.4 and §12, the relay's refusals and the page's
// own; the catalogue's context "reason", web/app/messages.en.json), never the reason's id; and the
// value of every rules switch (spec/rules.md §3.2) as a player reads it, meaning what koikoi rules
// says of it (koikoi_p2p/rules/describe.py). Counts (tn) follow the catalogue's plural rule (i18n.js).
import { cardName, messageKeys, reasonMessage, t, tn, yakuName } from './i18n.js';
import { ALL_SWITCHES, CARDS, HAND_YAKU_IDS } from '../../src/api/rules.js';

export { tn };

/** Every reason the page has words for, per language (for the completeness test). */
export function reasonIds() {
  const keys = messageKeys();
  return Object.fromEntries(Object.entries(keys).map(([l, sections]) => [l, sections.reason ?? []]));
}

/**
 * A reason in the player's words (the catalogue's context "reason"). An unknown one (a newer
 * peer's) gets a general sentence: the id stays out of the text (the dialog keeps it in an
 * attribute for a bug report).
 * @param {string} reason
 */
export function reasonText(reason) {
  return reasonMessage(reason) ?? t('reasonUnknown');
}

/** A list in the language's way ("a, b, c"; 「a、b、c」). @param {string[]} items */
export function listed(items) {
  return items.reduce((a, b) => t('svList', { a, b }));
}

/** A card's name from its id (spec/rules.md §2). @param {string} id */
function cardWords(id) {
  const c = CARDS.find((x) => x.id === id);
  return c ? cardName(c.index) : t('svUnknown');
}

/** Points, or `zero` for 0 (a switch whose 0 means "none"). @param {number} n @param {string} zero */
const pointsOr = (n, zero) => (n === 0 ? zero : tn('pointsN', n));

/**
 * A switch's value in the player's words (spec/rules.md §3.2), never its id: the rules page's
 * list of what a profile changes from Nintendo's rules. A value this page has no words for (a
 * newer peer's) reads as such.
 * @param {string} name a switch @param {unknown} value its JSON form
 */
export function switchValue(name, value) {
  const sw = ALL_SWITCHES.find((s) => s.name === name);
  if (!sw) return t('svUnknown');
  const n = typeof value === 'number' ? value : NaN;
  switch (name) {
    case 'rounds': return n === 0 ? t('svRoundsUntilTarget') : tn('svRoundsN', n);
    case 'max_calls_per_round': return n === 0 ? t('svCallsAny') : tn('svCallsN', n);
    case 'double_threshold': return pointsOr(n, t('svNever'));
    case 'monthly_yaku_points': case 'target_score': return pointsOr(n, t('svNone'));
    case 'pool_start': return pointsOr(n, t('svPoolNone'));
    case 'oya_ken_points': return tn('pointsN', n);
    case 'bright_values': {
      const ids = ['goko', 'shiko', 'ame_shiko', 'sanko'];
      return listed(/** @type {number[]} */ (value).map((v, i) => t('svYakuPoints', { yaku: yakuName(ids[i]), points: tn('pointsN', v) })));
    }
    case 'hand_yaku': {
      const hy = /** @type {Record<string, number>} */ (value);
      const ids = HAND_YAKU_IDS.filter((id) => Object.hasOwn(hy, id));
      return ids.length === 0 ? t('svNone') : listed(ids.map((id) => t('svYakuPoints', { yaku: yakuName(id), points: tn('pointsN', hy[id]) })));
    }
    case 'joker_card': return value === '' ? t('svNone') : cardWords(String(value));
    case 'hanami_cancelled_by': case 'tsukimi_cancelled_by': {
      const ids = /** @type {string[]} */ (value);
      return ids.length === 0 ? t('svNone') : listed(ids.map(cardWords));
    }
    case 'ribbon_pair':
      return String(value) in { chofuku_10: 1, separate_5_5: 1 }
        ? t(/** @type {any} */ (`sv_ribbon_pair_${value}`), { both: yakuName('akatan_aotan'), a: yakuName('akatan'), b: yakuName('aotan') })
        : t('svUnknown');
    default:
      break;
  }
  if (sw.kind === 'bool') return t(value ? 'yes' : 'no');
  if (sw.kind === 'enum' && sw.choices?.includes(String(value))) {
    const key = `sv_${name}_${value}`;
    const text = t(/** @type {any} */ (key));
    if (text !== key) return text;
  }
  return t('svUnknown');
}

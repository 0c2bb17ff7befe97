// The rules page: a room's rules as a player reads them, over whatever screen is open (a modal
// dialog of its own, so a match underneath keeps running in its worker and its board stays
// drawn). The yaku table with the cards drawn, points and how they grow, stopping and koi-koi,
// doubling and pools, what the profile changes from Nintendo's rules, a short how to play, and
// what the security code and the password protect against. All of it is read from the profile.
import { h } from './dom.js';
import { cardName, t, yakuName } from './i18n.js';
import { cardEl } from './board.js';
import { PRESETS, Profile, preset, withRounds } from '../../src/api/rules.js';
import { CARDS } from '../../src/api/rules.js';
import { differences } from '../../src/api/rules.js';
import { switchValue, tn } from './words.js';
import { lengthText, presetShort } from './rooms.js';

const idx = (/** @type {string} */ id) => CARDS.findIndex((c) => c.id === id);
const of = (/** @type {string} */ kind, /** @type {number} */ n) => CARDS.filter((c) => c.kind === kind).slice(0, n).map((c) => c.index);

/** The cards drawn beside each yaku: the set itself, or an example of it. */
export const YAKU_CARDS = /** @type {{[id: string]: number[]}} */ ({
  goko: [0, 8, 28, 40, 44], shiko: [0, 8, 28, 44], ame_shiko: [40, 0, 8, 28], sanko: [0, 8, 28],
  hanami: [8, 32], tsukimi: [28, 32], inoshikacho: [24, 36, 20], akatan: [1, 5, 9], aotan: [21, 33, 37],
  akatan_aotan: [1, 5, 9, 21, 33, 37], tane: of('animal', 5), tan: [1, 13, 17, 25, 42], kasu: of('plain', 10),
  tsukifuda: [0, 1, 2, 3], teshi: [0, 1, 2, 3], kuttsuki: [0, 1, 4, 5, 8, 9, 12, 13], tenho: [0, 1, 2, 3],
  double_tenho: [0, 1, 2, 3, 4, 5, 6, 7], oya_ken: [],
});

/**
 * The yaku rows of a profile: id, points text, rule text, notes.
 * @param {any} d a profile's switches (JSON form) @returns {{id: string, points: string, rule: string, notes: string[]}[]}
 */
export function yakuRows(d) {
  const [goko, shiko, ame, sanko] = d.bright_values;
  const grow = (/** @type {number} */ n) => t(d.named_extension ? 'yakuGrows' : 'yakuFixed', { n });
  const fixed = (/** @type {number} */ n) => t('yakuFixed', { n });
  const brightNote = d.brights_add ? [] : [t('yaBrightsHighest')];
  /** @type {{id: string, points: string, rule: string, notes: string[]}[]} */
  const rows = [
    { id: 'goko', points: fixed(goko), rule: t('yr_goko'), notes: [] },
    { id: 'shiko', points: fixed(shiko), rule: t('yr_shiko'), notes: [] },
    { id: 'ame_shiko', points: fixed(ame), rule: t('yr_ame_shiko'), notes: [] },
    { id: 'sanko', points: fixed(sanko), rule: t(d.sanko_with_rain ? 'yr_sanko_rain' : 'yr_sanko'), notes: brightNote },
  ];
  if (d.viewing !== 'off') {
    const notes = d.viewing === 'bonus_only' ? [t('yaBonusOnly')] : [];
    // spec/rules.md §6.4 viewing_by_call: 1 point, 3 once the holder has called koi-koi in the round.
    const view = d.viewing_by_call ? t('yakuByCall', { n: 1, m: 3 }) : fixed(5);
    rows.push({ id: 'hanami', points: view, rule: t('yr_hanami'), notes }, { id: 'tsukimi', points: view, rule: t('yr_tsukimi'), notes });
  }
  rows.push({ id: 'inoshikacho', points: grow(5), rule: t('yr_inoshikacho'), notes: [] });
  rows.push({ id: 'akatan', points: grow(5), rule: t('yr_akatan'), notes: [] }, { id: 'aotan', points: grow(5), rule: t('yr_aotan'), notes: [] });
  if (d.ribbon_pair === 'chofuku_10') rows.push({ id: 'akatan_aotan', points: grow(10), rule: t('yr_akatan_aotan'), notes: [] });
  else if (d.akatan_aotan_on_top) rows.push({ id: 'akatan_aotan', points: grow(10), rule: t('yr_akatan_aotan_top'), notes: [] });
  const joker = d.joker_card && idx(d.joker_card) >= 0 ? [t('yaJoker', { card: cardName(idx(d.joker_card)) })] : [];
  rows.push({ id: 'tane', points: t('yakuGrows', { n: 1 }), rule: t('yr_tane'), notes: [...(d.tane_with_inoshikacho ? [] : [t('yaNotBesideIno')]), ...joker] });
  rows.push({ id: 'tan', points: t('yakuGrows', { n: 1 }), rule: t('yr_tan'), notes: d.tan_with_ribbon_yaku ? [] : [t('yaNotBesideRibbons')] });
  rows.push({ id: 'kasu', points: t('yakuGrows', { n: 1 }), rule: t('yr_kasu'), notes: d.cup_is_plain ? [t('yaCupPlain')] : [] });
  if (d.monthly_yaku_points) rows.push({ id: 'tsukifuda', points: fixed(d.monthly_yaku_points), rule: t('yr_tsukifuda'), notes: [] });
  for (const [id, n] of Object.entries(d.hand_yaku ?? {})) {
    rows.push({ id, points: fixed(Number(n)), rule: t(/** @type {any} */ (`yr_${id}`)), notes: [t('yaEndsRound')] });
  }
  if (d.exhaustion !== 'draw') rows.push({ id: 'oya_ken', points: fixed(d.oya_ken_points), rule: t('yr_oya_ken'), notes: [] });
  return rows;
}

/** The sentences of stopping and koi-koi. @param {any} d */
function koikoiLines(d) {
  const calls = d.max_calls_per_round === 0 ? t('callsAny') : d.max_calls_per_round === 1 ? t('callsOne') : tn('callsN', d.max_calls_per_round);
  const mult = { opponent_flat_x2: 'multOpponent', shared_one_plus_calls: 'multShared', winner_pow2: 'multPow2', none: 'multNone' }[/** @type {string} */ (d.koikoi_multiplier)] ?? 'multNone';
  // With the winner's additive bonus (§7.5) and no multiplier, the bonus line says what calls do.
  const plain = mult === 'multNone' && d.koikoi_bonus === 'winner_add';
  const lines = [t('stopRule'), t(d.after_call === 'shobu_only' ? 'koikoiShobu' : 'koikoiNext'), calls, ...(plain ? [] : [t(/** @type {any} */ (mult))])];
  // spec/rules.md §9.4: a decision that offers only Stop.
  if (d.stop_on_own_last_turn) lines.push(t('ownLastTurnStop'));
  else if (d.last_turn_stop_only) lines.push(t('lastTurnStop'));
  // spec/rules.md §7.3 and §7.5: a losing caller pays more; the winner's own calls add.
  if (d.caller_pays_more === 'times_calls') lines.push(t('payTimesCalls'));
  else if (d.caller_pays_more === 'doubled_per_call') lines.push(t('payDoubled'));
  if (d.koikoi_bonus === 'winner_add') lines.push(t('multOwnAdd'));
  return lines;
}

/** The sentences of doubling, pools, the end of a match and of a round with no stop. @param {any} d */
function scoreLines(d) {
  const out = [d.double_threshold ? tn('doubleAt', d.double_threshold) : t('doubleNone')];
  // spec/rules.md §6.9: single_yaku, in either reading.
  if (d.single_yaku) out.push(t(d.single_yaku_scope === 'extensions' ? 'singleYakuExt' : 'singleYakuPile'));
  if (d.hand_whole_month === 'redeal') out.push(t('handMonthRedeal'));
  if (d.pool_start) {
    out.push(tn('poolRule', d.pool_start));
    if (d.bust_ends_game) out.push(t('poolBust'));
  } else {
    out.push(t('addRule'));
  }
  if (d.rounds) out.push(d.rounds === 1 ? t('endRound1') : tn('endRounds', d.rounds));
  if (d.target_score) out.push(tn('endTarget', d.target_score));
  const ex = { draw: t('exhaustDraw'), oya_ken: t('exhaustOya', { n: d.oya_ken_points }), last_caller_scores_else_oya_ken: t('exhaustCaller', { n: d.oya_ken_points }) };
  out.push(/** @type {any} */ (ex)[d.exhaustion] ?? '');
  return out;
}

/**
 * What the profile changes from Nintendo's rules: one line per switch, its name and both values
 * in words (words.js switchValue), never a switch's or a value's id.
 * @param {Profile} p @returns {string[]}
 */
export function changeLines(p) {
  const nintendo = /** @type {any} */ (preset('nintendo').allSwitches());
  const mine = /** @type {any} */ (p.allSwitches());
  return Object.keys(differences(p, preset('nintendo'))).map((name) => {
    const key = /** @type {any} */ (`sw_${name}`);
    const what = t(key) === key ? t('svUnknown') : t(key);
    return t('changeLine', { what, value: switchValue(name, mine[name]), nintendo: switchValue(name, nintendo[name]) });
  });
}

/**
 * The page's sentences of stopping and koi-koi, then of doubling and scores (for its tests too).
 * @param {any} d a profile's switches (JSON form) @returns {string[]}
 */
export function rulesLines(d) {
  return [...koikoiLines(d), ...scoreLines(d)];
}

/** A small table of the yaku, each with its cards drawn. @param {any} d */
function yakuTable(d) {
  return h('table', { class: 'yakutable' }, [
    h('thead', {}, [h('tr', {}, [h('th', { scope: 'col' }, t('yakuRuleCol')), h('th', { scope: 'col' }, t('yakuCards')), h('th', { scope: 'col' }, t('yakuPointsCol'))])]),
    h('tbody', {}, yakuRows(d).map((r) => h('tr', { dataset: { yaku: r.id } }, [
      h('th', { scope: 'row' }, [h('strong', {}, yakuName(r.id)), h('br'), h('span', { class: 'small' }, r.rule),
        ...r.notes.map((n) => h('span', { class: 'small note' }, ` (${n})`))]),
      h('td', {}, h('div', { class: 'yakucards' }, (YAKU_CARDS[r.id] ?? []).map((c) => cardEl(c, { cls: 'small' })))),
      h('td', { class: 'pts' }, r.points),
    ]))),
  ]);
}

/**
 * The page's content for a profile (JSON form).
 * @param {any} dict @param {(dict: any) => void} reshow draws the page again for another preset
 */
export function rulesContent(dict, reshow, room = dict) {
  const p = Profile.fromDict(dict);
  const d = /** @type {any} */ (p.allSwitches());
  const changes = changeLines(p);
  let custom = true;
  try { custom = Object.keys(differences(p, withRounds(preset(d.name), d.rounds))).length > 0; } catch { /* no preset */ }
  const chooser = h('select', { onchange: (/** @type {Event} */ e) => {
    const name = /** @type {HTMLSelectElement} */ (e.target).value;
    reshow(name === '' ? room : preset(name).toDict());
  } }, [
    custom ? h('option', { value: '', selected: true }, t('roomRules')) : null,
    ...PRESETS.map((name) => h('option', { value: name, selected: !custom && name === d.name }, presetShort(name))),
  ]);
  return [
    h('div', { class: 'rulestop' }, [
      h('h2', { id: 'rules-title' }, t('rulesTitle', { rules: `${custom ? t('lobbyChanged', { rules: presetShort(d.name) }) : presetShort(d.name)}, ${lengthText(d.rounds, d.target_score)}` })),
      h('label', { class: 'lang' }, [t('rulesChoose'), ' ', chooser]),
    ]),
    h('section', {}, [h('h3', {}, t('yakuHeading')), yakuTable(d)]),
    h('section', {}, [h('h3', {}, t('stopKoikoi')), ...koikoiLines(d).map((l) => h('p', {}, l))]),
    h('section', {}, [h('h3', {}, t('doublingPools')), ...scoreLines(d).map((l) => h('p', {}, l))]),
    h('section', {}, [h('h3', {}, t('changesHeading')),
      changes.length ? h('ul', { class: 'changes' }, changes.map((l) => h('li', {}, l))) : h('p', {}, t('changesNone'))]),
    h('section', {}, [h('h3', {}, t('howToPlay')), ...['howTo1', 'howTo2', 'howTo3', 'howTo4'].map((k) => h('p', {}, t(/** @type {any} */ (k))))]),
    h('section', {}, [h('h3', {}, t('securityHeading')), ...['security1', 'security2', 'security3'].map((k) => h('p', {}, t(/** @type {any} */ (k))))]),
  ];
}

/**
 * Open the rules page over the current screen; closing it returns to exactly where the player
 * was (a match keeps running underneath).
 * @param {any} dict a profile in its JSON form
 */
export function openRules(dict) {
  document.querySelector('dialog.rulespage')?.remove();
  const body = h('div', { class: 'rulesbody' });
  const dialog = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'rulespage', 'aria-labelledby': 'rules-title' }, [
    h('div', { class: 'rulesclose' }, [h('button', { type: 'button', class: 'primary', onclick: () => { dialog.close(); dialog.remove(); } }, t('close'))]),
    body,
  ]));
  const show = (/** @type {any} */ d) => { body.replaceChildren(...rulesContent(d, show, dict)); };
  show(dict);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  /** @type {HTMLElement} */ (dialog.querySelector('.rulesclose button')).focus();
  return dialog;
}

// The rules page: a room's rules as a player reads them, over whatever screen is open (a modal
// dialog of its own, so a match underneath keeps running in its worker and its board stays
// drawn). The yaku table with the cards drawn, points and how they grow, stopping and koi-koi,
// doubling and pools, what the profile changes from Nintendo's rules, a short how to play, and
// what the security code and the password protect against. All of it is read from the profile.
import { h } from './dom.js';
import { listOf, rulesPhrase, t, yakuName } from './i18n.js';
import { cardEl } from './board.js';
import { PRESETS, Profile, preset, withRounds } from '../../src/api/rules.js';
import { CARDS } from '../../src/api/rules.js';
import { differences } from '../../src/api/rules.js';
import { summary, yakuTable as describeYaku } from '../../src/rules/describe.js';
import { switchValue } from './words.js';
import { lengthText, presetShort } from './rooms.js';

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
 * The yaku rows of a profile: id, the points as the page says them (how they grow), and the rule
 * as the terminal says it (koikoi rules' yaku table: web/src/rules/describe.js's phrase, rendered
 * from the catalogue with the same message ids and arguments as rules/describe.py).
 * @param {any} d a profile's switches (JSON form) @returns {{id: string, points: string, rule: string}[]}
 */
export function yakuRows(d) {
  const [goko, shiko, ame, sanko] = d.bright_values;
  const grow = (/** @type {number} */ n) => t(d.named_extension ? 'yakuGrows' : 'yakuFixed', { n });
  const fixed = (/** @type {number} */ n) => t('yakuFixed', { n });
  // spec/rules.md §6.4 viewing_by_call: 1 point, 3 once the holder has called koi-koi in the round.
  const view = d.viewing_by_call ? t('yakuByCall', { n: 1, m: 3 }) : fixed(5);
  /** @type {Record<string, string>} */
  const points = {
    goko: fixed(goko), shiko: fixed(shiko), ame_shiko: fixed(ame), sanko: fixed(sanko), hanami: view, tsukimi: view,
    inoshikacho: grow(5), akatan: grow(5), aotan: grow(5), akatan_aotan: grow(10),
    tane: t('yakuGrows', { n: 1 }), tan: t('yakuGrows', { n: 1 }), kasu: t('yakuGrows', { n: 1 }),
  };
  return describeYaku(preset('nintendo').withSwitches(d)).map((row) => ({
    id: row.id, points: points[row.id] ?? fixed(row.points), rule: rulesPhrase(row.rule),
  }));
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
 * The rules' description as the terminal says it (koikoi rules): the phrases of
 * web/src/rules/describe.js, the twin of koikoi_p2p/rules/describe.py, rendered from the catalogue
 * (i18n.rulesPhrase) with the same message ids and arguments; playing and koi-koi first, then
 * scoring, the end of a round, dealing and the match.
 * @param {Profile} p @returns {string[]}
 */
export function rulesLines(p) {
  return summary(p).map(rulesPhrase);
}

/** A small table of the yaku, each with its cards drawn. @param {any} d */
function yakuTable(d) {
  return h('table', { class: 'yakutable' }, [
    h('thead', {}, [h('tr', {}, [h('th', { scope: 'col' }, t('yakuRuleCol')), h('th', { scope: 'col' }, t('yakuCards')), h('th', { scope: 'col' }, t('yakuPointsCol'))])]),
    h('tbody', {}, yakuRows(d).map((r) => h('tr', { dataset: { yaku: r.id } }, [
      h('th', { scope: 'row' }, [h('strong', {}, yakuName(r.id)), h('br'), h('span', { class: 'small' }, r.rule)]),
      h('td', {}, h('div', { class: 'yakucards' }, (YAKU_CARDS[r.id] ?? []).map((c) => cardEl(c, { cls: 'small' })))),
      h('td', { class: 'pts' }, r.points),
    ]))),
  ]);
}

/**
 * The page's title: the rules' name (changed or not) and the match length, as a list of the
 * page's language (QA: "ルール: 任天堂, 1回戦" with a Western comma).
 * @param {{name: string, rounds: number, target_score: number}} d a profile's dict @param {boolean} custom
 */
export function rulesTitle(d, custom) {
  const name = custom ? t('lobbyChanged', { rules: presetShort(d.name) }) : presetShort(d.name);
  return t('rulesTitle', { rules: listOf([name, lengthText(d.rounds, d.target_score)]) });
}

/**
 * The page's content for a profile (JSON form).
 * @param {any} dict @param {(dict: any) => void} reshow draws the page again for another preset
 */
export function rulesContent(dict, reshow, room = dict) {
  const p = Profile.fromDict(dict);
  const d = /** @type {any} */ (p.allSwitches());
  const changes = changeLines(p);
  const said = rulesLines(p);
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
      h('h2', { id: 'rules-title' }, rulesTitle(d, custom)),
      h('label', { class: 'lang' }, [t('rulesChoose'), ' ', chooser]),
    ]),
    h('section', {}, [h('h3', {}, t('yakuHeading')), yakuTable(d)]),
    h('section', {}, [h('h3', {}, t('stopKoikoi')), ...said.slice(0, 2).map((l) => h('p', {}, l))]),
    h('section', {}, [h('h3', {}, t('doublingPools')), ...said.slice(2).map((l) => h('p', {}, l))]),
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

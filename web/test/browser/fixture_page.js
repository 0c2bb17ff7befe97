// The page the screenshot tests load (bundled by screens.test.js): the app's own board, dialogs and styles, fed a fixed table.
import { koikoiDialog, renderBoard } from '../../app/src/board.js';
import { roundSummary } from '../../app/src/summary.js';
import { h } from '../../app/src/dom.js';
import { setLang } from '../../app/src/i18n.js';
import { seatLabels, seatNames } from '../../app/src/seatnames.js';
import { overDialog, resignDialog, stoppedDialog, termsDialog } from '../../app/src/dialogs.js';

/** @param {string} kind @param {any} table */
function show(kind, table) {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  setLang(table.fixtureLang ?? 'en');
  // As game.js names them: "You", and the opponent by its signed name and the start of its key
  // (`fixtureAsGame`: by the app's own seatnames.js, names and the bars' labels alike).
  const names = /** @type {[string, string]} */ (table.fixtureAsGame ? seatNames(table)
    : table.fixtureNames ?? (table.seat === 0 ? ['You', 'Sakura m3qa-8cde'] : ['Fuji ykpi-4zuw', 'You']));
  // The wait began now, or `elapsedMs` ago (a clock in its last seconds).
  table.wait = table.wait ? { ...table.wait, since: Date.now() - (table.wait.elapsedMs ?? 0) } : null;
  const board = h('div', { class: 'boardwrap' });
  const main = h('main', { class: 'screen play' }, [board]);
  root.replaceChildren(main);
  // `fixtureLabels`: the name and fingerprint apart, as game.js gives them online.
  renderBoard(board, table, { decide: () => {}, resign: () => {}, showIds: false, names, labels: table.fixtureAsGame ? seatLabels(table, names) : table.fixtureLabels });
  if (kind === 'board' || kind === 'lowtime') return;
  if (kind === 'terms') board.replaceChildren();
  const dlg = /** @type {HTMLDialogElement} */ (h('dialog', { class: `dlg dlg-${kind === 'lowdecide' ? 'decide' : kind}`, 'aria-labelledby': 'dlg-title' }));
  main.append(dlg);
  const none = () => {};
  const views = {
    decide: () => koikoiDialog(table, names, none, none),
    lowdecide: () => koikoiDialog(table, names, none, none),
    round: () => h('div', {}, [roundSummary(table, names), h('div', { class: 'choices' }, [h('button', { class: 'primary' }, 'Next round')])]),
    terms: () => termsDialog(table, names, { accept: none, refuse: none }),
    resign: () => resignDialog(table, names, { cancel: none, confirm: none }),
    over: () => overDialog(table, names, ['Download the transcript', 'Download the co-signed result', 'Open the match report', 'Home'].map((l) => h('button', {}, l))),
    timeup: () => stoppedDialog(table, names, [h('button', {}, 'Download the transcript'), h('button', {}, 'Home')]),
  };
  dlg.append(/** @type {any} */ (views)[kind]());
  dlg.showModal();
  /** @type {HTMLElement | null} */ (dlg.querySelector('button'))?.blur();
}
// node --test runs every file under test/: in Node this module only defines the function.
if (typeof window !== 'undefined') /** @type {any} */ (window).show = show;

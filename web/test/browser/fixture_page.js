// The page the screenshot tests load (bundled by screens.test.js): the app's own board, dialogs and styles, fed a fixed table.
import { koikoiDialog, renderBoard, roundSummary } from '../../app/src/board.js';
import { h } from '../../app/src/dom.js';

/** @param {string} kind @param {any} table */
function show(kind, table) {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const names = /** @type {[string, string]} */ (['You', 'Computer (medium)']);
  table.wait = table.wait ? { ...table.wait, since: Date.now() } : null;
  const board = h('div', { class: 'boardwrap' });
  const main = h('main', { class: 'screen play' }, [board]);
  root.replaceChildren(main);
  renderBoard(board, table, { decide: () => {}, resign: () => {}, showIds: false, names });
  if (kind === 'board') return;
  const dlg = /** @type {HTMLDialogElement} */ (h('dialog', { class: `dlg dlg-${kind}`, 'aria-labelledby': 'dlg-title' }));
  main.append(dlg);
  dlg.append(kind === 'decide' ? koikoiDialog(table, names, () => {}) : h('div', {}, [roundSummary(table.lastRound, names, 1, 0, table.round.piles[table.lastRound.result.winner]),
    h('div', { class: 'choices' }, [h('button', { class: 'primary' }, 'Next round')])]));
  dlg.showModal();
  /** @type {HTMLElement | null} */ (dlg.querySelector('button'))?.blur();
}
// node --test runs every file under test/: in Node this module only defines the function.
if (typeof window !== 'undefined') /** @type {any} */ (window).show = show;

// The page the motion screenshots load (bundled by motion.test.js): the app's board and what the
// player sees happen around it (app/src/view.js), fed a sequence of fixed tables as the seat's
// worker would post them.
import { renderBoard } from '../../app/src/board.js';
import { h } from '../../app/src/dom.js';
import { PlayView } from '../../app/src/view.js';
import { MOTION_KEY } from '../../app/src/motion.js';

/** @type {PlayView | null} */
let view = null;
/** @type {HTMLElement | null} */
let board = null;

/** @param {any[]} tables @param {number} ms the motion length @param {boolean} [fresh] a new view (no previous table) */
function showSequence(tables, ms, fresh = false) {
  localStorage.setItem(MOTION_KEY, String(ms));
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const names = /** @type {[string, string]} */ (['You', 'Sakura m3qa-8cde']);
  if (!view || !board || fresh) {
    view?.destroy();
    board = h('div', { class: 'boardwrap' });
    view = new PlayView(board);
    root.replaceChildren(h('main', { class: 'screen play' }, [board, view.el]));
  }
  for (const table of tables) {
    table.wait = table.wait ? { ...table.wait, since: Date.now() } : null;
    const snap = view.before();
    renderBoard(board, table, { decide: () => {}, resign: () => {}, showIds: false, names });
    view.after(snap, table, names);
  }
}

// node --test runs every file under test/: in Node this module only defines the function.
if (typeof window !== 'undefined') /** @type {any} */ (window).showSequence = showSequence;

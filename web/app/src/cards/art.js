// The 48 card faces and the back, drawn for this project as SVG (no copied art). A face is the
// month's plant (plants.js) with the card's subject or ribbon over it (subjects.js), on paper
// with a dark frame; a badge in the corner gives the month as a number and the class as a
// shape (star: bright, diamond: animal, bar: ribbon with its kind, dot: plain), so the cards
// read without colour. The page puts the month, name and card id in text beside each SVG.
import { CARDS } from '../../../src/api/rules.js';
import { blossom, circle, el, line, path, starPath } from './draw.js';
import { plant } from './plants.js';
import { BEHIND, SUBJECTS, ribbon } from './subjects.js';

const PAPER = '#f4ecd8';
const FRAME = '#2a211b';
const VIEW = 'viewBox="0 0 100 160" xmlns="http://www.w3.org/2000/svg"';

/** @param {import('../../../src/rules/cards.js').Card} c */
function classMark(c) {
  const x = 12, y = 30;
  switch (c.kind) {
    case 'bright': return path(starPath(x, y, 5.5, 2.4, 5), '#f0b429', { stroke: FRAME, 'stroke-width': 0.8 });
    case 'animal': return path(`M${x},${y - 5} L${x + 4.5},${y} L${x},${y + 5} L${x - 4.5},${y}Z`, '#2f7a3c', { stroke: FRAME, 'stroke-width': 0.8 });
    case 'ribbon': {
      const fill = c.subclass === 'blue' ? '#2b4fa3' : '#c8372d';
      let s = path(`M${x - 2.5},${y - 6} L${x + 2.5},${y - 6} L${x + 2.5},${y + 6} L${x - 2.5},${y + 6}Z`, fill, { stroke: FRAME, 'stroke-width': 0.8 });
      if (c.subclass === 'poetry') s += line(`M${x},${y - 4} L${x},${y - 1} M${x},${y + 1} L${x},${y + 4}`, FRAME, 1);
      if (c.subclass === 'blue') s += line(`M${x},${y - 4} L${x},${y + 4}`, '#dfe7f7', 0.9, { 'stroke-dasharray': '1.5 1.2' });
      return s;
    }
    default: return circle(x, y, 2.2, '#8a7f70');
  }
}

/** @param {import('../../../src/rules/cards.js').Card} c */
function badge(c) {
  return path('M4,4 L20,4 Q22,4 22,6 L22,38 Q22,40 20,40 L4,40Z', '#fffaf0ee', { stroke: FRAME, 'stroke-width': 0.8 })
    + el('text', { x: 12, y: 18, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', fill: FRAME }, String(c.month))
    + classMark(c);
}

/** The inner drawing of a face (no frame), for reuse at other sizes. @param {number} index */
export function faceArt(index) {
  const c = CARDS[index];
  const variant = index % 4;
  let s = path('M0,0 L100,0 L100,160 L0,160Z', PAPER);
  s += (BEHIND[c.id] ?? (() => ''))();
  s += plant(c.month, variant);
  s += (SUBJECTS[c.id] ?? (() => ''))();
  if (c.kind === 'ribbon') s += ribbon(/** @type {'red' | 'poetry' | 'blue'} */ (c.subclass));
  return s;
}

const FRAME_PATH = path('M1.5,1.5 L98.5,1.5 L98.5,158.5 L1.5,158.5Z', 'none', { stroke: FRAME, 'stroke-width': 3 });

/**
 * One card face as a standalone SVG document (decorative inside the page: the text is beside it).
 * @param {number} index 0..47
 */
export function cardSvg(index) {
  if (!Number.isInteger(index) || index < 0 || index > 47) throw new RangeError(`no card ${index}`);
  return `<svg ${VIEW} aria-hidden="true" focusable="false" class="face" data-card="${CARDS[index].id}">${faceArt(index)}${badge(CARDS[index])}${FRAME_PATH}</svg>`;
}

/** The back of every card: deep red with a lattice and a plum crest. */
export function backSvg() {
  let lattice = '';
  for (let k = -160; k < 160; k += 12) lattice += line(`M${k},0 L${k + 160},160 M${k + 160},0 L${k},160`, '#00000026', 1);
  return `<svg ${VIEW} aria-hidden="true" focusable="false" class="back">${path('M0,0 L100,0 L100,160 L0,160Z', '#7a1f1a')}${lattice}`
    + `${circle(50, 80, 22, '#5c1512', { stroke: '#d9a441', 'stroke-width': 2 })}${blossom(50, 80, 9, 5, '#d9a441', '#7a1f1a')}`
    + `${path('M6,6 L94,6 L94,154 L6,154Z', 'none', { stroke: '#d9a441', 'stroke-width': 1.2 })}${FRAME_PATH}</svg>`;
}

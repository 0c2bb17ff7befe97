// The subjects of the bright and animal cards, and the ribbons, drawn over the month's plant.
// Box 100 x 160. Each is simple enough to read at 40 px wide: a silhouette, a strong colour.
import { circle, ellipse, group, line, path, r1, ring } from './draw.js';

const INK = '#1d1a17';
const RED = '#c8372d';

/** The red sun or sky disc behind the crane and the phoenix. @param {number} cx @param {number} cy @param {number} r */
const sun = (cx, cy, r) => circle(cx, cy, r, RED, { stroke: '#8e1d17', 'stroke-width': 1 });

const crane = () => group('translate(40 78)',
  path('M0,60 C-6,40 -10,20 0,0 C10,-8 26,-6 34,6 C40,18 30,34 16,40 C12,52 10,60 8,70Z', '#fbfbf7', { stroke: INK, 'stroke-width': 1.5 })
  + path('M10,2 C14,-20 18,-40 26,-54', 'none', { stroke: INK, 'stroke-width': 3.5, 'stroke-linecap': 'round' })
  + ellipse(28, -56, 6, 4, '#fbfbf7', -20, { stroke: INK, 'stroke-width': 1.2 }) + circle(28, -59, 2.2, RED)
  + path('M33,-56 L44,-52 L33,-53Z', '#d9a441')
  + path('M14,38 C20,44 30,44 36,36 C30,32 22,32 14,38Z', INK)
  + line('M4,66 L0,82 M10,68 L14,82', INK, 1.6));

const curtain = () => group('translate(0 88)',
  path('M-2,0 L102,0 L102,8 C90,14 80,6 68,12 C56,18 44,8 32,14 C20,20 10,10 -2,16Z', '#d9a441', { stroke: INK, 'stroke-width': 1 })
  + path('M-2,14 C10,10 20,20 32,14 C44,8 56,18 68,12 C80,6 90,14 102,8 L102,60 L-2,60Z', RED, { stroke: INK, 'stroke-width': 1 })
  + [10, 30, 50, 70, 90].map((x) => line(`M${x},20 L${x},58`, '#f6d36b', 2, { 'stroke-dasharray': '3 3' })).join('')
  + [0, 1, 2, 3].map((i) => circle(20 + i * 20, 36, 4, '#fbfbf7', { stroke: INK, 'stroke-width': 0.8 })).join(''));

const moon = () => path('M-2,-2 L102,-2 L102,92 L-2,92Z', RED) + circle(50, 46, 30, '#fdf6d8', { stroke: '#d9a441', 'stroke-width': 1.5 });
const night = () => path('M-2,-2 L102,-2 L102,162 L-2,162Z', '#2b2a3a');

const rainman = () => group('translate(50 58)',
    path('M-34,0 Q0,-30 34,0Z', RED, { stroke: INK, 'stroke-width': 1 }) + line('M0,-14 L0,36', '#d9a441', 1.6)
    + path('M-10,4 C-14,30 -16,52 -20,64 L18,64 C14,48 12,28 10,4Z', '#3b5da8', { stroke: INK, 'stroke-width': 1 })
    + circle(0, 0, 6, '#f3d2a2') + line('M-20,64 L-24,72 M18,64 L22,72', '#f3d2a2', 2))
  + group('translate(20 138)', ellipse(0, 0, 8, 5, '#4c8a3c') + circle(-4, -4, 2, '#4c8a3c') + circle(4, -4, 2, '#4c8a3c'))
  + [[12, 20], [30, 100], [80, 30], [88, 110], [70, 140]].map(([x, y]) => line(`M${x},${y} l-3,8`, '#9fb3d8', 1)).join('');

const phoenix = () => group('translate(50 92)',
  [-50, -30, -10, 10, 30].map((a, i) => group(`rotate(${a})`, path('M0,0 C-6,-30 -4,-50 0,-62 C4,-50 6,-30 0,0Z', ['#2f8f6a', '#e0702c', RED, '#f0b429', '#3b5da8'][i]))).join('')
  + ellipse(0, 6, 16, 12, '#e0702c', 0, { stroke: INK, 'stroke-width': 1 })
  + path('M8,0 C16,-10 24,-14 30,-20 L26,-8Z', '#f0b429') + circle(28, -20, 5, RED) + circle(29, -21, 1.2, INK)
  + path('M-16,10 C-30,20 -34,34 -28,44 C-20,34 -10,24 -4,16Z', '#2f8f6a'));

const warbler = () => group('translate(58 96)',
  ellipse(0, 0, 15, 9, '#7d9a3a', -15, { stroke: INK, 'stroke-width': 1 }) + circle(13, -6, 6.5, '#7d9a3a', { stroke: INK, 'stroke-width': 1 })
  + circle(15, -7, 1.4, INK) + path('M19,-6 L25,-4 L19,-3Z', INK) + path('M-12,2 L-28,8 L-24,0Z', '#5c7a26')
  + path('M-4,-4 C2,-10 8,-8 10,-2', 'none', { stroke: '#f2e6a0', 'stroke-width': 1.2 }));

const cuckoo = () => path('M70,14 A16,16 0 1 0 86,40 A12,12 0 1 1 70,14Z', '#f6d36b')
  + group('translate(44 58) rotate(-18)',
    ellipse(0, 0, 18, 7, INK) + circle(16, -3, 5, INK) + path('M20,-3 L27,-1 L20,0Z', '#d9a441')
    + path('M-4,-4 C-14,-24 -30,-28 -40,-26 C-28,-18 -18,-8 -10,0Z', '#3a3530') + path('M-16,2 L-32,8 L-30,2Z', INK) + circle(17, -4, 1.1, '#f6d36b'));

const bridge = () => group('translate(0 100)',
  [[-4, 18, 40, 8], [34, 6, 44, 8], [72, 22, 36, 8]].map(([x, y, w, h]) => group(`translate(${x} ${y}) rotate(${x > 40 ? 14 : -12})`,
    path(`M0,0 L${w},0 L${w},${h} L0,${h}Z`, '#8a5a2b', { stroke: INK, 'stroke-width': 1.2 })
    + line(`M${w / 3},0 L${w / 3},${h} M${(2 * w) / 3},0 L${(2 * w) / 3},${h}`, INK, 0.8)
    + line(`M6,${h} L6,${h + 14} M${w - 6},${h} L${w - 6},${h + 14}`, '#5b3a24', 2.4))).join(''));

const butterfly = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ a, /** @type {string} */ c) => group(`translate(${x} ${y}) rotate(${a})`,
  ellipse(-8, -6, 9, 7, c, -30, { stroke: INK, 'stroke-width': 1 }) + ellipse(8, -6, 9, 7, c, 30, { stroke: INK, 'stroke-width': 1 })
  + ellipse(-6, 6, 6, 5, '#f6d36b', 30, { stroke: INK, 'stroke-width': 0.8 }) + ellipse(6, 6, 6, 5, '#f6d36b', -30, { stroke: INK, 'stroke-width': 0.8 })
  + ellipse(0, 0, 1.8, 9, INK) + line('M0,-8 L-4,-16 M0,-8 L4,-16', INK, 0.8));
const butterflies = () => butterfly(30, 30, -15, '#3b5da8') + butterfly(72, 42, 20, '#e0702c');

const boar = () => group('translate(50 100)',
  ellipse(0, 0, 30, 16, '#6b4a2e', 0, { stroke: INK, 'stroke-width': 1.2 }) + ellipse(28, 2, 12, 10, '#6b4a2e', 0, { stroke: INK, 'stroke-width': 1.2 })
  + path('M36,6 L44,4 L42,10Z', '#efe6d0') + circle(30, -2, 1.6, INK) + path('M22,-8 L26,-16 L30,-8Z', '#4b3320')
  + line('M-18,12 L-20,26 M-6,14 L-6,26 M10,14 L10,26 M20,12 L22,26', '#4b3320', 4)
  + path('M-30,-2 C-36,-6 -38,-2 -34,2', 'none', { stroke: INK, 'stroke-width': 1.2 })
  + [-20, -10, 0, 10].map((x) => line(`M${x},-15 l3,-4`, '#3a2716', 1.2)).join(''));

const goose = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ s) => group(`translate(${x} ${y}) scale(${s})`,
  path('M-16,0 C-8,-10 -2,-6 0,0 C2,-6 8,-10 16,0 C8,-4 2,0 0,4 C-2,0 -8,-4 -16,0Z', INK));
const geese = () => goose(40, 26, 1.4) + goose(66, 40, 1.1) + goose(22, 48, 1);

const sakeCup = () => group('translate(50 104)',
  ellipse(0, 0, 30, 10, RED, 0, { stroke: INK, 'stroke-width': 1.2 }) + ellipse(0, -2, 24, 7, '#d9a441')
  + path('M-30,0 C-26,22 26,22 30,0', RED, { stroke: INK, 'stroke-width': 1.2 }) + path('M-10,18 L10,18 L12,26 L-12,26Z', RED, { stroke: INK, 'stroke-width': 1 })
  + circle(0, -2, 6, 'none', { stroke: RED, 'stroke-width': 1.5 }) + line('M-4,-2 L4,-2 M0,-6 L0,2', RED, 1.2));

const deer = () => group('translate(50 98)',
  ellipse(0, 0, 24, 11, '#a8672e', 0, { stroke: INK, 'stroke-width': 1.2 })
  + path('M16,-6 C20,-18 22,-26 24,-30 L30,-28 C28,-20 26,-12 24,-4Z', '#a8672e', { stroke: INK, 'stroke-width': 1 })
  + ellipse(29, -31, 7, 4.5, '#a8672e', 20, { stroke: INK, 'stroke-width': 1 }) + circle(30, -32, 1.2, INK)
  + line('M24,-34 L20,-46 L14,-50 M20,-46 L24,-54 M28,-35 L30,-48 L36,-52', '#5b3a24', 1.6)
  + line('M-16,8 L-18,26 M-8,10 L-8,26 M10,10 L12,26 M18,8 L20,26', '#7a4a22', 2.4)
  + [[-10, -2], [0, 2], [8, -3], [-4, -6]].map(([x, y]) => circle(x, y, 1.6, '#f3e2c0')).join(''));

const swallow = () => group('translate(54 70) rotate(20)',
  path('M0,0 C-14,-6 -28,-16 -36,-30 C-22,-22 -10,-16 2,-10Z', INK) + path('M0,0 C14,-8 26,-20 30,-34 C20,-24 10,-16 -2,-10Z', INK)
  + ellipse(0, -4, 10, 6, INK) + circle(8, -8, 4.5, INK) + circle(9.5, -9, 1, '#fbfbf7') + path('M4,-4 C6,-2 10,-2 10,-6Z', RED)
  + path('M-8,0 L-22,14 L-12,2 L-14,16 L-4,2Z', INK));

const lightning = () => path('M62,-2 L40,40 L56,42 L30,96 L50,98 L24,160 L70,82 L52,80 L76,36 L60,34 L82,-2Z', RED, { stroke: '#f0b429', 'stroke-width': 1.5 })
  + [0, 1, 2].map((i) => circle(18 + i * 6, 22, 5, '#3f3d52', { stroke: '#6d6a86', 'stroke-width': 0.8 })).join('');

/** @type {Record<string, () => string>} behind the plant (skies and discs) */
export const BEHIND = {
  '01-crane': () => sun(70, 40, 22), '08-moon': moon, '11-rainman': night, '11-lightning': night,
  '08-geese': () => path('M-2,-2 L102,-2 L102,70 L-2,70Z', '#e8c25a'), '12-phoenix': () => sun(50, 40, 24),
};

/** @type {Record<string, () => string>} in front of the plant */
export const SUBJECTS = {
  '01-crane': crane, '03-curtain': curtain, '11-rainman': rainman, '12-phoenix': phoenix,
  '02-warbler': warbler, '04-cuckoo': cuckoo, '05-bridge': bridge, '06-butterflies': butterflies, '07-boar': boar,
  '08-geese': geese, '09-cup': sakeCup, '10-deer': deer, '11-swallow': swallow, '11-lightning': lightning,
};
/**
 * A ribbon (tanzaku) across the card: red, red with writing (poetry), or blue. The writing is drawn
 * as brush strokes, not text, so the card needs no font; the blue ribbon also has a white inner
 * line so it differs from the red ones without colour.
 * @param {'red' | 'poetry' | 'blue'} kind
 */
export function ribbon(kind) {
  const fill = kind === 'blue' ? '#2b4fa3' : RED;
  let inner = path('M-8,-40 L8,-40 L8,40 L0,46 L-8,40Z', fill, { stroke: INK, 'stroke-width': 1.4 });
  inner += line('M-8,-40 L-14,-48 M8,-40 L14,-48', fill, 3);
  if (kind === 'poetry') {
    for (let k = 0; k < 4; k++) {
      const y = -30 + k * 17;
      inner += line(`M-3,${y} C1,${y - 2} 3,${y + 2} 0,${y + 5} C-2,${y + 8} 2,${y + 10} 3,${y + 8}`, INK, 1.8);
    }
  }
  if (kind === 'blue') inner += line('M0,-36 L0,38', '#dfe7f7', 1.6, { 'stroke-dasharray': '4 3' });
  return group('translate(52 86) rotate(-12)', inner);
}

/** Petals of a tiny sun for the bright class badge. @param {number} cx @param {number} cy */
export function rays(cx, cy) {
  return ring(cx, cy, 6, 8).map(([x, y]) => line(`M${r1(cx)},${r1(cy)} L${r1(x)},${r1(y)}`, '#f0b429', 1.2)).join('');
}

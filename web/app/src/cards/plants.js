// The twelve month plants, drawn for this project in the flat, bold manner of hanafuda: each
// month recognisable by its plant alone (pine, plum, cherry, wisteria, iris, peony, bush clover,
// pampas, chrysanthemum, maple, willow, paulownia). Box 100 x 160; `variant` (0..3) moves the
// plant a little so the plains of a month are not identical.
import { blossom, circle, ellipse, group, jitter, leaf, line, path, r1, ring, starPath } from './draw.js';

const INK = '#1d1a17';
const BARK = '#5b3a24';

/** Pine: a leaning trunk and dark needle clouds. @param {number} v */
function pine(v) {
  const rnd = jitter(11 + v);
  let s = line('M30,160 C38,128 24,104 44,82 C58,66 52,48 64,30', BARK, 7);
  s += line('M44,84 C60,80 72,86 84,76', BARK, 3.5);
  const clouds = [[62, 30, 24], [30, 66, 20], [80, 74, 18], [56, 100, 16]];
  for (const [cx, cy, w] of clouds) {
    s += ellipse(cx, cy, w, w * 0.5, '#1f5b35');
    for (let i = 0; i < 14; i++) {
      const a = Math.PI * (1.05 + 0.9 * (i / 13));
      const x = cx + w * 0.95 * Math.cos(a), y = cy + w * 0.5 * Math.sin(a) + 2;
      s += line(`M${r1(cx)},${r1(cy + 3)} L${r1(x)},${r1(y - 3 - rnd() * 3)}`, '#3f8f55', 1);
    }
  }
  return s;
}

/** Plum: a crooked dark branch with red five-petal blossoms. @param {number} v */
function plum(v) {
  let s = line('M0,120 C20,112 26,92 42,86 C58,80 62,60 78,52 C86,48 92,40 100,30', INK, 6);
  s += line('M42,86 C40,70 30,62 28,48', INK, 3) + line('M78,52 C72,40 74,30 70,20', INK, 2.5);
  const spots = [[28, 46], [46, 84], [70, 22], [80, 52], [18, 110], [60, 66], [92, 38]];
  spots.forEach(([x, y], i) => { if ((i + v) % 7 !== 6) s += blossom(x, y, 6.5, 5, '#d3344c', '#f6d36b'); });
  s += circle(36, 70, 2.6, '#d3344c') + circle(86, 60, 2.6, '#d3344c');
  return s;
}

/** Cherry: pink notched blossoms massed on a branch. @param {number} v */
function cherry(v) {
  let s = line('M0,58 C30,52 50,60 100,40', BARK, 4) + line('M40,57 C46,70 56,76 70,80', BARK, 2.5);
  const spots = [[14, 52], [30, 46], [46, 60], [62, 50], [78, 42], [92, 34], [24, 66], [58, 72], [72, 82], [40, 36], [86, 56]];
  spots.forEach(([x, y], i) => {
    s += blossom(x, y + (v % 2) * 2, 7, 5, i % 3 ? '#f4b6cc' : '#f7cfdc', '#e0587e');
  });
  return s;
}

/** Wisteria: purple clusters hanging from a vine. @param {number} v */
function wisteria(v) {
  let s = line('M0,16 C30,24 60,6 100,18', INK, 3);
  for (const [x, a] of [[18, -30], [48, 200], [78, -20]]) s += leaf(x, 18, 18, 4, a, '#3a7a3e');
  const hangs = v % 2 ? [24, 52, 80] : [16, 44, 72];
  for (const hx of hangs) {
    s += line(`M${hx},18 L${hx + 2},40`, INK, 1);
    for (let k = 0; k < 9; k++) {
      const y = 34 + k * 8, w = 9 - k * 0.8;
      s += ellipse(hx + 2 + Math.sin(k) * 1.5, y, w, 4.2, k % 2 ? '#7b5ab3' : '#9a7cd0', 0, { stroke: '#4b3480', 'stroke-width': 0.5 });
    }
  }
  return s;
}

/** Iris: sword leaves and violet blooms with falling petals. @param {number} v */
function iris(v) {
  let s = '';
  for (let i = 0; i < 7; i++) {
    const x = 10 + i * 14 + (v % 2) * 3;
    s += path(`M${x - 3},160 C${x - 4},120 ${x + 2},90 ${x + 6},${56 + (i % 3) * 10} C${x + 4},96 ${x + 3},126 ${x + 4},160Z`, i % 2 ? '#2f7a3c' : '#3d9248');
  }
  for (const [x, y] of [[28, 52], [66, 44], [48, 78]]) {
    s += path(`M${x},${y} C${x - 12},${y + 2} ${x - 14},${y + 14} ${x - 6},${y + 18} C${x - 4},${y + 10} ${x - 2},${y + 6} ${x},${y}Z`, '#5b3fa0');
    s += path(`M${x},${y} C${x + 12},${y + 2} ${x + 14},${y + 14} ${x + 6},${y + 18} C${x + 4},${y + 10} ${x + 2},${y + 6} ${x},${y}Z`, '#5b3fa0');
    s += path(`M${x},${y + 2} C${x - 5},${y - 10} ${x - 2},${y - 16} ${x},${y - 18} C${x + 2},${y - 16} ${x + 5},${y - 10} ${x},${y + 2}Z`, '#7d5fc4');
    s += circle(x, y + 3, 2, '#f2c94c');
  }
  return s;
}

/** Peony: a large layered red flower over broad leaves. @param {number} v */
function peony(v) {
  const cx = 50 + (v % 2 ? 6 : -4), cy = 70;
  let s = '';
  for (const [x, y, a] of [[20, 110, -40], [80, 112, 220], [34, 126, -70], [66, 128, 250], [50, 118, 270]]) s += leaf(x, y, 34, 9, a, '#2f6b3a');
  for (const [x, y] of ring(cx, cy, 17, 8, 0.3)) s += circle(x, y, 13, '#c2283f', { stroke: '#7e1426', 'stroke-width': 0.8 });
  for (const [x, y] of ring(cx, cy, 9, 6, 0.8)) s += circle(x, y, 9, '#e0465a', { stroke: '#9e1f33', 'stroke-width': 0.6 });
  s += circle(cx, cy, 7, '#f08a8a') + circle(cx, cy, 3, '#f6d36b');
  return s;
}

/** Bush clover: arching thin stems hung with small red-violet flowers and leaves. @param {number} v */
function bushClover(v) {
  let s = '';
  const stems = [[10, 160, 60, 40, 96, 58], [30, 160, 40, 70, 86, 96], [60, 160, 20, 60, 8, 30]];
  stems.forEach(([x0, y0, x1, y1, x2, y2], i) => {
    s += line(`M${x0},${y0} Q${x1},${y1} ${x2},${y2}`, '#5a3b22', 1.8);
    for (let k = 1; k < 8; k++) {
      const t = k / 8, x = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * x1 + t * t * x2, y = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * y1 + t * t * y2;
      s += ellipse(x + 3, y - 2, 3.2, 2, (k + i + v) % 3 ? '#b23a6e' : '#d1568a', 30);
      if (k % 2) s += ellipse(x - 3, y + 2, 3.6, 1.8, '#4c8a3c', -30);
    }
  });
  return s;
}

/** Pampas grass: a black hill with pale grass plumes. @param {number} v */
function pampas(v) {
  const rnd = jitter(80 + v);
  let s = path('M-5,160 L-5,96 C20,70 80,70 105,96 L105,160Z', INK);
  for (let i = 0; i < 22; i++) {
    const x = 4 + i * 4.4 + rnd() * 2, top = 76 + Math.abs(50 - x) * 0.3 + rnd() * 6;
    s += line(`M${r1(x)},${r1(top + 14)} Q${r1(x + 2)},${r1(top + 6)} ${r1(x + 5)},${r1(top)}`, '#e9e3cf', 1.2);
  }
  return s;
}

/** Chrysanthemum: yellow rayed flowers and lobed leaves. @param {number} v */
function chrysanthemum(v) {
  let s = '';
  for (const [x, y, a] of [[20, 130, -60], [76, 128, 240], [46, 140, 270], [30, 100, -20], [72, 100, 200]]) s += leaf(x, y, 26, 8, a, '#3b6e35');
  const heads = v % 2 ? [[36, 62, 18], [70, 92, 13]] : [[62, 60, 18], [30, 92, 13]];
  for (const [x, y, r] of heads) {
    s += path(starPath(x, y, r, r * 0.55, 16), '#f0b429', { stroke: '#b7791f', 'stroke-width': 0.8 });
    s += path(starPath(x, y, r * 0.68, r * 0.35, 16, 0.2), '#f7d154');
    s += circle(x, y, r * 0.25, '#c8701e');
  }
  return s;
}

/** A maple leaf. @param {number} x @param {number} y @param {number} size @param {number} angle @param {string} fill */
function mapleLeaf(x, y, size, angle, fill) {
  return group(`translate(${r1(x)} ${r1(y)}) rotate(${r1(angle)})`,
    path(starPath(0, 0, size, size * 0.42, 7), fill, { stroke: '#7a1d12', 'stroke-width': 0.6 }) + line(`M0,0 L0,${r1(size * 1.2)}`, '#7a1d12', 0.8));
}

/** Maple: red and orange leaves on dark branches. @param {number} v */
function maple(v) {
  let s = line('M100,20 C70,30 50,40 20,44', INK, 3) + line('M70,30 C60,56 72,70 60,96', INK, 2.5);
  const spots = [[22, 42, 12], [44, 36, 10], [70, 30, 11], [92, 22, 10], [62, 60, 12], [72, 84, 10], [40, 66, 9], [58, 100, 12], [88, 52, 9]];
  spots.forEach(([x, y, r], i) => { s += mapleLeaf(x, y + v, r, (i * 37 + v * 11) % 60 - 30, i % 3 === 1 ? '#e0702c' : '#c7301f'); });
  return s;
}

/** Willow: hanging green strands. @param {number} v */
function willow(v) {
  let s = line('M-4,10 C30,6 70,4 104,12', INK, 3);
  for (let i = 0; i < 8; i++) {
    const x = 6 + i * 12.5 + (v % 2) * 3, len = 60 + ((i * 23) % 30);
    s += line(`M${x},8 C${x - 6},${len * 0.4} ${x + 6},${len * 0.7} ${x - 2},${len}`, '#3f8f4a', 2);
    for (let k = 1; k < 6; k++) s += ellipse(x + (k % 2 ? -3 : 3), 8 + (len * k) / 6, 4, 1.6, '#5fae5a', k % 2 ? 60 : -60);
  }
  return s;
}

/** Paulownia: three purple flower spikes over big heart-shaped leaves. @param {number} v */
function paulownia(v) {
  let s = '';
  for (const [x, y, a] of [[50, 150, 270], [22, 140, -50], [78, 140, 230]]) {
    s += group(`translate(${x} ${y}) rotate(${a})`, path('M0,0 C12,-22 44,-26 48,0 C44,26 12,22 0,0Z', '#2e6a39') + line('M0,0 L44,0', '#1d4726', 0.8));
  }
  const xs = v % 2 ? [30, 52, 74] : [26, 50, 72];
  xs.forEach((x, i) => {
    const top = i === 1 ? 20 : 34;
    s += line(`M${x},${top + 50} L${x},${top}`, '#4c6b2c', 1.6);
    for (let k = 0; k < 6; k++) s += ellipse(x + (k % 2 ? 4 : -4), top + 6 + k * 8, 4.5, 3.2, '#8d5fc2', 0, { stroke: '#5b3a8a', 'stroke-width': 0.5 });
  });
  return s;
}

/** @type {((v: number) => string)[]} index = month - 1 */
const PLANTS = [pine, plum, cherry, wisteria, iris, peony, bushClover, pampas, chrysanthemum, maple, willow, paulownia];

/** The plant of a month (1..12). @param {number} month @param {number} variant 0..3 */
export function plant(month, variant) {
  return PLANTS[month - 1](variant);
}

/** The English names of the plants, for captions and tests. */
export const PLANT_NAMES = ['pine', 'plum', 'cherry', 'wisteria', 'iris', 'peony', 'bush clover', 'pampas', 'chrysanthemum', 'maple', 'willow', 'paulownia'];

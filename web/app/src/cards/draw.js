// Small SVG drawing helpers for the card art: each returns a string of SVG elements in the
// card's 100 x 160 coordinate box. Numbers are rounded so the output is short and stable.

/** @param {number} x */
export const r1 = (x) => Math.round(x * 10) / 10;

/**
 * Attributes from an object, in order (undefined values left out).
 * @param {{[name: string]: string | number | undefined}} attrs
 */
export function attrs(attrs) {
  return Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? r1(v) : v}"`)
    .join('');
}

/** @param {string} name @param {{[name: string]: string | number | undefined}} a @param {string} [inner] */
export function el(name, a, inner) {
  return inner === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${inner}</${name}>`;
}

/** @param {number} cx @param {number} cy @param {number} r @param {string} fill @param {{[name: string]: string | number}} [more] */
export const circle = (cx, cy, r, fill, more = {}) => el('circle', { cx, cy, r, fill, ...more });

/** @param {number} cx @param {number} cy @param {number} rx @param {number} ry @param {string} fill @param {number} [angle] @param {{[name: string]: string | number}} [more] */
export function ellipse(cx, cy, rx, ry, fill, angle = 0, more = {}) {
  return el('ellipse', { cx, cy, rx, ry, fill, transform: angle ? `rotate(${r1(angle)} ${r1(cx)} ${r1(cy)})` : undefined, ...more });
}

/** @param {string} d @param {string} fill @param {{[name: string]: string | number}} [more] */
export const path = (d, fill, more = {}) => el('path', { d, fill, ...more });

/** A stroked path with no fill. @param {string} d @param {string} stroke @param {number} width @param {{[name: string]: string | number}} [more] */
export const line = (d, stroke, width, more = {}) => el('path', { d, fill: 'none', stroke, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', ...more });

/** Points on a circle, as "x,y" pairs. @param {number} cx @param {number} cy @param {number} r @param {number} n @param {number} [phase] */
export function ring(cx, cy, r, n, phase = 0) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = phase + (2 * Math.PI * i) / n;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/**
 * A flower of round petals around a centre.
 * @param {number} cx @param {number} cy @param {number} r petal radius @param {number} n petals
 * @param {string} petal @param {string} heart @param {number} [phase]
 */
export function blossom(cx, cy, r, n, petal, heart, phase = -Math.PI / 2) {
  let s = '';
  for (const [x, y] of ring(cx, cy, r * 0.95, n, phase)) s += circle(x, y, r * 0.78, petal, { stroke: '#00000033', 'stroke-width': 0.6 });
  s += circle(cx, cy, r * 0.45, heart);
  for (const [x, y] of ring(cx, cy, r * 0.28, n, phase)) s += circle(x, y, r * 0.1, '#7a2a12');
  return s;
}

/**
 * A pointed leaf from (x, y) along `angle` (degrees), `len` long and `w` wide, with a midrib.
 * @param {number} x @param {number} y @param {number} len @param {number} w @param {number} angle
 * @param {string} fill @param {string} [rib]
 */
export function leaf(x, y, len, w, angle, fill, rib = '#00000040') {
  const d = `M0,0 Q${r1(len * 0.45)},${r1(-w)} ${r1(len)},0 Q${r1(len * 0.45)},${r1(w)} 0,0Z`;
  return `<g transform="translate(${r1(x)} ${r1(y)}) rotate(${r1(angle)})">${path(d, fill)}${line(`M0,0 L${r1(len * 0.9)},0`, rib, 0.6)}</g>`;
}

/**
 * A star-like polygon (maple leaf, chrysanthemum petals): `n` points between radii `r0` and `r1`.
 * @param {number} cx @param {number} cy @param {number} rOut @param {number} rIn @param {number} n @param {number} [phase]
 */
export function starPath(cx, cy, rOut, rIn, n, phase = -Math.PI / 2) {
  const pts = [];
  for (let i = 0; i < 2 * n; i++) {
    const rr = i % 2 === 0 ? rOut : rIn;
    const a = phase + (Math.PI * i) / n;
    pts.push(`${r1(cx + rr * Math.cos(a))},${r1(cy + rr * Math.sin(a))}`);
  }
  return `M${pts.join(' L')}Z`;
}

/** Group with a transform. @param {string} transform @param {string} inner */
export const group = (transform, inner) => `<g transform="${transform}">${inner}</g>`;

/** A small deterministic generator (for scattering needles and grass the same way every time). @param {number} seed */
export function jitter(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

// The app's icon as square SVG art: the card back (cards/art.js) on the table's felt, the card
// inside the middle 70% so a maskable icon keeps it whole under any mask (the safe zone is the
// centre circle of 80%). `node web/tools/icons.mjs` renders it into the PNGs under web/app/icons/
// (committed; build.mjs copies them), the build writes icon.svg from it too.
import { backSvg } from './src/cards/art.js';

/** @param {number} size the square's side in px (the viewBox is 100 x 100) */
export function iconSvg(size = 512) {
  const card = backSvg().replace(' aria-hidden="true" focusable="false" class="back"', '')
    .replace('<svg ', '<svg x="28.125" y="15" width="43.75" height="70" ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">`
    + '<rect width="100" height="100" fill="#1f3a2c"/>'
    + '<circle cx="50" cy="50" r="46" fill="#2a4d3a"/>'
    + `${card}</svg>`;
}

/** The PNG icons: file name, side in px, manifest purpose. */
export const PNG_ICONS = Object.freeze([
  { name: 'icon-192.png', size: 192, purpose: 'any maskable' },
  { name: 'icon-512.png', size: 512, purpose: 'any maskable' },
  { name: 'apple-touch-icon.png', size: 180, purpose: '' },
]);

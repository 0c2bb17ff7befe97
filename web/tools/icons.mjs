#!/usr/bin/env node
// node web/tools/icons.mjs: render the app's icon (web/app/icons.mjs, the card-back art) into the
// PNGs the manifest and iOS use (192 and 512 px, maskable; the 180 px apple-touch-icon), with
// Debian's Chromium through playwright-core. The PNGs are committed under web/app/icons/ and the
// build copies them, so building the app needs no browser; run this again when the art changes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG_ICONS, iconSvg } from '../app/icons.mjs';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'app', 'icons');
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.KOIKOI_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of PNG_ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0">${iconSvg(icon.size)}</body></html>`);
    const png = await page.locator('svg').first().screenshot({ omitBackground: false });
    writeFileSync(path.join(OUT, icon.name), png);
    await page.close();
    process.stdout.write(`${icon.name} ${png.length} bytes\n`);
  }
} finally {
  await browser.close();
}

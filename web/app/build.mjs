#!/usr/bin/env node
// Build the browser app into koikoi_web/static/ (package data of the Python distribution):
//   node web/app/build.mjs            write the files
//   node web/app/build.mjs --check    build to memory and fail if the committed files differ
// Scripts and the stylesheet get content hashes in their names; index.html, sw.js, the manifest
// and the icon keep fixed names. The expert's network (src/ai/expert_weights.js, some 440 KB) is a
// module of its own, weights-HASH.js, which the worker imports only when a seat plays the expert
// (value.js loadShipped): the bundles name it and never hold it. SHA256SUMS lists every file (what a player compares a served
// copy against: README). report.html is the one-file match report `koikoi verify --html` fills.
// First, src/vocabulary.js and src/messages.js are compiled from the gettext catalogues
// (catalogue.mjs): the yaku and role names the terminal uses, with the glossary, and the page's
// own sentences from their English source (messages.en.json) and its translations, so the page
// says what the catalogue says; the compilation fails on a message the code looks up but the
// English source lacks, and on a missing, fuzzy or empty translation or a changed placeholder.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '..', '..', 'koikoi_web', 'static');
const check = process.argv.includes('--check');
const sha = (/** @type {string | Uint8Array} */ d) => createHash('sha256').update(d).digest('hex');

/** The file name the bundles give the expert's weights (set once that module is built). */
let weightsName = '';
/** @type {import('esbuild').Plugin} the weights' import left to the browser, under their built name */
const weightsApart = {
  name: 'weights-apart',
  setup(b) {
    b.onResolve({ filter: /(^|\/)expert_weights\.js$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (!weightsName) throw new Error('the weights module is built before the bundles that import it');
      return { path: `./${weightsName}`, external: true };
    });
  },
};

/** @param {string} entry @param {string} stem */
async function bundle(entry, stem) {
  const r = await build({
    entryPoints: [path.join(HERE, entry)], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
    minify: true, write: false, legalComments: 'none', charset: 'utf8',
    // libsodium's Node branch names these; the browser build never loads them.
    external: ['crypto', 'path', 'fs'], logLevel: 'error', plugins: [weightsApart],
  });
  const code = r.outputFiles[0].contents;
  return { name: `${stem}-${sha(code).slice(0, 12)}.js`, code };
}

const { VOCABULARY_FILE, vocabularyModule, MESSAGES_FILE, messagesModule } = await import('./catalogue.mjs');
for (const [file, text] of [[VOCABULARY_FILE, vocabularyModule()], [MESSAGES_FILE, messagesModule()]]) {
  let stale = false;
  try {
    stale = readFileSync(file, 'utf8') !== text;
  } catch {
    stale = true;
  }
  if (check && stale) {
    process.stderr.write(`${path.relative(path.resolve(HERE, '..', '..'), file)} is not the compilation of the catalogues (run: node web/app/build.mjs)\n`);
    process.exit(1);
  }
  if (!check && stale) writeFileSync(file, text);
}

const files = new Map();
const weights = await bundle('../src/ai/expert_weights.js', 'weights');
weightsName = weights.name;
const worker = await bundle('src/worker.js', 'worker');
const main = await bundle('src/main.js', 'app');
const report = await bundle('src/report_page.js', 'report');
const cssText = readFileSync(path.join(HERE, 'styles.css'), 'utf8');
const cssMin = (await build({ stdin: { contents: cssText, loader: 'css' }, minify: true, write: false, logLevel: 'error' })).outputFiles[0].text;
const css = { name: `styles-${sha(cssMin).slice(0, 12)}.css`, code: cssMin };
// The app bundle imports report_model.js lazily: esbuild inlines it (no splitting), which keeps one file.
files.set(weights.name, weights.code);
files.set(worker.name, worker.code);
files.set(main.name, main.code);
files.set(css.name, css.code);

const { backSvg } = await import('./src/cards/art.js');
const icon = backSvg().replace(' aria-hidden="true" focusable="false" class="back"', '');
files.set('icon.svg', icon);
// The PNG icons (maskable 192 and 512, the apple-touch-icon): rendered from icons.mjs by
// web/tools/icons.mjs and committed, so the build needs no browser.
const { PNG_ICONS } = await import('./icons.mjs');
for (const { name } of PNG_ICONS) files.set(name, readFileSync(path.join(HERE, 'icons', name)));
files.set('manifest.webmanifest', `${JSON.stringify({
  name: 'Koi-Koi', short_name: 'Koi-Koi', description: 'Hanafuda Koi-Koi for two: every shuffle proved, every move signed.',
  start_url: './', scope: './', display: 'standalone', background_color: '#1f3a2c', theme_color: '#1f3a2c',
  icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ...PNG_ICONS.filter((i) => i.purpose).map((i) => ({ src: i.name, sizes: `${i.size}x${i.size}`, type: 'image/png', purpose: i.purpose }))],
}, null, 2)}\n`);
const index = readFileSync(path.join(HERE, 'index.html'), 'utf8')
  .replace('{{WORKER}}', worker.name).replace('{{CSS}}', css.name).replace('{{MAIN}}', main.name);
files.set('index.html', index);
const cached = [...files.keys(), 'index.html'].filter((v, i, a) => a.indexOf(v) === i).sort();
const version = sha(cached.map((n) => sha(files.get(n))).join('')).slice(0, 16);
const sw = readFileSync(path.join(HERE, 'sw.template.js'), 'utf8')
  .replace('__VERSION__', version).replace('__FILES__', JSON.stringify(['./', ...cached]));
files.set('sw.js', sw);

// The one-file report: styles and script inline, the transcript put in by koikoi verify --html.
const reportCode = Buffer.from(report.code).toString('utf8').replace(/<\/script/gi, '<\\/script');
files.set('report.html', `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Koi-Koi match report</title><style>${cssMin}</style></head>
<body><main class="screen report" id="app"></main>
<script type="application/octet-stream" id="koikoi-transcript">__KOIKOI_TRANSCRIPT__</script>
<script type="module">${reportCode}</script>
</body></html>
`);

const names = [...files.keys()].sort();
const sums = names.map((n) => `${sha(files.get(n))}  ${n}\n`).join('');
files.set('SHA256SUMS', sums);

if (check) {
  const have = readdirSync(OUT).sort();
  const want = [...files.keys()].sort();
  const problems = [];
  if (have.join() !== want.join()) problems.push(`files differ: built ${want.join(' ')}; committed ${have.join(' ')}`);
  for (const n of want) {
    try {
      if (sha(readFileSync(path.join(OUT, n))) !== sha(files.get(n))) problems.push(`${n} differs`);
    } catch { /* listed above */ }
  }
  if (problems.length) {
    process.stderr.write(`koikoi_web/static is not the build of web/app (run: node web/app/build.mjs):\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`koikoi_web/static matches the build (${want.length} files)\n`);
} else {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [n, d] of files) writeFileSync(path.join(OUT, n), d);
  process.stdout.write(`built ${files.size} files into koikoi_web/static (${[...files].map(([n, d]) => `${n} ${Math.round(d.length / 1024)} KB`).join(', ')})\n`);
}

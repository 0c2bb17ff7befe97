// The package as an embedder gets it: `npm pack`, installed from the tarball into a scratch project
// outside the repository, where
//   - only the documented entry points resolve (the internals are not reachable through exports);
//   - a strict TypeScript consumer type-checks against the shipped .d.ts;
//   - the README's example runs in Node against a real relay (`koikoi relay`) and plays a whole
//     one-round match with the Python client (`koikoi join`); the transcript passes `koikoi verify`;
//   - a minimal page importing the package, bundled by esbuild and by Vite, does the same in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { KOIKOI, PYTHON, pythonMissing } from '../python.js';
import { browserMissing, launch } from '../browser/support.js';

const WEB = path.join(REPO, 'web');
const HERE = path.join(WEB, 'test', 'package');
// The page lives in web/tools: node --test runs every script under test/ as a test file.
const PAGE = path.join(WEB, 'tools', 'consumer_page.js');
const BIN = path.join(WEB, 'node_modules', '.bin');
const skip = pythonMissing() || browserMissing();

/** @type {string} */ let scratch;
/** @type {string} */ let project;
/** @type {{url: string, stop: () => Promise<void>}} */ let relay;

/** Run a command to the end; its output when it fails. @param {string} cmd @param {string[]} args @param {string} cwd */
function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 240000 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

/** `koikoi relay` on a free loopback port. */
function startKoikoiRelay() {
  return new Promise((resolve, reject) => {
    const child = spawn(KOIKOI, ['relay', '--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk.toString();
      const m = out.match(/(ws:\/\/127\.0\.0\.1:\d+\/v1)/);
      if (m) resolve({ url: m[1], stop: () => new Promise((done) => { child.once('exit', () => done(undefined)); child.kill('SIGTERM'); }) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay exited (${code}): ${out}`)));
  });
}

/**
 * The Python client joining `code` and answering every prompt with its first choice; resolves
 * with its output once `koikoi join` has exited. @param {string} code @param {string} home
 */
function koikoiJoin(code, home) {
  mkdirSync(home, { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(PYTHON, [path.join(WEB, 'test', 'browser', 'join_seat.py'), code, relay.url, home], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { out += c; });
    child.once('exit', () => resolve(out));
  });
}

/** `koikoi verify` of a file: its exit status and output. @param {string[]} args */
function verify(...args) {
  const r = spawnSync(KOIKOI, ['verify', ...args], { encoding: 'utf8', env: { ...process.env, HOME: scratch, KOIKOI_HOME: path.join(scratch, 'verify-home') } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The README's Node example: the code block after the `example:node` marker. */
function readmeExample() {
  const readme = readFileSync(path.join(WEB, 'README.md'), 'utf8');
  const m = readme.match(/<!-- example:node -->\n```js\n([\s\S]*?)```/);
  assert.ok(m, 'the README has its example');
  return m[1];
}

before(async () => {
  if (skip) return;
  scratch = mkdtempSync(path.join(os.tmpdir(), 'koikoi-consumer-'));
  project = path.join(scratch, 'app');
  mkdirSync(project);
  // npm pack runs the prepack script (tsc --emitDeclarationOnly into types/).
  const pack = run('npm', ['pack', '--json', '--pack-destination', scratch], WEB);
  assert.equal(pack.status, 0, pack.out);
  const tarball = path.join(scratch, JSON.parse(pack.out.slice(pack.out.indexOf('['), pack.out.lastIndexOf(']') + 1))[0].filename);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  assert.equal(install.status, 0, install.out);
  relay = /** @type {any} */ (await startKoikoiRelay());
});

after(async () => {
  if (skip) return;
  await relay?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('the package ships its entry points, their types and nothing else reachable', { skip }, () => {
  const pkg = JSON.parse(readFileSync(path.join(project, 'node_modules', 'koikoi-p2p', 'package.json'), 'utf8'));
  assert.equal(pkg.private, undefined);
  const probe = (/** @type {string} */ spec) => run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(spec)})`], project);
  for (const entry of ['koikoi-p2p', 'koikoi-p2p/match', 'koikoi-p2p/node', 'koikoi-p2p/audit', 'koikoi-p2p/rules', 'koikoi-p2p/deck']) {
    const r = probe(entry);
    assert.equal(r.status, 0, `${entry}: ${r.out}`);
  }
  for (const internal of ['koikoi-p2p/src/protocol/peer.js', 'koikoi-p2p/src/api/session.js', 'koikoi-p2p/protocol/flow']) {
    const r = probe(internal);
    assert.notEqual(r.status, 0, internal);
    assert.match(r.out, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
  }
  for (const file of ['types/api/match.d.ts', 'types/api/node.d.ts', 'LICENSE', 'README.md']) readFileSync(path.join(project, 'node_modules', 'koikoi-p2p', file));
});

test('a strict TypeScript consumer type-checks against the packed package', { skip }, () => {
  copyFileSync(path.join(HERE, 'consumer.ts'), path.join(project, 'consumer.ts'));
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], strict: true, noEmit: true, types: [] },
    files: ['consumer.ts'],
  }));
  const r = run(process.execPath, [path.join(WEB, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
  assert.equal(r.status, 0, r.out);
});

test("the README's example plays koikoi join over a relay in Node and the transcript verifies", { skip }, async () => {
  writeFileSync(path.join(project, 'play.mjs'), readmeExample());
  const child = spawn(process.execPath, ['--experimental-websocket', 'play.mjs', relay.url], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (c) => { out += c; });
  const code = await new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      const m = out.match(/room ([A-Z0-9]{6})/);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`the example ended before its room: ${out}`)));
  });
  const joined = await koikoiJoin(/** @type {string} */ (code), path.join(scratch, 'home-node'));
  const status = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
  assert.equal(status, 0, out);
  assert.match(joined, /EXIT 0/, joined);
  assert.match(out, /^final /m, out);
  const files = readdirSync(path.join(project, 'matches'));
  const transcript = files.find((f) => f.endsWith('.transcript'));
  const result = files.find((f) => f.endsWith('.result'));
  assert.ok(transcript && result, files.join(' '));
  assert.ok(!files.some((f) => f.endsWith('.journal')), 'the journal (it holds the seeds) is forgotten at the end');
  const v = verify(path.join(project, 'matches', transcript));
  assert.equal(v.status, 0, v.out);
  const vr = verify('--result', path.join(project, 'matches', result));
  assert.equal(vr.status, 0, vr.out);
  // The package's own auditor, as installed (its koikoi-verify command), agrees.
  const js = run(path.join(project, 'node_modules', '.bin', 'koikoi-verify'), [path.join('matches', transcript)], project);
  assert.equal(js.status, 0, js.out);
});

/** Serve a folder on loopback. @param {string} root */
function serve(root) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(String(req.url), 'http://x').pathname));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': /** @type {any} */ (types)[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const HTML = (/** @type {string} */ script) => `<!doctype html><meta charset="utf-8"><title>consumer</title><pre id="log"></pre><script type="module" src="${script}"></script>\n`;

test('a page bundled by esbuild and by Vite plays koikoi join in Chromium and its transcript verifies', { skip }, async () => {
  const pages = path.join(project, 'pages');
  // esbuild: the package's browser entry, no configuration.
  mkdirSync(path.join(pages, 'esbuild'), { recursive: true });
  copyFileSync(PAGE, path.join(project, 'page.js'));
  const es = run(path.join(BIN, 'esbuild'), ['page.js', '--bundle', '--format=esm', '--platform=browser', '--target=es2022', '--outfile=pages/esbuild/page.js'], project);
  assert.equal(es.status, 0, es.out);
  writeFileSync(path.join(pages, 'esbuild', 'index.html'), HTML('./page.js'));
  // Vite: a project root with index.html and the page, `vite build` with no configuration file.
  const viteRoot = path.join(project, 'vite');
  mkdirSync(viteRoot);
  copyFileSync(PAGE, path.join(viteRoot, 'page.js'));
  writeFileSync(path.join(viteRoot, 'index.html'), HTML('./page.js'));
  const vite = run(path.join(BIN, 'vite'), ['build', '--outDir', path.join(pages, 'vite'), '--emptyOutDir', '--base', './', '--logLevel', 'warn'], viteRoot);
  assert.equal(vite.status, 0, vite.out);
  const server = /** @type {import('node:http').Server} */ (await serve(pages));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const browser = await launch();
  /** Play one match in a page of this bundle against koikoi join; check its files. @param {string} bundler */
  const playPage = async (bundler) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (/** @type {Error} */ e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${port}/${bundler}/index.html?relay=${encodeURIComponent(relay.url)}`);
    await page.waitForFunction(() => /** @type {any} */ (window).koikoi?.code, null, { timeout: 30000 });
    const code = await page.evaluate(() => /** @type {any} */ (window).koikoi.code);
    const joined = await koikoiJoin(code, path.join(scratch, `home-${bundler}`));
    await page.waitForFunction(() => /** @type {any} */ (window).koikoi?.done, null, { timeout: 120000 });
    const state = await page.evaluate(() => /** @type {any} */ (window).koikoi);
    assert.deepEqual(errors, [], bundler);
    assert.equal(state.outcome, 'match_over', `${bundler}: ${state.outcome}\n${joined}`);
    assert.match(joined, /EXIT 0/, joined);
    assert.deepEqual(state.pending, [], 'the store forgot the journal');
    const file = path.join(scratch, `${bundler}.transcript`);
    writeFileSync(file, Buffer.from(state.transcript, 'hex'));
    const v = verify(file);
    assert.equal(v.status, 0, `${bundler}: ${v.out}`);
    writeFileSync(`${file}.result`, Buffer.from(state.result, 'hex'));
    const vr = verify('--result', `${file}.result`);
    assert.equal(vr.status, 0, `${bundler}: ${vr.out}`);
    await context.close();
  };
  try {
    // Both pages play at once, each against its own koikoi join, on the one relay.
    await Promise.all([playPage('esbuild'), playPage('vite')]);
  } finally {
    await browser.close();
    server.close();
  }
});

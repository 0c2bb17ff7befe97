// The package's metadata and public surface (web/package.json, web/README.md): the version
// follows the protocol version, the exports map names only the documented entry points, and the
// browser entry points reach no Node built-in through any import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { PROTOCOL_VERSION } from '../../src/api/match.js';
import { GAME_VERSION } from '../../src/protocol/statement.js';

const WEB = path.join(REPO, 'web');
const pkg = JSON.parse(readFileSync(path.join(WEB, 'package.json'), 'utf8'));
const ENTRIES = ['.', './match', './node', './audit', './rules', './deck', './package.json'];

test('the major version is the protocol version, and the package is publishable', () => {
  assert.equal(Number(pkg.version.split('.')[0]), PROTOCOL_VERSION);
  assert.equal(PROTOCOL_VERSION, GAME_VERSION);
  assert.equal(pkg.private, undefined);
  assert.equal(pkg.license, 'MIT');
  assert.ok(existsSync(path.join(WEB, 'LICENSE')) && existsSync(path.join(WEB, 'README.md')));
  assert.match(pkg.scripts.prepack, /types/);
});

test('exports names the documented entry points only, each with its types', () => {
  assert.deepEqual(Object.keys(pkg.exports), ENTRIES);
  const readme = readFileSync(path.join(WEB, 'README.md'), 'utf8');
  for (const key of ENTRIES.filter((k) => k !== '.' && k !== './package.json')) {
    const target = pkg.exports[key];
    assert.ok(existsSync(path.join(WEB, target.default ?? target.node)), key);
    assert.match(target.types, /^\.\/types\/api\/\w+\.d\.ts$/);
    assert.ok(readme.includes(`koikoi-p2p/${key.slice(2)}`), `the README documents ${key}`);
  }
  assert.deepEqual(pkg.exports['.'], pkg.exports['./match']);
  // The Node-only entry resolves under the "node" condition alone: a browser bundle cannot pull it in.
  assert.deepEqual(Object.keys(pkg.exports['./node']), ['types', 'node']);
});

/** Every module a module imports, transitively (relative imports; bare ones collected). @param {string} file */
function importGraph(file) {
  const seen = new Set();
  /** @type {Set<string>} */
  const bare = new Set();
  const visit = (/** @type {string} */ f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)import\s+'([^']+)'/g)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(f), spec));
      else bare.add(spec);
    }
  };
  visit(file);
  return { files: seen, bare };
}

test('the browser entry points import no Node built-in', () => {
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  for (const entry of ['match', 'audit', 'rules', 'deck']) {
    const { files, bare } = importGraph(path.join(WEB, 'src', 'api', `${entry}.js`));
    assert.ok(files.size > 3, entry);
    for (const spec of bare) {
      assert.ok(!builtins.has(spec) && !spec.startsWith('node:'), `${entry} reaches ${spec}`);
      assert.ok(spec in pkg.dependencies, `${entry} imports ${spec}, which is not a dependency`);
    }
  }
  assert.ok(importGraph(path.join(WEB, 'src', 'api', 'node.js')).bare.has('node:fs'));
});

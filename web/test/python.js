// The Python implementation, run as a black box: its relay process, its `koikoi` command and
// small driver scripts. Tests that need it skip when the repository's .venv is missing, and fail
// under CI=true (where .ci/run made the venv first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './helpers.js';

export const PYTHON = path.join(REPO, '.venv', 'bin', 'python');
export const KOIKOI = path.join(REPO, '.venv', 'bin', 'koikoi');

/** Why a Python-dependent test cannot run, or false. */
export function pythonMissing() {
  if (existsSync(PYTHON)) return false;
  if (process.env.CI === 'true') throw new Error('the Python venv (.venv) is missing under CI=true');
  return 'the Python implementation is not installed in .venv (python3 -m venv .venv && .venv/bin/pip install -e .)';
}

/**
 * Start a relay process on a free loopback port; resolves with its URL and a stop function.
 * @param {string[]} [args]
 */
export function startRelay(args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-m', 'koikoi_relay', '--host', '127.0.0.1', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk.toString();
      const m = out.match(/relay listening on (ws:\/\/127\.0\.0\.1:\d+\/v1)/);
      if (m) {
        resolve({
          url: m[1],
          process: child,
          stop: () => new Promise((done) => {
            if (child.exitCode !== null) return done(undefined);
            child.once('exit', () => done(undefined));
            child.kill('SIGTERM');
          }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay exited (${code}): ${out}`)));
  });
}

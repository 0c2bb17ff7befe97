// The argument parsing and output of web/bin/peer.js (and of the interop tests' cheating peer).
import { writeFileSync } from 'node:fs';
import { ready } from '../src/sodium.js';
import { playComputerSeat } from '../src/net/computer.js';

/**
 * @param {string[]} argv
 * @param {{tamper?: (type: string, body: {[key: string]: any}) => {[key: string]: any}}} [extra]
 */
export async function main(argv, extra = {}) {
  /** @param {string} name */
  const opt = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const role = argv[0];
  if (role !== 'host' && role !== 'join') {
    process.stderr.write('usage: node web/bin/peer.js host|join [CODE] --relay URL [--password PW] [--rules PRESET] [--rounds N] [--strategy random|greedy|strong|master] [--seed S] [--transcript FILE] [--result FILE] [--link] [--public] [--resign-at N] [--stall-at N]\n');
    process.exit(2);
  }
  await ready();
  const rounds = opt('rounds');
  const resignAt = opt('resign-at');
  const stallAt = opt('stall-at');
  const outcome = await playComputerSeat({
    role, relay: opt('relay') ?? process.env.KOIKOI_RELAY ?? 'ws://127.0.0.1:8765/v1', code: argv[1],
    password: opt('password') ?? null, rules: opt('rules'), rounds: rounds ? Number(rounds) : undefined,
    strategy: /** @type {any} */ (opt('strategy')), seed: opt('seed'), link: argv.includes('--link'),
    public: argv.includes('--public'), tamper: extra.tamper, resignAt: resignAt ? Number(resignAt) : undefined,
    stallAt: stallAt ? Number(stallAt) : undefined,
    onRoom: (code, seat) => process.stdout.write(`${JSON.stringify({ code, seat })}\n`),
    onEvent: (ev) => {
      if (ev.type === 'paired' && ev.sas) process.stderr.write(`SAS ${ev.sas}\n`);
    },
  });
  const file = opt('transcript');
  const saved = outcome.evidence ?? outcome.transcript;
  if (file && saved) writeFileSync(file, saved);
  const resultFile = opt('result');
  if (resultFile && outcome.result) writeFileSync(resultFile, outcome.result);
  const failure = /** @type {any} */ (outcome.failure);
  process.stdout.write(`${JSON.stringify({
    ok: outcome.ok, scores: outcome.scores, winner: outcome.winner, repairs: outcome.repairs, dropped: outcome.dropped,
    failure: failure ? { reason: failure.reason, detail: failure.detail, blame: failure.blame, seq: failure.seq } : null,
  })}\n`);
  process.exit(outcome.ok ? 0 : 1);
}

#!/usr/bin/env node
// node web/bin/peer.js host|join [CODE] --relay URL [options]: a JavaScript computer peer that
// plays a whole match unattended through a relay, with the random or greedy strategy.
//
//   --password PW        room password (SPAKE2); without it the SAS is printed
//   --rules PRESET       seat 0's rule preset (default nintendo); --rounds N the match length
//   --strategy KIND      random (default) or greedy; --seed S makes everything reproducible (tests)
//   --transcript FILE    write the transcript (or the evidence file after a deviation)
//   --result FILE        write the co-signed result
//   --public             list the room in the lobby
//   --link               run the retransmission link of spec/protocol.md §12.1 over the relay
// Prints one JSON line when the room exists ({"code": ...}) and one at the end (the outcome).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

if (!(/** @type {any} */ (globalThis).WebSocket)) {
  // Node 20 has its WebSocket client behind a flag.
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const { ready } = await import('../src/sodium.js');
const { RelayClient } = await import('../src/net/relay_client.js');
const { runMatch } = await import('../src/net/match.js');
const { LinkTransport } = await import('../src/net/link_transport.js');
const { Identity } = await import('../src/protocol/identity.js');
const { systemRandom, vectorStream } = await import('../src/mentalpoker/rng.js');
const { preset, withRounds } = await import('../src/rules/profile.js');
const { createPlayer } = await import('../src/ai/players.js');
const { toHex } = await import('../src/bytes.js');

const argv = process.argv.slice(2);
/** @param {string} name */
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const role = argv[0];
if (role !== 'host' && role !== 'join') {
  process.stderr.write('usage: node web/bin/peer.js host|join [CODE] --relay URL [--password PW] [--rules PRESET] [--rounds N] [--strategy random|greedy] [--seed S] [--transcript FILE] [--result FILE]\n');
  process.exit(2);
}
const relay = opt('relay') ?? process.env.KOIKOI_RELAY ?? 'ws://127.0.0.1:8765/v1';
const seed = opt('seed');
const seat = role === 'host' ? 0 : 1;
const rng = seed ? vectorStream(`js-peer/${seed}/${seat}`) : systemRandom;
await ready();
const identity = Identity.generate(rng);
const player = createPlayer(/** @type {any} */ (opt('strategy') ?? 'random'), seed ? `${seed}/${seat}` : toHex(systemRandom(8)));
const rules = opt('rules') ?? 'nintendo';
const rounds = opt('rounds');
const profile = rounds ? withRounds(preset(rules), Number(rounds)) : preset(rules);

const client = role === 'host'
  ? await RelayClient.create(relay, { public: argv.includes('--public'), meta: { rules } })
  : await RelayClient.join(relay, argv[1]);
process.stdout.write(`${JSON.stringify({ code: client.code, seat })}\n`);
if (role === 'host') await client.waitForPeer();

const transport = argv.includes('--link') ? new LinkTransport(client, { rng, keepalive: 0 }) : client;
const outcome = await runMatch(transport, {
  seat, identity, room: client.code, password: opt('password') ?? null, rng, profile, autoAccept: true,
}, {
  choose: (peer) => player.choose(/** @type {any} */ (peer.flow).engine, seat),
  onEvent: (ev) => {
    if (ev.type === 'paired' && ev.sas) process.stderr.write(`SAS ${ev.sas}\n`);
  },
});
await transport.close();
const file = opt('transcript');
if (file && (outcome.evidence || outcome.transcript)) writeFileSync(file, /** @type {Uint8Array} */ (outcome.evidence ?? outcome.transcript));
const resultFile = opt('result');
if (resultFile && outcome.result) writeFileSync(resultFile, outcome.result);
const failure = /** @type {any} */ (outcome.failure);
process.stdout.write(`${JSON.stringify({
  ok: outcome.ok, scores: outcome.scores, winner: outcome.winner,
  failure: failure ? { reason: failure.reason, detail: failure.detail, blame: failure.blame, seq: failure.seq } : null,
})}\n`);
process.exit(outcome.ok ? 0 : 1);

#!/usr/bin/env node
// node web/bin/peer.js host|join [CODE] --relay URL [options]: a JavaScript computer peer that
// plays a whole match unattended through a relay, with a computer player (random, greedy, strong, master or expert).
//
//   --password PW        room password (SPAKE2); without it the SAS is printed on stderr
//   --rules PRESET       seat 0's rule preset (default nintendo); --rounds N the match length
//   --strategy KIND      random (default), greedy, strong, master or expert; --seed S makes everything reproducible (tests)
//   --transcript FILE    write the transcript (or the evidence file after a deviation)
//   --result FILE        write the co-signed result
//   --public             list the room in the lobby
//   --link               run the retransmission link of spec/protocol.md §12.1 over the relay
//   --resign-at N        resign when asked to act for the N-th time (spec/game.md §6.3)
//   --stall-at N         never answer the N-th decision (a player who walked away; §12.4 tests)
// Prints one JSON line when the room exists ({"code": ...}) and one at the end (the outcome).
import { spawnSync } from 'node:child_process';

if (!(/** @type {any} */ (globalThis).WebSocket)) {
  // Node 20 has its WebSocket client behind a flag.
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const { main } = await import('./peer_main.js');
await main(process.argv.slice(2));

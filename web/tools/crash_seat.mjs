// One seat of a match over a relay, as its own process, for resume_relay.test.js: the host
// (seat 0) with a FileStore, played by a computer. It prints one line per thing the test waits
// for ("room CODE", "decided N", "over PATH"); the test kills it with SIGKILL mid-match and runs it
// again with `resume`, which rebuilds the seat from the same folder (spec/protocol.md §12.3).
//
//   node --experimental-websocket crash_seat.mjs host RELAY_URL FOLDER
//   node --experimental-websocket crash_seat.mjs resume RELAY_URL FOLDER CODE
import { ready, hostRoom, rejoinRoom, Match, newIdentity } from '../src/api/match.js';
import { FileStore } from '../src/api/node.js';

const [mode, url, folder, code] = process.argv.slice(2);
await ready();
const store = new FileStore(folder);
/** @type {Match} */
let match;
if (mode === 'host') {
  const room = await hostRoom(url, { keepalive: 1 });
  console.log(`room ${room.code}`);
  // Two rounds, so that the match cannot end between "decided 3" and the test's SIGKILL (one
  // round may: a stop right after an early yaku).
  match = new Match(await room.connect(), { seat: 0, identity: newIdentity(), room: room.code, rounds: 2, store, id: 'seat0' });
} else {
  const [id] = await store.list();
  match = await Match.resume(rejoinRoom(url, 0, code, { keepalive: 1 }), store, id);
  console.log(`resumed ${id}`);
}
const computer = match.computer('random', `crash-${mode}`);
let decided = 0;
for await (const event of match.events()) {
  if (event.type === 'your_turn' || event.type === 'choice') {
    await match.decide(computer.choose());
    console.log(`decided ${++decided}`);
  } else if (event.type === 'match_over') console.log(`over ${event.saved.transcript} ${event.saved.result}`);
  else if (event.type === 'failure') console.log(`failure ${event.reason}: ${event.message}`);
}

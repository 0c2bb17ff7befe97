// The minimal page of the consumer test, bundled from the installed package by esbuild and by
// Vite: the README's example in a browser (the relay from ?relay=, the store in IndexedDB). It
// shows the room code, then the outcome, and leaves the files on `window.koikoi` for the test.
import { ready, hostRoom, Match, newIdentity, IndexedDbStore, toHex } from 'koikoi-p2p';

const log = (/** @type {string} */ line) => { document.getElementById('log')?.append(`${line}\n`); };
/** @type {any} */
const state = { code: null, done: false, outcome: null, transcript: null, result: null, saved: null, pending: null };
/** @type {any} */ (window).koikoi = state;

await ready();
const store = new IndexedDbStore('koikoi-consumer');
const room = await hostRoom(String(new URLSearchParams(location.search).get('relay')));
state.code = room.code;
log(`room ${room.code}`);
const match = new Match(await room.connect(), { seat: 0, identity: newIdentity(), room: room.code, profile: 'nintendo', rounds: 1, store });
const computer = match.computer('random');
for await (const event of match.events()) {
  if (event.type === 'your_turn' || event.type === 'choice') await match.decide(computer.choose());
  else if (event.type === 'round_over') log(`round ${event.roundIndex} ${event.result.reason} ${event.scores}`);
  else if (event.type === 'match_over' || event.type === 'failure') {
    state.outcome = event.type === 'match_over' ? 'match_over' : `${event.reason}: ${event.message}`;
    state.saved = event.saved;
    const transcript = event.saved.transcript ? await store.file(event.saved.transcript) : null;
    state.transcript = transcript ? toHex(transcript) : null;
    state.result = event.type === 'match_over' ? toHex(event.result) : null;
    state.pending = await store.list();
    log(`end ${state.outcome}`);
  }
}
state.done = true;

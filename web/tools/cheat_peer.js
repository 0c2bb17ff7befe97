#!/usr/bin/env node
// The interop tests' cheating JavaScript peer: web/bin/peer.js with --cheat KIND, which changes
// the first message of a kind after its own flow applied the honest one (the same cheats as
// tests/interop/py_peer.py --cheat):
//   bad_key         the first key message: one byte of the proof's response flipped
//   bad_shuffle     the first shuffle: one byte of the proof's last response flipped
//   bad_share       the first message with shares: its first share replaced by the base point
//   illegal_action  the first play: position 47 (a stock position, never in a hand)
//   extra_field     the first act: one more body field
import { spawnSync } from 'node:child_process';
import { BASE_POINT } from '../src/mentalpoker/group.js';

if (!(/** @type {any} */ (globalThis).WebSocket)) {
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const argv = process.argv.slice(2);
const i = argv.indexOf('--cheat');
const cheat = argv[i + 1];
argv.splice(i, 2);
let done = false;
/** @param {Uint8Array} b @param {number} at */
const flip = (b, at) => {
  const c = b.slice();
  c[at] ^= 1;
  return c;
};
/** @param {string} type @param {{[key: string]: any}} body */
function tamper(type, body) {
  if (done) return body;
  if (cheat === 'bad_key' && type === 'key') {
    done = true;
    return { ...body, key: flip(body.key, 70) };
  }
  if (cheat === 'bad_shuffle' && type === 'shuffle') {
    done = true;
    return { ...body, deck: flip(body.deck, body.deck.length - 32) };
  }
  if (cheat === 'bad_share' && Array.isArray(body.shares) && body.shares.length) {
    done = true;
    const [positions, data] = body.shares[0];
    const changed = data.slice();
    changed.set(BASE_POINT, 0);
    return { ...body, shares: [[positions, changed], ...body.shares.slice(1)] };
  }
  if (cheat === 'illegal_action' && type === 'act' && body.action.type === 'play') {
    done = true;
    return { ...body, action: { type: 'play', position: 47 } };
  }
  if (cheat === 'extra_field' && type === 'act') {
    done = true;
    return { ...body, extra: 1 };
  }
  return body;
}
const { main } = await import('../bin/peer_main.js');
await main(argv, { tamper });

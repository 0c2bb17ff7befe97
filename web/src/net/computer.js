// A computer seat over a relay: the whole match unattended with a js-rules strategy (random or
// greedy). Used by web/bin/peer.js and the interop tests; the browser's worker plays the same way.
import { RelayClient } from './relay_client.js';
import { LinkTransport } from './link_transport.js';
import { runMatch } from './match.js';
import { Identity } from '../protocol/identity.js';
import { systemRandom, vectorStream } from '../mentalpoker/rng.js';
import { preset, withRounds } from '../rules/profile.js';
import { createPlayer } from '../ai/players.js';
import { toHex } from '../bytes.js';

/**
 * @typedef {{role: 'host' | 'join', relay: string, code?: string, password?: string | null, rules?: string,
 *   rounds?: number, strategy?: 'random' | 'greedy', seed?: string, link?: boolean, public?: boolean,
 *   tamper?: (type: string, body: {[key: string]: any}) => {[key: string]: any},
 *   onRoom?: (code: string, seat: number) => void, onEvent?: (ev: import('../protocol/peer.js').PeerEvent) => void,
 *   gameVersion?: 1 | 2}} SeatOptions
 */

/**
 * Play one computer seat through a relay; resolves with the outcome of runMatch.
 * @param {SeatOptions} o
 */
export async function playComputerSeat(o) {
  const seat = o.role === 'host' ? 0 : 1;
  // A seed makes identities, every draw and every choice reproducible: test use only.
  const rng = o.seed ? vectorStream(`js-peer/${o.seed}/${seat}`) : systemRandom;
  const identity = Identity.generate(rng);
  const player = createPlayer(o.strategy ?? 'random', o.seed ? `${o.seed}/${seat}` : toHex(systemRandom(8)));
  const rules = o.rules ?? 'nintendo';
  const profile = o.rounds ? withRounds(preset(rules), o.rounds) : preset(rules);
  const client = o.role === 'host'
    ? await RelayClient.create(o.relay, { public: o.public ?? false, meta: { rules } })
    : await RelayClient.join(o.relay, /** @type {string} */ (o.code));
  o.onRoom?.(client.code, seat);
  if (o.role === 'host') await client.waitForPeer();
  const transport = o.link ? new LinkTransport(client, { rng }) : client;
  const outcome = await runMatch(transport, {
    seat: /** @type {0 | 1} */ (seat), identity, room: client.code, password: o.password ?? null, rng, profile,
    autoAccept: true, tamper: o.tamper,
  }, {
    choose: (peer) => player.choose(/** @type {any} */ (peer.flow).live ? /** @type {any} */ (peer.flow).live.engine : /** @type {any} */ (peer.flow).engine, /** @type {0 | 1} */ (seat)),
    onEvent: o.onEvent, gameVersion: o.gameVersion,
  });
  await transport.close();
  return outcome;
}

// A computer seat over a relay: the whole match unattended with a computer player of web/src/ai
// (random, greedy, strong or master). Used by web/bin/peer.js and the interop tests; the browser's worker plays the same way.
import { RelayClient } from './relay_client.js';
import { LinkTransport } from './link_transport.js';
import { RelayRendezvous } from './rendezvous.js';
import { runMatch } from './match.js';
import { Identity } from '../protocol/identity.js';
import { systemRandom, vectorStream } from '../mentalpoker/rng.js';
import { preset, withRounds } from '../rules/profile.js';
import { createPlayer, preparePlayer } from '../ai/players.js';
import { RoundFollower } from '../ai/follow.js';
import { toHex } from '../bytes.js';

/**
 * @typedef {{role: 'host' | 'join', relay: string, code?: string, password?: string | null, rules?: string,
 *   rounds?: number, strategy?: 'random' | 'greedy' | 'strong' | 'master' | 'expert', seed?: string, link?: boolean, public?: boolean, resignAt?: number, stallAt?: number,
 *   tamper?: (type: string, body: {[key: string]: any}) => {[key: string]: any},
 *   onRoom?: (code: string, seat: number) => void, onEvent?: (ev: import('../protocol/peer.js').PeerEvent) => void}} SeatOptions
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
  const rules = o.rules ?? 'nintendo';
  const profile = o.rounds ? withRounds(preset(rules), o.rounds) : preset(rules);
  await preparePlayer(o.strategy ?? 'random');
  const player = createPlayer(o.strategy ?? 'random', o.seed ? `${o.seed}/${seat}` : toHex(systemRandom(8)), { profile });
  // The match context and the round's public history, as the Python driver tells its strategies.
  const follower = new RoundFollower(player, /** @type {0 | 1} */ (seat));
  const client = o.role === 'host'
    ? await RelayClient.create(o.relay, { public: o.public ?? false, meta: { rules } })
    : await RelayClient.join(o.relay, /** @type {string} */ (o.code));
  o.onRoom?.(client.code, seat);
  if (o.role === 'host') await client.waitForPeer();
  // With the link, a relay restart (or a client that cannot resume) pairs the seats again in a
  // rejoin room of the room code (spec/protocol.md §12.2), as the Python driver does.
  const connect = new RelayRendezvous(o.relay, /** @type {0 | 1} */ (seat), client.code, { first: client });
  const transport = o.link ? new LinkTransport(await connect.connect(), { rng, connect, keepalive: 10, vouching: true }) : client;
  let asked = 0;
  const outcome = await runMatch(transport, {
    seat: /** @type {0 | 1} */ (seat), identity, room: client.code, password: o.password ?? null, rng, profile,
    autoAccept: true, tamper: o.tamper,
  }, {
    choose: (peer) => {
      const engine = /** @type {any} */ (peer.flow).live.engine;
      return player.choose(engine, /** @type {0 | 1} */ (seat), RoundFollower.context(/** @type {any} */ (peer.flow), engine.profile));
    },
    onEvent: (ev) => { follower.see(/** @type {any} */ (ev)); o.onEvent?.(ev); },
    // Stall at (never answer) the stallAt-th decision, resign at the resignAt-th (tests of
    // spec/protocol.md §12.4 and spec/game.md §6.3).
    resign: () => asked === o.resignAt,
    stall: () => (asked += 1) === o.stallAt,
  });
  await transport.close();
  // How many times the link paired again through the relay (spec/protocol.md §12.2).
  return { ...outcome, repairs: transport instanceof LinkTransport ? transport.repairs : 0 };
}

// Rooms on a relay (spec/relay.md) as transports for a Match: the relay client under the
// retransmission link (spec/protocol.md §12.1), pairing again through the lobby after a relay
// restart or a lost connection (§12.2), as the Python client and the browser app do. The
// WebSocket is the runtime's (browsers, Node 22+; Node 20 needs --experimental-websocket) unless
// one is passed (e.g. the `ws` package's).
import { RelayClient } from '../net/relay_client.js';
import { RelayRendezvous } from '../net/rendezvous.js';
import { LinkTransport } from '../net/link_transport.js';
import { systemRandom } from '../mentalpoker/rng.js';

/**
 * @typedef {{WebSocket?: any, keepalive?: number, giveUpMs?: number, onState?: (state: 'connected' | 'reconnecting') => void}} LinkOptions
 *   `keepalive`: seconds between keepalives (default 10); `giveUpMs`: stop after this long
 *   without the peer (default: never); `onState` hears when pairing again starts and ends.
 * @typedef {{code: string, seat: 0 | 1, client: RelayClient, connect: () => Promise<LinkTransport>, close: () => Promise<void>}} Room
 *   `connect()` resolves with the match's transport once both seats are in the room.
 */

/**
 * @param {string} url @param {0 | 1} seat @param {string} code @param {RelayClient | null} first @param {LinkOptions} options
 */
function link(url, seat, code, first, options) {
  const connect = new RelayRendezvous(url, seat, code, { first, WebSocket: options.WebSocket });
  return new LinkTransport(first, {
    rng: systemRandom, keepalive: options.keepalive ?? 10, connect, vouching: true, confirm: true,
    giveUpMs: options.giveUpMs, onState: options.onState,
  });
}

/**
 * Open a room as its host (seat 0). Tell the joiner `room.code`; `room.connect()` waits for them.
 * @param {string} url the relay, e.g. wss://relay.example/v1
 * @param {LinkOptions & {public?: boolean, meta?: {[key: string]: unknown}, listing?: {[key: string]: unknown}}} [options]
 *   `public` lists the room in the lobby with `meta` (and `listing`, spec/relay.md §4.2).
 * @returns {Promise<Room>}
 */
export async function hostRoom(url, options = {}) {
  const client = await RelayClient.create(url, { public: options.public ?? false, meta: options.meta, listing: options.listing, WebSocket: options.WebSocket });
  return {
    code: client.code, seat: 0, client,
    connect: async () => {
      await client.waitForPeer();
      return link(url, 0, client.code, client, options);
    },
    close: () => client.close(),
  };
}

/**
 * Join the room with this code (seat 1).
 * @param {string} url @param {string} code @param {LinkOptions} [options]
 * @returns {Promise<Room>}
 */
export async function joinRoom(url, code, options = {}) {
  const client = await RelayClient.join(url, code, { WebSocket: options.WebSocket });
  return {
    code: client.code, seat: 1, client,
    connect: async () => link(url, 1, client.code, client, options),
    close: () => client.close(),
  };
}

/**
 * The transport of a match resumed from its store (`Match.resume`): it pairs with the other seat
 * again through the relay's lobby, in the rejoin room of the code the match started in (§12.2).
 * @param {string} url @param {0 | 1} seat @param {string} code @param {LinkOptions} [options]
 */
export function rejoinRoom(url, seat, code, options = {}) {
  return link(url, seat, code, null, options);
}

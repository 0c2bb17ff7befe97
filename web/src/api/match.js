// koikoi-p2p (the main entry, also "koikoi-p2p/match"): one seat of a trustless Koi-Koi match,
// for Node 20+ and browsers alike (no Node built-ins here; FileStore is in "koikoi-p2p/node").
//
//   await ready();                                  // load libsodium once
//   const room = await hostRoom(relayUrl);          // or joinRoom(relayUrl, code)
//   const match = new Match(await room.connect(), {seat: 0, identity: newIdentity(), room: room.code});
//   for await (const event of match.events()) { ... match.decide(event.options[0]) ... }
//
// The layers under Match are public too, as in the Python package: GamePeer (sans-I/O: frames
// and decisions in, frames and events out), Journal (its crash-safe log) and the relay client
// and retransmission link.
export { Match } from './session.js';
export { MemoryStore, IndexedDbStore } from './stores.js';
export { hostRoom, joinRoom, rejoinRoom } from './relay.js';
export { ready } from '../sodium.js';
export { Identity, fingerprint } from '../protocol/identity.js';
export { newIdentity } from './identity.js';
export { sealIdentity, openIdentity, IdentityFileError } from '../protocol/identity_file.js';
export { ProtocolError, LocalError, RemoteViolation } from '../protocol/errors.js';
export { DEFAULT_DEADLINES, ratingsProblem } from '../protocol/terms.js';
export { VERSION as PROTOCOL_VERSION } from '../protocol/handshake.js';
export { systemRandom } from '../mentalpoker/rng.js';
export { Profile, PRESETS, preset, withRounds } from '../rules/profile.js';
export { actionText, actionToDict, actionFromDict } from '../rules/actions.js';
// The computer players (also reachable through Match#computer).
export { createPlayer, preparePlayer, PLAYER_KINDS } from '../ai/players.js';
export { RoundFollower } from '../ai/follow.js';
// The layers underneath.
export { GamePeer } from '../protocol/peer.js';
export { Journal, JOURNAL_VERSION } from '../protocol/journal.js';
export { RelayClient, RelayError, RelayClosed, normaliseCode, isWellFormedCode } from '../net/relay_client.js';
export { RelayRendezvous, peerHoldsSession } from '../net/rendezvous.js';
export { AWAY_MS, LinkTransport } from '../net/link_transport.js';
export { roomListing } from '../net/listing.js';
export { serviceUrl, locateService, findService } from '../net/ratings.js';
export { claimHold, memoryPair } from '../net/match.js';
export { RelayReach, RELAY_GRACE_S, RELAY_HOLD_MAX_S } from '../net/reach.js';
export { toHex, fromHex } from '../bytes.js';

/** @typedef {import('./session.js').MatchEvent} MatchEvent */
/** @typedef {import('./session.js').MatchOptions} MatchOptions */
/** @typedef {import('./session.js').Transport} Transport */
/** @typedef {import('./session.js').PairedEvent} PairedEvent */
/** @typedef {import('./session.js').TermsProposedEvent} TermsProposedEvent */
/** @typedef {import('./session.js').TermsAgreedEvent} TermsAgreedEvent */
/** @typedef {import('./session.js').YourTurnEvent} YourTurnEvent */
/** @typedef {import('./session.js').ChoiceEvent} ChoiceEvent */
/** @typedef {import('./session.js').OpponentMovedEvent} OpponentMovedEvent */
/** @typedef {import('./session.js').RoundOverEvent} RoundOverEvent */
/** @typedef {import('./session.js').MatchOverEvent} MatchOverEvent */
/** @typedef {import('./session.js').TimeUpEvent} TimeUpEvent */
/** @typedef {import('./session.js').FailureEvent} FailureEvent */
/** @typedef {import('./stores.js').MatchStore} MatchStore */
/** @typedef {import('./relay.js').Room} Room */
/** @typedef {import('../rules/actions.js').Action} Action */
/** @typedef {import('../rules/round.js').RoundView} RoundView */
/** @typedef {import('../ai/players.js').Player} Player */

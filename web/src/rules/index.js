// The Koi-Koi rules engine (spec/rules.md): pure and deterministic, no I/O, no dependency.
// Written from spec/rules.md as a second implementation beside koikoi_p2p/rules (Python); the
// tests replay every vector of spec/vectors/rules and compare both engines step by step.
//
// Where things are:
//   cards.js      the 48 cards (§2)
//   profile.js    switches, validation, the six presets, canonical encoding and digest (§3)
//   text.js       switches as text and profile descriptions (§3.7, §3.8)
//   deal.js       deal positions and the first dealer (§5.1, §5.2)
//   scoring.js    yaku, base and round score (§6, §7); handyaku.js the dealt-hand yaku (§6.6)
//   actions.js    actions and their wire form (§8); result.js the round result (§9.8)
//   round.js      RoundState: need / reveal / skipReveal / apply / legalActions / view (§9, §10)
//   match.js      MatchState: round numbering, dealers, scores and pools, the end (§11)
//   simulate.js   helpers that feed a known deck: tests, computer players, benchmarks
//   sha256.js     a small synchronous SHA-256 (so the engine runs unchanged in a browser)

export { RulesError, IllegalMove, InconsistentReveal } from './errors.js';
export { CARDS, card, cardIndex, cardIndices, monthOf } from './cards.js';
export { SWITCHES, HAND_YAKU_IDS, PRESETS, Profile, pairedPool, preset, withRounds } from './profile.js';
export { canonicalJson, encodeCanonical, toHex } from './canonical.js';
export { sha256 } from './sha256.js';
export { dealLayout, firstDealer, chooseFirstDealer } from './deal.js';
export {
  KOIKOI, STOP, NO_HAND_YAKU, play, capture, claimHandYaku, actionFromDict, actionToDict, actionText, sameAction,
} from './actions.js';
export { YAKU_IDS, scoreYaku, scorePile, baseOf, roundScore } from './scoring.js';
export { CLAIM_SIZES, claimHolds, handClaims, bestClaims } from './handyaku.js';
export { RESULT_REASONS, makeResult, resultToDict, resultFromDict } from './result.js';
export { RoundState } from './round.js';
export { MatchState, monthOfRound } from './match.js';
export { runRevealed, playRound, replayRound, arrangedDeck, perft, newRound } from './simulate.js';

/** @typedef {import('./actions.js').Action} Action */
/** @typedef {import('./profile.js').Switches} Switches */
/** @typedef {import('./result.js').RoundResult} RoundResult */
/** @typedef {import('./round.js').Need} Need */
/** @typedef {import('./round.js').NeedAction} NeedAction */
/** @typedef {import('./round.js').NeedReveal} NeedReveal */
/** @typedef {import('./round.js').RoundView} RoundView */
/** @typedef {import('./round.js').Phase} Phase */
/** @typedef {import('./match.js').RoundParams} RoundParams */
/** @typedef {import('./deal.js').DealLayout} DealLayout */
/** @typedef {import('./scoring.js').YakuMap} YakuMap */
export { parseSwitch, formatSwitch, withSwitchText, differences, nearestPreset } from './text.js';
export { EXTENSIONS, ALL_SWITCHES } from './profile.js';

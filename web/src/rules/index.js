// The Koi-Koi rules engine (spec/rules.md): pure and deterministic, no I/O, no dependency.

export { RulesError, IllegalMove, InconsistentReveal } from './errors.js';
export { CARDS, card, cardIndex, cardIndices, monthOf } from './cards.js';
export { SWITCHES, HAND_YAKU_IDS, PRESETS, Profile, preset, withRounds } from './profile.js';
export { canonicalJson, encodeCanonical, toHex } from './canonical.js';
export { sha256 } from './sha256.js';
export { dealLayout, firstDealer } from './deal.js';
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

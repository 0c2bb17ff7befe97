// Fixed tables for the screenshots: positions reached by playing the real rules engine on a
// deck shuffled from a fixed seed, seen from seat 0, in the shape the seat worker posts
// (app/src/seat.js table()). The same position every run, so pictures compare.
import { preset, withRounds } from '../../src/rules/profile.js';
import { newRound, runRevealed } from '../../src/rules/simulate.js';
import { actionToDict } from '../../src/rules/actions.js';
import { roundTable, koikoiHint } from '../../app/src/table.js';
import { roundInfo } from '../../app/src/round_info.js';
import { jitter } from '../../app/src/cards/draw.js';

/** @param {number} seed */
function deck(seed) {
  const rnd = jitter(seed);
  const d = Array.from({ length: 48 }, (_, i) => i);
  for (let i = 47; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [d[i], d[j]] = [d[j], d[i]];
  }
  return d;
}

/**
 * Play seeded rounds (seat 0 as the viewer) until `want` holds, choosing each action by a fixed rule.
 * @param {(state: any) => boolean} want
 */
function find(want) {
  const profile = withRounds(preset('nintendo'), 1);
  for (let seed = 1; seed < 5000; seed++) {
    const d = deck(seed);
    const state = newRound(profile, { dealer: 0, viewer: 0 });
    runRevealed(state, d);
    let moves = 0;
    while (state.need) {
      if (want(state) && moves > 0) return { state, seed };
      const need = state.need;
      const options = state.legalActions();
      // A fixed rule: stop at any yaku, else the option the seed and the move number pick.
      const pick = options.find((/** @type {any} */ o) => o.type === 'stop') ?? options[(seed + moves) % options.length];
      state.apply(/** @type {any} */ (need).seat, pick);
      moves += 1;
      runRevealed(state, d);
      if (want(state)) return { state, seed };
    }
  }
  throw new Error('no seed gives the wanted position');
}

const BASE = {
  seat: 0, mode: 'online', room: 'DEMO42', meta: {}, failure: null, finished: false, over: null, termsProposed: false,
  paired: { seat: 0, sas: null, names: ['Fuji', 'Sakura'], fingerprints: ['ykpi-4zuw-pxd6-jkxt', 'm3qa-8cde-2fgh-9jkl'] },
  terms: { rounds: 1, deadlines: { turn: 300, step: 60 }, profile: null, names: ['Fuji', 'Sakura'], rated: false, ratings: '' },
  connection: 'connected', canResign: true, deadlines: true, resigned: null, timeUp: null,
};

/** @param {any} state */
function tableOf(state) {
  const ask = state.need && state.need.type === 'action' && state.need.seat === 0
    ? { kind: state.need.kind, options: state.legalActions().map((/** @type {any} */ a) => actionToDict(a)) } : null;
  return {
    ...BASE, round: roundTable(state, 0), ask, hint: ask && ask.kind === 'decide' ? koikoiHint(state, 0) : null, handYakuPoints: null,
    match: { scores: [0, 0], roundIndex: 1, dealer: 0, over: false }, lastRound: null, deal: 1,
    wait: state.need ? { seat: /** @type {any} */ (state.need).seat ?? 0, type: 'act', seconds: 300, since: 0, deal: 1 } : null,
  };
}

/** Mid-round, seat 0 to play, both piles started. */
export function boardTable() {
  const { state } = find((s) => s.need && s.need.type === 'action' && s.need.seat === 0 && s.need.kind === 'play'
    && s.piles[0].length >= 4 && s.piles[1].length >= 4);
  return tableOf(state);
}

/** Seat 0 made a yaku and is asked: stop or koi-koi. */
export function koikoiTable() {
  const { state } = find((s) => s.need && s.need.type === 'action' && s.need.seat === 0 && s.need.kind === 'decide');
  return tableOf(state);
}

/** The first round of six ended with a winner, and its summary (as the seat's worker builds it). */
export function roundOverTable() {
  const { state } = find((s) => s.over && s.result && s.result.winner !== null && Object.keys(s.result.yaku).length > 0);
  const t = tableOf(state);
  const profile = withRounds(preset('nintendo'), 6);
  const scores = [0, 0];
  const result = /** @type {any} */ (state.result);
  scores[result.winner] = result.points;
  const lastRound = roundInfo({ result, scores, roundIndex: 1, deal: 1 }, state.view(0), profile, [0, 0], { roundsPlayed: 1, over: false });
  return { ...t, terms: { ...t.terms, rounds: 6, profile: profile.toDict() }, lastRound };
}

/** The match is over after its last round: the match summary. */
export function matchOverTable() {
  const t = roundOverTable();
  const lastRound = { ...t.lastRound, roundsLeft: 0, last: true, roundIndex: 6 };
  return { ...t, ask: null, wait: null, canResign: false, finished: true, lastRound, over: { scores: lastRound.scores, winner: lastRound.result.winner, resigned: null } };
}

/** The joiner (seat 1) is asked to accept a rated match proposed by Fuji. */
export function termsTable() {
  const t = tableOf(find((s) => s.need && s.need.type === 'action' && s.need.seat === 0 && s.need.kind === 'play').state);
  return {
    ...t, seat: 1, round: null, ask: null, hint: null, match: null, wait: { seat: 1, type: 'accept', seconds: 300, since: 0, deal: -1 },
    paired: { ...BASE.paired, seat: 1 }, termsProposed: true, canResign: false,
    terms: { ...BASE.terms, profile: withRounds(preset('nintendo'), 1).toDict(), rated: true, ratings: 'https://ratings.example.org/v1' },
  };
}

/** Seat 0's own time ran out while it was asked to play (spec/protocol.md §12.4, the late side). */
export function timeUpTable() {
  const t = boardTable();
  return {
    ...t, ask: null, finished: true, wait: null, canResign: false, timeUp: { seq: 41, type: 'act', seconds: 300 },
    failure: { reason: 'own_timeout', detail: 'no act sent within 300 s: the other seat may claim abandonment at message 41', blame: 0, seq: null },
  };
}

/**
 * `table` with its person's own decision in its last seconds: 5.5 s left of the time the seat
 * takes it (its 300 s less the 2 s margin, app/src/deadline.js).
 * @param {any} table
 */
export function lowTime(table) {
  return { ...table, wait: { ...table.wait, seat: table.seat, type: 'act', elapsedMs: (table.wait.seconds - 2 - 5.5) * 1000 } };
}

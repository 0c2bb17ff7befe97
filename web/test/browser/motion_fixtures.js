// Fixed moments of a round for the motion screenshots, seen from seat 0 with the history the
// seat's worker keeps (app/src/history.js), in the shape the worker posts (app/src/seat.js
// table()): the rules engine plays a deck shuffled from a fixed seed, and every reveal and action
// goes to the history as the game peer's events would.
import { preset, withRounds } from '../../src/rules/profile.js';
import { newRound } from '../../src/rules/simulate.js';
import { actionToDict } from '../../src/rules/actions.js';
import { roundTable, koikoiHint } from '../../app/src/table.js';
import { History } from '../../app/src/history.js';
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

const BASE = {
  seat: 0, mode: 'online', room: 'DEMO42', meta: {}, failure: null, finished: false, over: null, termsProposed: false,
  paired: { seat: 0, sas: null, names: ['Fuji', 'Sakura'], fingerprints: ['ykpi-4zuw-pxd6-jkxt', 'm3qa-8cde-2fgh-9jkl'] },
  terms: { rounds: 1, deadlines: { turn: 300, step: 60 }, profile: null, names: ['Fuji', 'Sakura'], rated: false, ratings: '' },
  connection: 'connected', canResign: true, deadlines: true, resigned: null, timeUp: null, deal: 1, lastRound: null,
  match: { scores: [0, 0], roundIndex: 1, dealer: 0, over: false }, handYakuPoints: null,
};

/** @param {any} state @param {History} history */
function tableOf(state, history) {
  const ask = state.need && state.need.type === 'action' && state.need.seat === 0
    ? { kind: state.need.kind, options: state.legalActions().map((/** @type {any} */ a) => actionToDict(a)) } : null;
  return {
    ...BASE, round: roundTable(state, 0), ask, hint: ask && ask.kind === 'decide' ? koikoiHint(state, 0) : null,
    wait: state.need ? { seat: /** @type {any} */ (state.need).seat ?? 0, type: 'act', seconds: 300, since: 0, deal: 1 } : null,
    history: history.table(),
  };
}

/**
 * Play seeded rounds, a table after every action, until `want(tables)` picks a sequence.
 * @param {(tables: any[], state: any) => any[] | null} want
 */
function find(want) {
  const profile = withRounds(preset('nintendo'), 1);
  for (let seed = 1; seed < 3000; seed++) {
    const d = deck(seed);
    const history = new History(0);
    history.see({ type: 'terms', terms: { profile } });
    history.see({ type: 'first_dealer', dealer: 0 });
    history.see({ type: 'deal', deal: 1, dealer: 0, roundIndex: 1, month: 1 });
    const state = newRound(profile, { dealer: 0, viewer: 0 });
    const reveal = () => {
      while (state.need !== null && state.need.type === 'reveal') {
        const need = state.need;
        if (need.to !== null && need.to !== 0) { state.skipReveal(); continue; }
        const positions = need.positions.slice();
        const cards = positions.map((/** @type {number} */ p) => d[p]);
        positions.forEach((/** @type {number} */ p, /** @type {number} */ i) => state.reveal(p, cards[i]));
        history.see({ type: 'reveal', deal: 1, positions, cards, to: need.to });
      }
    };
    reveal();
    const tables = [tableOf(state, history)];
    let moves = 0;
    while (state.need) {
      const need = /** @type {any} */ (state.need);
      const options = state.legalActions();
      // A fixed rule: seat 0 stops at any yaku, seat 1 calls koi-koi; else the option the seed and the move number pick.
      const pick = options.find((/** @type {any} */ o) => o.type === (need.seat === 0 ? 'stop' : 'koikoi')) ?? options[(seed + moves) % options.length];
      state.apply(need.seat, pick);
      history.see({ type: 'action', seat: need.seat, action: pick, deal: 1 });
      moves += 1;
      reveal();
      tables.push(tableOf(state, history));
      const got = want(tables, state);
      if (got) return got;
    }
  }
  throw new Error('no seed gives the wanted moment');
}

/** The opponent's half-turn that played, captured and drew: the table before and after. */
export function opponentMove() {
  return find((tables) => {
    const b = tables[tables.length - 1];
    // Before: the table at the start of seat 1's turn.
    const a = tables.slice(0, -1).reverse().find((x) => x.wait && x.wait.seat === 1 && x.round.phase === 'play');
    if (!a || !b || !b.ask || b.ask.kind !== 'play') return null;
    const last = b.history.turns[b.history.turns.length - 1];
    if (!last || last.seat !== 1 || !last.took.length || last.drawn === null || b.round.piles[0].length < 2) return null;
    return [a, b];
  });
}

/** The opponent calls koi-koi: the table before and after the call. */
export function opponentKoikoi() {
  return find((tables) => {
    const [a, b] = tables.slice(-2);
    if (!a || !b || b.round.calls.length !== 1 || a.round.calls.length !== 0 || b.round.calls[0] !== 1) return null;
    return [a, b];
  });
}

/**
 * The match's first table, as the first dealer's draw has just decided it (the moment of its
 * announcement): seat 0 ("You") drew the earlier month and plays first.
 */
export function firstDeal() {
  const [table] = find((tables) => {
    const t = tables.find((x) => x.ask && x.ask.kind === 'play' && x.history.turns.length === 0);
    return t ? [t] : null;
  });
  const first = { method: 'card_draw', dealer: 0, draws: [{ seat: 0, card: 0 }, { seat: 1, card: 8 }] };
  return { ...table, history: { ...table.history, turns: [], first } };
}

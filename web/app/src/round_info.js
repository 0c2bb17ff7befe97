// What a round summary shows of a deal just over, as plain data built in the seat's worker from
// the rules engine (so the page decides nothing): each seat's yaku with the cards that make them,
// the winner's score step by step (base, the doubling, each multiplier of the koi-koi calls) as
// spec/rules.md §7 computes it, the points moved and the match around it.
import {
  BLUE_RIBBONS, BOAR, BUTTERFLIES, CARDS, CHERRY_CURTAIN, DEER, FULL_MOON, POETRY_RIBBONS, RAIN_MAN, SAKE_CUP, cardIndex,
} from '../../src/api/rules.js';
import { roundScore } from '../../src/api/rules.js';

const BRIGHTS = [0, 8, 28, 40, 44];

/**
 * The cards of `pile` that make yaku `id` (spec/rules.md §6); none for the dealt-hand yaku,
 * which are made by a hand, not by captures.
 * @param {string} id @param {number[]} pile @param {any} profile @param {number | null} month
 * @returns {number[]}
 */
export function yakuCards(id, pile, profile, month) {
  const has = new Set(pile);
  const of = (/** @type {readonly number[]} */ cards) => cards.filter((c) => has.has(c));
  const joker = profile.joker_card ? cardIndex(profile.joker_card) : -1;
  switch (id) {
    case 'goko': case 'ame_shiko': case 'sanko':
      return of(BRIGHTS);
    case 'shiko':
      return of(BRIGHTS.filter((c) => c !== RAIN_MAN));
    case 'hanami': return of([SAKE_CUP, CHERRY_CURTAIN]);
    case 'tsukimi': return of([SAKE_CUP, FULL_MOON]);
    case 'inoshikacho': return of([BOAR, DEER, BUTTERFLIES]);
    case 'akatan': return of(POETRY_RIBBONS);
    case 'aotan': return of(BLUE_RIBBONS);
    case 'akatan_aotan': return of([...POETRY_RIBBONS, ...BLUE_RIBBONS]);
    case 'tane': return pile.filter((c) => CARDS[c].kind === 'animal').sort((a, b) => a - b);
    case 'tan': return pile.filter((c) => CARDS[c].kind === 'ribbon').sort((a, b) => a - b);
    case 'kasu':
      return pile.filter((c) => CARDS[c].kind === 'plain' || (c === SAKE_CUP && (profile.cup_is_plain || profile.cup_either)) || c === joker)
        .sort((a, b) => a - b);
    case 'tsukifuda':
      return pile.filter((c) => (profile.monthly_yaku_scope === 'any_month'
        ? pile.filter((d) => CARDS[d].month === CARDS[c].month).length === 4 : CARDS[c].month === month)).sort((a, b) => a - b);
    default:
      return [];
  }
}

// Named yaku that grow by a point for each further card of a kind (the profile's named_extension,
// spec/rules.md §6.5): their points without one, and that kind.
/** @type {Record<string, [number, string]>} */
const EXTENDED = { inoshikacho: [5, 'animal'], akatan: [5, 'ribbon'], aotan: [5, 'ribbon'], akatan_aotan: [10, 'ribbon'] };

/**
 * The cards a yaku's picture shows: those that make it, then the further cards its points count
 * (QA: an inoshikacho of 7 points showed three animals). The sake cup goes last among them: when a
 * profile lets it count as a plain instead, it is the animal the points left out.
 * @param {string} id @param {number[]} cards the cards that make it @param {number[]} pile @param {number} points the yaku's points
 * @returns {number[]}
 */
export function withExtras(id, cards, pile, points) {
  const ext = EXTENDED[id];
  if (!ext || points <= ext[0]) return cards;
  const more = pile.filter((c) => CARDS[c].kind === ext[1] && !cards.includes(c))
    .sort((a, b) => Number(a === SAKE_CUP) - Number(b === SAKE_CUP) || a - b);
  return [...cards, ...more.slice(0, points - ext[0])];
}

/**
 * @typedef {'doubling' | 'opponent_called' | 'calls_shared' | 'own_call' | 'caller_pays' | 'own_calls_add' | 'own_calls_times'} StepWhy
 * @typedef {{factor: number, add?: number, why: StepWhy, n?: number}} ScoreStep a multiplier (`factor`), or with
 *   `add` an addition (`factor` 1)
 */

/**
 * The winner's round score as steps from its base: each factor or addition spec/rules.md §7
 * applies, in its order, with why. Applied in turn to the base they give `roundScore` (a test
 * checks it; `applySteps`).
 * @param {number} base @param {readonly number[]} calls @param {0 | 1} winner @param {any} profile
 * @returns {ScoreStep[]}
 */
export function scoreSteps(base, calls, winner, profile) {
  /** @type {ScoreStep[]} */
  const steps = [];
  if (profile.double_threshold > 0 && base >= profile.double_threshold) steps.push({ factor: 2, why: 'doubling', n: profile.double_threshold });
  switch (profile.koikoi_multiplier) {
    case 'opponent_flat_x2':
      if (calls.includes(1 - winner)) steps.push({ factor: 2, why: 'opponent_called' });
      break;
    case 'shared_one_plus_calls':
      if (calls.length) steps.push({ factor: 1 + calls.length, why: 'calls_shared', n: calls.length });
      break;
    case 'winner_pow2':
      for (const s of calls) if (s === winner) steps.push({ factor: 2, why: 'own_call' });
      break;
    default:
      break;
  }
  const c = calls.filter((s) => s !== winner).length;
  if (profile.caller_pays_more === 'times_calls' && c > 1) steps.push({ factor: c, why: 'caller_pays', n: c });
  else if (profile.caller_pays_more === 'doubled_per_call' && c >= 1) steps.push({ factor: 2 ** c, why: 'caller_pays', n: c });
  // §7.5 koikoi_bonus = winner_add: the winner's own calls add 1..3, or multiply by (calls - 2) from 4 on.
  const own = calls.filter((s) => s === winner).length;
  if (profile.koikoi_bonus === 'winner_add' && own >= 4) steps.push({ factor: own - 2, why: 'own_calls_times', n: own });
  else if (profile.koikoi_bonus === 'winner_add' && own >= 1) steps.push({ factor: 1, add: own, why: 'own_calls_add', n: own });
  // The steps must say what the rules compute: fall back to one plain step if they ever did not.
  if (applySteps(base, steps) !== roundScore(base, calls, winner, profile)) return [];
  return steps;
}

/**
 * The base with each step applied in turn: ×factor, or +add.
 * @param {number} base @param {readonly ScoreStep[]} steps
 */
export function applySteps(base, steps) {
  return steps.reduce((v, s) => (s.add !== undefined ? v + s.add : v * s.factor), base);
}

/**
 * The summary data of a deal just over.
 * @param {{result: any, scores: number[], roundIndex: number, deal: number}} ev the round_over event
 * @param {any} view the ended deal's engine's view (null if unknown) @param {any} profile
 * @param {number[]} before the match scores before this deal @param {{roundsPlayed: number, over: boolean} | null} match
 */
export function roundInfo(ev, view, profile, before, match) {
  const r = ev.result;
  const piles = view ? view.piles : [[], []];
  const month = view ? view.month : null;
  /** @param {Record<string, number>} yaku @param {number} s */
  const withCards = (yaku, s) => Object.entries(yaku).map(([id, points]) => ({ id, points, cards: profile ? withExtras(id, yakuCards(id, piles[s], profile, month), piles[s], points) : [] }));
  const yaku = [0, 1].map((s) => (r.winner === s ? withCards(r.yaku, s) : withCards(view ? view.yaku[s] : {}, s)));
  const rounds = profile ? profile.rounds : 0;
  return {
    result: r, scores: ev.scores, before, roundIndex: ev.roundIndex, deal: ev.deal, yaku,
    steps: r.winner !== null && profile ? scoreSteps(r.base, r.calls, r.winner, profile) : [],
    moved: [ev.scores[0] - before[0], ev.scores[1] - before[1]],
    roundsLeft: match && rounds > 0 ? Math.max(0, rounds - match.roundsPlayed) : null, last: !!match?.over,
  };
}

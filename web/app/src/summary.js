// The round summary: who took the round and why, each player's yaku with the cards that make
// them, the winner's score from its base through every multiplier, the points moved, the match
// score and the rounds left. Built from `table.lastRound` (round_info.js, made in the seat's
// worker); it stays open until the person dismisses it (game.js).
import { h } from './dom.js';
import { cardEl } from './board.js';
import { listOf, t, yakuName } from './i18n.js';
import { tn } from './words.js';

/**
 * @param {any} table the seat's table (its lastRound is the deal just over)
 * @param {[string, string]} names @param {{nested: boolean}} [o] nested in the match summary (no title id)
 */
export function roundSummary(table, names, o = { nested: false }) {
  const last = table.lastRound;
  const res = last.result;
  const winner = res.winner;
  const me = table.seat;
  const rounds = table.terms ? table.terms.rounds : 0;
  const title = rounds > 0 ? t('roundDone', { i: last.roundIndex, n: rounds }) : t('roundDoneOpen', { i: last.roundIndex });
  const headline = winner === null ? t('roundDraw')
    : winner === me ? tn('youTakeN', res.points) : tn('theyTakeN', res.points, { who: names[winner] });
  /** @type {{id: string, points: number, cards: number[]}[][]} */
  const yaku = last.yaku ?? [[], []];
  // The winner first: what scored, then what the other made.
  const order = winner === null ? [me, 1 - me] : [winner, 1 - winner];
  const sign = (/** @type {number} */ d) => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0');
  return h('div', { class: 'summary roundsum' }, [
    o.nested ? h('h3', {}, title) : h('h2', { id: 'dlg-title' }, title),
    h('p', { class: 'big' }, headline),
    h('p', { class: 'muted' }, t(/** @type {any} */ (`reason_${res.reason}`))),
    ...order.map((s) => {
      // No yaku: said in the heading itself (QA: "You: yaku" over "no yaku" read as broken); the
      // section is named by the same words (review: its label still said "yaku").
      const heading = !yaku[s].length ? t('noYakuOf', { who: names[s] }) : s === winner ? t('yakuOf', { who: names[s] }) : t('yakuNotScored', { who: names[s] });
      return h('section', { class: `seatyaku${s === winner ? ' winner' : ''}`, 'aria-label': heading }, [
        h('h3', {}, heading),
        yaku[s].length ? h('ul', { class: 'yakulist' }, yaku[s].map((y) => h('li', {}, [
          h('span', { class: 'yname' }, `${yakuName(y.id)} — ${tn('pointsN', y.points)}`),
          y.cards.length ? h('span', { class: 'ycards' }, y.cards.map((c) => cardEl(c, { cls: 'small' }))) : null,
        ]))) : null,
      ]);
    }),
    winner !== null ? h('section', { class: 'scoresteps', 'aria-label': t('roundTotalN', { n: res.points }) }, [
      h('ul', {}, [
        h('li', {}, tn('basePointsN', res.base)),
        ...(last.steps ?? []).map((/** @type {any} */ st) => h('li', {}, stepText(st, res, winner, names))),
        h('li', { class: 'total' }, tn('roundTotalN', res.points)),
      ]),
    ]) : null,
    res.calls.length ? h('p', {}, `${t('callsTitle')}: ${listOf(res.calls.map((/** @type {number} */ s) => names[s]))}`) : null,
    last.moved ? h('p', { class: 'moved' }, `${t('movedTitle')}: ${[0, 1].map((s) => `${names[s]} ${sign(last.moved[s])}`).join(' · ')}`) : null,
    h('p', { class: 'scoreline' }, `${t('matchScoreTitle')}: ${names[0]} ${last.scores[0]} – ${last.scores[1]} ${names[1]}`),
    last.last || last.roundsLeft === 0 ? h('p', { class: 'roundsleft' }, t('lastRoundDone'))
      : last.roundsLeft !== null && last.roundsLeft !== undefined ? h('p', { class: 'roundsleft' }, tn('roundsLeftN', last.roundsLeft)) : null,
  ]);
}

/**
 * One multiplier (or addition) of the winner's score, in words.
 * @param {{factor: number, add?: number, why: string, n?: number}} st @param {any} res @param {number} winner @param {[string, string]} names
 */
export function stepText(st, res, winner, names) {
  const m = st.factor;
  switch (st.why) {
    case 'own_calls_add': return tn('stepOwnAddN', st.n ?? 0, { a: st.add ?? 0, who: names[winner] });
    case 'own_calls_times': return tn('stepOwnTimesN', st.n ?? 0, { m, who: names[winner] });
    case 'doubling': return tn('stepDoubling', st.n ?? 0);
    case 'opponent_called': return t('stepCalled', { m, who: names[1 - winner] });
    case 'own_call': return t('stepCalled', { m, who: names[winner] });
    case 'calls_shared': return tn('stepCallsN', st.n ?? res.calls.length, { m });
    case 'caller_pays': return t('stepCallerPays', { m, who: names[1 - winner] });
    default: return `×${m}`;
  }
}

/** Whether the round just summarised was the match's last. @param {any} table */
export function lastOfMatch(table) {
  const last = table.lastRound;
  return !!last && (last.last || last.roundsLeft === 0);
}

/**
 * The summary the person is to see next: the oldest deal over that they have not dismissed. A
 * deal can end while an earlier summary is still open (a dealt-hand yaku ends it at the deal), and
 * a reload must bring back that earlier one first, then this one.
 * @param {any} table the seat's table (`rounds`, else only `lastRound`) @param {number} seen the last deal dismissed
 * @returns {any} a round summary (round_info.js) or null
 */
export function pendingRound(table, seen) {
  const rounds = table.rounds ?? (table.lastRound ? [table.lastRound] : []);
  return rounds.find((/** @type {any} */ r) => r.deal > seen) ?? null;
}

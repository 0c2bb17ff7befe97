// Which dialog the page shows over a table, in order of precedence: a pure function of the
// table and what the person already answered, so the order is tested without a browser.
import { pendingRound } from './summary.js';

/**
 * @typedef {{sasConfirmed: boolean, confirmingResign: boolean, termsAnswered: boolean, shownRound: number}} Answered
 * @typedef {{kind: 'failure' | 'over' | 'sas' | 'resign' | 'terms' | 'decide' | 'round' | 'hand' | null,
 *   round?: any, autoHand?: boolean}} Wanted `round`: the summary to show; `autoHand`: answer the
 *   dealt-hand question for the person (its only answer is to play on)
 */

/**
 * The dialog `table` calls for. The last round's summary comes before the next deal's dealt-hand
 * question: that deal is drawn only once the summary is dismissed (game.js #holdsBoard).
 * @param {any} table @param {Answered} answered
 * @returns {Wanted}
 */
export function wantedDialog(table, answered) {
  const sas = table.mode !== 'practice' && table.paired && table.paired.sas && !answered.sasConfirmed && !table.finished;
  if (table.failure) return { kind: 'failure' };
  if (table.over) return { kind: 'over' };
  if (sas) return { kind: 'sas' };
  if (answered.confirmingResign) return { kind: 'resign' };
  if (table.termsProposed && !answered.termsAnswered) return { kind: 'terms' };
  if (table.ask && table.ask.kind === 'decide' && table.hint) return { kind: 'decide' };
  const handYaku = !!table.ask && table.ask.kind === 'hand_yaku';
  const autoHand = handYaku && table.ask.options.length === 1;
  const round = pendingRound(table, answered.shownRound);
  if (round) return { kind: 'round', round, autoHand };
  if (handYaku && !autoHand) return { kind: 'hand' };
  return { kind: null, autoHand };
}

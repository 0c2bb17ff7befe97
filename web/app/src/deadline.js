// A person's own deadline (spec/protocol.md §12.4, the late side): the seat stops taking the
// person's decision a margin before the deadline the opponent's clock counts to, since our clock
// started only after the frame that asked had travelled. The seat (seat.js, in the worker) stops
// there and the board (board.js, in the page) counts the person's clock to it, so a clock that
// says "0:02" still leaves two seconds (QA: it counted to the protocol's deadline, 2 s late).

/** Waits on a person's decision (spec/game.md §7.1): the ones a person's own deadline covers. */
export const PERSON = new Set(['act', 'accept']);

/** The margin in seconds (at most half the deadline). */
export const OWN_MARGIN_S = 2;

/**
 * When our person's own time for a wait ends: the deadline less the margin.
 * @param {{since: number, seconds: number}} wait
 */
export function ownEnd(wait) {
  return wait.since + (wait.seconds - Math.min(OWN_MARGIN_S, wait.seconds / 2)) * 1000;
}

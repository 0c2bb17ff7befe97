// The practice computer's thinking pause, as a choice of the page (issue 26): the computer's seat
// decides and sends at once, so the protocol, and the next deal, never wait; the page holds the
// board that shows a new move of the computer until a short pause has passed since the board
// before it was drawn (the person's own move is still moving meanwhile: the pause overlaps the
// motion). A newer table replaces a held one. Nothing is held across a deal's end, a new deal or
// its opening (the person's hand), the match's end or a failure, nor while a dialog covers the board:
// a held table is drawn at once before such a table, never dropped.

/** The pause in ms (localStorage koikoi.pauseMs: tests and benches set it; 0 turns it off). */
export const PAUSE_KEY = 'koikoi.pauseMs';
const DEFAULT_MS = 350;

export function pauseMs() {
  let v = NaN;
  try {
    v = Number(localStorage.getItem(PAUSE_KEY) ?? NaN);
  } catch { /* no storage: the default */ }
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_MS;
}

/**
 * What the opponent did in the deal a table shows: its half-turns begun, and its last call or
 * claim (a koi-koi or stop is a decision of its own).
 * @param {any} table @returns {string}
 */
function opponentSteps(table) {
  const turns = table.history ? table.history.turns.filter((/** @type {any} */ x) => x.seat !== table.seat) : [];
  const last = turns[turns.length - 1];
  return `${turns.length}/${last ? `${last.call ?? ''}/${last.claim ?? ''}` : ''}`;
}

/**
 * Whether `next` shows the opponent deciding something new in the deal `shown` shows (the only
 * change the page paces).
 * @param {any} shown the table on the board @param {any} next
 */
export function opponentDecided(shown, next) {
  if (!shown || !next || !shown.round || !next.round || next.over || next.failure) return false;
  if (shown.deal !== next.deal || (shown.lastRound?.deal ?? -1) !== (next.lastRound?.deal ?? -1)) return false;
  // The deal's opening: the person's hand is never held (the computer's first play, when it
  // deals, comes with it).
  if (!shown.round.hand?.length && next.round.hand?.length) return false;
  return opponentSteps(shown) !== opponentSteps(next);
}

export class Pacer {
  /**
   * @param {(table: any) => void} draw puts a table on the board
   * @param {{pauseMs?: number, now?: () => number, covered?: () => boolean}} [o] `covered`: a dialog hides the board
   */
  constructor(draw, o = {}) {
    this.draw = draw;
    this.pause = o.pauseMs ?? pauseMs();
    this.now = o.now ?? (() => performance.now());
    this.covered = o.covered ?? (() => false);
    /** @type {any} the table on the board */
    this.shown = null;
    this.drawnAt = -Infinity;
    /** @type {any} the table held back, if any */
    this.held = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /** A new table from the seat: drawn now, or held until the pause is over. @param {any} table */
  offer(table) {
    // A table past the held one (the deal's end, the next deal, the match's end): the held move is
    // drawn first, at once, so the board shows it and the move log lists it (QA: the computer's
    // winning move never appeared behind the round summary).
    if (this.held && !opponentDecided(this.shown, table)) this.#show(this.held);
    const wait = this.drawnAt + this.pause - this.now();
    if (this.pause > 0 && wait > 0 && !this.covered() && opponentDecided(this.shown, table)) {
      this.held = table;
      this.timer ??= setTimeout(() => this.flush(), wait);
      return;
    }
    this.#show(table);
  }

  /** Draw the held table now (the pause is over). */
  flush() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const table = this.held;
    this.held = null;
    if (table) this.#show(table);
  }

  /** @param {any} table */
  #show(table) {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.held = null;
    this.shown = table;
    this.drawnAt = this.now();
    this.draw(table);
  }

  destroy() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.held = null;
  }
}

// What the learned player (`expert`) sees of a round, as numbers: a port of
// koikoi_p2p/ai/features.py. A position is a compact row of small integers read from one seat's
// view only (where each card is from that seat's side: unseen, own hand, field, own pile, the
// opponent's pile; then the month, whose turn, who deals, the calls, hand and stock sizes and
// both piles' base points); the network's inputs are expanded from it (value.js).

export const UNSEEN = 0;
export const HAND = 1;
export const FIELD = 2;
export const MINE = 3;
export const THEIRS = 4;
export const LOCATIONS = 5;
export const CARDS = 48;
export const MONTH = 48;
export const MY_TURN = 49;
export const COMPACT = 58;
export const SCALARS = 9;
export const INPUTS = CARDS * LOCATIONS + 12 + SCALARS;
/** The scale of each scalar input (features.py `_SCALE`), from MY_TURN on. */
export const SCALE = Object.freeze([1.0, 1.0, 0.5, 0.5, 1 / 8, 1 / 8, 1 / 24, 1 / 10, 1 / 10]);

/**
 * @param {number[]} row
 * @param {{me: 0 | 1, turn: number, dealer: number, month: number, calls: readonly number[], myHand: number,
 *   theirHand: number, stock: number, bases: readonly number[]}} s
 */
function fillScalars(row, s) {
  const { me } = s;
  row[MONTH] = s.month;
  row[MY_TURN] = s.turn === me ? 1 : 0;
  row[50] = s.dealer === me ? 1 : 0;
  row[51] = Math.min(2, s.calls.filter((c) => c === me).length);
  row[52] = Math.min(2, s.calls.filter((c) => c !== me).length);
  row[53] = s.myHand;
  row[54] = s.theirHand;
  row[55] = s.stock;
  row[56] = Math.min(100, s.bases[me]);
  row[57] = Math.min(100, s.bases[1 - me]);
}

/**
 * The compact row of a view's seat (a pending card counts as on the field): features.py
 * `compact_of_view`.
 * @param {import('../rules/round.js').RoundView} view
 * @returns {number[]}
 */
export function compactOfView(view) {
  const me = view.seat;
  const row = new Array(COMPACT).fill(UNSEEN);
  for (const c of view.hand) if (c >= 0) row[c] = HAND;
  for (const c of view.field) row[c] = FIELD;
  if (view.pendingCard !== null && (view.phase === 'play_capture' || view.phase === 'draw_capture')) row[view.pendingCard] = FIELD;
  for (const c of view.piles[me]) row[c] = MINE;
  for (const c of view.piles[1 - me]) row[c] = THEIRS;
  fillScalars(row, {
    me, turn: view.turn, dealer: view.dealer, month: view.month, calls: view.calls, myHand: view.hand.length,
    theirHand: view.opponentHandPositions.length, stock: view.stockCount, bases: view.bases,
  });
  return row;
}

/**
 * The compact row of seat `me` in a full state, as that seat would see it (features.py
 * `compact_of_state`): the opponent's hand and the stock count only as unseen.
 * @param {import('../rules/round.js').RoundState} state
 * @param {0 | 1} me
 * @returns {number[]}
 */
export function compactOfState(state, me) {
  const row = new Array(COMPACT).fill(UNSEEN);
  for (const p of state.hands[me]) row[state.deck[p]] = HAND;
  for (const c of state.field) row[c] = FIELD;
  if (state.pending >= 0 && (state.phase === 'play_capture' || state.phase === 'draw_capture')) row[state.pending] = FIELD;
  for (const c of state.piles[me]) row[c] = MINE;
  for (const c of state.piles[1 - me]) row[c] = THEIRS;
  fillScalars(row, {
    me, turn: state.turn, dealer: state.dealer, month: state.month, calls: state.calls, myHand: state.hands[me].length,
    theirHand: state.hands[1 - me].length, stock: state.stockCount, bases: state.bases,
  });
  return row;
}

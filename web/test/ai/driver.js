// The Python side of the computer players' parity tests: strong_driver.py in a subprocess (one
// JSON request per line in, one JSON answer per line out), and Python's views as the JavaScript
// players read them. Without a Python that has koikoi_p2p installed the tests are skipped; under
// CI=true they fail.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { dealLayout } from '../../src/rules/index.js';
import { findPython } from '../rules/support.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..', '..');
export const python = findPython();
export const skip = python === null && process.env.CI !== 'true'
  ? 'no Python with koikoi_p2p installed (make .venv or set KOIKOI_PYTHON)' : false;

/**
 * @param {object[]} requests
 * @returns {any[]}
 */
export function runDriver(requests) {
  if (python === null) throw new Error('CI=true: a Python with koikoi_p2p is required');
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const r = spawnSync(python, [path.join(HERE, 'strong_driver.py')], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`strong_driver.py failed (${r.status}): ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

/**
 * A Python RoundView.to_dict() as the view the JavaScript strong player reads.
 * @param {any} v
 * @returns {import('../../src/ai/strong.js').SeatView}
 */
export function seatViewOf(v) {
  return {
    seat: v.seat, field: v.field, hand: v.hand, handPositions: v.hand_positions, opponentHandSize: v.opponent_hand_size,
    piles: v.piles, calls: v.calls, month: v.month, pendingCard: v.pending_card,
  };
}

/**
 * A Python RoundView.to_dict() as a JavaScript RoundView, enough for RoundState.fromView and
 * the master's reading: the opponent's hand at the first of its deal positions, where Python's
 * from_view puts it.
 * @param {any} v
 * @returns {import('../../src/rules/round.js').RoundView}
 */
export function roundViewOf(v) {
  const opponent = /** @type {0 | 1} */ (1 - v.seat);
  return {
    seat: v.seat, viewer: v.seat, phase: 'play', need: needOf(v.need), dealer: v.dealer,
    turn: v.turn, month: v.month, roundIndex: v.round_index, field: v.field, handPositions: v.hand_positions, hand: v.hand,
    opponentHandPositions: dealLayout(v.dealer).hands[opponent].slice(0, v.opponent_hand_size),
    opponentHand: new Array(v.opponent_hand_size).fill(-1), piles: v.piles, yaku: v.yaku, bases: v.bases, calls: v.calls,
    stockCount: v.stock_count, pendingCard: v.pending_card, captureOptions: v.capture_options, result: null,
  };
}

/**
 * @param {any} need a Python need as RoundView.to_dict() writes it
 * @returns {import('../../src/rules/round.js').Need | null}
 */
function needOf(need) {
  if (need === null) return null;
  if ('reveal' in need) return { type: 'reveal', positions: need.reveal, to: need.to };
  return { type: 'action', seat: need.seat, kind: need.kind };
}

"""What the learned player (``--level expert``) sees of a round: one seat's view as numbers.

A position is first made *compact*, a short row of small integers (``COMPACT`` of them), and the
network's input is expanded from it (``expand``). Both steps read one seat's view only:

* where each of the 48 cards is from that seat's side: unseen (the opponent's hand or the
  stock, which the seat cannot tell apart), in its own hand, on the field, in its own pile or in
  the opponent's pile;
* the round's month, whether it is this seat's turn to play, whether it deals, how many
  koi-koi calls each side has made, both hands' sizes, the stock's size, and the base points
  each pile already holds.

``compact_of_view`` reads a ``RoundView`` (the self-play data of ``koikoi_p2p.ai.train``);
``compact_of_state`` reads the same from a full ``RoundState`` as its seat would see it (the
leaves of the expert's search): the opponent's hand and the stock only count as unseen, so
the full state's hidden cards never reach the network. tests/unit/test_ai_expert.py checks that
both agree on every position of played rounds. The JavaScript port is web/src/ai/features.js.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from koikoi_p2p.rules.round import RoundState, RoundView

UNSEEN, HAND, FIELD, MINE, THEIRS = range(5)
LOCATIONS = 5
CARDS = 48
# The compact row: 48 card locations, then these small integers.
MONTH, MY_TURN, DEALER, MY_CALLS, THEIR_CALLS, MY_HAND, THEIR_HAND, STOCK, MY_BASE, THEIR_BASE = range(48, 58)
COMPACT = 58
# The network's input: a one-hot location per card, the month one-hot, then the scalars scaled.
SCALARS = 9
INPUTS = CARDS * LOCATIONS + 12 + SCALARS
_SCALE = np.array([1.0, 1.0, 0.5, 0.5, 1 / 8, 1 / 8, 1 / 24, 1 / 10, 1 / 10])


def _fill(row: list[int], mask: int, where: int) -> None:
    while mask:
        low = mask & -mask
        row[low.bit_length() - 1] = where
        mask ^= low


def _bits(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        if c >= 0:
            m |= 1 << c
    return m


def compact_of_view(view: RoundView) -> list[int]:
    """The compact row of ``view``'s seat (a pending card counts as on the field)."""
    me = view.seat
    row = [UNSEEN] * COMPACT
    field = _bits(view.field)
    if view.pending_card is not None:
        field |= 1 << view.pending_card
    _fill(row, _bits(view.hand), HAND)
    _fill(row, field, FIELD)
    _fill(row, _bits(view.piles[me]), MINE)
    _fill(row, _bits(view.piles[1 - me]), THEIRS)
    row[MONTH] = view.month
    row[MY_TURN] = int(view.turn == me)
    row[DEALER] = int(view.dealer == me)
    row[MY_CALLS] = min(2, sum(1 for s in view.calls if s == me))
    row[THEIR_CALLS] = min(2, sum(1 for s in view.calls if s != me))
    row[MY_HAND] = len(view.hand)
    row[THEIR_HAND] = view.opponent_hand_size
    row[STOCK] = view.stock_count
    row[MY_BASE] = min(100, view.bases[me])
    row[THEIR_BASE] = min(100, view.bases[1 - me])
    return row


def compact_of_state(state: RoundState, me: int) -> list[int]:
    """The compact row of seat ``me`` in a full state: what ``compact_of_view(state.view(me))``
    gives, read straight from the state's masks (fast enough for the leaves of a search)."""
    row = [UNSEEN] * COMPACT
    deck = state.deck
    hand = state.hands[me]
    mine_cards = 0
    while hand:
        low = hand & -hand
        hand ^= low
        mine_cards |= 1 << deck[low.bit_length() - 1]
    field = state.field
    if state.pending >= 0 and state.phase in (7, 9):  # PLAY_CAPTURE, DRAW_CAPTURE: a card waits
        field |= 1 << state.pending
    _fill(row, mine_cards, HAND)
    _fill(row, field, FIELD)
    _fill(row, state.piles[me], MINE)
    _fill(row, state.piles[1 - me], THEIRS)
    row[MONTH] = state.month
    row[MY_TURN] = int(state.turn == me)
    row[DEALER] = int(state.dealer == me)
    calls = state.calls
    row[MY_CALLS] = min(2, sum(1 for s in calls if s == me))
    row[THEIR_CALLS] = min(2, sum(1 for s in calls if s != me))
    row[MY_HAND] = state.hands[me].bit_count()
    row[THEIR_HAND] = state.hands[1 - me].bit_count()
    row[STOCK] = state.stock_count
    row[MY_BASE] = min(100, state.bases[me])
    row[THEIR_BASE] = min(100, state.bases[1 - me])
    return row


def expand(compact: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The network inputs (rows x ``INPUTS``) of compact rows (rows x ``COMPACT``)."""
    c = np.asarray(compact, dtype=np.int64)
    if c.ndim == 1:
        c = c[None, :]
    n = c.shape[0]
    out = np.zeros((n, INPUTS), dtype=np.float64)
    rows = np.arange(n)[:, None]
    out[rows, np.arange(CARDS)[None, :] * LOCATIONS + c[:, :CARDS]] = 1.0
    out[np.arange(n), CARDS * LOCATIONS + c[:, MONTH] - 1] = 1.0
    out[:, CARDS * LOCATIONS + 12:] = c[:, MY_TURN:] * _SCALE
    return out


__all__ = ["COMPACT", "INPUTS", "compact_of_state", "compact_of_view", "expand"]

"""The value network's own choice, one ply ahead: a probe of a trained network, not a level.

``koikoi bench ai --pairs network-strong [--weights FILE]`` measures how well a network ranks the
options by itself, in a minute or two instead of the expert's half hour, so a training run can be
judged before the search is. The player values every legal option by the exact expectation over
the card the stock shows next (each unseen card in turn, weighted by the chance that it is the
stock's top card given what the opponent's discards told, ``OpponentReading``), then by what the
rest of its own turn can make of it: its capture of the drawn card and its koi-koi or stop
maximised, a finished round worth its points, and the position at the opponent's next play worth
the network's value from this seat's side. Outcomes count through the match-win utility, as the
search players' do.

It reads the seat's view only: the cards dealt to the opponent's hand in each staged state
(``RoundState.from_view``) never reach the network (features.compact_of_state) nor the rest of the
turn, which involves this seat's cards, the field and the stock's top alone. Deterministic: it
draws no random numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from koikoi_p2p.ai.expert import ExpertPlayer
from koikoi_p2p.ai.features import compact_of_state
from koikoi_p2p.ai.master import Worth, _unseen
from koikoi_p2p.ai.value import ValueNet
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.round import NeedAction, NeedReveal, RoundState, RoundView


def next_card_chances(unseen: Sequence[int], opponent_hand: int, stock: int,
                      excluded: int) -> list[tuple[int, float]]:
    """Each unseen card with its chance of being the stock's next card.

    The unseen cards are the opponent's hand (``opponent_hand`` of them) and the stock (``stock``).
    Cards in ``excluded`` (a mask) cannot be in the opponent's hand, so they are in the stock, and
    each is its top card with chance 1/``stock``; the others share the rest evenly. A reading
    that leaves the hand too few cards is dropped, as the search players drop it.
    """
    barred = [c for c in unseen if (excluded >> c) & 1]
    free = [c for c in unseen if not (excluded >> c) & 1]
    if len(free) < opponent_hand:
        barred, free = [], list(unseen)
    if stock <= 0 or not unseen:
        return []
    chances = []
    for c in unseen:
        if (excluded >> c) & 1 and barred:
            chance = 1.0 / stock
        else:
            chance = (stock - len(barred)) / (stock * len(free)) if free else 0.0
        if chance > 0:
            chances.append((c, chance))
    return chances


class NetworkPlayer(ExpertPlayer):
    """Each option's expected worth one ply ahead, valued by ``net`` (the shipped one by default)."""

    def option_values(self, view: RoundView, options: Sequence[Action], worth: Worth) -> list[float]:
        """The expected worth of each option (see the module's description)."""
        me = view.seat
        unseen = _unseen(view)
        n = view.opponent_hand_size
        excluded = self._reading.excluded(view)
        staged: list[tuple[float, RoundState]] = []
        for card, chance in next_card_chances(unseen, n, view.stock_count, excluded):
            # A staged deal with ``card`` on top of the stock; which of the others the opponent
            # holds changes nothing this turn, but the hand must avoid the excluded cards.
            rest = [c for c in unseen if c != card]
            rest.sort(key=lambda c: (excluded >> c) & 1)
            staged.append((chance, RoundState.from_view(view, self.profile, [*rest[:n], card, *rest[n:]])))
        if not staged:   # no card left to draw: the turn ends on the options alone
            staged.append((1.0, RoundState.from_view(view, self.profile, unseen)))
        values = []
        for option in options:
            total = 0.0
            for chance, root in staged:
                state = root.copy()
                state.apply(me, option)
                total += chance * _rest_of_turn(state, me, self.net, worth)
            values.append(total)
        return values

    def _best(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        values = self.option_values(view, options, worth)
        return options[max(range(len(options)), key=values.__getitem__)]

    def _decide(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        return self._best(view, options, worth)

    def _search(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        return self._best(view, options, worth)


def _rest_of_turn(state: RoundState, me: int, net: ValueNet, worth: Worth) -> float:
    """The worth to ``me`` of ``state`` played on to the opponent's next play, ``me``'s own
    choices meanwhile maximised."""
    while True:
        result = state.result
        if result is not None:
            if result.winner is None:
                return worth.of(0.0)
            return worth.of(float(result.points if result.winner == me else -result.points))
        need = state.need
        if type(need) is NeedReveal:
            if not state.reveal_known():
                raise RuntimeError("the staged deal does not know the card to reveal")
            continue
        if not isinstance(need, NeedAction) or need.seat != me or need.kind == "play":
            return worth.of(net.value(compact_of_state(state, me)))
        actions = state.legal_actions()
        if len(actions) == 1:
            state.apply(me, actions[0])
            continue
        best = float("-inf")
        for action in actions:
            branch = state.copy()
            branch.apply(me, action)
            best = max(best, _rest_of_turn(branch, me, net, worth))
        return best


__all__ = ["NetworkPlayer", "next_card_chances"]

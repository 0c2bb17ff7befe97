"""The value network's own choice, one ply ahead: a probe of a trained network, not a level.

``koikoi bench ai --pairs network-strong [--weights FILE]`` measures how well a network ranks the
options by itself, in a minute or two instead of the expert's half hour, so a training run can be
judged before the search is. The player plays each legal option on through the rest of its own
turn, its own later choices maximised: a capture choice for the played card before the stock's
card is known, then the exact expectation over the card the stock shows (each unseen card in turn,
weighted by the chance that it is the stock's top card given what the opponent's discards told,
``OpponentReading``), then the capture of the drawn card and koi-koi or stop knowing it. A
finished round is worth its points; the position at the opponent's next play is worth the
network's expected round points from this seat's side, spread as a round's points spread
(``utility.spread``): outcomes count through the match-win utility, as the search players' do,
and the utility of an average would call every play equal once the last round's result is all
that counts. Ties go to the higher expected points.

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
from koikoi_p2p.ai.utility import spread
from koikoi_p2p.rules.actions import Action
from koikoi_p2p.rules.round import DRAW_REVEAL, NeedAction, NeedReveal, RoundState, RoundView

# Gauss-Hermite nodes and weights for the expectation over a normal spread (probabilists' form,
# five points: exact for polynomials up to degree 9).
_NODES = ((-2.8569700138728056, 0.011257411327720691), (-1.3556261799742659, 0.22207592200561266),
          (0.0, 0.5333333333333333), (1.3556261799742659, 0.22207592200561266),
          (2.8569700138728056, 0.011257411327720691))

Value = tuple[float, float]   # (worth through the match utility, expected round points)


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

    def option_values(self, view: RoundView, options: Sequence[Action], worth: Worth) -> list[Value]:
        """Each option's (expected worth, expected round points) (see the module's description)."""
        turn = _Turn(self, view, worth)
        values = []
        for option in options:
            state = turn.root.copy()
            state.apply(view.seat, option)
            values.append(turn.before_draw(state, (option,)))
        return values

    def _best(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        values = self.option_values(view, options, worth)
        return options[max(range(len(options)), key=values.__getitem__)]

    def _decide(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        return self._best(view, options, worth)

    def _search(self, view: RoundView, options: tuple[Action, ...], worth: Worth) -> Action:
        return self._best(view, options, worth)


class _Turn:
    """The rest of one decision's turn: staged deals, one per possible next card of the stock."""

    def __init__(self, player: NetworkPlayer, view: RoundView, worth: Worth) -> None:
        self.me = view.seat
        self.net = player.net
        self.worth = worth
        self.sd = spread(player.profile)[0]
        unseen = _unseen(view)
        excluded = player._reading.excluded(view)
        n = view.opponent_hand_size

        def staged(card: int | None) -> RoundState:
            # ``card`` on top of the stock; the opponent's hand avoids the cards it cannot hold.
            # Which of the others it holds changes nothing before its play.
            rest = sorted((c for c in unseen if c != card), key=lambda c: (excluded >> c) & 1)
            top = [] if card is None else [card]
            return RoundState.from_view(view, player.profile, [*rest[:n], *top, *rest[n:]])

        self.root = staged(None)
        self.draws = [(chance, staged(card))
                      for card, chance in next_card_chances(unseen, n, view.stock_count, excluded)]

    def before_draw(self, state: RoundState, path: tuple[Action, ...]) -> Value:
        """The worth of ``state``, reached from the root by ``path``, before the stock's card is known."""
        me = self.me
        while True:
            need = state.need
            if type(need) is NeedReveal and state.phase == DRAW_REVEAL and self.draws:
                return self._drawn(path)
            if isinstance(need, NeedAction) and need.seat == me and need.kind == "capture":
                choices = state.legal_actions()
                best: Value | None = None
                for choice in choices:
                    branch = state.copy()
                    branch.apply(me, choice)
                    value = self.before_draw(branch, (*path, choice))
                    best = value if best is None or value > best else best
                assert best is not None
                return best
            if type(need) is NeedReveal:   # the played card's own reveal: known in every staged deal
                if not state.reveal_known():
                    raise RuntimeError("the staged deal does not know the card to reveal")
                continue
            return self.rest(state)   # no draw follows (a drawn card's capture, koi-koi or stop)

    def _drawn(self, path: tuple[Action, ...]) -> Value:
        """The expectation over the stock's card of ``path`` played on from each staged deal."""
        me = self.me
        worth = points = 0.0
        for chance, root in self.draws:
            state = root.copy()
            for action in path:
                while type(state.need) is NeedReveal:
                    state.reveal_known()
                state.apply(me, action)
            w, p = self.rest(state)
            worth += chance * w
            points += chance * p
        return worth, points

    def rest(self, state: RoundState) -> Value:
        """The worth of ``state`` played on to the opponent's next play, ``me``'s choices maximised."""
        me = self.me
        while True:
            result = state.result
            if result is not None:
                won = 0.0 if result.winner is None else float(
                    result.points if result.winner == me else -result.points)
                return self.worth.of(won), won
            need = state.need
            if type(need) is NeedReveal:
                if not state.reveal_known():
                    raise RuntimeError("the staged deal does not know the card to reveal")
                continue
            if not isinstance(need, NeedAction) or need.seat != me or need.kind == "play":
                return self.leaf(self.net.value(compact_of_state(state, me)))
            actions = state.legal_actions()
            if len(actions) == 1:
                state.apply(me, actions[0])
                continue
            best: Value | None = None
            for action in actions:
                branch = state.copy()
                branch.apply(me, action)
                value = self.rest(branch)
                best = value if best is None or value > best else best
            assert best is not None
            return best

    def leaf(self, points: float) -> Value:
        """Expected worth of a round whose points are ``points`` on average, spread by ``sd``."""
        of, sd = self.worth.of, self.sd
        return sum(weight * of(points + sd * z) for z, weight in _NODES), points


__all__ = ["NetworkPlayer", "next_card_chances"]

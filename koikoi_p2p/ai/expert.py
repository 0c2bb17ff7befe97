"""The learned player (``--level expert``): the master's search with a trained value at its leaves.

It searches exactly as the master does (master.py: determinised deals of the unseen cards, the
strong player's favourite against its best rivals on shared deals, sequential halving, the
match-win utility), but a playout cut after ``horizon`` turns is valued by the value network
(value.py, trained by ``koikoi train`` on strong-against-strong self-play) instead of the
hand-written prospects of both piles. The network reads the leaf as the searching seat would see
it (features.compact_of_state: its own hand, the field, both piles, the calls; the sampled
opponent hand and stock count only as unseen), so a leaf's value never depends on the sample's
hidden cards, only on the public course the playout took. Deterministic given its seed.
"""

from __future__ import annotations

from koikoi_p2p.ai.features import compact_of_state
from koikoi_p2p.ai.master import DEFAULT_MAX_SECONDS, DEFAULT_SIMULATIONS, MasterPlayer, Prospects
from koikoi_p2p.ai.strategy import MatchContext
from koikoi_p2p.ai.value import ValueNet, shipped
from koikoi_p2p.rules.profile import Profile
from koikoi_p2p.rules.round import RoundState

EXPERT_HORIZON = 4  # turns a playout runs before the network values it


class LearnedLeaf(Prospects):
    """A cut playout's worth to ``me``: the network's expected round points from ``me``'s view."""

    __slots__ = ("_net",)

    def __init__(self, profile: Profile, net: ValueNet) -> None:
        super().__init__(profile)
        self._net = net

    def difference(self, state: RoundState, me: int) -> float:
        return self._net.value(compact_of_state(state, me))


class ExpertPlayer(MasterPlayer):
    """The master's search valuing its cut playouts with the learned network (``net``: the shipped one)."""

    def __init__(self, profile: Profile | None = None, seed: int | None = None, *,
                 simulations: int = DEFAULT_SIMULATIONS, max_seconds: float | None = DEFAULT_MAX_SECONDS,
                 horizon: int = EXPERT_HORIZON, net: ValueNet | None = None) -> None:
        super().__init__(profile, seed, simulations=simulations, max_seconds=max_seconds, horizon=horizon)
        self.net = net if net is not None else shipped()
        self._prospects = LearnedLeaf(self.profile, self.net)

    def match_update(self, context: MatchContext) -> None:
        super().match_update(context)
        self._prospects = LearnedLeaf(self.profile, self.net)


__all__ = ["EXPERT_HORIZON", "ExpertPlayer", "LearnedLeaf"]

"""The rating system: Weng-Lin (Plackett-Luce) through the ``openskill`` library (spec/ratings.md §4).

Pure and deterministic: a rating after a sequence of results depends only on those results and
their order, so the service (one result at a time, as they are accepted) and ``recompute`` (the
export, replayed in its order) compute the same floating-point values bit for bit. Nothing here
depends on the clock: a player who stops playing keeps the deviation they had.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from openskill.models import PlackettLuce

# openskill's own defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) scaled by 60, so that a new
# player starts at 1500 like in Glicko; the scale changes nothing but the numbers shown.
MU = 1500.0
SIGMA = 500.0
BETA = 250.0
TAU = 5.0
SYSTEM = "openskill-plackett-luce"
CONSERVATIVE_SIGMAS = 3  # the leaderboard orders players by mu - 3 sigma


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """The rating the leaderboard sorts by: the player is very probably at least this good."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


def parameters() -> dict[str, object]:
    """What a third party needs to reproduce the computation (shown by GET /ratings)."""
    import openskill

    return {
        "system": SYSTEM,
        "library": f"openskill {openskill.__version__}",
        "mu": MU,
        "sigma": SIGMA,
        "beta": BETA,
        "tau": TAU,
        "order": "mu - 3 sigma",
    }


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def rate(first: Rating, second: Rating, winner: int | None) -> tuple[Rating, Rating]:
    """Both players' ratings after one match between them; ``winner`` 0, 1 or None (a draw)."""
    model = _model()
    teams = [[model.rating(mu=first.mu, sigma=first.sigma)], [model.rating(mu=second.mu, sigma=second.sigma)]]
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
    (a,), (b,) = model.rate(teams, ranks=ranks)
    return Rating(float(a.mu), float(a.sigma)), Rating(float(b.mu), float(b.sigma))

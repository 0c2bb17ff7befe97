"""The rating rule (spec/ratings.md §4): openskill as configured, deterministic, order-defined."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.ratings.ledger import Player, apply, ranked
from koikoi_p2p.ratings.system import BETA, MU, SIGMA, TAU, Rating, parameters, rate
from tests.ratings.support import match_result

ratings = st.builds(Rating, st.floats(0, 3000), st.floats(30, SIGMA))
KEYS = [bytes([i]) * 32 for i in range(4)]


@given(ratings, ratings)
def test_a_win_moves_the_winner_up_and_the_loser_down(a: Rating, b: Rating) -> None:
    a2, b2 = rate(a, b, 0)
    assert a2.mu > a.mu and b2.mu < b.mu
    b3, a3 = rate(b, a, 1)
    assert (a3, b3) == (a2, b2)  # seats do not matter, only who won


@given(ratings, ratings)
def test_the_same_inputs_give_the_same_floats(a: Rating, b: Rating) -> None:
    assert rate(a, b, None) == rate(a, b, None) and rate(a, b, 1) == rate(a, b, 1)


def test_a_draw_between_equals_changes_no_mu_and_the_parameters_are_published() -> None:
    a, b = rate(Rating(), Rating(), None)
    assert a.mu == b.mu == MU and a.sigma == b.sigma < SIGMA
    assert parameters()["mu"] == MU and parameters()["beta"] == BETA and parameters()["tau"] == TAU
    assert str(parameters()["library"]).startswith("openskill 6.")


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3), st.sampled_from([0, 1, None])), max_size=25))
def test_replaying_the_same_results_in_the_same_order_gives_the_same_standings(
    games: list[tuple[int, int, int | None]],
) -> None:
    def replay() -> list[Player]:
        players: dict[bytes, Player] = {}
        for seq, (a, step, winner) in enumerate(games, start=1):
            keys = (KEYS[a], KEYS[(a + step) % 4])
            result = match_result(keys, winner=winner, session=seq.to_bytes(32, "big"))
            after, lines = apply(result, seq, (players.get(keys[0]), players.get(keys[1])))
            assert [line.seq for line in lines] == [seq, seq]
            players[keys[0]], players[keys[1]] = after
        return ranked(list(players.values()))

    first, second = replay(), replay()
    assert first == second
    assert sum(p.games for p in first) == 2 * len(games)
    assert all(x.rating.conservative >= y.rating.conservative for x, y in itertools.pairwise(first))

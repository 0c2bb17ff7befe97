"""Must hold (issue 19): rated selfplay matches played through a real relay process that serves
ratings, each result submitted by both seats, give a leaderboard equal to `recompute` of the
export, with every match counted exactly once; on SQLite and on PostgreSQL. CI plays 12 matches
per backend; `koikoi bench ratings --matches 200 [--db URL]` plays the full 200."""

from __future__ import annotations

from koikoi_p2p.bench.ratings import run_league

MATCHES = 12


def test_rated_matches_through_the_relay_equal_the_recomputed_export(store_url: str) -> None:
    league = run_league(store_url, matches=MATCHES, players=5, seed=19, concurrency=2)
    assert league.failures == [] and league.refused == []
    assert league.matches == MATCHES and len(league.results) == MATCHES
    assert league.counted == MATCHES and league.repeated == MATCHES  # the second submission is a no-op
    assert league.board_results == MATCHES
    assert league.equal

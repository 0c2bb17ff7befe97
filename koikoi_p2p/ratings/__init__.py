"""The rating service: rankings fed only by co-signed match results (spec/ratings.md).

``checks`` verifies a submission as ``koikoi verify --result`` does and as a rating service must;
``store`` counts it once, in one transaction, in SQLite or PostgreSQL; ``system`` is the rating
rule (openskill); ``ledger`` applies it; ``board`` builds the leaderboard and the export, and
recomputes the leaderboard from an export; ``service``, ``app`` and ``http`` serve it.
"""

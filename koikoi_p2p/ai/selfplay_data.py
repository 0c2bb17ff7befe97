"""Self-play positions for the learned player: strong against strong, recorded from each seat's view.

Whole matches are played by two strong players (strong.py) through the rules engine, a small
share of their plays replaced by a random legal play (``explore``) so the positions cover more
than one style. At the start of every play of either seat, both seats' compact rows
(features.py, from each seat's own ``RoundView``) are recorded; when the round ends each row gets
its label: the round's points from that seat's side (positive: this seat scored them, negative:
the opponent did, zero: nobody). Nothing here needs the training stack.
"""

from __future__ import annotations

import hashlib
import random
import zlib
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from koikoi_p2p.ai.arena import MAX_DEALS
from koikoi_p2p.ai.features import COMPACT, INPUTS, compact_of_view
from koikoi_p2p.ai.strategy import MatchContext, tell_match
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.rules.match import MatchState
from koikoi_p2p.rules.profile import preset
from koikoi_p2p.rules.round import NeedAction, NeedReveal


@dataclass(frozen=True, slots=True)
class Positions:
    """Compact rows (positions x COMPACT, int8) and their labels (round points, this seat's side)."""

    compact: npt.NDArray[np.int8]
    points: npt.NDArray[np.float32]
    rounds: int


EXPLORE = 0.05  # share of plays replaced by a random legal play


def generate(rules: str, matches: int, seed: int, explore: float = EXPLORE) -> Positions:
    """The positions of ``matches`` strong-against-strong matches under the preset ``rules``."""
    profile = preset(rules)
    rng = random.Random(f"selfplay/{rules}/{seed}")  # noqa: S311 - simulated deals, nothing secret
    rows: list[list[int]] = []
    labels: list[float] = []
    rounds = 0
    for m in range(matches):
        players = (StrongPlayer(profile, seed * 7919 + 2 * m), StrongPlayer(profile, seed * 7919 + 2 * m + 1))
        match = MatchState(profile, rng.randrange(2))
        while not match.over and match.deals < MAX_DEALS:
            context = MatchContext(profile=profile, scores=match.scores, rounds_played=match.rounds_played)
            for player in players:
                tell_match(player, context)
            state = match.new_round(viewer=None)
            deck = list(range(48))
            rng.shuffle(deck)
            start = len(rows)
            seats: list[int] = []
            while state.result is None:
                need = state.need
                if type(need) is NeedReveal:
                    for p in need.positions:
                        state.reveal(p, deck[p])
                    continue
                assert isinstance(need, NeedAction)
                options = state.legal_actions()
                if need.kind == "play":
                    for seat in (0, 1):
                        rows.append(compact_of_view(state.view(seat)))
                        seats.append(seat)
                if need.kind == "play" and len(options) > 1 and rng.random() < explore:
                    action = options[rng.randrange(len(options))]
                else:
                    action = players[need.seat].choose(state.view(need.seat), options)
                state.apply(need.seat, action)
            result = state.result
            for seat in seats:
                if result.winner is None:
                    labels.append(0.0)
                else:
                    labels.append(float(result.points if result.winner == seat else -result.points))
            assert len(labels) == len(rows) == start + len(seats)
            match.record(result)
            rounds += 1
    compact = np.array(rows, dtype=np.int8).reshape(-1, COMPACT)
    return Positions(compact=compact, points=np.array(labels, dtype=np.float32), rounds=rounds)


SHARD_MATCHES = 100  # matches per shard: the unit of work, of seeding and of the data cache


ARITHMETIC_SHARDS = 1000  # shards of a preset seeded as the earlier 74-shard weights' data was


def shard_seed(seed: int, rules: str, index: int) -> int:
    """The seed of shard ``index`` of a run: a run of N shards is the first N of a longer one.

    The first ``ARITHMETIC_SHARDS`` shards of a preset keep the seeds the earlier weights (74
    shards) were trained on, so a cache of them stays valid: ``seed * 1_000_003`` plus a
    three-digit code of the preset times 1000 plus the index, distinct for every (seed, preset,
    index) while the index stays below 1000 (and the presets' codes differ, which a test
    checks). Past that the sum would run into the next code's range, another preset's shards,
    so those seeds are a hash of (seed, preset, index) from 2**62 up, clear of every arithmetic
    seed of a seed below 4 * 10**12. (The shipped weights' 1184 shards of seed 36 are 1000 of
    the first kind and 184 of the second.)
    """
    if 0 <= index < ARITHMETIC_SHARDS:
        return seed * 1_000_003 + zlib.crc32(rules.encode()) % 1000 * 1000 + index
    digest = hashlib.sha256(f"koikoi-shard/{seed}/{rules}/{index}".encode()).digest()
    return (1 << 62) + int.from_bytes(digest[:7], "big")


DATA_FORMAT = 1  # a shard file's layout (its arrays and their meaning); raise it when that changes


@cache
def data_fingerprint() -> str:
    """Twelve hex digits naming the code that makes shards, part of a cached shard's file name.

    A hash of ``DATA_FORMAT``, the row sizes, and the rows and labels of one fixed nintendo match
    played as a shard plays it: a change to the features (features.py), the labels, the
    self-play or the strong player changes it, so ``koikoi train`` makes new shards instead of
    reading ones made by other code from its cache.
    """
    probe = generate("nintendo", 1, 0)
    h = hashlib.sha256(f"koikoi-selfplay/{DATA_FORMAT}/{COMPACT}/{INPUTS}/{probe.rounds}/".encode())
    h.update(np.ascontiguousarray(probe.compact, dtype=np.int8).tobytes())
    h.update(np.ascontiguousarray(probe.points, dtype="<f4").tobytes())
    return h.hexdigest()[:12]


def write_shard(path: str, rules: str, seed: int, index: int, matches: int = SHARD_MATCHES) -> int:
    """Generate shard ``index`` and save it as ``path`` (npz); the number of positions."""
    found = generate(rules, matches, shard_seed(seed, rules, index))
    np.savez_compressed(path, compact=found.compact, points=found.points, rounds=np.array(found.rounds))
    return int(found.points.shape[0])


__all__ = ["ARITHMETIC_SHARDS", "DATA_FORMAT", "EXPLORE", "SHARD_MATCHES", "Positions", "data_fingerprint",
           "generate", "shard_seed", "write_shard"]

"""``koikoi bench ratings``: rated selfplay matches through a relay that serves ratings.

A pool of computer players plays N rated 1-round matches through a real ``koikoi relay --ratings
DB_URL`` process (pairs drawn by a seeded generator); after each match both seats submit the
co-signed result, as the terminal client does. Then the service's leaderboard must equal
``recompute`` of its export, every match must be counted exactly once, and the second submission
of every match must be a no-op (spec/ratings.md "Must hold"). It reports the cost of a
submission as seen by a client against the floor of checking the result locally
(``check_result``: canonical decoding and two Ed25519 verifications), interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from koikoi_p2p.bench.report import Measurement


@dataclass(slots=True)
class League:
    matches: int = 0
    counted: int = 0
    repeated: int = 0
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    results: list[bytes] = field(default_factory=list)
    submit_s: list[float] = field(default_factory=list)
    check_s: list[float] = field(default_factory=list)
    equal: bool = False
    board_results: int = 0
    players: int = 0
    wall_s: float = 0.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=200, help="rated matches to play (default 200)")
    parser.add_argument("--players", type=int, default=8, help="computer players in the pool (default 8)")
    parser.add_argument(
        "--db",
        metavar="DB_URL",
        default=None,
        help="the service's database (default: a new SQLite file in a temporary folder)",
    )
    parser.add_argument("--concurrency", type=int, default=2, help="matches played at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the pairings and the players' choices")


class RelayProcess:
    """``koikoi relay --port 0 --ratings DB_URL`` on loopback (``http``: its rating service), stopped
    by its pid."""

    def __init__(self, db: str, home: Path) -> None:
        env = {**os.environ, "KOIKOI_HOME": str(home)}
        command = [
            sys.executable,
            "-m",
            "koikoi_p2p",
            "relay",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--ratings",
            db,
            "--log-level",
            "warning",
            # Every player of the bench is on 127.0.0.1: the per-source limits would count them as one.
            "--max-connections-per-source", "0", "--max-rooms-per-source", "0",
            "--max-bytes-per-second-per-source", "0", "--handshakes-per-second-per-source", "0",
        ]
        self.process = subprocess.Popen(  # noqa: S603 (this program, fixed arguments)
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("relay listening on ws://"):
            self.stop()
            raise RuntimeError(f"the relay did not start: {line!r}")
        self.ws = line.split()[3]
        # The service runs beside the relay on a port of its own (spec/ratings.md §9).
        line = self.process.stdout.readline()
        if not line.startswith("ratings listening on http://"):
            self.stop()
            raise RuntimeError(f"the rating service did not start: {line!r}")
        self.http = line.split()[3].removesuffix("/ratings")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


async def play_league(
    relay_ws: str, service: str, *, matches: int, players: int = 8, seed: int = 0, concurrency: int = 2
) -> League:
    """Play the matches through the relay and submit every result from both seats."""
    from koikoi_p2p.ai.strategy import RandomPlayer
    from koikoi_p2p.net.match import Match
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_p2p.net.selfplay import seeded_identity
    from koikoi_p2p.protocol.events import ChoiceNeeded, Failure, MatchOver, YourTurn
    from koikoi_p2p.ratings import client
    from koikoi_p2p.ratings.checks import check_result
    from koikoi_p2p.rules.profile import preset

    league = League(players=players)
    pool = [seeded_identity(f"ratings-bench/{seed}/{i}".encode()) for i in range(players)]
    draw = random.Random(seed)  # noqa: S311 (pairings of a benchmark, not a secret)
    pairs = [tuple(draw.sample(range(players), 2)) for _ in range(matches)]
    gate = asyncio.Semaphore(concurrency)

    async def submit(result: bytes) -> None:
        start = time.perf_counter()
        answer = await asyncio.to_thread(client.submit_result, service, result)
        league.submit_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        check_result(result)  # the floor, interleaved with the real thing
        league.check_s.append(time.perf_counter() - start)
        if not answer.ok:
            league.refused.append(f"{answer.status} {answer.body.get('reason')}")
        elif answer.body.get("counted") is True:
            league.counted += 1
        else:
            league.repeated += 1

    async def seat(transport: RelayClient, number: int, index: int, room: str) -> bytes | None:
        strategy = RandomPlayer(seed * 1_000_003 + 2 * number + index)
        match = Match(
            transport,
            seat=index,
            identity=pool[pairs[number][index]],
            room=room,
            profile=preset("nintendo") if index == 0 else None,
            rounds=1 if index == 0 else None,
            store=None,
            name=f"player {pairs[number][index]}",
            rated=index == 0,
            ratings=service if index == 0 else "",
            accept_terms=(lambda terms: terms.rated and terms.ratings == service) if index == 1 else None,
        )
        async for event in match.events():
            if isinstance(event, (YourTurn, ChoiceNeeded)):
                await match.decide(strategy.choose(event.view, event.options))
            elif isinstance(event, MatchOver):
                await submit(event.result)
                return event.result
            elif isinstance(event, Failure):
                league.failures.append(f"match {number} seat {index}: {event.reason}: {event.message}")
                return None
        return None

    async def one(number: int) -> None:
        async with gate:
            host = await RelayClient.create(relay_ws)
            guest = await RelayClient.join(relay_ws, host.code)
            try:
                await host.wait_for_peer(timeout=30)
                results = await asyncio.gather(
                    seat(host, number, 0, host.code), seat(guest, number, 1, host.code)
                )
            finally:
                await host.close()
                await guest.close()
            league.matches += 1
            if results[0] is not None:
                league.results.append(results[0])

    start = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(matches)))
    league.wall_s = time.perf_counter() - start
    return league


def check_league(league: League, service: str) -> League:
    """Compare the service's leaderboard with a recomputation of its export."""
    from koikoi_p2p.ratings import client
    from koikoi_p2p.ratings.board import recompute

    board = client.leaderboard(service).body
    league.equal = recompute(client.export(service).body).board == board
    results = board.get("results")
    league.board_results = results if isinstance(results, int) else -1
    return league


def run_league(
    db: str | None, *, matches: int, players: int = 8, seed: int = 0, concurrency: int = 2
) -> League:
    """Start the relay with ratings, play, check, stop."""
    with tempfile.TemporaryDirectory(prefix="koikoi-bench-ratings-") as home:
        relay = RelayProcess(db or f"sqlite:///{Path(home) / 'ratings.sqlite3'}", Path(home))
        try:
            league = asyncio.run(
                play_league(
                    relay.ws, relay.http, matches=matches, players=players, seed=seed, concurrency=concurrency
                )
            )
            return check_league(league, relay.http)
        finally:
            relay.stop()


def run(args: argparse.Namespace) -> list[Measurement]:
    league = run_league(
        args.db, matches=args.matches, players=args.players, seed=args.seed, concurrency=args.concurrency
    )
    submit = statistics.median(league.submit_s) if league.submit_s else 0.0
    floor = statistics.median(league.check_s) if league.check_s else 0.0
    verdict = (
        f"{league.matches} matches, {league.counted} counted, {league.repeated} repeats, "
        f"{len(league.refused)} refused, {len(league.failures)} failed; leaderboard "
        f"{'EQUAL' if league.equal else 'DIFFERENT'} to recompute of the export "
        f"({league.board_results} results, {league.players} players)"
    )
    return [
        Measurement(
            "submission (HTTP, check, count) vs local check",
            submit,
            floor,
            submit / floor if floor else 0.0,
            note=verdict,
        ),
        Measurement(
            "wall time per rated 1-round match",
            league.wall_s / max(league.matches, 1),
            0.0,
            0.0,
            note=f"{league.wall_s:.1f} s for {league.matches} matches",
        ),
    ]

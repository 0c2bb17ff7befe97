"""One Python seat of a cross-implementation match, driven from the interop tests.

    python -m tests.interop.py_peer host|join [CODE] --relay URL [--password PW] [--rules P]
        [--rounds N] [--seed S] [--transcript FILE] [--result FILE] [--cheat KIND] [--resign-at N]

It plays through the library's public API (RelayClient, Match with the RandomPlayer, as
play_match does; with --resign-at N it resigns when it is asked to act for the N-th time) and
prints one JSON line when the room exists ({"code": ...}) and one with the outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from collections.abc import Mapping
from typing import Any

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.net.match import Match, MatchOutcome
from koikoi_p2p.net.relay_client import RelayClient
from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
from koikoi_p2p.protocol import channel as channel_module
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.events import ChoiceNeeded, Failure, MatchOver, YourTurn
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.rules.profile import preset, with_rounds


def install_cheat(kind: str) -> None:
    """Change the first message of a kind after the honest peer's own flow accepted it, as it is
    sealed (the same cheats as web/tools/cheat_peer.js): bad_key, bad_shuffle, bad_share,
    illegal_action, extra_field."""
    honest = channel_module.SecureChannel.seal
    done = [False]
    base_point = bytes([0x58] + [0x66] * 31)

    def flip(data: bytes, at: int) -> bytes:
        b = bytearray(data)
        b[at] ^= 1
        return bytes(b)

    def seal(self: channel_module.SecureChannel, type: str,  # SecureChannel.seal's own name for it
             body: Mapping[str, object]) -> tuple[bytes, SignedEnvelope]:
        if not done[0]:
            body = dict(body)
            action = body.get("action") if type == "act" else None
            if kind == "bad_key" and type == "key":
                done[0] = True
                key = body["key"]
                assert isinstance(key, bytes)
                body["key"] = flip(key, 70)
            elif kind == "bad_shuffle" and type == "shuffle":
                done[0] = True
                deck = body["deck"]
                assert isinstance(deck, bytes)
                body["deck"] = flip(deck, len(deck) - 32)
            elif kind == "bad_share" and body.get("shares"):
                done[0] = True
                shares = body["shares"]
                assert isinstance(shares, list)
                positions, data = shares[0]
                body["shares"] = [[positions, base_point + bytes(data)[32:]], *shares[1:]]
            elif kind == "illegal_action" and isinstance(action, dict) and action.get("type") == "play":
                done[0] = True
                body["action"] = {"type": "play", "position": 47}
            elif kind == "extra_field" and type == "act":
                done[0] = True
                body["extra"] = 1
        return honest(self, type, body)

    channel_module.SecureChannel.seal = seal  # type: ignore[method-assign]


async def play(transport: RelayClient, strategy: RandomPlayer, resign_at: int | None,
               **options: Any) -> MatchOutcome:
    """play_match, resigning at the resign_at-th decision when given."""
    match = Match(transport, accept_terms=lambda terms: True, **options)
    asked = 0
    async for event in match.events():
        if isinstance(event, (YourTurn, ChoiceNeeded)):
            asked += 1
            if asked == resign_at and match.can_resign():
                await match.resign()
            else:
                await match.decide(strategy.choose(event.view, event.options))
        elif isinstance(event, MatchOver):
            return MatchOutcome(scores=event.scores, winner=event.winner, result=event.result,
                                transcript_path=event.transcript_path, failure=None, events=asked,
                                bytes_sent=match.bytes_sent)
        elif isinstance(event, Failure):
            return MatchOutcome(scores=None, winner=None, result=None, transcript_path=match.transcript_path,
                                failure=event, events=asked, bytes_sent=match.bytes_sent)
    failure = Failure(reason="ended", message="the match ended without a result", who=None)
    return MatchOutcome(scores=None, winner=None, result=None, transcript_path=match.transcript_path,
                        failure=failure, events=asked, bytes_sent=match.bytes_sent)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=["host", "join"])
    parser.add_argument("code", nargs="?")
    parser.add_argument("--relay", required=True)
    parser.add_argument("--password")
    parser.add_argument("--rules", default="nintendo")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--seed")
    parser.add_argument("--transcript")
    parser.add_argument("--result")
    parser.add_argument("--cheat")
    parser.add_argument("--resign-at", type=int)
    args = parser.parse_args(argv)
    if args.cheat:
        install_cheat(args.cheat)
    seat = 0 if args.role == "host" else 1
    rng = seeded_rng(f"py-peer/{args.seed}/{seat}".encode()) if args.seed else None
    identity = seeded_identity(f"py-peer/{args.seed}/{seat}".encode()) if args.seed else Identity.generate()
    profile = preset(args.rules)
    if args.rounds:
        profile = with_rounds(profile, args.rounds)
    if seat == 0:
        client = await RelayClient.create(args.relay, meta={"rules": args.rules})
    else:
        client = await RelayClient.join(args.relay, args.code)
    print(json.dumps({"code": client.code, "seat": seat}), flush=True)
    if seat == 0:
        await client.wait_for_peer()
    store = tempfile.mkdtemp(prefix="koikoi-interop-")
    try:
        outcome = await play(client, RandomPlayer(int(args.seed) if args.seed else None), args.resign_at,
                             seat=seat, identity=identity, room=client.code, password=args.password,
                             profile=profile if seat == 0 else None, rng=rng, store=store)
        await client.close()
        path = outcome.transcript_path
        if outcome.failure is not None and outcome.failure.evidence_path:
            path = outcome.failure.evidence_path
        if args.transcript and path:
            shutil.copyfile(path, args.transcript)
        if args.result and outcome.result:
            with open(args.result, "wb") as out:
                out.write(outcome.result)
    finally:
        shutil.rmtree(store, ignore_errors=True)
    failure = None
    if outcome.failure is not None:
        stop = outcome.failure
        failure = {"reason": stop.reason, "message": stop.message, "who": stop.who}
    print(json.dumps({"ok": outcome.failure is None, "scores": outcome.scores, "winner": outcome.winner,
                      "failure": failure}), flush=True)
    return 0 if outcome.failure is None else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))

"""``koikoi selfplay``: two computer peers play a match through the full protocol."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli.options import LEVEL_HELP, LEVELS, PRESET_NAMES, add_cafile, rounds_count


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay",
        help="two computer peers play a match through the full protocol",
        description="Two computer peers play a whole match in this process: round keys, shuffles and "
                    "shares with their proofs, signed envelopes, co-signed results. In memory by default, "
                    "or through a relay with --relay. Both transcripts must come out identical.",
    )
    parser.add_argument("--rounds", type=rounds_count, default=None,
                        help="rounds to play (default: the preset's)")
    parser.add_argument("--seed", type=int, default=None,
                        help="make the match reproducible (identities, deck randomness, choices); "
                             "test use only")
    parser.add_argument("--rules", choices=PRESET_NAMES, default="nintendo", help="rule preset")
    parser.add_argument("--transcript", metavar="FILE", default=None, help="write seat 0's transcript here")
    parser.add_argument("--result", metavar="FILE", default=None, help="write the co-signed result here")
    parser.add_argument("--relay", metavar="URL", default=None, help="play through this relay")
    add_cafile(parser)
    parser.add_argument("--level", type=_levels, default=("easy", "easy"), metavar="LEVEL[,LEVEL]",
                        help="the computer players, one level for both seats or seat 0's,seat 1's: "
                             + LEVEL_HELP + " (default easy)")
    parser.add_argument("--join-relay", metavar="URL", default=None,
                        help="the joiner's relay when it is another cluster node (default: --relay)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(handler=_handle)


def _levels(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (1, 2) or any(p not in LEVELS for p in parts):
        raise argparse.ArgumentTypeError(f"expected LEVEL or LEVEL,LEVEL with levels {', '.join(LEVELS)}")
    return (parts[0], parts[-1])


def _handle(args: argparse.Namespace) -> int:
    import asyncio
    import json
    import time
    from pathlib import Path

    from koikoi_p2p.net.selfplay import selfplay

    relay = args.relay
    if relay is not None:
        from koikoi_p2p.cli.options import relay_url

        relay = relay_url(relay)
    join_relay = args.join_relay
    if join_relay is not None:
        if relay is None:
            print("koikoi selfplay: --join-relay needs --relay")
            return 2
        from koikoi_p2p.cli.options import relay_url

        join_relay = relay_url(join_relay)
    from koikoi_p2p.net.relay_client import RelayError

    start = time.perf_counter()
    try:
        played = asyncio.run(selfplay(rounds=args.rounds, seed=args.seed, rules=args.rules, relay=relay,
                                      levels=args.level, join_relay=join_relay))
    except RelayError as exc:
        from koikoi_p2p.cli.online import relay_failure

        return relay_failure(exc, str(relay))
    elapsed = time.perf_counter() - start
    out0, out1 = played.outcomes
    same = played.transcripts[0] == played.transcripts[1] and out0.result == out1.result
    failure = out0.failure or out1.failure
    if args.transcript and played.transcripts[0]:
        Path(args.transcript).write_bytes(played.transcripts[0])
    if args.result and out0.result:
        Path(args.result).write_bytes(out0.result)
    ok = failure is None and same
    if args.json:
        print(json.dumps({
            "ok": ok, "rules": args.rules, "levels": list(args.level),
            "scores": list(out0.scores) if out0.scores else None,
            "winner": out0.winner, "rounds": [
                {"round": r.round_index, "winner": r.result.winner, "points": r.result.points,
                 "reason": r.result.reason, "redeal": r.result.redeal} for r in played.rounds],
            "identical_transcripts": same, "bytes_on_wire": played.bytes_on_wire,
            "seconds": round(elapsed, 3),
            "failure": None if failure is None else {"reason": failure.reason, "who": failure.who,
                                                     "message": failure.message},
        }, indent=2))
    else:
        from koikoi_p2p.cli.catalogue import english_detail, word
        from koikoi_p2p.cli.summary import ROUND_END

        # English only (a tool for developers and CI), with every reason in words (--json has the ids).
        for r in played.rounds:
            who = "draw" if r.result.winner is None else f"player {r.result.winner} +{r.result.points}"
            why = ROUND_END.get(r.result.reason, r.result.reason)
            print(f"round {r.round_index}: {who} ({why}); scores {r.scores[0]}-{r.scores[1]}")
        if failure is not None:
            print(f"match stopped: {word('en', failure.reason)}: {english_detail(failure.message)}")
        else:
            winner = "a draw" if out0.winner is None else f"player {out0.winner} wins"
            scores = f"{out0.scores[0]}-{out0.scores[1]}" if out0.scores else "?"
            print(f"match over: {scores} ({winner})")
        print(f"identical transcripts on both sides: {'yes' if same else 'NO'}; "
              f"{played.bytes_on_wire} bytes on the wire; {elapsed:.2f} s")
        if args.transcript:
            print(f"transcript: {args.transcript} (check it with: koikoi verify {args.transcript})")
    return 0 if ok else 1

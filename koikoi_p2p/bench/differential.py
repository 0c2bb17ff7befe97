"""``koikoi bench differential``: Python and JavaScript seats play each other; both auditors judge.

A campaign of seeded matches, one at a time, each between a Python seat (this process, the
library's ``play_match``) and a JavaScript seat (``web/bench/differential_seat.js``, a node
process), frames over the node process's pipes. Match ``i`` of seed ``S`` is fixed by ``(S, i)``:
the seating (Python hosts on even ``i``, JavaScript on odd), a preset played for 1 to 3 rounds,
often with a random set of changed switches (then proposed under a custom name), a computer level
for each seat (every level of both implementations: easy/random, medium/greedy, strong, master
with a small playout budget) and, for about a third of the matches, a forced rare deal on deal 1
or 2: a whole month or four pairs on the field, a hand yaku for the non-dealer, the dealer or
both seats (``SCENARIOS``). A forced deal is made honestly through the protocol: the JavaScript
seat shuffles with the identity permutation (``web/bench/identity_shuffle.mjs``) and the Python
seat shuffles that deal's deck into the chosen order (``forced_decks``); the shuffle argument
proves any permutation, so the match is valid to both auditors, as any other.

Every transcript (the two seats' copies must be byte-identical) is audited by ``koikoi verify``'s
auditor and by ``web/tools/audit_batch.js``. Lines: the matches played, the disagreements
between the auditors (target 0), the failed live matches (a seat that did not finish, different
transcripts, or a valid match refused by both auditors; target 0), the matches per forced
scenario, and the rate. ``--log FILE`` appends one JSON line per match, so a campaign can be
resumed with ``--start``. Not run in CI (tests/interop/test_differential_sample.py runs a fixed
small sample of it, and the seeded 12-round ``koikoi selfplay --seed 1`` match).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koikoi_p2p.bench.report import Measurement

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
SEAT_SCRIPT = WEB / "bench" / "differential_seat.js"
IDENTITY_HOOK = WEB / "bench" / "identity_shuffle.mjs"
AUDIT_SCRIPT = WEB / "tools" / "audit_batch.js"

PY_LEVELS = ("easy", "medium", "strong", "master")
JS_LEVELS = ("random", "greedy", "strong", "master")
FIELD = (2, 3, 8, 9, 14, 15, 20, 21)                 # spec/rules.md §5.2, whoever deals
NON_DEALER = (0, 1, 6, 7, 12, 13, 18, 19)
DEALER = (4, 5, 10, 11, 16, 17, 22, 23)
BENCH_DEADLINE = 3600                                # seconds, both deadlines of the terms
SCENARIOS = ("field_month", "field_pairs", "teshi_non_dealer", "kuttsuki_dealer", "hand_yaku_both")

# Switch changes a random switch set draws from (each checked by the profile's own validation).
SWITCH_VALUES: dict[str, tuple[object, ...]] = {
    "bright_values": ((10, 8, 7, 5), (15, 8, 7, 6), (10, 8, 6, 5)),
    "named_extension": (True, False), "tane_with_inoshikacho": (True, False),
    "tan_with_ribbon_yaku": (True, False), "ribbon_pair": ("chofuku_10", "separate_5_5"),
    "cup_is_plain": (True, False), "joker_card": ("", "05-bridge"),
    "viewing": ("always", "bonus_only", "off"), "monthly_yaku_points": (0, 4),
    "monthly_yaku_scope": ("current_month", "any_month"), "double_threshold": (0, 7),
    "koikoi_multiplier": ("opponent_flat_x2", "shared_one_plus_calls", "winner_pow2", "none"),
    "max_calls_per_round": (0, 1, 2), "after_call": ("next_improvement_ends_round", "shobu_only"),
    "last_turn_stop_only": (True, False),
    "exhaustion": ("draw", "oya_ken", "last_caller_scores_else_oya_ken"),
    "dealer_after_draw": ("same", "other"),
    "hand_yaku": ({}, {"teshi": 6, "kuttsuki": 6}, {"tenho": 6, "double_tenho": 14}, {"teshi": 4}),
    "hand_yaku_both": ("void_redeal", "dealer"), "field_whole_month": ("redeal", "play_on"),
    "redeal_consumes_round": (True, False), "hand_capture": ("free", "compulsory"),
    "first_dealer_tie": ("redraw", "higher_card"), "match_tie": ("draw", "extra_round"),
    "hanami_cancelled_by": ((), ("11-rainman",)), "tsukimi_cancelled_by": ((), ("11-rainman",)),
    "cup_either": (True, False), "brights_add": (True, False), "sanko_with_rain": (True, False),
    "single_yaku": (True, False), "call_limit": ("per_round", "per_seat"),
    "caller_pays_more": ("off", "times_calls", "doubled_per_call"),
    "field_four_pairs": ("play_on", "redeal"), "first_dealer": ("card_draw", "coin", "host", "joiner"),
    "target_score": (0, 12), "transfer_cap": (True, False), "bust_ends_game": (True, False),
}


# -- forced deals -------------------------------------------------------------------------------
def scenario_order(scenario: str, seed: int) -> list[int]:
    """A deck order (card at each position) that deals ``scenario``; the other cards at random."""
    rnd = random.Random(f"differential-deck/{scenario}/{seed}")  # noqa: S311 - a bench's forced deal
    months = rnd.sample(range(12), 12)
    placed: dict[int, int] = {}

    def put(positions: Sequence[int], cards: Sequence[int]) -> None:
        for p, c in zip(positions, cards, strict=False):
            placed[p] = c

    def pairs(ms: Sequence[int]) -> list[int]:
        return [4 * m + k for m in ms for k in rnd.sample(range(4), 2)]

    if scenario == "field_month":
        put(FIELD, [4 * months[0] + k for k in range(4)])
    elif scenario == "field_pairs":
        put(FIELD, pairs(months[:4]))
    elif scenario == "teshi_non_dealer":
        put(NON_DEALER, [4 * months[0] + k for k in range(4)])
    elif scenario == "kuttsuki_dealer":
        put(DEALER, pairs(months[:4]))
    elif scenario == "hand_yaku_both":
        put(NON_DEALER, pairs(months[:4]))
        put(DEALER, [4 * months[4] + k for k in range(4)] + pairs(months[5:7]))
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    rest = [c for c in range(48) if c not in placed.values()]
    rnd.shuffle(rest)
    free = iter(rest)
    return [placed[p] if p in placed else next(free) for p in range(48)]


@contextlib.contextmanager
def forced_decks(orders: Mapping[int, Sequence[int]], *, partner_keeps_order: bool) -> Iterator[None]:
    """While active, this process's deck parties shuffle the deck of deal ``d`` into
    ``orders[d]`` (the card at each position); a bench and vector tool, never for a match between
    people. With ``partner_keeps_order`` the other seat shuffles with the identity (a JavaScript
    seat under ``identity_shuffle.mjs``), so this seat's permutation alone makes the order; else
    both seats are in this process and the first shuffler keeps the order, the second permutes."""
    import mentalpoker.deck as deck_module
    import mentalpoker.shuffle as shuffle_module

    draw: Callable[..., tuple[int, ...]] = getattr(shuffle_module, "random_permutation")  # noqa: B009
    message = deck_module.DeckParty.shuffle_message
    chosen: list[tuple[int, ...] | None] = [None]

    def permutation(n: int, rng: Any = None) -> tuple[int, ...]:
        forced = chosen[0]
        return forced if forced is not None and len(forced) == n else draw(n, rng)

    def shuffle_message(self: Any, binding: bytes) -> bytes:
        order = orders.get(self.round)
        first = self.first_shuffler == self.me
        if order is None:
            chosen[0] = None
        elif partner_keeps_order or not first:
            chosen[0] = tuple(order)
        else:
            chosen[0] = tuple(range(self.n))
        try:
            return message(self, binding)
        finally:
            chosen[0] = None

    setattr(shuffle_module, "random_permutation", permutation)  # noqa: B010 - the module's own name
    deck_module.DeckParty.shuffle_message = shuffle_message  # type: ignore[method-assign]
    try:
        yield
    finally:
        setattr(shuffle_module, "random_permutation", draw)  # noqa: B010
        deck_module.DeckParty.shuffle_message = message  # type: ignore[method-assign]


# -- one match ----------------------------------------------------------------------------------
@dataclass(slots=True)
class MatchPlan:
    index: int
    seed: int
    py_seat: int
    rules: str
    rounds: int
    switches: dict[str, object]
    py_level: str
    js_level: str
    scenario: str | None
    forced_deal: int | None

    def profile(self) -> Any:
        from koikoi_p2p.rules.profile import preset, with_rounds

        profile = with_rounds(preset(self.rules), self.rounds)
        if self.switches:
            profile = profile.with_switches(**self.switches)
        return profile


def plan(seed: int, index: int) -> MatchPlan:
    """Match ``index`` of campaign ``seed``: everything is drawn from (seed, index)."""
    from koikoi_p2p.rules.errors import RulesError
    from koikoi_p2p.rules.profile import PRESETS, preset, with_rounds

    rnd = random.Random(f"differential/{seed}/{index}")  # noqa: S311 - a bench's plan, nothing secret
    rules = rnd.choice(sorted(PRESETS))
    rounds = rnd.choice((1, 1, 2, 2, 2, 3))
    scenario = rnd.choice(SCENARIOS) if rnd.random() < 0.35 else None
    switches: dict[str, object] = {}
    if rnd.random() < 0.5:
        base = with_rounds(preset(rules), rounds)
        for key in rnd.sample(sorted(SWITCH_VALUES), rnd.randint(1, 5)):
            trial = {**switches, key: rnd.choice(SWITCH_VALUES[key])}
            try:
                base.with_switches(**trial)
            except RulesError:
                continue
            switches = trial
    if scenario is not None:
        # The switches that make the forced deal matter.
        needs: dict[str, object] = {}
        if scenario in ("teshi_non_dealer", "kuttsuki_dealer", "hand_yaku_both"):
            needs["hand_yaku"] = {"teshi": 6, "kuttsuki": 6}
        if scenario == "field_pairs" and rnd.random() < 0.7:
            needs["field_four_pairs"] = "redeal"
        switches = _first_valid(with_rounds(preset(rules), rounds), [
            {**switches, **needs},
            needs,
            # A preset that deals a whole-month hand again (koikoi-japan) allows no teshi: the
            # forced deal then exercises that redeal, beside the pairs' kuttsuki.
            {**needs, "hand_yaku": {"kuttsuki": 6}} if "hand_yaku" in needs else needs,
        ])
    levels = rnd.randrange(4), rnd.randrange(4)
    if rnd.random() < 0.6:     # the master is slow: most matches use the three faster levels
        levels = rnd.randrange(3), rnd.randrange(3)
    return MatchPlan(index=index, seed=seed, py_seat=index % 2, rules=rules, rounds=rounds,
                     switches=switches, py_level=PY_LEVELS[levels[0]], js_level=JS_LEVELS[levels[1]],
                     scenario=scenario, forced_deal=rnd.choice((1, 2)) if scenario else None)


def _first_valid(base: Any, candidates: Sequence[dict[str, object]]) -> dict[str, object]:
    """The first switch set ``base`` accepts; every plan must describe a playable profile."""
    from koikoi_p2p.rules.errors import RulesError

    for candidate in candidates:
        try:
            base.with_switches(**candidate)
        except RulesError:
            continue
        return candidate
    raise ValueError("no valid switch set for this plan")


class PipeTransport:
    """Frames to and from the node seat: a 4-byte big-endian length, then the frame."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def send(self, frame: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(len(frame).to_bytes(4, "big") + frame)
        with contextlib.suppress(ConnectionError):
            await self.proc.stdin.drain()

    async def recv(self) -> bytes:
        from koikoi_p2p.protocol.transport import TransportClosed

        assert self.proc.stdout is not None
        try:
            head = await self.proc.stdout.readexactly(4)
            return await self.proc.stdout.readexactly(int.from_bytes(head, "big"))
        except (asyncio.IncompleteReadError, ConnectionError):
            raise TransportClosed("the JavaScript seat closed its pipe") from None

    async def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.is_closing():
            self.proc.stdin.close()


@dataclass(slots=True)
class MatchRecord:
    plan: MatchPlan
    live_ok: bool = False
    problem: str = ""
    py_verdict: dict[str, object] = field(default_factory=dict)
    js_verdict: dict[str, object] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    seconds: float = 0.0
    transcript: Path | None = None

    @property
    def agree(self) -> bool:
        return self.py_verdict == self.js_verdict

    def to_json(self) -> dict[str, object]:
        p = self.plan
        return {"index": p.index, "seed": p.seed, "py_seat": p.py_seat, "rules": p.rules, "rounds": p.rounds,
                "switches": {k: list(v) if isinstance(v, tuple) else v for k, v in p.switches.items()},
                "levels": {"py": p.py_level, "js": p.js_level}, "scenario": p.scenario,
                "forced_deal": p.forced_deal, "live_ok": self.live_ok, "problem": self.problem,
                "py_verdict": self.py_verdict, "js_verdict": self.js_verdict, "agree": self.agree,
                "round_reasons": self.reasons, "seconds": round(self.seconds, 2)}


def py_verdict(data: bytes) -> dict[str, object]:
    """``koikoi verify``'s verdict in the shape of web/tools/audit_batch.js."""
    from koikoi_p2p.audit import AuditError, audit_bytes

    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return {"ok": False, "reason": exc.reason, "index": exc.index}
    if report.deviation is not None:
        return {"ok": report.ok, "reason": report.deviation.reason, "index": report.deviation.seq,
                "seat": report.deviation.seat}
    if report.ok:
        return {"ok": True, "reason": None, "index": None}
    return {"ok": False, "reason": "incomplete", "index": None}


def js_verdicts(paths: Sequence[Path], node: str) -> list[dict[str, object]]:
    command = ["nice", "-n", "19", node, str(AUDIT_SCRIPT), *map(str, paths)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO,  # noqa: S603
                         timeout=3600).stdout
    return [json.loads(line) for line in out.splitlines()]


def _round_reasons(data: bytes) -> list[str]:
    from koikoi_p2p.protocol.transcript import decode_transcript

    reasons = []
    for env in decode_transcript(data).envelopes:
        if env.type == "round_sign" and env.sender == 0:
            result = env.body.get("result")
            if isinstance(result, dict):
                reasons.append(str(result.get("reason")))
    return reasons


async def play_one(p: MatchPlan, workdir: Path, node: str, *, simulations: int = 40,
                   timeout: float = 3 * 3600.0) -> MatchRecord:
    """Play match ``p``: the Python seat here, the JavaScript seat in a node process."""
    from koikoi_p2p.ai.levels import computer_player
    from koikoi_p2p.net.match import play_match
    from koikoi_p2p.net.selfplay import seeded_identity, seeded_rng
    from koikoi_p2p.protocol.terms import Deadlines
    from koikoi_p2p.rules.profile import PRESETS

    record = MatchRecord(plan=p)
    started = time.monotonic()
    profile = p.profile()
    if p.switches and profile.name in PRESETS:
        profile = profile.with_switches(name="custom")
    js_seat = 1 - p.py_seat
    js_transcript, js_outcome = workdir / f"{p.index}.js.transcript", workdir / f"{p.index}.js.json"
    config = {"seat": js_seat, "seed": f"{p.seed}/{p.index}", "room": f"DIF{p.index % 1000:03d}",
              "profile": profile.to_dict(), "strategy": p.js_level, "simulations": simulations,
              "transcript": str(js_transcript), "outcome": str(js_outcome),
              # Long deadlines: on a busy machine at nice 19 a step can take minutes, and a
              # deadline missed for want of CPU is no disagreement between the implementations.
              "deadlines": {"step": BENCH_DEADLINE, "turn": BENCH_DEADLINE}}
    args = ["nice", "-n", "19", node, "--experimental-websocket"]
    if p.scenario is not None:
        args += ["--import", IDENTITY_HOOK.as_uri()]
    proc = await asyncio.create_subprocess_exec(*args, str(SEAT_SCRIPT), json.dumps(config),
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.PIPE, cwd=REPO)
    transport = PipeTransport(proc)
    tag = f"differential/{p.seed}/{p.index}/py".encode()
    player = computer_player(p.py_level, profile, p.seed * 100_000 + p.index, simulations=simulations,
                             max_seconds=5.0)
    orders = {} if p.forced_deal is None or p.scenario is None else {
        p.forced_deal: scenario_order(p.scenario, p.seed * 100_000 + p.index)}
    store = workdir / f"{p.index}.py"
    try:
        with forced_decks(orders, partner_keeps_order=True):
            outcome = await asyncio.wait_for(play_match(
                transport, player, seat=p.py_seat, identity=seeded_identity(tag), room=config["room"],
                profile=profile if p.py_seat == 0 else None, store=store, rng=seeded_rng(tag),
                deadlines=Deadlines(step=BENCH_DEADLINE, turn=BENCH_DEADLINE)), timeout)
        await transport.close()
        _, err = await asyncio.wait_for(proc.communicate(), 120)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        record.problem = "timeout"
        record.seconds = time.monotonic() - started
        return record
    js = json.loads(js_outcome.read_text()) if js_outcome.exists() else \
        {"ok": False, "failure": err.decode()[-500:]}
    py_file = Path(outcome.failure.evidence_path) if outcome.failure is not None and \
        outcome.failure.evidence_path else Path(outcome.transcript_path) if outcome.transcript_path else None
    py_data = py_file.read_bytes() if py_file is not None and py_file.exists() else b""
    js_data = js_transcript.read_bytes() if js_transcript.exists() else b""
    record.live_ok = outcome.failure is None and bool(js.get("ok"))
    if not record.live_ok:
        stop = outcome.failure
        record.problem = f"python: {stop and (stop.reason, stop.message)}; javascript: {js.get('failure')}"
    elif py_data != js_data:
        record.live_ok = False
        record.problem = "the two seats' transcripts differ"
    keep = workdir / f"{p.index}.transcript"
    keep.write_bytes(py_data or js_data)
    record.transcript = keep
    record.py_verdict = py_verdict(keep.read_bytes())
    if record.py_verdict.get("ok"):
        record.reasons = _round_reasons(keep.read_bytes())
    shutil.rmtree(store, ignore_errors=True)
    for f in (js_transcript, js_outcome):
        f.unlink(missing_ok=True)
    record.seconds = time.monotonic() - started
    return record


def campaign(*, seed: int, start: int, matches: int, max_seconds: float, workdir: Path, log: Path | None,
             simulations: int = 40, batch: int = 8,
             on_record: Callable[[MatchRecord], None] | None = None) -> list[MatchRecord]:
    """Play matches ``start`` .. ``start + matches - 1`` (or until ``max_seconds``), audit each
    transcript with both auditors (the JavaScript one in batches) and return the records."""
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules").is_dir():
        raise SystemExit("koikoi bench differential needs node and web/node_modules (cd web && npm ci)")
    deadline = time.monotonic() + max_seconds
    records: list[MatchRecord] = []
    pending: list[MatchRecord] = []

    def flush() -> None:
        paths = [r.transcript for r in pending if r.transcript is not None]
        verdicts = iter(js_verdicts(paths, node)) if paths else iter(())
        for r in pending:
            if r.transcript is not None:
                r.js_verdict = next(verdicts)
                r.transcript.unlink(missing_ok=True)
            else:
                r.js_verdict = {"ok": False, "reason": "no_transcript", "index": None}
                r.py_verdict = dict(r.js_verdict)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(r.to_json()) + "\n")
            if on_record is not None:
                on_record(r)
        pending.clear()

    for index in range(start, start + matches):
        if time.monotonic() > deadline:
            break
        record = asyncio.run(play_one(plan(seed, index), workdir, node, simulations=simulations))
        records.append(record)
        pending.append(record)
        if len(pending) >= batch:
            flush()
    flush()
    return records


def summary(records: Sequence[Mapping[str, Any]], elapsed: float) -> list[Measurement]:
    """The campaign's lines from its match records (``MatchRecord.to_json`` maps)."""
    n = len(records)
    disagreements = [r for r in records if not r["agree"]]
    failed = [r for r in records if not r["live_ok"] or not r["py_verdict"].get("ok")]
    scenarios = Counter(str(r["scenario"]) for r in records)
    reasons = Counter(reason for r in records for reason in r["round_reasons"])
    seatings = Counter("python hosts" if r["py_seat"] == 0 else "javascript hosts" for r in records)
    levels = Counter(f"{r['levels']['py']}/{r['levels']['js']}" for r in records)
    rate = n / elapsed if elapsed > 0 else 0.0
    return [
        Measurement("matches", float(n), 1000.0, n / 1000.0, unit="matches",
                    note=f"target 1000; {dict(seatings)}; {len({r['rules'] for r in records})} presets; "
                         f"{sum(1 for r in records if r['switches'])} with changed switches"),
        Measurement("disagreements", float(len(disagreements)), 0.0, float(len(disagreements)),
                    unit="matches",
                    note="the two auditors' verdicts differ (target 0)"
                         + "".join(f"; #{r['index']}: py {r['py_verdict']} js {r['js_verdict']}"
                                   for r in disagreements[:5])),
        Measurement("failed_live_matches", float(len(failed)), 0.0, float(len(failed)), unit="matches",
                    note="a seat failed, the transcripts differ, or the match was refused (target 0)"
                         + "".join(f"; #{r['index']}: {r['problem'] or r['py_verdict']}"
                                   for r in failed[:5])),
        Measurement("forced_deals", float(n - scenarios.get("None", 0)), float(n), 0.0, unit="matches",
                    note=", ".join(f"{k}: {v}" for k, v in sorted(scenarios.items()))
                         + "; round endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items()))),
        Measurement("rate", rate * 3600, 0.0, 0.0, unit="matches/hour",
                    note=f"{elapsed:.0f} s for {n} matches; levels (py/js): "
                         + ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=1000, metavar="N",
                        help="matches to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="the campaign's seed (default 1)")
    parser.add_argument("--start", type=int, default=0, help="first match index (resume a campaign)")
    parser.add_argument("--max-seconds", type=float, default=6 * 3600.0,
                        help="stop starting matches after this (default 6 hours)")
    parser.add_argument("--simulations", type=int, default=40, help="playouts of a master's decision")
    parser.add_argument("--log", metavar="FILE", default=None,
                        help="append one JSON line per match here; the summary then covers the whole file")


def run(args: argparse.Namespace) -> list[Measurement]:
    log = Path(args.log) if args.log else None
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="koikoi-differential-"))
    try:
        records = campaign(seed=args.seed, start=args.start, matches=args.matches,
                           max_seconds=args.max_seconds, workdir=workdir, log=log,
                           simulations=args.simulations)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.monotonic() - started
    if log is not None and log.exists():
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        elapsed = sum(float(r["seconds"]) for r in rows) or elapsed
        return summary(rows, elapsed)
    return summary([r.to_json() for r in records], elapsed)



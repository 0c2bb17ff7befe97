"""Drive the Python rules engine (koikoi_p2p.rules) for the JavaScript cross-implementation test.

Reads one JSON request per line on stdin and prints one JSON answer per line: the state after
every step of a scripted round, profile encodings and digests, scores, match tallies. Only the
package's public API is used; the JavaScript test builds the same records from its own engine and
compares them (web/test/rules/cross_python.test.js).
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from koikoi_p2p.rules import (
    IllegalMove,
    InconsistentReveal,
    MatchState,
    NeedAction,
    NeedReveal,
    Profile,
    RoundResult,
    RoundState,
    RulesError,
    action_from_dict,
    choose_first_dealer,
    differences,
    first_dealer,
    nearest_preset,
    parse_switch,
    preset,
    round_score,
    score_yaku,
)


def _error(exc: RulesError) -> dict[str, Any]:
    kind = "IllegalMove" if isinstance(exc, IllegalMove) else (
        "InconsistentReveal" if isinstance(exc, InconsistentReveal) else "RulesError")
    return {"error": [kind, exc.reason]}


def _need(state: RoundState) -> list[Any] | None:
    need = state.need
    if need is None:
        return None
    if isinstance(need, NeedReveal):
        return ["reveal", list(need.positions), need.to]
    assert isinstance(need, NeedAction)
    return ["action", need.seat, need.kind]


def _canon(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _record(state: RoundState) -> dict[str, Any]:
    # A seat's engine only shows its own hand; an auditor's (viewer None) shows both.
    seats = [0, 1] if state.viewer is None else [state.viewer]
    views: list[dict[str, Any]] = [state.view(seat).to_dict() for seat in seats]
    result = state.result
    return {
        "need": _need(state),
        "legal": sorted(_canon(a.to_dict()) for a in state.legal_actions()),
        "field": sorted(views[0]["field"]),
        "piles": [sorted(p) for p in views[0]["piles"]],
        "hand_positions": [list(v["hand_positions"]) for v in views],
        "hands": [list(v["hand"]) for v in views],
        "opponent_hand_size": [v["opponent_hand_size"] for v in views],
        "bases": list(views[0]["bases"]),
        "yaku": [dict(y) for y in views[0]["yaku"]],
        "calls": list(views[0]["calls"]),
        "stock_count": views[0]["stock_count"],
        "pending": views[0]["pending_card"],
        "options": sorted(views[0]["capture_options"]),
        "result": None if result is None else result.to_dict(),
    }


def _step(state: RoundState, step: dict[str, Any]) -> None:
    if "reveal" in step:
        position, card = step["reveal"]
        state.reveal(position, card)
    elif "skip" in step:
        state.skip_reveal()
    else:
        seat, action = step["apply"]
        state.apply(seat, action_from_dict(action))


def run_round(req: dict[str, Any]) -> list[dict[str, Any]]:
    state = RoundState(profile=Profile.from_dict(req["profile"]), dealer=req["dealer"], viewer=req["viewer"],
                       round_index=req["round_index"], month=req["month"])
    out = [_record(state)]
    for step in req["script"]:
        probe = step.get("probe", False)
        target = state.copy() if probe else state
        try:
            _step(target, step)
        except RulesError as exc:
            out.append(_error(exc))
            if not probe:
                break
            continue
        out.append({"ok": True} if probe else _record(state))
    return out


def run_match(req: dict[str, Any]) -> list[dict[str, Any]]:
    match = MatchState(Profile.from_dict(req["profile"]), req["first_dealer"])
    out: list[dict[str, Any]] = []
    for result in req["results"]:
        try:
            match.record(RoundResult.from_dict(result))
        except RulesError as exc:
            out.append(_error(exc))
            break
        params = None if match.over else match.round_params()
        out.append({
            "scores": list(match.scores), "over": match.over, "winner": match.winner,
            "rounds_played": match.rounds_played,
            "params": None if params is None else [params.round_index, params.dealer, params.month],
        })
    return out


def handle(req: dict[str, Any]) -> Any:
    op = req["op"]
    try:
        if op == "round":
            return run_round(req)
        if op == "match":
            return run_match(req)
        if op == "profile":
            profile = Profile.from_dict(req["dict"])
            encoded = profile.encode()
            return {"encoding": encoded.decode("utf-8"), "digest": hashlib.sha256(encoded).hexdigest()}
        if op == "decode":
            return {"encoding": Profile.decode(req["text"].encode("utf-8")).encode().decode("utf-8")}
        if op == "score":
            profile = Profile.from_dict(req["profile"])
            yaku = score_yaku(req["cards"], profile, req["month"], req["winner"] in req["calls"])
            base = sum(yaku.values())
            score = round_score(base, req["calls"], req["winner"], profile)
            return {"yaku": yaku, "base": base, "round_score": score}
        if op == "first_dealer":
            profile = Profile.from_dict(req["profile"])
            return {"dealer": first_dealer(req["cards"][0], req["cards"][1], profile)}
        if op == "action":
            return {"action": action_from_dict(req["dict"]).to_dict()}
        if op == "first_dealer_step":
            step = choose_first_dealer(Profile.from_dict(req["profile"]), req["revealed"])
            return {"dealer": step.dealer, "need": list(step.need)}
        if op == "text":
            parse_switch(req["switch"], req["text"])  # a bad value is refused here, as in JavaScript
            changed = Profile.from_dict(req["profile"]).with_switches({req["switch"]: req["text"]})
            written = changed.switch_text(req["switch"])
            return {"encoding": changed.encode().decode("utf-8"), "written": written}
        if op == "describe":
            profile = Profile.from_dict(req["profile"])
            nearest = nearest_preset(profile)
            return {"nearest": nearest, "differences": differences(profile, preset(nearest))}
    except RulesError as exc:
        return _error(exc)
    raise SystemExit(f"unknown op {op!r}")


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(handle(json.loads(line)), ensure_ascii=False), flush=False)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Sequential round trips of a match, counted on its transcript (spec/game.md §5.8).

Over a network the time a player waits is the number of times the turn to send passes from one
seat to the other: each change of sender (a *hop*) costs half a round trip, however many
envelopes travel in one direction in a row. This module counts hops on a real transcript, from
the envelopes' senders and types alone (no cryptography), and attributes each hop to a phase by
the first message of the batch it starts (owed messages, which precede an ``act`` or a closing
message, count with the message they precede):

* ``start``: from the terms to the first ``act`` of the match (terms, acceptance, the first
  decks, the first-dealer draw, the first opening and declarations);
* ``turn``: an ``act`` and the ``reveal`` answering it, during play;
* ``closing``: a deal's ``disclose`` messages, from the one after the deal's last move;
* ``setup``: from a deal's close to the next deal's first ``act`` (a late preparation, a late
  opening, the second declaration);
* ``end``: the match result, its countersignature, a resignation.

``trip_report`` is used by the tests (a property of the flow, not a timing) and by
``koikoi bench match``; ``koikoi bench latency`` cross-checks its wall-clock figures against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.envelope import SignedEnvelope

_OWED = frozenset({m.ROUND_SIGN, m.KEY, m.SHUFFLE})
PHASES = ("start", "turn", "closing", "setup", "end")


@dataclass(frozen=True, slots=True)
class TripReport:
    """Hops (changes of sender) of one transcript, in total and per phase."""

    envelopes: int
    hops: int
    by_phase: dict[str, int]
    setups: tuple[int, ...]        # per deal after the first: hops from the previous close to its first act
    closings: tuple[int, ...]      # per closed deal: hops of its close
    plays: int                     # `play` actions (one per turn)

    @property
    def round_trips(self) -> float:
        return self.hops / 2

    def per_setup(self) -> float:
        """Mean round trips of a deal setup, from the second deal on."""
        return sum(self.setups) / 2 / len(self.setups) if self.setups else 0.0

    def per_closing(self) -> float:
        return sum(self.closings) / 2 / len(self.closings) if self.closings else 0.0

    def per_turn(self) -> float:
        """Round trips of play per turn (a turn is one `play`; capture and koi-koi choices add)."""
        return self.by_phase["turn"] / 2 / self.plays if self.plays else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "envelopes": self.envelopes, "hops": self.hops, "round_trips": self.round_trips,
            "by_phase_round_trips": {k: v / 2 for k, v in self.by_phase.items()},
            "per_setup": self.per_setup(), "max_setup": max(self.setups, default=0) / 2,
            "per_closing": self.per_closing(), "max_closing": max(self.closings, default=0) / 2,
            "per_turn": self.per_turn(), "plays": self.plays, "deals": len(self.closings),
        }


def _batches(envelopes: Sequence[SignedEnvelope]) -> list[list[SignedEnvelope]]:
    batches: list[list[SignedEnvelope]] = []
    for env in envelopes:
        if batches and batches[-1][-1].sender == env.sender:
            batches[-1].append(env)
        else:
            batches.append([env])
    return batches


def _is_play(env: SignedEnvelope) -> bool:
    action = env.body.get("action")
    return env.type == m.ACT and isinstance(action, dict) and action.get("type") == "play"


def trip_report(envelopes: Sequence[SignedEnvelope]) -> TripReport:
    """Count the hops of a transcript's envelopes and attribute them to phases (module docstring)."""
    by_phase = dict.fromkeys(PHASES, 0)
    setups: list[int] = []
    closings: list[int] = []
    mode = "start"            # start -> turn -> closing -> setup -> turn ... -> end
    disclosed: dict[int, int] = {}
    setup_open = False
    for index, batch in enumerate(_batches(envelopes)):
        # A batch counts as its first message other than what merely precedes an act or a close
        # (owed messages), and a dealer that declares and plays in one batch counts as playing.
        moves = [e for e in batch if e.type not in _OWED]
        lead = moves[0] if moves else batch[0]
        if lead.type == m.DECLARE:
            lead = next((e for e in moves if e.type == m.ACT), lead)
        if lead.type in (m.ACT, m.RESIGN):
            label = "end" if lead.type == m.RESIGN else "turn"
        elif lead.type == m.REVEAL:
            label = "turn" if mode == "turn" else mode
        elif lead.type == m.DISCLOSE:
            label = "closing"
        elif lead.type in (m.MATCH_RESULT, m.MATCH_SIGN):
            label = "end"
        else:                 # terms, accept, declare, or a batch of preparation only
            label = "setup" if mode in ("setup", "closing") else mode
        if index:
            by_phase[label] += 1
            if label == "closing":
                closings[-1] += 1
            elif label == "setup":
                setups[-1] += 1
        for env in batch:
            if env.type == m.ACT:
                mode = "turn"
                setup_open = False
            elif env.type == m.DISCLOSE:
                deal = env.body.get("deal")
                key = deal if isinstance(deal, int) else -1
                disclosed[key] = disclosed.get(key, 0) + 1
                if disclosed[key] == 1:
                    mode = "closing"
                    closings.append(0)
                elif disclosed[key] == 2:
                    mode = "setup"
                    setups.append(0)
                    setup_open = True
            elif env.type in (m.MATCH_RESULT, m.MATCH_SIGN, m.RESIGN):
                mode = "end"
    if setups and setup_open:
        setups.pop()          # the last close opens no deal (or its deal never came to a play)
    hops = sum(by_phase.values())
    plays = sum(1 for env in envelopes if _is_play(env))
    return TripReport(envelopes=len(envelopes), hops=hops, by_phase=by_phase, setups=tuple(setups),
                      closings=tuple(closings), plays=plays)


def bytes_per_deal(envelopes: Sequence[SignedEnvelope]) -> list[int]:
    """Wire bytes of each deal's game frames, indexed by deal number: index 0 holds the terms and
    the first-dealer draw (deal 0); a deal's preparation, moves, disclosures and signatures count
    for it; the deck prepared for a deal that was never played, and the match result, count for
    the last deal played."""
    from koikoi_p2p.protocol.channel import HEADER_SIZE
    from koikoi_p2p.protocol.primitives import AEAD_TAG

    sizes: dict[int, int] = {}
    disclosed: dict[int, int] = {}
    playing = 0 if any(e.type == m.KEY and e.body.get("deal") == 0 for e in envelopes) else 1
    for env in envelopes:
        deal = env.body.get("deal")
        if env.type in (m.TERMS, m.ACCEPT):
            number = 0
        elif env.type in (m.KEY, m.SHUFFLE, m.DISCLOSE, m.ROUND_SIGN) and isinstance(deal, int):
            number = deal
        else:
            if env.type in (m.ACT, m.DECLARE) and playing == 0:
                playing = 1               # the draw is over
            number = playing
        if env.type == m.DISCLOSE and isinstance(deal, int):
            disclosed[deal] = disclosed.get(deal, 0) + 1
            if disclosed[deal] == 2:
                playing = deal + 1
        sizes[number] = sizes.get(number, 0) + HEADER_SIZE + AEAD_TAG + len(env.signature) + len(env.raw)
    last = max(disclosed, default=max(sizes, default=0))
    for number in [d for d in sizes if d > last]:
        sizes[last] = sizes.get(last, 0) + sizes.pop(number)
    return [sizes.get(d, 0) for d in range(max(sizes, default=0) + 1)]


def transcript_trips(data: bytes) -> TripReport:
    """``trip_report`` of a transcript file's bytes (its container is verified first)."""
    from koikoi_p2p.protocol.transcript import decode_transcript

    return trip_report(decode_transcript(data).envelopes)


__all__ = ["PHASES", "TripReport", "bytes_per_deal", "transcript_trips", "trip_report"]

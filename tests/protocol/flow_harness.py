"""Drive two players' ``GameFlow`` machines and an auditor's over transparent decks.

The decks are stand-ins whose cards the test chooses (``TransparentDeck``: every proof accepted,
every card readable once the machine asks for it), so the rare paths of the flow (a deal that ends
at its opening, a redeal, a tie in the draw, the first-dealer rules) can be played on purpose and
checked message by message. Signatures are real (results are signed by two identities). The
machines are the real ones: whatever the players send is exactly what the expectation of §4.2
asks for, and all three machines must agree on it at every step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.flow import GameFlow, MessageShares, Phase, shares_to_wire
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.messages import ShareGroup
from koikoi_p2p.protocol.rulesio import action_to_wire, result_to_wire
from koikoi_p2p.protocol.statement import sha256
from koikoi_p2p.protocol.terms import MatchTerms
from koikoi_p2p.rules.profile import Profile

SESSION = b"\x07" * 32
ROOM = "FLOW42"


class TransparentDeck:
    """A deck whose order the test chose; it accepts every message and shows every card."""

    def __init__(self, order: Sequence[int]) -> None:
        self.order = tuple(order)

    def key(self, sender: int, data: bytes) -> None:
        return None

    def shuffle(self, sender: int, data: bytes) -> None:
        return None

    def shares(self, sender: int, positions: tuple[int, ...], data: bytes) -> None:
        return None

    def card(self, position: int) -> int | None:
        return self.order[position]

    def disclosed(self, sender: int, data: bytes) -> None:
        return None

    def audit(self) -> tuple[int, ...]:
        return self.order


class _Recorder:
    def __init__(self) -> None:
        self.groups: list[ShareGroup] = []

    def take(self, deal: int, positions: tuple[int, ...]) -> bytes:
        self.groups.append(ShareGroup(positions, b"s"))
        return b"s"

    def finish(self) -> None:
        return None


@dataclass
class Sent:
    seq: int
    sender: int
    type: str
    body: dict[str, Any]


@dataclass
class FlowMatch:
    profile: Profile
    decks: Callable[[int], Sequence[int]]                 # deal number -> card order
    choose: Callable[[GameFlow, int], Any] | None = None  # the acting seat's action (default: first legal)
    resign_at: Callable[[GameFlow, int], bool] | None = None
    ids: tuple[Identity, Identity] = field(default_factory=lambda: (
        Identity.from_private_bytes(b"\x31" * 32), Identity.from_private_bytes(b"\x32" * 32)))
    sent: list[Sent] = field(default_factory=list)

    def __post_init__(self) -> None:
        keys = (self.ids[0].public_key, self.ids[1].public_key)
        self.flows = [GameFlow(viewer=v, keys=keys, room=ROOM, session_id=SESSION,
                               deck_factory=lambda d, f: TransparentDeck(self.decks(d)))
                      for v in (0, 1, None)]
        self.terms = MatchTerms.propose(profile=self.profile, keys=keys, room=ROOM)
        self._prev = SESSION

    def expectations_agree(self) -> tuple[int, str]:
        views = {(f.expect, f.expect_deal, f.waiting_for()) for f in self.flows}
        assert len(views) == 1, views
        return self.flows[0].expect

    def _body(self, seat: int, msg_type: str) -> dict[str, Any]:
        flow = self.flows[seat]
        deal = flow.expect_deal
        if msg_type == m.TERMS:
            return self.terms.to_body()
        if msg_type == m.ACCEPT:
            return {"terms": flow.terms_digest}
        if msg_type == m.KEY:
            return {"deal": deal, "key": b"k%d" % seat}
        if msg_type == m.SHUFFLE:
            return {"deal": deal, "deck": b"d%d" % seat}
        if msg_type == m.REVEAL:
            return {"shares": []}
        if msg_type == m.DECLARE:
            engine = flow.engine
            assert engine is not None
            return {"action": action_to_wire(engine.hand_yaku_options(seat)[0]), "shares": []}
        if msg_type == m.ACT:
            if self.resign_at is not None and self.resign_at(flow, seat):
                result = flow.match_result_for(self._prev, resigned=seat)
                return {"__type": m.RESIGN, "result": result.to_dict(),
                        "sig": self.ids[seat].sign(result.statement())}
            action = self.choose(flow, seat) if self.choose else flow.legal_actions()[0]
            return {"action": action_to_wire(action), "shares": []}
        if msg_type == m.DISCLOSE:
            return {"deal": deal, "key": bytes([seat]) * 32, "shares": []}
        if msg_type == m.ROUND_SIGN:
            record = flow.deal_record(deal) if deal is not None else None
            assert record is not None and record.result is not None
            flow.ensure_audited(record)
            return {"deal": deal, "result": result_to_wire(record.result),
                    "sig": self.ids[seat].sign(flow.round_statement(record))}
        if msg_type == m.MATCH_RESULT:
            result = flow.match_result_for(self._prev)
            return {"result": result.to_dict(), "sig": self.ids[seat].sign(result.statement())}
        if msg_type == m.MATCH_SIGN:
            assert flow.match_result is not None
            return {"sig": self.ids[seat].sign(flow.match_result.statement())}
        raise AssertionError(msg_type)

    def step(self) -> Sent:
        seat, msg_type = self.expectations_agree()
        body = self._body(seat, msg_type)
        msg_type = body.pop("__type", msg_type)
        seq = len(self.sent)
        recorder = _Recorder() if "shares" in body else None
        self.flows[seat].accept(seat, msg_type, body, seq=seq, prev=self._prev, source=recorder)
        if recorder is not None:
            body["shares"] = shares_to_wire(recorder.groups)
        for other in (self.flows[1 - seat], self.flows[2]):
            shares = MessageShares(m.parse_shares(msg_type, body["shares"])) if "shares" in body else None
            other.accept(seat, msg_type, body, seq=seq, prev=self._prev, source=shares)
        self._prev = sha256(b"%d" % seq, self._prev)
        sent = Sent(seq, seat, msg_type, body)
        self.sent.append(sent)
        return sent

    def play(self, limit: int = 5000) -> FlowMatch:
        while self.flows[0].phase is not Phase.DONE:
            self.step()
            assert len(self.sent) < limit
        assert all(f.phase is Phase.DONE for f in self.flows)
        return self

    def kinds(self) -> list[tuple[int, str]]:
        return [(s.sender, s.type) for s in self.sent]


def deck_with(front: dict[int, int], seed: int = 0) -> list[int]:
    """A card order with the given cards at the given positions, the rest in a seeded order."""
    import random

    rest = [c for c in range(48) if c not in front.values()]
    random.Random(seed).shuffle(rest)
    return [front[p] if p in front else rest.pop(0) for p in range(48)]


def quiet_deck(front: dict[int, int] | None = None) -> list[int]:
    """``deck_with(front)`` for the first seed whose other hands hold no hand yaku (any preset)
    and whose field holds no whole month: a deal that goes on to its turns."""
    from koikoi_p2p.rules.cards import card
    from koikoi_p2p.rules.profile import preset
    from koikoi_p2p.rules.round import hand_yaku_of

    front = front or {}
    every = preset("nintendo").with_switches(hand_yaku={"teshi": 6, "kuttsuki": 6, "tenho": 6,
                                                        "double_tenho": 14})
    for seed in range(1000):
        order = deck_with(front, seed)
        for dealer in (0, 1):
            layout = _layout(dealer)
            hands_ok = all(hand_yaku_of([order[p] for p in hand], every) == {} or set(hand) & set(front)
                           for hand in layout.hands)
            months = [card(order[p]).month for p in layout.field]
            if not hands_ok or max(months.count(x) for x in months) == 4:
                break
        else:
            return order
    raise AssertionError("no quiet deck")  # pragma: no cover


def _layout(dealer: int) -> Any:
    from koikoi_p2p.rules.deal import deal_layout

    return deal_layout(dealer)

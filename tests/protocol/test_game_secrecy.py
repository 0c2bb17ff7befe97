"""G1: after the deal each peer can decrypt exactly the field and its own hand, nothing else."""

from __future__ import annotations

from koikoi_p2p.protocol.events import TermsProposed, YourTurn
from koikoi_p2p.rules.deal import deal_layout
from tests.protocol.game_support import make_pair


def test_after_the_deal_each_peer_knows_only_the_field_and_its_own_hand() -> None:
    pair = make_pair(rules="wikipedia", rounds=1, seed=13)  # no hand yaku: nothing else is revealed
    peers = pair.peers
    queue = [(1, f) for f in peers[0].start()]
    first_turn = None
    while first_turn is None or queue:
        assert queue, "the deal never reached a turn"
        to, frame = queue.pop(0)
        queue += [(1 - to, f) for f in peers[to].receive(frame)]
        for seat in (0, 1):
            for event in peers[seat].events():
                if isinstance(event, TermsProposed):
                    queue += [(1 - seat, f) for f in peers[seat].decide_terms(True)]
                if isinstance(event, YourTurn) and peers[seat].flow.deal == 1:
                    first_turn = seat
    dealer = peers[0].flow.round_params[1]
    layout = deal_layout(dealer)
    for seat in (0, 1):
        party = peers[seat].parties[1]
        known = {p for p in range(48) if party.known(p)}
        assert known == set(layout.field) | set(layout.hands[seat])
        # The next deal's deck is being prepared: nothing of it is known to anyone.
        ahead = peers[seat].parties.get(2)
        assert ahead is None or not ahead.shuffled or not any(ahead.known(p) for p in range(48))
        # The engine's view shows the same: the field and this seat's hand, cards of no one else.
        view = peers[seat].flow.engine.view()  # type: ignore[union-attr]
        assert set(view.hand_positions) == set(layout.hands[seat])
        assert view.opponent_hand_size == 8 and view.stock_count == 24


def test_a_prepared_deck_reveals_nothing_before_its_deal_starts() -> None:
    """The next deal's deck is made during the current one (spec/game.md §5.2): at every message of
    a match, no seat can decrypt any position of a deck whose deal has not started."""
    from typing import Any

    from koikoi_p2p.protocol.peer import GamePeer
    from tests.protocol.game_support import run

    checked = [0]
    original = GamePeer.receive

    def receive(self: GamePeer, frame: bytes) -> Any:
        out = original(self, frame)
        started = self.flow.deal
        for deal, party in self.parties.items():
            if deal > started and party.shuffled:
                assert not any(party.known(p) for p in range(48)), (self.seat, deal, started)
                checked[0] += 1
        return out

    GamePeer.receive = receive  # type: ignore[method-assign]
    try:
        pair = run(make_pair(rules="nintendo", rounds=2, seed=8))
    finally:
        GamePeer.receive = original  # type: ignore[method-assign]
    assert pair.errors == [None, None] and checked[0] > 20

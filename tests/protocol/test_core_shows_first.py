"""The opponent's move reaches the screen before this seat composes its answer (issue 26 item 5):
when ``OpponentMoved`` is delivered, the newest envelope of the transcript is still the
opponent's, whatever the answer it causes (shares of a drawn card, the next deal's setup)."""

from __future__ import annotations

from collections.abc import Callable

from koikoi_p2p.net.core import PeerCore
from koikoi_p2p.net.selfplay import play_cores
from koikoi_p2p.protocol.events import Event, OpponentMoved
from tests.faults.resume_util import setup


def test_the_opponents_move_is_shown_before_the_answer_is_composed() -> None:
    setups = (setup(0, rounds=1), setup(1))
    cores: list[PeerCore] = []
    newest: list[list[int]] = [[], []]      # sender of the transcript's newest envelope at each move

    def shown(seat: int) -> Callable[[Event], None]:
        def hear(event: Event) -> None:
            if isinstance(event, OpponentMoved):
                peer = cores[seat].peer
                assert peer is not None
                newest[seat].append(peer.transcript[-1].sender)
        return hear

    cores.extend(PeerCore(setups[seat], shown(seat)) for seat in (0, 1))
    play_cores((cores[0], cores[1]))
    for seat in (0, 1):
        assert newest[seat], "no move of the opponent was shown"
        assert set(newest[seat]) == {1 - seat}

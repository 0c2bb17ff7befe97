"""Crash safety: a peer saved after every accepted message and resumed from that state plays on."""

from __future__ import annotations

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.events import ChoiceNeeded, TermsProposed, YourTurn
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.peer import GamePeer
from tests.protocol.game_support import make_pair


def _restore(peer: GamePeer, seat: int) -> GamePeer:
    # Through the canonical codec: the state is plain data a file can hold.
    state = codec.decode(codec.encode(peer.to_state()))
    assert isinstance(state, dict)
    return GamePeer.from_state(state)


def test_resume_after_every_message_reaches_the_same_end() -> None:
    pair = make_pair(rules="koikoi-online", rounds=1, seed=21)
    peers = pair.peers
    queue = [(1, f) for f in peers[0].start()]
    restores = 0
    for _ in range(10_000):
        while queue:
            to, frame = queue.pop(0)
            out = peers[to].receive(frame)
            peers[to] = _restore(peers[to], to)
            restores += 1
            queue += [(1 - to, f) for f in out]
        acted = False
        for seat in (0, 1):
            queue += [(1 - seat, f) for f in peers[seat].idle()]
            peers[seat] = _restore(peers[seat], seat)
            for event in peers[seat].events():
                if isinstance(event, TermsProposed) and not acted:
                    queue += [(1 - seat, f) for f in peers[seat].decide_terms(True)]
                    peers[seat] = _restore(peers[seat], seat)
                    acted = True
                if isinstance(event, (YourTurn, ChoiceNeeded)) and not acted:
                    action = pair.players[seat].choose(event.view, event.options)
                    queue += [(1 - seat, f) for f in peers[seat].decide(action)]
                    peers[seat] = _restore(peers[seat], seat)
                    acted = True
        if not queue and not acted:
            break
    assert restores > 40
    assert peers[0].phase is Phase.DONE and peers[1].phase is Phase.DONE
    assert [e.raw for e in peers[0].transcript] == [e.raw for e in peers[1].transcript]
    assert peers[0].flow.cosigned is not None and peers[1].flow.cosigned is not None
    assert peers[0].flow.cosigned.encode() == peers[1].flow.cosigned.encode()


def test_a_damaged_state_is_a_local_error() -> None:
    import pytest

    from koikoi_p2p.protocol.errors import LocalMisuse

    pair = make_pair(rounds=1, seed=3)
    state = pair.peers[0].to_state()
    state["flow"] = {"format": "nonsense"}
    with pytest.raises(LocalMisuse):
        GamePeer.from_state(state)

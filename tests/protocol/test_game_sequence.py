"""The exact shape of the message sequence of a deal, as spec/game.md §4-5 describes it."""

from __future__ import annotations

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.rules.deal import deal_layout
from tests.protocol.game_support import make_pair, run


def _deals(envs: list[SignedEnvelope]) -> list[list[SignedEnvelope]]:
    deals: list[list[SignedEnvelope]] = []
    for i, env in enumerate(envs):
        if env.type == m.KEY and (i == 0 or envs[i - 1].type != m.KEY):
            deals.append([])
        if deals:
            deals[-1].append(env)
    return deals


def test_every_deal_follows_the_state_table() -> None:
    pair = run(make_pair(rules="nintendo", rounds=2, seed=17))
    assert pair.errors == [None, None]
    envs = pair.peers[0].transcript
    assert [(e.sender, e.type) for e in envs[:2]] == [(0, m.TERMS), (1, m.ACCEPT)]
    assert [e.seq for e in envs] == list(range(len(envs)))
    deals = _deals(envs)
    # deal 0 draws the first dealer: seat 0 keys and shuffles first, then public pairs (0, 1), ...
    draw = deals[0]
    assert [(e.sender, e.type) for e in draw[:4]] == [(0, m.KEY), (1, m.KEY), (0, m.SHUFFLE), (1, m.SHUFFLE)]
    assert draw[3].body["shares"][0][0] == [0, 1]
    for deal in deals[1:]:
        dealer = deal[0].sender
        other = 1 - dealer
        assert [(e.sender, e.type) for e in deal[:4]] == [
            (dealer, m.KEY), (other, m.KEY), (dealer, m.SHUFFLE), (other, m.SHUFFLE)]
        layout = deal_layout(dealer)
        # The second shuffler pays its field shares at once; the field is the first reveal.
        assert deal[3].body["shares"][0][0] == list(layout.field)
        for env in deal:
            if env.type == m.ACT and env.body["action"]["type"] == "play":
                # A play carries the player's own share of the played position first.
                assert env.body["shares"][0][0] == [env.body["action"]["position"]]
            if env.type == m.REVEAL:
                assert env.body["shares"], "a reveal always pays something"
        closing = [(e.sender, e.type) for e in deal[-3:]]
        if deal is not deals[-1]:
            closer = closing[0][0]
            assert closing == [(closer, m.DISCLOSE), (1 - closer, m.ROUND_RESULT), (closer, m.ROUND_SIGN)]
            assert deal[-4].sender != closer   # the closer did not send the message that ended the deal
    tail = [(e.sender, e.type) for e in envs[-5:]]
    assert [t for _, t in tail] == [m.DISCLOSE, m.ROUND_RESULT, m.ROUND_SIGN, m.MATCH_RESULT, m.MATCH_SIGN]
    assert tail[3][0] != tail[2][0] and tail[4][0] != tail[3][0]


def test_a_host_that_walks_away_after_seeing_the_draw_is_visible() -> None:
    """Seat 0 learns the first pair of deal 0 one message before seat 1 (spec/game.md §5.1). If it
    stops there, seat 1 is left waiting for seat 0's reveal: the abort is attributable."""
    from koikoi_p2p.protocol.events import FirstDealer

    pair = make_pair(rules="nintendo", rounds=1, seed=7)   # a seed whose first pair decides
    stopped = [False]

    def walk_away(to: int, frame: bytes) -> list[bytes]:
        if to == 1 and pair.peers[0].flow.deal >= 1:   # seat 0 knows the dealer
            stopped[0] = True
            return []          # seat 0 has seen the pair and sends nothing more
        return [frame]

    run(pair, deliver=walk_away)
    assert stopped[0] and pair.errors == [None, None]
    assert any(isinstance(e, FirstDealer) and len(e.draws) == 1 for e in pair.events[0])
    assert not any(isinstance(e, FirstDealer) for e in pair.events[1])
    assert pair.peers[1].waiting_for() is not None
    assert pair.peers[1].waiting_for()[:2] == (0, m.REVEAL)  # type: ignore[index]

"""The exact shape of the message sequence of a deal, as spec/game.md §4-5 describes it."""

from __future__ import annotations

from koikoi_p2p.protocol import messages as m
from koikoi_p2p.rules.deal import deal_layout
from tests.protocol.game_support import action_of, deal_of, make_pair, run, share_positions


def test_every_deal_follows_the_state_table() -> None:
    pair = run(make_pair(rules="nintendo", rounds=3, seed=17))
    assert pair.errors == [None, None]
    envs = pair.peers[0].transcript
    assert [e.seq for e in envs] == list(range(len(envs)))
    kinds = [(e.sender, e.type) for e in envs]
    # The start (spec/game.md §5.3): seat 0's terms and its keys of decks 0, 1 and 2; seat 1's
    # accept, its keys and the first shuffle of deck 0; seat 0 shuffles deck 0 second and deck 1
    # first; seat 1 shuffles deck 1 second.
    assert kinds[:12] == [(0, m.TERMS), (0, m.KEY), (0, m.KEY), (0, m.KEY), (1, m.ACCEPT), (1, m.KEY),
                          (1, m.SHUFFLE), (1, m.KEY), (1, m.KEY), (0, m.SHUFFLE), (0, m.SHUFFLE),
                          (1, m.SHUFFLE)]
    assert [e.body["deal"] for e in envs[1:12] if "deal" in e.body] == [0, 1, 2, 0, 0, 1, 2, 0, 1, 1]
    # Keys travel two deals ahead, shuffles one: deck d's keys are in before deal d - 1 starts.
    starts = {deal_of(e) + 1: e.seq for e in envs if e.type == m.DISCLOSE}
    for deal in {deal_of(e) for e in envs if e.type == m.KEY}:
        keys = [e.seq for e in envs if e.type == m.KEY and deal_of(e) == deal]
        if deal - 1 in starts:
            assert max(keys) < starts[deal - 1], deal
    # Every deck: both keys before its first shuffle; seat 1 shuffles deck 0 first, then parity.
    for deal in {deal_of(e) for e in envs if e.type == m.SHUFFLE}:
        prep = [e for e in envs if e.type in (m.KEY, m.SHUFFLE) and deal_of(e) == deal]
        assert [e.type for e in prep] in ([m.KEY, m.KEY, m.SHUFFLE, m.SHUFFLE], [m.KEY, m.KEY, m.SHUFFLE])
        assert prep[2].sender == (1 if deal % 2 == 0 else 0)
        if len(prep) == 4:
            assert prep[3].sender != prep[2].sender
    disclosures = [e for e in envs if e.type == m.DISCLOSE]
    deals = sorted({deal_of(e) for e in disclosures})
    assert deals == list(range(1, len(deals) + 1))
    for deal in deals:
        first, second = [e for e in disclosures if deal_of(e) == deal]
        # The seat whose message ended the deal discloses first (after what it owes); the other
        # answers in its next batch.
        assert envs[first.seq - 1].sender == first.sender
        assert second.sender != first.sender
        signs = [e for e in envs if e.type == m.ROUND_SIGN and deal_of(e) == deal]
        assert sorted(e.sender for e in signs) == [0, 1] and all(e.seq > second.seq for e in signs)
        if deal != deals[-1]:
            # Both disclosures carry their sender's opening shares of the next deal: the field,
            # then the other seat's hand (spec/game.md §5.4), unless that deck was not ready.
            for env in (first, second):
                groups = share_positions(env)
                if groups:
                    assert len(groups) == 2 and len(groups[0]) == 8 and len(groups[1]) == 8
                    assert set(groups[0]) == {2, 3, 8, 9, 14, 15, 20, 21}
    for env in envs:
        if env.type == m.ACT and action_of(env)["type"] == "play":
            # A play carries the player's own share of the played position first.
            assert share_positions(env)[0] == [action_of(env)["position"]]
        if env.type == m.REVEAL:
            assert env.body["shares"], "a reveal always pays something"
        if env.type == m.DECLARE:
            assert action_of(env)["type"] in ("no_hand_yaku", "claim_hand_yaku")
    tail = [(e.sender, e.type) for e in envs[-4:]]
    assert [t for _, t in tail] == [m.ROUND_SIGN, m.MATCH_RESULT, m.ROUND_SIGN, m.MATCH_SIGN]
    assert tail[0][0] == tail[1][0] != tail[2][0] == tail[3][0]


def test_the_opening_shares_follow_the_dealer_of_the_next_deal() -> None:
    """The opening of each deal: one group of the 8 field positions, then one of the other seat's
    8 hand positions, from each seat, as deal_layout gives them for that deal's dealer."""
    pair = run(make_pair(rules="wikipedia", rounds=3, seed=5))
    assert pair.errors == [None, None]
    envs = pair.peers[0].transcript
    from koikoi_p2p.protocol.events import RoundStarted

    dealers = {e.deal: e.dealer for e in pair.events[0] if isinstance(e, RoundStarted)}
    for env in envs:
        if env.type == m.DISCLOSE and env.body["shares"]:
            layout = deal_layout(dealers[deal_of(env) + 1])
            assert share_positions(env) == [list(layout.field),
                                                          list(layout.hands[1 - env.sender])]


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

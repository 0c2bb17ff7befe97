"""The listing `koikoi host --public` publishes and how `koikoi lobby` reads one (spec/relay.md §4.2)."""

from __future__ import annotations

from koikoi_p2p.cli.room_listing import host_listing, room_entry
from koikoi_p2p.rules.profile import preset, with_rounds


def test_the_host_publishes_its_rules_length_and_key_never_the_password() -> None:
    board = with_rounds(preset("board-game"), 6)   # the pool follows the length: still the preset
    listing = host_listing(board, name="Hanako", fingerprint="abcd-ef23-ghij-klmn", rated=True,
                           password=True, turn=299.6)
    assert listing == {"name": "Hanako", "fp": "abcd-ef23", "rules": "board-game", "custom": False,
                       "rounds": 6, "target": 0, "rated": True, "password": True, "turn": 300}
    changed = preset("nintendo").with_switches(double_threshold=0)
    assert host_listing(changed, name="", fingerprint="abcd-ef23-ghij-klmn", rated=False, password=False,
                        turn=60)["custom"] is True
    # A name the listing rules refuse (an old configuration) is left out, the rest published.
    bad = host_listing(preset("nintendo"), name="Eve\u202e", fingerprint="abcd-ef23-ghij-klmn", rated=False,
                       password=False, turn=60)
    assert "name" not in bad and bad["rules"] == "nintendo"


def test_the_lobby_reads_a_valid_listing_else_the_old_meta_checked_the_same_way() -> None:
    good = {"name": "Hanako", "fp": "abcd-ef23", "rules": "wikipedia", "rounds": 12}
    assert room_entry({"code": "ABC234", "listing": good, "meta": {"rules": "x"}}) == good
    # A relay that lies with a bad listing: not shown; the meta's valid fields are.
    lying = {"code": "ABC234", "listing": {"name": "Eve\n"}, "meta": {"rules": "nintendo", "rounds": 12,
                                                                      "password": "yes", "extra": 1}}
    assert room_entry(lying) == {"rules": "nintendo", "rounds": 12}
    assert room_entry({"code": "ABC234", "meta": {"rules": "Evil\u202e"}}) == {}
    assert room_entry({"code": "ABC234"}) == {}

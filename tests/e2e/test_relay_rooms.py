"""Rooms end to end against an in-process relay: create, join, lobby, forward, leave, reject."""

from __future__ import annotations

from koikoi_relay.codes import ALPHABET, CODE_LENGTH
from koikoi_relay.errors import CloseCode
from tests.e2e.test_relay_support import Raw, pair, relay, run


def test_create_join_and_forward_in_order() -> None:
    async def body() -> None:
        async with relay() as server:
            host = await Raw.connect(server)
            await host.send("create", public=False, meta={"rules": "nintendo"})
            created = await host.expect("created")
            assert len(created["code"]) == CODE_LENGTH and set(created["code"]) <= set(ALPHABET)
            assert len(created["token"]) == 24 and created["seat"] == 0
            guest = await Raw.connect(server)
            await guest.send("join", code=created["code"].lower())
            joined = await guest.expect("joined")
            assert joined["seat"] == 1 and joined["peer"] == "present"
            assert joined["meta"] == {"rules": "nintendo"}
            assert joined["token"] != created["token"]
            await host.expect("peer_joined")
            for i in range(50):
                await host.send("frame", seq=i, data=bytes([i]) * 200)
            for i in range(50):
                frame = await guest.expect("frame")
                assert frame["seq"] == i and frame["data"] == bytes([i]) * 200
            assert (await host.expect("ack"))["seq"] == 32  # standalone ack after 32 frames
            await guest.send("frame", seq=0, data=b"back")
            got = await host.expect("frame")
            assert got["data"] == b"back" and got["seq"] == 0
            assert got["ack"] == 50  # piggybacked ack of every host frame
            await host.close()
            await guest.close()

    run(body)


def test_lobby_lists_only_open_public_rooms() -> None:
    async def body() -> None:
        async with relay() as server:
            public = await Raw.connect(server)
            await public.send("create", public=True, meta={"rules": "koikoi-online", "password": True})
            code = (await public.expect("created"))["code"]
            private = await Raw.connect(server)
            await private.send("create", public=False)
            await private.expect("created")
            looker = await Raw.connect(server)
            await looker.send("lobby")
            rooms = (await looker.expect("rooms"))["rooms"]
            assert [r["code"] for r in rooms] == [code]
            assert rooms[0]["meta"] == {"rules": "koikoi-online", "password": True}
            await looker.send("join", code=code)
            await looker.expect("joined")
            other = await Raw.connect(server)
            await other.send("lobby")
            assert (await other.expect("rooms"))["rooms"] == []

    run(body)


def test_the_lobby_shows_a_checked_listing_and_nothing_else() -> None:
    """spec/relay.md §4.2: the listing a host publishes is checked like a display name, stored
    without unknown keys and shown in the lobby; a bad one is refused and opens no room."""
    listing = {"name": "Hanako 花子", "fp": "abcd-ef23", "rules": "koikoi-online", "custom": False,
               "rounds": 6, "rated": True, "password": False, "turn": 300}

    async def body() -> None:
        async with relay() as server:
            host = await Raw.connect(server)
            await host.send("create", public=True, meta={"rules": "koikoi-online"},
                            listing={**listing, "email": "not kept"})
            code = (await host.expect("created"))["code"]
            old = await Raw.connect(server)    # an older host: meta only
            await old.send("create", public=True, meta={"rules": "nintendo", "rounds": 12})
            old_code = (await old.expect("created"))["code"]
            bad = await Raw.connect(server)
            for wrong in ({"name": "Eve\u202e"}, {"name": "Eve\n"}, {"name": " Eve"}, {"name": "x" * 33},
                          {"name": "Cafe\u0301"}, {"fp": "ABCD-EF23"}, {"fp": "abcd-ef23-ghij"},
                          {"rules": "Nintendo"}, {"rounds": -1}, {"rounds": True}, {"turn": 86401},
                          {"rated": 1}, [1]):
                await bad.send("create", public=True, listing=wrong)
                assert (await bad.expect("error"))["reason"] == "bad_listing", wrong
            looker = await Raw.connect(server)
            await looker.send("lobby")
            rooms = {r["code"]: r for r in (await looker.expect("rooms"))["rooms"]}
            assert set(rooms) == {code, old_code}
            assert rooms[code]["listing"] == listing
            assert rooms[code]["meta"] == {"rules": "koikoi-online"}
            assert rooms[old_code].get("listing") is None
            assert rooms[old_code]["meta"] == {"rules": "nintendo", "rounds": 12}

    run(body)


def test_a_rejoin_room_is_listed_only_by_its_exact_tag() -> None:
    """spec/relay.md §5: two seats pairing again must not show to every lobby reader (issue 11
    hole 5); the joiner asks for its tag and finds the room."""
    async def body() -> None:
        async with relay() as server:
            open_room = await Raw.connect(server)
            await open_room.send("create", public=True, meta={"rules": "nintendo"})
            plain = (await open_room.expect("created"))["code"]
            host = await Raw.connect(server)
            await host.send("create", public=True, meta={"rejoin": "a" * 32})
            code = (await host.expect("created"))["code"]
            looker = await Raw.connect(server)
            await looker.send("lobby")
            assert [r["code"] for r in (await looker.expect("rooms"))["rooms"]] == [plain]
            await looker.send("lobby", rejoin="b" * 32)
            assert (await looker.expect("rooms"))["rooms"] == []
            await looker.send("lobby", rejoin="a" * 32)
            rooms = (await looker.expect("rooms"))["rooms"]
            assert [r["code"] for r in rooms] == [code] and rooms[0]["meta"] == {"rejoin": "a" * 32}

    run(body)


def test_third_client_and_unknown_code_are_refused() -> None:
    async def body() -> None:
        async with relay() as server:
            _host, _guest, code = await pair(server)
            third = await Raw.connect(server)
            await third.send("join", code=code)
            assert (await third.expect("error"))["reason"] == "room_full"
            unknown = "22222" + ("3" if code != "222223" else "4")
            await third.send("join", code=unknown)
            assert (await third.expect("error"))["reason"] == "room_not_found"
            await third.send("join", code="O0I1L!")
            assert (await third.expect("error"))["reason"] == "room_not_found"

    run(body)


def test_leave_tells_the_peer_and_closes_the_room() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest, code = await pair(server)
            await guest.send("leave")
            await guest.expect("left")
            await guest.send("lobby")  # the connection outlives the room
            await guest.expect("rooms")
            left = await host.expect("peer_left")
            assert left["reason"] == "left"
            assert await host.closed() == CloseCode.ROOM_CLOSED
            late = await Raw.connect(server)
            await late.send("join", code=code)
            assert (await late.expect("error"))["reason"] == "room_not_found"

    run(body)


def test_host_rejects_joiner_and_room_reopens() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest, code = await pair(server, public=True)
            await host.send("frame", seq=0, data=b"hello")
            await guest.expect("frame")
            await guest.send("reject_peer")
            assert (await guest.expect("error"))["reason"] == "not_host"
            await host.send("reject_peer")
            await host.expect("reopened")
            await guest.expect("rejected")
            assert await guest.closed() == CloseCode.REJECTED
            await host.send("frame", seq=0, data=b"nobody")
            assert (await host.expect("error"))["reason"] == "no_peer"
            looker = await Raw.connect(server)
            await looker.send("lobby")
            assert [r["code"] for r in (await looker.expect("rooms"))["rooms"]] == [code]
            await looker.send("join", code=code)
            await looker.expect("joined")
            await host.expect("peer_joined")
            # the stream restarted from seq 0 in both directions
            await host.send("frame", seq=0, data=b"again")
            assert (await looker.expect("frame"))["seq"] == 0

    run(body)


def test_peer_departure_and_return_are_notified() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest, code = await pair(server)
            token = guest.token
            await guest.close()
            await host.expect("peer_away")
            back = await Raw.connect(server)
            await back.send("resume", token=token, received=0)
            resumed = await back.expect("resumed")
            assert resumed["seat"] == 1 and resumed["code"] == code and resumed["peer"] == "present"
            await host.expect("peer_back")

    run(body)

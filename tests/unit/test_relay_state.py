"""The resume buffer and the token bucket, without sockets."""

from __future__ import annotations

import pytest

from koikoi_relay.limits import Limits
from koikoi_relay.ratelimit import TokenBucket
from koikoi_relay.state import Registry, Room, Seat


def test_outbox_is_bounded_by_frames_and_bytes() -> None:
    seat = Seat(1, b"t" * 24)
    limits = Limits(buffer_frames=3, buffer_bytes=1000)
    for i in range(5):
        assert seat.push(b"%d" % i, limits) == i
    assert [seq for seq, _ in seat.outbox] == [2, 3, 4]
    assert seat.first_buffered() == 2 and seat.out_count == 5
    seat.acknowledge(4)
    assert [seq for seq, _ in seat.outbox] == [4]
    seat.acknowledge(2)  # an old ack changes nothing
    assert seat.first_buffered() == 4
    big = Limits(buffer_frames=100, buffer_bytes=10)
    seat.push(b"x" * 8, big)
    seat.push(b"y" * 8, big)
    assert [seq for seq, _ in seat.outbox] == [6] and seat.outbox_bytes == 8
    seat.acknowledge(7)
    assert seat.first_buffered() == 7 == seat.out_count and seat.outbox_bytes == 0


def test_reset_stream_restarts_both_directions() -> None:
    seat = Seat(0, b"t" * 24)
    seat.push(b"a", Limits())
    seat.in_count = 5
    seat.reset_stream()
    assert (seat.in_count, seat.out_count, seat.first_buffered(), seat.outbox_bytes) == (0, 0, 0, 0)


def test_tokens_are_found_only_with_the_whole_secret() -> None:
    registry = Registry()
    room = Room("ABCDEF", 1, False, {}, 0.0)
    seat = Seat(0, bytes(range(24)))
    registry.rooms[room.code] = room
    registry.add_seat(room, seat)
    same = lambda a, b: a == b  # noqa: E731
    assert registry.find_token(bytes(range(24)), same) == (room, seat)
    forged = bytes(range(8)) + bytes(16)
    assert registry.find_token(forged, same) is None
    registry.remove_room(room)
    assert registry.find_token(bytes(range(24)), same) is None


def test_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(10, 1.0, lambda: now[0])
    assert all(bucket.take() for _ in range(10))
    assert not bucket.take()
    now[0] += 0.5
    assert sum(bucket.take() for _ in range(10)) == 5
    assert not bucket.take(100)
    unlimited = TokenBucket(0, 1.0, lambda: now[0])
    assert all(unlimited.take(1e9) for _ in range(3))


def test_negative_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        Limits(max_frame_bytes=-1)

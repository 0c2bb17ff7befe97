"""Fuzzing the game peer: random frames, mutated frames and well-sealed envelopes with mutated game
bodies only ever produce the peer's typed remote error (or, rarely, are valid and accepted)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.channel import SecureChannel
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.flow import Phase
from koikoi_p2p.protocol.peer import GamePeer
from tests.protocol.game_support import make_pair, run


@functools.lru_cache(maxsize=1)
def _snapshots() -> list[tuple[dict[str, Any], dict[str, Any], str, dict[str, Any], bytes]]:
    """(peer 0 state, peer 1 channel state, next type, next body, next frame) before a spread of
    messages that seat 1 sent to seat 0 in an honest match."""
    pair = make_pair(rules="nintendo", rounds=1, seed=31)
    snaps: list[tuple[dict[str, Any], dict[str, Any], str, dict[str, Any], bytes]] = []
    p0, p1 = pair.peers
    original_receive = p0.receive
    original_seal = p1.channel.seal
    pending: dict[str, Any] = {}

    def seal(type: str, body: Mapping[str, object]) -> tuple[bytes, SignedEnvelope]:  # (seal's own names)
        pending["before"] = p1.channel.to_state()
        pending["type"], pending["body"] = type, codec.decode(codec.encode(body))
        return original_seal(type, body)

    def receive(frame: bytes) -> list[bytes]:
        if "type" in pending and len(snaps) < 400:
            snaps.append((p0.to_state(), pending["before"], pending["type"], pending["body"], frame))
        return original_receive(frame)

    p1.channel.seal = seal  # type: ignore[method-assign]
    p0.receive = receive  # type: ignore[method-assign]
    run(pair)
    assert pair.errors == [None, None]
    return snaps


def _only_typed_errors(peer: GamePeer, frame: bytes) -> None:
    try:
        peer.receive(frame)
    except RemoteViolation:
        assert peer.phase is Phase.FAILED
        try:
            peer.receive(frame)
        except LocalMisuse as exc:  # terminal: every later call raises
            assert exc.reason == "terminated"
        else:
            raise AssertionError("a failed peer accepted another frame")


value = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.binary(max_size=80)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(index=st.integers(0, 10_000), frame=st.binary(max_size=300))
def test_random_frames(index: int, frame: bytes) -> None:
    snaps = _snapshots()
    state = snaps[index % len(snaps)][0]
    _only_typed_errors(GamePeer.from_state(state), frame)


@given(index=st.integers(0, 10_000), data=st.data())
def test_mutated_frames(index: int, data: st.DataObject) -> None:
    snaps = _snapshots()
    state, _, _, _, frame = snaps[index % len(snaps)]
    mutated = bytearray(frame)
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(mutated) - 1))
        mutated[where] = data.draw(st.integers(0, 255))
    if bytes(mutated) == frame:
        return
    _only_typed_errors(GamePeer.from_state(state), bytes(mutated))


@given(index=st.integers(0, 10_000), data=st.data())
def test_sealed_envelopes_with_mutated_bodies(index: int, data: st.DataObject) -> None:
    """The channel accepts these (validly signed by the peer): the game machine must judge them."""
    snaps = _snapshots()
    state, channel_state, msg_type, body, _ = snaps[index % len(snaps)]
    body = dict(body)
    choice = data.draw(st.integers(0, 3))
    if choice == 0 and body:
        key = data.draw(st.sampled_from(sorted(body)))
        body[key] = data.draw(value)
    elif choice == 1 and body:
        del body[data.draw(st.sampled_from(sorted(body)))]
    elif choice == 2:
        body[data.draw(st.text(max_size=6))] = data.draw(value)
    else:
        msg_type = data.draw(st.sampled_from(["terms", "accept", "key", "shuffle", "reveal", "act",
                                              "disclose", "round_result", "round_sign", "match_result",
                                              "match_sign", "nonsense"]))
    channel = SecureChannel.from_state(channel_state)
    try:
        frame, _ = channel.seal(msg_type, body)
    except LocalMisuse:
        return  # not encodable: nothing to send
    peer = GamePeer.from_state(state)
    _only_typed_errors(peer, frame)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every leaf of a body (inside share groups, actions, results, terms...)."""
    if isinstance(value, dict):
        return [p for k in sorted(value) for p in _leaves(value[k], (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _leaves(item, (*path, i))] or [path]
    return [path]


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    out = list(value)
    out[head] = _replace(out[head], rest, new)
    return out


def _nearby(data: st.DataObject, old: Any) -> Any:
    """A value close to ``old`` (an off-by-one position, a flipped byte, another type...)."""
    if isinstance(old, bool) or old is None:
        return data.draw(value)
    if isinstance(old, int):
        return data.draw(st.sampled_from([old + 1, old - 1, old + 48, -1, 47, 48, 2**32, True]))
    if isinstance(old, bytes) and old:
        i = data.draw(st.integers(0, len(old) - 1))
        return data.draw(st.sampled_from([old[:i] + bytes([old[i] ^ 1]) + old[i + 1:], old[:i], old + b"\x00",
                                          old[:i] + old[i + 1:] + old[i:i + 1]]))
    if isinstance(old, str):
        return data.draw(st.sampled_from([old + "x", old[:-1], old.upper(), ""]))
    return data.draw(value)


@given(index=st.integers(0, 10_000), data=st.data())
def test_sealed_envelopes_with_mutated_leaves(index: int, data: st.DataObject) -> None:
    """Deep, small changes (a share group's positions, an action's card, a result's points, one
    bit of a proof) in envelopes the peer validly signed: only the typed remote error."""
    snaps = _snapshots()
    state, channel_state, msg_type, body, _ = snaps[index % len(snaps)]
    paths = _leaves(body)
    path = data.draw(st.sampled_from(paths))
    old: Any = body
    for step in path:
        old = old[step]
    mutated = _replace(body, path, _nearby(data, old))
    if mutated == body:
        return
    channel = SecureChannel.from_state(channel_state)
    try:
        frame, _ = channel.seal(msg_type, mutated)
    except LocalMisuse:
        return
    peer = GamePeer.from_state(state)
    _only_typed_errors(peer, frame)

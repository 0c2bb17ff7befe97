"""Helpers for the game-protocol tests: two GamePeers over a real SecureChannel, driven in step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from koikoi_p2p.ai.strategy import RandomPlayer
from koikoi_p2p.net.selfplay import seeded_rng
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.errors import ProtocolError
from koikoi_p2p.protocol.events import ChoiceNeeded, Event, TermsProposed, YourTurn
from koikoi_p2p.protocol.messages import parse_shares
from koikoi_p2p.protocol.peer import GamePeer
from koikoi_p2p.protocol.terms import MatchTerms
from koikoi_p2p.protocol.transcript import encode_evidence, encode_transcript
from koikoi_p2p.rules.profile import Profile, preset
from tests.protocol.session_util import handshake_pair, run_pair

ROOM = "K7PQ2X"


@dataclass
class Pair:
    peers: list[GamePeer]
    records: list[dict[str, object]]
    players: list[RandomPlayer]
    events: list[list[Event]] = field(default_factory=lambda: [[], []])
    errors: list[ProtocolError | None] = field(default_factory=lambda: [None, None])
    frames: list[tuple[int, bytes]] = field(default_factory=list)   # (receiver, frame) delivered


def make_pair(*, rules: str = "nintendo", rounds: int | None = 1, seed: int = 1,
              peer1_factory: Callable[..., GamePeer] = GamePeer, names: tuple[str, str] | None = None,
              joiner_names: tuple[str, str] | None = None, profile: Profile | None = None,
              **peer1_kw: Any) -> Pair:
    """Two peers after a real handshake; ``names`` are the display names the host proposes in
    the terms; the handshake binds ``joiner_names`` when given (a host that lies about the names:
    its terms then differ from the handshake), else ``names``. ``profile`` replaces ``rules``."""
    tag = str(seed).encode()
    bound = joiner_names or names or ("", "")
    ra, rb, _ = run_pair(*handshake_pair(seed=b"hs" + tag, room=ROOM, names=bound))
    c0, c1 = ra.channel, rb.channel
    keys = (c0.identity.public_key, c1.identity.public_key)

    def terms_with(chosen: tuple[str, str]) -> MatchTerms:
        return MatchTerms.propose(profile=profile or preset(rules), keys=keys, room=ROOM, rounds=rounds,
                                  names=chosen)

    p0 = GamePeer(channel=c0, room=ROOM, proposal=terms_with(bound), rng=seeded_rng(b"p0" + tag),
                  handshake_record=ra.record)
    if joiner_names is not None:
        # The lie, past the host's own checks: it proposes names the handshake did not bind.
        p0.proposal = terms_with(names or ("", ""))
        p0.names = p0.flow.names = names
    p1 = peer1_factory(channel=c1, room=ROOM, rng=seeded_rng(b"p1" + tag), handshake_record=rb.record,
                       **peer1_kw)
    return Pair([p0, p1], [ra.record, rb.record], [RandomPlayer(2 * seed), RandomPlayer(2 * seed + 1)])


Deliver = Callable[[int, bytes], list[bytes]]


def run(pair: Pair, *, deliver: Deliver | None = None, max_frames: int = 100_000, idle: bool = True) -> Pair:
    """Deliver frames in order and answer decisions until both stop; errors are recorded, not raised.

    ``deliver(receiver, frame)`` is a man in the middle: it returns the frames actually delivered.
    The joiner accepts the terms; with ``idle`` each peer's idle work runs whenever the queue is
    empty (as a driver would while its person thinks), else only decisions send what is owed.
    """
    queue: list[tuple[int, bytes]] = []

    def send(sender: int, frames: list[bytes]) -> None:
        for frame in frames:
            out = [frame] if deliver is None else deliver(1 - sender, frame)
            queue.extend((1 - sender, f) for f in out)

    def guarded(seat: int, fn: Callable[..., list[bytes]]) -> None:
        if pair.errors[seat] is not None:
            return
        try:
            send(seat, fn())
        except ProtocolError as exc:
            pair.errors[seat] = exc

    guarded(0, pair.peers[0].start)
    count = 0
    while True:
        while queue and count < max_frames:
            to, frame = queue.pop(0)
            count += 1
            pair.frames.append((to, frame))
            guarded(to, lambda to=to, frame=frame: pair.peers[to].receive(frame))
        progressed = False
        for seat in (0, 1):
            if idle and pair.errors[seat] is None:
                before = len(queue)
                guarded(seat, pair.peers[seat].idle)
                progressed = progressed or len(queue) > before
            for event in pair.peers[seat].events():
                pair.events[seat].append(event)
                if isinstance(event, TermsProposed) and pair.errors[seat] is None:
                    guarded(seat, lambda seat=seat: pair.peers[seat].decide_terms(True))
                    progressed = True
                if isinstance(event, (YourTurn, ChoiceNeeded)) and pair.errors[seat] is None:
                    action = pair.players[seat].choose(event.view, event.options)
                    guarded(seat, lambda seat=seat, action=action: pair.peers[seat].decide(action))
                    progressed = True
        if (not queue and not progressed) or count >= max_frames:
            return pair


def transcript_bytes(pair: Pair, seat: int = 0) -> bytes:
    return encode_transcript(pair.records[seat], pair.peers[seat].transcript)


def evidence_bytes(pair: Pair, seat: int = 0) -> bytes:
    peer = pair.peers[seat]
    error = peer.error
    assert error is not None
    return encode_evidence(pair.records[seat], peer.transcript, reporter=seat, reason=error.reason,
                           message=error.message, offence=peer.offence())


# -- typed reads of a game message's body (spec/game.md §4) -------------------------------------

def deal_of(env: SignedEnvelope) -> int:
    """The ``deal`` field of ``env``'s body."""
    deal = env.body["deal"]
    assert isinstance(deal, int), deal
    return deal


def action_of(env: SignedEnvelope) -> dict[str, object]:
    """The ``action`` field of ``env``'s body (an ``act`` or a ``declare``)."""
    action = env.body["action"]
    assert isinstance(action, dict), action
    return action


def share_positions(env: SignedEnvelope) -> list[list[int]]:
    """The deck positions of each group of the ``shares`` field of ``env``'s body, in order."""
    return [list(group.positions) for group in parse_shares(env.type, env.body["shares"])]

"""Two computer peers play one match through the full protocol (``koikoi selfplay``, ``bench match``).

Both seats run in this process, over the in-memory pair or through a relay, with every proof,
signature and rule checked by each side as in a match between two machines. A seed makes the
whole match reproducible (identities, deck randomness and the players' choices): only for tests
and benchmarks, since seeded deck randomness is known to whoever knows the seed.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from koikoi_p2p.ai.levels import computer_player
from koikoi_p2p.ai.strategy import Strategy
from koikoi_p2p.net.core import PeerCore
from koikoi_p2p.net.match import MatchOutcome, play_match
from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.protocol.events import Event, RoundOver
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transport import Transport
from koikoi_p2p.rules.profile import preset

Rng = Callable[[int], bytes]


def seeded_rng(seed: bytes) -> Rng:
    """A deterministic byte stream for reproducible test matches only: the ChaCha20 keystream
    under the key SHA-256(seed) and a zero nonce (`cryptography`)."""
    h = hashes.Hash(hashes.SHA256())
    h.update(b"koikoi-p2p seeded rng " + seed)
    stream = Cipher(algorithms.ChaCha20(h.finalize(), b"\x00" * 16), mode=None).encryptor()

    def rng(n: int) -> bytes:
        return stream.update(b"\x00" * n)

    return rng


def seeded_identity(seed: bytes) -> Identity:
    h = hashes.Hash(hashes.SHA256())
    h.update(b"koikoi-p2p selfplay identity " + seed)
    return Identity.from_private_bytes(h.finalize())


@dataclass(slots=True)
class SelfplayResult:
    outcomes: tuple[MatchOutcome, MatchOutcome]
    transcripts: tuple[bytes, bytes]
    rounds: list[RoundOver] = field(default_factory=list)
    frames: int = 0
    bytes_on_wire: int = 0


async def selfplay(*, rounds: int | None, seed: int | None, rules: str = "nintendo", relay: str | None = None,
                   players: tuple[Strategy, Strategy] | None = None, room: str = "SELFPL",
                   levels: tuple[str, str] = ("easy", "easy"),
                   on_event: Callable[[int, Event], None] | None = None,
                   join_relay: str | None = None) -> SelfplayResult:
    """Play a whole match between two computer peers and return both sides' outcomes and transcripts.

    The players are ``players`` if given, else computer players of ``levels`` (seat 0's, seat 1's;
    koikoi_p2p.ai.levels), seeded from ``seed``. ``join_relay``: the joiner's relay address when it
    differs from the host's (another node of a relay cluster); by default both use ``relay``.
    """
    profile = preset(rules)
    if seed is None:
        ids = (Identity.generate(), Identity.generate())
        rngs: tuple[Rng | None, Rng | None] = (None, None)
    else:
        tag = str(seed).encode()
        ids = (seeded_identity(tag + b"/0"), seeded_identity(tag + b"/1"))
        rngs = (seeded_rng(b"deck/0/" + tag), seeded_rng(b"deck/1/" + tag))
    if players is None:
        base = 0 if seed is None else seed
        players = (computer_player(levels[0], profile, None if seed is None else 2 * base),
                   computer_player(levels[1], profile, None if seed is None else 2 * base + 1))
    result_rounds: list[RoundOver] = []

    def listener(seat: int) -> Callable[[Event], None]:
        def hear(event: Event) -> None:
            if seat == 0 and isinstance(event, RoundOver):
                result_rounds.append(event)
            if on_event is not None:
                on_event(seat, event)
        return hear

    with tempfile.TemporaryDirectory(prefix="koikoi-selfplay-") as store:
        transports: tuple[Transport, Transport]
        closers: list[Transport] = []
        if relay is None:
            a, b = memory_pair()
            transports = (a, b)
        else:
            from koikoi_p2p.net.relay_client import RelayClient

            host = await RelayClient.create(relay)
            guest = await RelayClient.join(join_relay or relay, host.code)
            await host.wait_for_peer(timeout=30)
            transports = (host, guest)
            closers = [host, guest]
            room = host.code
        try:
            out0, out1 = await asyncio.gather(*(
                play_match(transports[seat], players[seat], seat=seat, identity=ids[seat], room=room,
                           profile=profile if seat == 0 else None, rounds=rounds if seat == 0 else None,
                           store=os.path.join(store, str(seat)), rng=rngs[seat], on_event=listener(seat))
                for seat in (0, 1)))
        finally:
            for transport in closers:
                await transport.close()
        texts = tuple(Path(o.transcript_path).read_bytes() if o.transcript_path else b""
                      for o in (out0, out1))
    sent = out0.bytes_sent + out1.bytes_sent
    return SelfplayResult(outcomes=(out0, out1), transcripts=(texts[0], texts[1]), rounds=result_rounds,
                          bytes_on_wire=sent)


def play_cores(cores: tuple[PeerCore, PeerCore], choose: Callable[[int, int], Strategy] | None = None,
               on_input: Callable[[int, str, object, list[bytes]], None] | None = None) -> int:
    """Play two crash-safe cores against each other in memory, synchronously, with no I/O at all
    (the floor of ``bench latency`` and the replay tests); returns the number of envelopes.

    ``choose(seat, n)`` is the player of a seat's n-th decision (by default the driver's seeded
    computer player); ``on_input(seat, kind, input, frames)`` sees each accepted input as the
    driver would commit it."""
    from koikoi_p2p.net.core import DECIDED, IDLE, RECEIVED, TERMS

    def player(seat: int, n: int) -> Strategy:
        if choose is not None:
            return choose(seat, n)
        return cores[seat].computer(n)

    inbox: list[list[bytes]] = [list(cores[1].outbox), list(cores[0].outbox)]
    while not (cores[0].done and cores[1].done):
        progressed = False
        for seat in (0, 1):
            core = cores[seat]
            if core.failure is not None or core.failed:
                raise RuntimeError(f"seat {seat} failed: {core.failure}")
            if core.terms_pending is not None:
                out = core.decide_terms(core.setup.accept_terms)
                if on_input is not None:
                    on_input(seat, TERMS, core.setup.accept_terms, out)
                inbox[1 - seat].extend(out)
                progressed = True
            idle = core.idle()          # as the driver does before it waits (spec/game.md §7.3)
            if idle:
                if on_input is not None:
                    on_input(seat, IDLE, None, idle)
                inbox[1 - seat].extend(idle)
                progressed = True
            if core.pending is not None:
                event = core.pending
                action = player(seat, core.decisions).choose(event.view, event.options)
                out = core.decide(action)
                if on_input is not None:
                    on_input(seat, DECIDED, action.to_dict(), out)
                inbox[1 - seat].extend(out)
                progressed = True
            while inbox[seat]:
                frame = inbox[seat].pop(0)
                answer = core.receive(frame)
                if answer is None:
                    continue
                if on_input is not None:
                    on_input(seat, RECEIVED, frame, answer)
                inbox[1 - seat].extend(answer)
                progressed = True
        if not progressed:
            raise RuntimeError("the cores stalled")
    assert cores[0].peer is not None
    return len(cores[0].peer.transcript)

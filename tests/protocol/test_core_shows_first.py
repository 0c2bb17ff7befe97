"""The opponent's move reaches the screen before this seat composes its answer (issue 26 item 5),
and before the work its envelope brings (checking the shares of a drawn card, running the deal
on): when ``OpponentMoved`` is delivered, this seat has sent nothing since the frame arrived, and
the checks of the envelope are still to come."""

from __future__ import annotations

from collections.abc import Callable

from koikoi_p2p.net.core import PeerCore
from koikoi_p2p.net.selfplay import play_cores
from koikoi_p2p.protocol.events import Event, OpponentMoved
from tests.faults.resume_util import setup


def test_the_opponents_move_is_shown_before_the_answer_is_composed() -> None:
    setups = (setup(0, rounds=1), setup(1))
    cores: list[PeerCore] = []
    receiving: list[tuple[int, int] | None] = [None, None]   # (sent, transcript) when a frame came
    shown: list[list[tuple[bool, bool]]] = [[], []]

    class Watched(PeerCore):
        def receive(self, frame: bytes) -> list[bytes] | None:
            seat = self.setup.seat
            receiving[seat] = (self.sent_count, len(self.peer.transcript) if self.peer else 0)
            try:
                return super().receive(frame)
            finally:
                receiving[seat] = None

    def hear(seat: int) -> Callable[[Event], None]:
        def on_event(event: Event) -> None:
            if isinstance(event, OpponentMoved):
                core, at = cores[seat], receiving[seat]
                assert at is not None, "a move shown outside the receipt of a frame"
                assert core.peer is not None
                # Nothing composed yet; the envelope itself not yet added to the transcript.
                shown[seat].append((core.sent_count == at[0], len(core.peer.transcript) == at[1]))
        return on_event

    cores.extend(Watched(setups[seat], hear(seat)) for seat in (0, 1))
    play_cores((cores[0], cores[1]))
    for seat in (0, 1):
        assert shown[seat], "no move of the opponent was shown"
        assert set(shown[seat]) == {(True, True)}
        # The match went on: every move shown was then accepted and answered.
        assert cores[seat].done


def test_a_sink_that_fails_on_the_move_is_the_callers_error_not_the_matchs() -> None:
    """An ``on_event`` that raises while the move is shown early comes out of ``receive`` once
    the envelope is accepted, as before the early display: the flow does not fail, nobody is
    blamed (a failure there would have been blamed on our own seat, for good)."""
    class Broken(RuntimeError):
        pass

    setups = (setup(0, rounds=1), setup(1))
    raised: list[int] = []

    def hear(event: Event) -> None:
        if isinstance(event, OpponentMoved) and not raised:
            raised.append(1)
            raise Broken("a broken view")

    cores = (PeerCore(setups[0], hear), PeerCore(setups[1]))
    try:
        play_cores(cores)
    except Broken:
        pass
    assert raised == [1]
    assert cores[0].failure is None and not cores[0].failed
    assert cores[0].peer is not None and cores[0].peer.error is None


def test_a_core_restored_past_a_deal_boundary_still_shows_the_move_first() -> None:
    """The early display is wired into a core rebuilt from its snapshot (``GamePeer.from_state``),
    not only into one that played from the start: seat 0 is snapshotted at the first deal
    boundary after the opening deal, and the records after it, replayed into the restored core,
    show every opponent's move before the envelope's answer and before its transcript entry."""
    from typing import Any

    from koikoi_p2p.net.core import RECEIVED

    setups = (setup(0, rounds=2), setup(1))
    cores = (PeerCore(setups[0]), PeerCore(setups[1]))
    snapshot: dict[str, Any] = {}
    records: list[list[Any]] = []

    def on_input(seat: int, kind: str, value: object, frames: list[bytes]) -> None:
        if seat != 0:
            return
        if not snapshot and cores[0].deal >= 1:
            snapshot.update(cores[0].snapshot())      # the boundary's snapshot covers this input
        elif snapshot:
            records.append([kind, value, frames])

    play_cores(cores, on_input=on_input)
    assert snapshot, "the match never crossed a deal boundary"
    assert any(r[0] == RECEIVED for r in records)

    receiving: list[tuple[int, int] | None] = [None]
    shown: list[tuple[bool, bool]] = []
    restored: list[PeerCore] = []

    class Watched(PeerCore):
        def receive(self, frame: bytes) -> list[bytes] | None:
            receiving[0] = (self.sent_count, len(self.peer.transcript) if self.peer else 0)
            try:
                return super().receive(frame)
            finally:
                receiving[0] = None

    def hear(event: Event) -> None:
        if isinstance(event, OpponentMoved) and receiving[0] is not None:
            core, at = restored[0], receiving[0]
            assert core.peer is not None
            shown.append((core.sent_count == at[0], len(core.peer.transcript) == at[1]))

    core = Watched.restore(snapshot, on_event=hear)
    restored.append(core)
    for record in records:
        core.apply(record)                            # the same frames as the first time, or it raises
    assert shown, "the restored core showed no move of the opponent"
    assert set(shown) == {(True, True)}
    assert core.done

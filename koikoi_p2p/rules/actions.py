"""Player actions as frozen values with a wire form (spec/rules.md §8).

A hand card is named by its deck position, not by its card: the opponent does not know the card
until the play reveals it, yet must check that the position is in the player's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from koikoi_p2p.rules.errors import RulesError
from koikoi_p2p.rules.profile import HAND_YAKU_IDS

__all__ = [
    "Action", "Capture", "ClaimHandYaku", "KoiKoi", "NoHandYaku", "Play", "Stop", "action_from_dict",
    "parse_action",
]


def _position(value: object, what: str = "position") -> int:
    if type(value) is not int or not 0 <= value < 48:
        raise RulesError("bad_action", f"{what} must be an integer 0..47, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Play:
    """Play the hand card at this deck position."""

    position: int

    def __post_init__(self) -> None:
        _position(self.position)

    def to_dict(self) -> dict[str, object]:
        return {"type": "play", "position": self.position}

    def __str__(self) -> str:
        return f"play {self.position}"


@dataclass(frozen=True, slots=True)
class Capture:
    """Take this field card (by card index) when the played or drawn card matches two."""

    card: int

    def __post_init__(self) -> None:
        _position(self.card, "card")

    def to_dict(self) -> dict[str, object]:
        return {"type": "capture", "card": self.card}

    def __str__(self) -> str:
        return f"capture {self.card}"


@dataclass(frozen=True, slots=True)
class KoiKoi:
    """Call koi-koi: play on for more."""

    def to_dict(self) -> dict[str, object]:
        return {"type": "koikoi"}

    def __str__(self) -> str:
        return "koikoi"


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop (shobu): end the round and score the current yaku."""

    def to_dict(self) -> dict[str, object]:
        return {"type": "stop"}

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class ClaimHandYaku:
    """Claim a hand yaku after the deal; the positions that make it are revealed publicly."""

    yaku: str
    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.yaku not in HAND_YAKU_IDS:
            raise RulesError("bad_action", f"unknown hand yaku {self.yaku!r}")
        if not isinstance(self.positions, tuple) or len(self.positions) not in (4, 8):
            raise RulesError("bad_action", "a claim reveals 4 or 8 positions")
        for p in self.positions:
            _position(p)
        if list(self.positions) != sorted(set(self.positions)):
            raise RulesError("bad_action", "claim positions must be distinct and ascending")

    def to_dict(self) -> dict[str, object]:
        return {"type": "claim_hand_yaku", "yaku": self.yaku, "positions": list(self.positions)}

    def __str__(self) -> str:
        return f"claim {self.yaku} {','.join(map(str, self.positions))}"


@dataclass(frozen=True, slots=True)
class NoHandYaku:
    """Declare no hand yaku after the deal."""

    def to_dict(self) -> dict[str, object]:
        return {"type": "no_hand_yaku"}

    def __str__(self) -> str:
        return "no_hand_yaku"


Action = Play | Capture | KoiKoi | Stop | ClaimHandYaku | NoHandYaku

# Shared instances: the engine hands these out instead of allocating on the hot path.
PLAYS: tuple[Play, ...] = tuple(Play(i) for i in range(48))
CAPTURES: tuple[Capture, ...] = tuple(Capture(i) for i in range(48))
KOIKOI = KoiKoi()
STOP = Stop()
NO_HAND_YAKU = NoHandYaku()


def action_from_dict(data: Mapping[str, object]) -> Action:
    """Parse the wire form; unknown types or extra keys are RulesError("bad_action")."""
    if not isinstance(data, Mapping):
        raise RulesError("bad_action", "an action is a mapping")
    kind = data.get("type")
    expected = {
        "play": {"type", "position"}, "capture": {"type", "card"}, "koikoi": {"type"}, "stop": {"type"},
        "claim_hand_yaku": {"type", "yaku", "positions"}, "no_hand_yaku": {"type"},
    }
    if not isinstance(kind, str) or kind not in expected:
        raise RulesError("bad_action", f"unknown action type {kind!r}")
    if set(data) != expected[kind]:
        raise RulesError("bad_action", f"{kind} takes exactly {sorted(expected[kind])}")
    if kind == "play":
        return PLAYS[_position(data["position"])]
    if kind == "capture":
        return CAPTURES[_position(data["card"], "card")]
    if kind == "koikoi":
        return KOIKOI
    if kind == "stop":
        return STOP
    if kind == "no_hand_yaku":
        return NO_HAND_YAKU
    yaku, positions = data["yaku"], data["positions"]
    if not isinstance(yaku, str) or not isinstance(positions, list | tuple):
        raise RulesError("bad_action", "claim_hand_yaku needs a yaku id and a list of positions")
    return ClaimHandYaku(yaku=yaku, positions=tuple(positions))


def parse_action(text: str) -> Action:
    """Parse the text form of ``str(action)`` ("play 5", "capture 12", "claim teshi 0,1,4,5"...)."""
    parts = text.split()
    try:
        if parts == ["koikoi"]:
            return KOIKOI
        if parts == ["stop"]:
            return STOP
        if parts == ["no_hand_yaku"]:
            return NO_HAND_YAKU
        if len(parts) == 2 and parts[0] == "play":
            return PLAYS[_position(int(parts[1]))]
        if len(parts) == 2 and parts[0] == "capture":
            return CAPTURES[_position(int(parts[1]), "card")]
        if len(parts) == 3 and parts[0] == "claim":
            return ClaimHandYaku(parts[1], tuple(int(p) for p in parts[2].split(",")))
    except ValueError as exc:
        raise RulesError("bad_action", f"cannot parse {text!r}") from exc
    raise RulesError("bad_action", f"cannot parse {text!r}")

"""What the game machine tells its user: frozen values, one per thing a player must know or do.

The machine (``koikoi_p2p.protocol.peer``) queues these; the asyncio ``Match`` yields them. A
decision is asked for with ``YourTurn`` (play a hand card) or ``ChoiceNeeded`` (a capture between
two field cards, koi-koi or stop) and answered with ``decide``; the joiner is asked to accept the
proposed terms with ``TermsProposed`` and answers with ``decide_terms``. Hand-yaku declarations
are not asked: the rules force them (spec/rules.md §9.7), so the peer sends them itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from koikoi_p2p.protocol.terms import MatchTerms, ProfileSummary
    from koikoi_p2p.rules.actions import Action
    from koikoi_p2p.rules.profile import Profile
    from koikoi_p2p.rules.round import RoundResult, RoundView


@dataclass(frozen=True, slots=True, kw_only=True)
class Paired:
    """The handshake finished: who the opponent is and what to compare."""

    peer_fingerprint: str
    sas: str | None
    known: bool | Literal["changed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TermsProposed:
    """Joiner only: the host proposes these terms; nothing is signed until ``decide_terms(True)``.

    ``summary`` says whether the rules are a preset played as itself or custom, and which switches
    differ from the preset they are compared with (spec/game.md §2.4)."""

    terms: MatchTerms
    summary: ProfileSummary


@dataclass(frozen=True, slots=True, kw_only=True)
class TermsAgreed:
    """Both peers signed the match terms; nothing was shuffled before this."""

    profile: Profile
    rounds: int
    terms_digest: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstDealer:
    """The first dealer: drawn from a jointly shuffled deck (one public card per seat, or a coin),
    or named by the profile (no cards: ``draws`` is empty)."""

    dealer: int
    draws: tuple[tuple[int, ...], ...]       # the cards of deal 0 as revealed, a step at a time


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted:
    """A deal begins (fresh round keys, two shuffles); ``deal`` counts redeals too."""

    round_index: int
    deal: int
    dealer: int
    month: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    """The public state changed in a way the player sees (the deal, a reveal)."""

    view: RoundView


@dataclass(frozen=True, slots=True, kw_only=True)
class YourTurn:
    """Play one of your hand cards: ``options`` are the legal ``Play`` actions."""

    view: RoundView
    options: tuple[Action, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoiceNeeded:
    """A choice other than playing a card: ``kind`` is "hand_yaku", "capture" or "decide"."""

    kind: str
    view: RoundView
    options: tuple[Action, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpponentMoved:
    """The opponent's decision (an ``act``), accepted by the rules engine. Forced hand-yaku
    declarations are not reported here: a claim shows on the ``Board`` and in ``RoundOver``."""

    action: Action
    view: RoundView


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOver:
    """A deal ended with this result, as both rules engines computed it.

    Both round keys are then disclosed and each peer re-checks the whole deal with every card
    known before it signs the result (spec/game.md §6.1); a failed re-check ends the match with a
    ``Failure`` naming the deviation. Only the co-signed match result (``MatchOver``) stands."""

    round_index: int
    result: RoundResult
    scores: tuple[int, int]
    transcript_path: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver:
    """Both peers signed the match result (``winner`` None is a draw; ``resigned`` the seat that
    resigned, if one did)."""

    scores: tuple[int, int]
    winner: int | None
    result: bytes
    transcript_path: str | None = None
    resigned: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Failure:
    """The match stopped: ``who`` is the seat at fault (None: unknown, e.g. the network)."""

    reason: str
    message: str
    who: int | None
    evidence_path: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeUp:
    """This seat's own deadline passed while it was to send ``expected`` (message ``seq``): no more
    input is taken, and player ``claimant`` may now claim abandonment by this seat at message
    ``seq`` (spec/protocol.md §12.4). A ``Failure`` follows."""

    seat: int
    claimant: int
    seq: int
    expected: str
    deadline: int


Event = (
    Paired | TermsProposed | TermsAgreed | FirstDealer | RoundStarted | Board | YourTurn | ChoiceNeeded
    | OpponentMoved | RoundOver | MatchOver | Failure | TimeUp
)

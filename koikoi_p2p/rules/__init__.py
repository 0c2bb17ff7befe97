"""The Koi-Koi rules engine: cards, rule profiles, yaku and scoring, the round and the match.

Pure and deterministic (standard library only, no I/O): both peers and any auditor run the same
code on the same moves and reveals and reach the same state. spec/rules.md is the normative text.
"""

from koikoi_p2p.rules.actions import (
    Action,
    Capture,
    ClaimHandYaku,
    KoiKoi,
    NoHandYaku,
    Play,
    Stop,
    action_from_dict,
)
from koikoi_p2p.rules.cards import CARDS, Card, card
from koikoi_p2p.rules.deal import DealLayout, FirstDealer, choose_first_dealer, deal_layout, first_dealer
from koikoi_p2p.rules.errors import IllegalMove, InconsistentReveal, RulesError
from koikoi_p2p.rules.match import MatchState, RoundParams
from koikoi_p2p.rules.profile import PRESETS, Profile, differences, nearest_preset, parse_switch, preset
from koikoi_p2p.rules.round import Need, NeedAction, NeedReveal, RoundResult, RoundState, RoundView
from koikoi_p2p.rules.scoring import YAKU_IDS, round_score, score_yaku

__all__ = [
    "CARDS", "PRESETS", "YAKU_IDS", "Action", "Capture", "Card", "ClaimHandYaku", "DealLayout", "FirstDealer",
    "IllegalMove", "InconsistentReveal", "KoiKoi", "MatchState", "Need", "NeedAction", "NeedReveal",
    "NoHandYaku", "Play", "Profile", "RoundParams", "RoundResult", "RoundState", "RoundView", "RulesError",
    "Stop", "action_from_dict", "card", "choose_first_dealer", "deal_layout", "differences", "first_dealer",
    "nearest_preset", "parse_switch", "preset", "round_score", "score_yaku",
]

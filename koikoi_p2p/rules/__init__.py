"""The Koi-Koi rules engine: cards, rule profiles, yaku and scoring, the round and the match.

Pure and deterministic (standard library only, no I/O): both peers and any auditor run the same
code on the same moves and reveals and reach the same state. spec/rules.md is the normative text.
"""

from koikoi_p2p.rules.cards import CARDS, Card, card
from koikoi_p2p.rules.errors import IllegalMove, InconsistentReveal, RulesError
from koikoi_p2p.rules.profile import PRESETS, Profile, preset
from koikoi_p2p.rules.scoring import YAKU_IDS, round_score, score_yaku

__all__ = [
    "CARDS", "PRESETS", "YAKU_IDS", "Card", "IllegalMove", "InconsistentReveal", "Profile", "RulesError",
    "card", "preset", "round_score", "score_yaku",
]

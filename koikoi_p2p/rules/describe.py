"""Plain-language descriptions of a profile: its yaku table and what each switch means.

Used by ``koikoi rules`` and to check that spec/rules.md lists every switch.
"""

from __future__ import annotations

from koikoi_p2p.rules.profile import Profile

__all__ = ["SWITCH_HELP", "summary", "yaku_table"]

SWITCH_HELP: dict[str, str] = {
    "name": "name of the profile (the preset it started from)",
    "rounds": "rounds in a match; 0 = play until target_score",
    "bright_values": "points of goko, shiko, ame_shiko, sanko",
    "named_extension": "inoshikacho, akatan, aotan, akatan_aotan gain 1 per extra card of their class",
    "tane_with_inoshikacho": "tane still scores beside inoshikacho",
    "tan_with_ribbon_yaku": "tan still scores beside akatan, aotan or akatan_aotan",
    "ribbon_pair": "both ribbon triples: akatan_aotan 10 (chofuku_10) or akatan 5 + aotan 5 (separate_5_5)",
    "cup_is_plain": "the sake cup counts as a plain as well as an animal",
    "joker_card": "an animal card that counts as animal or plain, whichever scores more (never both)",
    "viewing": "hanami and tsukimi: always, only beside a basic yaku (bonus_only), or off",
    "monthly_yaku_points": "tsukifuda points for all four cards of a month; 0 = none",
    "monthly_yaku_scope": "tsukifuda for the round's month only (current_month), or any month (any_month)",
    "double_threshold": "a base of at least this doubles; 0 = never",
    "koikoi_multiplier": "opponent_flat_x2, shared_one_plus_calls, winner_pow2 or none",
    "max_calls_per_round": "koi-koi calls allowed in a round, both seats together (or each seat, with "
                           "call_limit=per_seat); 0 = unlimited",
    "after_call": "after a call the next improvement by either seat ends the round "
                  "(next_improvement_ends_round), or only a stop does (shobu_only)",
    "last_turn_stop_only": "a decision on the last turn offers only stop",
    "exhaustion": "both hands empty without a stop: draw, oya_ken, or last_caller_scores_else_oya_ken",
    "oya_ken_points": "dealer's points for oya-ken",
    "dealer_after_draw": "the dealer after a round nobody won: same or other",
    "hand_yaku": "hand yaku checked after the deal and their points",
    "hand_yaku_both": "both seats hold a hand yaku: void_redeal, or the dealer's counts",
    "field_whole_month": "the dealt field holds all four cards of a month: redeal, or play_on",
    "redeal_consumes_round": "a redeal counts as a round of the match",
    "hand_capture": "free, or compulsory: a matching hand card must be played when there is one",
    "first_dealer_tie": "two drawn cards of one month: redraw, or the higher class deals (higher_card)",
    "pool_start": "0 = scores add up from 0; else each seat starts with this pool and the loser pays",
    "transfer_cap": "a pool transfer is capped at what the loser has left",
    "bust_ends_game": "a seat whose pool reaches 0 loses at once",
    "target_score": "the match ends when a seat reaches this; 0 = no target",
    "match_tie": "equal scores at the end: draw, or extra_round until one leads",
    "hanami_cancelled_by": "cards that cancel hanami when in the same pile (ame-nagare: 11-rainman or 11)",
    "tsukimi_cancelled_by": "cards that cancel tsukimi when in the same pile (kiri-nagare: 12)",
    "cup_either": "the sake cup counts as an animal or a plain, whichever scores more (never both)",
    "brights_add": "bright yaku add to each other (goko also scores shiko, ame_shiko, sanko)",
    "sanko_with_rain": "three brights with the rain man also make sanko",
    "single_yaku": "only the single highest-scoring yaku of a pile counts",
    "call_limit": "max_calls_per_round counts both seats together (per_round) or each seat (per_seat)",
    "caller_pays_more": "a loser who called pays more: off, times_calls (x its calls) or doubled_per_call "
                        "(x2 per call)",
    "subtract_from_opponent": "scores from 0: the winner's points are also taken off the loser",
    "field_four_pairs": "the dealt field is four pairs of four months: play_on, or redeal",
    "first_dealer": "who deals first: card_draw, coin (from the shuffled deck), host or joiner",
}


def yaku_table(profile: Profile) -> list[dict[str, object]]:
    """Every yaku the profile scores: id, points (base), and the rule in words."""
    p = profile
    goko, shiko, ame, sanko = p.bright_values
    ext = p.named_extension
    if p.brights_add:
        rows: list[tuple[str, int, str]] = [
            ("goko", goko, "all five brights"),
            ("shiko", shiko, "the four brights other than the rain man"),
            ("ame_shiko", ame, "the rain man and three other brights"),
            ("sanko", sanko, ("any three brights" if p.sanko_with_rain
                              else "three brights other than the rain man")
             + " (bright yaku add up: five brights score all four)"),
        ]
    else:
        rows = [
            ("goko", goko, "all five brights"),
            ("shiko", shiko, "four brights without the rain man"),
            ("ame_shiko", ame, "four brights with the rain man"),
            ("sanko", sanko, ("three brights, the rain man included or not" if p.sanko_with_rain
                              else "three brights without the rain man")
             + " (only the highest bright yaku counts)"),
        ]
    if p.viewing != "off":
        cond = " (only beside a basic yaku)" if p.viewing == "bonus_only" else ""
        rows.append(("hanami", 5, "cherry curtain and sake cup" + cond + _cancelled(p.hanami_cancelled_by)))
        rows.append(("tsukimi", 5, "full moon and sake cup" + cond + _cancelled(p.tsukimi_cancelled_by)))
    rows.append(("inoshikacho", 5, "boar, deer, butterflies" + (", +1 per other animal" if ext else "")))
    plus_r = ", +1 per other ribbon" if ext else ""
    if p.ribbon_pair == "chofuku_10":
        rows.append(("akatan", 5, "the three poetry ribbons" + plus_r))
        rows.append(("aotan", 5, "the three blue ribbons" + plus_r))
        rows.append(("akatan_aotan", 10, "all six poetry and blue ribbons, instead of akatan and aotan"
                     + (", +1 per other ribbon" if ext else "")))
    else:
        rows.append(("akatan", 5, "the three poetry ribbons" + plus_r))
        rows.append(("aotan", 5, "the three blue ribbons (with akatan: both count)" + plus_r))
    cup = (" (the sake cup included, or counted as a plain if that scores more)" if p.cup_either
           else " (the sake cup included)")
    rows.append(("tane", 1, "five animals" + cup + ", +1 per extra"
                 + ("" if p.tane_with_inoshikacho else "; not beside inoshikacho")
                 + (f"; {p.joker_card} may count here or as a plain" if p.joker_card else "")))
    rows.append(("tan", 1, "five ribbons, +1 per extra"
                 + ("" if p.tan_with_ribbon_yaku else "; not beside akatan, aotan, akatan_aotan")))
    cup_plain = "; the sake cup is a plain too" if p.cup_is_plain else ""
    rows.append(("kasu", 1, "ten plains, +1 per extra" + cup_plain))
    if p.monthly_yaku_points:
        scope = "of the round's month" if p.monthly_yaku_scope == "current_month" else "of any month (each)"
        rows.append(("tsukifuda", p.monthly_yaku_points, "all four cards " + scope))
    hand_rules = {
        "teshi": "dealt hand: all four cards of a month",
        "kuttsuki": "dealt hand: four pairs of different months",
        "tenho": "dealt hand: four cards of a month, or four pairs",
        "double_tenho": "dealt hand: two months of four",
    }
    for yaku, points in p.hand_yaku:
        rows.append((yaku, points, hand_rules[yaku] + "; ends the round, never multiplied"))
    if p.exhaustion != "draw":
        rows.append(("oya_ken", p.oya_ken_points, "dealer's points when the hands run out"
                     + (" and nobody called" if p.exhaustion == "last_caller_scores_else_oya_ken" else "")))
    return [{"id": yaku, "points": points, "rule": rule} for yaku, points, rule in rows]


def _cancelled(ids: tuple[str, ...]) -> str:
    """", not with 11-rainman in the pile" for a viewing yaku's cancelling cards."""
    if not ids:
        return ""
    return "; not with " + (ids[0] if len(ids) == 1 else "any of " + ", ".join(ids)) + " in the pile"


def summary(profile: Profile) -> list[str]:
    """How a match under ``profile`` plays and scores, in a few plain sentences (koikoi rules)."""
    p = profile
    lines: list[str] = []
    if p.hand_capture == "compulsory":
        lines.append("Playing: a hand card that matches the field must be played when you hold one.")
    else:
        lines.append("Playing: any hand card may be played; a card that matches the field captures.")
    per = "per player per round" if p.call_limit == "per_seat" else "per round"
    limit = (f"one koi-koi call {per}" if p.max_calls_per_round == 1
             else f"{p.max_calls_per_round} koi-koi calls {per}" if p.max_calls_per_round
             else "any number of koi-koi calls by either player")
    after = ("the next yaku made or raised by either player ends the round"
             if p.after_call == "next_improvement_ends_round" else "the round goes on until someone stops")
    last = "; on the last turn only stop is offered" if p.last_turn_stop_only else ""
    lines.append(f"Koi-koi: {limit}; after a call {after}{last}.")
    doubling = (f"a base of {p.double_threshold} or more doubles" if p.double_threshold
                else "no doubling for a high base")
    multiplier = {
        "opponent_flat_x2": "x2 when the winner's opponent had called (own calls never multiply)",
        "shared_one_plus_calls": "x(1 + all calls by both players), whoever wins",
        "winner_pow2": "x2 for each call by the winner; nothing extra for beating a caller",
        "none": "calls multiply nothing",
    }[p.koikoi_multiplier]
    base = "the base (the single highest yaku)" if p.single_yaku else "the base (sum of yaku)"
    pays = {
        "off": "",
        "times_calls": "; a loser who called pays that times the number of its calls",
        "doubled_per_call": "; a loser who called pays that doubled for each of its calls",
    }[p.caller_pays_more]
    lines.append(f"Round score: {base}; {doubling}; then {multiplier}{pays}.")
    exhaustion = {
        "draw": "nobody scores",
        "oya_ken": f"the dealer scores {p.oya_ken_points} (oya-ken), even against a caller",
        "last_caller_scores_else_oya_ken":
            f"the last caller scores their yaku; with no call the dealer scores {p.oya_ken_points} (oya-ken)",
    }[p.exhaustion]
    after_draw = "the same dealer deals again" if p.dealer_after_draw == "same" else "the other player deals"
    lines.append(f"Hands run out: {exhaustion}. The winner deals next; after a round nobody won, "
                 f"{after_draw}.")
    if p.hand_yaku:
        named = ", ".join(f"{key} {points}" for key, points in p.hand_yaku)
        both = ("the deal is void and dealt again" if p.hand_yaku_both == "void_redeal"
                else "the dealer's counts")
        lines.append(f"Dealt hands: {named} end the round at once, never multiplied; if both players hold "
                     f"one, {both}.")
    if p.field_four_pairs == "redeal":
        lines.append("Deal: a field of four pairs is dealt again"
                     + (", as is a field holding a whole month." if p.field_whole_month == "redeal" else "."))
    if p.pool_start:
        pool = (f"Scores: each player starts with a pool of {p.pool_start}; the loser pays the winner"
                + (", at most what they have left" if p.transfer_cap else "")
                + ("; a player who reaches 0 loses at once" if p.bust_ends_game else "") + ".")
    elif p.subtract_from_opponent:
        pool = "Scores: from 0; the winner's points are also taken off the loser (scores may go below 0)."
    else:
        pool = "Scores: round scores add up from 0."
    lines.append(pool)
    end = []
    if p.rounds:
        end.append(f"after {p.rounds} round{'' if p.rounds == 1 else 's'} the higher score wins")
    if p.target_score:
        end.append(f"the first player to reach {p.target_score} points wins")
    tie = "equal scores are a drawn match" if p.match_tie == "draw" else "equal scores play extra rounds"
    first = {
        "card_draw": "each player draws a card from the shuffled deck and the earlier month deals first"
                     + ("" if p.first_dealer_tie == "redraw" else "; in one month the higher class")
                     + "; equal draws draw again",
        "coin": "a fair coin from the jointly shuffled deck picks the first dealer",
        "host": "the host deals first",
        "joiner": "the joiner deals first",
    }[p.first_dealer]
    lines.append(f"Match: {'; '.join(end)}; {tie}; {first}.")
    return lines

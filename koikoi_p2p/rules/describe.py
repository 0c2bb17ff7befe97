"""Plain-language descriptions of a profile: its yaku table and what each switch means.

Used by ``koikoi rules`` and to check that spec/rules.md lists every switch.
"""

from __future__ import annotations

from koikoi_p2p.phrase import NOTHING, Phrase, Word
from koikoi_p2p.phrase import Phrase as P
from koikoi_p2p.rules.profile import Profile

__all__ = ["SWITCH_HELP", "summary", "yaku_table"]

SWITCH_HELP: dict[str, str] = {
    "name": "name of the profile (the preset it started from)",
    "rounds": "rounds in a match; 0 = play until the target score",
    "bright_values": "points of goko, shiko, ame-shiko, sanko",
    "named_extension": "inoshikacho, akatan, aotan, akatan-aotan gain 1 per extra card of their class",
    "tane_with_inoshikacho": "tane still scores beside inoshikacho",
    "tan_with_ribbon_yaku": "tan still scores beside akatan, aotan or akatan-aotan",
    "ribbon_pair": "both ribbon triples: akatan-aotan 10 ('chofuku_10') or akatan 5 + aotan 5 "
                   "('separate_5_5')",
    "cup_is_plain": "the sake cup counts as a plain as well as an animal",
    "joker_card": "an animal card that counts as animal or plain, whichever scores more (never both)",
    "viewing": "hanami and tsukimi: always, only beside a basic yaku ('bonus_only'), or off",
    "monthly_yaku_points": "tsukifuda points for all four cards of a month; 0 = none",
    "monthly_yaku_scope": "tsukifuda for the round's month only ('current_month'), or any month "
                          "('any_month')",
    "double_threshold": "a base of at least this doubles; 0 = never",
    "koikoi_multiplier": "how calls multiply: 'opponent_flat_x2', 'shared_one_plus_calls', 'winner_pow2' or "
                         "none",
    "max_calls_per_round": "koi-koi calls allowed in a round, both seats together (or each seat, with "
                           "'call_limit=per_seat'); 0 = unlimited",
    "after_call": "after a call the next improvement by either seat ends the round "
                  "('next_improvement_ends_round'), or only a stop does ('shobu_only')",
    "last_turn_stop_only": "a decision on the last turn offers only stop",
    "exhaustion": "both hands empty without a stop: draw, oya-ken ('oya_ken'), or the last caller scores, "
                  "else oya-ken ('last_caller_scores_else_oya_ken')",
    "oya_ken_points": "dealer's points for oya-ken",
    "dealer_after_draw": "the dealer after a round nobody won: same or other",
    "hand_yaku": "hand yaku checked after the deal and their points",
    "hand_yaku_both": "both seats hold a hand yaku: the deal is void and dealt again ('void_redeal'), or "
                      "the dealer's counts",
    "field_whole_month": "the dealt field holds all four cards of a month: redeal, or play on ('play_on')",
    "redeal_consumes_round": "a redeal counts as a round of the match",
    "hand_capture": "free, or compulsory: a matching hand card must be played when there is one",
    "first_dealer_tie": "two drawn cards of one month: redraw, or the higher class deals ('higher_card')",
    "pool_start": "0 = scores add up from 0; else each seat starts with this pool and the loser pays",
    "transfer_cap": "a pool transfer is capped at what the loser has left",
    "bust_ends_game": "a seat whose pool reaches 0 loses at once",
    "target_score": "the match ends when a seat reaches this; 0 = no target",
    "match_tie": "equal scores at the end: draw, or an extra round until one leads ('extra_round')",
    "hanami_cancelled_by": "cards that cancel hanami when in the same pile; ame-nagare (11-rainman or 11) "
                           "and kiri-nagare (12) each cancel both viewing yaku: set both lists, or "
                           "'viewing_cancelled_by' for the pair",
    "tsukimi_cancelled_by": "cards that cancel tsukimi when in the same pile; ame-nagare (11-rainman or 11) "
                            "and kiri-nagare (12) each cancel both viewing yaku: set both lists, or "
                            "'viewing_cancelled_by' for the pair",
    "cup_either": "the sake cup counts as an animal or a plain, whichever scores more (never both)",
    "brights_add": "bright yaku add to each other (goko also scores shiko, ame-shiko, sanko)",
    "sanko_with_rain": "three brights with the rain man also make sanko",
    "single_yaku": "only the highest-scoring yaku counts: of the whole pile, or of a yaku and its "
                   "extensions (see 'single_yaku_scope')",
    "call_limit": "the limit of koi-koi calls counts both seats together ('per_round') or each seat "
                  "('per_seat')",
    "caller_pays_more": "a loser's payment grows with its own calls: off; times the calls ('times_calls': "
                        "one call x1, two x2, so twice as much as one); doubled per call "
                        "('doubled_per_call': one call x2, two x4)",
    "subtract_from_opponent": "scores from 0: the winner's points are also taken off the loser",
    "field_four_pairs": "the dealt field is four pairs of four months: play on ('play_on'), or redeal",
    "first_dealer": "who deals first: a card draw ('card_draw'), a coin (from the shuffled deck), the host "
                    "or the joiner",
    "viewing_by_call": "hanami and tsukimi are worth 1 each, or 3 once their holder has called koi-koi in "
                       "the round",
    "koikoi_bonus": "the winner's own calls: off, or added ('winner_add': +1, +2, +3 for one to three "
                    "calls; x2 to x5 for four to seven)",
    "akatan_aotan_on_top": "with separate ribbon triples ('separate_5_5'): all six ribbons also score "
                           "akatan-aotan 10 on top of akatan 5 and aotan 5",
    "stop_on_own_last_turn": "a decision on a player's own last turn (no hand card left) offers only stop",
    "hand_whole_month": "a dealt hand holding all four cards of a month: play on ('play_on'), or redeal "
                        "(the player shows them and the deal is dealt again)",
    "single_yaku_scope": "with only the highest yaku ('single_yaku'): 'pile' (one yaku for the whole pile), "
                         "or 'extensions' (only the highest of a yaku and those that extend it: the bright "
                         "yaku, inoshikacho and tane, tan and the ribbon yaku, akatan-aotan and akatan or "
                         "aotan; akatan and aotan both count)",
}


def yaku_table(profile: Profile) -> list[dict[str, object]]:
    """Every yaku the profile scores: id, points (base), and the rule in words (a ``Phrase``: the
    English text, which a screen renders from its catalogue, cli/rules_text.py)."""
    p = profile
    goko, shiko, ame, sanko = p.bright_values
    ext = p.named_extension
    if p.brights_add:
        rows: list[tuple[str, int, str]] = [
            ("goko", goko, P("all five brights")),
            ("shiko", shiko, P("the four brights other than the rain man")),
            ("ame_shiko", ame, P("the rain man and three other brights")),
            ("sanko", sanko, P("{which} (bright yaku add up: five brights score all four)",
                               which=P("any three brights") if p.sanko_with_rain
                               else P("three brights other than the rain man"))),
        ]
    else:
        rows = [
            ("goko", goko, P("all five brights")),
            ("shiko", shiko, P("four brights without the rain man")),
            ("ame_shiko", ame, P("four brights with the rain man")),
            ("sanko", sanko, P("{which} (only the highest bright yaku counts)",
                               which=P("three brights, the rain man included or not") if p.sanko_with_rain
                               else P("three brights without the rain man"))),
        ]
    if p.viewing != "off":
        cond = P(" (only beside a basic yaku)") if p.viewing == "bonus_only" else NOTHING
        if p.viewing_by_call:
            cond = P("{cond}; 3 once its holder has called koi-koi in the round", cond=cond)
        view = 1 if p.viewing_by_call else 5
        rows.append(("hanami", view, P("cherry curtain and sake cup{cond}{cancelled}", cond=cond,
                                       cancelled=_cancelled(p.hanami_cancelled_by))))
        rows.append(("tsukimi", view, P("full moon and sake cup{cond}{cancelled}", cond=cond,
                                        cancelled=_cancelled(p.tsukimi_cancelled_by))))
    plus_r = P(", +1 per other ribbon") if ext else NOTHING
    rows.append(("inoshikacho", 5, P("boar, deer, butterflies{plus}",
                                     plus=P(", +1 per other animal") if ext else NOTHING)))
    rows.append(("akatan", 5, P("the three poetry ribbons{plus}", plus=plus_r)))
    if p.ribbon_pair == "chofuku_10":
        rows.append(("aotan", 5, P("the three blue ribbons{plus}", plus=plus_r)))
        rows.append(("akatan_aotan", 10, P("all six poetry and blue ribbons, instead of akatan and "
                                           "aotan{plus}", plus=plus_r)))
    else:
        rows.append(("aotan", 5, P("the three blue ribbons (with akatan: both count){plus}", plus=plus_r)))
        if p.akatan_aotan_on_top:
            rows.append(("akatan_aotan", 10, P("all six poetry and blue ribbons, on top of akatan and "
                                               "aotan{plus}", plus=plus_r)))
    cup = (P(" (the sake cup included, or counted as a plain if that scores more)") if p.cup_either
           else P(" (the sake cup included)"))
    rows.append(("tane", 1, P("five animals{cup}, +1 per extra{beside}{joker}", cup=cup,
                              beside=NOTHING if p.tane_with_inoshikacho else P("; not beside inoshikacho"),
                              joker=P("; {card} may count here or as a plain", card=Word(p.joker_card))
                              if p.joker_card else NOTHING)))
    rows.append(("tan", 1, P("five ribbons, +1 per extra{beside}",
                             beside=NOTHING if p.tan_with_ribbon_yaku
                             else P("; not beside akatan, aotan, akatan-aotan"))))
    rows.append(("kasu", 1, P("ten plains, +1 per extra{cup}",
                              cup=P("; the sake cup is a plain too") if p.cup_is_plain else NOTHING)))
    if p.monthly_yaku_points:
        rows.append(("tsukifuda", p.monthly_yaku_points,
                     P("all four cards of the round's month") if p.monthly_yaku_scope == "current_month"
                     else P("all four cards of any month (each)")))
    hand_rules = {
        "teshi": P("dealt hand: all four cards of a month"),
        "kuttsuki": P("dealt hand: four pairs of different months"),
        "tenho": P("dealt hand: four cards of a month, or four pairs"),
        "double_tenho": P("dealt hand: two months of four"),
    }
    for yaku, points in p.hand_yaku:
        rows.append((yaku, points, P("{hand}; ends the round, never multiplied", hand=hand_rules[yaku])))
    if p.exhaustion != "draw":
        rows.append(("oya_ken", p.oya_ken_points, P("dealer's points when the hands run out{unless}",
                                                    unless=P(" and nobody called")
                                                    if p.exhaustion == "last_caller_scores_else_oya_ken"
                                                    else NOTHING)))
    return [{"id": yaku, "points": points, "rule": rule} for yaku, points, rule in rows]


def _cancelled(ids: tuple[str, ...]) -> Phrase:
    """"; not with the rain man in the pile" for a viewing yaku's cancelling cards."""
    if not ids:
        return NOTHING
    # Card ids as words: each client names the card (spec/glossary.md), never the id.
    if len(ids) == 1:
        return P("; not with {cards} in the pile", cards=Word(ids[0]))
    return P("; not with any of {cards} in the pile", cards=_listed([Word(i) for i in ids]))


def _listed(items: list[str]) -> str:
    """``a, b, c`` as nested phrases (a translation joins them its own way)."""
    if len(items) == 1:
        return items[0]
    return P("{first}, {rest}", first=items[0], rest=_listed(items[1:]))


def summary(profile: Profile) -> list[str]:
    """How a match under ``profile`` plays and scores, in a few plain sentences (koikoi rules);
    each a ``Phrase`` built from the same parts a translation renders (cli/rules_text.py)."""
    p = profile
    lines: list[str] = []
    if p.hand_capture == "compulsory":
        lines.append(P("Playing: a hand card that matches the field must be played when you hold one."))
    else:
        lines.append(P("Playing: any hand card may be played; a card that matches the field captures."))
    if p.max_calls_per_round == 1:
        limit = (P("one koi-koi call per player per round") if p.call_limit == "per_seat"
                 else P("one koi-koi call per round"))
    elif p.max_calls_per_round:
        limit = (P("{n} koi-koi calls per player per round", n=p.max_calls_per_round)
                 if p.call_limit == "per_seat"
                 else P("{n} koi-koi calls per round", n=p.max_calls_per_round))
    elif p.after_call == "next_improvement_ends_round":
        # any call is allowed, but after one the next improvement ends the round: one in effect
        limit = P("one koi-koi call per round in effect (no limit is set, but the next improvement ends "
                  "the round)")
    else:
        limit = P("any number of koi-koi calls by either player")
    after = (P("the next yaku made or raised by either player ends the round")
             if p.after_call == "next_improvement_ends_round" else P("the round goes on until someone stops"))
    if p.stop_on_own_last_turn:
        last = P("; on each player's own last turn only stop is offered")
    else:
        last = P("; on the last turn only stop is offered") if p.last_turn_stop_only else NOTHING
    lines.append(P("Koi-koi: {limit}; after a call {after}{last}.", limit=limit, after=after, last=last))
    doubling = (P("a base of {n} or more doubles", n=p.double_threshold) if p.double_threshold
                else P("no doubling for a high base"))
    multiplier = {
        "opponent_flat_x2": P("x2 when the winner's opponent had called (own calls never multiply)"),
        "shared_one_plus_calls": P("x(1 + all calls by both players), whoever wins"),
        "winner_pow2": P("x2 for each call by the winner; nothing extra for beating a caller"),
        "none": P("calls multiply nothing"),
    }[p.koikoi_multiplier]
    if not p.single_yaku:
        base = P("the base (sum of yaku)")
    elif p.single_yaku_scope == "extensions":
        base = P("the base (sum of yaku; of a yaku and its extensions only the highest counts: the bright "
                 "yaku, inoshikacho or tane, tan or a ribbon yaku, akatan-aotan or akatan and aotan)")
    else:
        base = P("the base (the single highest yaku)")
    pays = {
        "off": NOTHING,
        "times_calls": P("; a loser who called pays that times the number of its calls (one call x1, two "
                         "x2)"),
        "doubled_per_call": P("; a loser who called pays that doubled for each of its calls (one call x2, "
                              "two x4)"),
    }[p.caller_pays_more]
    if p.koikoi_bonus == "winner_add":
        pays = P("{pays}; then the winner's own calls add 1, 2 or 3 points, and from four calls "
                 "multiply by the number of calls less 2", pays=pays)
    lines.append(P("Round score: {base}; {doubling}; then {multiplier}{pays}.", base=base, doubling=doubling,
                   multiplier=multiplier, pays=pays))
    exhaustion = {
        "draw": P("nobody scores"),
        "oya_ken": P("the dealer scores {n} (oya-ken), even against a caller", n=p.oya_ken_points),
        "last_caller_scores_else_oya_ken":
            P("the last caller scores their yaku; with no call the dealer scores {n} (oya-ken)",
              n=p.oya_ken_points),
    }[p.exhaustion]
    after_draw = (P("the same dealer deals again") if p.dealer_after_draw == "same"
                  else P("the other player deals"))
    lines.append(P("Hands run out: {exhaustion}. The winner deals next; after a round nobody won, {after}.",
                   exhaustion=exhaustion, after=after_draw))
    if p.hand_yaku:
        named = _listed([P("{yaku} {points}", yaku=Word(key), points=points) for key, points in p.hand_yaku])
        both = (P("the deal is void and dealt again") if p.hand_yaku_both == "void_redeal"
                else P("the dealer's counts"))
        lines.append(P("Dealt hands: {named} end the round at once, never multiplied; if both players hold "
                       "one, {both}.", named=named, both=both))
    if p.hand_whole_month == "redeal":
        lines.append(P("Deal: a hand holding all four cards of a month is shown and dealt again{field}",
                       field=P(", as is a field holding a whole month.") if p.field_whole_month == "redeal"
                       else P(".")))
    if p.field_four_pairs == "redeal":
        lines.append(P("Deal: a field of four pairs is dealt again{month}",
                       month=P(", as is a field holding a whole month.") if p.field_whole_month == "redeal"
                       else P(".")))
    if p.pool_start:
        pool = P("Scores: each player starts with a pool of {n}; the loser pays the winner{cap}{bust}.",
                 n=p.pool_start, cap=P(", at most what they have left") if p.transfer_cap else NOTHING,
                 bust=NOTHING if not p.bust_ends_game else P("; a player who reaches 0 loses at once")
                 if p.transfer_cap else P("; a player at 0 or less loses at once"))
    elif p.subtract_from_opponent:
        pool = P("Scores: from 0; the winner's points are also taken off the loser (scores may go below 0).")
    else:
        pool = P("Scores: round scores add up from 0.")
    lines.append(pool)
    end: list[Phrase] = []
    if p.rounds:
        end.append(P("after 1 round the higher score wins") if p.rounds == 1
                   else P("after {n} rounds the higher score wins", n=p.rounds))
    if p.target_score:
        end.append(P("the first player to reach 1 point wins") if p.target_score == 1
                   else P("the first player to reach {n} points wins", n=p.target_score))
    tie = (P("equal scores are a drawn match") if p.match_tie == "draw"
           else P("equal scores play extra rounds"))
    first = {
        "card_draw": P("each player draws a card from the shuffled deck and the earlier month deals "
                       "first{tie}; equal draws draw again",
                       tie=NOTHING if p.first_dealer_tie == "redraw"
                       else P("; in one month the higher class")),
        "coin": P("a fair coin from the jointly shuffled deck picks the first dealer"),
        "host": P("the host deals first"),
        "joiner": P("the joiner deals first"),
    }[p.first_dealer]
    ends = (P("{first}; {second}", first=end[0], second=end[1]) if len(end) == 2
            else end[0] if end else NOTHING)
    lines.append(P("Match: {end}; {tie}; {first}.", end=ends, tie=tie, first=first))
    return lines

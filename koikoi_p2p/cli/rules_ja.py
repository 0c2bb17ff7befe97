"""``koikoi rules --lang ja``: the rule descriptions of ``rules/describe.py`` in Japanese.

The rules package stays pure and English (its sentences are also checked against spec/rules.md);
its summary and yaku rules are ``Phrase`` parts, which this module says from ``RULES_JA`` (so the
two languages are built from the same parts and cannot drift); the switches are a table keyed by
switch name and value. A unit test
checks that every switch and every listed value has a Japanese entry and that both languages
produce the same lines and yaku rows for every preset.
"""

from __future__ import annotations

from koikoi_p2p.cli.i18n import yaku_name
from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.rules.profile import PRESETS, Profile

# What each switch is called on a Japanese screen (the switch names stay typed in English).
SWITCH_LABEL_JA: dict[str, str] = {
    "name": "名前",
    "rounds": "回戦数",
    "bright_values": "光札の役の点",
    "named_extension": "役の加点",
    "tane_with_inoshikacho": "猪鹿蝶とタネ",
    "tan_with_ribbon_yaku": "短冊役とタン",
    "ribbon_pair": "赤短と青短",
    "cup_is_plain": "盃をカスにも",
    "joker_card": "両用の札",
    "viewing": "花見で一杯・月見で一杯",
    "monthly_yaku_points": "月札の点",
    "monthly_yaku_scope": "月札の月",
    "double_threshold": "倍付けの点",
    "koikoi_multiplier": "こいこいの倍率",
    "max_calls_per_round": "こいこいの回数",
    "after_call": "こいこいの後",
    "last_turn_stop_only": "最後の番",
    "exhaustion": "流れたとき",
    "oya_ken_points": "親権の点",
    "dealer_after_draw": "流れた後の親",
    "hand_yaku": "手役",
    "hand_yaku_both": "双方の手役",
    "field_whole_month": "場に同じ月4枚",
    "redeal_consumes_round": "配り直しと回戦",
    "hand_capture": "合わせ方",
    "first_dealer_tie": "親決めの同じ月",
    "pool_start": "持ち点",
    "transfer_cap": "支払いの上限",
    "bust_ends_game": "持ち点0で負け",
    "target_score": "目標点",
    "match_tie": "同点のとき",
    "hanami_cancelled_by": "花見で一杯を消す札",
    "tsukimi_cancelled_by": "月見で一杯を消す札",
    "cup_either": "盃はタネかカス",
    "brights_add": "光札の役の重複",
    "sanko_with_rain": "雨入りの三光",
    "single_yaku": "最高の役のみ",
    "call_limit": "回数の数え方",
    "caller_pays_more": "宣言した方の支払い",
    "subtract_from_opponent": "相手から差し引く",
    "field_four_pairs": "場に4組",
    "first_dealer": "最初の親",
    "viewing_by_call": "こいこいで花見で一杯・月見で一杯の点",
    "koikoi_bonus": "こいこいの加点",
    "akatan_aotan_on_top": "赤短・青短の重複の上乗せ",
    "stop_on_own_last_turn": "各自の最後の番",
    "hand_whole_month": "手札に同じ月4枚",
    "single_yaku_scope": "最高の役のみの範囲",
}

# What each switch means (the Japanese of describe.SWITCH_HELP).
SWITCH_HELP_JA: dict[str, str] = {
    "name": "ルールの名前 (元にした設定)",
    "rounds": "1試合の回戦数。0 = 目標点まで",
    "bright_values": "五光・四光・雨四光・三光の点",
    "named_extension": "猪鹿蝶・赤短・青短・赤短・青短の重複は同じ種類の札1枚ごとに1点加算",
    "tane_with_inoshikacho": "猪鹿蝶があってもタネを数える",
    "tan_with_ribbon_yaku": "赤短・青短・赤短・青短の重複があってもタンを数える",
    "ribbon_pair": "赤短と青短の両方: 赤短・青短の重複で10点 (重複10点) か、赤短5点 + 青短5点 (別々)",
    "cup_is_plain": "盃はタネであると同時にカスにもなる",
    "joker_card": "タネかカスの高い方に数えるタネ札 (両方にはならない)",
    "viewing": "花見で一杯と月見で一杯: 常に、ほかの役があるときだけ、またはなし",
    "monthly_yaku_points": "同じ月の4枚を揃えた月札の点。0 = なし",
    "monthly_yaku_scope": "月札はその回戦の月だけか、どの月でもか",
    "double_threshold": "この点以上で倍付け。0 = 倍付けなし",
    "koikoi_multiplier": "こいこいによる得点の倍率",
    "max_calls_per_round": "1回戦のこいこいの回数 (双方合わせて、または1人ごと)。0 = 無制限",
    "after_call": "こいこいの後、次に役ができたら終わるか、勝負するまで続くか",
    "last_turn_stop_only": "最後の番では勝負しか選べない",
    "exhaustion": "誰も勝負しないまま手札が尽きたとき",
    "oya_ken_points": "親権で親が得る点",
    "dealer_after_draw": "誰も勝たなかった回戦の後の親",
    "hand_yaku": "配られた直後に調べる手役とその点",
    "hand_yaku_both": "双方に手役があるとき",
    "field_whole_month": "配った場に同じ月の4枚があるとき",
    "redeal_consumes_round": "配り直しも1回戦に数える",
    "hand_capture": "合う手札を出すのが自由か、必ず出すか",
    "first_dealer_tie": "親決めで同じ月の札を引いたとき",
    "pool_start": "0 = 得点は0から加算。それ以外は双方この持ち点で始め、負けた方が払う",
    "transfer_cap": "支払いは負けた方の残りの持ち点まで",
    "bust_ends_game": "持ち点が0になった方がすぐに負け",
    "target_score": "どちらかがこの点に達したら試合終了。0 = 目標点なし",
    "match_tie": "最後に同点のとき",
    "hanami_cancelled_by": "同じ取り札にあると花見で一杯を消す札。雨流れ (11-rainman か 11) も霧流れ (12) "
                           "も花見で一杯と月見で一杯の両方を消す: 両方の一覧に同じ札を入れる "
                           "(1つの設定で両方も可)",
    "tsukimi_cancelled_by": "同じ取り札にあると月見で一杯を消す札。雨流れ (11-rainman か 11) も霧流れ (12) "
                            "も花見で一杯と月見で一杯の両方を消す: 両方の一覧に同じ札を入れる "
                            "(1つの設定で両方も可)",
    "cup_either": "盃はタネかカスの高い方に数える (両方にはならない)",
    "brights_add": "光札の役を重ねて数える (五光は四光・雨四光・三光も得点)",
    "sanko_with_rain": "柳に小野道風を含む3枚の光札も三光",
    "single_yaku": "最も高い役だけを数える: 取り札全体で1つか、役とその発展形の中で1つか "
                   "(最高の役のみの範囲)",
    "call_limit": "こいこいの回数を双方合わせて数えるか、1人ごとに数えるか",
    "caller_pays_more": "負けた方の支払いが自分の宣言数で増える: なし、宣言数倍 (1回で1倍、2回で2倍)、"
                        "宣言ごとに2倍 (1回で2倍、2回で4倍)",
    "subtract_from_opponent": "0から始め、勝った方の点を負けた方からも引く",
    "field_four_pairs": "配った場が4つの月の2枚ずつのとき",
    "first_dealer": "最初の親の決め方",
    "viewing_by_call": "花見で一杯・月見で一杯は各1点、持ち主がその回戦でこいこいした後は各3点",
    "koikoi_bonus": "勝者自身のこいこい: なし、または加点 (1〜3回で+1、+2、+3。4〜7回で2〜5倍)",
    "akatan_aotan_on_top": "別々に5点ずつのとき、短冊6枚で赤短5点・青短5点に加えて赤短・青短の重複10点",
    "stop_on_own_last_turn": "各自の最後の番 (手札がない) では勝負しか選べない",
    "hand_whole_month": "配られた手札に同じ月の4枚があるとき: そのまま続けるか、見せて配り直すか",
    "single_yaku_scope": "最高の役のみのとき: 取り札全体で役1つ、または役とその発展形の中で最も高いもの"
                         "だけ (光札の役どうし、猪鹿蝶とタネ、タンと短冊の役、赤短・青短の重複と赤短・青短。"
                         "赤短と青短はどちらも数える)",
}

# The words a switch takes (rules.profile.SWITCH_CHOICES), on a Japanese screen.
VALUE_JA: dict[str, dict[str, str]] = {
    "ribbon_pair": {"chofuku_10": "重複10点", "separate_5_5": "別々に5点ずつ"},
    "viewing": {"always": "常に", "bonus_only": "ほかの役があるときだけ", "off": "なし"},
    "monthly_yaku_scope": {"current_month": "その回戦の月", "any_month": "どの月でも"},
    "koikoi_multiplier": {"opponent_flat_x2": "相手がこいこいしていれば2倍",
                          "shared_one_plus_calls": "1 + 双方の宣言数 倍",
                          "winner_pow2": "勝者の宣言ごとに2倍",
                          "none": "なし"},
    "after_call": {"next_improvement_ends_round": "次の役で終わり", "shobu_only": "勝負まで続く"},
    "exhaustion": {"draw": "流れ (得点なし)", "oya_ken": "親権",
                   "last_caller_scores_else_oya_ken": "最後に宣言した方、いなければ親権"},
    "dealer_after_draw": {"same": "同じ親", "other": "親が替わる"},
    "hand_yaku_both": {"void_redeal": "無効で配り直し", "dealer": "親の手役"},
    "field_whole_month": {"redeal": "配り直し", "play_on": "そのまま続ける"},
    "hand_capture": {"free": "自由", "compulsory": "必ず合わせる"},
    "first_dealer_tie": {"redraw": "引き直し", "higher_card": "札の格が高い方"},
    "match_tie": {"draw": "引き分け", "extra_round": "延長の回戦"},
    "call_limit": {"per_round": "双方合わせて", "per_seat": "1人ごと"},
    "caller_pays_more": {"off": "なし", "times_calls": "宣言数倍", "doubled_per_call": "宣言ごとに2倍"},
    "field_four_pairs": {"play_on": "そのまま続ける", "redeal": "配り直し"},
    "first_dealer": {"card_draw": "札を引く", "coin": "公平なコイン", "host": "ホスト", "joiner": "参加者"},
    "koikoi_bonus": {"off": "なし", "winner_add": "勝者の宣言数で加点"},
    "hand_whole_month": {"play_on": "そのまま続ける", "redeal": "配り直し"},
    "single_yaku_scope": {"pile": "取り札全体で1つ", "extensions": "役とその発展形で1つ"},
}


def allowed_ja(key: str) -> str:
    """What a switch takes, in Japanese; the words and ids to type stay as they are typed."""
    from koikoi_p2p.rules.profile import HAND_YAKU_IDS, SWITCH_CHOICES, preset

    value = getattr(preset("nintendo"), key, None)
    if isinstance(value, bool):
        return "true か false"
    if isinstance(value, int):
        return "0から10000までの整数"
    if key in SWITCH_CHOICES:
        return "次のどれか: " + ", ".join(SWITCH_CHOICES[key])
    hand = "、".join(f"{k} ({yaku_name(k, 'ja')})" for k in HAND_YAKU_IDS)
    return {
        "name": "a-z、0-9、'-'、'_' の1〜40文字",
        "bright_values": "五光,四光,雨四光,三光 の点 (1〜100) を4つ。例: 10,8,7,5",
        "hand_yaku": f"none か、手役:点 の組。例: teshi:6,kuttsuki:6 (手役: {hand})",
        "joker_card": "none か、09-cup 以外のタネ札のID",
    }.get(key, "none か、カンマで区切った札のIDと月の番号。例: 11-rainman や 11,12")


def switch_value_ja(profile: Profile, key: str) -> str:
    """One switch's value as a Japanese screen shows it; card ids, numbers and preset names stay."""
    value = getattr(profile, key)
    if isinstance(value, bool):
        return "あり" if value else "なし"
    if key in VALUE_JA:
        return VALUE_JA[key][str(value)]
    if key == "hand_yaku":
        items = list(value.items()) if isinstance(value, dict) else list(value)
        return "、".join(f"{yaku_name(str(k), 'ja')} {v}点" for k, v in items) or "なし"
    if key == "name" and value not in PRESETS:
        return "独自"  # a custom name is an identifier; the first line says what it is based on
    text = profile.switch_text(key)
    return "なし" if text == "none" else text


# The parts of rules/describe.py's sentences (each an English template, as a ``Phrase`` carries it)
# and their Japanese; yaku ids inside them (``Word``) are said by their usual names.
RULES_JA: dict[str, str] = {
    "": "",
    "{first}, {rest}": "{first}、{rest}",
    # -- the yaku table ---------------------------------------------------------------------------
    "all five brights": "光札5枚すべて",
    "the four brights other than the rain man": "柳に小野道風以外の光札4枚",
    "the rain man and three other brights": "柳に小野道風とほかの光札3枚",
    "{which} (bright yaku add up: five brights score all four)":
        "{which} (光札の役は重ねて数え、五光は4つとも得点)",
    "any three brights": "どの光札でも3枚",
    "three brights other than the rain man": "柳に小野道風以外の光札3枚",
    "four brights without the rain man": "柳に小野道風を含まない光札4枚",
    "four brights with the rain man": "柳に小野道風を含む光札4枚",
    "{which} (only the highest bright yaku counts)": "{which} (最も高い光札の役だけを数える)",
    "three brights, the rain man included or not": "柳に小野道風を含んでも含まなくても光札3枚",
    "three brights without the rain man": "柳に小野道風を含まない光札3枚",
    " (only beside a basic yaku)": " (ほかの役があるときだけ)",
    "{cond}; 3 once its holder has called koi-koi in the round":
        "{cond}。持ち主がその回戦でこいこいした後は3点",
    "cherry curtain and sake cup{cond}{cancelled}": "桜に幕と菊に盃{cond}{cancelled}",
    "full moon and sake cup{cond}{cancelled}": "芒に月と菊に盃{cond}{cancelled}",
    "; not with {cards} in the pile": "。{cards}が取り札にあれば不成立",
    "; not with any of {cards} in the pile": "。いずれかの札 {cards}が取り札にあれば不成立",
    ", +1 per other ribbon": "、ほかの短冊1枚ごとに+1",
    "boar, deer, butterflies{plus}": "萩に猪、紅葉に鹿、牡丹に蝶{plus}",
    ", +1 per other animal": "、ほかのタネ1枚ごとに+1",
    "the three poetry ribbons{plus}": "赤短 (文字入りの赤い短冊) 3枚{plus}",
    "the three blue ribbons{plus}": "青短3枚{plus}",
    "all six poetry and blue ribbons, instead of akatan and aotan{plus}":
        "赤短と青短の6枚すべて (赤短と青短の代わり){plus}",
    "the three blue ribbons (with akatan: both count){plus}": "青短3枚 (赤短もあれば両方とも数える){plus}",
    "all six poetry and blue ribbons, on top of akatan and aotan{plus}":
        "赤短と青短の6枚すべて (赤短と青短に加えて){plus}",
    " (the sake cup included, or counted as a plain if that scores more)":
        " (菊に盃を含む。カスに数える方が高ければカス)",
    " (the sake cup included)": " (菊に盃を含む)",
    "five animals{cup}, +1 per extra{beside}{joker}": "タネ5枚{cup}、1枚増えるごとに+1{beside}{joker}",
    "; not beside inoshikacho": "。猪鹿蝶があるときは数えない",
    "; {card} may count here or as a plain": "。{card}はここかカスに数えてよい",
    "five ribbons, +1 per extra{beside}": "短冊5枚、1枚増えるごとに+1{beside}",
    "; not beside akatan, aotan, akatan_aotan": "。赤短・青短・赤短・青短の重複があるときは数えない",
    "ten plains, +1 per extra{cup}": "カス10枚、1枚増えるごとに+1{cup}",
    "; the sake cup is a plain too": "。菊に盃もカスになる",
    "all four cards of the round's month": "その回戦の月の4枚すべて",
    "all four cards of any month (each)": "どの月でも同じ月の4枚すべて (月ごとに)",
    "dealt hand: all four cards of a month": "配られた手札: 同じ月の4枚",
    "dealt hand: four pairs of different months": "配られた手札: 違う月の2枚ずつ4組",
    "dealt hand: four cards of a month, or four pairs": "配られた手札: 同じ月の4枚、または2枚ずつ4組",
    "dealt hand: two months of four": "配られた手札: 同じ月の4枚が2組",
    "{hand}; ends the round, never multiplied": "{hand}。その回戦は終わり、倍率はかからない",
    "dealer's points when the hands run out{unless}": "手札が尽きたときの親の点{unless}",
    " and nobody called": " (誰もこいこいしていないとき)",
    # -- the summary ------------------------------------------------------------------------------
    "Playing: a hand card that matches the field must be played when you hold one.":
        "札の出し方: 場と合う手札があれば、それを出さなければならない。",
    "Playing: any hand card may be played; a card that matches the field captures.":
        "札の出し方: どの手札を出してもよく、場と合う札を出せば取れる。",
    "one koi-koi call per player per round": "1回戦に1人1回まで",
    "one koi-koi call per round": "1回戦に双方合わせて1回まで",
    "{n} koi-koi calls per player per round": "1回戦に1人{n}回まで",
    "{n} koi-koi calls per round": "1回戦に双方合わせて{n}回まで",
    "any number of koi-koi calls by either player": "双方とも何回でも宣言できる",
    "one koi-koi call per round in effect (no limit is set, but the next improvement ends the round)":
        "実際には1回戦に1回 (回数の制限はないが、次に役ができると回戦が終わる)",
    "the next yaku made or raised by either player ends the round":
        "次にどちらかが役を作るか上げたら、その回戦は終わり",
    "the round goes on until someone stops": "誰かが勝負するまで回戦は続く",
    "; on the last turn only stop is offered": "。最後の番では勝負しか選べない",
    "; on each player's own last turn only stop is offered": "。各自の最後の番では勝負しか選べない",
    "Koi-koi: {limit}; after a call {after}{last}.": "こいこい: {limit}。宣言の後は、{after}{last}。",
    "a base of {n} or more doubles": "基本点が{n}点以上なら2倍",
    "no doubling for a high base": "高い基本点でも倍付けなし",
    "x2 when the winner's opponent had called (own calls never multiply)":
        "勝者の相手がこいこいしていれば2倍 (自分の宣言では倍にならない)",
    "x(1 + all calls by both players), whoever wins": "勝敗にかかわらず (1 + 双方の宣言数) 倍",
    "x2 for each call by the winner; nothing extra for beating a caller":
        "勝者の宣言ごとに2倍。宣言した相手に勝っても加点なし",
    "calls multiply nothing": "宣言による倍率なし",
    "the base (the single highest yaku)": "基本点 (最も高い役1つ)",
    "the base (sum of yaku)": "基本点 (役の合計)",
    "the base (sum of yaku; of a yaku and its extensions only the highest counts: the bright "
    "yaku, inoshikacho or tane, tan or a ribbon yaku, akatan_aotan or akatan and aotan)":
        "基本点 (役の合計。役とその発展形では最も高いものだけ: 光札の役どうし、猪鹿蝶かタネ、"
        "タンか短冊の役、赤短・青短の重複か赤短と青短)",
    "; a loser who called pays that times the number of its calls (one call x1, two x2)":
        "。宣言して負けた方は、その点に宣言数を掛けて払う (1回で1倍、2回で2倍)",
    "; a loser who called pays that doubled for each of its calls (one call x2, two x4)":
        "。宣言して負けた方は、宣言ごとに2倍にして払う (1回で2倍、2回で4倍)",
    "{pays}; then the winner's own calls add 1, 2 or 3 points, and from four calls multiply by the number "
    "of calls less 2":
        "{pays}。さらに勝者自身の宣言が1〜3回なら1〜3点を加え、4回以上なら (宣言数 - 2) 倍",
    "Round score: {base}; {doubling}; then {multiplier}{pays}.":
        "回戦の得点: {base}。{doubling}。さらに{multiplier}{pays}。",
    "nobody scores": "誰も得点しない",
    "the dealer scores {n} (oya-ken), even against a caller":
        "親が{n}点を得る (親権。相手がこいこいしていても)",
    "the last caller scores their yaku; with no call the dealer scores {n} (oya-ken)":
        "最後に宣言した方が役の点を得る。宣言がなければ親が{n}点を得る (親権)",
    "the same dealer deals again": "同じ親がもう一度配る",
    "the other player deals": "もう一方が親になる",
    "Hands run out: {exhaustion}. The winner deals next; after a round nobody won, {after}.":
        "手札が尽きたとき: {exhaustion}。勝った方が次の親。誰も勝たなかった回戦の後は{after}。",
    "{yaku} {points}": "{yaku} {points}点",
    "the deal is void and dealt again": "その配りは無効で配り直す",
    "the dealer's counts": "親の手役を数える",
    "Dealt hands: {named} end the round at once, never multiplied; if both players hold one, {both}.":
        "手役: {named}はその場で回戦が終わり、倍率はかからない。双方にあれば{both}。",
    "Deal: a field of four pairs is dealt again{month}": "配り: 場が2枚ずつ4組なら配り直す{month}",
    "Deal: a hand holding all four cards of a month is shown and dealt again{field}":
        "配り: 手札に同じ月の4枚があれば、見せて配り直す{field}",
    ", as is a field holding a whole month.": "。場に同じ月の4枚があるときも同じ。",
    ".": "。",
    "Scores: each player starts with a pool of {n}; the loser pays the winner{cap}{bust}.":
        "得点: 双方{n}点の持ち点で始め、負けた方が勝った方に払う{cap}{bust}。",
    ", at most what they have left": "。払うのは残りの持ち点まで",
    "; a player who reaches 0 loses at once": "。持ち点が0になった方はすぐに負け",
    "; a player at 0 or less loses at once": "。持ち点が0以下になった方はすぐに負け",
    "Scores: from 0; the winner's points are also taken off the loser (scores may go below 0).":
        "得点: 0から始め、勝った方の点を負けた方からも引く (0より下になることもある)。",
    "Scores: round scores add up from 0.": "得点: 回戦の得点を0から足していく。",
    "after 1 round the higher score wins": "1回戦の後、得点の高い方の勝ち",
    "after {n} rounds the higher score wins": "{n}回戦の後、得点の高い方の勝ち",
    "the first player to reach {n} points wins": "先に{n}点に達した方の勝ち",
    "equal scores are a drawn match": "同点なら引き分け",
    "equal scores play extra rounds": "同点なら延長の回戦",
    "each player draws a card from the shuffled deck and the earlier month deals first{tie}; equal draws "
    "draw again":
        "二人で切った山から1枚ずつ引き、月の早い方が最初の親{tie}。同じなら引き直す",
    "; in one month the higher class": "。同じ月なら札の格が高い方",
    "a fair coin from the jointly shuffled deck picks the first dealer":
        "二人で切った山から作る公平なコインで最初の親を決める",
    "the host deals first": "ホストが最初の親",
    "the joiner deals first": "参加者が最初の親",
    "{first}; {second}": "{first}。{second}",
    "Match: {end}; {tie}; {first}.": "試合: {end}。{tie}。{first}。",
}


def rules_ja(text: object) -> str:
    """A part of describe.py's sentences in Japanese (nested parts too; yaku ids by their names)."""
    if isinstance(text, Word):
        return yaku_name(text, "ja")
    if not isinstance(text, Phrase):
        return str(text)
    values = {name: rules_ja(value) if isinstance(value, str) else value
              for name, value in text.values.items()}
    return RULES_JA[text.template].format(**values)


def yaku_rules_ja(profile: Profile) -> dict[str, str]:
    """Each yaku the profile scores and its rule in Japanese (the rows of describe.yaku_table)."""
    from koikoi_p2p.rules.describe import yaku_table

    return {str(row["id"]): rules_ja(row["rule"]) for row in yaku_table(profile)}


def summary_ja(profile: Profile) -> list[str]:
    """The sentences of describe.summary in Japanese, one per line, in the same order."""
    from koikoi_p2p.rules.describe import summary

    return [rules_ja(line) for line in summary(profile)]

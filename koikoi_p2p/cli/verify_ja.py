"""``koikoi verify`` in Japanese: the audit's own sentences and the machine words inside them.

The audit package writes its notes and verdicts as ``Phrase`` objects (English strings that keep
their template and values, koikoi_p2p/phrase.py). ``say`` renders one in the screen's language from
``PHRASES_JA``, translating nested phrases and ``Word`` values (reason codes, message types)
through ``WORDS_JA``. A field named ``message`` holds the protocol's own English detail of a
failure: a Japanese template may leave it out, since the reason it follows is named in words (the
English detail stays one ``--lang en`` or ``--json`` away). A unit test walks the audit package
and checks that every phrase has a translation with the same fields (``message`` excepted) and
that every reason code the spec lists has a Japanese name.
"""

from __future__ import annotations

from koikoi_p2p.phrase import Phrase, Word

PHRASES_JA: dict[str, str] = {
    # -- audit/core.py: who deviated ------------------------------------------------------------
    "resigned by player {seat}": "プレイヤー{seat}の投了",
    "resigned by player {seat} at message {seq}": "プレイヤー{seat}がメッセージ{seq}で投了",
    "abandoned by player {seat} ({detail})": "プレイヤー{seat}が対局を放棄 ({detail})",
    "abandoned by player {seat} at message {seq}": "プレイヤー{seat}がメッセージ{seq}で対局を放棄",
    "abandoned by player {seat} at message {seq} ({detail})":
        "プレイヤー{seat}がメッセージ{seq}で対局を放棄 ({detail})",
    "no player is shown to have deviated: {why}": "違反したプレイヤーは示されていません: {why}",
    "no player is shown to have deviated at message {seq}: {why}":
        "メッセージ{seq}: 違反したプレイヤーは示されていません: {why}",
    "player {seat} deviated: {why}": "プレイヤー{seat}の違反: {why}",
    "player {seat} deviated at message {seq}: {why}": "プレイヤー{seat}がメッセージ{seq}で違反: {why}",
    "{reason}": "{reason}",
    "{reason} ({detail})": "{reason} ({detail})",
    "{reason} ({message})": "{reason}",
    "{reason}: {message}": "{reason}",   # cmd_verify.failure: a file that does not verify
    "deal {deal} was replayed without its round keys: its public moves were checked, not the rules that "
    "need the hidden hands":
        "配り{deal}回目は回戦の鍵なしで再生しました。公開された手は確かめましたが、伏せた手札が必要な"
        "ルールは確かめていません",
    # -- audit/replay.py ------------------------------------------------------------------------
    "deal {deal} stops before its round keys were disclosed: its hidden cards and moves cannot be checked "
    "from message {seq} on":
        "配り{deal}回目は回戦の鍵が開示される前に終わっています。メッセージ{seq}以降の伏せ札と手は"
        "確かめられません",
    "the replay cannot go on at message {seq}: {reason}: {message}":
        "メッセージ{seq}で再生を続けられません: {reason}",
    "the match did not finish: the transcript stops while waiting for player {seat} ({expected})":
        "対局は終わっていません。記録はプレイヤー{seat}の{expected}を待つところで止まっています",
    "the transcript has no closing marker": "記録に終了の印がありません",
    "found before the reported offence, with the disclosed keys":
        "開示された鍵により、申し立てられた違反より前に見つかりました",
    "the transcript before the offence does not replay cleanly": "違反より前の記録が正しく再生できません",
"a second signed envelope, or one that breaks the chain":
        "署名された2通目のメッセージ、または連鎖を壊すメッセージ",
    "the offending frame carries no valid signature of the accused: the relay or the network may have sent "
    "it":
        "問題のフレームには訴えられた側の有効な署名がありません。中継サーバーかネットワークが送った"
        "可能性があります",
    "unattributable": "誰の責任か特定できません",
    "the accused's signed envelope {seq} does not continue the reporter's chain at message {count}: it "
    "proves no deviation":
        "訴えられた側が署名したメッセージ{seq}は、報告者の連鎖のメッセージ{count}に続いていません。"
        "違反の証明にはなりません",
    "disputed": "争いがあります",
    "the offending envelope replays without fault: the evidence proves nothing":
        "問題のメッセージは問題なく再生できます。この証拠は何も証明しません",
    # -- audit/abandonment.py -------------------------------------------------------------------
    "the replay cannot reach message {seq}: {detail}": "再生はメッセージ{seq}まで届きません: {detail}",
    "the claim proves nothing: {detail}": "この申し立ては何も証明しません: {detail}",
    "the claim is moot: the transcript shows an earlier deviation":
        "この申し立ては意味がありません。記録にはそれより前の違反があります",
    "the claim is false: {detail}": "この申し立ては偽りです: {detail}",
    "player {seat} signed no envelope of this session, so nothing shows that it ever took part in the "
    "match":
        "プレイヤー{seat}はこのセッションのメッセージに1通も署名していないので、対局に参加したことを"
        "示すものがありません",
    "no {expected} within the {deadline} s deadline; claimed by player {claimant}":
        "{deadline}秒の期限内に{expected}がありませんでした。申し立てたのはプレイヤー{claimant}",
    "player {seat} last signed message {last}": "プレイヤー{seat}が最後に署名したのはメッセージ{last}",
    "the match is complete": "対局は最後まで終わっています",
    "the replay waits for no one": "再生は誰も待っていません",
    "at message {seq} player {seat} was to speak, not player {absent}":
        "メッセージ{seq}で送る番だったのはプレイヤー{seat}で、プレイヤー{absent}ではありません",
    "at message {seq} the match waits for {expected}, not {claimed}":
        "メッセージ{seq}で対局が待っているのは{expected}で、{claimed}ではありません",
    "the terms give {expected} a deadline of {deadline} s, not the {claimed} s the claim names":
        "条件では{expected}の期限は{deadline}秒で、申し立ての{claimed}秒ではありません",
    "deal {deal} cannot be checked from message {seq} on without a round secret the file does not carry":
        "配り{deal}回目はメッセージ{seq}以降、このファイルにない回戦の秘密鍵なしでは確かめられません",
    "message {seq}: {reason}: {message}": "メッセージ{seq}: {reason}",
    # -- audit/compare.py: two files of one session ---------------------------------------------
"the account of {stands} stands; {refuted} is refuted":
        "{stands} の言い分が通ります。{refuted} は退けられます",
    "the two files agree": "2つのファイルは一致しています",
    "the two files CONFLICT: they cannot both be true and cannot show which is":
        "2つのファイルは矛盾しています。両方が正しいことはありえず、どちらが正しいかも示せません",
    "{file} does not verify ({reason}: {message}): it is no account":
        "{file} は検証に通りません ({reason})。言い分として扱えません",
    "the two files hold two different envelopes, both signed by that player, for message {seq}: together "
    "they prove it":
        "2つのファイルには、同じプレイヤーが署名したメッセージ{seq}が2通あり、内容が違います。"
        "合わせると違反の証明になります",
    "neither claim holds on its own": "どちらの申し立ても単独では成り立ちません",
    "the claim in {file} does not hold on its own": "{file} の申し立ては単独では成り立ちません",
    "the longer account stops at message {seq}": "長い方の記録はメッセージ{seq}で止まっています",
    "the longer account stops at message {seq}, waiting for player {seat} ({expected})":
        "長い方の記録はメッセージ{seq}で、プレイヤー{seat}の{expected}を待って止まっています",
    "neither file proves a deviation or an abandonment": "どちらのファイルも違反や放棄を証明しません",
"a different signed envelope for this number in each file":
        "この番号に、ファイルごとに違う署名付きメッセージがあります",
    "{file} proves it": "{file} がそれを証明します",
    "the deviation {file} shows comes later, after this one": "{file} が示す違反はこれより後のものです",
    "the claim in {file} comes after the deviation or rests on it":
        "{file} の申し立ては違反の後のもの、または違反を前提にしたものです",
    "its signed match result names the other player the winner": "署名した対局結果で相手を勝者としています",
    "{file} holds player {seat}'s resignation": "{file} にプレイヤー{seat}の投了があります",
    "the claim in {file} comes after the match ended by resignation":
        "{file} の申し立ては、投了で対局が終わった後のものです",
"both files hold the finished, co-signed match":
        "どちらのファイルにも、双方が署名した終局までの対局があります",
    "the match is finished and co-signed in {file}": "{file} では対局が終わり、双方が署名しています",
    "player {seat} signed message {seq} ({type}), which the claim in {file} says never came":
        "プレイヤー{seat}はメッセージ{seq} ({type}) に署名しています。{file} の申し立てでは届かなかった"
        "とされるものです",
    "player {seat} itself signed message {later} after it, so it had received message {seq}":
        "プレイヤー{seat}自身がその後のメッセージ{later}に署名しているので、メッセージ{seq}を受け取って"
        "いました",
    "{file} is the same match cut short": "{file} は同じ対局が途中で切れたものです",
    "player {seat} signed message {later} after it, in {file}, so it had received message {seq}":
        "プレイヤー{seat}は {file} でその後のメッセージ{later}に署名しているので、メッセージ{seq}を"
        "受け取っていました",
    "the claim in {file} is contradicted by its own claimant's signature":
        "{file} の申し立ては、申し立てた本人の署名と矛盾します",
    "the claim in {file} holds, and {other} does not contradict it":
        "{file} の申し立ては成り立ち、{other} もそれと矛盾しません",
    "player {seat} did sign message {seq} ({type}), in {file}, but nothing shows player {claimant} ever "
    "received it: it came after the deadline or was lost on the way, which no file can tell apart (the "
    "protocol has no trusted clock)":
        "プレイヤー{seat}は {file} でメッセージ{seq} ({type}) に署名していますが、プレイヤー{claimant}"
        "が受け取ったことを示すものはありません。期限の後に届いたのか途中で失われたのかは、どの"
        "ファイルにも区別できません (プロトコルには信頼できる時計がありません)",
    "the claim in {file} (message {seq}) is contradicted by player {seat}'s own message {later} in {other}":
        "{file} の申し立て (メッセージ{seq}) は、{other} にあるプレイヤー{seat}自身のメッセージ{later}と"
        "矛盾します",
    "player {seat} signed two claims, at messages {first} and {second}":
        "プレイヤー{seat}はメッセージ{first}とメッセージ{second}の2つの申し立てに署名しています",
    "player {late} signed message {seq} only after player {seat} had stopped waiting for it, or it was lost "
    "on the way: no file can tell which (the protocol has no trusted clock)":
        "プレイヤー{late}がメッセージ{seq}に署名したのは、プレイヤー{seat}が待つのをやめた後か、途中で"
        "失われたかのどちらかです。どちらかはどのファイルにも分かりません (プロトコルには信頼できる時計が"
        "ありません)",
    "the claim in {file} (message {seq}) rests on messages {start} to {end} that player {seat}'s account "
    "shows it never received":
        "{file} の申し立て (メッセージ{seq}) は、プレイヤー{seat}の記録では受け取っていないメッセージ"
        "{start}から{end}を前提にしています",
    # -- ratings/board.py: a ratings export that cannot be replayed ------------------------------
    "not a ratings export ({format})": "レーティングのエクスポートではありません ({format})",
    "results and abandonments must be lists": "結果と放棄の申し立ては一覧でなければなりません",
    "result {seq} counts session {session} a second time":
        "結果{seq}はセッション {session} を2回数えています",
    "claim {seq} is a second claim about session {session}":
        "申し立て{seq}はセッション {session} についての2つ目の申し立てです",
    "{field} number {expected} has seq {seq}: the export is not in order":
        "{expected}番目の{field}の番号が{seq}です。エクスポートの順番が正しくありません",
    "{field} {seq} does not pass the service's checks: {reason}: {message}":
        "{field}{seq}はサービスの検査に通りません: {reason}",
    "an export entry is {{'seq': int, '{field}': base64, ...}}":
        "エクスポートの項目の形が正しくありません ({field})",
    "entry {seq}: {field} is not base64": "項目{seq}: {field}の符号化が正しくありません",
}

# Message types (spec/game.md §3) and failure reasons (spec/game.md §9, protocol.md §2.4, §8, §9.1,
# crypto.md §8.8), as a Japanese report names them.
WORDS_JA: dict[str, str] = {
    # message types
    "terms": "対局条件", "accept": "条件の承諾", "key": "山札の鍵", "shuffle": "シャッフル",
    "reveal": "札を開くシェア", "act": "手番の操作", "declare": "宣言", "disclose": "回戦の鍵の開示",
    "round_sign": "回戦結果への署名", "match_result": "対局結果", "match_sign": "対局結果への署名",
    "resign": "投了",
    # the game (spec/game.md §9)
    "out_of_turn": "順番でないメッセージ", "unknown_message": "知らない種類のメッセージ",
    "bad_message": "形式の正しくないメッセージ", "bad_terms": "正しくない対局条件",
    "unsupported_version": "対応していない版",
    "bad_key": "正しくない鍵",
    "bad_shuffle": "正しくないシャッフル",
    "bad_share": "正しくない復号シェア", "missing_shares": "足りない復号シェア",
    "wrong_shares": "違う札の復号シェア", "unexpected_shares": "求められていない復号シェア",
    "illegal_action": "ルールで許されない手", "inconsistent_reveal": "辻褄の合わない札の公開",
    "bad_disclosed_key": "回戦の鍵と合わない開示", "bad_deck": "山札の再検査に失敗",
    "inconsistent_round": "回戦の再検査に失敗", "wrong_result": "食い違う結果",
    "bad_result_signature": "結果に合わない署名", "deck_state": "伏せ札が分からない",
    # the session (spec/protocol.md §2.4)
    "bad_frame": "正しくないフレーム", "unexpected_message": "予期しないメッセージ",
    "mode_mismatch": "パスワードの有無が食い違う", "bad_name": "正しくない表示名",
    "bad_commitment": "約束と合わない鍵", "pake_failed": "パスワードの確認に失敗",
    "key_confirmation_failed": "鍵の確認に失敗", "bad_signature": "正しくない署名",
    "aead_failure": "認証できないフレーム", "reflected": "こちらが送ったものの送り返し",
    "bad_envelope": "正しくないメッセージ", "wrong_session": "別のセッションのメッセージ",
    "wrong_sender": "送り手の違うメッセージ", "bad_seq": "番号の飛んだメッセージ",
    "bad_prev": "連鎖の切れたメッセージ", "equivocation": "同じ番号への二重の署名",
    # files (spec/protocol.md §8, §9, §9.1)
    "bad_magic": "このプログラムのファイルではない", "bad_file": "壊れたファイル",
    "bad_handshake": "正しくない接続記録", "bad_handshake_record": "正しくない接続記録",
    "bad_handshake_signature": "接続記録の署名が正しくない", "bad_closing": "終了の印が合わない",
    "truncated": "途中で切れた記録",
    "bad_claim": "正しくない申し立て",
    "unproven_claim": "証明されない申し立て",
    "false_claim": "偽りの申し立て", "abandoned": "放棄", "resigned": "投了", "bad_result": "正しくない結果",
    "unknown_file": "知らない種類のファイル", "different_sessions": "別々のセッション",
    "bad_seat": "正しくない席", "non_canonical": "正規形でない符号化",
    # the deck (spec/crypto.md §8.8)
    "invalid_length": "長さの違うデータ",
    "invalid_point": "正しくない点",
    "invalid_scalar": "正しくないスカラー",
    "bad_key_proof": "鍵の証明が通らない", "bad_shuffle_proof": "シャッフルの証明が通らない",
    "bad_share_proof": "シェアの証明が通らない", "wrong_key": "公開鍵と合わない秘密鍵",
    "not_a_card": "どの札でもない復号", "not_a_permutation": "並べ替えになっていない",
    "audit_failed": "回戦末の検査に失敗",
    # the entries of a ratings export (ratings/board.py)
    "result": "結果", "claim": "申し立て",
    # a rating service's refusals (spec/ratings.md)
    "busy": "混雑中", "claim_not_upheld": "成り立たない申し立て", "internal": "サービス内部の障害",
    "method_not_allowed": "使えない要求", "not_a_claim": "放棄の申し立てではない",
    "not_a_result": "双方署名の結果ではない", "not_found": "見つからない", "not_json": "読めない応答",
    "replayed": "別の結果で集計済みのセッション", "same_key": "両者が同じ鍵",
    "store_unavailable": "データベースが使えない", "too_large": "大きすぎる",
    "unknown_player": "記録にないプレイヤー",
    "unrated": "レーティング対象外の対局",
}


def word_ja(word: str) -> str:
    """A reason code or message type in Japanese (an unknown one as it is: still a clue)."""
    return WORDS_JA.get(word, word)


def say(lang: str, text: object) -> str:
    """``text`` (a Phrase, a Word or plain text) in ``lang``."""
    if lang != "ja":
        return str(text)
    if isinstance(text, Word):
        return word_ja(text)
    if not isinstance(text, Phrase):
        return str(text)
    template = PHRASES_JA.get(text.template)
    if template is None:
        return str(text)
    values = {name: say(lang, value) if isinstance(value, str) else value
              for name, value in text.values.items()}
    return template.format(**values)

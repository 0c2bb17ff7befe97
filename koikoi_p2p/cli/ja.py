"""The Japanese catalogue: each English template of the terminal client and its translation.

Keys are the English ``str.format`` templates exactly as the code writes them (``i18n.tr``);
values keep the same ``{fields}``. A unit test checks that every template the client uses is
here and that each translation has the same fields. Command lines (``koikoi verify FILE``),
flags (``--password``), preset names and the card marks (``* A R .``) stay as they are typed.
"""

from __future__ import annotations

JA: dict[str, str] = {
    # -- the board ----------------------------------------------------------------------------
    "Round {n}": "{n}回戦",
    "dealer: {who}": "親: {who}",
    "score: {me} {mine} - {theirs} {them}": "得点: {me} {mine} - {theirs} {them}",
    "stock: {n}": "山札: {n}",
    "stock {n}": "山札 {n}",
    "koi-koi: {who}": "こいこい: {who}",
    "Field: ": "場札: ",
    "(empty)": "(なし)",
    "Your hand: ": "手札: ",
    "koi-koi called by: {who}": "こいこい宣言: {who}",
    "Your captures ({me}):": "取り札 ({me}):",
    "{Them}'s captures (hand: {cards}):": "{Them}の取り札 (手札 {cards}):",
    "{Me} ({cards}): ": "{Me} ({cards}): ",
    "{Them} ({cards}, hand {hand}): ": "{Them} ({cards}、手札 {hand}): ",
    "| plains: {n}": "| カス: {n}",
    "  yaku: ": "  役: ",
    "yaku: ": "役: ",
    "  close: ": "  あと少し: ",
    " (total {n})": " (計 {n})",
    "{yaku} (needs {n})": "{yaku} (あと{n}枚)",
    "{yaku} (needs {n} of: {cards})": "{yaku} (あと{n}枚: {cards})",
    "field": "場",
    "your hand": "手札",
    "Cards read MM+mark: the month (01-12) and the class: * bright, A animal, R ribbon, . plain.":
        "札は「月(01-12)+印」で表します。印: * 光、A タネ、R 短冊、. カス。",
    # -- narration ----------------------------------------------------------------------------
    "{me} take {taken} with {card}.": "{me}: {card}で{taken}を取る。",
    "{them} takes {taken} with {card}.": "{them}: {card}で{taken}を取る。",
    "{me} play {card}: it matches two field cards ({options}).":
        "{me}: {card}を出す → 場の2枚と合う ({options})。",
    "{them} plays {card}: it matches two field cards ({options}).":
        "{them}: {card}を出す → 場の2枚と合う ({options})。",
    "{me} draw {card}: it matches two field cards ({options}).":
        "{me}: {card}をめくる → 場の2枚と合う ({options})。",
    "{them} draws {card}: it matches two field cards ({options}).":
        "{them}: {card}をめくる → 場の2枚と合う ({options})。",
    "{me} play {card}: no match, it goes to the field.": "{me}: {card}を出す → 合う札がなく場に置く。",
    "{them} plays {card}: no match, it goes to the field.": "{them}: {card}を出す → 合う札がなく場に置く。",
    "{me} draw {card}: no match, it goes to the field.": "{me}: {card}をめくる → 合う札がなく場に置く。",
    "{them} draws {card}: no match, it goes to the field.": "{them}: {card}をめくる → 合う札がなく場に置く。",
    "{me} play {card} and take {taken}.": "{me}: {card}を出して{taken}を取る。",
    "{them} plays {card} and takes {taken}.": "{them}: {card}を出して{taken}を取る。",
    "{me} draw {card} and take {taken}.": "{me}: {card}をめくって{taken}を取る。",
    "{them} draws {card} and takes {taken}.": "{them}: {card}をめくって{taken}を取る。",
    "{me} called KOI-KOI!": "{me}: こいこい！",
    "{them} called KOI-KOI!": "{them}: こいこい！",
    # -- koi-koi stakes -----------------------------------------------------------------------
    "Their koi-koi: {stake}; the round goes on until someone stops.":
        "相手のこいこい: {stake}。誰かが勝負するまで続きます。",
    "Their koi-koi: {stake}; the next yaku either of you makes or raises ends the round.":
        "相手のこいこい: {stake}。次にどちらかが役を作るか上げると、この回戦は終わります。",
    "if you win this round, your score is doubled": "この回戦にあなたが勝てば得点は2倍",
    "whoever wins this round, the score is now multiplied by {n}": "どちらが勝っても得点は{n}倍",
    "each of their calls doubles their score if they win; beating them adds nothing":
        "相手が勝てば宣言ごとに相手の得点が2倍。相手に勝っても加点なし",
    "calls multiply nothing": "宣言による倍率なし",
    "Stop now: you score {points} (base {base} x{times}).":
        "今勝負すれば{points} (基本{base}点の{times}倍)。",
    "Stop now: you score {points}.": "今勝負すれば{points}。",
    "the round then ends as soon as either of you makes or raises a yaku":
        "こいこいすると、どちらかが役を作るか上げた時点でこの回戦は終わる",
    "the round then goes on until someone stops": "こいこいすると、誰かが勝負するまで続く",
    "Koi-koi: {after}; {risk}; {end}.": "こいこい: {after}。{risk}。{end}。",
    "if {them} wins it instead, {them}'s score is doubled": "{them}が先に上がれば{them}の得点は2倍",
    "each call raises the winner's multiplier by one, whoever wins": "宣言ごとに勝った方の倍率が1ずつ上がる",
    "each of your calls doubles your score if you win; nothing if you do not":
        "勝てば宣言ごとに得点が2倍、負ければ0点",
    "calls multiply nothing: you only play on for more yaku": "倍率は変わらず、役を増やすために続けるだけ",
    "if the hands run out first, nobody scores": "手札が尽きれば誰も得点しない",
    "if the hands run out first, only the dealer scores (oya-ken)": "手札が尽きれば親だけが得点 (親権)",
    "if the hands run out first, the last caller scores": "手札が尽きれば最後に宣言した方が得点",
    # -- the match screens --------------------------------------------------------------------
    "The match ended without a result.": "結果のないまま対局が終わりました。",
    "Your input ended: leaving the match.": "入力が終わりました。対局を離れます。",
    "Match stopped: the connection closed ({reason}).": "対局中止: 接続が切れました ({reason})。",
    "The opponent left or stopped answering.": "相手が退出したか、応答しなくなりました。",
    "Your time for this decision ran out: no more input is taken.":
        "持ち時間が切れました。これ以上の入力は受け付けません。",
    "{Them} may now sign a claim that you abandoned the match at this point.":
        "{Them}は、あなたがここで対局を放棄したという申し立てに署名できます。",
    "{Them} is deciding: koi-koi or stop": "{Them}が考え中: こいこいか勝負か",
    "{Them} is choosing a card to take": "{Them}が取る札を選んでいます",
    "{Them} is choosing a card to play": "{Them}が出す札を選んでいます",
    "waiting for {them}": "{them}を待っています",
    "s": "秒",
    "First dealer: {who}.": "最初の親: {who}。",
    "--- Round {n} (deal {deal}), dealer: {who} ---": "--- {n}回戦 (配り{deal}回目)、親: {who} ---",
    "Matching is compulsory under these rules: only the cards that capture are offered.":
        "このルールでは合う札があれば必ず取ります。取れる札だけを選べます。",
    "Your turn: which card do you play?": "あなたの番: どの札を出しますか？",
    "Play one card from your hand. A card matching a field card of its month captures it; otherwise it joins "
    "the field. Then the top card of the stock is turned over the same way.":
        "手札から1枚出します。場に同じ月の札があれば取り、なければ場に置きます。続いて山札の一番上を"
        "めくり、同じように取るか置くかします。",
    "Two field cards match: choose which one to take.": "場の2枚が合います。どちらを取るか選んでください。",
    "You made a yaku. Stop (shobu) scores it now; koi-koi plays on for more, but if your opponent scores "
    "first you get nothing and their points may be doubled.":
        "役ができました。勝負すれば今の役で得点します。こいこいすればさらに狙えますが、相手が先に"
        "上がるとあなたは0点で、相手の得点が2倍になることがあります。",
    "Your dealt hand makes a hand yaku: claim it to score it now (the cards are shown).":
        "配られた手札で手役ができています。申告すれば今得点します (札は公開されます)。",
    "You resigned; the result is being signed.": "投了しました。結果に署名しています。",
    "resign (the opponent wins the match)": "投了する (相手の勝ち)",
    "resign": "投了",
    "Resign: the opponent wins the match. Are you sure?": "投了すると相手の勝ちになります。よろしいですか？",
    "yes, resign": "はい、投了する",
    "no, go back": "いいえ、戻る",
    "yes": "はい",
    "no": "いいえ",
    "Opponent: {name}, key fingerprint {fp}": "相手: {name}、鍵の指紋 {fp}",
    "Opponent's key fingerprint: {fp}": "相手の鍵の指紋: {fp}",
    "WARNING: this opponent's key CHANGED since you last played this name. Someone may be in the middle, or "
    "your friend made a new key: ask them over another channel before going on.":
        "警告: この名前の相手の鍵が前回から変わっています。誰かが間に入っているか、友人が鍵を作り直した"
        "可能性があります。続ける前に別の手段で本人に確かめてください。",
    "Play on with the new key?": "新しい鍵のまま続けますか？",
    "no, stop here": "いいえ、ここでやめる",
    "yes, my friend made a new key": "はい、友人が鍵を作り直した",
    "Stopped: the opponent's key changed.": "中止しました: 相手の鍵が変わっています。",
    "The new key is remembered for this name.": "新しい鍵をこの名前で覚えました。",
    "Known opponent: the same key as last time.": "前回と同じ鍵の相手です。",
    "Security code: {sas}": "確認コード: {sas}",
    "(compare with your opponent; if it differs, someone is in the middle: quit)":
        "(相手と見比べてください。違っていれば誰かが間に入っています。やめてください)",
    "to the target score": "目標点まで",
    "Rules: {rules}, {length}  (koikoi rules {name} lists them).":
        "ルール: {rules}、{length}  (詳しくは koikoi rules {name})。",
    "custom, based on {base}": "{base} の変更版",
    "custom ({name}), based on {base}": "{base} の変更版「{name}」",
    "{switch} = {value} (the preset has {base})": "{switch} = {value} (元の設定は {base})",
    "Each player starts with a pool of {n} points; the loser of a round pays the winner, and a player who "
    "runs out loses the match.":
        "双方{n}点の持ち点で始め、回戦の負けた方が勝った方に払います。持ち点がなくなった方の負けです。",
    "Each player starts with a pool of {n} points; the loser of a round pays the winner.":
        "双方{n}点の持ち点で始め、回戦の負けた方が勝った方に払います。",
    "The first player to reach {n} points wins.": "先に{n}点に達した方の勝ちです。",
    # -- koikoi rules (the descriptions themselves: cli/rules_ja.py) -----------------------------
    "rule profile {name} (presets: {presets})": "ルール {name} (既定の設定: {presets})",
    "custom, based on {base}: {changes}": "{base} の変更版: {changes}",
    "switches (* = changed from the preset):": "スイッチ (* = 元の設定から変更):",
    "(The switch names that --switch NAME=VALUE takes are on the English screen and in --json.)":
        "(--switch NAME=VALUE で使うスイッチ名は英語の画面と --json に表示されます。)",
    "yaku:": "役:",
    # -- display names and rated matches -----------------------------------------------------
    "a display name has at most {n} characters": "表示名は{n}文字までです",
    "a display name has no space at either end": "表示名の最初と最後に空白は使えません",
    "a display name has no control, format or unassigned characters":
        "表示名に制御文字・書式文字・未割り当ての文字は使えません",
    "{fp} (no name chosen)": "{fp} (表示名なし)",
    "your name is now {shown}": "表示名を {shown} にしました",
    "no name: you are shown as {fp}": "表示名なし: {fp} と表示されます",
    "result": "結果",
    "abandonment claim": "放棄の申し立て",
    " Send it later: {koikoi} ratings submit {path} --to {url}":
        " 後で送るには: {koikoi} ratings submit {path} --to {url}",
    "no answer from {url}": "{url} から応答がありません",
    "the certificate of {url} is not trusted (--lang en says why)":
        "{url} の証明書は信頼できません (--lang en で理由を表示)",
    "The rating service did not take the {what}: {problem}.{later}":
        "レーティングサービスは{what}を受け取りませんでした: {problem}。{later}",
    "Rating service {url}: {answer}": "レーティングサービス {url}: {answer}",
    "{what} counted (number {seq})": "{what}を集計しました (番号 {seq})",
    "accepted; the service is still checking it": "受け付けました。サービスが確認中です",
    "already counted (number {seq}): nothing changed": "集計済みです (番号 {seq})。変更はありません",
    "refused ({status}, {reason})": "受け付けられませんでした ({status}, {reason})",
    "--switch {item}: {switch} does not take this value; it takes {allowed}":
        "--switch {item}: {switch} にこの値は使えません。使えるのは {allowed}",
    "--switch {item}: {switch} cannot take this value in these rules (koikoi rules --lang en says why)":
        "--switch {item}: このルールでは {switch} にこの値は使えません (理由は koikoi rules --lang en で"
        "表示)",
    # -- koikoi score and koikoi cards -------------------------------------------------------------
    "rules: {rules}": "ルール: {rules}",
    "rules: {rules}, month {month}": "ルール: {rules}、{month}月",
    "no yaku": "役なし",
    "base: {n}": "基本点: {n}",
    "none": "なし",
    "round score: {total} (winner {who}, calls {calls})":
        "回戦の得点: {total} (勝者 {who}、こいこい {calls})",
    "a call is A or B, not {text!r}": "こいこいは A か B で書きます ({text!r} ではなく)",
    "no card has the index {raw} (0-47)": "番号 {raw} の札はありません (0-47)",
    "; nearest: {ids}": "。近いもの: {ids}",
    "no card has the id {raw!r}{hint} (koikoi cards lists them all)":
        "{raw!r} という札はありません{hint} (一覧は koikoi cards)",
    "{rules} allows {limit} koi-koi call(s) by one player in a round, not {used}":
        "{rules} では1回戦に1人{limit}回までこいこいできます ({used}回ではなく)",
    "{rules} allows {limit} koi-koi call(s) in a round, not {used}":
        "{rules} では1回戦に{limit}回までこいこいできます ({used}回ではなく)",
    "a card is named twice": "同じ札が2回書かれています",
    "--month is the round's month, 1..12, not {month}":
        "--month はその回戦の月 (1..12) です ({month} ではなく)",
    "name the captured cards by id (or index), e.g. koikoi score 01-crane 03-curtain 08-moon. The ids:":
        "取り札を札のID (または番号) で書いてください。例: koikoi score 01-crane 03-curtain 08-moon。"
        "札のID:",
    "{item!r} is neither a month (1-12) nor a class (bright, animal, ribbon, plain)":
        "{item!r} は月 (1-12) でも種類 (光、タネ、短冊、カス) でもありません",
    "Both of you give --password (or neither): start a new room.":
        "二人とも --password を付けるか、どちらも付けないでください。部屋を作り直してください。",
    "The passwords differ (or someone in the middle guessed): agree on it again over another channel and "
    "start a new room.":
        "パスワードが違います (または間に入った誰かが推測を試みました)。別の手段でパスワードを決め直し、"
        "部屋を作り直してください。",
    "The opponent (or the relay) broke the protocol; the match is void.":
        "相手 (または中継サーバー) がプロトコルに違反しました。この対局は無効です。",
    "The relay could not be reached.": "中継サーバーに接続できませんでした。",
    "Match stopped: {what}.": "対局中止: {what}。",
    "Evidence saved: {path}": "証拠を保存しました: {path}",
    "the room passwords differ": "部屋のパスワードが一致しません",
    "one of you gave a room password and the other did not": "片方だけが部屋のパスワードを付けています",
    "the opponent did not answer in time": "相手が時間内に応答しませんでした",
    "the connection closed before the end": "終わる前に接続が切れました",
    "the opponent left": "相手が退出しました",
    "you refused the proposed terms": "提案された条件を断りました",
    "Your opponent hung up during the handshake: most likely the passwords differ. Agree on it again and "
    "start a new room.":
        "接続の確認中に相手が切断しました。パスワードが違う可能性が高いです。決め直して部屋を作り"
        "直してください。",
    "Your dealt hand makes {yaku}: {cards}. It is claimed for you (a hand yaku must be claimed) and ends the "
    "round.": "配られた手札で{yaku}ができています: {cards}。手役は申告が必須なので自動で申告し、この回戦は"
              "終わります。",
    "No hand yaku in your hand.": "手札に手役はありません。",
    "You made a yaku; no koi-koi is allowed here, so you stop and score.":
        "役ができました。ここではこいこいできないので勝負して得点します。",
    "position {n}": "位置 {n}",
    " -> takes {cards}": " → {cards}を取る",
    "Both matching cards are plains of that month (worth the same): you take one, {card}.":
        "合う2枚はどちらも同じ月のカス (価値は同じ) なので、{card}を取ります。",
    "koi-koi (play on)": "こいこい (続ける)",
    "stop (shobu: score now)": "勝負 (今得点する)",
    "claim {yaku}: {cards}": "{yaku}を申告: {cards}",
    "do not claim": "申告しない",
    "Two cards match: which do you take?": "2枚が合います: どちらを取りますか？",
    "You made a yaku: koi-koi or stop?": "役ができました: こいこいか勝負か？",
    "Your hand makes a hand yaku: which do you claim?": "手役があります: どれを申告しますか？",
    "Choose:": "選んでください:",
    "Two field cards match your {card}: which do you take?":
        "{card}に場の2枚が合います: どちらを取りますか？",
    " (you have {n})": " (持ち時間 {n})",
    "The match is a draw.": "引き分けです。",
    "You win the match!": "あなたの勝ちです！",
    "{Them} wins the match.": "{Them}の勝ちです。",
    "=== Final score: {me} {mine} - {theirs} {them}. {verdict} ===":
        "=== 最終得点: {me} {mine} - {theirs} {them}。{verdict} ===",
    "Transcript: {path}  (check it with: {koikoi} verify FILE)":
        "記録: {path}  (確かめるには: {koikoi} verify FILE)",
    "Transcript: {path}": "記録: {path}",
    # -- round summary ------------------------------------------------------------------------
    "stopped (shobu)": "勝負",
    "a yaku after a koi-koi ends the round": "こいこいの後に役ができて終了",
    "the hands ran out": "手札が尽きた",
    "the hands ran out: the dealer's point (oya-ken)": "手札が尽きた: 親の得点 (親権)",
    "a hand yaku in the dealt hand": "配られた手札の手役",
    "four cards of one month on the field: dealt again": "場に同じ月が4枚: 配り直し",
    "four pairs on the field: dealt again": "場に4組: 配り直し",
    "four cards of one month in a dealt hand: dealt again": "手札に同じ月が4枚: 配り直し",
    "both dealt hands held a hand yaku: dealt again": "双方の手札に手役: 配り直し",
    "redeal": "配り直し",
    "redeal (this deal does not count as a round)": "配り直し (この配りは回戦に数えません)",
    "round drawn": "引き分け",
    "{Who} won the round: {points} (base {base} x{times})": "{Who}の勝ち: {points} (基本{base}点の{times}倍)",
    "{Who} won the round: {points}": "{Who}の勝ち: {points}",
    "Round {n} over: {head}. [{why}]": "{n}回戦終了: {head}。[{why}]",
    "from the dealt hand": "配られた手札から",
    "Koi-koi calls this round: {who}": "この回戦のこいこい: {who}",
    "Your pile ({cards}): ": "あなたの取り札 ({cards}): ",
    "{Them}'s pile ({cards}): ": "{Them}の取り札 ({cards}): ",
    "Pools": "持ち点",
    "Scores": "得点",
    # -- prompts ------------------------------------------------------------------------------
    "Type the key in brackets, or the start of the choice's name (a card's month and mark such as 04R, its "
    "name, or its id such as 04-ribbon), and press Enter. A number alone is a month (4 or 04 is April), "
    "never a place in the list:":
        "[ ] の中のキー、または選択肢の名前の始め (04R のような札の月と印、札の名前、04-ribbon のような札の"
        "ID) を入力して Enter を押してください。数字だけなら月を表します (4 または 04 は四月)。"
        "一覧の何番目かではありません:",
    "Only the choices listed are legal here. Ctrl-C leaves the match.":
        "ここで選べるのは表示された選択肢だけです。Ctrl-C で対局を離れます。",
    "'{answer}' could be {options}: type its key.\n":
        "「{answer}」は {options} のどれとも取れます。キーを入力してください。\n",
    "'{answer}' is not one of the choices ({keys}); type ? for help.\n":
        "「{answer}」は選択肢にありません ({keys})。? でヘルプ。\n",
    " or ": " / ",
    "Press Enter to go on.": "Enter を押すと続きます。",
    # -- koikoi identity ------------------------------------------------------------------------
    "Fingerprint: {fp}": "指紋: {fp}",
    "Name: {name}": "表示名: {name}",
    "Name: (none)": "表示名: (なし)",
    "Key file: {path}": "鍵のファイル: {path}",
    "cannot read the passphrase file {file}: {problem}":
        "パスフレーズのファイル {file} を読めません: {problem}",
    "the passphrase file {file} is empty": "パスフレーズのファイル {file} が空です",
    "no terminal to ask for the passphrase: use --passphrase-file or KOIKOI_PASSPHRASE":
        "パスフレーズを尋ねる端末がありません。--passphrase-file か KOIKOI_PASSPHRASE を使ってください",
    "passphrase: ": "パスフレーズ: ",
    "the same passphrase again: ": "もう一度同じパスフレーズ: ",
    "the two passphrases differ: nothing was written": "2回のパスフレーズが違います。何も書いていません",
    "no terminal to ask for the passphrase; use --passphrase-file":
        "パスフレーズを尋ねる端末がありません。--passphrase-file を使ってください",
    "{file} exists: choose another name, or add --force":
        "{file} はすでにあります。別の名前にするか --force を付けてください",
    "a passphrase has at least {n} characters: nothing was written":
        "パスフレーズは{n}文字以上です。何も書いていません",
    "Wrote your identity ({fp}) to {file}. Keep the file and the passphrase apart: together they are you.":
        "あなたの身元 ({fp}) を {file} に書きました。ファイルとパスフレーズは別々に保管してください。"
        "両方そろえば、誰でもあなたとして対局できます。",
    "This device already has that identity ({fp}); its name is now the file's.":
        "この端末はすでにその身元 ({fp}) です。表示名をファイルのものにしました。",
    "Nothing changed.": "何も変えていません。",
    "Kept the identity it replaces in {file}.": "置き換える前の身元を {file} に残しました。",
    "This device now plays as {fp}{name}.": "この端末はこれから {fp}{name} として対局します。",
    "{file} is not a koikoi identity file": "{file} は koikoi の身元ファイルではありません",
    "{file} is an identity file of a newer version than this client reads":
        "{file} はこのクライアントが読めない新しい版の身元ファイルです",
    "{file} is damaged (cut short, or bytes were changed)":
        "{file} は壊れています (途中で切れているか、書き換えられています)",
    "the passphrase does not open {file} (or the file was altered)":
        "このパスフレーズでは {file} を開けません (またはファイルが書き換えられています)",
    "{file} opens but holds no valid identity": "{file} は開けましたが、正しい身元が入っていません",
    "this device already has an identity ({fp}): add --replace to replace it (it is kept as a backup)":
        "この端末にはすでに身元 ({fp}) があります。置き換えるには --replace を付けてください (元の身元は控え"
        "として残ります)",
    "This device already has an identity ({fp}); replace it? It is kept as a backup. [y/N] ":
        "この端末にはすでに身元 ({fp}) があります。置き換えますか? 元の身元は控えとして残ります。[y/N] ",
    "The language is remembered for every koikoi command from now on; --lang {other} switches back.":
        "この言語を記憶しました。これからはすべての koikoi コマンドが日本語になります。"
        "--lang {other} で元に戻ります。",
    "The next question is waiting and its clock runs: press Enter.":
        "次の質問が待っていて、持ち時間が減っています。Enter を押してください。",
    # -- setting up ---------------------------------------------------------------------------
    "Made your identity key ({path}).": "あなたの識別鍵を作りました ({path})。",
    "Your fingerprint: {fp}": "あなたの指紋: {fp}",
    "unknown rules preset {name!r}: the presets are {presets}.":
        "ルール {name!r} はありません。あるのは {presets} です。",
    "Practice against the computer ({level}).": "コンピューターと練習対局 ({level})。",
    "easy": "やさしい",
    "medium": "ふつう",
    "master": "名人",
    "strong": "強い",
    "The match so far is saved, marked incomplete: {path}": "ここまでの対局を未完として保存しました: {path}",
    "interrupted": "中断しました",
    "{problem}": "{problem}",
    "--switch {item}: {problem}": "--switch {item}: {problem}",
    " (did you mean {names}?)": " ({names} のことですか？)",
    "a switch is NAME=VALUE": "スイッチは NAME=VALUE の形で書きます",
    "no such switch": "そのスイッチはありません",
    "a preset's name is for that preset's own switches":
        "プリセットの名前は、そのプリセットどおりのルールにだけ使えます",
    # -- online -------------------------------------------------------------------------------
    "Room code: {code}": "部屋コード: {code}",
    "Send this to your friend:  {line}": "これを友人に送ってください:  {line}",
    "The room is listed in the lobby (koikoi lobby).": "この部屋はロビーに表示されます (koikoi lobby)。",
    "Waiting for your friend to join": "友人の参加を待っています",
    "nobody joined within {seconds}s; host a new room when your friend is ready (--wait sets how long to "
    "wait).": "{seconds}秒以内に誰も参加しませんでした。友人の準備ができたら部屋を作り直してください "
              "(待ち時間は --wait で変えられます)。",
    "Your friend joined.": "友人が参加しました。",
    "Joined room {code}.": "部屋 {code} に参加しました。",
    "{code!r} is not a room code: a code is six letters and digits, like K7QX2M (the host's screen shows "
    "it).": "{code!r} は部屋コードではありません。コードは K7QX2M のような英数字6文字です (ホストの画面に"
            "表示されます)。",
    "The match is saved after every message in {folder} (if this stops, continue with: {koikoi} resume).":
        "対局はやりとりのたびに {folder} に保存されます (止まったら {koikoi} resume で続けられます)。",
    "no interrupted match in {folder}": "{folder} に中断した対局はありません",
    "room {room} (you hosted)": "部屋 {room} (あなたがホスト)",
    "room {room} (you joined)": "部屋 {room} (あなたが参加)",
    "Several interrupted matches: which one?": "中断した対局が複数あります: どれを続けますか？",
    "The newest is listed first.": "新しいものから順に並んでいます。",
    "Resuming the match saved in {folder}.": "{folder} に保存した対局を再開します。",
    "cannot use the saved match in {folder}: {problem}": "{folder} の保存された対局は使えません: {problem}",
    "The match is saved in {folder}: continue it with {koikoi} resume.":
        "対局は {folder} に保存されています。{koikoi} resume で続けられます。",
    "no terminal to ask for the password: use --password-file or KOIKOI_PASSWORD":
        "パスワードを尋ねる端末がありません。--password-file か KOIKOI_PASSWORD を使ってください",
    "room password: ": "部屋のパスワード: ",
    "the same password again: ": "もう一度同じパスワード: ",
    "the password is empty": "パスワードが空です",
    "the two passwords differ: nothing was started": "2回のパスワードが違います。何も始めていません",
    "no terminal to ask for the password; use --password-file":
        "パスワードを尋ねる端末がありません。--password-file を使ってください",
    "No relay reachable at {url}: check the URL, or start one with 'koikoi relay'.":
        "{url} に中継サーバーが見つかりません。URL を確かめるか、koikoi relay で起動してください。",
    "Room not found: check the code, or ask your friend for a new one.":
        "部屋が見つかりません。コードを確かめるか、友人に新しいコードを頼んでください。",
    "Room full: someone else joined first. Ask your friend to host a new room.":
        "部屋は満員です。先に誰かが参加しました。友人に部屋を作り直してもらってください。",
    "The opponent left.": "相手が退出しました。",
    "The relay refused: {reason}.": "中継サーバーに断られました: {reason}。",
    "{url} is not a relay address: use ws://HOST:PORT (or wss://HOST behind TLS).":
        "{url} は中継サーバーのアドレスではありません。ws://HOST:PORT (TLS の場合は wss://HOST) の形です。",
    "The relay at {url} is full: try again later, or another relay.":
        "{url} の中継サーバーは満員です。後で試すか、別の中継サーバーを使ってください。",
    "The relay at {url} is shutting down: try again in a moment.":
        "{url} の中継サーバーは停止中です。少し待ってから試してください。",
    "The relay at {url} is not trusted: {reason}. Nothing was sent. If it uses its own "
    "CA, give that CA with --cafile FILE.":
        "{url} の中継サーバーは信頼できません: {reason}。何も送っていません。独自の認証局を使うサーバーなら、"
        "その認証局を --cafile FILE で指定してください。",
    # -- the lobby ----------------------------------------------------------------------------
    "code": "コード",
    "rules": "ルール",
    "rounds": "回戦",
    "password": "パスワード",
    "waiting": "待ち",
    "to join": "参加するには",
    "custom": "変更あり",
    "rated": "レーティング対局",
    "until {n} points": "{n}点先取",
    "no answer from the relay at {url} within {seconds}s":
        "{url} の中継サーバーから{seconds}秒以内に応答がありません",
    "No public rooms are waiting. Host one with: koikoi host --public":
        "待っている公開の部屋はありません。koikoi host --public で作れます",
    "A room with a password: ask its host for the password, then join with --password.":
        "パスワード付きの部屋は、ホストにパスワードを聞いてから --password を付けて参加します。",
    # -- the terms, resigning, our own deadline -----------------------------------------------
    "{Them} may now sign a claim that you abandoned the match at message {seq} (koikoi verify would "
    "report it so).":
        "{Them}は、あなたがメッセージ{seq}で対局を放棄したという申し立てに署名できます "
        "(koikoi verify はそう報告します)。",
    "Accepted (--accept).": "承諾しました (--accept)。",
    "Accept these terms?": "この条件で対局しますか？",
    "You resigned.": "あなたが投了しました。",
    "{Them} resigned.": "{Them}が投了しました。",
    "You refused the proposed terms: nothing was signed.":
        "提案された条件を断りました。何も署名していません。",
    "The host proposes these terms (nothing is signed until you accept):":
        "ホストが次の条件を提案しています (承諾するまで何も署名しません):",
    "Rules: {rules}": "ルール: {rules}",
    "Length: {length}": "長さ: {length}",
    "yes, play on these terms": "はい、この条件で対局する",
    "no, leave (nothing is signed)": "いいえ、退出する (何も署名しません)",
    "Time for each decision: {turn}; for each automatic step: {step}":
        "持ち時間: 1手ごとに{turn}、自動の手順ごとに{step}",
    "Rated: the result goes to the rating service {url}":
        "レーティング対象: 結果はレーティングサービス {url} に送られます",
    "Unrated: no rating service": "レーティング対象外",
    "Host: {name}, key fingerprint {fp}": "ホスト: {name}、鍵の指紋 {fp}",
    "Host: key fingerprint {fp} (no display name)": "ホスト: 鍵の指紋 {fp} (表示名なし)",
    "your time for a decision ran out": "持ち時間が切れました",
    "Choose a display name: opponents and leaderboards show it beside your fingerprint (up to 32 "
    "characters; Enter for none; `koikoi name NAME` changes it later).":
        "表示名を決めてください。対戦相手やランキングには指紋と並べて表示されます (32文字まで、"
        "なしは Enter、あとで `koikoi name NAME` で変更できます)。",
    "Name: ": "表示名: ",
    "{problem}; try again.": "{problem}。もう一度入力してください。",
    " (your name: {name})": " (表示名: {name})",
    "--ratings names the service of a rated match: add --rated":
        "--ratings はレーティング対象の対局のサービスを指定します: --rated を付けてください",
    "--ratings {url} is not a rating service URL: http(s)://HOST[:PORT], at most 200 characters":
        "--ratings {url} はレーティングサービスの URL ではありません: http(s)://HOST[:PORT]、200文字まで",
    "Rated match: the result goes to {url} (your friend sees it first).":
        "レーティング対象の対局: 結果は {url} に送られます (相手には対局前に表示されます)。",
    # -- koikoi verify (the audit's own sentences: the catalogue, koikoi_p2p/locale) ----------------
    "cannot read {file}: {problem}": "{file} を読めません: {problem}",
    "cannot write {file}: {problem}": "{file} に書き込めません: {problem}",
    "Wrote the match report to {file} (open it in a browser).":
        "対局の報告を {file} に書きました (ブラウザで開いてください)。",
    "--result takes one file": "--result に渡せるファイルは1つです",
    "note: {file} is {kind}, not a co-signed result: checking it as one":
        "注意: {file} は双方署名の結果ではなく{kind}です。{kind}として確かめます",
    "a transcript": "対局の記録",
    "an evidence file": "証拠ファイル",
    "an abandonment file": "放棄の申し立てファイル",
    "a co-signed result": "双方署名の結果",
    "koikoi verify reads transcripts, evidence and abandonment files, and co-signed .result files":
        "koikoi verify が読むのは対局の記録、証拠ファイル、放棄の申し立てファイルと双方署名の結果ファイル"
        "です",
    "INVALID file at message {index}: {why}": "無効なファイル (メッセージ{index}): {why}",
    "INVALID file: {why}": "無効なファイル: {why}",
    " ({hint})": " ({hint})",
    "INVALID file: {file} is no transcript, evidence, abandonment file or co-signed result ({hint})":
        "無効なファイル: {file} は対局の記録でも証拠ファイルでも放棄の申し立てファイルでも双方署名の結果"
        "でもありません ({hint})",
    "INVALID co-signed result: {why}": "無効な双方署名の結果: {why}",
    "cannot compare the two files: {why}": "2つのファイルを比べられません: {why}",
    "the claim holds": "申し立ては成り立ちます",
    "the claim does NOT hold": "申し立ては成り立ちません",
    "the evidence proves the deviation": "証拠は違反を証明しています",
    "the evidence does NOT prove a deviation": "証拠は違反を証明していません",
    "INVALID transcript: {finding}": "無効な記録: {finding}",
    "INCOMPLETE transcript: not a finished, verified match ({messages})":
        "未完の記録: 最後まで終わり確かめられた対局ではありません (メッセージ{messages})",
    "valid transcript: {rules}, {rounds}, {messages}; result co-signed by both":
        "正しい記録: {rules}、{rounds}、メッセージ{messages}。結果には双方が署名しています",
    "valid co-signed result: {rules}, {rounds}; signed by both players' keys (this shows who agreed to the "
    "outcome, not that the match was played by the rules: the transcript shows that)":
        "正しい双方署名の結果: {rules}、{rounds}。両プレイヤーの鍵で署名されています (誰が結果に同意したかを"
        "示すもので、対局がルール通りだったことは示しません。それを示すのは対局の記録です)",
    "player {seat} resigned": "プレイヤー{seat}が投了",
"rated: the players agreed to send it to a rating service":
        "レーティング対象: 両者がレーティングサービスへ送ることに同意しています",
    "not rated": "レーティング対象外",
    "host": "ホスト",
    "joined": "参加者",
    "player {seat} ({role}): {who}": "プレイヤー{seat} ({role}): {who}",
    " (you)": " (あなた)",
    "drawn": "引き分け",
    "player {seat} won {points}": "プレイヤー{seat}の勝ち {points}",
    "  round {n}: {won}": "  {n}回戦: {won}",
    "a draw": "引き分け",
    "player {seat} wins": "プレイヤー{seat}の勝ち",
    "final scores: player 0 {first} - {second} player 1 ({verdict})":
        "最終得点: プレイヤー0 {first} - {second} プレイヤー1 ({verdict})",
    # -- koikoi ratings ---------------------------------------------------------------------------
"{url} is not a relay or rating service URL":
        "{url} は中継サーバーのアドレスでもレーティングサービスのアドレスでもありません",
    "{url} answered {status}: {reason}": "{url} の応答 {status}: {reason}",
    "{service}: {players} rated players, {results} co-signed results":
        "{service}: レーティング対象のプレイヤー{players}人、双方署名の結果{results}件",
    "rating": "レート",
    "games": "対局",
    "W-L-D": "勝-敗-分",
    "aband.": "放棄",
    "fingerprint": "指紋",
    "name": "表示名",
    "(no name)": "(表示名なし)",
    "names are not unique: the fingerprint is the identity; 'aband.' counts abandonment claims, shown but "
    "never rated":
        "表示名は重なることがあります。本人を示すのは指紋です。「放棄」は放棄の申し立ての数で、表示"
        "されますがレーティングには数えません",
    "no such player": "そのプレイヤーはいません",
    "{who}  {fp}: rating {rating} ± {deviation}, {games} games, {abandoned} abandonment claims":
        "{who}  {fp}: レート {rating} ± {deviation}、{games}局、放棄の申し立て{abandoned}件",
    "  #{seq} {outcome} against {who} ({opponent}...)  {before} -> {after}":
        "  #{seq} {outcome} 相手 {who} ({opponent}...)  {before} → {after}",
    "win": "勝ち",
    "loss": "負け",
    "draw": "分け",
    "cannot open the rating store {db} (koikoi ratings serve --lang en says why)":
        "レーティングのデータベース {db} を開けません (理由は koikoi ratings serve --lang en で表示)",
    "ratings listening on {url} ({store})": "レーティングサービスを {url} で開始しました ({store})",
    "--tls-cert and --tls-key go together": "--tls-cert と --tls-key は一緒に指定してください",
    "cannot load the certificate: {problem}": "証明書を読み込めません: {problem}",
    "cannot read {file}: not a JSON export (--lang en says why)":
        "{file} を読めません: エクスポートのファイル形式ではありません (理由は --lang en で表示)",
"the export cannot be replayed (--lang en says why)":
        "エクスポートを再生できません (理由は --lang en で表示)",
    "recomputed from {file}": "{file} から再計算",
    "equal to the leaderboard of {url}: {results}": "{url} のランキングと一致: 結果{results}",
    "DIFFERENT from the leaderboard of {url}": "{url} のランキングと一致しません",
}

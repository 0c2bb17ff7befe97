"""The Japanese of every ``--help`` text (cli/help_text.py): keys are the English texts with their
whitespace collapsed; flags, metavars, preset names, file names and technical names (JSON, Redis,
TCP) stay as they are typed. A unit test checks that every help text of every command is here."""

from __future__ import annotations

import re

HELP_JA: dict[str, str] = {
    # -- what argparse itself prints --------------------------------------------------------------
    "usage:": "使い方:",
    "positional arguments": "位置引数",
    "options": "オプション",
    "show this help message and exit": "このヘルプを表示して終了する",
    "show program's version number and exit": "プログラムの版を表示して終了する",
    "exit codes:": "終了コード:",
    # -- koikoi -----------------------------------------------------------------------------------
    "Play Koi-Koi peer to peer with no one to trust: not the opponent, not the relay.":
        "誰も信用せずに、こいこいを一対一で遊ぶ。相手も中継サーバーも信用しなくてよい。",
    "the language of the screens and of --help: en or ja (default: the remembered one, first en)":
        "画面と --help の言語: en か ja (既定: 覚えている言語、最初は en)",
    "measure speed against a floor or baseline measured in the same run":
        "同じ実行で測った下限や基準と比べて速さを測る",
    "score a captured pile: yaku, base and round score under a rule profile":
        "取り札を採点する: ルールのもとでの役、基本点、回戦の得点",
    "list the 48 cards: id, month, class and name in English and Japanese":
        "48枚の札を一覧にする: ID、月、種類、英語と日本語の名前",
    "show a rule preset: its switches and yaku table": "既定のルールを表示する: スイッチと役の表",
    "play a match against the computer (no network)": "コンピューターと対局する (ネットワーク不要)",
    "open a room and play the friend who joins it": "部屋を作り、参加した友人と対局する",
    "join a friend's room by its code": "部屋コードで友人の部屋に参加する",
    "list the public rooms on a relay": "中継サーバーの公開の部屋を一覧にする",
    "run the websocket relay that pairs peers in rooms and forwards their opaque frames":
        "部屋で対局者を組み合わせ、中身の見えないフレームを転送する WebSocket 中継サーバーを動かす",
    "the leaderboard of a rating service (and: serve one, recompute one from its export)":
        "レーティングサービスのランキング (サービスの起動、エクスポートからの再計算も)",
    "show or change your display name (shown beside your fingerprint)":
        "表示名を表示・変更する (指紋と並べて表示されます)",
    "continue an interrupted match from its saved state": "中断した対局を保存した状態から続ける",
    "two computer peers play a match through the full protocol":
        "コンピューター同士が完全なプロトコルで対局する",
    "replay a transcript or evidence file, or check a co-signed result":
        "対局の記録や証拠ファイルを再生する、または双方署名の結果を確かめる",
    "serve the browser app on 127.0.0.1 (or check a served copy against this release)":
        "ブラウザー版を 127.0.0.1 で配信する (または配信されている版をこのリリースと照合する)",
    # -- koikoi bench -----------------------------------------------------------------------------
    "Run one benchmark. Results are ratios against a floor or baseline of the same run.":
        "ベンチマークを1つ実行する。結果は同じ実行で測った下限や基準との比です。",
    "the 48-card shuffle, its proof and verification, DLEQ shares, a round setup":
        "48枚のシャッフルとその証明・検証、DLEQ シェア、回戦の準備",
    "random full rounds per second through the rules engine": "ルールエンジンでの1秒あたりのランダムな回戦数",
    "relay throughput and memory per connection against a minimal forwarder":
        "最小の転送プログラムと比べた中継サーバーの処理量と接続ごとのメモリー",
    "a 12-round selfplay match in memory: time in group operations, bytes per round":
        "メモリー内での12回戦の自己対局: 群演算の時間、回戦ごとのバイト数",
    "koikoi verify of a 12-round transcript against version 1's verifier, and its floor":
        "12回戦の記録での koikoi verify を第1版の検証器および下限と比べる",
    "the strong computer player against the random one over nintendo matches":
        "nintendo の対局で強いコンピューターとランダムなコンピューターを比べる",
    "selfplay matches through the relay and a chaos proxy with random kills":
        "中継サーバーと障害を起こすプロキシーを通し、ランダムに停止させながら自己対局する",
    "rated selfplay matches through a relay serving ratings: every result counted once, the leaderboard "
    "equal to a recomputation of the export":
        "レーティング付きの中継サーバーを通したレーティング対象の自己対局: どの結果も1回だけ数えられ、ラン"
        "キングがエクスポートからの再計算と一致すること",
    "round trips, decision-to-screen time and per-envelope overhead of the crash-safe path through a relay "
    "and a delay proxy":
        "中継サーバーと遅延プロキシーを通した、障害に強い経路の往復回数、決定から画面までの時間、メッセージ"
        "ごとの負荷",
    "print a JSON list of measurements": "測定値を JSON の一覧で表示する",
    "timed runs per step (median)": "手順ごとの計測回数 (中央値)",
    "deck size (at least 24, for the deal)": "山札の枚数 (配るため24枚以上)",
    "rounds per timed batch (default 2000)": "計測1回あたりの回戦数 (既定 2000)",
    "timed batches; the median is kept (default 5)": "計測回数。中央値を使います (既定 5)",
    "seed of the simulated deals and moves": "模擬の配りと手の乱数の種",
    "short run: fewer repeats and connections": "短い実行: 繰り返しと接続を減らす",
    "seconds measured per throughput run": "処理量の計測1回あたりの秒数",
    "idle connections for the memory run": "メモリー計測での待機中の接続数",
    "room counts, comma-separated (default 1,100,1000; with --cluster 1,100)":
        "部屋の数、カンマ区切り (既定 1,100,1000。--cluster のときは 1,100)",
    "also measure a relay cluster of N nodes on one redis-server, e.g. 1,2,4 "
    "(with --hostile: a two-node cluster unless 0)":
        "1つの redis-server の上の N ノードの中継クラスターも測る。例: 1,2,4 "
        "(--hostile のときは 0 でなければ 2 ノードのクラスター)",
    "honest pairs' round trips and the relay's memory with attackers doing the "
    "worst each limit allows, against the same run without (default rooms 100,1000)":
        "攻撃者が各制限の許す限りの最悪を行う中での、誠実な対の往復時間と中継サーバーのメモリーを、"
        "攻撃者のいない同じ計測と比べる (既定の部屋数 100,1000)",
    "with --hostile: interleaved runs with and without attackers (default 2)":
        "--hostile のとき: 攻撃者ありとなしを交互に行う計測の回数 (既定 2)",
    "behind a proxy: take a connection's address, for the per-source limits, from "
    "the last entry of this request header set by the proxy (e.g. X-Forwarded-For); "
    "only with a proxy that sets it, or clients choose their own address":
        "プロキシの後ろで: 送信元ごとの制限に使う接続のアドレスを、プロキシが設定するこのリクエスト"
        "ヘッダーの最後の値から取る。そのヘッダーを設定するプロキシがあるときだけ"
        "使うこと。さもないとクライアントが自分のアドレスを選べてしまう",
    "rounds of the match (default 12)": "対局の回戦数 (既定 12)",
    "timed matches (median)": "計測する対局数 (中央値)",
    "seed of the match (same in every run)": "対局の乱数の種 (どの実行でも同じ)",
    "rule preset": "既定のルール",
    "timed runs of each verifier (median)": "各検証器の計測回数 (中央値)",
    "rounds of the selfplay match (default 12)": "自己対局の回戦数 (既定 12)",
    "seed of the selfplay match": "自己対局の乱数の種",
    "audit this transcript file instead": "代わりにこの記録ファイルを検査する",
    "matches per pair and preset (default 200)": "組み合わせとルールごとの対局数 (既定 200)",
    "comma-separated presets (default nintendo,koikoi-online,wikipedia)":
        "カンマ区切りの既定のルール (既定 nintendo,koikoi-online,wikipedia)",
    "comma-separated pairs such as master-strong,greedy-random (default all)":
        "カンマ区切りの組み合わせ。例: master-strong,greedy-random (既定: すべて)",
    "the master's playouts per decision (default 150)": "名人の1手あたりの試行回数 (既定 150)",
    "seed of the deals and the players": "配りとプレイヤーの乱数の種",
    "how many matches (default 200)": "対局数 (既定 200)",
    "matches at a time (default 2)": "同時に行う対局数 (既定 2)",
    "stop starting matches after this": "この時間を過ぎたら新しい対局を始めない",
    "Python against JavaScript seats in seeded matches (presets, switch sets, levels, forced rare deals), "
    "every transcript judged by both auditors: disagreements and failed matches (not in CI)":
        "パイソン版とジャバスクリプト版の席が種付きの対局をする (既定のルール、スイッチの組、強さ、"
        "まれな配りを強制)。記録はすべて両方の検証器で判定し、食い違いと失敗した対局を数える "
        "(CI では実行しない)",
    "append one JSON line per match here; the summary then covers the whole file":
        "対局ごとに JSON を1行ここに追記する。まとめはファイル全体について出す",
    "first match index (resume a campaign)": "最初の対局番号 (途中から再開するとき)",
    "matches to play (default 1000)": "行う対局数 (既定 1000)",
    "playouts of a master's decision": "名人の1手あたりのプレイアウト数",
    "stop starting matches after this (default 6 hours)":
        "この時間を過ぎたら新しい対局を始めない (既定 6時間)",
    "the campaign's seed (default 1)": "一連の対局の種 (既定 1)",
    "run the relay as N cluster nodes on one redis-server, with node kills":
        "1つの redis-server の上の N ノードのクラスターとして中継サーバーを動かし、ノードを停止させる",
    "keep the state folders and transcripts here": "状態フォルダーと記録をここに残す",
    "rated matches to play (default 200)": "レーティング対象の対局数 (既定 200)",
    "computer players in the pool (default 8)": "参加するコンピューターの数 (既定 8)",
    "the service's database (default: a new SQLite file in a temporary folder)":
        "サービスのデータベース (既定: 一時フォルダーの新しい SQLite ファイル)",
    "matches played at once (default 2)": "同時に行う対局数 (既定 2)",
    "seed of the pairings and the players' choices": "組み合わせとプレイヤーの選択の乱数の種",
    "one-way delays in ms, 0 first (default 0,25,50)": "片道の遅延 (ミリ秒)、0 から (既定 0,25,50)",
    "runs per delay, interleaved (medians)": "遅延ごとの実行回数、交互に実行 (中央値)",
    # -- koikoi score, cards, rules ---------------------------------------------------------------
    "Print the yaku and base total of a captured pile (card ids such as 01-crane) and the round score after"
    " the profile's doubling and koi-koi multiplier. --calls lists the round's koi-koi calls in order by "
    "seat (A or B); --winner says whose pile it is (default A).":
        "取り札 (01-crane のような札のID) の役と基本点の合計、およびルールの倍付けとこいこいの倍率をかけた"
        "回戦の得点を表示します。--calls はその回戦のこいこいを席 (A か B) の順に並べたもの、--winner は誰"
        "の取り札かを示します (既定 A)。",
    "rule preset (default: nintendo)": "既定のルール (既定: nintendo)",
    "change a switch of the preset (repeatable): cup_is_plain=false, hand_yaku=teshi:6":
        "既定のルールのスイッチを変える (繰り返し可): cup_is_plain=false、hand_yaku=teshi:6",
    "the round's month, 1..12": "その回戦の月、1..12",
    "koi-koi calls of the round, in order": "その回戦のこいこい、順に",
    "the seat whose pile it is (default A)": "取り札の持ち主の席 (既定 A)",
    'print {"yaku": {...}, "base": N, "round_score": N}':
        '{"yaku": {...}, "base": N, "round_score": N} を表示する',
    "captured cards: ids (koikoi cards lists them), indices 0-47 or names":
        "取り札: 札のID (一覧は koikoi cards)、番号 0-47 または名前",
    "the language of the output: en or ja (default: the one the last match used, first en)":
        "出力の言語: en か ja (既定: 前回の対局の言語、最初は en)",
    "List the 48 cards with the ids that koikoi score takes (such as 03-curtain), the code the board shows "
    "(month and class mark: * bright, A animal, R ribbon, . plain), and the names in English and Japanese. "
    "MONTH or CLASS narrows the list.":
        "48枚の札を、koikoi score で使うID (03-curtain など)、盤面に出る記号 (月と印: * 光、A タネ、R 短冊"
        "、. カス)、英語と日本語の名前とともに一覧にします。MONTH か CLASS で絞り込めます。",
    "a month number (1-12) or a class (bright, animal, ribbon, plain)":
        "月の番号 (1-12) または種類 (光、タネ、短冊、カス)",
    "print the cards as a JSON list": "札を JSON の一覧で表示する",
    "Print a rule preset's switches and its yaku table (default: nintendo). Presets: nintendo, "
    "koikoi-online, teaching-card, wikipedia, board-game, classic-variant.":
        "既定のルールのスイッチと役の表を表示します (既定: nintendo)。既定のルール: nintendo、koikoi-online"
        "、teaching-card、wikipedia、board-game、classic-variant。",
    "preset name": "既定のルールの名前",
    "change one switch of the preset (repeatable): true/false, a number, one of the listed words, 10,8,7,5,"
    " teshi:6,kuttsuki:6, card ids or months, none":
        "既定のルールのスイッチを1つ変える (繰り返し可): true/false、数、表示された語のどれか、10,8,7,5、te"
        "shi:6,kuttsuki:6、札のIDか月、none",
    "print the profile and yaku table as JSON": "ルールと役の表を JSON で表示する",
    # -- koikoi practice, host, join, lobby -------------------------------------------------------
    "Play a whole match against the computer on this machine. The computer is a real peer of the protocol "
    "over an in-memory connection: it shuffles, proves and signs like a person would, and every proof it "
    "sends is checked.":
        "この機械の上でコンピューターと1試合を通して対局します。コンピューターはメモリー内の接続でつながる"
        "本物の対局者で、人と同じようにシャッフルし、証明し、署名します。送られてくる証明はすべて確かめます"
        "。",
    "rule preset: nintendo, koikoi-online, teaching-card, wikipedia, board-game, classic-variant (default: "
    "nintendo)":
        "既定のルール: nintendo、koikoi-online、teaching-card、wikipedia、board-game、classic-variant (既定"
        ": nintendo)",
    "match length (default: the preset's)": "対局の長さ (既定: そのルールの長さ)",
    "change one switch of the preset (repeatable; VALUE as JSON or a word, e.g. exhaustion=oya_ken, "
    "max_calls_per_round=1; koikoi rules PRESET lists them)":
        "既定のルールのスイッチを1つ変える (繰り返し可。VALUE は JSON か語。例: exhaustion=oya_ken、max_cal"
        "ls_per_round=1。一覧は koikoi rules PRESET)",
    "the computer's strength: easy (random), medium (greedy), strong, master (searches, up to a second a "
    "move) (remembered; default: medium for a first match, then the last one)":
        "コンピューターの強さ: easy (やさしい: ランダム)、medium (ふつう: 貪欲)、strong (強い)、master (名"
        "人: 探索、1手に最大1秒) (覚えておきます。既定: 最初の対局は medium、その後は前回の強さ)",
    "master only: the longest it may think about one move (default 1 second; its 1000 playouts a move "
    "usually take well under that)":
        "master のみ: 1手に考える最長の時間 (既定 1秒。1手あたり1000回の試行はたいていそれよりずっと"
        "短く済みます)",
    "the language of the screens: en or ja (remembered; default: the last one, first en)":
        "画面の言語: en か ja (覚えておきます。既定: 前回の言語、最初は en)",
    "Open a room on a relay, print its code and a line to send to a friend, and play them. Without a "
    "password, compare the short authentication string both screens show.":
        "中継サーバーに部屋を作り、部屋コードと友人に送る1行を表示して、その友人と対局します。パスワードが"
        "なければ、双方の画面に出る確認コードを見比べてください。",
    "relay websocket URL (default: $KOIKOI_RELAY or ws://127.0.0.1:8765/v1)":
        "中継サーバーの WebSocket の URL (既定: $KOIKOI_RELAY または ws://127.0.0.1:8765/v1)",
    "trust only the CA certificates in this PEM file for wss:// and https:// (default: $SSL_CERT_FILE, else "
    "the system's trust store)":
        "wss:// と https:// で、この PEM ファイルの認証局の証明書だけを信頼する (既定: $SSL_CERT_FILE、なけれ"
        "ばシステムの信頼ストア)",
    "list the room in the relay's lobby (default: unlisted, join by its code)":
        "部屋を中継サーバーのロビーに載せる (既定: 載せず、部屋コードで参加)",
    "ask for a room password, twice (hidden prompt, or $KOIKOI_PASSWORD when set; default: no password, "
    "compare the security code instead)":
        "部屋のパスワードを2回尋ねる (表示しない入力、または設定されていれば $KOIKOI_PASSWORD。既定: パスワ"
        "ードなしで、代わりに確認コードを見比べる)",
    "read the password from the first line of FILE (implies --password)":
        "FILE の1行目からパスワードを読む (--password を含む)",
    "remember the opponent's key under NAME (trust on first use) and warn if it ever changes":
        "相手の鍵を NAME で覚え (初回の相手を信用)、変わったときに警告する",
    "seconds each player gets for a decision (proposed in the match terms; default: 300)":
        "1手ごとの持ち時間 (秒、対局条件として提案。既定: 300)",
    "propose a rated match: results go to a rating service (the joiner is told)":
        "レーティング対象の対局を提案する: 結果はレーティングサービスに送られます (参加者に伝えます)",
    "the rating service of a rated match (default: the relay's, http(s)://HOST:PORT)":
        "レーティング対象の対局のレーティングサービス (既定: 中継サーバーのもの、http(s)://HOST:PORT)",
    "how long the room waits for your friend to join (default: 600)":
        "友人の参加を部屋が待つ秒数 (既定: 600)",
    "Join the room with this code and play its host. The host proposes the rules, the match length and the "
    "time each player gets for a decision; they are shown before you accept them.":
        "このコードの部屋に参加してホストと対局します。ルール、対局の長さ、1手ごとの持ち時間はホストが提案"
        "し、承諾する前に表示されます。",
    "the six-character room code": "6文字の部屋コード",
    "the room has a password: ask for it (hidden prompt, or $KOIKOI_PASSWORD when set)":
        "部屋にパスワードがある: 尋ねる (表示しない入力、または設定されていれば $KOIKOI_PASSWORD)",
    "accept the host's proposed terms without asking (for scripts; default: ask)":
        "ホストの提案した条件を尋ねずに承諾する (スクリプト用。既定: 尋ねる)",
    "List the rooms opened with 'koikoi host --public' that are waiting for a player, each with the line "
    "that joins it.":
        "koikoi host --public で作られ、参加者を待っている部屋を、参加するための1行とともに一覧にします。",
    "print the rooms as a JSON list": "部屋を JSON の一覧で表示する",
    "give up when the relay has not answered within SECONDS (default: 10)":
        "中継サーバーが SECONDS 秒以内に応答しなければあきらめる (既定: 10)",
    # -- koikoi relay -----------------------------------------------------------------------------
    "Run the relay (also `python -m koikoi_relay`). It never sees cards, keys or moves. Stop it with "
    "SIGTERM or Ctrl-C: peers are told and connections drained.":
        "中継サーバーを動かします (python -m koikoi_relay でも)。札も鍵も手も中継サーバーには見えません。SI"
        "GTERM か Ctrl-C で止めると、対局者に知らせてから接続を閉じます。",
    "address to listen on (default 127.0.0.1)": "待ち受けるアドレス (既定 127.0.0.1)",
    "TCP port (default 8765; 0 picks a free one)": "TCP ポート (既定 8765。0 なら空いているものを選ぶ)",
    "also serve the browser app at / (beside the protocol at /v1), with a strict Content-Security-Policy; "
    "the page connects only to this relay":
        "ブラウザー版も / で配信する (プロトコルは /v1)。厳しい Content-Security-Policy 付きで、ページはこ"
        "の中継サーバーにだけ接続します",
    "be one node of a relay cluster whose rooms live in this Redis, e.g. redis://127.0.0.1:6379/0 (default:"
    " $KOIKOI_RELAY_REDIS; unset: a single process, rooms in memory)":
        "部屋をこの Redis に置く中継クラスターのノードになる。例: redis://127.0.0.1:6379/0 (既定: $KOIKOI_R"
        "ELAY_REDIS。未設定なら1プロセスで、部屋はメモリー内)",
    "prefix of every Redis key (one prefix per cluster; default koikoi:)":
        "Redis のキーの接頭辞 (クラスターごとに1つ。既定 koikoi:)",
    "this node's name in Redis, letters and digits (default: random)":
        "Redis でのこのノードの名前、英数字 (既定: ランダム)",
    "also run the rating service in this process, on --ratings-port, storing in DB_URL: sqlite:///PATH or "
    "postgresql://USER@HOST:PORT/DB ('default': ratings.sqlite3 in the data folder); the relay's port "
    "redirects GET /ratings... there":
        "このプロセスでレーティングサービスも --ratings-port で動かす。"
        "保存先は DB_URL: sqlite:///PATH または postgresql://USER@HOST:PORT/DB "
        "('default' ならデータフォルダーの ratings.sqlite3)。"
        "中継サーバーのポートは GET /ratings... をそちらへ転送する",
    "the rating service's port (default 8766, or a free one when --port is 0)":
        "レーティングサービスのポート (既定 8766。--port が 0 なら空いているもの)",
    "cluster (spec/relay.md §13)": "クラスター (spec/relay.md §13)",
    "TLS (spec/relay.md §14)": "TLS (spec/relay.md §14)",
    "serve wss:// and https:// with this PEM certificate chain (needs --tls-key; SIGHUP reads both files "
    "again for new connections)":
        "この PEM 証明書チェーンで wss:// と https:// を提供する (--tls-key が必要。SIGHUP で両方のファイル"
        "を読み直し、新しい接続から使う)",
    "the PEM private key of --tls-cert": "--tls-cert の PEM 秘密鍵",
    "limits": "上限",
    # -- koikoi ratings ---------------------------------------------------------------------------
    "Show the leaderboard of the rating service of a relay (ratings count only co-signed results of rated "
    "matches). `koikoi ratings serve` runs a service, `koikoi ratings recompute FILE` rebuilds a "
    "leaderboard from an export.":
        "中継サーバーのレーティングサービスのランキングを表示します (数えるのはレーティング対象の対局の双方"
        "署名の結果だけです)。koikoi ratings serve でサービスを動かし、koikoi ratings recompute FILE でエク"
        "スポートからランキングを作り直します。",
    "the relay (ws://, wss://) or rating service (http://, https://) to ask (default: $KOIKOI_RELAY or the "
    "local relay)":
        "問い合わせる中継サーバー (ws://、wss://) またはレーティングサービス (http://、https://) (既定: $KO"
        "IKOI_RELAY またはこの機械の中継サーバー)",
    "show one player's history (a fingerprint, or the key in hex)":
        "1人のプレイヤーの履歴を表示する (指紋、または16進数の鍵)",
    "print the service's JSON": "サービスの JSON を表示する",
    "run a rating service": "レーティングサービスを動かす",
    "rebuild the leaderboard from an export (GET /ratings/results)":
        "エクスポートからランキングを作り直す (GET /ratings/results)",
    "send a co-signed result file to a rating service": "双方署名の結果ファイルをレーティングサービスに送る",
    "Run a rating service on its own port (HTTP, or HTTPS with --tls-cert and --tls-key; SIGHUP reloads "
    "the certificate). `koikoi relay --ratings DB_URL` runs one beside a relay in the same process.":
        "レーティングサービスを専用のポートで動かします (HTTP。--tls-cert と --tls-key を付けると HTTPS で、"
        "SIGHUP で証明書を読み直します)。koikoi relay --ratings DB_URL なら中継サーバーと同じプロセスで動かし"
        "ます。",
    "serve https:// with this certificate chain (PEM); SIGHUP reloads it":
        "この証明書チェーン (PEM) で https:// を提供する。SIGHUP で読み直す",
    "the certificate's private key (PEM)": "証明書の秘密鍵 (PEM)",
    "a proxy in front of the service (repeatable): not capped per address, its X-Forwarded-For names "
    "the client":
        "サービスの前に置くプロキシ (繰り返し可): アドレスごとの上限を受けず、そのプロキシが伝える転送元のア"
        "ドレスを接続元とみなす",
    "limits (spec/ratings.md §7.5)": "上限 (spec/ratings.md §7.5)",
    "sqlite:///PATH or postgresql://USER@HOST:PORT/DB (default: ratings.sqlite3 in the data folder)":
        "sqlite:///PATH または postgresql://USER@HOST:PORT/DB (既定: データフォルダーの ratings.sqlite3)",
    "TCP port (default 8766; 0 picks a free one)": "TCP ポート (既定 8766。0 なら空いているものを選ぶ)",
    "Check every result of an export again, replay them in their order through the same rating rule and "
    "print the leaderboard; with --compare, exit 1 unless it equals the service's exactly.":
        "エクスポートのすべての結果を確かめ直し、同じレーティングの規則で順に再生してランキングを表示します"
        "。--compare を付けると、サービスのものと完全に一致しなければ 1 で終了します。",
    "the export (JSON; - for standard input)": "エクスポート (JSON。- なら標準入力)",
    "the relay or rating service whose leaderboard must be equal":
        "ランキングが一致すべき中継サーバーまたはレーティングサービス",
    "print the leaderboard as JSON": "ランキングを JSON で表示する",
    "Send a co-signed result (the .result file beside a transcript) to a rating service. The first "
    "submission counts; sending it again changes nothing.":
        "双方署名の結果 (記録の隣の .result ファイル) をレーティングサービスに送ります。数えられるのは最初"
        "の送信で、もう一度送っても何も変わりません。",
    "the co-signed result file": "双方署名の結果ファイル",
    "the relay or rating service (default: $KOIKOI_RELAY or the local relay)":
        "中継サーバーまたはレーティングサービス (既定: $KOIKOI_RELAY またはこの機械の中継サーバー)",
    "print the service's answer as JSON": "サービスの応答を JSON で表示する",
    # -- koikoi name, resume, selfplay, verify, web -----------------------------------------------
    "Show or set the display name your identity key signs in every match: up to 32 characters, shown to "
    "opponents and on leaderboards beside your fingerprint. Names are not unique; the fingerprint is the "
    'identity. `koikoi name ""` clears it.':
        "識別鍵が対局ごとに署名する表示名を表示・設定します。32文字まで、対戦相手とランキングに指紋と並べて"
        '表示されます。表示名は重なることがあり、本人を示すのは指紋です。koikoi name "" で消せます。',
    "the new name": "新しい表示名",
    "show, export or import your identity (your key and display name)":
        "あなたの身元 (鍵と表示名) を表示・書き出し・読み込みする",
    "Your identity is a key, kept on this device. Export it to a file sealed under a passphrase, and import "
    "that file on another device or in the browser: the same fingerprint, name and rating everywhere, and a "
    "lost device loses nothing.":
        "あなたの身元はこの端末にある鍵です。パスフレーズで封をしたファイルに書き出し、別の端末やブラウザで"
        "読み込めば、どこでも同じ指紋・表示名・レーティングで遊べ、端末をなくしても何も失いません。",
    "print your fingerprint and display name": "指紋と表示名を表示する",
    "Print this device's identity: its fingerprint and display name.":
        "この端末の身元 (指紋と表示名) を表示します。",
    "write your identity to FILE, sealed under a passphrase": "身元をパスフレーズで封をして FILE に書き出す",
    "replace this device's identity with the one in FILE": "この端末の身元を FILE の身元に置き換える",
    "Write the identity key and display name to FILE, sealed under a passphrase of at least 8 characters "
    "(asked twice at a terminal).":
        "身元の鍵と表示名を、8文字以上のパスフレーズで封をして FILE に書き出します (端末では2回尋ねます)。",
    "Read an identity file made by koikoi identity export or the browser. The identity it replaces is kept "
    "beside it as a backup.":
        "koikoi identity export やブラウザで作った身元ファイルを読み込みます。置き換えられる身元は控えとして"
        "隣に残します。",
    "the identity file": "身元ファイル",
    "read the passphrase from the first line of PFILE (or set $KOIKOI_PASSPHRASE)":
        "パスフレーズを PFILE の1行目から読む ($KOIKOI_PASSPHRASE でも可)",
    "replace an existing identity without asking (it is still backed up)":
        "今の身元を尋ねずに置き換える (控えは残る)",
    "overwrite FILE if it exists": "FILE がすでにあれば上書きする",
    "Continue a match interrupted by a crash, a kill or a lost connection, with the same board and prompts."
    " Without --state: the interrupted koikoi host/join match saved in the data folder (a menu when there "
    "are several). The finished transcript is the one the match would have had without the interruption.":
        "異常終了や強制終了、接続断で中断した対局を、同じ盤面と問いかけで続けます。--state がなければ、デー"
        "タフォルダーに保存された中断中の koikoi host/join の対局 (複数あれば一覧から選択)。最後にできる記"
        "録は、中断がなかった場合と同じです。",
    "the match's state folder (default: the interrupted host/join match in the data folder)":
        "対局の状態フォルダー (既定: データフォルダーにある中断中の host/join の対局)",
    "the language of the screens (remembered)": "画面の言語 (覚えておきます)",
    "Two computer peers play a whole match in this process: round keys, shuffles and shares with their "
    "proofs, signed envelopes, co-signed results. In memory by default, or through a relay with --relay. "
    "Both transcripts must come out identical.":
        "このプロセスの中でコンピューター同士が1試合を通して対局します: 回戦の鍵、証明付きのシャッフルとシ"
        "ェア、署名付きメッセージ、双方署名の結果。既定ではメモリー内で、--relay なら中継サーバーを通します"
        "。双方の記録は完全に一致しなければなりません。",
    "rounds to play (default: the preset's)": "回戦数 (既定: そのルールの回戦数)",
    "make the match reproducible (identities, deck randomness, choices); test use only":
        "対局を再現できるようにする (識別鍵、山札の乱数、選択)。テスト専用",
    "write seat 0's transcript here": "席0の記録をここに書く",
    "write the co-signed result here": "双方署名の結果をここに書く",
    "play through this relay": "この中継サーバーを通して対局する",
    "the computer players, one level for both seats or seat 0's,seat 1's: easy (random), medium (greedy), "
    "strong, master (searches, up to a second a move) (default easy)":
        "コンピューターの強さ。両席に1つ、または「席0,席1」: easy (ランダム)、medium (貪欲)、strong、master"
        " (探索、1手に最大1秒) (既定 easy)",
    "the joiner's relay when it is another cluster node (default: --relay)":
        "参加者の中継サーバーがクラスターの別のノードのとき、そのアドレス (既定: --relay)",
    "print a JSON summary": "まとめを JSON で表示する",
    "Replay a transcript through the same protocol and rules code: every signature, chain link, proof, move"
    " and result. Exits 0 for a complete valid match, 1 when the file fails (naming the first message that "
    "fails and why). An evidence file is reported as 'player X deviated at message N: reason' (exit 0 if "
    "the evidence proves it). A co-signed match result (the .result file) is checked on its own; the kind "
    "of file is recognised, --result is only a reminder.":
        "対局の記録を同じプロトコルとルールのコードで再生します: すべての署名、連鎖、証明、手、結果。最後ま"
        "で正しい対局なら 0、ファイルが検査に通らなければ 1 で終了します (最初に通らないメッセージとその理"
        "由を示します)。証拠ファイルは「プレイヤーXがメッセージNで違反: 理由」と報告します (証拠が証明して"
        "いれば 0)。双方署名の対局結果 (.result ファイル) はそれだけで確かめます。ファイルの種類は自動で見"
        "分けるので、--result は目印にすぎません。",
    "a second file of the same session (transcript, evidence or abandonment file): say which account "
    "stands, or that the two conflict":
        "同じセッションの2つ目のファイル (記録、証拠、放棄の申し立て): どちらの言い分が通るか、または2つが"
        "矛盾していることを示す",
    "FILE is a co-signed result, not a transcript": "FILE は記録ではなく双方署名の結果",
    "print the report as JSON": "報告を JSON で表示する",
    "also write the match report (every deal step by step, verified again in the browser) as one "
    "self-contained HTML file with the transcript inside":
        "対局の報告 (すべての配りを一手ずつ、ブラウザーでも確かめ直す) を、記録を含む単独の HTML ファイルと"
        "しても書く",
    "Serve the installed browser app on 127.0.0.1 and print its address. The page plays through any relay "
    "you name in it; practice runs in the page. With --check URL, compare every file a server publishes "
    "with this release's SHA256SUMS instead.":
        "インストールしたブラウザー版を 127.0.0.1 で配信し、アドレスを表示します。ページではどの中継サーバ"
        "ーでも指定して対局でき、練習対局はページの中で動きます。--check URL を付けると、代わりにサーバーが"
        "公開するすべてのファイルをこのリリースの SHA256SUMS と照合します。",
    "TCP port on 127.0.0.1 (default 8766; 0: any free one)":
        "127.0.0.1 の TCP ポート (既定 8766。0 なら空いているもの)",
    "the relay the page suggests, e.g. wss://relay.example/v1":
        "ページが勧める中継サーバー。例: wss://relay.example/v1",
    "compare the app served at URL with this release and exit":
        "URL で配信されている版をこのリリースと照合して終了する",
    # -- exit codes (cli/exit_codes.py) -----------------------------------------------------------
    "the match finished": "対局が終わった",
    "another error (the message says which), your input ended or your time ran out":
        "その他のエラー (内容はメッセージに表示)、入力の終わり、または持ち時間切れ",
    "bad command line": "コマンドラインの誤り",
    "no relay reachable at the URL, or its certificate is not trusted":
        "その URL に中継サーバーが見つからないか、その証明書が信頼できない",
    "room not found (check the code, or ask the host for a new one)":
        "部屋が見つからない (コードを確かめるか、ホストに新しいコードを頼む)",
    "room full (someone else joined first)": "部屋が満員 (先に誰かが参加した)",
    "wrong password, someone in the middle, or a changed key you did not accept":
        "パスワードの誤り、間に入った誰か、または承諾しなかった鍵の変更",
    "the opponent left or stopped answering": "相手が退出したか、応答しなくなった",
    "the opponent (or the relay) deviated; the evidence file is named":
        "相手 (または中継サーバー) の違反。証拠ファイル名を表示",
    "nobody joined the room in time (--wait)": "時間内に誰も部屋に参加しなかった (--wait)",
    "interrupted (Ctrl-C)": "中断 (Ctrl-C)",
    "the rooms were listed (no room is no error)": "部屋を一覧にした (部屋がなくてもエラーではない)",
    "another error (the message says which)": "その他のエラー (内容はメッセージに表示)",
}

# The relay's limits say only their default: "(default 65536)", "(default 20.0; 0 disables)".
DEFAULT_ONLY = re.compile(r"\(default ([^;)]*)(; 0 disables)?\)")


def default_ja(text: str) -> str | None:
    """A help that gives only its default, in Japanese; None for any other text."""
    found = DEFAULT_ONLY.fullmatch(text)
    if found is None:
        return None
    return f"(既定 {found.group(1)}" + ("。0 なら無効" if found.group(2) else "") + ")"

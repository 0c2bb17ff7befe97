// English and Japanese text of the page. `t(key, params)` looks a string up in the current
// language ({name} placeholders filled from params); every key exists in both tables (a test
// checks it). Card and yaku names come from here too, so the board needs no other source.
import { CARDS } from '../../src/rules/cards.js';

/** @typedef {'en' | 'ja'} Lang */

const EN = {
  title: 'Koi-Koi', tagline: 'Hanafuda for two, with no one to trust: every shuffle proved, every move signed.',
  practice: 'Practice against the computer', create: 'Create a room', join: 'Join a room', replay: 'Open a match report',
  resume: 'Continue the interrupted match', settings: 'Settings', language: 'Language', yourName: 'Your name (optional)',
  fingerprint: 'Your key: {fp}', cardIds: 'Show card ids under cards', back: 'Back', start: 'Start', cancel: 'Cancel',
  level: 'Computer', levelEasy: 'easy (random)', levelMedium: 'medium (greedy)', levelStrong: 'strong', levelMaster: 'master (search)', rules: 'Rules', rounds: 'Rounds',
  switches: 'Changed switches (one NAME=VALUE a line)', visibility: 'Room', public: 'public (listed in the lobby)',
  private: 'private (code only)', password: 'Password (optional: without one you compare a security code)',
  turnDeadline: 'Seconds for each decision', stepDeadline: 'Seconds for each automatic step', relay: 'Relay',
  code: 'Room code', joinButton: 'Join', createButton: 'Create', lobby: 'Public rooms', noRooms: 'No public rooms right now.',
  refresh: 'Refresh', roomCode: 'Room code: {code}', shareLink: 'Send this link to your friend:', copy: 'Copy',
  waitingJoin: 'Waiting for your friend to join…', connecting: 'Connecting…', shuffling: 'Shuffling and proving the deck…',
  sasTitle: 'Compare the security code', sasBody: 'Read this code to your friend over another channel (voice, chat). If it differs, someone is in the middle: stop.',
  sasSame: 'It is the same', sasDiffers: 'It differs: stop',
  termsTitle: 'The match your host proposes', termsAccept: 'Accept and play', termsRefuse: 'Refuse',
  termsRules: 'Rules: {rules}', termsRounds: 'Rounds: {n}', termsDeadlines: 'Time per decision: {turn} s; automatic steps: {step} s',
  ratedSent: 'Rating service {url}: {answer}', ratedCounted: 'the result is counted', ratedRepeat: 'the result was already counted',
  ratedRefused: 'refused ({reason}: {message})', ratedUnreachable: 'not reachable ({reason}); the result file can be sent later with koikoi ratings submit',
  termsOpponent: 'Host: {who}', basedOn: 'custom, based on {base}: {changes}',
  opponent: 'Opponent', you: 'You', field: 'Field', stock: 'Stock', stockCount: '{n} cards left in the stock',
  hand: 'Your hand', opponentHand: "Opponent's hand: {n} cards", captures: 'Captures', emptyPile: 'nothing yet',
  bright: 'Brights', animal: 'Animals', ribbon: 'Ribbons', plain: 'Plains',
  roundOf: 'Round {i} of {n}', month: 'Month: {m}', dealer: 'dealer', score: 'Score {a} – {b}',
  yourTurnPlay: 'Your turn: play a card from your hand.', yourTurnCapture: 'Choose which field card to take.',
  yourTurnDraw: 'The drawn card matches two: choose which to take.', yourTurnDecide: 'You made a yaku: stop or call koi-koi?',
  yourTurnHandYaku: 'Your dealt hand is a yaku: claim it or play on?', waitingOpponent: 'Waiting for {who}…',
  theirTurn: '{who} is thinking…', deadline: '{s} s', matchTime: 'Time left',
  koikoiTitle: 'You made a yaku', stopButton: 'Stop', koikoiButton: 'Koi-koi',
  stopWhat: 'Stop now and score {n} points.', koikoiWhat: 'Play on: a further yaku raises your score (now {base} base points), but if {who} scores first, they take the round{mult}.',
  koikoiMult: ' at ×{m}', callsLeft: 'Calls you may still make after this one: {n}',
  claimHandYaku: 'Claim {yaku} ({n} points)', noHandYaku: 'Play on',
  yakuMade: 'Yaku made', yakuClose: 'One card away', none: 'none', points: '{n} pts',
  roundOver: 'Round over', roundWinner: '{who} wins {n} points', roundWinnerYou: 'You win {n} points', roundDraw: 'No one scores this round',
  reason_stop: 'stopped', reason_auto_end: 'ended by the rules', reason_exhaustion: 'the hands ran out', reason_oya_ken: 'the hands ran out (dealer’s privilege)',
  reason_hand_yaku: 'a dealt-hand yaku', reason_field_month: 'a month of four on the field: dealt again', reason_field_pairs: 'four pairs on the field: dealt again',
  reason_both_hand_yaku: 'both hands are yaku', next: 'Next round', matchOver: 'Match over', youWin: 'You win the match',
  youLose: '{who} wins the match', drawMatch: 'The match is drawn', finalScore: 'Final score {a} – {b}',
  coSigned: 'Both players signed this result.', download: 'Download the transcript', downloadResult: 'Download the co-signed result',
  openReport: 'Open the match report', home: 'Home', resign: 'Resign',
  stopped: 'The match stopped', evidence: 'Download the evidence file', abandoned: '{who} missed the deadline: you hold a signed abandonment claim.',
  failureReason: 'Reason: {reason}', reconnecting: 'Connection lost: reconnecting…', resumed: 'The match continues where it was.',
  replayTitle: 'Match report', dropFile: 'Open or drop a transcript file here', chooseFile: 'Choose a file',
  verifying: 'Verifying every signature and proof…', verified: 'Verified: every signature, proof and move checks out.',
  notVerified: 'Verification failed at message {n}: {reason}', notVerifiedFile: 'This file does not verify: {reason}',
  deal: 'Deal {n}', prev: 'Previous', nextStep: 'Next', first: 'First', last: 'Last', step: 'Step {i} of {n}',
  played: '{who} plays {card}', takes: 'takes {cards}', drawn: '{who} draws {card}', calls: '{who} calls koi-koi', stops: '{who} stops',
  claims: '{who} claims {yaku}', noClaim: '{who} plays on', dealt: 'The cards are dealt', dealerIs: 'Dealer: {who}',
  player0: 'Player 0', player1: 'Player 1', messages: '{n} messages', offline: 'Practice works offline once this page has been opened.',
  installHint: 'Install: use your browser’s “Install app” or “Add to home screen”.',
  errorRelay: 'No relay answers at {url}.', errorRoom: 'There is no room with this code.', errorFull: 'That room is full.',
  errorPassword: 'Wrong password (or someone in the middle).', errorGeneric: 'Something went wrong: {reason}',
  errorLocked: 'This match is open in another tab or window.',
  badCode: 'A room code is six letters and digits, like K7QX2M.', keyboardHelp: 'Keys: 1–8 pick a hand card, arrows move, Enter plays, K koi-koi, S stop.',
  fieldMatches: 'matches {n} on the field', noMatch: 'no match: it stays on the field',
  resignTitle: 'Resign this match?', resignBody: '{who} wins the match. Both of you sign that result, so it counts like any other.',
  resignWhen: 'You can resign when it is your move.', resignedYou: 'You resigned: {who} wins the match.',
  resignedThem: '{who} resigned: you win the match.', timeUp: 'Your time ran out: no answer within {s} s. The match stopped at message {n}, and {who} may now claim it as abandoned.',
  termsKey: 'Their key: {fp}', termsRated: 'Rated: the result goes to the rating service {url}.', termsUnrated: 'Not rated (a friendly match).',
  rated: 'Rated match (the co-signed result goes to a rating service)', ratings: 'Rating service (http:// or https:// URL)',
  yourClock: 'Your time left', theirClock: 'Their time left',
  seenAs: 'Your opponent sees you as {name}, key {fp} (the key is what tells you apart: names are not unique).', noName: '(no name)',
  // -- web-reload (issue 24 §3 round and match summaries, §6 words): counts by plural category
  // (words.js tn picks KEY_one / KEY_other ...), the summaries, reasons, the practice computer.
  pointsN_one: '{n} point', pointsN_other: '{n} points',
  cardsLeftN_one: '{n} card left in the stock', cardsLeftN_other: '{n} cards left in the stock',
  opponentHandN_one: "Opponent's hand: {n} card", opponentHandN_other: "Opponent's hand: {n} cards",
  callsLeftN_one: 'Calls you may still make after this one: {n}', callsLeftN_other: 'Calls you may still make after this one: {n}',
  roundsLeftN_one: '{n} round left', roundsLeftN_other: '{n} rounds left', lastRoundDone: 'That was the last round.',
  roundDone: 'Round {i} of {n} is over', roundDoneOpen: 'Round {i} is over',
  yakuOf: '{who}: yaku', yakuNotScored: '{who}: yaku made, not scored (only the round’s winner scores)', noYakuMade: 'no yaku',
  basePointsN_one: 'Base: {n} point', basePointsN_other: 'Base: {n} points',
  stepDoubling: '×2: a base of {n} points or more is doubled', stepCalled: '×{m}: {who} called koi-koi',
  stepCallsN_one: '×{m}: {n} koi-koi call this round', stepCallsN_other: '×{m}: {n} koi-koi calls this round',
  stepCallerPays: '×{m}: {who} called koi-koi and lost the round',
  roundTotalN_one: 'Round score: {n} point', roundTotalN_other: 'Round score: {n} points',
  movedTitle: 'Points moved', matchScoreTitle: 'Match score', callsTitle: 'Koi-koi calls', nextToResult: 'The match is over: see the result',
  finalScoreNamed: 'Final score: {a} {x} – {y} {b}',
  reasonUnknown: 'a problem this page has no words for', failureWhy: 'Why: {reason}.',
  youTakeN_one: 'You win {n} point', youTakeN_other: 'You win {n} points', theyTakeN_one: '{who} wins {n} point', theyTakeN_other: '{who} wins {n} points',
  computerNamed: 'Computer ({level})', levelWordRandom: 'easy', levelWordGreedy: 'medium', levelWordStrong: 'strong', levelWordMaster: 'master',
  computerSignature: 'The computer signed this result with a key made on this device for this match only: its signature shows that every move and shuffle followed the rules, not who the computer is, and a practice match is never rated.',
};

/** @type {typeof EN} */
const JA = {
  title: '花札こいこい', tagline: '誰も信用しなくていい二人用の花札。シャッフルはすべて証明付き、手はすべて署名付き。',
  practice: 'コンピュータと練習', create: '部屋を作る', join: '部屋に入る', replay: '対局記録を開く',
  resume: '中断した対局を続ける', settings: '設定', language: '言語', yourName: 'あなたの名前（任意）',
  fingerprint: 'あなたの鍵: {fp}', cardIds: '札の下に札IDを表示', back: '戻る', start: '開始', cancel: 'キャンセル',
  level: 'コンピュータ', levelEasy: 'やさしい（ランダム）', levelMedium: 'ふつう（貪欲）', levelStrong: 'つよい', levelMaster: '名人（探索）', rules: 'ルール', rounds: '回戦数',
  switches: '変更するスイッチ（1行に NAME=VALUE）', visibility: '部屋', public: '公開（ロビーに表示）',
  private: '非公開（コードのみ）', password: 'パスワード（任意。なしの場合は確認コードを照合）',
  turnDeadline: '1手の持ち時間（秒）', stepDeadline: '自動処理の制限時間（秒）', relay: 'リレー',
  code: '部屋コード', joinButton: '入る', createButton: '作る', lobby: '公開中の部屋', noRooms: '公開中の部屋はありません。',
  refresh: '更新', roomCode: '部屋コード: {code}', shareLink: 'このリンクを相手に送ってください:', copy: 'コピー',
  waitingJoin: '相手の参加を待っています…', connecting: '接続中…', shuffling: '山札をシャッフルして証明しています…',
  sasTitle: '確認コードを照合', sasBody: '別の手段（通話やチャット）でこのコードを相手と読み合わせてください。違っていたら中間者がいます。中止してください。',
  sasSame: '同じです', sasDiffers: '違います（中止）',
  termsTitle: 'ホストが提案する対局条件', termsAccept: '承諾して対局', termsRefuse: '断る',
  termsRules: 'ルール: {rules}', termsRounds: '回戦数: {n}', termsDeadlines: '1手の持ち時間: {turn}秒、自動処理: {step}秒',
  ratedSent: 'レーティングサービス {url}: {answer}', ratedCounted: '結果が集計されました', ratedRepeat: '結果は集計済みです',
  ratedRefused: '拒否されました ({reason}: {message})', ratedUnreachable: '接続できません ({reason})。結果ファイルは koikoi ratings submit で後から送れます',
  termsOpponent: 'ホスト: {who}', basedOn: '{base}を元にした独自ルール: {changes}',
  opponent: '相手', you: 'あなた', field: '場', stock: '山札', stockCount: '山札の残り {n}枚',
  hand: 'あなたの手札', opponentHand: '相手の手札: {n}枚', captures: '取り札', emptyPile: 'まだなし',
  bright: '光札', animal: '種札', ribbon: '短冊', plain: 'カス',
  roundOf: '第{i}回戦 / 全{n}回戦', month: '月: {m}', dealer: '親', score: '得点 {a} – {b}',
  yourTurnPlay: 'あなたの番: 手札から1枚出してください。', yourTurnCapture: '取る場の札を選んでください。',
  yourTurnDraw: '引いた札が2枚と合います。取る札を選んでください。', yourTurnDecide: '役ができました。あがりますか、こいこいしますか？',
  yourTurnHandYaku: '配られた手札が手役です。申告しますか？', waitingOpponent: '{who}を待っています…',
  theirTurn: '{who}が考えています…', deadline: '{s}秒', matchTime: '残り時間',
  koikoiTitle: '役ができました', stopButton: 'あがり', koikoiButton: 'こいこい',
  stopWhat: '今あがって{n}点を得る。', koikoiWhat: '続ける: さらに役ができれば得点が上がります（現在の基本点 {base}）。ただし{who}が先に役を作ると、その回戦は相手のもの{mult}。',
  koikoiMult: '（×{m}）', callsLeft: 'この後にできるこいこい: {n}回',
  claimHandYaku: '{yaku}を申告（{n}点）', noHandYaku: 'そのまま続ける',
  yakuMade: 'できた役', yakuClose: 'あと1枚', none: 'なし', points: '{n}点',
  roundOver: '回戦終了', roundWinner: '{who}が{n}点', roundWinnerYou: 'あなたが{n}点', roundDraw: 'この回戦は引き分け',
  reason_stop: 'あがり', reason_auto_end: 'ルールによる終了', reason_exhaustion: '手札がなくなった', reason_oya_ken: '手札がなくなった（親権）',
  reason_hand_yaku: '手役', reason_field_month: '場に同じ月が4枚: 配り直し', reason_field_pairs: '場に4組: 配り直し',
  reason_both_hand_yaku: '両者とも手役', next: '次の回戦', matchOver: '対局終了', youWin: 'あなたの勝ち',
  youLose: '{who}の勝ち', drawMatch: '引き分け', finalScore: '最終得点 {a} – {b}',
  coSigned: 'この結果には両者が署名しています。', download: '対局記録をダウンロード', downloadResult: '両者署名の結果をダウンロード',
  openReport: '対局レポートを開く', home: 'ホーム', resign: '投了',
  stopped: '対局が止まりました', evidence: '証拠ファイルをダウンロード', abandoned: '{who}が時間切れです。署名付きの放棄の申し立てがあります。',
  failureReason: '理由: {reason}', reconnecting: '接続が切れました。再接続中…', resumed: '対局は中断した所から続きます。',
  replayTitle: '対局レポート', dropFile: '対局記録ファイルを開くかここにドロップ', chooseFile: 'ファイルを選ぶ',
  verifying: 'すべての署名と証明を検証しています…', verified: '検証済み: 署名・証明・手はすべて正しい。',
  notVerified: 'メッセージ{n}で検証に失敗: {reason}', notVerifiedFile: 'このファイルは検証できません: {reason}',
  deal: '第{n}局', prev: '前へ', nextStep: '次へ', first: '最初', last: '最後', step: '{n}手中{i}手目',
  played: '{who}が{card}を出す', takes: '{cards}を取る', drawn: '{who}が{card}を引く', calls: '{who}がこいこい', stops: '{who}があがり',
  claims: '{who}が{yaku}を申告', noClaim: '{who}は申告せず', dealt: '札が配られた', dealerIs: '親: {who}',
  player0: 'プレイヤー0', player1: 'プレイヤー1', messages: '{n}メッセージ', offline: '一度開けば練習はオフラインでも遊べます。',
  installHint: 'インストール: ブラウザの「アプリをインストール」または「ホーム画面に追加」。',
  errorRelay: '{url} のリレーが応答しません。', errorRoom: 'このコードの部屋はありません。', errorFull: 'その部屋は満員です。',
  errorPassword: 'パスワードが違います（または中間者）。', errorGeneric: 'エラー: {reason}',
  errorLocked: 'この対局は別のタブかウィンドウで開かれています。',
  badCode: '部屋コードは K7QX2M のような英数字6文字です。', keyboardHelp: 'キー: 1–8 で手札を選択、矢印で移動、Enterで出す、Kでこいこい、Sであがり。',
  fieldMatches: '場の{n}枚と合う', noMatch: '合う札なし: 場に置く',
  resignTitle: 'この対局を投了しますか？', resignBody: '{who}の勝ちになります。両者がこの結果に署名するので、通常の対局と同じく有効です。',
  resignWhen: '投了は自分の番にできます。', resignedYou: 'あなたは投了しました。{who}の勝ちです。',
  resignedThem: '{who}が投了しました。あなたの勝ちです。', timeUp: '持ち時間切れです（{s}秒以内に応答なし）。対局はメッセージ{n}で止まり、{who}は放棄を申し立てられます。',
  termsKey: '相手の鍵: {fp}', termsRated: 'レーティング対局: 結果はレーティングサービス {url} に送られます。', termsUnrated: 'レーティングなし（親善対局）。',
  rated: 'レーティング対局（両者署名の結果をレーティングサービスに送る）', ratings: 'レーティングサービス（http:// または https:// のURL）',
  yourClock: 'あなたの残り時間', theirClock: '相手の残り時間',
  seenAs: '相手にはあなたが {name}（鍵 {fp}）と表示されます。名前は重複しうるので、区別するのは鍵です。', noName: '（名前なし）',
  // -- web-reload (issue 24 §3 回戦と対局のまとめ, §6 言葉): 数の言い方、まとめ、理由、練習の相手。
  pointsN_one: '{n}点', pointsN_other: '{n}点',
  cardsLeftN_one: '山札の残り {n}枚', cardsLeftN_other: '山札の残り {n}枚',
  opponentHandN_one: '相手の手札: {n}枚', opponentHandN_other: '相手の手札: {n}枚',
  callsLeftN_one: 'この後にできるこいこい: {n}回', callsLeftN_other: 'この後にできるこいこい: {n}回',
  roundsLeftN_one: '残り{n}回戦', roundsLeftN_other: '残り{n}回戦', lastRoundDone: 'これが最終回戦でした。',
  roundDone: '第{i}回戦（全{n}回戦）終了', roundDoneOpen: '第{i}回戦終了',
  yakuOf: '{who}の役', yakuNotScored: '{who}の役（得点なし: 点になるのはこの回戦の勝者だけ）', noYakuMade: '役なし',
  basePointsN_one: '基本点: {n}点', basePointsN_other: '基本点: {n}点',
  stepDoubling: '×2: 基本点が{n}点以上なので倍', stepCalled: '×{m}: {who}がこいこいした',
  stepCallsN_one: '×{m}: この回戦のこいこい{n}回', stepCallsN_other: '×{m}: この回戦のこいこい{n}回',
  stepCallerPays: '×{m}: {who}がこいこいして負けた',
  roundTotalN_one: 'この回戦の得点: {n}点', roundTotalN_other: 'この回戦の得点: {n}点',
  movedTitle: '点の移動', matchScoreTitle: '対局の得点', callsTitle: 'こいこい', nextToResult: '対局終了: 結果を見る',
  finalScoreNamed: '最終得点: {a} {x} – {y} {b}',
  reasonUnknown: 'このページが説明できない問題', failureWhy: '理由: {reason}。',
  youTakeN_one: 'あなたが{n}点', youTakeN_other: 'あなたが{n}点', theyTakeN_one: '{who}が{n}点', theyTakeN_other: '{who}が{n}点',
  computerNamed: 'コンピュータ（{level}）', levelWordRandom: 'やさしい', levelWordGreedy: 'ふつう', levelWordStrong: 'つよい', levelWordMaster: '名人',
  computerSignature: 'コンピュータはこの端末でこの対局のためだけに作った鍵で結果に署名しています。署名が示すのは手とシャッフルがすべてルールどおりだったことで、コンピュータが誰かではありません。練習はレーティングの対象になりません。',
};

const TABLES = { en: EN, ja: JA };

export const YAKU_NAMES = {
  en: {
    goko: 'Five Brights', shiko: 'Four Brights', ame_shiko: 'Rainy Four Brights', sanko: 'Three Brights',
    hanami: 'Cherry Viewing', tsukimi: 'Moon Viewing', inoshikacho: 'Boar, Deer, Butterflies', akatan: 'Poetry Ribbons',
    aotan: 'Blue Ribbons', akatan_aotan: 'Poetry and Blue Ribbons', tane: 'Animals', tan: 'Ribbons', kasu: 'Plains',
    tsukifuda: 'Cards of the Month', teshi: 'Four of a Month (dealt)', kuttsuki: 'Four Pairs (dealt)', tenho: 'Dealt Hand',
    double_tenho: 'Double Dealt Hand', oya_ken: "Dealer's Privilege",
  },
  ja: {
    goko: '五光', shiko: '四光', ame_shiko: '雨四光', sanko: '三光', hanami: '花見で一杯', tsukimi: '月見で一杯',
    inoshikacho: '猪鹿蝶', akatan: '赤短', aotan: '青短', akatan_aotan: '赤短・青短の重複', tane: 'タネ', tan: 'タン', kasu: 'カス',
    tsukifuda: '月札', teshi: '手四', kuttsuki: 'くっつき', tenho: '天和', double_tenho: '二重天和', oya_ken: '親権',
  },
};

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  ja: ['一月', '二月', '三月', '四月', '五月', '六月', '七月', '八月', '九月', '十月', '十一月', '十二月'],
};
const PLANTS = {
  en: ['pine', 'plum', 'cherry', 'wisteria', 'iris', 'peony', 'bush clover', 'pampas', 'chrysanthemum', 'maple', 'willow', 'paulownia'],
  ja: ['松', '梅', '桜', '藤', '菖蒲', '牡丹', '萩', '芒', '菊', '紅葉', '柳', '桐'],
};
const CLASS = { en: { bright: 'bright', animal: 'animal', ribbon: 'ribbon', plain: 'plain' }, ja: { bright: '光', animal: '種', ribbon: '短冊', plain: 'カス' } };

/** @type {Lang} */
let current = 'en';

/** @param {Lang} lang */
export function setLang(lang) {
  current = lang === 'ja' ? 'ja' : 'en';
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

export function lang() {
  return current;
}

/**
 * @param {keyof typeof EN} key @param {{[name: string]: string | number}} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const s = TABLES[current][key] ?? EN[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** The keys of both tables (for the completeness test). */
export function tableKeys() {
  return { en: Object.keys(EN), ja: Object.keys(JA) };
}

/** @param {string} id */
export function yakuName(id) {
  return /** @type {Record<string, string>} */ (YAKU_NAMES[current])[id] ?? id;
}

/** @param {number} month 1..12 */
export function monthName(month) {
  return `${MONTHS[current][month - 1]} (${PLANTS[current][month - 1]})`;
}

/** The short name of a card ("Crane and Sun"). @param {number} index */
export function cardName(index) {
  const c = CARDS[index];
  return current === 'ja' ? c.japanese : c.english;
}

/**
 * The full text equivalent of a card: month and plant, name, class, and the card id.
 * @param {number} index
 */
export function cardLabel(index) {
  const c = CARDS[index];
  const cls = CLASS[current][c.kind] + (c.kind === 'ribbon' && c.subclass ? (current === 'ja' ? `（${c.subclass === 'poetry' ? '赤短' : c.subclass === 'blue' ? '青短' : '短冊'}）` : ` (${c.subclass})`) : '');
  // Starts with the month number the card's badge shows (so the visible text is in the name).
  return `${c.month} ${monthName(c.month)}: ${cardName(index)}, ${cls}, ${c.id}`;
}

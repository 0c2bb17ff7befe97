// English and Japanese text of the page. `t(key, params)` looks a string up in the current
// language ({name} placeholders filled from params); every key exists in both tables (a test
// checks it). Card and yaku names come from here too, so the board needs no other source.
import { CARDS } from '../../src/api/rules.js';

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
  reason_hand_yaku: 'a dealt-hand yaku', reason_field_month: 'a month of four on the field: dealt again', reason_field_pairs: 'four pairs on the field: dealt again', reason_hand_month: 'a month of four in a dealt hand: dealt again',
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
  // -- the identity file (spec/identity.md) ---------------------------------------------------------
  identityTitle: 'Your identity on other devices',
  identityWhy: 'Your key lives in this browser: clearing its data loses it, and with it your rating. Export it to a file sealed under a passphrase, and import that file in another browser or with koikoi identity import in the terminal, to play as the same player everywhere.',
  identityExportTitle: 'Export to a file', identityImportTitle: 'Import a file', identityPassphrase: 'Passphrase (at least 8 characters)', identityPassphraseOpen: 'Its passphrase',
  identityAgain: 'The same passphrase again', identityExport: 'Export my identity', identityImport: 'Import this identity', identityFile: 'Identity file',
  identityShort: 'A passphrase has at least 8 characters.', identityDiffer: 'The two passphrases differ: nothing was exported.',
  identitySealing: 'Sealing your identity (a second or two)…', identityOpening: 'Opening the file (a second or two)…',
  identityExported: 'Saved your identity ({fp}) as a file. Keep the file and the passphrase apart: together they are you.',
  identityChooseFile: 'Choose an identity file first.',
  identityReplaceAsk: 'This browser plays as {current}. Replace it with {incoming}? The current identity is kept here as a backup.',
  identityReplace: 'Replace it', identityKeep: 'Keep mine', identityKept: 'Nothing changed.',
  identityImported: 'This browser now plays as {fp}.', identityImportedKept: 'This browser now plays as {fp}. The identity it replaced is kept here as a backup.',
  identityOffer: 'You have a rating tied to this browser’s key. Export your identity so that clearing the browser does not lose it.',
  identityOfferButton: 'Export my identity',
  identityError: 'That did not work ({reason}).',
  identityError_not_identity_file: 'That file is not a koikoi identity file.',
  identityError_unsupported_version: 'That identity file is of a newer version than this page reads.',
  identityError_damaged_identity_file: 'That file is damaged (cut short, or bytes were changed).',
  identityError_wrong_passphrase: 'The passphrase does not open that file (or the file was altered).',
  identityError_bad_identity_file: 'That file opens but holds no valid identity.',
  // -- rooms, lobby, waiting, rules page, leaderboard (issue 24 §4, §5) --
  presetNintendo: 'Nintendo’s rules: 12 months, scores add up, doubled at 7 points',
  presetKoikoiOnline: 'Koi-Koi Online: 25-point pool, doubling at 8, koi-koi as often as you dare',
  presetTeachingCard: 'The teaching card: a matching card must be played, one koi-koi per round',
  presetWikipedia: 'Wikipedia’s rules: Five Brights 15, cards of the month, dealer’s privilege',
  presetBoardGame: 'The board game: 100-point pool, each of the winner’s calls doubles',
  presetClassicVariant: 'The classic variant: first to 50 points, no multipliers, the bridge is a joker',
  shortNintendo: 'Nintendo', shortKoikoiOnline: 'Koi-Koi Online', shortTeachingCard: 'Teaching card',
  shortWikipedia: 'Wikipedia', shortBoardGame: 'Board game', shortClassicVariant: 'Classic variant',
  rounds12: '12 rounds (a whole year of months)', rounds6: '6 rounds (half a year)', rounds3: '3 rounds', rounds1: '1 round',
  roundsN: '{n} rounds', roundsUntil: 'until {n} points', moreOptions: 'More options',
  otherRounds: 'Another number of rounds (empty: as chosen above)', passwordShort: 'Password (optional)',
  passwordHint: 'Without a password, you and your friend compare a short security code instead.',
  ratedShort: 'Rated match', seeRules: 'Read these rules', ratingsUrl: 'Rating service (empty: the relay’s own)',
  findRooms: 'Find a public room', rulesHelp: 'Rules and help', leaderboard: 'Leaderboard',
  lobbyHost: 'Host: {who}', lobbyNoName: '(no name)', lobbyChanged: '{rules}, changed', lobbyRulesUnknown: 'rules not given',
  lobbyRated: 'rated', lobbyUnrated: 'not rated', lobbyPassword: 'password', lobbyNoPassword: 'no password',
  lobbyWaited: 'waiting for {t}', lobbySeconds: '{n} s', lobbyMinutes: '{n} min', lobbyHours: '{n} h',
  lobbyJoin: 'Join', lobbyPasswordAsk: 'This room has a password: ask its host, type it, then join.',
  lobbyNote: 'The lobby shows what each host chose to publish. Before you play, you see and sign the host’s actual terms.',
  lobbyOlder: 'an older app: no name published',
  roomOpen: 'Your room is open', inviteLink: 'Invite link', copied: 'Copied', cancelRoom: 'Cancel and close the room',
  inviteHint: 'Send the link (or the code) to your friend. The match starts when they join.',
  rulesTitle: 'Rules: {rules}', close: 'Close', rulesChoose: 'Show the rules of', roomRules: 'this room’s rules',
  howToPlay: 'How to play', howTo1: 'Each month of the year has four cards. You and your opponent are dealt 8 cards each, and 8 go face up on the field.',
  howTo2: 'On your turn, play a card from your hand: if it matches a field card’s month, you take both; if not, it stays on the field. Then turn the top card of the stock and do the same with it.',
  howTo3: 'Captured cards form yaku, sets worth points. When you make a yaku you choose: stop and score it, or call koi-koi and play on for more, at the risk that your opponent scores first.',
  howTo4: 'The dealer plays first. A match is a number of rounds; the scores decide who wins.',
  yakuHeading: 'Yaku', yakuCards: 'Cards', yakuPointsCol: 'Points', yakuRuleCol: 'Yaku',
  yakuGrows: '{n}, +1 for each further card', yakuFixed: '{n}',
  yr_goko: 'All five brights', yr_shiko: 'Four brights without the Rain Man', yr_ame_shiko: 'The Rain Man and three other brights',
  yr_sanko: 'Three brights without the Rain Man', yr_sanko_rain: 'Any three brights', yr_hanami: 'Cherry Curtain and Sake Cup', yr_tsukimi: 'Full Moon and Sake Cup',
  yr_inoshikacho: 'Boar, Deer and Butterflies', yr_akatan: 'The three poetry ribbons', yr_aotan: 'The three blue ribbons',
  yr_akatan_aotan: 'All six poetry and blue ribbons (instead of both)', yr_tane: 'Five animals', yr_tan: 'Five ribbons', yr_kasu: 'Ten plains',
  yr_tsukifuda: 'All four cards of the round’s month', yr_teshi: 'Dealt: all four cards of a month', yr_kuttsuki: 'Dealt: four pairs',
  yr_tenho: 'Dealt: four of a month, or four pairs', yr_double_tenho: 'Dealt: two months of four', yr_oya_ken: 'The dealer, when the hands run out',
  yaNotBesideIno: 'not beside Boar, Deer and Butterflies', yaNotBesideRibbons: 'not beside the ribbon yaku', yaCupPlain: 'the Sake Cup counts as a plain too',
  yaBrightsHighest: 'only the highest bright yaku counts', yaEndsRound: 'ends the round at once, never multiplied', yaBonusOnly: 'only beside another yaku',
  yaJoker: '{card} may count as a plain instead',
  stopKoikoi: 'Stop or koi-koi', stopRule: 'Stop: the round ends and you score your yaku.',
  koikoiNext: 'Koi-koi: you play on. The next yaku made or raised by either player ends the round, and that player scores.',
  koikoiShobu: 'Koi-koi: you play on until someone stops; a later stop scores everything then held.',
  callsOne: 'One koi-koi per round.', callsAny: 'Koi-koi may be called any number of times, by both players.', callsN: 'Up to {n} koi-koi calls per round.',
  multOpponent: 'Beat a player who called koi-koi and your points are doubled.', multShared: 'Every call, by either player, adds one to the multiplier: ×(1 + calls), whoever wins.',
  multPow2: 'Each of the winner’s own calls doubles its points.', multNone: 'Calls multiply nothing: koi-koi only risks the round.',
  doublingPools: 'Doubling and scores', doubleAt: 'A round worth {n} points or more (before calls) is doubled.', doubleNone: 'High scores are not doubled.',
  poolRule: 'Each player starts with {n} points; the loser of a round pays the winner, at most what they have left.', poolBust: 'A player who reaches 0 loses the match at once.',
  addRule: 'Scores add up from 0.', endRounds: 'After {n} rounds the higher score wins.', endRound1: 'After the round the higher score wins.', endTarget: 'The first player to {n} points wins.',
  exhaustDraw: 'If the hands run out and nobody stopped, nobody scores.', exhaustOya: 'If the hands run out and nobody stopped, the dealer scores {n} (dealer’s privilege).',
  exhaustCaller: 'If the hands run out, the last player to call scores their yaku; with no call, the dealer scores {n}.',
  changesHeading: 'What these rules change from Nintendo’s', changesNone: 'Nothing: these are Nintendo’s rules.', changeLine: '{what}: {value} (Nintendo: {nintendo})',
  sw_rounds: 'Rounds', sw_bright_values: 'Points of the bright yaku (5, 4, rainy 4, 3)', sw_named_extension: 'Named yaku grow with extra cards',
  sw_tane_with_inoshikacho: 'Animals also score beside Boar, Deer, Butterflies', sw_tan_with_ribbon_yaku: 'Ribbons also score beside the ribbon yaku',
  sw_ribbon_pair: 'Both ribbon sets', sw_cup_is_plain: 'Sake Cup also a plain', sw_joker_card: 'Joker card', sw_viewing: 'Viewing yaku',
  sw_monthly_yaku_points: 'Cards of the month', sw_double_threshold: 'Doubled from', sw_koikoi_multiplier: 'Koi-koi multiplier',
  sw_max_calls_per_round: 'Koi-koi calls per round (0: any)', sw_after_call: 'After a call', sw_last_turn_stop_only: 'Last turn: stop only',
  sw_exhaustion: 'Hands run out', sw_dealer_after_draw: 'Dealer after a round nobody won', sw_hand_yaku: 'Dealt-hand yaku',
  sw_hand_yaku_both: 'Both hands are yaku', sw_hand_capture: 'Hand card must match', sw_first_dealer_tie: 'First dealer on a tie',
  sw_pool_start: 'Starting pool', sw_transfer_cap: 'Payment capped', sw_bust_ends_game: 'Reaching 0 loses', sw_target_score: 'Target score',
  yes: 'yes', no: 'no',
  securityHeading: 'The security code and the password',
  security1: 'The relay only passes messages along: it cannot read your cards or change a move. Someone who controls it could still try to sit in the middle, talking to each of you as the other.',
  security2: 'The security code shows whether that happened: you both see the same code only if you are connected to each other. Compare it over another channel (voice, chat). With a password instead, a middleman who does not know it cannot connect at all.',
  security3: 'Every card is shuffled by both of you with proofs, so nobody, not even the host, can stack the deck or peek at a hidden card.',
  leaderboardTitle: 'Leaderboard', lbRank: 'Rank', lbPlayer: 'Player', lbRating: 'Rating', lbGames: 'Games', lbRecord: 'Won / lost / drawn',
  lbNone: 'This relay has no rating service.', lbEmpty: 'No rated results yet.', lbLoading: 'Loading…', lbNote: 'Rating shown is the careful estimate (μ − 3σ): it rises as a player plays more.',
  // Seeing the game happen (issue 24 §2: motion, the last move, the move log, announcements, sound)
  movesTitle: 'Moves ({n})', movesNone: 'No moves yet in this round.',
  logPlayed: '{who} played {card}', logTook: ', took {cards}', logDrew: '; drew {card}', logKoikoi: '; called koi-koi', logStop: '; stopped',
  logClaim: '{who} claimed {yaku}', logFirst: 'Drawn for the first dealer: {draws}. First dealer: {who}.',
  logCoin: 'The coin for the first dealer: {card}. First dealer: {who}.', drewFor: '{who}: {card}',
  annKoikoi: '{who}: koi-koi!', annStop: '{who}: stop', annYaku: '{who} made {yaku}', annFirst: 'First dealer: {who}',
  soundOn: 'Sound on', soundOff: 'Sound off', soundLabel: 'Sound effects',
  capturesMine: 'Your captures', capturesTheirs: 'Captures of {who}', cupPlain: 'the sake cup counts as a plain here',
  lastMoveMark: 'the opponent’s last move',
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
  reason_hand_yaku: '手役', reason_field_month: '場に同じ月が4枚: 配り直し', reason_field_pairs: '場に4組: 配り直し', reason_hand_month: '手札に同じ月が4枚: 配り直し',
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
  // -- the identity file (spec/identity.md) ---------------------------------------------------------
  identityTitle: 'ほかの端末で同じ身元を使う',
  identityWhy: 'あなたの鍵はこのブラウザの中にあります。ブラウザのデータを消すと鍵もレーティングも失われます。パスフレーズで封をしたファイルに書き出し、別のブラウザや端末の koikoi identity import で読み込めば、どこでも同じプレイヤーとして遊べます。',
  identityExportTitle: 'ファイルに書き出す', identityImportTitle: 'ファイルを読み込む', identityPassphrase: 'パスフレーズ（8文字以上）', identityPassphraseOpen: 'そのパスフレーズ',
  identityAgain: 'もう一度同じパスフレーズ', identityExport: '身元を書き出す', identityImport: 'この身元を読み込む', identityFile: '身元ファイル',
  identityShort: 'パスフレーズは8文字以上です。', identityDiffer: '2回のパスフレーズが違います。何も書き出していません。',
  identitySealing: '身元を封しています（1〜2秒）…', identityOpening: 'ファイルを開いています（1〜2秒）…',
  identityExported: '身元（{fp}）をファイルに保存しました。ファイルとパスフレーズは別々に保管してください。両方そろえば誰でもあなたとして対局できます。',
  identityChooseFile: '先に身元ファイルを選んでください。',
  identityReplaceAsk: 'このブラウザは {current} として対局しています。{incoming} に置き換えますか？ 今の身元は控えとしてここに残ります。',
  identityReplace: '置き換える', identityKeep: '今のままにする', identityKept: '何も変えていません。',
  identityImported: 'このブラウザはこれから {fp} として対局します。', identityImportedKept: 'このブラウザはこれから {fp} として対局します。置き換えた身元は控えとしてここに残っています。',
  identityOffer: 'このブラウザの鍵にレーティングがあります。ブラウザのデータを消しても失わないように、身元を書き出してください。',
  identityOfferButton: '身元を書き出す',
  identityError: 'うまくいきませんでした（{reason}）。',
  identityError_not_identity_file: 'そのファイルは koikoi の身元ファイルではありません。',
  identityError_unsupported_version: 'その身元ファイルは、このページが読めない新しい版です。',
  identityError_damaged_identity_file: 'そのファイルは壊れています（途中で切れているか、書き換えられています）。',
  identityError_wrong_passphrase: 'このパスフレーズではそのファイルを開けません（またはファイルが書き換えられています）。',
  identityError_bad_identity_file: 'そのファイルは開けましたが、正しい身元が入っていません。',
  // -- rooms, lobby, waiting, rules page, leaderboard (issue 24 §4, §5) --
  presetNintendo: '任天堂のルール: 12か月、得点は累計、7点以上で2倍',
  presetKoikoiOnline: 'こいこいオンライン: 持ち点25、8点以上で2倍、こいこいは何度でも',
  presetTeachingCard: '解説カードのルール: 合う札があれば出す、こいこいは1回戦に1度',
  presetWikipedia: 'ウィキペディアのルール: 五光15点、月札あり、親権あり',
  presetBoardGame: 'ボードゲーム版: 持ち点100、勝った人のこいこい1回ごとに2倍',
  presetClassicVariant: '古典的な変種: 50点先取、倍率なし、八橋は万能札',
  shortNintendo: '任天堂', shortKoikoiOnline: 'こいこいオンライン', shortTeachingCard: '解説カード',
  shortWikipedia: 'ウィキペディア', shortBoardGame: 'ボードゲーム', shortClassicVariant: '古典的な変種',
  rounds12: '12回戦（1年分）', rounds6: '6回戦（半年）', rounds3: '3回戦', rounds1: '1回戦',
  roundsN: '{n}回戦', roundsUntil: '{n}点先取', moreOptions: 'その他の設定',
  otherRounds: '別の回戦数（空欄: 上で選んだもの）', passwordShort: 'パスワード（任意）',
  passwordHint: 'パスワードがない場合は、相手と短い確認コードを照合します。',
  ratedShort: 'レーティング対局', seeRules: 'このルールを読む', ratingsUrl: 'レーティングサービス（空欄: リレーのもの）',
  findRooms: '公開中の部屋を探す', rulesHelp: 'ルールとヘルプ', leaderboard: 'ランキング',
  lobbyHost: 'ホスト: {who}', lobbyNoName: '（名前なし）', lobbyChanged: '{rules}（変更あり）', lobbyRulesUnknown: 'ルールの表示なし',
  lobbyRated: 'レーティング対局', lobbyUnrated: 'レーティングなし', lobbyPassword: 'パスワードあり', lobbyNoPassword: 'パスワードなし',
  lobbyWaited: '{t}待機中', lobbySeconds: '{n}秒', lobbyMinutes: '{n}分', lobbyHours: '{n}時間',
  lobbyJoin: '入る', lobbyPasswordAsk: 'この部屋にはパスワードがあります。ホストに聞いて入力してから入ってください。',
  lobbyNote: 'ロビーには各ホストが公開した情報が表示されます。対局前に、ホストが実際に提案する条件を確認して署名します。',
  lobbyOlder: '古いアプリ: 名前の公開なし',
  roomOpen: '部屋を作りました', inviteLink: '招待リンク', copied: 'コピーしました', cancelRoom: 'キャンセルして部屋を閉じる',
  inviteHint: 'リンク（またはコード）を相手に送ってください。相手が入ると対局が始まります。',
  rulesTitle: 'ルール: {rules}', close: '閉じる', rulesChoose: '表示するルール', roomRules: 'この部屋のルール',
  howToPlay: '遊び方', howTo1: '花札は12か月、各月4枚の48枚です。二人に8枚ずつ配り、場に8枚を表向きに並べます。',
  howTo2: '自分の番では手札から1枚出します。場に同じ月の札があれば両方を取り、なければ場に置きます。続いて山札の一番上をめくり、同じようにします。',
  howTo3: '取った札で役を作ると得点になります。役ができたら、あがって得点するか、こいこいしてさらに狙うかを選びます。ただし相手が先に役を作ると相手の得点になります。',
  howTo4: '親が先に打ちます。決まった回戦数を戦い、得点で勝敗を決めます。',
  yakuHeading: '役', yakuCards: '札', yakuPointsCol: '点', yakuRuleCol: '役',
  yakuGrows: '{n}点、1枚増えるごとに+1', yakuFixed: '{n}点',
  yr_goko: '光札5枚すべて', yr_shiko: '小野道風を除く光札4枚', yr_ame_shiko: '小野道風とほかの光札3枚',
  yr_sanko: '小野道風を除く光札3枚', yr_sanko_rain: '光札どれでも3枚', yr_hanami: '桜に幕と菊に盃', yr_tsukimi: '芒に月と菊に盃',
  yr_inoshikacho: '猪・鹿・蝶', yr_akatan: '赤短3枚', yr_aotan: '青短3枚',
  yr_akatan_aotan: '赤短と青短の6枚（両方の代わり）', yr_tane: '種札5枚', yr_tan: '短冊5枚', yr_kasu: 'カス10枚',
  yr_tsukifuda: 'その回戦の月の札4枚', yr_teshi: '配り札: 同じ月の4枚', yr_kuttsuki: '配り札: 4組の対',
  yr_tenho: '配り札: 同じ月の4枚か4組の対', yr_double_tenho: '配り札: 同じ月の4枚が2組', yr_oya_ken: '手札がなくなったときの親',
  yaNotBesideIno: '猪鹿蝶と同時には数えない', yaNotBesideRibbons: '赤短・青短と同時には数えない', yaCupPlain: '菊に盃はカスにも数える',
  yaBrightsHighest: '光の役は一番高いものだけ', yaEndsRound: 'その場で回戦終了、倍率なし', yaBonusOnly: 'ほかの役があるときだけ',
  yaJoker: '{card}はカスとしても数えられる',
  stopKoikoi: 'あがりとこいこい', stopRule: 'あがり: 回戦が終わり、できた役の得点を得ます。',
  koikoiNext: 'こいこい: 続けます。次にどちらかが役を作るか増やすと回戦が終わり、その人が得点します。',
  koikoiShobu: 'こいこい: 誰かがあがるまで続けます。後であがれば、その時の役すべてが得点になります。',
  callsOne: 'こいこいは1回戦に1度。', callsAny: 'こいこいは二人とも何度でもできます。', callsN: 'こいこいは1回戦に{n}回まで。',
  multOpponent: 'こいこいした相手に勝つと得点が2倍。', multShared: 'こいこいのたびに（どちらがしても）倍率が1増え、勝った人の得点は×(1+回数)。',
  multPow2: '勝った人自身のこいこい1回ごとに得点が2倍。', multNone: 'こいこいで倍率は変わりません。こいこいは回戦を失う危険だけです。',
  doublingPools: '倍付けと持ち点', doubleAt: '（こいこいの前に）{n}点以上の回戦は2倍。', doubleNone: '高い得点の倍付けはありません。',
  poolRule: '二人とも{n}点から始め、回戦の負けた人が勝った人に払います（残りの持ち点まで）。', poolBust: '持ち点が0になった人はその場で負けです。',
  addRule: '得点は0から累計します。', endRounds: '{n}回戦が終わって得点の多い人の勝ち。', endRound1: '1回戦が終わって得点の多い人の勝ち。', endTarget: '先に{n}点に達した人の勝ち。',
  exhaustDraw: '誰もあがらずに手札がなくなると、誰も得点しません。', exhaustOya: '誰もあがらずに手札がなくなると、親が{n}点を得ます（親権）。',
  exhaustCaller: '手札がなくなると、最後にこいこいした人がその役を得点します。こいこいがなければ親が{n}点を得ます。',
  changesHeading: '任天堂のルールとの違い', changesNone: '違いはありません。任天堂のルールです。', changeLine: '{what}: {value}（任天堂: {nintendo}）',
  sw_rounds: '回戦数', sw_bright_values: '光の役の点（五光・四光・雨四光・三光）', sw_named_extension: '役が札の追加で増える',
  sw_tane_with_inoshikacho: '猪鹿蝶と同時にタネも数える', sw_tan_with_ribbon_yaku: '赤短・青短と同時にタンも数える',
  sw_ribbon_pair: '赤短と青短の両方', sw_cup_is_plain: '菊に盃をカスにも数える', sw_joker_card: '万能札', sw_viewing: '花見・月見',
  sw_monthly_yaku_points: '月札', sw_double_threshold: '2倍になる点', sw_koikoi_multiplier: 'こいこいの倍率',
  sw_max_calls_per_round: '1回戦のこいこい回数（0: 無制限）', sw_after_call: 'こいこいの後', sw_last_turn_stop_only: '最後の番はあがりのみ',
  sw_exhaustion: '手札がなくなったとき', sw_dealer_after_draw: '流れた回戦の後の親', sw_hand_yaku: '手役',
  sw_hand_yaku_both: '二人とも手役', sw_hand_capture: '合う札を出す義務', sw_first_dealer_tie: '最初の親が同点のとき',
  sw_pool_start: '持ち点', sw_transfer_cap: '支払いの上限', sw_bust_ends_game: '0点で負け', sw_target_score: '目標点',
  yes: 'はい', no: 'いいえ',
  securityHeading: '確認コードとパスワード',
  security1: 'リレーはメッセージを中継するだけで、札を見ることも手を変えることもできません。ただしリレーを操る者が二人の間に入り、それぞれに相手のふりをすることは試みられます。',
  security2: '確認コードはそれを見抜くためのものです。二人が直接つながっているときだけ同じコードになります。通話やチャットなど別の手段で照合してください。パスワードを使えば、それを知らない者は間に入れません。',
  security3: '札は二人で証明付きでシャッフルするので、ホストを含め誰も札を仕込んだり伏せ札を見たりできません。',
  leaderboardTitle: 'ランキング', lbRank: '順位', lbPlayer: 'プレイヤー', lbRating: 'レート', lbGames: '対局数', lbRecord: '勝 / 負 / 分',
  lbNone: 'このリレーにはレーティングサービスがありません。', lbEmpty: 'レーティング対局の結果はまだありません。', lbLoading: '読み込み中…', lbNote: 'レートは控えめな推定値（μ − 3σ）です。対局が増えると上がります。',
  // Seeing the game happen (issue 24 §2: motion, the last move, the move log, announcements, sound)
  movesTitle: '手の記録（{n}）', movesNone: 'この回戦の手はまだありません。',
  logPlayed: '{who}が{card}を出した', logTook: '、{cards}を取った', logDrew: '。{card}を引いた', logKoikoi: '。こいこい', logStop: '。あがり',
  logClaim: '{who}が{yaku}を申告', logFirst: '親決めの札: {draws}。最初の親: {who}。',
  logCoin: '親決めのコイン: {card}。最初の親: {who}。', drewFor: '{who}: {card}',
  annKoikoi: '{who}: こいこい！', annStop: '{who}: あがり', annYaku: '{who}の役: {yaku}', annFirst: '最初の親: {who}',
  soundOn: '効果音あり', soundOff: '効果音なし', soundLabel: '効果音',
  capturesMine: 'あなたの取り札', capturesTheirs: '{who}の取り札', cupPlain: 'このルールでは菊に盃をカスにも数える',
  lastMoveMark: '相手の直前の手',
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

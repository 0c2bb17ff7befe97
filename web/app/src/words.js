// Words a player reads instead of codes: counts with the plural the language's rules call for
// (Intl.PluralRules), and every reason a match can stop or a request fail for, in English and
// Japanese (the reasons of spec/game.md §9, spec/protocol.md §2.4 and §12, the relay's refusals
// and the page's own), never the reason's id. The Japanese follows the terminal's names for the
// same reasons (the terminal's catalogue, koikoi_p2p/locale/ja). And the value of every rules switch (spec/rules.md
// §3.2) as a player reads it, meaning what koikoi rules says of it (koikoi_p2p/rules/describe.py).
import { cardName, lang, t, yakuName } from './i18n.js';
import { ALL_SWITCHES, CARDS, HAND_YAKU_IDS } from '../../src/api/rules.js';

/** @type {Map<string, Intl.PluralRules>} */
const RULES = new Map();

/**
 * A count in words: the string `${key}_${category}` for the plural category the current
 * language gives `n` ('one', 'other', ...; a missing category falls back to 'other'), with `{n}`
 * and `params` filled in. The one place the app chooses a plural form.
 * @param {string} key @param {number} n @param {{[name: string]: string | number}} [params]
 */
export function tn(key, n, params = {}) {
  const l = lang();
  let rules = RULES.get(l);
  if (!rules) RULES.set(l, (rules = new Intl.PluralRules(l)));
  const cat = rules.select(n);
  const look = /** @type {(k: string, p: {[name: string]: string | number}) => string} */ (/** @type {unknown} */ (t));
  const want = `${key}_${cat}`;
  const text = look(want, { n, ...params });
  return text === want ? look(`${key}_other`, { n, ...params }) : text;
}

/** @type {{en: Record<string, string>, ja: Record<string, string>}} */
const REASONS = {
  en: {
    // ended by a player or the clock
    terms_refused: 'you refused the proposed terms', sas_differs: 'you said the security codes differ',
    own_timeout: 'your time for a decision ran out', abandoned: 'the opponent did not answer within the deadline',
    timeout: 'the opponent did not answer in time', resigned: 'a player resigned',
    // the connection and the relay
    transport_closed: 'the connection closed before the end', connection_closed: 'the connection closed before the end',
    gave_up: 'the connection could not be restored', peer_left: 'the opponent left', unreachable: 'the relay could not be reached',
    room_not_found: 'there is no room with this code', room_full: 'the room is full', room_closed: 'the room was closed',
    rejoin_timeout: 'the opponent did not come back in time', resume_failed: 'the match could not be resumed',
    bad_relay_message: 'the relay sent something it should not', frame_too_large: 'a message was too large for the relay',
    frame_gap: 'messages were lost on the way', seat_locked: 'this match is open in another tab or window',
    bad_password: 'the room passwords differ', key_confirmation: 'the room passwords differ',
    // this page
    no_saved_match: 'the saved match is gone', replay_mismatch: 'the saved match does not replay as it was played',
    internal_error: 'an error in this page', illegal_choice: 'that is not a legal move now', bad_state: 'that is not possible now',
    bad_switch: 'a switch of the rules is not valid', unknown_switch: 'there is no rules switch of that name',
    unknown_preset: 'there is no rule set of that name', bad_profile: 'the rules are not valid',
    // the game (spec/game.md §9)
    out_of_turn: 'a message out of turn', unknown_message: 'a message of an unknown kind', bad_message: 'a malformed message',
    bad_terms: 'terms that are not valid', unsupported_version: 'a version this page does not support', bad_key: 'a deck key that is not valid',
    bad_shuffle: 'a shuffle that is not valid', bad_share: 'a decryption share that is not valid', missing_shares: 'decryption shares are missing',
    wrong_shares: 'decryption shares for the wrong cards', unexpected_shares: 'decryption shares that were not asked for',
    illegal_action: 'a move the rules do not allow', inconsistent_reveal: 'a revealed card that does not add up',
    bad_disclosed_key: 'a disclosed round key that does not match', bad_deck: 'the deck failed its check at the round end',
    inconsistent_round: 'the round failed its check at the end', wrong_result: 'a round result that disagrees',
    bad_result_signature: 'a signature that does not match the result', deck_state: 'a face-down card cannot be known',
    // the session (spec/protocol.md §2.4)
    bad_frame: 'a malformed frame', unexpected_message: 'an unexpected message', mode_mismatch: 'one of you gave a room password and the other did not',
    bad_name: 'a display name that is not valid', bad_commitment: 'a key that does not match its commitment',
    pake_failed: 'the room passwords differ', key_confirmation_failed: 'the room passwords differ', bad_signature: 'a signature that is not valid',
    aead_failure: 'a frame that does not authenticate', reflected: 'our own message sent back to us', bad_envelope: 'a malformed message envelope',
    wrong_session: 'a message of another session', wrong_sender: 'a message from the wrong sender', bad_seq: 'a message out of sequence',
    bad_prev: 'a message that breaks the chain', equivocation: 'two different messages signed with one number',
    deadline_passed: 'the deadline passed', own_message_refused: 'our own message was refused',
    // files and the deck (spec/protocol.md §8, §9; spec/crypto.md §8.8)
    bad_magic: 'not a file of this program', bad_file: 'a damaged file', bad_handshake: 'a handshake record that is not valid',
    bad_handshake_record: 'a handshake record that is not valid', bad_handshake_signature: 'a handshake record with a wrong signature',
    bad_closing: 'an ending mark that does not match', truncated: 'a record cut short', bad_claim: 'a claim that is not valid',
    unproven_claim: 'a claim its file does not prove', false_claim: 'a false claim', unknown_file: 'a file of an unknown kind',
    different_sessions: 'files of different sessions', bad_seat: 'a seat that is not valid', non_canonical: 'an encoding that is not canonical',
    invalid_length: 'data of the wrong length', invalid_point: 'a point that is not valid', invalid_scalar: 'a scalar that is not valid',
    bad_key_proof: 'a key proof that does not verify', bad_shuffle_proof: 'a shuffle proof that does not verify',
    bad_share_proof: 'a share proof that does not verify', wrong_key: 'a secret key that does not match its public key',
    not_a_card: 'a decryption that is no card', not_a_permutation: 'a shuffle that is not a permutation', audit_failed: 'the check at the round end failed',
  },
  ja: {
    terms_refused: '対局条件を断りました', sas_differs: '確認コードが違うと答えました',
    own_timeout: '持ち時間が切れました', abandoned: '相手が持ち時間内に応答しませんでした',
    timeout: '相手が時間内に応答しませんでした', resigned: '投了がありました',
    transport_closed: '終局前に接続が切れました', connection_closed: '終局前に接続が切れました',
    gave_up: '接続を回復できませんでした', peer_left: '相手が退出しました', unreachable: 'リレーに接続できません',
    room_not_found: 'このコードの部屋はありません', room_full: '部屋は満員です', room_closed: '部屋が閉じられました',
    rejoin_timeout: '相手が時間内に戻りませんでした', resume_failed: '対局を再開できませんでした',
    bad_relay_message: 'リレーが不正なものを送りました', frame_too_large: 'メッセージがリレーには大きすぎます',
    frame_gap: '途中でメッセージが失われました', seat_locked: 'この対局は別のタブかウィンドウで開かれています',
    bad_password: 'パスワードが違います', key_confirmation: 'パスワードが違います',
    no_saved_match: '保存された対局がありません', replay_mismatch: '保存された対局が元どおりに再現できません',
    internal_error: 'このページ内部のエラー', illegal_choice: '今は指せない手です', bad_state: '今はできません',
    bad_switch: 'ルールのスイッチが正しくありません', unknown_switch: 'その名前のスイッチはありません',
    unknown_preset: 'その名前のルールはありません', bad_profile: 'ルールが正しくありません',
    out_of_turn: '順番でないメッセージ', unknown_message: '知らない種類のメッセージ', bad_message: '形式の正しくないメッセージ',
    bad_terms: '正しくない対局条件', unsupported_version: '対応していない版', bad_key: '正しくない鍵',
    bad_shuffle: '正しくないシャッフル', bad_share: '正しくない復号シェア', missing_shares: '足りない復号シェア',
    wrong_shares: '違う札の復号シェア', unexpected_shares: '求められていない復号シェア',
    illegal_action: 'ルールで許されない手', inconsistent_reveal: '辻褄の合わない札の公開',
    bad_disclosed_key: '回戦の鍵と合わない開示', bad_deck: '山札の再検査に失敗',
    inconsistent_round: '回戦の再検査に失敗', wrong_result: '食い違う結果',
    bad_result_signature: '結果に合わない署名', deck_state: '伏せ札が分からない',
    bad_frame: '正しくないフレーム', unexpected_message: '予期しないメッセージ', mode_mismatch: 'パスワードの有無が食い違う',
    bad_name: '正しくない表示名', bad_commitment: '約束と合わない鍵',
    pake_failed: 'パスワードの確認に失敗', key_confirmation_failed: '鍵の確認に失敗', bad_signature: '正しくない署名',
    aead_failure: '認証できないフレーム', reflected: 'こちらが送ったものの送り返し', bad_envelope: '正しくないメッセージ',
    wrong_session: '別のセッションのメッセージ', wrong_sender: '送り手の違うメッセージ', bad_seq: '番号の飛んだメッセージ',
    bad_prev: '連鎖の切れたメッセージ', equivocation: '同じ番号への二重の署名',
    deadline_passed: '期限が過ぎました', own_message_refused: 'こちらのメッセージが拒否されました',
    bad_magic: 'このプログラムのファイルではない', bad_file: '壊れたファイル', bad_handshake: '正しくない接続記録',
    bad_handshake_record: '正しくない接続記録', bad_handshake_signature: '接続記録の署名が正しくない',
    bad_closing: '終了の印が合わない', truncated: '途中で切れた記録', bad_claim: '正しくない申し立て',
    unproven_claim: '証明されない申し立て', false_claim: '偽りの申し立て', unknown_file: '知らない種類のファイル',
    different_sessions: '別々のセッション', bad_seat: '正しくない席', non_canonical: '正規形でない符号化',
    invalid_length: '長さの違うデータ', invalid_point: '正しくない点', invalid_scalar: '正しくないスカラー',
    bad_key_proof: '鍵の証明が通らない', bad_shuffle_proof: 'シャッフルの証明が通らない',
    bad_share_proof: 'シェアの証明が通らない', wrong_key: '公開鍵と合わない秘密鍵',
    not_a_card: 'どの札でもない復号', not_a_permutation: '並べ替えになっていない', audit_failed: '回戦末の検査に失敗',
  },
};

/** Every reason the page has words for (for the completeness test). */
export function reasonIds() {
  return { en: Object.keys(REASONS.en), ja: Object.keys(REASONS.ja) };
}

/**
 * A reason in the player's words. An unknown one (a newer peer's) gets a general sentence: the
 * id stays out of the text (the dialog keeps it in an attribute for a bug report).
 * @param {string} reason
 */
export function reasonText(reason) {
  const table = REASONS[lang()];
  return Object.hasOwn(table, reason) ? table[reason] : t('reasonUnknown');
}

/** A list in the language's way ("a, b, c"; 「a、b、c」). @param {string[]} items */
function listed(items) {
  return items.reduce((a, b) => t('svList', { a, b }));
}

/** A card's name from its id (spec/rules.md §2). @param {string} id */
function cardWords(id) {
  const c = CARDS.find((x) => x.id === id);
  return c ? cardName(c.index) : t('svUnknown');
}

/** Points, or `zero` for 0 (a switch whose 0 means "none"). @param {number} n @param {string} zero */
const pointsOr = (n, zero) => (n === 0 ? zero : tn('pointsN', n));

/**
 * A switch's value in the player's words (spec/rules.md §3.2), never its id: the rules page's
 * list of what a profile changes from Nintendo's rules. A value this page has no words for (a
 * newer peer's) reads as such.
 * @param {string} name a switch @param {unknown} value its JSON form
 */
export function switchValue(name, value) {
  const sw = ALL_SWITCHES.find((s) => s.name === name);
  if (!sw) return t('svUnknown');
  const n = typeof value === 'number' ? value : NaN;
  switch (name) {
    case 'rounds': return n === 0 ? t('svRoundsUntilTarget') : tn('svRoundsN', n);
    case 'max_calls_per_round': return n === 0 ? t('svCallsAny') : tn('svCallsN', n);
    case 'double_threshold': return pointsOr(n, t('svNever'));
    case 'monthly_yaku_points': case 'target_score': return pointsOr(n, t('svNone'));
    case 'pool_start': return pointsOr(n, t('svPoolNone'));
    case 'oya_ken_points': return tn('pointsN', n);
    case 'bright_values': {
      const ids = ['goko', 'shiko', 'ame_shiko', 'sanko'];
      return listed(/** @type {number[]} */ (value).map((v, i) => t('svYakuPoints', { yaku: yakuName(ids[i]), points: tn('pointsN', v) })));
    }
    case 'hand_yaku': {
      const hy = /** @type {Record<string, number>} */ (value);
      const ids = HAND_YAKU_IDS.filter((id) => Object.hasOwn(hy, id));
      return ids.length === 0 ? t('svNone') : listed(ids.map((id) => t('svYakuPoints', { yaku: yakuName(id), points: tn('pointsN', hy[id]) })));
    }
    case 'joker_card': return value === '' ? t('svNone') : cardWords(String(value));
    case 'hanami_cancelled_by': case 'tsukimi_cancelled_by': {
      const ids = /** @type {string[]} */ (value);
      return ids.length === 0 ? t('svNone') : listed(ids.map(cardWords));
    }
    case 'ribbon_pair':
      return String(value) in { chofuku_10: 1, separate_5_5: 1 }
        ? t(/** @type {any} */ (`sv_ribbon_pair_${value}`), { both: yakuName('akatan_aotan'), a: yakuName('akatan'), b: yakuName('aotan') })
        : t('svUnknown');
    default:
      break;
  }
  if (sw.kind === 'bool') return t(value ? 'yes' : 'no');
  if (sw.kind === 'enum' && sw.choices?.includes(String(value))) {
    const key = `sv_${name}_${value}`;
    const text = t(/** @type {any} */ (key));
    if (text !== key) return text;
  }
  return t('svUnknown');
}

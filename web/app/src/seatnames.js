// What the page calls each seat: "You", the practice computer by its level, and an online
// opponent by the display name its key signed with the start of the key's fingerprint beside it
// (names are not unique). An opponent who gave no name is its fingerprint alone, as the terminal
// names one (cli/display_name.shown) and the terms say "Host: 52ww-jotq (no name given)"; never
// "Opponent ykpi-4zuw", which reads as a name (QA).
import { t } from './i18n.js';

/** The word for each computer level (createPlayer's kinds). @type {{[level: string]: 'levelWordRandom' | 'levelWordGreedy' | 'levelWordStrong' | 'levelWordMaster' | 'levelWordExpert'}} */
const LEVEL_WORDS = { random: 'levelWordRandom', greedy: 'levelWordGreedy', strong: 'levelWordStrong', master: 'levelWordMaster', expert: 'levelWordExpert' };

/** "Computer (medium)": the practice computer by its level, or "" for an unknown level. @param {string} level */
export function computerName(level) {
  const word = LEVEL_WORDS[level];
  return word ? t('computerNamed', { level: t(word) }) : '';
}

/** The start of a seat's key fingerprint the page shows ("ykpi-4zuw"), or "". @param {any} table @param {number} seat */
function shortFingerprint(table, seat) {
  const fp = table.paired && table.mode !== 'practice' ? table.paired.fingerprints?.[seat] ?? '' : '';
  return fp ? String(fp).slice(0, 9) : '';
}

/**
 * Each seat's name in the page's sentences ("Waiting for Sakura m3qa-8cde…", "ykpi-4zuw wins").
 * @param {any} table @returns {[string, string]}
 */
export function seatNames(table) {
  const n = table.paired ? table.paired.names ?? ['', ''] : ['', ''];
  return /** @type {[string, string]} */ ([0, 1].map((s) => {
    if (s === table.seat) return t('you');
    // The computer by its level, in the person's words and language (not the name it signed).
    if (table.mode === 'practice') return computerName(String(table.meta?.level ?? '')) || n[s] || t('level');
    const fp = shortFingerprint(table, s);
    if (!n[s]) return fp || t('opponent');
    return fp ? `${n[s]} ${fp}` : n[s];
  }));
}

/**
 * @typedef {{name: string, tag: string, noName: boolean}} SeatLabel the name, which may be cut
 *   short on a narrow screen; apart from it the fingerprint's start, which never is (it tells two
 *   players of one name apart); and whether the player gave no name (the bar then shows the
 *   fingerprint as its name, and says "(no name)" beside it while there is room)
 */

/**
 * The player bars' labels. @param {any} table @param {[string, string]} names (seatNames)
 * @returns {[SeatLabel, SeatLabel]}
 */
export function seatLabels(table, names) {
  return /** @type {[SeatLabel, SeatLabel]} */ ([0, 1].map((s) => {
    const tag = s !== table.seat ? shortFingerprint(table, s) : '';
    if (!tag) return { name: names[s], tag: '', noName: false };
    const noName = !table.paired?.names?.[s];
    return { name: noName ? '' : names[s].slice(0, names[s].length - tag.length - 1), tag, noName };
  }));
}

// The match report's verdict lines: what `koikoi verify FILE` prints of the same file
// (koikoi_p2p/cli/cmd_verify.py), in the page's language. Every sentence is the terminal's own
// message of the catalogue (messages.en.json, context null), so a Japanese page says what
// `koikoi verify --lang ja` says (QA: the report's verify section stayed English in Japanese).
// The JavaScript auditor gives its notes as English sentences (the vectors hold them so); each
// is read back against the templates it is written from (NOTES) and said again from the
// catalogue, its values in words (a message type, a reason); one the page cannot read back is
// shown as the auditor wrote it.
import { englishForms, lang, reasonMessage, roleName, t, tn, wordName } from './i18n.js';
import { fingerprint } from '../../src/api/match.js';

/**
 * The notes and details the auditor writes (web/src/audit/replay.js), by the page's key of their
 * template; test/app/verify_text.test.js checks that every note the auditor's source can write
 * is one of them.
 */
export const NOTES = /** @type {const} */ ([
  'vnKeysStop', 'vnUnfinished', 'vnNoClosing', 'vdResignedAt', 'vnBlind', 'vnMoot', 'vnProvesNothing', 'vnFalse',
  'vdAbandonedAt', 'vnLastSigned', 'vnNoEnvelope', 'vnNotAbsent', 'vnWaitsFor', 'vnDeadline', 'vnNothingCame',
  'vnCompleteAt', 'vnNoRoundKey', 'vnNoFrame', 'vnNotSigned', 'vnAccepted', 'vnNotChain', 'vnAfterN', 'vnNotHead',
  'vnNoKeys', 'vnLegal',
]);

/** Straight and curly apostrophes alike (the auditor writes ', the page's English ’). @param {string} s */
const plain = (s) => s.replaceAll('’', "'");
const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @type {Array<{key: string, names: string[], re: RegExp}> | null} */
let compiled = null;

/** Each template's English forms as a pattern: its placeholders' names and a RegExp (made once). */
const patterns = () => (compiled ??= NOTES.flatMap((key) => englishForms(key).map((english) => {
  const names = [...english.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const source = plain(english).split(/\{\w+\}/).map(escape).join('(.+?)');
  return { key, names, re: new RegExp(`^${source}$`) };
})));

/**
 * Longest sentence read back. The auditor's notes are short; a pattern of several lazy groups can
 * take time growing with a power of the length on a text that almost matches, so a longer one (a
 * hostile file's) stays as the auditor wrote it.
 */
const LONGEST_NOTE = 2000;

/**
 * A sentence of the auditor read back: its template's key and values, or null.
 * @param {string} text @returns {{key: string, values: Record<string, string>} | null}
 */
export function readBack(text) {
  if (text.length > LONGEST_NOTE) return null;
  for (const p of patterns()) {
    const m = p.re.exec(plain(text));
    if (m) return { key: p.key, values: Object.fromEntries(p.names.map((n, i) => [n, m[i + 1]])) };
  }
  return null;
}

/** A message type or reason code in words (the terminal's `word`); another value as it is. @param {string} id */
const word = (id) => wordName(id) ?? reasonMessage(id) ?? id;

/**
 * The protocol's English detail with the reason it may begin with in words ("invalid_length: a
 * secret is 32 bytes" -> "data of the wrong length: ..."), as cmd_verify's english_detail.
 * @param {string} message @returns {string}
 */
function englishDetail(message) {
  const at = message.indexOf(': ');
  if (at > 0 && /^[a-z_][a-z0-9_]*$/.test(message.slice(0, at))) {
    const named = word(message.slice(0, at));
    return named !== message.slice(0, at) ? `${named}: ${englishDetail(message.slice(at + 2))}` : message;
  }
  return /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(message) ? word(message) : message;
}

/**
 * An auditor's sentence in the page's language: read back and said from the catalogue, its
 * nested sentences too; one that is no known template stays as it is.
 * @param {string} text @returns {string}
 */
export function sayNote(text) {
  const found = readBack(text);
  if (!found) return text;
  /** @type {Record<string, string | number>} */
  const values = {};
  for (const [name, value] of Object.entries(found.values)) {
    if (name === 'expected' || name === 'claimed') values[name] = word(value);
    else if (name === 'detail' || name === 'why') values[name] = sayNote(value);
    else values[name] = value;
  }
  return found.key === 'vnAfterN' ? tn('vnAfterN', Number(values.n), values) : t(found.key, values);
}

/**
 * A deviation as core.py's Deviation.describe says it: who, where, and why in words; the
 * protocol's English detail only in English (a translation names the reason alone).
 * @param {import('../../src/audit/replay.js').Deviation} d @returns {string}
 */
export function sayDeviation(d) {
  const { seat, seq } = d;
  if (d.reason === 'resigned' && seat !== null) return seq === null ? t('vdResigned', { seat }) : t('vdResignedAt', { seat, seq });
  // The message of an abandonment or a false claim is the auditor's own sentence: said in full.
  const detail = d.message && readBack(d.message) ? sayNote(d.message) : null;
  if (d.reason === 'abandoned' && seat !== null) {
    if (!d.message) return t('vdAbandonedAt', { seat, seq: String(seq) });
    const said = detail ?? d.message;
    return seq === null ? t('vdAbandonedDetail', { seat, detail: said }) : t('vdAbandonedAtDetail', { seat, seq, detail: said });
  }
  const reason = word(d.reason);
  const why = !d.message ? t('vdReason', { reason })
    : detail !== null ? t('vdReasonDetail', { reason, detail })
      : t('vdReasonMessage', { reason, message: lang() === 'en' ? englishDetail(d.message) : d.message });
  if (seat === null) return seq === null ? t('vdNobody', { why }) : t('vdNobodyAt', { seq, why });
  return seq === null ? t('vdSeat', { seat, why }) : t('vdSeatAt', { seat, seq, why });
}

/** "player 0 (host): Hanako (mfrg-gzdf-mztw-q2lk)", one line a seat. @param {string[]} keys hex @param {[string, string]} names */
function players(keys, names) {
  return keys.map((hex, seat) => {
    const fp = fingerprint(Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16)));
    return t('vfPlayer', { seat, role: roleName(seat ? 'joiner' : 'host'), who: names[seat] ? `${names[seat]} (${fp})` : fp });
  });
}

/** The rounds a match counted (a resignation ends it inside a round never scored). @param {number} n @param {number | null} resigned */
function roundsPlayed(n, resigned) {
  if (resigned === null) return tn('roundsN', n);
  return n === 0 ? t('vfResignedFirst') : tn('vfRoundsResignedN', n);
}

/**
 * Each round's winner and the final scores. @param {Array<[number, number | null, number]>} rounds
 * @param {number[]} scores @param {number | null} winner @param {number | null} resigned
 */
function outcome(rounds, scores, winner, resigned) {
  const lines = rounds.map(([n, who, points]) => t('vfRound', {
    n, won: who === null ? t('vfRoundDrawn') : t('vfRoundWon', { seat: who, points: tn('pointsN', points) }),
  }));
  let verdict = winner === null ? t('vfDraw') : t('vfWins', { seat: winner });
  if (resigned !== null && winner !== null) verdict = t('vfWinsResigned', { seat: winner, other: resigned });
  lines.push(t('vfFinal', { first: scores[0], second: scores[1], verdict }));
  return lines;
}

/**
 * What `koikoi verify FILE` prints of the report's file, line by line, in the page's language
 * (without the " (you)" the terminal adds beside its own user's key: the page knows no user).
 * @param {import('./report_model.js').MatchReport} rep @returns {string[]}
 */
export function verifyLines(rep) {
  if (rep.failure) {
    const { reason, message, index } = rep.failure;
    const why = t('vfFailure', { reason: word(reason), message: lang() === 'en' ? englishDetail(message) : message });
    return [index !== null ? t('vfInvalidFileAt', { index, why }) : t('vfInvalidFile', { why })];
  }
  const report = rep.report;
  if (!report) return [];
  const lines = players(report.keys, rep.names);
  const notes = /** @type {string[]} */ (report.notes).map(sayNote);
  if (report.kind === 'abandonment') return [...lines, ...notes, t(report.ok ? 'vfClaimHolds' : 'vfClaimFails')];
  if (report.kind === 'evidence') {
    return [...lines, ...(report.deviation ? [sayDeviation(report.deviation)] : []), ...notes, t(report.ok ? 'vfEvidenceProves' : 'vfEvidenceFails')];
  }
  if (report.deviation) return [...lines, t('vfInvalid', { finding: sayDeviation(report.deviation) })];
  if (!report.ok) return [...lines, ...notes, t('vfIncomplete', { messages: tn('messagesN', report.messages) })];
  const resigned = report.resigned ? report.resigned.seat : null;
  return [...lines, ...notes,
    t('vfValid', { rules: String(report.profile), rounds: roundsPlayed(report.rounds.length, resigned), messages: tn('messagesN', report.messages) }),
    ...outcome(report.rounds, report.scores ?? [0, 0], report.winner, resigned)];
}

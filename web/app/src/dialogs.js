// The contents of the play screen's dialogs that ask or tell the person about the match itself:
// the proposed terms, the resignation question, the match summary and the stopped match. Plain
// builders fed the table (seat.js) and the seats' names, with the answers as callbacks, so the
// screenshot tests draw exactly what the app shows.
import { h } from './dom.js';
import { roundSummary } from './summary.js';
import { t } from './i18n.js';
import { reasonText } from './words.js';
import { profileText } from './profiles.js';
import { answerClock } from './board.js';

/**
 * The terms the host proposes, with who proposes them (name and key) and whether the match is
 * rated, before the joiner signs anything (spec/game.md §2.5).
 * @param {any} table @param {[string, string]} names @param {{accept: () => void, refuse: () => void}} on
 */
export function termsDialog(table, names, on) {
  const terms = table.terms;
  const fp = table.paired ? table.paired.fingerprints[0] : '';
  return h('div', { class: 'terms' }, [
    h('h2', { id: 'dlg-title' }, t('termsTitle')),
    // A host who gave no name is named by its key, as the match report names it by its seat
    // (QA: "Host: Opponent 52ww-jotq" here, "Player 0 (host)" there: one person, several names).
    h('p', { class: 'termshost' }, !table.paired?.names?.[0] && fp ? t('termsHostNoName', { fp: fp.slice(0, 9) }) : t('termsOpponent', { who: names[0] })),
    fp ? h('p', { class: 'muted small fp', 'data-fingerprint': fp }, t('termsKey', { fp })) : null,
    h('p', {}, t('termsRules', { rules: profileText(terms.profile) })),
    h('p', {}, t('termsRounds', { n: terms.rounds })),
    h('p', {}, t('termsDeadlines', { turn: terms.deadlines.turn, step: terms.deadlines.step })),
    h('p', { class: terms.rated ? 'rated' : 'unrated' }, terms.rated ? t('termsRated', { url: terms.ratings }) : t('termsUnrated')),
    answerClock(table),
    h('div', { class: 'choices' }, [
      h('button', { class: 'primary', onclick: on.accept }, t('termsAccept')),
      h('button', { onclick: on.refuse }, t('termsRefuse')),
    ]),
  ]);
}

/**
 * Resign? Cancel is the first (focused) answer: a stray Enter must not end the match.
 * @param {any} table @param {[string, string]} names @param {{cancel: () => void, confirm: () => void}} on
 */
export function resignDialog(table, names, on) {
  return h('div', { class: 'resignask' }, [
    h('h2', { id: 'dlg-title' }, t('resignTitle')),
    // Against the computer nothing is rated or sent anywhere: "counts like any other" would mislead.
    h('p', {}, t(table.mode === 'practice' ? 'resignBodyPractice' : 'resignBody', { who: names[1 - table.seat] })),
    answerClock(table, 'decide'),   // our own decision's clock runs meanwhile (review)
    h('div', { class: 'choices' }, [
      h('button', { class: 'primary', onclick: on.cancel }, t('cancel')),
      h('button', { class: 'resign-confirm danger', onclick: on.confirm }, t('resign')),
    ]),
  ]);
}

/**
 * The match summary: who won (or who resigned), the final score with the names, the last round,
 * what the signatures mean, and the files (transcript, co-signed result, report) as `choices`.
 * @param {any} table @param {[string, string]} names @param {(HTMLElement | null)[]} choices
 */
export function overDialog(table, names, choices) {
  const over = table.over;
  const me = table.seat;
  const resigned = over.resigned ?? null;
  const headline = resigned !== null
    ? (resigned === me ? t('resignedYou', { who: names[1 - me] }) : t('resignedThem', { who: names[resigned] }))
    : over.winner === null ? t('drawMatch') : over.winner === me ? t('youWin') : t('youLose', { who: names[over.winner] });
  return h('div', { class: 'summary matchsum' }, [
    h('h2', { id: 'dlg-title' }, t('matchOver')),
    h('p', { class: `big${resigned !== null ? ' resigned' : ''}`, 'data-winner': over.winner === null ? 'none' : String(over.winner) }, headline),
    h('p', { class: 'finalscore' }, t('finalScoreNamed', { a: names[0], x: over.scores[0], y: over.scores[1], b: names[1] })),
    h('div', { class: 'choices' }, choices),
    h('p', { class: 'muted' }, t('coSigned')),
    table.mode === 'practice' ? h('p', { class: 'muted small' }, t('computerSignature')) : null,
    table.lastRound && resigned === null ? h('details', { class: 'lastround' }, [h('summary', {}, t('roundDoneOpen', { i: table.lastRound.roundIndex })),
      roundSummary(table, names, { nested: true })]) : null,
  ]);
}

/**
 * The match stopped: the opponent missed its deadline (we hold the claim), our own time ran out
 * (spec/protocol.md §12.4: the opponent may claim, we send nothing more), or another reason.
 * @param {any} table @param {[string, string]} names @param {(HTMLElement | null)[]} choices
 * @param {string | null} [note] what the person can do next
 */
export function stoppedDialog(table, names, choices, note = null) {
  const f = table.failure;
  const timeUp = f.reason === 'own_timeout' && !!table.timeUp;
  return h('div', { class: 'summary' }, [
    h('h2', { id: 'dlg-title' }, t('stopped')),
    f.reason === 'abandoned' && f.blame !== null ? h('p', {}, t('abandoned', { who: names[f.blame] })) : null,
    // Before the terms were accepted nothing was signed, so there is nothing to claim (game.md
    // §2.5); the message number is for a bug report, not for the person (QA).
    timeUp
      ? h('p', { class: 'big timeup', 'data-seq': String(table.timeUp.seq), 'data-reason': f.reason }, table.timeUp.type === 'accept'
        ? t('timeUpTerms', { s: table.timeUp.seconds })
        : t('timeUp', { s: table.timeUp.seconds, who: names[1 - table.seat] })) : null,
    // The reason in words; its id stays in an attribute for a bug report, not in the text. The
    // headline of our own time-out already says why (QA: "Why: your time ... ran out" repeated it).
    timeUp ? null : h('p', { class: 'muted', 'data-reason': f.reason }, t('failureWhy', { reason: reasonText(f.reason) })),
    note ? h('p', { class: 'note' }, note) : null,
    h('div', { class: 'choices' }, choices),
  ]);
}

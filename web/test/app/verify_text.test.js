// The match report's verdict lines are what `koikoi verify FILE` prints of the same file, in the
// page's language (QA: the verify section stayed English on a Japanese page): checked against the
// Python command itself, in English and Japanese, for finished, resigned, unfinished, evidence and
// abandonment files; and every note the JavaScript auditor can write is read back and said in
// Japanese, never left in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { KOIKOI, pythonMissing } from '../python.js';
import { ready } from '../../src/api/match.js';
import { buildReport } from '../../app/src/report_model.js';
import { NOTES, readBack, sayDeviation, sayNote, verifyLines } from '../../app/src/verify_text.js';
import { setLang } from '../../app/src/i18n.js';
import { encode } from '../../src/protocol/codec.js';
import { ABANDON_MAGIC } from '../../src/api/audit.js';

const VECTORS = path.join(REPO, 'spec', 'vectors', 'protocol');
// Files both auditors report alike (elsewhere the Python auditor adds notes of its own, or words
// a failure's English detail otherwise: differences of the auditors, not of the page).
const FILES = ['match_nintendo_seed1.transcript', 'match_resigned.transcript', 'match_field_redeal_at_close.transcript',
  'invalid/pair_answered.transcript', 'invalid/pair_prefix.transcript', 'match_evidence_wrong_share.evidence',
  'invalid/claim_with_round_secret.abandoned', 'invalid/msg_deal_negative.evidence'];

test('the report says what koikoi verify --lang LANG prints of the file, line by line', { skip: pythonMissing(), timeout: 120000 }, async () => {
  await ready();
  const home = mkdtempSync(path.join(os.tmpdir(), 'koikoi-verify-text-'));
  for (const name of FILES) {
    const file = path.join(VECTORS, name);
    const report = buildReport(new Uint8Array(readFileSync(file)));
    for (const lang of /** @type {const} */ (['ja', 'en'])) {
      // The English detail of a failure is the auditor's own (the two word it differently).
      if (lang === 'en' && name.startsWith('invalid/msg_')) continue;
      const run = spawnSync(KOIKOI, ['verify', '--lang', lang, file], { encoding: 'utf8', env: { ...process.env, KOIKOI_HOME: home } });
      setLang(lang);
      assert.deepEqual(verifyLines(report), run.stdout.trimEnd().split('\n'), `${lang} ${name}`);
    }
  }
  setLang('en');
});

test('an abandonment file\'s players are named from the transcript inside it, as koikoi verify names them', async () => {
  await ready();
  // No abandonment vector carries names: one around a named transcript (the claim itself does not
  // verify, which does not matter to the names; cmd_verify.file_names reads the same record).
  const transcript = new Uint8Array(readFileSync(path.join(VECTORS, 'match_resigned.transcript')));
  const named = buildReport(transcript).names;
  assert.ok(named[0] && named[1], 'the transcript names both players');
  const body = encode({ claim: {}, deal: -1, round_key: new Uint8Array(0), sig: new Uint8Array(64), transcript });
  const file = new Uint8Array(ABANDON_MAGIC.length + body.length);
  file.set(ABANDON_MAGIC);
  file.set(body, ABANDON_MAGIC.length);
  assert.deepEqual(buildReport(file).names, named);
});

test('a note too long to be the auditor\'s is not read back, and stays as it was written', () => {
  // A hostile near-match of a pattern with several lazy groups takes time growing with a power
  // of its length: past the cap nothing is tried, even a text that would match.
  const short = 'the offending envelope does not continue the reporter\'s chain at message 7 (disputed)';
  assert.deepEqual(readBack(short)?.values, { seq: '7' });
  const long = short.replace('7', '7'.repeat(2100));
  assert.equal(readBack(long), null);
  assert.equal(sayNote(long), long);
});

test('a Japanese report names the seats, the rounds and the scores in Japanese', async () => {
  await ready();
  const report = buildReport(new Uint8Array(readFileSync(path.join(VECTORS, 'match_resigned.transcript'))));
  setLang('ja');
  const lines = verifyLines(report);
  setLang('en');
  // Only the names the players signed, their keys' fingerprints and the rules' id stay in Latin letters.
  const latin = lines.map((l) => l.replace(/Aiko|Bashō|[a-z2-7]{4}(-[a-z2-7]{4}){3}|nintendo/g, '')).filter((l) => /[A-Za-z]{2}/.test(l));
  assert.deepEqual(latin, []);
  assert.ok(lines.some((l) => l.includes('1回戦')), lines.join('\n'));
});

/** The notes the auditor's source writes, each `${…}` filled with a number. */
function auditorSentences() {
  const source = readFileSync(path.join(REPO, 'web', 'src', 'audit', 'replay.js'), 'utf8');
  /** @type {string[]} */
  const found = [];
  for (const line of source.split('\n').filter((l) => /notes\.push\(|falsehood = |const message = /.test(l))) {
    for (const m of line.matchAll(/`([^`]*)`|'([^']*)'/g)) {
      const text = (m[1] ?? m[2]).replace(/\$\{[^}]*\}/g, '7');
      if (text.length > 12 && / /.test(text)) found.push(text);
    }
  }
  return found;
}

test('every note the auditor writes is read back and said in Japanese, with its values', () => {
  const sentences = auditorSentences();
  assert.ok(sentences.length >= 20, sentences.join('\n'));
  setLang('ja');
  try {
    for (const s of sentences) {
      // A note quoting the protocol's English detail ("the claim proves nothing: …") keeps only that.
      assert.ok(readBack(s), `not read back: ${s}`);
      const said = sayNote(s).replace(/7/g, '');
      assert.doesNotMatch(said, /[A-Za-z]{3}/, `${s} -> ${sayNote(s)}`);
    }
    // Every template is one the auditor writes.
    const used = new Set(sentences.map((s) => readBack(s)?.key));
    for (const s of sentences) {
      const inner = readBack(s)?.values.detail;
      if (inner && readBack(inner)) used.add(readBack(inner)?.key);
    }
    assert.deepEqual(NOTES.filter((k) => !used.has(k) && k !== 'vdResignedAt'), []);
    // A message type in words ("a move" for act), a count in the language's plural form.
    assert.equal(sayNote('the match did not finish: the transcript stops while waiting for player 1 (act)'), '対局は終わっていません。記録はプレイヤー1の手番の操作を待つところで止まっています');
    setLang('en');
    assert.equal(sayNote('the match did not finish: the transcript stops while waiting for player 1 (act)'), 'the match did not finish: the transcript stops while waiting for player 1 (a move)');
    assert.equal(sayNote('the offending envelope is message 9, after 1 accepted ones: the relay may have dropped those between (disputed)'),
      'the offending envelope is message 9, after 1 accepted one: the relay may have dropped those between (disputed)');
    assert.equal(sayNote('a sentence of a newer auditor'), 'a sentence of a newer auditor');
  } finally {
    setLang('en');
  }
});

test('a deviation names its reason in words; its English detail only in English', () => {
  const d = { seat: 1, seq: 12, reason: 'bad_share', message: 'bad_share_proof: the decryption shares do not verify', text: '' };
  assert.equal(sayDeviation(d), 'player 1 deviated at message 12: a decryption share that is not valid (a share proof that does not verify: the decryption shares do not verify)');
  const claim = { seat: 1, seq: 28, reason: 'false_claim', message: 'at message 28 player 1 was to speak, not player 0', text: '' };
  setLang('ja');
  try {
    assert.equal(sayDeviation(d), 'プレイヤー1がメッセージ12で違反: 正しくない復号シェア');
    // An auditor's own sentence as the detail is said in full.
    assert.match(sayDeviation(claim), /^プレイヤー1がメッセージ28で違反: .+（?.*メッセージ28で送る番だったのはプレイヤー1で、プレイヤー0ではありません/);
    assert.equal(sayDeviation({ seat: 0, seq: null, reason: 'resigned', message: '', text: '' }), 'プレイヤー0の投了');
  } finally {
    setLang('en');
  }
});

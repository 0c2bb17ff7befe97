// What the page calls each seat (seatnames.js): an opponent who gave no name is its key's
// fingerprint, in the bars and in every sentence, as the terminal and the terms dialog name one
// (QA: the bars said "Opponent ykpi-4zuw", which reads as a name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, t } from '../../app/src/i18n.js';
import { seatLabels, seatNames } from '../../app/src/seatnames.js';

const online = (/** @type {[string, string]} */ names, seat = 0) => ({
  seat, mode: 'online', paired: { names, fingerprints: ['ykpi-4zuw-pxd6-jkxt', 'm3qa-8cde-2fgh-9jkl'] },
});

test('a named opponent is its name and the start of its fingerprint; the bar cuts only the name', () => {
  const table = online(['Fuji', 'Sakura']);
  const names = seatNames(table);
  assert.deepEqual(names, ['You', 'Sakura m3qa-8cde']);
  assert.deepEqual(seatLabels(table, names), [{ name: 'You', tag: '', noName: false }, { name: 'Sakura', tag: 'm3qa-8cde', noName: false }]);
  assert.deepEqual(seatNames(online(['Fuji', 'Sakura'], 1)), ['Fuji ykpi-4zuw', 'You']);
});

test('an opponent who gave no name is its fingerprint, in both languages, and its bar says it gave none', () => {
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    const table = online(['', ''], 1);
    const names = seatNames(table);
    assert.deepEqual(names, ['ykpi-4zuw', t('you')]);
    assert.ok(!names[0].includes(t('opponent')), names[0]);
    assert.deepEqual(seatLabels(table, names)[0], { name: '', tag: 'ykpi-4zuw', noName: true });
  }
  setLang('en');
  // No fingerprint to show (not paired yet): the role, never an empty name.
  assert.deepEqual(seatNames({ seat: 0, mode: 'online', paired: null }), ['You', 'Opponent']);
});

test('the practice computer is named by its level, never by a fingerprint', () => {
  const table = { seat: 0, mode: 'practice', meta: { level: 'greedy' }, paired: { names: ['', 'Computer'], fingerprints: ['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh'] } };
  const names = seatNames(table);
  assert.deepEqual(names, ['You', 'Computer (medium)']);
  assert.deepEqual(seatLabels(table, names)[1], { name: 'Computer (medium)', tag: '', noName: false });
});

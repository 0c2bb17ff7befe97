// The rules' descriptions as messages (issue 30, deliver 3): web/src/rules/describe.js gives the
// same message ids (templates) and arguments as koikoi_p2p/rules/describe.py for every preset and
// random switch sets (spec/vectors/rules/describe.json, written by
// spec/vectors/generators/describe_vectors.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Profile, preset } from '../../src/rules/index.js';
import { english, summary, yakuTable } from '../../src/rules/describe.js';
import { loadVector } from './support.js';

const v = /** @type {{ cases: { label: string, profile: any, summary: any[], yaku: any[], said: any }[] }} */ (loadVector('describe.json'));

test('the browser describes every preset and random switch set with the Python message ids and arguments', () => {
  assert.ok(v.cases.length >= 47);
  for (const c of v.cases) {
    const profile = Profile.fromDict(c.profile);
    assert.deepEqual(summary(profile), c.summary, `${c.label}: summary`);
    assert.deepEqual(yakuTable(profile), c.yaku, `${c.label}: yaku table`);
  }
});

test('the page renders each phrase from the catalogue as the terminal does, in English and Japanese', async () => {
  const { rulesPhrase, setLang } = await import('../../app/src/i18n.js');
  for (const lang of /** @type {const} */ (['en', 'ja'])) {
    setLang(lang);
    for (const c of v.cases) {
      const profile = Profile.fromDict(c.profile);
      assert.deepEqual(summary(profile).map(rulesPhrase), c.said[lang].summary, `${lang} ${c.label}: summary`);
      assert.deepEqual(Object.fromEntries(yakuTable(profile).map((r) => [r.id, rulesPhrase(r.rule)])), c.said[lang].yaku, `${lang} ${c.label}: yaku`);
    }
  }
  setLang('en');
});

test('a phrase reads as its English sentence', () => {
  const lines = summary(preset('nintendo')).map(english);
  assert.match(lines[1], /^Koi-koi: one koi-koi call per round; after a call /);
  assert.ok(lines.every((l) => !/[{}]/.test(l)), lines.join('\n'));
});

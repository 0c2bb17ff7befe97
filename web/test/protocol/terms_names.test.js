// spec/game.md §2.4 (issue 27 item 3): a receiver accepts every custom name (any name of the name
// switch that no preset has, whatever it says: the names koikoi host picks, custom, a host's own),
// refuses a preset's name on other switches (bad_terms), and takes a preset on its own switches.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { preset } from '../../src/rules/profile.js';
import { checkTerms, makeTerms } from '../../src/protocol/terms.js';

const session = { keys: /** @type {[Uint8Array, Uint8Array]} */ ([new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)]), names: /** @type {[string, string]} */ (['', '']), room: 'ABCDEF' };
/** @param {import('../../src/rules/profile.js').Profile} profile */
const body = (profile) => /** @type {any} */ (makeTerms({ profile, ...session }));

test('a receiver accepts every custom name and refuses a preset\'s name on other switches', () => {
  const changed = preset('nintendo').withSwitches({ exhaustion: 'oya_ken' });
  for (const name of ['custom', 'nintendo-custom', 'koikoi-online-custom', 'room-7', 'x'.repeat(40)]) {
    assert.equal(checkTerms(body(changed.withSwitches({ name })), session).profile.name, name);
  }
  for (const name of ['wikipedia', 'nintendo']) {
    assert.throws(() => checkTerms(body(changed.withSwitches({ name })), session), (/** @type {any} */ e) => e.reason === 'bad_terms', name);
  }
  assert.ok(checkTerms(body(preset('nintendo')), session).profile.equals(preset('nintendo')));
});

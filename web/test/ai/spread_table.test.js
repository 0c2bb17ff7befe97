// The presets' spreads a search player starts from (utility.js PRESET_SPREADS) are what the
// measurement gives, for each preset and for another number of rounds; a profile with a switch
// is measured rather than read from the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRESET_SPREADS, measureSpread, spread } from '../../src/ai/utility.js';
import { PRESETS, Profile, preset, withRounds } from '../../src/rules/profile.js';

test('the table of preset spreads is the measurement, for any number of rounds', () => {
  assert.deepEqual(Object.keys(PRESET_SPREADS).sort(), [...PRESETS].sort());
  for (const name of PRESETS) {
    assert.deepEqual(measureSpread(preset(name)), PRESET_SPREADS[name], name);
    assert.deepEqual(spread(withRounds(preset(name), 2)), PRESET_SPREADS[name], name);
  }
  const changed = Profile.fromDict({ ...preset('nintendo').toDict(), name: 'house', koikoi_multiplier: 'none' });
  assert.deepEqual(spread(changed), measureSpread(changed));
  assert.notDeepEqual(spread(changed), PRESET_SPREADS.nintendo);
});

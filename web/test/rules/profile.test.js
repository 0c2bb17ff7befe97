// Profiles (spec/rules.md §3): the presets against the spec's own table, the canonical encoding
// and its digest, validation of every switch, SHA-256.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import {
  ALL_SWITCHES, EXTENSIONS, PRESETS, Profile, SWITCHES, canonicalJson, differences, firstDealer, nearestPreset, preset, sha256, toHex, withRounds,
} from '../../src/rules/index.js';
import { ROOT, Rng, randomProfile } from './support.js';

/**
 * The preset table of spec/rules.md §3.4, parsed from the document.
 * @returns {Record<string, Record<string, unknown>>}
 */
function specPresetTable() {
  const text = fs.readFileSync(path.join(ROOT, 'spec', 'rules.md'), 'utf8');
  const start = text.indexOf('3.4. Presets.');
  assert.ok(start >= 0, 'rules.md has §3.4');
  const lines = text.slice(start).split('\n').filter((l) => l.startsWith('|'));
  const header = lines[0].split('|').slice(2, -1).map((x) => x.trim());
  /** @type {Record<string, Record<string, unknown>>} */
  const out = Object.fromEntries(header.map((h) => [h, {}]));
  for (const line of lines.slice(2)) {
    const cells = line.split('|').slice(1, -1).map((x) => x.trim());
    if (!cells[0].startsWith('`')) break;
    const name = cells[0].replaceAll('`', '');
    cells.slice(1).forEach((cell, i) => { out[header[i]][name] = JSON.parse(cell.replaceAll('`', '')); });
  }
  return out;
}

describe('presets', () => {
  test('the seven presets, in the spec order, equal the table of §3.4 switch for switch', () => {
    const table = specPresetTable();
    assert.deepEqual(PRESETS, Object.keys(table));
    // every core switch, then the extension switches some preset sets (koikoi-japan, issue 28)
    const extensions = EXTENSIONS.filter((e) => PRESETS.some((n) => Object.hasOwn(preset(n).toDict(), e.name)));
    const rows = [...SWITCHES, ...extensions].map((s) => s.name);
    assert.ok(extensions.length > 0 && extensions.every((e) => ALL_SWITCHES.includes(e)));
    for (const name of PRESETS) {
      const all = /** @type {Record<string, unknown>} */ (preset(name).allSwitches());
      assert.deepEqual(Object.fromEntries(rows.map((k) => [k, all[k]])), table[name], name);
      assert.deepEqual(Object.keys(table[name]), rows, `${name}: every switch, in table order`);
      assert.ok(Object.keys(preset(name).toDict()).every((k) => rows.includes(/** @type {any} */ (k))), name);
    }
    assert.equal(preset('koikoi-japan').digestHex(), '327066b13768735b3d116e7c8c170e1c5f214db398adf4a8dcffdce66f632900');
  });

  test('encode is canonical JSON (sorted keys at every level, no spaces) and decode inverts it', () => {
    for (const name of PRESETS) {
      const p = preset(name);
      const text = new TextDecoder().decode(p.encode());
      assert.equal(text, canonicalJson(JSON.parse(text)));
      assert.ok(!/\s/.test(text));
      assert.ok(Profile.decode(p.encode()).equals(p));
      assert.equal(toHex(p.digest()), createHash('sha256').update(p.encode()).digest('hex'));
    }
    // hand_yaku keys are sorted in the encoding (spec/rules.md §3.3), whatever to_dict's order.
    assert.match(new TextDecoder().decode(preset('nintendo').encode()), /"hand_yaku":\{"kuttsuki":6,"teshi":6\}/);
    assert.deepEqual(Object.keys(preset('nintendo').toDict().hand_yaku), ['teshi', 'kuttsuki']);
  });

  test('decode refuses non-canonical bytes, bad UTF-8, non-objects', () => {
    const p = preset('wikipedia');
    const spaced = new TextEncoder().encode(JSON.stringify(p.toDict(), null, 1));
    for (const bytes of [spaced, new Uint8Array([0xff]), new TextEncoder().encode('[]'), new TextEncoder().encode('{')]) {
      assert.throws(() => Profile.decode(bytes), { reason: 'bad_profile' });
    }
    const unsorted = new TextEncoder().encode(JSON.stringify(p.toDict()));
    assert.throws(() => Profile.decode(unsorted), { reason: 'bad_profile' });
  });

  test('withRounds pairs board-game lengths with their pools (§3.6), other presets keep theirs', () => {
    assert.equal(withRounds(preset('board-game'), 6).pool_start, 50);
    assert.equal(withRounds(preset('board-game'), 3).pool_start, 25);
    assert.equal(withRounds(preset('board-game'), 5).pool_start, 100);
    assert.equal(withRounds(preset('koikoi-online'), 6).pool_start, 25);
    assert.equal(withRounds(preset('nintendo'), 6).rounds, 6);
  });

  test('differences and nearestPreset describe a custom profile (§3.8)', () => {
    const p = preset('nintendo').withSwitches({ name: 'mine', rounds: 6, hand_yaku: {}, first_dealer: 'coin' });
    assert.deepEqual(differences(p, preset('nintendo')), { rounds: '6', hand_yaku: 'none', first_dealer: 'coin' });
    assert.equal(nearestPreset(p), 'nintendo');
    assert.equal(nearestPreset(preset('wikipedia').withSwitches({ name: 'x' })), 'wikipedia');
    assert.deepEqual(differences(preset('wikipedia'), preset('wikipedia')), {});
  });
});

describe('validation (spec/rules.md §3.2)', () => {
  const base = () => /** @type {Record<string, unknown>} */ (preset('nintendo').toDict());
  /** @type {Array<[string, Record<string, unknown>, string]>} */
  const cases = [
    ['missing switch', (() => { const d = base(); delete d.rounds; return d; })(), 'bad_profile'],
    ['unknown switch', { ...base(), foo: 1 }, 'unknown_switch'],
    ['boolean for an integer', { ...base(), rounds: true }, 'bad_switch'],
    ['integer for a boolean', { ...base(), cup_is_plain: 1 }, 'bad_switch'],
    ['fraction', { ...base(), rounds: 1.5 }, 'bad_switch'],
    ['over 10000', { ...base(), pool_start: 10001 }, 'bad_switch'],
    ['negative', { ...base(), target_score: -1 }, 'bad_switch'],
    ['no rounds and no target', { ...base(), rounds: 0 }, 'bad_switch'],
    ['bright value 0', { ...base(), bright_values: [0, 8, 7, 5] }, 'bad_switch'],
    ['bright value 101', { ...base(), bright_values: [101, 8, 7, 5] }, 'bad_switch'],
    ['three bright values', { ...base(), bright_values: [10, 8, 7] }, 'bad_switch'],
    ['joker is the cup', { ...base(), joker_card: '09-cup' }, 'bad_switch'],
    ['joker is a plain', { ...base(), joker_card: '01-plain1' }, 'bad_switch'],
    ['joker as an index', { ...base(), joker_card: 4 }, 'bad_switch'],
    ['unknown hand yaku', { ...base(), hand_yaku: { oya_ken: 1 } }, 'bad_switch'],
    ['hand yaku 0 points', { ...base(), hand_yaku: { teshi: 0 } }, 'bad_switch'],
    ['hand yaku as a list', { ...base(), hand_yaku: [['teshi', 6]] }, 'bad_switch'],
    ['oya-ken worth 0', { ...base(), exhaustion: 'oya_ken', oya_ken_points: 0 }, 'bad_switch'],
    ['cap without a pool', { ...base(), transfer_cap: true }, 'bad_switch'],
    ['bust without a pool', { ...base(), bust_ends_game: true }, 'bad_switch'],
    ['capital in the name', { ...base(), name: 'Nintendo' }, 'bad_switch'],
    ['empty name', { ...base(), name: '' }, 'bad_switch'],
    ['41-character name', { ...base(), name: 'a'.repeat(41) }, 'bad_switch'],
    ['unknown enum value', { ...base(), viewing: 'sometimes' }, 'bad_switch'],
  ];
  for (const [label, d, reason] of cases) {
    test(label, () => assert.throws(() => Profile.fromDict(d), { reason }));
  }
  test('not a mapping', () => {
    for (const d of [null, [], 'x', 3]) assert.throws(() => Profile.fromDict(d), { reason: 'bad_profile' });
  });
  test('edges that are valid', () => {
    assert.equal(Profile.fromDict({ ...base(), rounds: 0, target_score: 5 }).rounds, 0);
    assert.equal(Profile.fromDict({ ...base(), rounds: 10000 }).rounds, 10000);
    assert.equal(Profile.fromDict({ ...base(), oya_ken_points: 0 }).oya_ken_points, 0);
    assert.equal(Profile.fromDict({ ...base(), joker_card: '07-boar' }).joker_card, '07-boar');
    assert.equal(Profile.fromDict({ ...base(), name: 'my-house_rules2' }).name, 'my-house_rules2');
  });
  test('a profile is frozen, and withSwitches validates again', () => {
    const p = preset('nintendo');
    assert.throws(() => { /** @type {any} */ (p).rounds = 3; });
    assert.throws(() => p.withSwitches({ rounds: -2 }), { reason: 'bad_switch' });
  });
  test('random valid profiles survive encode/decode and toDict/fromDict', () => {
    const rng = new Rng('profile-roundtrip');
    for (let i = 0; i < 300; i++) {
      const p = randomProfile(rng, 12);
      assert.ok(Profile.decode(p.encode()).equals(p));
      assert.ok(Profile.fromDict(p.toDict()).equals(p));
    }
  });
});

describe('first dealer (spec/rules.md §5.1)', () => {
  const n = preset('nintendo');
  const t = preset('teaching-card');
  test('the earlier month deals; a tie goes to the higher class or draws again', () => {
    assert.equal(firstDealer('01-crane', '02-warbler', n), 0);
    assert.equal(firstDealer('12-phoenix', '11-rainman', n), 1);
    assert.equal(firstDealer('01-crane', '01-poetry', n), 0);
    assert.equal(firstDealer('01-poetry', '01-crane', n), 1);
    assert.equal(firstDealer('11-swallow', '11-ribbon', n), 0);
    assert.equal(firstDealer('01-plain1', '01-plain2', n), null);
    assert.equal(firstDealer('01-crane', '01-poetry', t), null);
  });
  test('errors', () => {
    assert.throws(() => firstDealer(0, 0, n), { reason: 'duplicate_card' });
    assert.throws(() => firstDealer(0, 48, n), { reason: 'unknown_card' });
    assert.throws(() => firstDealer('13-x', 1, n), { reason: 'unknown_card' });
  });
});

describe('sha256', () => {
  test('FIPS 180-4 examples', () => {
    const enc = (/** @type {string} */ s) => new TextEncoder().encode(s);
    assert.equal(toHex(sha256(enc('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(toHex(sha256(enc(''))), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(toHex(sha256(enc('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });
  test('equals node:crypto on every length across the padding boundaries', () => {
    for (let n = 0; n < 300; n++) {
      const d = new Uint8Array(n).map((_, i) => (i * 151 + n) & 255);
      assert.equal(toHex(sha256(d)), createHash('sha256').update(d).digest('hex'), `length ${n}`);
    }
  });
});

describe('text forms of issue 28 §3', async () => {
  const { withSwitchText, PAIR_SWITCH } = await import('../../src/rules/text.js');
  test('the rounds switch pairs the board game pool as withRounds does; an explicit pool stays', () => {
    assert.equal(withSwitchText(preset('board-game'), 'rounds', '6').pool_start, 50);
    assert.equal(withSwitchText(preset('board-game'), 'rounds', '3').pool_start, 25);
    assert.equal(withSwitchText(preset('board-game'), 'rounds', '5').pool_start, 100);
    assert.equal(withSwitchText(withSwitchText(preset('board-game'), 'pool_start', '70'), 'rounds', '6').pool_start, 70);
    assert.equal(withSwitchText(preset('koikoi-online'), 'rounds', '6').pool_start, 25);
  });
  test('viewing_cancelled_by sets both viewing yaku lists', () => {
    const p = withSwitchText(preset('nintendo'), PAIR_SWITCH, '12');
    assert.deepEqual(p.hanami_cancelled_by, ['12-phoenix', '12-plain1', '12-plain2', '12-plain3']);
    assert.deepEqual(p.tsukimi_cancelled_by, p.hanami_cancelled_by);
  });
});

test('switches tied to another are refused with bad_switch (spec/rules.md §3.2, issue 27 item 7)', () => {
  // tests/unit/test_rules_cards_profile.py checks the same cases.
  for (const [base, change] of /** @type {[string, Record<string, unknown>][]} */ ([['nintendo', { transfer_cap: true }], ['nintendo', { bust_ends_game: true }],
    ['nintendo', { cup_either: true }], ['board-game', { subtract_from_opponent: true }]])) {
    assert.throws(() => preset(base).withSwitches(change), { reason: 'bad_switch' }, `${base} ${JSON.stringify(change)}`);
  }
  assert.ok(preset('board-game').withSwitches({ transfer_cap: true, bust_ends_game: true }).transfer_cap);
  assert.ok(preset('koikoi-online').withSwitches({ cup_either: true }).cup_either);
  assert.ok(preset('nintendo').withSwitches({ pool_start: 10, transfer_cap: true }).transfer_cap);
});

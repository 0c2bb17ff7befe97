// The game flow (version 2) between two JavaScript peers in memory: every preset plays a match the
// JavaScript auditor verifies; a resignation ends in a co-signed result; cheats are refused with
// their reasons; terms of version 1 are refused with unsupported_version. (Against the Python
// peer: tests/interop.)
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { GamePeer } from '../../src/protocol/peer.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { PRESETS, preset, withRounds } from '../../src/rules/profile.js';
import { auditBytes } from '../../src/audit/replay.js';
import { verifyResult } from '../../src/protocol/results.js';
import { GameFlow, GameViolation } from '../../src/protocol/flow.js';
import { makeTerms } from '../../src/protocol/terms.js';

/**
 * @param {string} rules @param {string} seed
 * @param {{resignAt?: number, tamper?: (type: string, body: any) => any, seen?: (seat: number, event: any, early: boolean, peer: GamePeer) => void,
 *   early?: boolean}} [options] `seen` hears every event; with `early` the peers hand an accepted envelope's events over first
 */
function play(rules, seed, options = {}) {
  const rngs = [vectorStream(`${seed}-0`), vectorStream(`${seed}-1`)];
  const pick = vectorStream(`${seed}-pick`);
  const peers = [0, 1].map((seat) => new GamePeer({
    seat: /** @type {0 | 1} */ (seat), identity: new Identity(rngs[seat](32)), room: 'FLOW2', rng: rngs[seat],
    profile: withRounds(preset(rules), 1), autoAccept: true, name: seat ? 'Kenji' : '', tamper: seat === 1 ? options.tamper : undefined,
  }));
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {any[]} */
  const failures = [];
  let turns = 0;
  if (options.early) {
    for (const seat of [0, 1]) peers[seat].onAccepted = (events) => { for (const ev of events) options.seen?.(seat, ev, true, peers[seat]); };
  }
  /** @param {number} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    for (const ev of out.events) {
      options.seen?.(seat, ev, false, peers[seat]);
      if (ev.type === 'your_turn') {
        turns += 1;
        if (options.resignAt !== undefined && turns === options.resignAt) handle(seat, peers[seat].resign());
        else {
          const o = /** @type {any[]} */ (ev.options);
          handle(seat, peers[seat].decide(o[pick(1)[0] % o.length]));
        }
      } else if (ev.type === 'failure') failures.push({ seat, ...ev });
    }
  };
  handle(0, peers[0].start());
  while (queues[0].length || queues[1].length) {
    for (const s of [0, 1]) while (queues[s].length && !peers[s].failed) handle(s, peers[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
    if (peers[0].failed || peers[1].failed) break;
  }
  return { peers, failures };
}

for (const rules of PRESETS) {
  test(`version 2, ${rules}: a whole match, both transcripts the same, verified`, () => {
    const { peers, failures } = play(rules, `flow2-${rules}`);
    assert.deepEqual(failures, []);
    assert.ok(peers[0].done && peers[1].done);
    assert.deepEqual(peers[0].transcript(), peers[1].transcript());
    const report = auditBytes(peers[0].transcript());
    assert.equal(report.ok, true, JSON.stringify(report.deviation ?? report.notes));
    const result = verifyResult(peers[0].resultFile());
    assert.deepEqual(result.names, ['', 'Kenji']);
  });
}

test('version 2: a resignation ends in a co-signed result naming the other seat the winner', () => {
  const { peers, failures } = play('nintendo', 'flow2-resign', { resignAt: 3 });
  assert.deepEqual(failures, []);
  assert.ok(peers[0].done && peers[1].done);
  const report = auditBytes(peers[0].transcript());
  assert.equal(report.ok, true);
  assert.ok(report.notes.some((n) => n.startsWith('resigned by player')), report.notes.join('; '));
  const result = verifyResult(peers[1].resultFile());
  assert.equal(result.winner, 1 - /** @type {number} */ (result.resigned));
});

test('version 2: a wrong share and an illegal move are refused, with evidence the auditor upholds', async () => {
  const { BASE_POINT } = await import('../../src/mentalpoker/group.js');
  let done = false;
  const badShare = (/** @type {string} */ type, /** @type {any} */ body) => {
    if (done || !Array.isArray(body.shares) || !body.shares.length) return body;
    done = true;
    const [positions, data] = body.shares[0];
    const changed = data.slice();
    changed.set(BASE_POINT, 0);
    void type;
    return { ...body, shares: [[positions, changed], ...body.shares.slice(1)] };
  };
  let played = false;
  const illegal = (/** @type {string} */ type, /** @type {any} */ body) => {
    if (played || type !== 'act' || body.action.type !== 'play') return body;
    played = true;
    return { ...body, action: { type: 'play', position: 47 } };
  };
  for (const [tamper, reason] of /** @type {const} */ ([[badShare, 'bad_share'], [illegal, 'illegal_action']])) {
    const { peers, failures } = play('nintendo', `flow2-cheat-${reason}`, { tamper });
    assert.equal(failures.length, 1, JSON.stringify(failures));
    assert.equal(failures[0].seat, 0);
    assert.equal(failures[0].reason, reason);
    assert.equal(failures[0].blame, 1);
    const report = auditBytes(/** @type {Uint8Array} */ (peers[0].evidence));
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.equal(/** @type {any} */ (report.deviation).reason, reason);
    assert.equal(/** @type {any} */ (report.deviation).seq, failures[0].seq);
  }
});

test('terms of game version 1 are refused with unsupported_version, whatever their other fields', () => {
  const keys = /** @type {[Uint8Array, Uint8Array]} */ ([new Identity(vectorStream('v1-0')(32)).publicKey, new Identity(vectorStream('v1-1')(32)).publicKey]);
  const flow = new GameFlow({ viewer: 1, sessionId: new Uint8Array(32), room: 'ROOM', identityKeys: keys, names: ['', ''] });
  const v1 = { ...makeTerms({ profile: withRounds(preset('nintendo'), 1), keys, names: ['', ''], room: 'ROOM' }), version: 1 };
  delete (/** @type {any} */ (v1)).names;
  assert.throws(() => flow.apply(0, 'terms', v1, { seq: 0, head: new Uint8Array(32) }),
    (/** @type {any} */ e) => e instanceof GameViolation && e.reason === 'unsupported_version' && e.seat === 0 && e.seq === 0);
});

test('version-1 files are refused: a transcript of format 1, a co-signed result of game version 1', async () => {
  const { vectorBytes } = await import('../helpers.js');
  const { FileError } = await import('../../src/audit/replay.js');
  const { decode, encode } = await import('../../src/protocol/codec.js');
  const data = vectorBytes('protocol/match_nintendo_seed1.transcript');
  const at = Buffer.from(data).indexOf(Buffer.from('\xa6format\x02', 'latin1'));
  assert.ok(at > 0);
  const v1 = data.slice();
  v1[at + 7] = 1;
  assert.throws(() => auditBytes(v1), (/** @type {any} */ e) => e instanceof FileError && e.reason === 'unsupported_version');
  const { peers } = play('nintendo', 'flow2-v1-result');
  const file = /** @type {any} */ (decode(peers[0].resultFile()));
  file.result.version = 1;
  assert.throws(() => verifyResult(encode(file)), (/** @type {any} */ e) => e.reason === 'bad_result' && /version/.test(e.message));
});

test('an evidence file is replayed once: the offence is judged on the flow its prefix left', () => {
  let played = false;
  const illegal = (/** @type {string} */ type, /** @type {any} */ body) => {
    if (played || type !== 'act' || body.action.type !== 'play') return body;
    played = true;
    return { ...body, action: { type: 'play', position: 47 } };
  };
  const { peers, failures } = play('nintendo', 'flow2-evidence-once', { tamper: illegal });
  assert.equal(failures.length, 1);
  const seq = failures[0].seq;
  const apply = GameFlow.prototype.apply;
  let applied = 0;
  /** @type {(this: GameFlow, ...args: Parameters<GameFlow['apply']>) => void} */
  GameFlow.prototype.apply = function (...args) {
    applied += 1;
    return apply.apply(this, args);
  };
  let report;
  try {
    report = auditBytes(/** @type {Uint8Array} */ (peers[0].evidence));
  } finally {
    GameFlow.prototype.apply = apply;
  }
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.equal(/** @type {any} */ (report.deviation).reason, 'illegal_action');
  // The seq accepted envelopes, then the offence: each applied once.
  assert.equal(applied, seq + 1);
});

test("the opponent's move is handed over before the answer is composed, and no event twice", () => {
  /** @type {string[][]} */
  const plain = [[], []];
  play('nintendo', 'flow2-early', { seen: (seat, ev) => plain[seat].push(JSON.stringify(ev, (k, v) => (v instanceof Uint8Array ? [...v] : v))) });
  /** @type {string[][]} */
  const early = [[], []];
  /** @type {number[][]} the sender of each seat's newest accepted envelope when events came early */
  const newest = [[], []];
  play('nintendo', 'flow2-early', {
    early: true,
    seen: (seat, ev, first, peer) => {
      early[seat].push(JSON.stringify(ev, (k, v) => (v instanceof Uint8Array ? [...v] : v)));
      if (first) newest[seat].push(/** @type {any} */ (peer.channel).accepted.at(-1).sender);
    },
  });
  assert.deepEqual(early, plain);
  for (const seat of [0, 1]) {
    assert.ok(newest[seat].length > 10, `seat ${seat}: ${newest[seat].length} early hand-overs`);
    // Nothing of ours was composed yet: the newest envelope is always the opponent's.
    assert.deepEqual([...new Set(newest[seat])], [1 - seat]);
  }
});

test('a hand-over callback that throws loses no event and stalls nothing: the match ends the same', () => {
  /** @type {string[][]} */
  const plain = [[], []];
  const a = play('nintendo', 'flow2-throw', { seen: (seat, ev) => plain[seat].push(JSON.stringify(ev, (k, v) => (v instanceof Uint8Array ? [...v] : v))) });
  /** @type {string[][]} */
  const got = [[], []];
  let thrown = 0;
  const b = play('nintendo', 'flow2-throw', {
    early: true,
    seen: (seat, ev, first) => {
      if (first && seat === 1) { thrown += 1; throw new Error('a broken view'); }
      got[seat].push(JSON.stringify(ev, (k, v) => (v instanceof Uint8Array ? [...v] : v)));
    },
  });
  assert.ok(thrown > 5, `${thrown} throws`);
  assert.deepEqual(b.failures, []);
  assert.ok(b.peers[0].done && b.peers[1].done);
  assert.deepEqual(b.peers[0].transcript(), a.peers[0].transcript());
  assert.deepEqual(got, plain);
});

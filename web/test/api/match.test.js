// The public Match API (src/api): two seats over an in-memory pair, each played by a computer
// through the events and verbs an embedder uses; the transcript passes the auditor, and a seat
// rebuilt from its store mid-match sends exactly what it sent before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { Match, MemoryStore, newIdentity, memoryPair, LocalError } from '../../src/api/match.js';
import { auditBytes, describe } from '../../src/api/audit.js';

/** Play one seat to the end with its computer; returns the events' types and the last event. @param {Match} match */
async function play(match) {
  const bot = match.computer('random', `seed-${match.seat}`);
  /** @type {string[]} */
  const seen = [];
  /** @type {any} */
  let last = null;
  /** @type {any} */
  let agreed = null;
  for await (const ev of match.events()) {
    seen.push(ev.type);
    last = ev;
    if (ev.type === 'terms_agreed') agreed = ev;
    if (ev.type === 'terms_proposed') await match.decideTerms(true);
    else if (ev.type === 'your_turn' || ev.type === 'choice') {
      assert.ok(ev.options.length > 0 && ev.view);
      await match.decide(bot.choose());
    }
  }
  return { seen, last, agreed };
}

test('two seats play a one-round match through the public API and the auditor accepts it', async () => {
  // A dealt-hand yaku (four of a month, four pairs) can end the one round at the deal, before any
  // move: such a match is played again (the deal is random), as a person would start another.
  let store, host, h, g;
  for (let tries = 0; ; tries++) {
    const [a, b] = memoryPair();
    store = new MemoryStore();
    host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', profile: 'nintendo', rounds: 1, store, id: 'host' });
    const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42', store, id: 'guest' });
    [h, g] = await Promise.all([play(host), play(guest)]);
    if (h.seen.includes('your_turn') || g.seen.includes('your_turn') || tries >= 3) break;
  }
  for (const { seen, last } of [h, g]) {
    assert.equal(seen[0], 'paired');
    assert.ok(seen.includes('terms_agreed') && seen.includes('round_started') && seen.includes('board') && seen.includes('round_over'));
    assert.ok(seen.includes('your_turn') && seen.includes('opponent_moved'));
    assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}`);
  }
  assert.ok(g.seen.includes('terms_proposed') && !h.seen.includes('terms_proposed'));
  assert.deepEqual(h.last.scores, g.last.scores);
  const report = auditBytes(h.last.transcript);
  assert.ok(report.ok && report.complete, JSON.stringify(report));
  assert.match(describe(report).lines.join('\n'), /: nintendo, 1 round, \d+ messages;/); // not "1 rounds" (as koikoi verify)
  // The store kept the files and forgot both journals (they hold the seeds).
  assert.deepEqual(await store.list(), []);
  assert.deepEqual(store.files.get('host/transcript'), h.last.transcript);
  assert.ok(store.files.get('guest/result'));
  await assert.rejects(host.decide(/** @type {any} */ ({ type: 'stop' })), LocalError);
});

test('refusing the terms signs nothing and ends with terms_refused', async () => {
  const [a, b] = memoryPair();
  const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
  const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42' });
  const hosting = (async () => { for await (const ev of host.events()) if (ev.type === 'terms_agreed') return ev; return null; })();
  /** @type {any} */
  let last = null;
  for await (const ev of guest.events()) {
    last = ev;
    if (ev.type === 'terms_proposed') await guest.decideTerms(false);
  }
  assert.equal(last.type, 'failure');
  assert.equal(last.reason, 'terms_refused');
  assert.equal(last.who, 1); // the refuser, as in Python
  void hosting;
});

/**
 * Two transport ends over a retransmitting link whose second seat can crash (spec/protocol.md
 * §12.1, §12.3). `attach()` starts a process of that seat and returns its end. A crash loses what
 * the process had not taken yet (a frame its last read was waiting for, frames queued for it) and
 * it sends nothing more; a new process gets only what is sent after it starts, in order, never a
 * frame that was numbered for the dead one (§12.1 rule 2: the new link ignores those). When it
 * starts, the first end's link hears that the peer restarted, and its driver re-sends its outbox
 * (`onRestart`, §12.3).
 * @returns {{first: import('../../src/api/match.js').Transport, attach: () => import('../../src/api/match.js').Transport}}
 */
function crashablePair() {
  const [a, b] = memoryPair();
  let generation = 0;
  /** frames for the live process of the second seat, not yet taken @type {Uint8Array[]} */
  let inbox = [];
  /** @type {((f: Uint8Array) => void) | null} */
  let waiter = null;
  /** @type {import('../../src/api/match.js').Transport} */
  const first = {
    send: (d) => {
      const f = d.slice();
      const w = waiter;
      waiter = null;
      if (w) w(f);
      else inbox.push(f);
    },
    receive: () => a.receive(),
  };
  const attach = () => {
    const mine = ++generation;
    // What the crashed process had not taken dies with it.
    inbox = [];
    waiter = null;
    /** @type {import('../../src/api/match.js').Transport} */
    const end = {
      /** @param {Uint8Array} d */
      send: (d) => { if (mine === generation) b.send(d); },
      /** @returns {Promise<Uint8Array>} */
      receive: () => {
        if (mine !== generation) return new Promise(() => {});
        const f = inbox.shift();
        return f ? Promise.resolve(f) : new Promise((r) => { waiter = r; });
      },
    };
    if (mine > 1) first.onRestart?.();
    return end;
  };
  return { first, attach };
}

for (const asked of [false, true]) {
  const when = asked ? 'while a question is open' : 'after its decision';
  test(`a seat resumed from its store after a crash ${when} finishes the match`, { timeout: 120_000 }, async () => {
    const { first, attach } = crashablePair();
    const store = new MemoryStore();
    // Six rounds: a round may end before the guest is asked anything (a dealt hand, a stop after
    // the dealer's first yaku), and CI once saw two such rounds end a two-round match before the
    // crash (both stores gone).
    const host = new Match(first, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 6, store, id: 'host' });
    const guest = new Match(attach(), { seat: 1, identity: newIdentity(), room: 'DEMO42', store, id: 'guest' });
    const hostPlay = play(host);
    // The guest plays a few decisions, then "crashes": its iterator is abandoned mid-match.
    const bot = guest.computer('random', 'g');
    let decisions = 0;
    for await (const ev of guest.events()) {
      if (ev.type === 'terms_proposed') await guest.decideTerms(true);
      else if (ev.type === 'your_turn' || ev.type === 'choice') {
        // Crashing with a question open: the resumed seat must ask it again (its event was lost).
        if (asked && decisions === 2) break;
        await guest.decide(bot.choose());
        if (!asked && ++decisions === 2) break;
        if (asked) decisions += 1;
      }
    }
    assert.deepEqual(await store.list(), ['host', 'guest']);
    const resumed = await Match.resume(attach(), store, 'guest');
    const r = await play(resumed);
    const h = await hostPlay;
    assert.equal(r.last.type, 'match_over', `${r.last.reason}: ${r.last.message}`);
    assert.equal(h.last.type, 'match_over');
    assert.ok(auditBytes(r.last.transcript).ok);
  });
}

test('deadlines: a silent seat gets time_up and own_timeout, the other signs an abandonment claim', async () => {
  const [a, b] = memoryPair();
  const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, deadlines: { step: 5, turn: 2 } });
  const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42' });
  /** @param {Match} m */
  const collect = async (m) => {
    /** @type {any[]} */
    const out = [];
    for await (const ev of m.events()) out.push(ev); // the guest never answers the terms
    return out;
  };
  const [h, g] = await Promise.all([collect(host), collect(guest)]);
  assert.deepEqual(g.slice(-3).map((e) => e.type), ['terms_proposed', 'time_up', 'failure']);
  assert.equal(g.at(-1).reason, 'own_timeout');
  assert.equal(g.at(-2).claimant, 0);
  await assert.rejects(guest.decideTerms(true), LocalError);
  const last = h.at(-1);
  assert.equal(last.type, 'failure');
  assert.equal(last.reason, 'abandoned');
  assert.equal(last.who, 1);
  const report = auditBytes(last.evidence);
  assert.equal(report.kind, 'abandonment', JSON.stringify(report));
});

test('an illegal decide raises illegal_action and the question is asked again (as in Python)', async () => {
  // One round, so a deal that ends at once on a dealt-hand yaku (teshi, kuttsuki) asks the host
  // nothing: such a match proves nothing here, and another is played (a few percent of deals).
  for (let attempt = 0; attempt < 12; attempt++) {
    const [a, b] = memoryPair();
    const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
    const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42', enforceDeadlines: false });
    const guestPlay = play(guest);
    const bot = host.computer('random', `again-${attempt}`);
    /** @type {any} */
    let asked = null;
    let askedAgain = 0;
    /** @type {any} */
    let last = null;
    for await (const ev of host.events()) {
      last = ev;
      if (ev.type !== 'your_turn' && ev.type !== 'choice') continue;
      if (asked === null) {
        asked = ev;
        const err = await host.decide({ type: 'play', position: 99 }).catch((e) => e);
        assert.ok(err instanceof LocalError && err.reason === 'illegal_action', String(err));
        const early = await guest.decide(/** @type {any} */ ({ type: 'stop' })).catch((e) => e);
        assert.equal(early.reason, 'not_your_turn'); // the guest is not asked now
        assert.equal((await guest.resign().catch((e) => e)).reason, 'not_your_turn');
        continue; // no answer: events() must ask again
      }
      if (askedAgain === 0) {
        askedAgain += 1;
        assert.equal(ev.type, asked.type);
        assert.deepEqual(ev.options, asked.options);
        assert.equal(ev.deal, asked.deal);
      }
      await host.decide(bot.choose());
    }
    assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}`);
    assert.equal((await guestPlay).last.type, 'match_over');
    if (asked === null) continue; // the round ended at the deal
    assert.equal(askedAgain, 1);
    return;
  }
  assert.fail('twelve deals in a row ended at the deal: the host was never asked');
});

test('seat 1 hears terms_proposed, then terms_agreed once it signed (as in Python)', async () => {
  const [a, b] = memoryPair();
  const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
  const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42', enforceDeadlines: false });
  const [h, g] = await Promise.all([play(host), play(guest)]);
  assert.ok(g.seen.indexOf('terms_proposed') >= 0 && g.seen.indexOf('terms_proposed') < g.seen.indexOf('terms_agreed'), g.seen.join(' '));
  assert.equal(h.seen.filter((t) => t === 'terms_agreed').length, 1);
  for (const { agreed } of [h, g]) {
    assert.equal(agreed.rounds, 1);
    assert.equal(agreed.profile.name, agreed.terms.profile.name);
    assert.equal(agreed.termsDigest.length, 32);
  }
  assert.deepEqual(h.agreed.termsDigest, g.agreed.termsDigest);
  assert.ok(h.seen.indexOf('terms_agreed') < h.seen.indexOf('round_started'), h.seen.join(' '));
});

test('decide with null, undefined or a malformed action raises illegal_action and asks again (QA: an untyped TypeError stalled the match)', async () => {
  const bad = [null, undefined, 5, 'play', {}, { type: 'play' }, { type: 'play', card: null }, []];
  for (let attempt = 0; attempt < 12; attempt++) {
    const [a, b] = memoryPair();
    const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
    const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42', enforceDeadlines: false });
    const guestPlay = play(guest);
    const bot = host.computer('random', `null-${attempt}`);
    let tried = 0;
    /** @type {any} */
    let first = null;
    /** @type {any} */
    let last = null;
    for await (const ev of host.events()) {
      last = ev;
      if (ev.type !== 'your_turn' && ev.type !== 'choice') continue;
      if (tried < bad.length) {
        if (first === null) first = ev;
        else {
          assert.equal(ev.type, first.type); // the same question, asked again
          assert.deepEqual(ev.options, first.options);
        }
        const err = await host.decide(/** @type {any} */ (bad[tried])).catch((e) => e);
        assert.ok(err instanceof LocalError && err.reason === 'illegal_action', `${JSON.stringify(bad[tried])}: ${err}`);
        tried += 1;
        continue;
      }
      await host.decide(bot.choose());
    }
    assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}`);
    assert.equal((await guestPlay).last.type, 'match_over');
    if (first === null) continue; // the round ended at the deal
    assert.equal(tried, bad.length);
    return;
  }
  assert.fail('twelve deals in a row ended at the deal: the host was never asked');
});

test('decideTerms takes a boolean, once (QA: "no" signed the terms); as Python\'s decide_terms', async () => {
  const [a, b] = memoryPair();
  const host = new Match(a, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
  const guest = new Match(b, { seat: 1, identity: newIdentity(), room: 'DEMO42', enforceDeadlines: false });
  const hosting = play(host);
  const bot = guest.computer('random', 'terms');
  /** @type {any} */
  let last = null;
  for await (const ev of guest.events()) {
    last = ev;
    if (ev.type === 'terms_proposed') {
      for (const answer of ['no', 'yes', 0, 1, null, undefined]) {
        const err = await guest.decideTerms(/** @type {any} */ (answer)).catch((e) => e);
        assert.ok(err instanceof LocalError && err.reason === 'bad_argument', `${answer}: ${err}`);
      }
      await guest.decideTerms(true);
      const again = await guest.decideTerms(true).catch((e) => e);
      assert.ok(again instanceof LocalError && again.reason === 'not_your_turn', String(again));
    } else if (ev.type === 'your_turn' || ev.type === 'choice') await guest.decide(bot.choose());
  }
  assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}`);
  assert.equal((await hosting).last.type, 'match_over');
});

test('the options are checked at construction with the reasons of the Python Match (QA: rounds 0 played 12 rounds)', async () => {
  const { RulesError } = await import('../../src/rules/errors.js');
  const [a] = memoryPair();
  /** @type {[object, any, string][]} */
  const table = [
    [{ identity: null }, LocalError, 'bad_argument'],
    [{ identity: new Uint8Array(32).fill(1) }, LocalError, 'bad_argument'],
    [{ room: null }, LocalError, 'bad_room'],
    [{ room: '' }, LocalError, 'bad_room'],
    [{ profile: 'no-such-preset' }, RulesError, 'unknown_preset'],
    [{ profile: { rounds: 2 } }, LocalError, 'bad_argument'],
    [{ rounds: 0 }, RulesError, 'bad_switch'],
    [{ rounds: -1 }, RulesError, 'bad_switch'],
    [{ rounds: 1.5 }, RulesError, 'bad_switch'],
    [{ rounds: '2' }, RulesError, 'bad_switch'],
    [{ deadlines: { step: 0, turn: 300 } }, LocalError, 'bad_argument'],
    [{ deadlines: 'fast' }, LocalError, 'bad_argument'],
    [{ seat: 2 }, LocalError, 'bad_seat'],
  ];
  for (const [changes, type, reason] of table) {
    const options = /** @type {any} */ ({ seat: 0, identity: newIdentity(), room: 'ROOM01', ...changes });
    assert.throws(() => new Match(a, options), (/** @type {any} */ e) => e instanceof type && e.reason === reason, JSON.stringify(changes));
  }
  assert.throws(() => new Match(/** @type {any} */ (null), { seat: 0, identity: newIdentity(), room: 'R' }), (/** @type {any} */ e) => e.reason === 'bad_argument');
  assert.throws(() => new Match(a, /** @type {any} */ (undefined)), (/** @type {any} */ e) => e.reason === 'bad_argument');
  const named = new Match(a, { seat: 0, identity: newIdentity(), room: 'R', profile: 'koikoi-online', rounds: 3 });
  assert.throws(() => named.computer(/** @type {any} */ ('bogus')), (/** @type {any} */ e) => e instanceof LocalError && e.reason === 'bad_argument');
  await assert.rejects(Match.resume(a, /** @type {any} */ (null), 'x'), (/** @type {any} */ e) => e instanceof LocalError && e.reason === 'bad_argument');
});

test('a junk frame fails the session over a plain transport (§7.2, as Python) and is dropped over a vouching link (§12.2 item 1)', async () => {
  const junk = new TextEncoder().encode('\x00garbage');
  for (const link of [false, true]) {
    const [a, b] = memoryPair();
    let count = 0;
    let rejected = 0;
    /** @type {any} */
    const host = {
      // Plain: the host's 6th frame is replaced by junk. Vouching: junk goes out before it.
      send: (/** @type {Uint8Array} */ f) => {
        count += 1;
        if (count !== 6) return b.send(f);
        b.send(junk);
        if (link) b.send(f);
      },
      receive: () => b.receive(),
    };
    /** @type {any} */
    const guestTransport = { send: (/** @type {Uint8Array} */ f) => a.send(f), receive: () => a.receive() };
    if (link) guestTransport.reject = () => { rejected += 1; };
    const hostMatch = new Match(host, { seat: 0, identity: newIdentity(), room: 'DEMO42', rounds: 1, enforceDeadlines: false });
    const guest = new Match(guestTransport, { seat: 1, identity: newIdentity(), room: 'DEMO42', enforceDeadlines: false });
    const hosting = play(hostMatch);
    const { last } = await play(guest);
    if (link) {
      assert.equal(last.type, 'match_over', `${last.reason}: ${last.message}`);
      assert.equal(guest.dropped, 1);
      assert.equal(rejected, 1);
      assert.equal((await hosting).last.type, 'match_over');
    } else {
      assert.equal(last.type, 'failure');
      assert.equal(last.reason, 'bad_frame', last.message);
      assert.equal(guest.dropped, 0);
      assert.ok(last.evidence);
      const report = auditBytes(last.evidence);
      assert.equal(report.ok, false); // unsigned junk proves nothing against the host
    }
  }
});

test('before the handshake is done the verbs raise not_started (as Python); a relay URL that is none raises RelayError bad_url', async () => {
  const { hostRoom, joinRoom, RelayError } = await import('../../src/api/match.js');
  const [a] = memoryPair();
  const guest = new Match(a, { seat: 1, identity: newIdentity(), room: 'DEMO42' });
  for (const verb of [() => guest.decide(/** @type {any} */ ({ type: 'stop' })), () => guest.decideTerms(true), () => guest.resign()]) {
    const err = await verb().catch((e) => e);
    assert.ok(err instanceof LocalError && err.reason === 'not_started', String(err));
  }
  for (const url of ['not a url', 'http://127.0.0.1:1/v1']) {
    await assert.rejects(hostRoom(url), (/** @type {any} */ e) => e instanceof RelayError && e.reason === 'bad_url');
    await assert.rejects(joinRoom(url, 'ABCDEF'), (/** @type {any} */ e) => e instanceof RelayError && e.reason === 'bad_url');
  }
});

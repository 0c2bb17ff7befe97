// A rated match proposed by the JavaScript host (spec/game.md §2.2, spec/ratings.md §2): the
// joiner is shown `rated` and `ratings` before it accepts, the terms and the co-signed result
// carry `rated`, a journal restored keeps the choice, and a service the terms could not carry is
// refused before anything is sent.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { Journal } from '../../src/protocol/journal.js';
import { GamePeer } from '../../src/protocol/peer.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { verifyResult } from '../../src/protocol/results.js';
import { makeTerms, ratingsProblem } from '../../src/protocol/terms.js';
import { SERVICE_TAG, findService, locateService, serviceUrl } from '../../src/net/ratings.js';

const SERVICE = 'http://127.0.0.1:8765';

/**
 * Play a 1-round match between two journals, the host's options extended by `host`; the host's
 * journal is saved and restored once, right after it started. Returns the joiner's proposed terms
 * and both journals.
 * @param {{rated?: boolean, ratings?: string}} host
 */
function play(host) {
  const rngs = [vectorStream('rated-0'), vectorStream('rated-1')];
  const make = (/** @type {0 | 1} */ seat) => Journal.create({
    seat, identity: new Identity(rngs[seat](32)), room: 'RATED1', seed: rngs[seat](32),
    profile: withRounds(preset('wikipedia'), 1), ...(seat === 0 ? host : {}),
  });
  const js = [make(0), make(1)];
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @type {any} */
  let proposed = null;
  /** @param {number} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    for (const ev of out.events) {
      assert.notEqual(ev.type, 'failure', JSON.stringify(ev));
      if (ev.type === 'your_turn') handle(seat, js[seat].decide(/** @type {any} */ (ev).options[0]));
      if (ev.type === 'terms_proposed') {
        proposed = /** @type {any} */ (ev).terms;
        handle(seat, js[seat].acceptTerms());
      }
    }
  };
  handle(0, js[0].start());
  const { journal, frames } = Journal.restore(JSON.parse(JSON.stringify(js[0].toJSON())));
  js[0] = journal;
  queues[1].push(...frames);
  while (queues[0].length || queues[1].length) {
    for (const s of [0, 1]) while (queues[s].length) handle(s, js[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
  }
  return { proposed, js };
}

test('the host proposes a rated match: the joiner sees the service, the result is rated', () => {
  const { proposed, js } = play({ rated: true, ratings: SERVICE });
  assert.equal(proposed.rated, true);
  assert.equal(proposed.ratings, SERVICE);
  for (const j of js) {
    assert.ok(j.peer.done);
    assert.equal(/** @type {any} */ (verifyResult(j.peer.resultFile())).rated, true);
  }
});

test('unrated by default, and a journal saved without the fields restores unrated', () => {
  const { proposed, js } = play({});
  assert.equal(proposed.rated, false);
  assert.equal(proposed.ratings, '');
  assert.equal(/** @type {any} */ (verifyResult(js[0].peer.resultFile())).rated, false);
  const old = Journal.create({
    seat: 0, identity: new Identity(vectorStream('old')(32)), room: 'OLD123', seed: vectorStream('old-seed')(32), profile: preset('nintendo'),
  });
  old.start();
  const state = JSON.parse(JSON.stringify(old.toJSON()));
  delete state.setup.rated;
  delete state.setup.ratings;
  assert.equal(Journal.restore(state).journal.peer.rated, false);
});

test('a rating service the terms cannot carry is refused before anything is sent', () => {
  const rng = vectorStream('rated-bad');
  const base = { seat: /** @type {0} */ (0), identity: new Identity(rng(32)), room: 'RATED2', rng, profile: preset('nintendo') };
  for (const [rated, ratings] of [[true, ''], [true, 'ftp://x'], [true, `http://${'a'.repeat(200)}`], [false, SERVICE], [true, 'http://a b']]) {
    assert.throws(() => new GamePeer({ ...base, rated: /** @type {boolean} */ (rated), ratings: /** @type {string} */ (ratings) }), /bad_argument|rating service|unrated/);
    assert.ok(ratingsProblem(rated, ratings));
  }
  assert.equal(ratingsProblem(true, SERVICE), null);
  assert.equal(ratingsProblem(false, ''), null);
  assert.throws(() => makeTerms({ profile: preset('nintendo'), keys: [new Uint8Array(32), new Uint8Array(32)], names: ['', ''], room: 'R', rated: true }), /rating service/);
});

test('the default service is the relay\'s own, as the Python client names it', () => {
  assert.equal(serviceUrl('ws://relay.example:8765/v1'), 'http://relay.example:8765');
  assert.equal(serviceUrl('wss://relay.example/v1'), 'https://relay.example');
  assert.equal(serviceUrl('https://ratings.example/ratings/'), 'https://ratings.example');
  assert.equal(serviceUrl('http://127.0.0.1:9000'), 'http://127.0.0.1:9000');
  for (const bad of ['ftp://x/v1', 'not a url', 'http://']) assert.throws(() => serviceUrl(bad), RangeError);
});

test('a relay that points to a service elsewhere names it; one that does not names its own URL', async () => {
  /** A fetch whose answers are given by URL: `[final URL after redirects, status, body]`. @param {Record<string, [string, number, unknown]>} answers */
  const fake = (answers) => /** @type {typeof fetch} */ (/** @type {unknown} */ (async (/** @type {string} */ url) => {
    const found = answers[url];
    if (!found) throw new TypeError('unreachable');
    const [final, status, body] = found;
    return { url: final, ok: status < 300, status, json: async () => body };
  }));
  const relay = 'ws://relay.example:8765/v1';
  const asked = 'http://relay.example:8765/ratings/service';
  assert.equal(await locateService(relay, fake({ [asked]: ['http://relay.example:8766/ratings/service', 200, { ok: true, service: SERVICE_TAG }] })), 'http://relay.example:8766');
  assert.equal(await locateService(relay, fake({ [asked]: [asked, 200, { ok: true, service: SERVICE_TAG }] })), 'http://relay.example:8765');
  assert.equal(await locateService(relay, fake({ [asked]: [asked, 404, 'unknown path'] })), 'http://relay.example:8765');
  assert.equal(await locateService(relay, fake({ [asked]: ['http://elsewhere.example/x', 200, { service: 'something else' }] })), 'http://relay.example:8765');
  assert.equal(await locateService(relay, fake({})), 'http://relay.example:8765');
  await assert.rejects(locateService('ftp://x/v1', fake({})), RangeError);
  // findService: the same answer, or null when no service answers (the create form then asks).
  assert.equal(await findService(relay, fake({ [asked]: ['http://relay.example:8766/ratings/service', 200, { ok: true, service: SERVICE_TAG }] })), 'http://relay.example:8766');
  assert.equal(await findService(relay, fake({ [asked]: [asked, 404, 'unknown path'] })), null);
  assert.equal(await findService(relay, fake({})), null);
  await assert.rejects(findService('ftp://x/v1', fake({})), RangeError);
});

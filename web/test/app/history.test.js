// The page's history of a deal (app/src/history.js), fed the game peer's events of a whole match
// between two JavaScript peers in memory: both seats tell the same half-turns, each captured pile
// is exactly what those half-turns took, every card played or drawn is named, and the first
// dealer's draw names the dealer the match started with. The move log's text comes from it.
import test from 'node:test';
import assert from 'node:assert/strict';
import '../helpers.js';
import { GamePeer } from '../../src/protocol/peer.js';
import { Identity } from '../../src/protocol/identity.js';
import { vectorStream } from '../../src/mentalpoker/rng.js';
import { preset, withRounds } from '../../src/rules/profile.js';
import { History } from '../../app/src/history.js';
import { turnText } from '../../app/src/movelog.js';
import { cupAs, koikoiHint } from '../../app/src/table.js';
import { buildReport, snapshot } from '../../app/src/report_model.js';
import { RoundState } from '../../src/rules/round.js';
import { scorePile } from '../../src/rules/scoring.js';
import { claimText } from '../../app/src/board.js';
import { arrangedDeck, runRevealed } from '../../src/rules/simulate.js';
import { NO_HAND_YAKU } from '../../src/rules/actions.js';
import { setLang } from '../../app/src/i18n.js';

/** @param {string} rules @param {string} seed @param {number} rounds */
function play(rules, seed, rounds) {
  const rngs = [vectorStream(`${seed}-0`), vectorStream(`${seed}-1`)];
  const pick = vectorStream(`${seed}-pick`);
  const peers = [0, 1].map((seat) => new GamePeer({
    seat: /** @type {0 | 1} */ (seat), identity: new Identity(rngs[seat](32)), room: 'HIST42', rng: rngs[seat],
    profile: withRounds(preset(rules), rounds), autoAccept: true, name: seat ? 'Kenji' : '',
  }));
  const histories = [new History(0), new History(1)];
  /** @type {{seat: number, deal: number, turns: any[], piles: number[][]}[]} */
  const ended = [];
  /** @type {(number | null)[]} */
  const firstDealer = [null, null];
  /** @type {Uint8Array[][]} */
  const queues = [[], []];
  /** @param {number} seat @param {import('../../src/protocol/peer.js').Output} out */
  const handle = (seat, out) => {
    queues[1 - seat].push(...out.frames);
    for (const ev of out.events) {
      histories[seat].see(ev);
      if (ev.type === 'first_dealer') firstDealer[seat] = /** @type {number} */ (ev.dealer);
      if (ev.type === 'round_over') {
        const deal = /** @type {number} */ (ev.deal);
        const engine = /** @type {any} */ (peers[seat].flow).closing.live.engine;
        ended.push({ seat, deal, turns: histories[seat].table().turns, piles: engine.piles.map((/** @type {number[]} */ p) => p.slice()) });
      }
      if (ev.type === 'your_turn') {
        const o = /** @type {any[]} */ (ev.options);
        handle(seat, peers[seat].decide(o[pick(1)[0] % o.length]));
      }
    }
  };
  handle(0, peers[0].start());
  while (queues[0].length || queues[1].length) {
    for (const s of [0, 1]) while (queues[s].length && !peers[s].failed) handle(s, peers[s].receive(/** @type {Uint8Array} */ (queues[s].shift())));
    if (peers[0].failed || peers[1].failed) break;
  }
  return { peers, histories, ended, firstDealer };
}

for (const rules of ['nintendo']) {
  test(`${rules}: both seats' histories tell the same half-turns, and they account for every captured card`, () => {
    const { peers, histories, ended, firstDealer } = play(rules, `history-${rules}`, 2);
    assert.ok(peers[0].done && peers[1].done);
    assert.ok(ended.length >= 4);
    let turnsSeen = 0;
    for (const deal of new Set(ended.map((e) => e.deal))) {
      const [a, b] = [0, 1].map((s) => /** @type {any} */ (ended.find((e) => e.deal === deal && e.seat === s)));
      assert.deepEqual(a.turns, b.turns, `deal ${deal}`);
      for (const s of [0, 1]) {
        /** @type {number[]} */
        const took = [];
        for (const x of a.turns.filter((/** @type {any} */ x) => x.seat === s)) {
          if (x.claim) continue;
          assert.notEqual(x.played, null);
          if (x.took.length) took.push(x.played, ...x.took);
          if (x.drawTook.length) took.push(/** @type {number} */ (x.drawn), ...x.drawTook);
        }
        assert.deepEqual(took.sort((p, q) => p - q), a.piles[s].slice().sort((/** @type {number} */ p, /** @type {number} */ q) => p - q), `deal ${deal} seat ${s}`);
      }
      turnsSeen += a.turns.length;
    }
    assert.ok(turnsSeen > 10);
    for (const s of [0, 1]) {
      const first = histories[s].table().first;
      assert.ok(first);
      assert.equal(first.dealer, firstDealer[s]);
      assert.ok(first.draws.length >= 1);
    }
  });
}

test("the match report names the player who drew each card, as the seats' own histories do", () => {
  const { peers, ended } = play('nintendo', 'history-report', 2);
  const report = buildReport(peers[0].transcript());
  assert.ok(report.ok, report.lines.join('\n'));
  let draws = 0;
  for (const deal of report.deals) {
    const turns = /** @type {any} */ (ended.find((e) => e.deal === deal.deal && e.seat === 0)).turns;
    for (const st of deal.steps.filter((/** @type {any} */ x) => x.kind === 'draw')) {
      const turn = turns.find((/** @type {any} */ x) => x.drawn === st.card);
      assert.ok(turn, `deal ${deal.deal}: card ${st.card} drawn`);
      assert.equal(st.seat, turn.seat, `deal ${deal.deal}: who drew card ${st.card}`);
      draws++;
    }
  }
  assert.ok(draws > 10, `${draws} draws`);
});

test('a half-turn reads as a sentence in both languages', () => {
  const x = { seat: /** @type {0 | 1} */ (1), played: 36, took: [38], drawn: 8, drawTook: [], call: /** @type {'koikoi'} */ ('koikoi'), claim: null };
  setLang('en');
  assert.equal(turnText(x, 'Sakura'), 'Sakura played Deer, took Maple Plain; drew Cherry Curtain; called koi-koi');
  setLang('ja');
  assert.equal(turnText(x, 'さくら'), 'さくらが紅葉に鹿を出した、紅葉のカスを取った。桜に幕を引いた。こいこい');
  // Two cards taken: listed with 、 in Japanese, never an ASCII comma (QA).
  const two = { ...x, took: [38, 39] };
  assert.match(turnText(two, 'さくら'), /紅葉のカス、紅葉のカス/);
  assert.doesNotMatch(turnText(two, 'さくら'), /, /);
  setLang('en');
  assert.match(turnText(two, 'Sakura'), /took Maple Plain, Maple Plain/);
});

test('the sake cup shows as a plain exactly where the rules count it as one', () => {
  const cup = 32;
  const plains = [2, 3, 6, 7, 10, 11, 14, 15, 18];
  assert.equal(cupAs([cup, ...plains], preset('nintendo'), 1), preset('nintendo').cup_is_plain ? 'both' : null);
  assert.equal(cupAs(plains, preset('nintendo'), 1), null);
  const either = /** @type {any} */ ({ ...preset('koikoi-online'), cup_is_plain: false, cup_either: true });
  // Nine plains and the cup: counted as a plain it makes kasu (ten plains).
  assert.equal(cupAs([cup, ...plains], either, 1), 'plain');
  assert.equal(cupAs([cup, 2], either, 1), null);
});

test('koikoi-japan: a dealt hand of a whole month is logged as shown and dealt again, not as a yaku', () => {
  // spec/rules.md §5.4: with hand_whole_month = redeal the teshi claim deals the cards again.
  const profile = preset('koikoi-japan');
  const plain = ['01-crane', '03-plain1', '04-cuckoo', '06-butterflies', '07-ribbon', '09-blue', '10-deer', '11-swallow'];
  const month = ['02-warbler', '02-poetry', '02-plain1', '02-plain2', '05-bridge', '06-blue', '07-boar', '08-moon'];
  const deck = arrangedDeck(0, [plain, month], []);
  const h = new History(1);
  h.see({ type: 'terms', terms: { profile } });
  h.see({ type: 'deal', deal: 1, dealer: 0, roundIndex: 1, month: 1 });
  const engine = /** @type {any} */ (h.engine);
  const reveal = () => {
    while (engine.need?.type === 'reveal') {
      const need = engine.need;
      if (need.to !== null && need.to !== 1) engine.skipReveal();
      else h.see({ type: 'reveal', deal: 1, positions: need.positions, cards: need.positions.map((/** @type {number} */ p) => deck[p]) });
    }
  };
  reveal();
  let claimed = false;
  while (engine.need?.type === 'action' && engine.need.kind === 'hand_yaku') {
    const seat = engine.need.seat;
    const action = seat === 1 ? engine.legalActions().find((/** @type {any} */ a) => a.type === 'claim_hand_yaku') : NO_HAND_YAKU;
    assert.ok(action, 'the seat holding four plum cards may show them');
    h.see({ type: 'action', deal: 1, seat, action });
    claimed ||= seat === 1;
    reveal();
  }
  assert.ok(claimed);
  const turn = h.table().turns.find((x) => x.claim !== null);
  assert.equal(turn?.claim, 'hand_month');
  setLang('en');
  assert.equal(turnText(/** @type {any} */ (turn), 'Kenji'), 'Kenji showed a month of four: dealt again');
  setLang('ja');
  assert.equal(turnText(/** @type {any} */ (turn), 'けんじ'), 'けんじが同じ月の4枚を見せて配り直し');
  setLang('en');
  // The dialog names the claim the same way; a real hand yaku keeps its name and points.
  assert.equal(claimText('teshi', {}, true), 'Show the month of four: dealt again');
  assert.equal(claimText('teshi', { teshi: 6 }, false), 'Claim teshi (6 points)');
});

test('the replay view and the koi-koi hint score viewing yaku with their holder\'s own call (koikoi-japan)', () => {
  // spec/rules.md §6.4 viewing_by_call: 1 point, 3 once the pile's holder has called koi-koi.
  const profile = preset('koikoi-japan');
  const rng = vectorStream('replay-viewing-by-call');
  let checked = 0;
  for (let game = 0; game < 400 && checked < 3; game++) {
    const deck = Array.from({ length: 48 }, (_, i) => i);
    for (let i = 47; i > 0; i--) {
      const j = rng(1)[0] % (i + 1);
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const engine = new RoundState({ profile, dealer: game % 2, viewer: null, roundIndex: 1, month: 1 });
    runRevealed(engine, deck);
    while (engine.need !== null) {
      const need = /** @type {any} */ (engine.need);
      const options = engine.legalActions();
      const call = options.find((a) => a.type === 'koikoi');
      if (need.kind === 'decide' && call) {
        // The hint for the seat deciding: its base counts its viewing yaku as its calls so far make them.
        const hint = koikoiHint(engine, need.seat);
        const pile = engine.piles[need.seat];
        assert.equal(hint.base, scorePile(pile, profile, 1, engine.calls.includes(need.seat)).base);
        assert.equal(hint.opponentFactor, 1, 'an additive bonus is no factor');
        assert.equal(hint.myFactorLater, 1, 'nor are the own calls that add to it');
      }
      engine.apply(need.seat, call ?? options[rng(1)[0] % options.length]);
      runRevealed(engine, deck);
      if (engine.need === null) break;
      const snap = snapshot(engine);
      for (const seat of [0, 1]) {
        const view = snap.yaku[seat].hanami ?? snap.yaku[seat].tsukimi;
        if (view === undefined) continue;
        assert.equal(view, engine.calls.includes(seat) ? 3 : 1, `seat ${seat}, calls ${engine.calls}`);
        if (engine.calls.includes(seat)) checked++;
      }
    }
  }
  assert.ok(checked >= 3, `viewing yaku of a seat that called, seen ${checked} times`);
});

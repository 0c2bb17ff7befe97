// The practice computer's pause is the page's (app/src/pace.js, issue 26): a table showing a new
// decision of the computer waits until the pause since the last board has passed, a newer table
// replaces a held one, and nothing is held across a deal's end, a new deal, the end, or while a
// dialog covers the board (the held table is then drawn first). The clock is injected; the timer is real and short.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Pacer, opponentDecided } from '../../app/src/pace.js';

/** A table of seat 0 in `deal` whose history holds these half-turns. @param {number} deal @param {any[]} turns @param {any} [extra] */
function table(deal, turns, extra = {}) {
  return { seat: 0, deal, round: {}, lastRound: null, history: { deal, turns }, ...extra };
}
const mine = { seat: 0, played: 1, took: [], drawn: 2, drawTook: [], call: null, claim: null };
const theirs = { seat: 1, played: 5, took: [], drawn: null, drawTook: [], call: null, claim: null };

test('a new half-turn or call of the opponent in the same deal is a decision; the rest is not', () => {
  const shown = table(1, [mine]);
  assert.equal(opponentDecided(shown, table(1, [mine, theirs])), true);
  assert.equal(opponentDecided(table(1, [mine, theirs]), table(1, [mine, { ...theirs, drawn: 7 }])), false, 'its draw follows its play');
  assert.equal(opponentDecided(table(1, [mine, theirs]), table(1, [mine, { ...theirs, call: 'koikoi' }])), true);
  assert.equal(opponentDecided(shown, table(1, [mine, { ...mine, played: 3 }])), false, 'the person\'s own move');
  assert.equal(opponentDecided(shown, table(2, [theirs])), false, 'a new deal');
  assert.equal(opponentDecided(shown, table(1, [mine, theirs], { lastRound: { deal: 1 } })), false, 'the deal ended');
  assert.equal(opponentDecided(shown, table(1, [mine, theirs], { over: {} })), false, 'the match ended');
  assert.equal(opponentDecided(null, table(1, [mine, theirs])), false, 'the first board');
  const dealt = { hand: [3, 4, 5] };
  assert.equal(opponentDecided(table(1, [], { round: { hand: [] } }), table(1, [theirs], { round: dealt })), false,
    'the person\'s hand appears (the computer dealt and played at once)');
  assert.equal(opponentDecided(table(1, [], { round: dealt }), table(1, [theirs], { round: dealt })), true);
});

test('the pacer holds the computer\'s move, shows the newest table once the pause is over, and holds nothing else', async () => {
  let clock = 0;
  /** @type {any[]} */
  const drawn = [];
  let covered = false;
  const pacer = new Pacer((t) => drawn.push(t), { pauseMs: 30, now: () => clock, covered: () => covered });
  const own = table(1, [mine]);
  pacer.offer(own);
  assert.deepEqual(drawn, [own], 'the person\'s move is drawn at once');
  const play = table(1, [mine, theirs]);
  const draw = table(1, [mine, { ...theirs, drawn: 7 }]);
  pacer.offer(play);
  pacer.offer(draw);
  assert.deepEqual(drawn, [own], 'held');
  clock = 30;
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(drawn, [own, draw], 'the newest table, once');

  const koi = table(1, [mine, { ...theirs, drawn: 7, call: 'koikoi' }]);
  pacer.offer(koi);
  assert.equal(drawn.length, 2, 'its call is held too');
  const next = table(2, [theirs]);
  pacer.offer(next);
  assert.deepEqual(drawn.slice(2), [koi, next], 'a new deal is drawn at once, after the held table (never dropped: it may be the move that ended the deal)');

  covered = true;
  const under = table(2, [theirs, mine, { ...theirs, played: 9 }]);
  pacer.offer(under);
  assert.deepEqual(drawn.slice(4), [under], 'under a dialog nothing waits');
  pacer.destroy();

  const off = new Pacer((t) => drawn.push(t), { pauseMs: 0, now: () => clock });
  off.offer(own);
  off.offer(play);
  assert.deepEqual(drawn.slice(5), [own, play], 'online (no pause) nothing waits');
});

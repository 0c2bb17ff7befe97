// Work a seat can do before its first deal (issue 26: the browser's first hand): the published
// points every deal of n cards uses (spec/crypto.md §2.5), computed once and cached by
// generators.js, and a few group operations of each kind, so that the engine has compiled
// libsodium's hot code by the time the first deal's proofs are made. Nothing secret is made or
// kept; the results of the operations are thrown away.
import { cardIndexOf, cardPoint, commitmentBase, commitmentBaseAt, commitmentBasesSum, startRandomness } from './generators.js';
import { add, baseMul, mul, reduce, sha512, sub } from './group.js';

/**
 * Fill the caches of the published points for decks of `n` cards and run `rounds` operations of
 * each kind (variable- and fixed-base multiplication, addition, subtraction, hashing).
 * @param {number} [n] @param {number} [rounds]
 */
export function warmUp(n = 48, rounds = 8) {
  for (let i = 0; i < n; i++) cardPoint(i);
  commitmentBase();
  for (let i = 1; i <= n; i++) commitmentBaseAt(i);
  commitmentBasesSum(n);
  cardIndexOf(cardPoint(0), n);
  let point = commitmentBase();
  for (let r = 0; r < rounds; r++) {
    const s = startRandomness(r % n);
    const fixed = baseMul(s);
    point = sub(add(mul(s, point), fixed), cardPoint(r % n));
    reduce(sha512(point));
  }
}

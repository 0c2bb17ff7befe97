// The two-party deck protocol (spec/crypto.md §8), sans-I/O. One class serves a party (`me` = 0
// or 1: it holds a round secret) and an observer (`me` = null: an auditor replaying both sides).
// Every received message is verified before any state changes (§8.5), so a rejected message
// leaves the deck as it was. Randomness is passed to each step that draws, so the caller decides
// where it comes from (an OS source, a vector stream, or a hedged derivation).
import { equal } from '../bytes.js';
import { add, baseMul, decodeScalar, isValidPoint, mul, randomScalar, scalarAdd, scalarMul, sha512, sub } from './group.js';
import { cardIndexOf, cardPoint, startRandomness } from './generators.js';
import { encodeDeck, startingDeck } from './elgamal.js';
import { proveKey, verifyKey } from './keyproof.js';
import { proveShares, verifyShareMessage } from './dleq.js';
import { proveShuffle, shuffleDeck, shuffledLogs, verifyShuffleMessage } from './shuffle.js';
import { proofContext } from './context.js';
import { UsageError, VerificationError } from './errors.js';
import { concat, toHex, u16be, u64be, u8, utf8 } from '../bytes.js';
import { hedgeStream } from './hedge.js';

/** @type {Map<number, Uint8Array[]>} rho_0..rho_{n-1} of the starting deck (spec/crypto.md §4.3), by n */
const startLogs = new Map();

/** @param {number} n */
function startingLogs(n) {
  let logs = startLogs.get(n);
  if (!logs) {
    logs = Array.from({ length: n }, (_, i) => startRandomness(i));
    startLogs.set(n, logs);
  }
  return logs;
}

/**
 * @typedef {{n: number, version: number, sessionId: Uint8Array, round: number, firstShuffler: number}} DeckParams
 * @typedef {import('./elgamal.js').Ciphertext} Ciphertext
 * @typedef {import('./group.js').RandomSource} RandomSource
 */

/**
 * SHA-512 of a shuffle verification's whole statement and message: the proof context, the joint
 * key, the input deck and the message (spec/crypto.md §6.3); equal digests, the same verification.
 * @param {import('./transcript.js').ProofContext} ctx @param {Uint8Array} pk @param {Ciphertext[]} inputs @param {Uint8Array} message
 */
export function shuffleStatementDigest(ctx, pk, inputs, message) {
  const head = concat(utf8('koikoi-p2p/shuffle-statement'), u8(0), u16be(ctx.version), u8(ctx.sessionId.length), ctx.sessionId,
    u64be(ctx.round), utf8(ctx.step), u8(0), u8(ctx.prover), pk);
  return toHex(sha512(concat(head, encodeDeck(inputs), message)));
}

export class Deck {
  /**
   * @param {DeckParams} params
   * @param {0 | 1 | null} me the party this deck belongs to, or null for an observer
   * @param {{verifiedShuffles?: Set<string>}} [options] `verifiedShuffles`: the digests
   *   (shuffleStatementDigest) of shuffle messages already verified against the very same statement,
   *   which an auditor verified ahead on other threads; a shuffle this deck verifies is added to it
   */
  constructor(params, me, options = {}) {
    const { n, version, sessionId, round, firstShuffler } = params;
    if (!Number.isInteger(n) || n < 2 || n > 65535) throw new UsageError('bad_argument', 'n is 2..65535');
    if (firstShuffler !== 0 && firstShuffler !== 1) throw new UsageError('bad_argument', 'first shuffler is 0 or 1');
    this.params = Object.freeze({ n, version, sessionId, round, firstShuffler });
    this.me = me;
    this.verifiedShuffles = options.verifiedShuffles ?? null;
    /** @type {Uint8Array | null} our round secret */
    this.secret = null;
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    this.publicKeys = [null, null];
    /** @type {[Uint8Array | null, Uint8Array | null]} the key messages, kept for a re-check */
    this.keyMessages = [null, null];
    /** @type {Uint8Array | null} */
    this.jointKey = null;
    /** @type {Ciphertext[][]} D_0, D_1, D_2 (D_0 made when first needed, §4.3) */
    this.decks = [];
    /** @type {(Uint8Array[] | null)[]} the discrete logs of each deck's `a`, where known: D_0's are
     * public, D_1's are known to the party that made it (they are secret: never sent or saved) */
    this.logs = [];
    /** @type {Uint8Array[]} the shuffle messages in order, kept for a re-check */
    this.shuffleMessages = [];
    /** @type {[Map<number, Uint8Array>, Map<number, Uint8Array>]} shares by party and position */
    this.shares = [new Map(), new Map()];
    /** @type {{from: number, positions: number[], message: Uint8Array}[]} share messages received, for a re-check */
    this.shareMessages = [];
    /** @type {[Uint8Array | null, Uint8Array | null]} disclosed secrets */
    this.secrets = [null, null];
    /** @type {[Set<number>, Set<number>]} positions whose share is known to equal x_k*a: ours
     * (we made them) and those checked against a disclosed secret on arrival (§8.5) */
    this.checked = [new Set(), new Set()];
    /** @type {[Map<number, Uint8Array>, Map<number, Uint8Array>]} x_k*a computed from a secret, by position */
    this.derived = [new Map(), new Map()];
  }

  /** x_0 + x_1 when both secrets are known (each verified against its public key), else null. */
  #jointSecret() {
    const [x0, x1] = [this.secrets[0] ?? (this.me === 0 ? this.secret : null), this.secrets[1] ?? (this.me === 1 ? this.secret : null)];
    return x0 && x1 ? scalarAdd(x0, x1) : null;
  }

  /** The deck the next shuffle takes; the starting deck (§4.3) is made on first use, by fixed-base
   * multiplications when both secrets are known (M_i + (rho_i x)*G is M_i + rho_i*pk). */
  #currentDeck() {
    if (!this.jointKey) throw new UsageError('no_keys');
    if (!this.decks.length) {
      const n = this.params.n;
      const x = this.#jointSecret();
      const rho = startingLogs(n);
      this.decks = [x
        ? rho.map((r, i) => ({ a: baseMul(r), b: add(cardPoint(i), baseMul(scalarMul(r, x))) }))
        : startingDeck(this.jointKey, n)];
      this.logs = [rho];
    }
    return this.decks[this.decks.length - 1];
  }

  /** @param {number} prover @param {'key' | 'shuffle' | 'share'} step */
  context(prover, step) {
    const p = this.params;
    return proofContext(p.version, p.sessionId, p.round, step, prover);
  }

  /** The party expected to shuffle next, or null when both have. */
  nextShuffler() {
    const done = this.shuffleMessages.length;
    if (done >= 2) return null;
    return done === 0 ? this.params.firstShuffler : 1 - this.params.firstShuffler;
  }

  /** The final deck D_2 (after both shuffles). */
  finalDeck() {
    if (this.decks.length < 3) throw new UsageError('not_shuffled');
    return this.decks[2];
  }

  /** @returns {0 | 1} */
  party() {
    if (this.me === null) throw new UsageError('bad_argument', 'an observer holds no secret');
    return this.me;
  }

  // --- hedged streams (§3.5): each step's draws from the party's seed and the caller's binding ---

  /** @param {Uint8Array} seed @param {Uint8Array} binding */
  keyStream(seed, binding) {
    return hedgeStream(seed, this.context(this.party(), 'key'), binding, []);
  }

  /** @param {Uint8Array} seed @param {Uint8Array} binding */
  shuffleStream(seed, binding) {
    if (!this.jointKey) throw new UsageError('no_keys');
    return hedgeStream(seed, this.context(this.party(), 'shuffle'), binding, [
      { type: 'points', label: 'pk', value: this.jointKey },
      { type: 'points', label: 'inputs', value: encodeDeck(this.#currentDeck()) },
    ]);
  }

  /** @param {Uint8Array} seed @param {Uint8Array} binding @param {number[]} positions */
  shareStream(seed, binding, positions) {
    const deck = this.finalDeck();
    return hedgeStream(seed, this.context(this.party(), 'share'), binding, [
      { type: 'bytes', label: 'positions', value: concat(...positions.map(u16be)) },
      { type: 'points', label: 'a', value: concat(...positions.map((p) => deck[p].a)) },
    ]);
  }

  // --- keys (§8.2) ---

  /**
   * Draw our round key and return the key message pk || c || s (spec/crypto.md §5).
   * @param {RandomSource} rng draws the key, then the proof's nonce bytes (§9.2)
   * @param {Uint8Array} [secret] a secret chosen by the caller instead of drawing one
   */
  makeKey(rng, secret) {
    const me = this.party();
    if (this.secret) throw new UsageError('bad_argument', 'the key exists');
    const x = secret ?? randomScalar(rng);
    const message = proveKey(this.context(me, 'key'), x, rng);
    this.secret = x;
    this.#storeKey(me, message.slice(0, 32), message);
    return message;
  }

  /**
   * A key message of party `from` (§8.2, §8.5).
   * @param {number} from @param {Uint8Array} message
   */
  receiveKey(from, message) {
    if (this.publicKeys[from]) throw new VerificationError('out_of_turn', 'a key twice');
    const pk = verifyKey(this.context(from, 'key'), message);
    const other = this.publicKeys[1 - from];
    if (other && !isValidPoint(add(other, pk))) throw new VerificationError('invalid_point', 'the joint key is the identity');
    this.#storeKey(from, pk, message);
    return pk;
  }

  /** @param {number} k @param {Uint8Array} pk @param {Uint8Array} message */
  #storeKey(k, pk, message) {
    this.publicKeys[k] = pk;
    this.keyMessages[k] = message.slice();
    const [p0, p1] = this.publicKeys;
    if (p0 && p1) {
      const joint = add(p0, p1);
      if (!isValidPoint(joint)) throw new VerificationError('invalid_point', 'the joint key is the identity');
      this.jointKey = joint;
    }
  }

  /**
   * Hold a secret of our party made elsewhere (an auditor replaying a deal as a reporter saw it):
   * accepted only when it matches our public key. Returns whether it did.
   * @param {Uint8Array} secret
   */
  holdSecret(secret) {
    const me = this.party();
    const pk = this.publicKeys[me];
    try {
      if (!pk || !equal(baseMul(decodeScalar(secret)), pk)) return false;
    } catch {
      return false;
    }
    this.secret = secret.slice();
    return true;
  }

  // --- shuffles (§8.3) ---

  /**
   * Shuffle the current deck and prove it; returns the shuffle message D_next || proof.
   * @param {RandomSource} rng draws the permutation, the re-randomisers, then the proof's scalars
   */
  makeShuffle(rng) {
    const me = this.party();
    if (!this.jointKey) throw new UsageError('no_keys');
    if (this.nextShuffler() !== me) throw new UsageError('bad_argument', 'not our turn to shuffle');
    const inputs = this.#currentDeck();
    const inputLogs = this.logs[this.decks.length - 1] ?? null;
    const { permutation, randomness, outputs } = shuffleDeck(this.jointKey, inputs, rng);
    const proof = proveShuffle(this.context(me, 'shuffle'), this.jointKey, inputs, outputs, permutation, randomness, rng, inputLogs);
    const message = concat(encodeDeck(outputs), proof);
    // Our outputs' logs let us verify the other party's shuffle of them with a~ = (Σ u_j l_j)*G.
    this.logs.push(inputLogs ? shuffledLogs(inputLogs, permutation, randomness) : null);
    this.decks.push(outputs);
    this.shuffleMessages.push(message);
    return message;
  }

  /**
   * A shuffle message of party `from`, verified against the current deck (§6.3, §8.5).
   * @param {number} from @param {Uint8Array} message
   */
  receiveShuffle(from, message) {
    if (!this.jointKey) throw new VerificationError('no_keys', 'a shuffle before both keys');
    if (this.nextShuffler() !== from) throw new VerificationError('out_of_turn', 'a shuffle out of turn');
    const inputs = this.#currentDeck();
    const known = { inputLogs: this.logs[this.decks.length - 1] ?? null, jointSecret: this.#jointSecret() };
    const ctx = this.context(from, 'shuffle');
    const digest = this.verifiedShuffles ? shuffleStatementDigest(ctx, this.jointKey, inputs, message) : null;
    let outputs;
    if (digest && this.verifiedShuffles?.has(digest)) {
      outputs = inputs.map((_, i) => ({ a: message.slice(64 * i, 64 * i + 32), b: message.slice(64 * i + 32, 64 * i + 64) }));
    } else {
      outputs = verifyShuffleMessage(ctx, this.jointKey, inputs, message, known);
      if (digest) this.verifiedShuffles?.add(digest);
    }
    this.logs.push(null);
    this.decks.push(outputs);
    this.shuffleMessages.push(message.slice());
  }

  // --- reveals (§8.4) ---

  /** @param {number[]} positions */
  #checkPositions(positions) {
    const seen = new Set();
    if (positions.length < 1) throw new UsageError('bad_position', 'no position');
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 0 || p >= this.params.n || seen.has(p)) {
        throw new UsageError('bad_position', `position ${p}`);
      }
      seen.add(p);
    }
  }

  /**
   * Our share message for these positions (spec/crypto.md §7).
   * @param {number[]} positions @param {RandomSource} rng draws the proof's nonce bytes
   */
  makeShares(positions, rng) {
    const me = this.party();
    this.#checkPositions(positions);
    const deck = this.finalDeck();
    if (!this.secret) throw new UsageError('no_keys');
    const message = proveShares(this.context(me, 'share'), this.secret, positions, positions.map((p) => deck[p].a), rng);
    positions.forEach((p, j) => {
      this.shares[me].set(p, message.slice(32 * j, 32 * j + 32));
      this.checked[me].add(p);
    });
    return message;
  }

  /**
   * A share message of party `from` for these positions, verified (spec/crypto.md §7).
   * @param {number} from @param {number[]} positions @param {Uint8Array} message
   */
  receiveShares(from, positions, message) {
    const deck = this.finalDeck();
    const seen = new Set();
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 0 || p >= this.params.n || seen.has(p)) {
        throw new VerificationError('bad_position', `position ${p}`);
      }
      seen.add(p);
    }
    const pk = this.publicKeys[from];
    if (!pk) throw new VerificationError('no_keys');
    const secret = this.secrets[from];
    const { shares, checked } = verifyShareMessage(this.context(from, 'share'), pk, positions, positions.map((p) => deck[p].a), message, secret);
    positions.forEach((p, j) => {
      this.shares[from].set(p, shares[j]);
      if (checked) this.checked[from].add(p);
    });
    this.shareMessages.push({ from, positions: positions.slice(), message: message.slice() });
    return shares;
  }

  /**
   * Whether the share of `party` for `position` is known.
   * @param {number} party @param {number} position
   */
  hasShare(party, position) {
    return this.shares[party].has(position);
  }

  /**
   * The card index at a position, from both shares (ours computed on demand), or null when a
   * share is missing. Raises not_a_card when the decryption is none of the card points.
   * @param {number} position
   */
  cardAt(position) {
    const deck = this.finalDeck();
    const e = deck[position];
    /** @type {Uint8Array[]} */
    const shares = [];
    for (const k of [0, 1]) {
      let d = this.shares[k].get(position) ?? this.derived[k].get(position);
      const x = this.secrets[k] ?? (k === this.me ? this.secret : null);
      if (!d && x) {
        d = mul(x, e.a);
        this.derived[k].set(position, d);
      }
      if (!d) return null;
      shares.push(d);
    }
    const index = cardIndexOf(sub(sub(e.b, shares[0]), shares[1]), this.params.n);
    if (index < 0) throw new VerificationError('not_a_card', `position ${position}`);
    return index;
  }

  // --- disclosure and audit (§8.5) ---

  /** Our round secret, to disclose at the end of the round. */
  disclose() {
    this.party();
    if (!this.secret) throw new UsageError('no_keys');
    this.secrets[/** @type {0 | 1} */ (this.me)] = this.secret;
    return this.secret.slice();
  }

  /**
   * A disclosed secret of party `from`: x_k*G = pk_k, else wrong_key.
   * @param {number} from @param {Uint8Array} secret
   */
  receiveSecret(from, secret) {
    if (secret.length !== 32) throw new VerificationError('invalid_length', 'a secret is 32 bytes');
    const x = decodeScalar(secret);
    const pk = this.publicKeys[from];
    if (!pk) throw new VerificationError('no_keys');
    let ok = false;
    try {
      ok = equal(baseMul(x), pk);
    } catch {
      ok = false;
    }
    if (!ok) throw new VerificationError('wrong_key');
    this.secrets[from] = x;
  }

  /**
   * The end-of-round audit (§8.5): every share received equals x_k*a; the whole deck decrypts to
   * a permutation of the cards. With `recheck`, every stored proof is verified again first
   * (failure: audit_failed). Returns the card index at every position.
   * @param {{recheck?: boolean}} [options]
   * @returns {number[]}
   */
  audit(options = {}) {
    const [x0, x1] = [this.secrets[0] ?? (this.me === 0 ? this.secret : null), this.secrets[1] ?? (this.me === 1 ? this.secret : null)];
    if (!x0 || !x1) throw new UsageError('keys_not_disclosed');
    if (options.recheck) this.#recheck();
    const deck = this.finalDeck();
    // Every share received from the other party equals x_k*a (ours were made so, and those
    // checked against a disclosed secret on arrival need no second look).
    for (const k of [0, 1]) {
      const x = k === 0 ? x0 : x1;
      for (const [p, d] of this.shares[k]) {
        if (this.checked[k].has(p)) continue;
        if (!equal(mul(x, deck[p].a), d)) throw new VerificationError('bad_share', `party ${k} position ${p}`);
        this.checked[k].add(p);
      }
    }
    // Each position decrypts as b - d_0 - d_1 where both layers are known, else as b - x*a with
    // x = x_0 + x_1: n variable-base multiplications at most (§8.5).
    const x = scalarAdd(x0, x1);
    const order = [];
    const seen = new Set();
    for (let p = 0; p < this.params.n; p++) {
      const e = deck[p];
      const d0 = this.shares[0].get(p) ?? this.derived[0].get(p);
      const d1 = this.shares[1].get(p) ?? this.derived[1].get(p);
      const plain = d0 && d1 ? sub(sub(e.b, d0), d1) : sub(e.b, mul(x, e.a));
      const index = cardIndexOf(plain, this.params.n);
      if (index < 0) throw new VerificationError('not_a_card', `position ${p}`);
      if (seen.has(index)) throw new VerificationError('not_a_permutation', `card ${index} twice`);
      seen.add(index);
      order.push(index);
    }
    return order;
  }

  #recheck() {
    try {
      const replay = new Deck(this.params, null);
      for (const k of [0, 1]) replay.receiveKey(k, /** @type {Uint8Array} */ (this.keyMessages[k]));
      const f = this.params.firstShuffler;
      this.shuffleMessages.forEach((m, i) => replay.receiveShuffle(i === 0 ? f : 1 - f, m));
      for (const s of this.shareMessages) replay.receiveShares(s.from, s.positions, s.message);
    } catch (e) {
      if (e instanceof VerificationError) throw new VerificationError('audit_failed', e.reason);
      throw e;
    }
  }
}

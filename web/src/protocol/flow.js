// The game flow (spec/game.md §4-§6), sans-I/O and shared by a playing seat and an auditor.
//
// Theory of operation. The flow holds the public state of a match: the state of the table below,
// the match tally, the deal's rules engine (spec/rules.md) and its deck (spec/crypto.md §8). Every
// envelope, ours and the peer's, goes through `apply(sender, type, body, context)`, in order: it
// checks that the state expects that type from that seat, checks the body, applies it, then runs
// the pump (§4.3), which feeds the engine the cards both seats' shares open and says who speaks
// next. A seat makes its own message bodies with its deck party and passes them with
// `own: true`, so its contributions are recorded instead of verified, and the share groups it owes
// are made by the pump (`makeShares`) in exactly the order a receiver will consume them. An
// auditor is the same flow with `viewer = null` and an observer deck.
//
// Violations raise GameViolation (reason of §9, the seat to blame and the envelope number).
import { equal } from '../bytes.js';
import { encode } from './codec.js';
import { ProtocolError } from './errors.js';
import { MessageError, checkBody, shareGroups } from './messages.js';
import { ed25519Verify } from './primitives.js';
import { checkTerms, termsDigest } from './terms.js';
import { matchResult, matchStatement, roundStatement } from './results.js';
import { GAME_VERSION } from './statement.js';
import { Deck } from '../mentalpoker/deck.js';
import { MentalPokerError } from '../mentalpoker/errors.js';
import { MatchState } from '../rules/match.js';
import { RoundState } from '../rules/round.js';
import { firstDealer } from '../rules/deal.js';
import { actionFromDict, actionToDict, sameAction } from '../rules/actions.js';
import { resultToDict } from '../rules/result.js';
import { IllegalMove, InconsistentReveal, RulesError } from '../rules/errors.js';

export const DECK_SIZE = 48;

/** The state table of spec/game.md §4.1 (state, message, sender, next states). */
export const TABLE = Object.freeze([
  ['proposing', 'terms', 'seat 0', ['accepting']],
  ['accepting', 'accept', 'seat 1', ['round_keys']],
  ['round_keys', 'key', 'first shuffler, then the other', ['round_keys', 'shuffling']],
  ['shuffling', 'shuffle', 'first shuffler, then the other', ['shuffling', 'drawing', 'playing']],
  ['drawing', 'reveal', 'the seat whose shares are missing', ['drawing', 'round_keys']],
  ['playing', 'reveal', 'the seat whose shares are missing', ['playing', 'disclosing']],
  ['playing', 'act', 'the seat the rules engine asks', ['playing', 'disclosing']],
  ['disclosing', 'disclose', 'the seat that did not send the last message', ['result']],
  ['result', 'round_result', 'the other seat', ['countersign']],
  ['countersign', 'round_sign', 'the closer', ['round_keys', 'match_result']],
  ['match_result', 'match_result', 'the seat that did not send the last message', ['match_countersign']],
  ['match_countersign', 'match_sign', 'the other seat', ['done']],
]);

/** A deviation found by the flow: the reason (spec/game.md §9), whom to blame, at which envelope. */
export class GameViolation extends ProtocolError {
  /**
   * @param {string} reason @param {string} detail @param {number | null} seat @param {number | null} seq
   */
  constructor(reason, detail, seat, seq) {
    super(reason, detail);
    this.name = 'GameViolation';
    this.seat = seat;
    this.seq = seq;
  }
}

/** The replay cannot go on without a secret it does not have (no one is blamed). */
export class CannotContinue extends ProtocolError {
  /** @param {string} detail @param {number} seq */
  constructor(detail, seq) {
    super('hidden', detail);
    this.name = 'CannotContinue';
    this.seq = seq;
  }
}

/**
 * The first-dealer draw of deal 0 (spec/game.md §5.1) as a tiny engine with the round engine's
 * interface: pairs (2k, 2k+1) revealed publicly until `firstDealer` names a dealer.
 */
class FirstDealerDraw {
  /** @param {import('../rules/profile.js').Profile} profile */
  constructor(profile) {
    this.profile = profile;
    this.pair = 0;
    /** @type {Map<number, number>} */
    this.cards = new Map();
    /** @type {0 | 1 | null} */
    this.dealer = null;
    /** @type {{type: 'reveal', positions: number[], to: null} | null} */
    this.need = { type: 'reveal', positions: [0, 1], to: null };
  }

  /** @param {number} position @param {number} card */
  reveal(position, card) {
    this.cards.set(position, card);
    const [a, b] = [2 * this.pair, 2 * this.pair + 1];
    if (!this.cards.has(a) || !this.cards.has(b)) return;
    this.dealer = firstDealer(/** @type {number} */ (this.cards.get(a)), /** @type {number} */ (this.cards.get(b)), this.profile);
    if (this.dealer !== null) {
      this.need = null;
      return;
    }
    this.pair += 1;
    if (2 * this.pair + 1 >= DECK_SIZE) throw new RulesError('bad_deal', 'no first dealer in the whole deck');
    this.need = { type: 'reveal', positions: [2 * this.pair, 2 * this.pair + 1], to: null };
  }
}

/**
 * @typedef {import('./codec.js').Value} Value
 * @typedef {{[key: string]: Value}} Body
 * @typedef {{seq: number, head: Uint8Array, own?: boolean, makeShares?: (positions: number[]) => Uint8Array}} Context
 * @typedef {{type: string, [key: string]: unknown}} FlowEvent
 */

export class GameFlow {
  /**
   * @param {{viewer: 0 | 1 | null, sessionId: Uint8Array, room: string, identityKeys: [Uint8Array, Uint8Array],
   *   version?: number, secrets?: Map<number, [Uint8Array | null, Uint8Array | null]>,
   *   dealViewers?: Map<number, 0 | 1>, skipHidden?: boolean}} options
   *   `secrets`: round secrets an auditor learned in a first pass, by deal (installed when they match).
   *   `dealViewers`: for an auditor of evidence, the deal to see as one seat saw it (with that seat's
   *   round secret from `secrets`). `skipHidden`: an auditor's first pass passes the private reveals
   *   it cannot open instead of stopping (it only collects the disclosed secrets).
   */
  constructor(options) {
    this.viewer = options.viewer;
    this.sessionId = options.sessionId;
    this.room = options.room;
    this.identityKeys = options.identityKeys;
    this.version = options.version ?? GAME_VERSION;
    this.knownSecrets = options.secrets ?? new Map();
    this.dealViewers = options.dealViewers ?? new Map();
    this.skipHidden = options.skipHidden ?? false;
    /** @type {0 | 1 | null} the viewer of the current deal */
    this.dealViewer = this.viewer;
    this.state = 'proposing';
    /** @type {import('./terms.js').Terms | null} */
    this.terms = null;
    /** @type {Uint8Array | null} */
    this.termsDigest = null;
    /** @type {MatchState | null} */
    this.match = null;
    /** deal number: 0 is the first-dealer draw */
    this.deal = -1;
    /** @type {Deck | null} */
    this.deck = null;
    /** @type {RoundState | FirstDealerDraw | null} */
    this.engine = null;
    /** @type {{roundIndex: number, dealer: 0 | 1, month: number} | null} */
    this.roundParams = null;
    /** the seat expected to send next in drawing/playing */
    this.nextSender = 0;
    /** @type {'act' | 'reveal'} */
    this.nextType = 'reveal';
    this.closer = 0;
    this.lastSender = 0;
    /** @type {{seat: number, seq: number, action: import('../rules/actions.js').Action}[]} the deal's actions */
    this.dealActions = [];
    /** @type {Map<number, number>} cards the engine was fed this deal, by position */
    this.fed = new Map();
    this.keysIn = 0;
    this.shufflesIn = 0;
    /** @type {Body | null} the round result both seats sign */
    this.roundResult = null;
    /** @type {Uint8Array | null} the head under the round statement */
    this.roundHead = null;
    /** @type {Body | null} */
    this.matchResult = null;
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    this.matchSignatures = [null, null];
    /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} round secrets seen, by deal */
    this.disclosed = new Map();
    /** @type {FlowEvent[]} */
    this.events = [];
    /** envelopes applied */
    this.count = 0;
  }

  // --- who speaks next ---

  /**
   * The seat and message type the flow waits for, or null when done.
   * @returns {{seat: 0 | 1, type: string} | null}
   */
  expected() {
    const s = /** @type {(x: number) => 0 | 1} */ ((x) => /** @type {0 | 1} */ (x));
    const deck = this.deck;
    switch (this.state) {
      case 'proposing': return { seat: 0, type: 'terms' };
      case 'accepting': return { seat: 1, type: 'accept' };
      case 'round_keys': {
        const f = /** @type {Deck} */ (deck).params.firstShuffler;
        return { seat: s(this.keysIn ? 1 - f : f), type: 'key' };
      }
      case 'shuffling': {
        const f = /** @type {Deck} */ (deck).params.firstShuffler;
        return { seat: s(this.shufflesIn ? 1 - f : f), type: 'shuffle' };
      }
      case 'drawing':
      case 'playing': return { seat: s(this.nextSender), type: this.nextType };
      case 'disclosing': return { seat: s(this.closer), type: 'disclose' };
      case 'result': return { seat: s(1 - this.closer), type: 'round_result' };
      case 'countersign': return { seat: s(this.closer), type: 'round_sign' };
      case 'match_result': return { seat: s(1 - this.lastSender), type: 'match_result' };
      case 'match_countersign': return { seat: s(1 - this.lastSender), type: 'match_sign' };
      default: return null;
    }
  }

  /**
   * The current wait with its deadline in seconds (spec/game.md §7.1), or null.
   */
  waitingFor() {
    const e = this.expected();
    if (!e) return null;
    const d = this.terms ? this.terms.deadlines : { step: 60, turn: 300 };
    return { ...e, seconds: e.type === 'act' ? d.turn : d.step };
  }

  get done() {
    return this.state === 'done';
  }

  // --- applying one envelope ---

  /**
   * Apply one envelope's message, ours (`own`) or received.
   * @param {number} sender @param {string} type @param {Body} body @param {Context} ctx
   */
  apply(sender, type, body, ctx) {
    const fail = (/** @type {string} */ reason, /** @type {string} */ detail, seat = sender) => {
      throw new GameViolation(reason, detail, seat, ctx.seq);
    };
    const expected = this.expected();
    // spec/game.md §4.1: (state, type) and sender are checked before the body.
    if (!ctx.own) {
      try {
        checkBody(type, ctx.own ? { ...body, shares: [] } : body);
      } catch (e) {
        if (e instanceof MessageError && e.reason === 'unknown_message') fail('unknown_message', e.detail);
        if (!(e instanceof MessageError)) throw e;
        if (!expected || expected.type !== type || expected.seat !== sender) fail('out_of_turn', this.#turnText(sender, type));
        fail('bad_message', e.detail);
      }
    }
    if (!expected || expected.type !== type || expected.seat !== sender) fail('out_of_turn', this.#turnText(sender, type));
    const handler = /** @type {Record<string, (s: 0 | 1, b: Body, c: Context) => void>} */ ({
      terms: this.#onTerms, accept: this.#onAccept, key: this.#onKey, shuffle: this.#onShuffle, reveal: this.#onReveal,
      act: this.#onAct, disclose: this.#onDisclose, round_result: this.#onRoundResult, round_sign: this.#onRoundSign,
      match_result: this.#onMatchResult, match_sign: this.#onMatchSign,
    })[type];
    try {
      handler.call(this, /** @type {0 | 1} */ (sender), body, ctx);
    } catch (e) {
      if (e instanceof GameViolation || e instanceof CannotContinue) throw e;
      if (e instanceof MentalPokerError || e instanceof RulesError || e instanceof ProtocolError) {
        fail(this.#reasonFor(type, e), e.message);
      }
      throw e;
    }
    this.lastSender = sender;
    this.count += 1;
  }

  /** @param {number} sender @param {string} type */
  #turnText(sender, type) {
    const e = this.expected();
    return e ? `${type} from seat ${sender} in ${this.state}, expected ${e.type} from seat ${e.seat}` : `${type} after the end`;
  }

  /** @param {string} type @param {Error} e */
  #reasonFor(type, e) {
    /** @type {Record<string, string>} */
    const byType = { key: 'bad_key', shuffle: 'bad_shuffle', disclose: 'bad_disclosed_key' };
    if (e instanceof IllegalMove) return 'illegal_action';
    if (e instanceof InconsistentReveal) return 'inconsistent_reveal';
    if (e instanceof RulesError && e.reason === 'bad_action') return 'bad_message';
    if (e instanceof ProtocolError && ['bad_terms', 'bad_message'].includes(e.reason)) return e.reason;
    return byType[type] ?? /** @type {any} */ (e).reason ?? 'bad_message';
  }

  /** @param {0 | 1} sender @param {Body} body */
  #onTerms(sender, body) {
    void sender;
    this.terms = checkTerms(body, { keys: this.identityKeys, room: this.room });
    this.termsDigest = termsDigest(body);
    this.events.push({ type: 'terms', terms: this.terms });
    this.state = 'accepting';
  }

  /** @param {0 | 1} sender @param {Body} body */
  #onAccept(sender, body) {
    void sender;
    if (!equal(/** @type {Uint8Array} */ (body.terms), /** @type {Uint8Array} */ (this.termsDigest))) {
      throw new ProtocolError('bad_terms', 'accept names another terms digest');
    }
    const terms = /** @type {import('./terms.js').Terms} */ (this.terms);
    this.match = new MatchState(terms.profile, 0);
    this.#startDeal(0);
  }

  /** @param {number} deal */
  #startDeal(deal) {
    this.deal = deal;
    this.dealViewer = this.dealViewers.get(deal) ?? this.viewer;
    const profile = /** @type {import('./terms.js').Terms} */ (this.terms).profile;
    let firstShuffler = /** @type {0 | 1} */ (0);
    if (deal === 0) {
      this.engine = new FirstDealerDraw(profile);
      this.roundParams = null;
    } else {
      const match = /** @type {MatchState} */ (this.match);
      this.roundParams = match.roundParams();
      this.engine = match.newRound(this.dealViewer);
      firstShuffler = this.roundParams.dealer;
      this.events.push({ type: 'deal', deal, ...this.roundParams });
    }
    this.deck = new Deck({ n: DECK_SIZE, version: this.version, sessionId: this.sessionId, round: deal, firstShuffler }, this.dealViewer);
    this.dealActions = [];
    this.fed = new Map();
    this.keysIn = 0;
    this.shufflesIn = 0;
    this.roundResult = null;
    this.roundHead = null;
    this.state = 'round_keys';
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onKey(sender, body, ctx) {
    const deck = /** @type {Deck} */ (this.deck);
    if (!ctx.own) deck.receiveKey(sender, /** @type {Uint8Array} */ (body.key));
    this.keysIn += 1;
    if (this.keysIn === 2) {
      this.#installKnownSecrets();
      this.state = 'shuffling';
    }
  }

  /** An auditor's secrets from its first pass, kept only when they match this deal's keys. */
  #installKnownSecrets() {
    const known = this.knownSecrets.get(this.deal);
    if (!known || this.viewer !== null) return;
    const deck = /** @type {Deck} */ (this.deck);
    if (deck.me !== null) {
      // An evidence file's interrupted deal, seen with the reporter's own secret.
      const x = known[deck.me];
      if (x && deck.holdSecret(x)) return;
      return;
    }
    for (const k of [0, 1]) {
      const x = known[k];
      if (!x) continue;
      try {
        deck.receiveSecret(k, x);
      } catch {
        // Not this deal's key: the replay will reach the disclosure and judge it there.
      }
    }
    if (!deck.secrets[0] || !deck.secrets[1]) deck.secrets = [null, null];
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onShuffle(sender, body, ctx) {
    const deck = /** @type {Deck} */ (this.deck);
    const first = this.shufflesIn === 0;
    if (!ctx.own) deck.receiveShuffle(sender, /** @type {Uint8Array} */ (body.deck));
    this.shufflesIn += 1;
    if (first) {
      if (!ctx.own && shareGroups(body).length) throw new GameViolation('unexpected_shares', 'the first shuffle carries no shares', sender, ctx.seq);
      return;
    }
    this.state = this.deal === 0 ? 'drawing' : 'playing';
    this.#pump(sender, body, ctx);
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onReveal(sender, body, ctx) {
    this.#pump(sender, body, ctx);
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onAct(sender, body, ctx) {
    let action;
    try {
      action = actionFromDict(body.action);
    } catch (e) {
      throw new GameViolation('bad_message', `action: ${/** @type {Error} */ (e).message}`, sender, ctx.seq);
    }
    // spec/game.md §3.3: the action's map is canonical.
    if (!equal(encode(/** @type {any} */ (actionToDict(action))), encode(body.action))) {
      throw new GameViolation('bad_message', 'the action is not in canonical form', sender, ctx.seq);
    }
    const engine = /** @type {RoundState} */ (this.engine);
    try {
      engine.apply(sender, action);
    } catch (e) {
      if (e instanceof IllegalMove || e instanceof RulesError) throw new GameViolation('illegal_action', e.message, sender, ctx.seq);
      throw e;
    }
    this.dealActions.push({ seat: sender, seq: ctx.seq, action });
    this.events.push({ type: 'action', seat: sender, action, deal: this.deal });
    this.#pump(sender, body, ctx);
  }

  /**
   * The pump of spec/game.md §4.3 after a message from `sender`.
   * @param {0 | 1} sender @param {Body} body @param {Context} ctx
   */
  #pump(sender, body, ctx) {
    const deck = /** @type {Deck} */ (this.deck);
    const engine = /** @type {RoundState | FirstDealerDraw} */ (this.engine);
    const groups = ctx.own ? [] : shareGroups(body);
    /** @type {[number[], Uint8Array][]} */
    const made = [];
    let used = 0;
    const violation = (/** @type {string} */ reason, /** @type {string} */ detail) => new GameViolation(reason, detail, sender, ctx.seq);
    for (;;) {
      const need = engine.need;
      if (need === null) break;
      if (need.type === 'action') {
        this.nextSender = need.seat;
        this.nextType = 'act';
        break;
      }
      const owers = need.to === null ? [0, 1] : [1 - need.to];
      const owed = (/** @type {number} */ s) => (owers.includes(s) ? need.positions.filter((p) => !deck.hasShare(s, p)) : []);
      const mine = owed(sender);
      if (mine.length) {
        if (ctx.own) {
          const data = /** @type {(p: number[]) => Uint8Array} */ (ctx.makeShares)(mine);
          made.push([mine, data]);
        } else {
          if (used >= groups.length) throw violation('missing_shares', `shares of ${mine.join(',')} are owed`);
          const [positions, data] = groups[used++];
          if (positions.length !== mine.length || positions.some((p, i) => p !== mine[i])) {
            throw violation('wrong_shares', `shares of ${positions.join(',')}, owed ${mine.join(',')}`);
          }
          try {
            deck.receiveShares(sender, positions, data);
          } catch (e) {
            if (e instanceof MentalPokerError) throw violation('bad_share', e.message);
            throw e;
          }
        }
      }
      const owing = [0, 1].filter((s) => owed(s).length > 0);
      if (owing.length) {
        this.nextSender = owing.includes(1 - sender) ? 1 - sender : owing[0];
        this.nextType = 'reveal';
        break;
      }
      this.#feed(need, sender, ctx.seq);
    }
    if (!ctx.own && used < groups.length) throw violation('unexpected_shares', `${groups.length - used} share groups beyond those owed`);
    if (ctx.own) body.shares = /** @type {Value} */ (/** @type {unknown} */ (made));
    if (engine.need === null) this.#dealOver(sender);
  }

  /**
   * Every share of a reveal is in: feed the cards this viewer may see (spec/game.md §4.3 step 4).
   * @param {{type: 'reveal', positions: readonly number[], to: 0 | 1 | null}} need @param {0 | 1} sender @param {number} seq
   */
  #feed(need, sender, seq) {
    const deck = /** @type {Deck} */ (this.deck);
    const engine = /** @type {RoundState | FirstDealerDraw} */ (this.engine);
    const hidden = need.to !== null && this.dealViewer !== null && this.dealViewer !== need.to;
    if (hidden) {
      /** @type {RoundState} */ (engine).skipReveal();
      return;
    }
    if (need.to !== null && this.dealViewer === null && !(deck.secrets[0] && deck.secrets[1])) {
      if (this.skipHidden) {
        /** @type {RoundState} */ (engine).skipReveal();
        return;
      }
      throw new CannotContinue(`deal ${this.deal}: a private reveal, and this deal's round keys were never disclosed`, seq);
    }
    /** @type {number[]} */
    const cards = [];
    for (const p of need.positions.slice()) {
      let card;
      try {
        card = deck.cardAt(p);
      } catch (e) {
        if (e instanceof MentalPokerError) throw new GameViolation('inconsistent_reveal', e.message, sender, seq);
        throw e;
      }
      if (card === null) throw new GameViolation('inconsistent_reveal', `position ${p} does not open`, sender, seq);
      try {
        engine.reveal(p, card);
      } catch (e) {
        if (e instanceof RulesError) throw new GameViolation('inconsistent_reveal', e.message, sender, seq);
        throw e;
      }
      this.fed.set(p, card);
      cards.push(card);
    }
    this.events.push({ type: 'reveal', deal: this.deal, positions: need.positions.slice(), cards, to: need.to });
  }

  /** @param {0 | 1} sender the seat whose message ended the deal */
  #dealOver(sender) {
    if (this.deal === 0) {
      const draw = /** @type {FirstDealerDraw} */ (this.engine);
      const dealer = /** @type {0 | 1} */ (draw.dealer);
      const terms = /** @type {import('./terms.js').Terms} */ (this.terms);
      this.match = new MatchState(terms.profile, dealer);
      this.events.push({ type: 'first_dealer', dealer, cards: [...draw.cards.entries()] });
      this.#startDeal(1);
      return;
    }
    this.closer = 1 - sender;
    this.state = 'disclosing';
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onDisclose(sender, body, ctx) {
    const deck = /** @type {Deck} */ (this.deck);
    if (!ctx.own) deck.receiveSecret(sender, /** @type {Uint8Array} */ (body.key));
    this.#noteSecret(sender, /** @type {Uint8Array} */ (body.key));
    // The other seat now holds both secrets: it re-checks the deal before signing (§5.6).
    if (this.dealViewer === 1 - sender) this.#recheck(ctx.seq);
    this.state = 'result';
  }

  /** @param {number} seat @param {Uint8Array} key */
  #noteSecret(seat, key) {
    const entry = this.disclosed.get(this.deal) ?? [null, null];
    entry[seat] = key.slice();
    this.disclosed.set(this.deal, entry);
  }

  /** The round result both seats must sign (the engine's). */
  ownRoundResult() {
    const engine = /** @type {RoundState} */ (this.engine);
    return /** @type {Body} */ (/** @type {unknown} */ (resultToDict(/** @type {any} */ (engine.result))));
  }

  /**
   * The round statement under a head (spec/game.md §6.1).
   * @param {Uint8Array} head
   */
  roundStatement(head) {
    const p = /** @type {{roundIndex: number}} */ (this.roundParams);
    return roundStatement({ session: this.sessionId, deal: this.deal, round: p.roundIndex, head, result: this.ownRoundResult() });
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onRoundResult(sender, body, ctx) {
    const deck = /** @type {Deck} */ (this.deck);
    if (!ctx.own) {
      try {
        deck.receiveSecret(sender, /** @type {Uint8Array} */ (body.key));
      } catch (e) {
        if (e instanceof MentalPokerError) throw new GameViolation('bad_disclosed_key', e.message, sender, ctx.seq);
        throw e;
      }
    }
    this.#noteSecret(sender, /** @type {Uint8Array} */ (body.key));
    if (this.dealViewer !== sender) this.#recheck(ctx.seq);
    const own = this.ownRoundResult();
    if (!equal(encode(own), encode(body.result))) throw new GameViolation('wrong_result', 'the round result differs from ours', sender, ctx.seq);
    if (!ctx.own && !ed25519Verify(this.identityKeys[sender], this.roundStatement(ctx.head), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the round result signature does not verify', sender, ctx.seq);
    }
    this.roundResult = own;
    this.roundHead = ctx.head;
    this.state = 'countersign';
  }

  /**
   * The re-check of a deal with both secrets (spec/game.md §5.7).
   * @param {number} seq the envelope that brought the second secret
   */
  #recheck(seq) {
    const deck = /** @type {Deck} */ (this.deck);
    /** @type {number[]} */
    let order;
    try {
      order = deck.audit({ recheck: true });
    } catch (e) {
      if (e instanceof MentalPokerError) {
        const detail = /** @type {any} */ (e).message;
        throw new GameViolation('bad_deck', detail, this.#blameForDeck(e), seq);
      }
      throw e;
    }
    for (const [p, card] of this.fed) {
      if (order[p] !== card) throw new GameViolation('inconsistent_reveal', `position ${p} showed card ${card}, the deck holds ${order[p]}`, null, seq);
    }
    // Replay the deal seeing every card, with the same actions.
    const p = /** @type {{roundIndex: number, dealer: 0 | 1, month: number}} */ (this.roundParams);
    const terms = /** @type {import('./terms.js').Terms} */ (this.terms);
    const replay = new RoundState({ profile: terms.profile, dealer: p.dealer, viewer: null, roundIndex: p.roundIndex, month: p.month });
    let next = 0;
    for (;;) {
      const need = replay.need;
      if (need === null) break;
      if (need.type === 'reveal') {
        for (const pos of need.positions.slice()) replay.reveal(pos, order[pos]);
        continue;
      }
      const step = this.dealActions[next++];
      if (!step || step.seat !== need.seat) throw new GameViolation('inconsistent_round', 'the replay asks for another action', null, seq);
      try {
        replay.apply(step.seat, step.action);
      } catch (e) {
        if (e instanceof IllegalMove || e instanceof RulesError) throw new GameViolation('illegal_action', e.message, step.seat, step.seq);
        throw e;
      }
    }
    const engine = /** @type {RoundState} */ (this.engine);
    if (next !== this.dealActions.length || !engine.result || !replay.result
      || !equal(encode(/** @type {any} */ (resultToDict(replay.result))), encode(/** @type {any} */ (resultToDict(engine.result))))) {
      throw new GameViolation('inconsistent_round', 'the replay with every card gives another result', null, seq);
    }
  }

  /** @param {Error} e */
  #blameForDeck(e) {
    const m = /party (\d)/.exec(e.message);
    return m ? Number(m[1]) : null;
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onRoundSign(sender, body, ctx) {
    if (!ctx.own && !ed25519Verify(this.identityKeys[sender], this.roundStatement(/** @type {Uint8Array} */ (this.roundHead)), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the round countersignature does not verify', sender, ctx.seq);
    }
    const match = /** @type {MatchState} */ (this.match);
    const engine = /** @type {RoundState} */ (this.engine);
    match.record(/** @type {any} */ (engine.result));
    this.events.push({ type: 'round_over', deal: this.deal, roundIndex: /** @type {any} */ (this.roundParams).roundIndex, result: engine.result, scores: match.scores });
    if (match.over) {
      this.state = 'match_result';
      return;
    }
    this.#startDeal(this.deal + 1);
  }

  /**
   * The match result map under a head (spec/game.md §6.2).
   * @param {Uint8Array} head
   */
  ownMatchResult(head) {
    const match = /** @type {MatchState} */ (this.match);
    const terms = /** @type {import('./terms.js').Terms} */ (this.terms);
    return matchResult({
      session: this.sessionId, room: this.room, keys: this.identityKeys, terms: /** @type {Uint8Array} */ (this.termsDigest),
      profile: terms.profile.name, profileDigest: terms.profile.digest(), rounds: match.roundSummary(), scores: match.scores,
      winner: match.winner, head,
    });
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onMatchResult(sender, body, ctx) {
    const own = this.ownMatchResult(ctx.head);
    if (!equal(encode(own), encode(body.result))) throw new GameViolation('wrong_result', 'the match result differs from ours', sender, ctx.seq);
    if (!ctx.own && !ed25519Verify(this.identityKeys[sender], matchStatement(own), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the match result signature does not verify', sender, ctx.seq);
    }
    this.matchResult = own;
    this.matchSignatures[sender] = /** @type {Uint8Array} */ (body.sig);
    this.state = 'match_countersign';
  }

  /** @param {0 | 1} sender @param {Body} body @param {Context} ctx */
  #onMatchSign(sender, body, ctx) {
    const result = /** @type {Body} */ (this.matchResult);
    if (!ctx.own && !ed25519Verify(this.identityKeys[sender], matchStatement(result), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the match countersignature does not verify', sender, ctx.seq);
    }
    this.matchSignatures[sender] = /** @type {Uint8Array} */ (body.sig);
    const match = /** @type {MatchState} */ (this.match);
    this.events.push({ type: 'match_over', scores: match.scores, winner: match.winner, result });
    this.state = 'done';
  }

  /** Legal actions for the seat the engine asks, when it is asking for one. */
  legalActions() {
    const engine = this.engine;
    if (!(engine instanceof RoundState) || !engine.need || engine.need.type !== 'action') return [];
    return engine.legalActions();
  }

  /**
   * Whether an action is legal now for `seat` (as far as this viewer knows).
   * @param {number} seat @param {import('../rules/actions.js').Action} action
   */
  isLegal(seat, action) {
    const e = this.expected();
    return !!e && e.type === 'act' && e.seat === seat && this.legalActions().some((a) => sameAction(a, action));
  }
}

// The game flow (spec/game.md, game version 2, the only one), sans-I/O, for a seat and for an
// auditor. Terms of another version are refused with `unsupported_version` (§1.2).
//
// Theory of operation. Every envelope goes through `apply(sender, type, body, ctx)`. After each,
// `#settle` starts the next deal when every deck it needs is final, and `expected()` computes the
// next (seat, type, deal) from public state alone (§4.2): keying and accepting, the closing of an
// ended deal (two disclosures, the ender first), the match end, preparation in the foreground,
// else the pump of the deal in play; before an `act`, a `disclose` or a match-end message the seat
// first sends what it owes (§4.4): its countersignatures of closed deals, oldest first, then the
// next step of the next deal's deck.
import { equal, u16be, concat } from '../bytes.js';
import { encode } from './codec.js';
import { GAME_VERSION } from './statement.js';
import { ProtocolError } from './errors.js';
import { FIELDS, MessageError, checkBody } from './messages.js';
import { ed25519Verify } from './primitives.js';
import { checkTerms, termsDigest } from './terms.js';
import { matchResult, matchStatement, roundStatement } from './results.js';
import { Deck } from '../mentalpoker/deck.js';
import { MentalPokerError } from '../mentalpoker/errors.js';
import { MatchState } from '../rules/match.js';
import { RoundState } from '../rules/round.js';
import { chooseFirstDealer, dealLayout } from '../rules/deal.js';
import { actionFromDict, actionToDict, sameAction } from '../rules/actions.js';
import { resultToDict } from '../rules/result.js';
import { IllegalMove, InconsistentReveal, RulesError } from '../rules/errors.js';
import { claimHolds, CLAIM_SIZES } from '../rules/handyaku.js';

/** A deviation from the game protocol: the reason, the seat to blame and its envelope. */
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

export const DECK_SIZE = 48;

/**
 * The first-dealer draw of deal 0 (spec/game.md §5.1) with the round engine's interface.
 */
class FirstDealerEngine {
  /** @param {import('../rules/profile.js').Profile} profile */
  constructor(profile) {
    this.profile = profile;
    /** @type {number[]} */
    this.cards = [];
    /** @type {0 | 1 | null} */
    this.dealer = null;
    const step = chooseFirstDealer(profile, []);
    /** @type {{type: 'reveal', positions: number[], to: null} | null} */
    this.need = step.dealer === null ? { type: 'reveal', positions: step.need, to: null } : null;
    this.dealer = step.dealer;
    /** @type {number[]} positions waiting for a card */
    this.awaiting = this.need ? this.need.positions.slice() : [];
    /** @type {Map<number, number>} */
    this.byPosition = new Map();
  }

  /** @param {number} position @param {number} card */
  reveal(position, card) {
    this.byPosition.set(position, card);
    this.awaiting = this.awaiting.filter((p) => p !== position);
    if (this.awaiting.length) return;
    const revealed = [...this.byPosition.keys()].sort((a, b) => a - b).map((p) => /** @type {number} */ (this.byPosition.get(p)));
    const step = chooseFirstDealer(this.profile, revealed);
    this.dealer = step.dealer;
    this.need = step.dealer === null ? { type: 'reveal', positions: step.need, to: null } : null;
    this.awaiting = this.need ? this.need.positions.slice() : [];
  }
}

/**
 * @typedef {import('./codec.js').Value} Value
 * @typedef {{[key: string]: Value}} Body
 * @typedef {{seq: number, head: Uint8Array, digest?: Uint8Array, own?: boolean, makeShares?: (positions: number[], deal: number) => Uint8Array}} Context
 * @typedef {{seat: 0 | 1, type: string, deal?: number, beforeAct?: boolean}} Expectation
 * @typedef {{deck: Deck, keys: Set<number>, shuffles: number, first: 0 | 1, keySeq: Map<number, number>}} DeckEntry
 * @typedef {{deal: number, kind: 'draw' | 'round', engine: RoundState | FirstDealerEngine,
 *   params: {roundIndex: number, dealer: 0 | 1, month: number} | null, fed: Map<number, number>,
 *   actions: {seat: number, seq: number, action: import('../rules/actions.js').Action}[],
 *   opened: Set<number>, lastOpener: number, declared: number[], held: Map<number, {action: any, seq: number}>,
 *   viewer: 0 | 1 | null, pumpNext: {seat: number} | null}} Live
 * @typedef {{deal: number, ender: number, disclosed: number[], discloseSeq: Map<number, number>, endSeq: number,
 *   live: Live, result: Body}} Closing
 * @typedef {{deal: number, roundIndex: number, result: Body, endSeq: number, signed: Set<number>}} Closed
 */

export class GameFlow {
  /**
   * @param {{viewer: 0 | 1 | null, sessionId: Uint8Array, room: string, identityKeys: [Uint8Array, Uint8Array],
   *   names: [string, string], secrets?: Map<number, [Uint8Array | null, Uint8Array | null]>,
   *   dealViewers?: Map<number, 0 | 1>, verifiedShuffles?: Set<string>}} options
   */
  constructor(options) {
    this.viewer = options.viewer;
    this.sessionId = options.sessionId;
    this.room = options.room;
    this.identityKeys = options.identityKeys;
    this.names = options.names;
    this.knownSecrets = options.secrets ?? new Map();
    this.dealViewers = options.dealViewers ?? new Map();
    /** shuffle messages an auditor verified ahead (mentalpoker/deck.js shuffleStatementDigest) */
    this.verifiedShuffles = options.verifiedShuffles;
    this.version = GAME_VERSION;
    /** @type {import('./terms.js').Terms | null} */
    this.terms = null;
    /** @type {Uint8Array | null} */
    this.termsDigest = null;
    this.accepted = false;
    /** @type {MatchState | null} */
    this.match = null;
    /** the first deck's deal: 0 with a draw or coin, 1 with a fixed first dealer */
    this.firstDeck = 1;
    /** @type {Map<number, DeckEntry>} */
    this.decks = new Map();
    /** @type {Live | null} the deal in play */
    this.live = null;
    /** the next deal to start */
    this.nextDeal = 0;
    /** @type {Closing | null} an ended deal waiting for its disclosures */
    this.closing = null;
    /** @type {Closed[]} closed deals, for their round signatures */
    this.closed = [];
    /** @type {Uint8Array[]} the digest of every envelope applied */
    this.digests = [];
    this.lastSender = 0;
    /** @type {{sender: number, kind: 'match_result' | 'resign', result: Body} | null} */
    this.ending = null;
    this.finished = false;
    /** @type {[Uint8Array | null, Uint8Array | null]} */
    this.matchSignatures = [null, null];
    /** @type {Body | null} */
    this.matchResult = null;
    /** the seat that disclosed last in the last deal (sends match_result) */
    this.lastDiscloser = 0;
    /** @type {Map<number, [Uint8Array | null, Uint8Array | null]>} */
    this.disclosed = new Map();
    /** @type {{type: string, [key: string]: unknown}[]} */
    this.events = [];
    /** deals replayed without their round keys (an auditor's note) */
    this.hiddenDeals = new Set();
    this.skipHidden = true;
  }

  get done() {
    return this.finished;
  }

  /** The state of spec/game.md §4.1 (`done` at the end). */
  get state() {
    const e = this.expected();
    if (!e) return this.finished ? 'done' : 'preparing';
    if (!this.terms) return 'proposing';
    if (!this.accepted) return e.type === 'accept' ? 'accepting' : 'keying';
    if (this.ending) return 'match_countersign';
    if (this.closing) return 'closing';
    if (!this.live) return this.match && this.match.over ? 'match_result' : 'preparing';
    if (this.live.kind === 'draw') return 'drawing';
    const engine = /** @type {RoundState} */ (this.live.engine);
    if (engine.phase === 'field_reveal' && this.live.opened.size < 2) return 'opening';
    const need = engine.need;
    return need && need.type === 'action' && need.kind === 'hand_yaku' ? 'declaring' : 'playing';
  }

  /** The deal in play, else the deal closing, else the last deal started (-1 before any). */
  get deal() {
    if (this.live) return this.live.deal;
    if (this.closing) return this.closing.deal;
    return this.nextDeal - 1;
  }

  /** The rules engine of the deal in play or closing (what a screen shows), else null. */
  get engine() {
    return this.live ? this.live.engine : this.closing ? this.closing.live.engine : null;
  }

  /** @param {number} d */
  #firstShuffler(d) {
    return /** @type {0 | 1} */ ((d - this.firstDeck) % 2 === 0 ? 1 : 0);
  }

  /** @param {number} d @returns {DeckEntry} */
  #deckEntry(d) {
    let e = this.decks.get(d);
    if (!e) {
      const viewer = this.dealViewers.get(d) ?? this.viewer;
      const first = this.#firstShuffler(d);
      e = {
        deck: new Deck({ n: DECK_SIZE, version: this.version, sessionId: this.sessionId, round: d, firstShuffler: first }, viewer,
          { verifiedShuffles: this.verifiedShuffles }),
        keys: new Set(), shuffles: 0, first, keySeq: new Map(),
      };
      this.decks.set(d, e);
    }
    return e;
  }

  /** @param {number} d */
  #final(d) {
    const e = this.decks.get(d);
    return !!e && e.shuffles === 2;
  }

  /** The first decks of the match (deal 0 and 1 with a draw, else deal 1). */
  #firstDecks() {
    return this.firstDeck === 0 ? [0, 1] : [1];
  }

  // --- the expectation (§4.2, §4.4) ---

  /**
   * The preparation step a seat owes for deck d, or null.
   * @param {number} seat @param {number} d @returns {Expectation | null}
   */
  #prepStep(seat, d) {
    const e = this.#deckEntry(d);
    const s = /** @type {0 | 1} */ (seat);
    if (!e.keys.has(seat)) return { seat: s, type: 'key', deal: d };
    if (!this.accepted || e.keys.size < 2) return null;
    if (e.shuffles === 0 && e.first === seat) return { seat: s, type: 'shuffle', deal: d };
    if (e.shuffles === 1 && e.first !== seat) return { seat: s, type: 'shuffle', deal: d };
    return null;
  }

  /** @param {number} seat @returns {Expectation | null} */
  #owedSign(seat) {
    for (const c of this.closed) {
      if (!c.signed.has(seat)) return { seat: /** @type {0 | 1} */ (seat), type: 'round_sign', deal: c.deal };
    }
    return null;
  }

  /**
   * What `seat` owes before its next act (nextDeck = deal in play + 1) or disclose (§4.4): its
   * countersignatures, then the step of deck e + 1, then its key of deck e + 2 (keys travel two
   * deals ahead, shuffles one).
   * @param {number} seat @param {number | null} nextDeck
   */
  #owed(seat, nextDeck) {
    const sign = this.#owedSign(seat);
    if (sign) return sign;
    if (nextDeck === null || (this.match && this.match.over)) return null;
    const step = this.#prepStep(seat, nextDeck);
    if (step) return step;
    if (!this.#deckEntry(nextDeck + 1).keys.has(seat)) return { seat: /** @type {0 | 1} */ (seat), type: 'key', deal: nextDeck + 1 };
    return null;
  }

  /**
   * The decks of a foreground preparation (§5.3): at the start the first decks in full and the
   * keys of the deck after them; at a late close of deal e, deck e + 1 in full and deck e + 2's keys.
   * @returns {{full: number[], keysOnly: number}}
   */
  #foregroundDecks() {
    const full = this.nextDeal === this.firstDeck ? this.#firstDecks() : [this.nextDeal];
    return { full, keysOnly: full[full.length - 1] + 1 };
  }

  /** @returns {Expectation | null} */
  expected() {
    if (this.finished) return null;
    if (!this.terms) return { seat: 0, type: 'terms' };
    if (!this.accepted) {
      const { full, keysOnly } = this.#foregroundDecks();
      for (const d of [...full, keysOnly]) if (!this.#deckEntry(d).keys.has(0)) return { seat: 0, type: 'key', deal: d };
      return { seat: 1, type: 'accept' };
    }
    if (this.ending) {
      const other = 1 - this.ending.sender;
      return this.#owedSign(other) ?? { seat: /** @type {0 | 1} */ (other), type: 'match_sign' };
    }
    if (this.closing) {
      const c = this.closing;
      const s = c.disclosed.length === 0 ? c.ender : 1 - c.ender;
      return this.#owed(s, c.deal + 1) ?? { seat: /** @type {0 | 1} */ (s), type: 'disclose', deal: c.deal };
    }
    if (this.match && this.match.over && !this.live) {
      const x = this.lastDiscloser;
      return this.#owedSign(x) ?? { seat: /** @type {0 | 1} */ (x), type: 'match_result' };
    }
    if (!this.live) {
      // §5.3: preparation in the foreground; the last sender first.
      const { full, keysOnly } = this.#foregroundDecks();
      for (const seat of [this.lastSender, 1 - this.lastSender]) {
        for (const d of full) {
          const step = this.#prepStep(seat, d);
          if (step) return step;
        }
        if (!this.#deckEntry(keysOnly).keys.has(seat)) return { seat: /** @type {0 | 1} */ (seat), type: 'key', deal: keysOnly };
      }
      return null;
    }
    const live = this.live;
    const need = live.engine.need;
    if (need && need.type === 'action' && need.kind === 'hand_yaku') {
      const order = [live.lastOpener, 1 - live.lastOpener].filter((s) => !live.declared.includes(s));
      return { seat: /** @type {0 | 1} */ (order[0]), type: 'declare' };
    }
    if (need && need.type === 'action') {
      const owed = this.#owed(need.seat, live.deal + 1);
      if (owed) return { ...owed, beforeAct: true };
      return { seat: need.seat, type: 'act' };
    }
    return { seat: /** @type {0 | 1} */ (live.pumpNext ? live.pumpNext.seat : this.lastSender), type: 'reveal' };
  }

  /** The current wait with its deadline (spec/game.md §7.1). */
  waitingFor() {
    const e = this.expected();
    if (!e) return null;
    const d = this.terms ? this.terms.deadlines : { step: 60, turn: 300 };
    const person = e.type === 'act' || e.type === 'accept' || e.beforeAct;
    return { seat: e.seat, type: e.type, seconds: person ? d.turn : d.step };
  }

  // --- applying one envelope ---

  /**
   * @param {number} sender @param {string} type @param {Body} body @param {Context} ctx
   */
  apply(sender, type, body, ctx) {
    const fail = (/** @type {string} */ reason, /** @type {string} */ detail, seat = /** @type {number | null} */ (sender)) => {
      throw new GameViolation(reason, detail, seat, ctx.seq);
    };
    const expected = this.expected();
    const resignInstead = type === 'resign' && expected && expected.type === 'act' && expected.seat === sender;
    if (!FIELDS[type]) fail('unknown_message', `unknown message type ${type}`);
    if (!expected || (expected.type !== type && !resignInstead) || expected.seat !== sender) {
      fail('out_of_turn', this.#turnText(sender, type));
      return;
    }
    if (!ctx.own) {
      // §4.1: another version's terms (version 1's have other fields) are refused as such.
      if (type === 'terms' && body.version !== GAME_VERSION) fail('unsupported_version', `terms of game version ${String(body.version)}`);
      try {
        checkBody(type, body);
      } catch (e) {
        if (e instanceof MessageError) fail(e.reason, e.detail);
        throw e;
      }
      if ('deal' in body && expected.deal !== undefined && body.deal !== expected.deal) fail('out_of_turn', `${type} of deal ${String(body.deal)}, expected deal ${expected.deal}`);
    }
    const s = /** @type {0 | 1} */ (sender);
    try {
      switch (type) {
        case 'terms': this.#onTerms(body); break;
        case 'accept': this.#onAccept(body); break;
        case 'key': this.#onKey(s, body, ctx); break;
        case 'shuffle': this.#onShuffle(s, body, ctx); break;
        case 'reveal': this.#pump(s, body, ctx); break;
        case 'act': this.#onAct(s, body, ctx); break;
        case 'declare': this.#onDeclare(s, body, ctx); break;
        case 'disclose': this.#onDisclose(s, body, ctx); break;
        case 'round_sign': this.#onRoundSign(s, body, ctx); break;
        case 'match_result': this.#onMatchResult(s, body, ctx, 'match_result'); break;
        case 'resign': this.#onMatchResult(s, body, ctx, 'resign'); break;
        case 'match_sign': this.#onMatchSign(s, body, ctx); break;
        default: fail('unknown_message', type);
      }
    } catch (e) {
      if (e instanceof GameViolation || e instanceof CannotContinue) throw e;
      if (e instanceof IllegalMove) fail('illegal_action', e.message);
      if (e instanceof InconsistentReveal) fail('inconsistent_reveal', e.message);
      if (e instanceof RulesError && e.reason === 'bad_action') fail('bad_message', e.message);
      if (e instanceof MentalPokerError) fail(/** @type {Record<string, string>} */ ({ key: 'bad_key', shuffle: 'bad_shuffle', disclose: 'bad_disclosed_key' })[type] ?? 'bad_share', e.message);
      if (e instanceof ProtocolError) fail(e.reason, e.detail);
      throw e;
    }
    this.lastSender = sender;
    if (ctx.digest) this.digests[ctx.seq] = ctx.digest;
    this.#settle();
  }

  /** Our own envelope's digest, once sealed. @param {number} seq @param {Uint8Array} digest */
  recordDigest(seq, digest) {
    this.digests[seq] = digest;
  }

  /** @param {number} sender @param {string} type */
  #turnText(sender, type) {
    const e = this.expected();
    return e ? `${type} from seat ${sender}, expected ${e.type} from seat ${e.seat}` : `${type} after the end`;
  }

  /** @param {Body} body */
  #onTerms(body) {
    this.terms = checkTerms(body, { keys: this.identityKeys, room: this.room, names: this.names });
    this.termsDigest = termsDigest(body);
    const method = this.terms.profile.first_dealer ?? 'card_draw';
    this.firstDeck = method === 'card_draw' || method === 'coin' ? 0 : 1;
    this.nextDeal = this.firstDeck;
    this.events.push({ type: 'terms', terms: this.terms });
  }

  /** @param {Body} body */
  #onAccept(body) {
    if (!equal(/** @type {Uint8Array} */ (body.terms), /** @type {Uint8Array} */ (this.termsDigest))) {
      throw new ProtocolError('bad_terms', 'accept names another terms digest');
    }
    this.accepted = true;
    const profile = /** @type {import('./terms.js').Terms} */ (this.terms).profile;
    if (this.firstDeck === 1) {
      const step = chooseFirstDealer(profile, []);
      this.match = new MatchState(profile, /** @type {0 | 1} */ (step.dealer));
    }
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onKey(s, body, ctx) {
    const d = /** @type {number} */ (body.deal);
    const e = this.#deckEntry(d);
    if (!ctx.own) e.deck.receiveKey(s, /** @type {Uint8Array} */ (body.key));
    e.keys.add(s);
    e.keySeq.set(s, ctx.seq);
    if (e.keys.size === 2) this.#installKnownSecrets(d);
  }

  /** @param {number} d */
  #installKnownSecrets(d) {
    const known = this.knownSecrets.get(d);
    if (!known) return;
    const deck = /** @type {DeckEntry} */ (this.decks.get(d)).deck;
    if (deck.me !== null) {
      const x = known[deck.me];
      if (x) deck.holdSecret(x);
      return;
    }
    if (this.viewer !== null) return;
    for (const k of [0, 1]) {
      const x = known[k];
      if (!x) continue;
      try { deck.receiveSecret(k, x); } catch { /* judged at its disclosure */ }
    }
    if (!deck.secrets[0] || !deck.secrets[1]) deck.secrets = [null, null];
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onShuffle(s, body, ctx) {
    const d = /** @type {number} */ (body.deal);
    const e = this.#deckEntry(d);
    if (!ctx.own) e.deck.receiveShuffle(s, /** @type {Uint8Array} */ (body.deck));
    e.shuffles += 1;
  }

  /** Start the next deal when every deck it needs is final (§4.2 rule 2). */
  #settle() {
    for (;;) {
      if (!this.accepted || this.live || this.ending || this.finished) return;
      if (this.match && this.match.over) return;
      const d = this.nextDeal;
      const needed = d === this.firstDeck ? this.#firstDecks() : [d];
      if (!needed.every((x) => this.#final(x))) return;
      this.#startDeal(d);
      return;
    }
  }

  /** @param {number} d */
  #startDeal(d) {
    const viewer = this.dealViewers.get(d) ?? this.viewer;
    const profile = /** @type {import('./terms.js').Terms} */ (this.terms).profile;
    /** @type {Live} */
    const live = {
      deal: d, kind: d === 0 ? 'draw' : 'round', engine: new FirstDealerEngine(profile), params: null, fed: new Map(), actions: [],
      opened: new Set(), lastOpener: this.lastSender, declared: [], held: new Map(), viewer, pumpNext: { seat: this.lastSender },
    };
    if (d >= 1) {
      const match = /** @type {MatchState} */ (this.match);
      live.params = match.roundParams();
      live.engine = new RoundState({ profile, dealer: live.params.dealer, viewer, roundIndex: live.params.roundIndex, month: live.params.month });
      this.events.push({ type: 'deal', deal: d, ...live.params });
    }
    this.live = live;
    this.nextDeal = d + 1;
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onAct(s, body, ctx) {
    const live = /** @type {Live} */ (this.live);
    const action = this.#action(s, body, ctx);
    if (action.type === 'claim_hand_yaku' || action.type === 'no_hand_yaku') throw new GameViolation('bad_message', 'a hand-yaku action travels in declare', s, ctx.seq);
    /** @type {RoundState} */ (live.engine).apply(s, action);
    live.actions.push({ seat: s, seq: ctx.seq, action });
    this.events.push({ type: 'action', seat: s, action, deal: live.deal });
    this.#pump(s, body, ctx);
  }

  /** @param {number} s @param {Body} body @param {Context} ctx */
  #action(s, body, ctx) {
    let action;
    try {
      action = actionFromDict(body.action);
    } catch (e) {
      throw new GameViolation('bad_message', `action: ${/** @type {Error} */ (e).message}`, s, ctx.seq);
    }
    if (!equal(encode(/** @type {any} */ (actionToDict(action))), encode(body.action))) throw new GameViolation('bad_message', 'the action is not canonical', s, ctx.seq);
    return action;
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onDeclare(s, body, ctx) {
    const live = /** @type {Live} */ (this.live);
    const action = this.#action(s, body, ctx);
    if (action.type !== 'claim_hand_yaku' && action.type !== 'no_hand_yaku') throw new GameViolation('bad_message', 'declare carries a hand-yaku action', s, ctx.seq);
    const deck = /** @type {DeckEntry} */ (this.decks.get(live.deal)).deck;
    const groups = ctx.own ? [] : /** @type {[number[], Uint8Array][]} */ (/** @type {unknown} */ (body.shares));
    /** @type {[number[], Uint8Array][]} */
    const made = [];
    if (action.type === 'claim_hand_yaku') {
      const positions = action.positions.slice();
      if (ctx.own) made.push([positions, /** @type {(p: number[], d: number) => Uint8Array} */ (ctx.makeShares)(positions, live.deal)]);
      else {
        if (groups.length !== 1) throw new GameViolation(groups.length ? 'unexpected_shares' : 'missing_shares', 'a claim carries one share group', s, ctx.seq);
        const [ps, data] = groups[0];
        if (ps.length !== positions.length || ps.some((p, i) => p !== positions[i])) throw new GameViolation('wrong_shares', 'the claim\'s positions', s, ctx.seq);
        if (!positions.every((p) => p >= 0 && p < 48)) throw new GameViolation('illegal_action', 'not_in_hand: a claimed position is not in the seat\'s hand', s, ctx.seq);
        try {
          deck.receiveShares(s, ps, data);
        } catch (e) {
          if (e instanceof MentalPokerError) throw new GameViolation('bad_share', e.message, s, ctx.seq);
          throw e;
        }
      }
      // §5.5: a claim is checked at once, its cards now public.
      this.#checkClaim(s, action, deck, live, ctx.seq);
    } else if (!ctx.own && groups.length) throw new GameViolation('unexpected_shares', 'no claim, no shares', s, ctx.seq);
    if (ctx.own) body.shares = /** @type {Value} */ (/** @type {unknown} */ (made));
    live.declared.push(s);
    live.held.set(s, { action, seq: ctx.seq });
    this.#pump(s, { shares: [] }, { ...ctx, own: true, makeShares: () => { throw new Error('no shares owed'); } });
  }

  /**
   * @param {number} s @param {any} claim @param {Deck} deck @param {Live} live @param {number} seq
   */
  #checkClaim(s, claim, deck, live, seq) {
    const profile = /** @type {import('./terms.js').Terms} */ (this.terms).profile;
    const fail = (/** @type {string} */ why) => { throw new GameViolation('illegal_action', why, s, seq); };
    if (!profile.handClaimPoints(claim.yaku)) fail(`bad_hand_yaku: ${claim.yaku} is not a hand yaku of this profile`);
    const layout = dealLayout(/** @type {any} */ (live.params).dealer);
    if (claim.positions.some((/** @type {number} */ p) => !layout.hands[s].includes(p))) fail('not_in_hand: a claimed position is not in the seat\'s hand');
    if (!(/** @type {any} */ (CLAIM_SIZES)[claim.yaku] ?? []).includes(claim.positions.length)) fail(`false_hand_yaku: ${claim.yaku} is shown with other card counts`);
    const cards = claim.positions.map((/** @type {number} */ p) => deck.cardAt(p));
    if (cards.some((/** @type {number | null} */ c) => c === null) || !claimHolds(claim.yaku, /** @type {number[]} */ (cards))) fail(`false_hand_yaku: the revealed cards do not make ${claim.yaku}`);
  }

  /**
   * The pump (§4.3) on the deal in play, after a message of `s`.
   * @param {0 | 1} s @param {Body} body @param {Context} ctx
   */
  #pump(s, body, ctx) {
    const groups = ctx.own ? [] : /** @type {[number[], Uint8Array][]} */ (/** @type {unknown} */ (body.shares ?? []));
    /** @type {[number[], Uint8Array][]} */
    const made = [];
    const state = { used: 0 };
    // A deal that ends inside the message hands the rest of its share groups to the next deal
    // when that deal starts at once (the first-dealer draw, then the opening of deal 1).
    while (this.live) {
      const live = this.live;
      this.#pumpDeal(s, body, ctx, live, groups, made, state);
      if (this.live || live.kind !== 'draw') break;
      this.#settle();
    }
    if (!ctx.own && state.used < groups.length) throw new GameViolation('unexpected_shares', `${groups.length - state.used} share groups beyond those owed`, s, ctx.seq);
    if (ctx.own && body.shares !== undefined) body.shares = /** @type {Value} */ (/** @type {unknown} */ (made));
  }

  /**
   * @param {0 | 1} s @param {Body} body @param {Context} ctx @param {Live} live
   * @param {[number[], Uint8Array][]} groups @param {[number[], Uint8Array][]} made @param {{used: number}} state
   */
  #pumpDeal(s, body, ctx, live, groups, made, state) {
    const deck = /** @type {DeckEntry} */ (this.decks.get(live.deal)).deck;
    const engine = live.engine;
    const violation = (/** @type {string} */ reason, /** @type {string} */ detail) => new GameViolation(reason, detail, s, ctx.seq);
    const pay = (/** @type {number[]} */ owed) => {
      if (ctx.own) {
        made.push([owed, /** @type {(p: number[], d: number) => Uint8Array} */ (ctx.makeShares)(owed, live.deal)]);
        return;
      }
      if (state.used >= groups.length) throw violation('missing_shares', `shares of ${owed.join(',')} are owed`);
      const [positions, data] = groups[state.used++];
      if (positions.length !== owed.length || positions.some((p, i) => p !== owed[i])) throw violation('wrong_shares', `shares of ${positions.join(',')}, owed ${owed.join(',')}`);
      try {
        deck.receiveShares(s, positions, data);
      } catch (e) {
        if (e instanceof MentalPokerError) throw violation('bad_share', e.message);
        throw e;
      }
    };
    const carries = body.shares !== undefined;
    for (;;) {
      const need = engine.need;
      if (need === null) {
        this.#dealEnded(s, ctx);
        break;
      }
      if (need.type === 'action') {
        if (need.kind === 'hand_yaku') {
          const held = live.held.get(need.seat);
          if (!held) break;
          live.held.delete(need.seat);
          try {
            /** @type {RoundState} */ (engine).apply(need.seat, held.action);
          } catch (e) {
            if (e instanceof IllegalMove || e instanceof RulesError) throw new GameViolation('illegal_action', e.message, need.seat, held.seq);
            throw e;
          }
          live.actions.push({ seat: need.seat, seq: held.seq, action: held.action });
          this.events.push({ type: 'action', seat: need.seat, action: held.action, deal: live.deal });
          continue;
        }
        break;
      }
      // §5.4: the opening of a round (both seats' shares of the field and of the other's hand).
      if (live.kind === 'round' && /** @type {RoundState} */ (engine).phase === 'field_reveal' && live.opened.size < 2) {
        if (!live.opened.has(s) && carries) {
          const layout = dealLayout(/** @type {any} */ (live.params).dealer);
          pay(layout.field.slice());
          pay(layout.hands[1 - s].slice());
          live.opened.add(s);
          live.lastOpener = s;
        }
        if (live.opened.size < 2) {
          live.pumpNext = { seat: live.opened.has(s) ? 1 - s : s };
          break;
        }
      }
      const owers = need.to === null ? [0, 1] : [1 - need.to];
      const owed = (/** @type {number} */ x) => (owers.includes(x) ? need.positions.filter((p) => !deck.hasShare(x, p)) : []);
      const mine = owed(s);
      if (mine.length && carries) pay(mine);
      const owing = [0, 1].filter((x) => owed(x).length > 0);
      if (owing.length) {
        live.pumpNext = { seat: owing.length === 2 ? s : owing[0] };
        break;
      }
      this.#feed(need, s, ctx.seq, live, deck);
    }
  }

  /**
   * @param {{type: 'reveal', positions: readonly number[], to: 0 | 1 | null}} need @param {number} s @param {number} seq
   * @param {Live} live @param {Deck} deck
   */
  #feed(need, s, seq, live, deck) {
    const engine = live.engine;
    const hidden = need.to !== null && live.viewer !== null && live.viewer !== need.to;
    if (hidden || (need.to !== null && live.viewer === null && !(deck.secrets[0] && deck.secrets[1]))) {
      if (!hidden) this.hiddenDeals.add(live.deal);
      /** @type {RoundState} */ (engine).skipReveal();
      return;
    }
    /** @type {number[]} */
    const cards = [];
    for (const p of need.positions.slice()) {
      let card;
      try {
        card = deck.cardAt(p);
      } catch (e) {
        if (e instanceof MentalPokerError) throw new GameViolation('inconsistent_reveal', e.message, s, seq);
        throw e;
      }
      if (card === null) throw new GameViolation('inconsistent_reveal', `position ${p} does not open`, s, seq);
      try {
        engine.reveal(p, card);
      } catch (e) {
        if (e instanceof RulesError) throw new GameViolation('inconsistent_reveal', e.message, s, seq);
        throw e;
      }
      live.fed.set(p, card);
      cards.push(card);
    }
    this.events.push({ type: 'reveal', deal: live.deal, positions: need.positions.slice(), cards, to: need.to });
  }

  /** @param {0 | 1} s the ender @param {Context} ctx */
  #dealEnded(s, ctx) {
    const live = /** @type {Live} */ (this.live);
    this.live = null;
    if (live.kind === 'draw') {
      const dealer = /** @type {0 | 1} */ (/** @type {FirstDealerEngine} */ (live.engine).dealer);
      this.match = new MatchState(/** @type {import('./terms.js').Terms} */ (this.terms).profile, dealer);
      this.events.push({ type: 'first_dealer', dealer });
      return;
    }
    const engine = /** @type {RoundState} */ (live.engine);
    const match = /** @type {MatchState} */ (this.match);
    match.record(/** @type {any} */ (engine.result));
    const result = /** @type {Body} */ (/** @type {unknown} */ (resultToDict(/** @type {any} */ (engine.result))));
    this.closing = { deal: live.deal, ender: s, disclosed: [], discloseSeq: new Map(), endSeq: ctx.seq, live, result };
    this.events.push({ type: 'round_over', deal: live.deal, roundIndex: /** @type {any} */ (live.params).roundIndex, result: engine.result, scores: match.scores });
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onDisclose(s, body, ctx) {
    const c = /** @type {Closing} */ (this.closing);
    const deck = /** @type {DeckEntry} */ (this.decks.get(c.deal)).deck;
    if (!ctx.own) deck.receiveSecret(s, /** @type {Uint8Array} */ (body.key));
    const entry = this.disclosed.get(c.deal) ?? [null, null];
    entry[s] = /** @type {Uint8Array} */ (body.key).slice();
    this.disclosed.set(c.deal, entry);
    c.disclosed.push(s);
    c.discloseSeq.set(s, ctx.seq);
    const second = c.disclosed.length === 2;
    if (second) {
      // The deal is closed before the pump runs: the opening shares this disclosure carries can
      // end the next deal at once (a dealt field of one month or of four pairs), and that deal's
      // closing must not be mistaken for this one (spec/game.md §4.4: the countersignature of
      // this deal is owed before the next deal's disclosure).
      this.#recheck(c, ctx.seq);
      this.closing = null;
      this.closed.push({ deal: c.deal, roundIndex: /** @type {any} */ (c.live.params).roundIndex, result: c.result, endSeq: c.endSeq, signed: new Set() });
      this.lastDiscloser = s;
    }
    // The next deal's opening shares ride on the disclosure when that deal has started.
    this.#pump(s, body, ctx);
    if (second) this.#settle();
  }

  /**
   * The re-check of a closed deal with both secrets (§5.7); what only the secrets show is blamed
   * on the second disclosure. Every proof was verified once, on arrival (spec/crypto.md §8.5), by a
   * party and by an observer alike: the deck's audit adds only what needs the secrets.
   * @param {Closing} c @param {number} seq
   */
  #recheck(c, seq) {
    const deck = /** @type {DeckEntry} */ (this.decks.get(c.deal)).deck;
    const second = /** @type {number} */ (c.disclosed[1]);
    const blameSeq = this.viewer === null ? seq : (c.discloseSeq.get(1 - /** @type {number} */ (this.viewer)) ?? seq);
    const blameSeat = this.viewer === null ? second : 1 - /** @type {number} */ (this.viewer);
    let order;
    try {
      order = deck.audit();
    } catch (e) {
      if (e instanceof MentalPokerError) throw new GameViolation('bad_deck', e.message, blameSeat, blameSeq);
      throw e;
    }
    for (const [p, card] of c.live.fed) {
      if (order[p] !== card) throw new GameViolation('inconsistent_reveal', `position ${p} showed ${card}, the deck holds ${order[p]}`, blameSeat, blameSeq);
    }
    const p = /** @type {{roundIndex: number, dealer: 0 | 1, month: number}} */ (c.live.params);
    const profile = /** @type {import('./terms.js').Terms} */ (this.terms).profile;
    const replay = new RoundState({ profile, dealer: p.dealer, viewer: null, roundIndex: p.roundIndex, month: p.month });
    const byKind = (/** @type {any} */ a) => (a.type === 'claim_hand_yaku' || a.type === 'no_hand_yaku');
    const actions = c.live.actions.slice();
    let next = 0;
    for (;;) {
      const need = replay.need;
      if (need === null) break;
      if (need.type === 'reveal') {
        for (const pos of need.positions.slice()) replay.reveal(pos, order[pos]);
        continue;
      }
      const i = actions.findIndex((a, k) => k >= next && a.seat === need.seat && (need.kind === 'hand_yaku') === byKind(a.action));
      const step = i >= 0 && (need.kind === 'hand_yaku' || i === next) ? actions[i] : undefined;
      if (!step) throw new GameViolation('inconsistent_round', 'the replay asks for another action', null, seq);
      if (i === next) next += 1;
      else actions.splice(i, 1), actions.splice(next, 0, step), next += 1;
      try {
        replay.apply(step.seat, step.action);
      } catch (e) {
        if (e instanceof IllegalMove || e instanceof RulesError) throw new GameViolation('illegal_action', e.message, step.seat, step.seq);
        throw e;
      }
    }
    if (!replay.result || !equal(encode(/** @type {any} */ (resultToDict(replay.result))), encode(c.result))) {
      throw new GameViolation('inconsistent_round', 'the replay with every card gives another result', null, seq);
    }
  }

  /** The round statement of a closed deal (§6.1). @param {Closed} c */
  roundStatementOf(c) {
    const head = this.digests[c.endSeq];
    return roundStatement({ session: this.sessionId, deal: c.deal, round: c.roundIndex, head, result: c.result });
  }

  /** @param {number} deal */
  closedDeal(deal) {
    return /** @type {Closed} */ (this.closed.find((c) => c.deal === deal));
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onRoundSign(s, body, ctx) {
    const c = this.closedDeal(/** @type {number} */ (body.deal));
    if (!equal(encode(c.result), encode(body.result))) throw new GameViolation('wrong_result', 'the round result differs from ours', s, ctx.seq);
    if (!ctx.own && !ed25519Verify(this.identityKeys[s], this.roundStatementOf(c), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the round signature does not verify', s, ctx.seq);
    }
    c.signed.add(s);
  }

  /**
   * The match result map under a head (§6.2), for a normal end or a resignation by `resigned`.
   * @param {Uint8Array} head @param {number | null} resigned
   */
  ownMatchResult(head, resigned = null) {
    const match = /** @type {MatchState} */ (this.match);
    const terms = /** @type {import('./terms.js').Terms} */ (this.terms);
    return matchResult({
      session: this.sessionId, room: this.room, keys: this.identityKeys, names: terms.names, rated: terms.rated,
      terms: /** @type {Uint8Array} */ (this.termsDigest), profile: terms.profile.name, profileDigest: terms.profile.digest(),
      rounds: match ? match.roundSummary() : [], scores: match ? match.scores : [0, 0],
      winner: resigned !== null ? 1 - resigned : (match ? match.winner : null), resigned, head,
    });
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx @param {'match_result' | 'resign'} kind */
  #onMatchResult(s, body, ctx, kind) {
    const own = this.ownMatchResult(ctx.head, kind === 'resign' ? s : null);
    if (!equal(encode(own), encode(body.result))) throw new GameViolation('wrong_result', 'the match result differs from ours', s, ctx.seq);
    if (!ctx.own && !ed25519Verify(this.identityKeys[s], matchStatement(own), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the match result signature does not verify', s, ctx.seq);
    }
    this.matchResult = own;
    this.matchSignatures[s] = /** @type {Uint8Array} */ (body.sig);
    this.ending = { sender: s, kind, result: own };
    if (kind === 'resign') {
      this.live = null;
      this.events.push({ type: 'resigned', seat: s, seq: ctx.seq });
    }
  }

  /** @param {0 | 1} s @param {Body} body @param {Context} ctx */
  #onMatchSign(s, body, ctx) {
    const result = /** @type {Body} */ (this.matchResult);
    if (!ctx.own && !ed25519Verify(this.identityKeys[s], matchStatement(result), /** @type {Uint8Array} */ (body.sig))) {
      throw new GameViolation('bad_result_signature', 'the match countersignature does not verify', s, ctx.seq);
    }
    this.matchSignatures[s] = /** @type {Uint8Array} */ (body.sig);
    this.finished = true;
    const match = this.match;
    this.events.push({ type: 'match_over', scores: result.scores, winner: result.winner, result, resigned: result.resigned });
    void match;
  }

  /** The legal actions of the seat asked to act. */
  legalActions() {
    const live = this.live;
    if (!live || !(live.engine instanceof RoundState) || !live.engine.need || live.engine.need.type !== 'action') return [];
    return live.engine.legalActions();
  }

  /** @param {number} seat @param {import('../rules/actions.js').Action} action */
  isLegal(seat, action) {
    const e = this.expected();
    return !!e && e.type === 'act' && e.seat === seat && this.legalActions().some((a) => sameAction(a, action));
  }

  /**
   * The rules engine of a deal still in play or closing (for screens and reports), else null.
   * @param {number | undefined} d
   */
  engineOf(d) {
    if (this.live && this.live.deal === d) return this.live.engine;
    if (this.closing && this.closing.deal === d) return this.closing.live.engine;
    return null;
  }

  /** The deck of a deal. @param {number} d */
  deckOf(d) {
    return this.#deckEntry(d).deck;
  }
}

export { u16be, concat };

// The match report's model: the verdict of the JavaScript auditor (the same as `koikoi verify`),
// then every deal turn by turn from a second look at the same file. The steps come from the
// core's game flow run as an observer with the round keys the file discloses (spec/game.md §8.2),
// so once a deal's keys are disclosed every card of it is known. The verdict is always the
// auditor's; the steps only show what happened up to where verification stopped.
import { FileError, auditBytes, describe, verifyHandshakeRecord } from '../../src/api/audit.js';
import { decodePrefix, isMap } from '../../src/protocol/codec.js';
import { decodeEnvelope, envelopeDigest } from '../../src/protocol/envelope.js';
import { ABANDON_MAGIC, TRANSCRIPT_MAGIC, hasMagic } from '../../src/api/audit.js';
import { GameFlow } from '../../src/protocol/flow.js';
import { scorePile } from '../../src/api/rules.js';
import { reasonMessage } from './i18n.js';

/**
 * @typedef {{field: number[], hands: [number[], number[]], piles: [number[], number[]], stock: number,
 *   yaku: [Record<string, number>, Record<string, number>], calls: number[], month: number, dealer: number, roundIndex: number}} Snapshot
 * @typedef {{seq: number, kind: string, seat: number | null, card?: number, cards?: number[], yaku?: string,
 *   result?: any, scores?: number[], snap: Snapshot}} Step
 * @typedef {{deal: number, roundIndex: number, dealer: number, month: number, steps: Step[], result: any}} DealReport
 * @typedef {{ok: boolean, lines: string[], status: number, failure: {reason: string, message: string, index: number | null} | null,
 *   report: any, names: [string, string], keys: string[], deals: DealReport[], profile: string | null, messages: number}} MatchReport
 */

/** @param {Uint8Array} data */
function fileValues(data) {
  const out = [];
  let offset = 8;
  while (offset < data.length) {
    const r = decodePrefix(data, offset);
    out.push(r.value);
    offset = r.end;
  }
  return out;
}

/** What the replay view draws at one step: the board, and each seat's yaku. @param {any} engine */
export function snapshot(engine) {
  const v0 = engine.view(0);
  const v1 = engine.view(1);
  return {
    field: v0.field, hands: /** @type {[number[], number[]]} */ ([v0.hand, v1.hand]), piles: v0.piles, stock: v0.stockCount,
    // spec/rules.md §6.4 viewing_by_call: a pile is scored with its own holder's call.
    yaku: /** @type {[Record<string, number>, Record<string, number>]} */ ([0, 1].map((s) => scorePile(v0.piles[s], engine.profile, v0.month, v0.calls.includes(s)).yaku)),
    calls: v0.calls, month: v0.month, dealer: v0.dealer, roundIndex: v0.roundIndex,
  };
}

/**
 * The report of a transcript, evidence or abandonment file.
 * @param {Uint8Array} data
 * @returns {MatchReport}
 */
export function buildReport(data) {
  /** @type {MatchReport} */
  const out = { ok: false, lines: [], status: 1, failure: null, report: null, names: ['', ''], keys: [], deals: [], profile: null, messages: 0 };
  try {
    const report = auditBytes(data);
    const { lines, status } = describe(report);
    Object.assign(out, { ok: status === 0 && report.kind === 'transcript', lines, status, report, profile: report.profile, messages: report.messages });
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    out.failure = { reason: e.reason, message: e.detail, index: e.index };
    // The reason in words, as koikoi verify says it (the catalogue's context 'reason').
    out.lines = [`INVALID file${e.index !== null ? ` at message ${e.index}` : ''}: ${reasonMessage(e.reason) ?? e.reason}: ${e.detail}`];
  }
  if (hasMagic(data, TRANSCRIPT_MAGIC)) {
    try {
      steps(data, out);
    } catch {
      /* the auditor's verdict already says why; the steps stop where reading stopped */
    }
  } else if (hasMagic(data, ABANDON_MAGIC)) {
    out.names = abandonmentNames(data) ?? out.names;
  }
  return out;
}

/**
 * Both display names the transcript inside an abandonment file carries (its handshake record),
 * as `koikoi verify` names the players of one (cmd_verify.file_names); null when it holds none.
 * @param {Uint8Array} data @returns {[string, string] | null}
 */
function abandonmentNames(data) {
  try {
    const file = /** @type {any} */ (decodePrefix(data, 8).value);
    const transcript = isMap(file) ? file.transcript : null;
    if (!(transcript instanceof Uint8Array) || !hasMagic(transcript, TRANSCRIPT_MAGIC)) return null;
    const header = /** @type {any} */ (decodePrefix(transcript, 8).value);
    return verifyHandshakeRecord(header.handshake).names;
  } catch {
    return null;
  }
}

/** @param {Uint8Array} data @param {MatchReport} out */
function steps(data, out) {
  const vals = fileValues(data);
  const header = /** @type {any} */ (vals[0]);
  const session = verifyHandshakeRecord(header.handshake);
  out.names = session.names;
  out.keys = session.identityKeys.map((k) => [...k].map((b) => b.toString(16).padStart(2, '0')).join(''));
  const entries = [];
  for (let i = 1; i < vals.length; i++) {
    const v = vals[i];
    if (isMap(v)) break; // the closing marker
    if (!Array.isArray(v) || v.length !== 2) break;
    try {
      const raw = /** @type {Uint8Array} */ (v[1]);
      entries.push({ ...decodeEnvelope(raw), digest: envelopeDigest(session.version, raw) });
    } catch {
      break;
    }
  }
  const stop = out.report?.deviation?.seq ?? out.failure?.index ?? null;
  const usable = stop === null ? entries : entries.slice(0, stop);
  const first = flowOver(session, usable, new Map(), true);
  const { flow: _f, deals } = flowOver(session, usable, new Map(first.flow.disclosed), false);
  void _f;
  out.deals = deals;
}

/**
 * @param {any} session @param {any[]} entries @param {Map<number, any>} secrets @param {boolean} skipHidden
 */
function flowOver(session, entries, secrets, skipHidden) {
  const flow = new GameFlow({ viewer: null, sessionId: session.sessionId, room: session.room, identityKeys: session.identityKeys, names: session.names, secrets });
  /** @type {DealReport[]} */
  const deals = [];
  /** @type {DealReport | null} */
  let deal = null;
  let head = session.handshakeHash;
  for (const e of entries) {
    try {
      flow.apply(e.sender, e.type, e.body, { seq: e.seq, head, digest: e.digest });
    } catch {
      break;
    }
    head = e.digest;
    if (skipHidden) { flow.events.length = 0; continue; }
    for (const ev of /** @type {any[]} */ (flow.events.splice(0))) {
      const engine = /** @type {any} */ (flow.engineOf(ev.deal));
      const isRound = engine && typeof engine.view === 'function';
      if (ev.type === 'deal' && isRound) {
        deal = { deal: ev.deal, roundIndex: ev.roundIndex, dealer: ev.dealer, month: ev.month, steps: [], result: null };
        deals.push(deal);
      } else if (deal && isRound && ev.type === 'reveal') {
        const phase = engine.phase;
        if (ev.to === 1 && phase !== 'hand1_reveal') deal.steps.push({ seq: e.seq, kind: 'dealt', seat: null, snap: snapshot(engine) });
        else if (ev.to === null && ev.positions.length === 1 && ev.positions[0] >= 24 && (phase === 'draw_capture' || phase === 'play' || phase === 'decide' || phase === 'over')) {
          const card = ev.cards[0];
          // The drawer is who played just before (the half-turn is theirs); the engine's turn may
          // already have passed to the other seat with the same message (QA: every draw was
          // captioned with the wrong player).
          const played = [...deal.steps].reverse().find((st) => st.kind === 'play');
          if (!deal.steps.length || deal.steps[deal.steps.length - 1].card !== card) deal.steps.push({ seq: e.seq, kind: 'draw', seat: played ? played.seat : engine.turn, card, snap: snapshot(engine) });
        }
      } else if (deal && isRound && ev.type === 'action') {
        const a = ev.action;
        /** @type {Step} */
        const step = { seq: e.seq, kind: a.type, seat: ev.seat, snap: snapshot(engine) };
        if (a.type === 'play') step.card = engine.deck[a.position];
        if (a.type === 'capture') step.card = a.card;
        // spec/rules.md §5.4: with hand_whole_month = redeal the teshi claim shows a month of four for a new deal.
        if (a.type === 'claim_hand_yaku') step.yaku = a.yaku === 'teshi' && engine.profile.hand_whole_month === 'redeal' ? 'hand_month' : a.yaku;
        deal.steps.push(step);
      } else if (deal && ev.type === 'round_over') {
        deal.result = ev.result;
        deal.steps.push({ seq: e.seq, kind: 'result', seat: ev.result.winner, result: ev.result, scores: ev.scores, snap: isRound ? snapshot(engine) : deal.steps[deal.steps.length - 1]?.snap });
      }
    }
  }
  return { flow, deals };
}

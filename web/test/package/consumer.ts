// A TypeScript project that depends on the packed package, type-checked under `strict` by the
// consumer test: the public entry points and their types, as an embedder writes against them.
import { Match, MemoryStore, IndexedDbStore, hostRoom, joinRoom, rejoinRoom, newIdentity, ready, preset, memoryPair,
  PROTOCOL_VERSION, LocalError } from 'koikoi-p2p';
import type { MatchEvent, MatchStore, Action, Transport, Room, MatchOverEvent } from 'koikoi-p2p';
import { FileStore } from 'koikoi-p2p/node';
import { auditBytes, describe, verifyResult } from 'koikoi-p2p/audit';
import { RoundState, scorePile, PRESETS } from 'koikoi-p2p/rules';
import { Deck } from 'koikoi-p2p/deck';

export async function play(url: string, code: string | null): Promise<MatchOverEvent | null> {
  await ready();
  const room: Room = code === null ? await hostRoom(url) : await joinRoom(url, code);
  const transport: Transport = await room.connect();
  const store: MatchStore = new MemoryStore();
  const match = new Match(transport, { seat: room.seat, identity: newIdentity(), room: room.code, profile: preset('nintendo'), rounds: 1, store });
  const computer = match.computer('greedy', 'seed');
  for await (const event of match.events()) {
    const e: MatchEvent = event;
    if (e.type === 'your_turn' || e.type === 'choice') {
      const first: Action | undefined = e.options[0];
      await match.decide(first ?? computer.choose());
    } else if (e.type === 'terms_proposed') {
      await match.decideTerms(e.terms.rounds === 1);
    } else if (e.type === 'match_over') {
      const report = auditBytes(e.transcript);
      const winner: number | null = e.winner;
      console.log(describe(report), winner, verifyResult(e.result));
      return e;
    } else if (e.type === 'failure') {
      const evidence: Uint8Array | null = e.evidence;
      console.log(e.reason, e.who, evidence?.length);
    }
  }
  return null;
}

export function shapes(): number {
  const [a] = memoryPair();
  const stores: MatchStore[] = [new FileStore('matches'), new IndexedDbStore('db'), new MemoryStore()];
  void a; void rejoinRoom; void Deck; void RoundState; void LocalError;
  const points: number = scorePile([0, 1, 2], preset('nintendo'), 1).base;
  return stores.length + points + PROTOCOL_VERSION + Object.keys(PRESETS).length;
}

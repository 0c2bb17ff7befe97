// koikoi-p2p/audit: the auditor. It replays a transcript, evidence or abandonment file with the
// same rules as `koikoi verify` (spec/protocol.md §8, §9, §12.4; spec/game.md §8), and checks a
// co-signed result file. Await `ready()` (from "koikoi-p2p") once before calling it.
export { auditBytes, auditTranscript, auditEvidence, auditAbandonment, describe, verifyHandshakeRecord, FileError, FORMAT } from '../audit/replay.js';
export { verifyResult, ResultError, RESULT_FORMAT } from '../protocol/results.js';
export { TRANSCRIPT_MAGIC, EVIDENCE_MAGIC, ABANDON_MAGIC, hasMagic } from '../protocol/transcript.js';
export { ready } from '../sodium.js';

/** @typedef {import('../audit/replay.js').Report} Report */
/** @typedef {import('../audit/replay.js').Deviation} Deviation */

"""Auditing a file's bytes: a transcript, an evidence file or an abandonment file, told apart by
their magic (spec/protocol.md §8, §9, §12.4)."""

from __future__ import annotations

from koikoi_p2p.audit.abandonment import audit_abandonment_bytes
from koikoi_p2p.audit.core import AuditReport
from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.replay import audit_evidence, audit_transcript
from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC
from koikoi_p2p.protocol.transcript import (
    EVIDENCE_MAGIC,
    TRANSCRIPT_MAGIC,
    TranscriptError,
    decode_evidence,
    decode_transcript,
)


def audit_bytes(data: bytes) -> AuditReport:
    """Decode and replay a file; ``AuditError`` (with the failing envelope's index) when the file
    itself does not verify."""
    try:
        if data.startswith(EVIDENCE_MAGIC):
            return audit_evidence(decode_evidence(data))
        if data.startswith(TRANSCRIPT_MAGIC):
            return audit_transcript(decode_transcript(data))
        if data.startswith(ABANDON_MAGIC):
            return audit_abandonment_bytes(data)
    except TranscriptError as exc:
        raise AuditError(exc.reason, exc.message, exc.index) from None
    raise AuditError("bad_magic", "neither a transcript, an evidence file nor an abandonment file")


__all__ = ["audit_bytes"]

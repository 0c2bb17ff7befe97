"""Replays transcripts, evidence and abandonment files through the same protocol and rules code,
compares two files of one session, and checks co-signed match results on their own (spec/game.md
§8 and §6.3, spec/protocol.md §9)."""

from __future__ import annotations

from koikoi_p2p.audit.core import AuditReport, Deviation
from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.files import audit_bytes
from koikoi_p2p.audit.replay import audit_evidence, audit_transcript
from koikoi_p2p.audit.results import verify_result

__all__ = ["AuditError", "AuditReport", "Deviation", "audit_bytes", "audit_evidence", "audit_transcript",
           "verify_result"]

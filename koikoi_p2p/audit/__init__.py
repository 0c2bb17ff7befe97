"""Replays transcripts and evidence files through the same protocol and rules code, and checks
co-signed match results on their own (spec/game.md §8 and §6.3)."""

from __future__ import annotations

from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.replay import AuditReport, Deviation, audit_bytes, audit_evidence, audit_transcript
from koikoi_p2p.audit.results import verify_result

__all__ = ["AuditError", "AuditReport", "Deviation", "audit_bytes", "audit_evidence", "audit_transcript",
           "verify_result"]

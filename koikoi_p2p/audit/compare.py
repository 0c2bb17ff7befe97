"""Two files of one session, two accounts: which one stands (spec/protocol.md §9.2).

Each seat writes its own file when a match ends: a transcript, an evidence file after a
violation, an abandonment file after a missed deadline. Two such files can tell different
stories (the issue's case: the joiner claims the host went silent at message 16 while the host,
who moved late, claims the joiner went silent at message 17). Each file is audited on its own
first; then the two chains of signed envelopes are laid side by side. Everything in them is
signed, so an account can be refuted only by a signature: the claimant's own envelope after the
message it says never came, two different envelopes one seat signed for one number, or the
accused's signed message in the other file. What no file can show is time: whether a message was
late or lost on the way (there is no trusted clock), so where the files leave that open the
earlier account stands and the note says what is left open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from koikoi_p2p.audit.abandonment import audit_abandonment
from koikoi_p2p.audit.core import AuditReport, Deviation
from koikoi_p2p.audit.errors import AuditError
from koikoi_p2p.audit.replay import audit_evidence, audit_transcript
from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.protocol.abandonment import ABANDON_MAGIC, AbandonmentClaim, decode_abandonment
from koikoi_p2p.protocol.envelope import SignedEnvelope
from koikoi_p2p.protocol.errors import ProtocolError
from koikoi_p2p.protocol.transcript import (
    EVIDENCE_MAGIC,
    TRANSCRIPT_MAGIC,
    decode_evidence,
    decode_transcript,
)

AGREE = "agree"          # the two accounts are consistent; together they show ``finding``
STANDS = "stands"        # one account stands (``stands``), the other is refuted or superseded
CONFLICT = "conflict"    # they cannot both be true and the files cannot tell which is


@dataclass(frozen=True, slots=True)
class Account:
    """One file's account: its report (or why the file does not verify) and its signed chain."""

    name: str
    kind: str                                  # transcript, evidence, abandonment, invalid
    report: AuditReport | None
    error: AuditError | None
    session_id: bytes = b""
    envelopes: tuple[SignedEnvelope, ...] = ()
    claim: AbandonmentClaim | None = None

    @property
    def proven(self) -> Deviation | None:
        """A deviation this file proves on its own (a replay fault of a named seat, a proven
        evidence file), or None. An abandonment is not one: it is a claim."""
        report = self.report
        if report is None or report.deviation is None or report.deviation.seat is None:
            return None
        if self.kind == "transcript" or (self.kind == "evidence" and report.ok):
            return report.deviation
        if self.kind == "abandonment" and report.deviation.reason not in ("abandoned", "false_claim"):
            return report.deviation    # the replay before the claim found a deviation
        return None

    @property
    def holds(self) -> bool:
        return self.kind == "abandonment" and self.report is not None and self.report.ok

    @property
    def finished(self) -> bool:
        return self.report is not None and self.report.complete


@dataclass(frozen=True, slots=True)
class Comparison:
    """The verdict of two files of one session."""

    status: str                                # AGREE, STANDS or CONFLICT
    accounts: tuple[Account, Account]
    stands: int | None = None                  # index of the account that stands (STANDS)
    finding: Deviation | None = None           # what the files establish (None: a finished match
    notes: tuple[str, ...] = field(default=())  # or nothing to blame)

    @property
    def ok(self) -> bool:
        return self.status != CONFLICT

    def lines(self) -> list[str]:
        """The verdict in words, first line first (each a ``Phrase``)."""
        out: list[str] = []
        if self.status == STANDS and self.stands is not None:
            out.append(Phrase("the account of {stands} stands; {refuted} is refuted",
                              stands=self.accounts[self.stands].name,
                              refuted=self.accounts[1 - self.stands].name))
        elif self.status == AGREE:
            out.append(Phrase("the two files agree"))
        else:
            out.append(Phrase("the two files CONFLICT: they cannot both be true and cannot show which is"))
        if self.finding is not None:
            out.append(self.finding.describe())
        out.extend(self.notes)
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status, "ok": self.ok,
            "stands": None if self.stands is None else self.accounts[self.stands].name,
            "finding": None if self.finding is None else self.finding.to_json(),
            "notes": list(self.notes),
            "files": [{"file": a.name, "kind": a.kind,
                       "report": a.report.to_json() if a.report is not None else None,
                       "error": None if a.error is None else {"reason": a.error.reason,
                                                              "message": a.error.message,
                                                              "index": a.error.index}}
                      for a in self.accounts],
        }


def read_account(data: bytes, name: str) -> Account:
    """Decode and audit one file into an account (an invalid file is an account of kind invalid)."""
    try:
        if data.startswith(TRANSCRIPT_MAGIC):
            transcript = decode_transcript(data)
            return Account(name, "transcript", audit_transcript(transcript), None,
                           transcript.session.session_id, transcript.envelopes)
        if data.startswith(EVIDENCE_MAGIC):
            evidence = decode_evidence(data)
            return Account(name, "evidence", audit_evidence(evidence), None, evidence.session.session_id,
                           evidence.envelopes)
        if data.startswith(ABANDON_MAGIC):
            abandonment = decode_abandonment(data)
            return Account(name, "abandonment", audit_abandonment(abandonment), None,
                           abandonment.transcript.session.session_id, abandonment.transcript.envelopes,
                           abandonment.claim)
        error = AuditError("bad_magic", "neither a transcript, an evidence file nor an abandonment file")
    except ProtocolError as exc:
        error = AuditError(exc.reason, exc.message, getattr(exc, "index", None))
    return Account(name, "invalid", None, error)


def compare_bytes(first: bytes, second: bytes, names: tuple[str, str] = ("file 1", "file 2")) -> Comparison:
    """Judge two files of one session (spec/protocol.md §9.2). ``AuditError`` when neither file
    verifies or when they belong to different sessions."""
    return compare(read_account(first, names[0]), read_account(second, names[1]))


def compare(a: Account, b: Account) -> Comparison:
    accounts = (a, b)
    invalid = [acc for acc in accounts if acc.kind == "invalid"]
    if len(invalid) == 2:
        raise AuditError("bad_file", f"neither file verifies: {a.error} / {b.error}")
    if invalid:
        good = 0 if b is invalid[0] else 1
        bad = invalid[0]
        assert bad.error is not None
        report = accounts[good].report
        return Comparison(STANDS, accounts, stands=good,
                          finding=report.deviation if report is not None else None,
                          notes=(Phrase("{file} does not verify ({reason}: {message}): it is no account",
                                        file=bad.name, reason=Word(bad.error.reason),
                                        message=bad.error.message), ))
    if a.session_id != b.session_id:
        raise AuditError("different_sessions", "the two files belong to different sessions")
    forked = _fork(a.envelopes, b.envelopes)
    if forked is not None:
        return Comparison(AGREE, accounts, finding=forked,
                          notes=(Phrase("the two files hold two different envelopes, both signed by that "
                                        "player, for message {seq}: together they prove it",
                                        seq=forked.seq),))
    proven = _earliest_deviation(accounts)
    if proven is not None:
        return proven
    resigned = _resignation(accounts)
    if resigned is not None:
        return resigned
    finished = [i for i, acc in enumerate(accounts) if acc.finished]
    if finished:
        return _with_finished(accounts, finished)
    holding = [i for i, acc in enumerate(accounts) if acc.holds]
    failed = [i for i, acc in enumerate(accounts) if acc.kind == "abandonment" and not acc.holds]
    if failed and not holding:
        other = 1 - failed[0] if len(failed) == 1 else None
        if other is None:
            return Comparison(AGREE, accounts, notes=(Phrase("neither claim holds on its own"),))
        report = accounts[failed[0]].report
        assert report is not None
        return Comparison(STANDS, accounts, stands=other, finding=report.deviation,
                          notes=(Phrase("the claim in {file} does not hold on its own",
                                        file=accounts[failed[0]].name),))
    if len(holding) == 2:
        return _two_claims(accounts)
    if len(holding) == 1:
        return _claim_against(accounts, holding[0])
    longer = max(accounts, key=lambda acc: len(acc.envelopes))
    waiting = longer.report.waiting if longer.report is not None else None
    note = Phrase("the longer account stops at message {seq}", seq=len(longer.envelopes))
    if waiting is not None:
        note = Phrase("the longer account stops at message {seq}, waiting for player {seat} ({expected})",
                      seq=len(longer.envelopes), seat=waiting[0], expected=Word(waiting[1]))
    return Comparison(AGREE, accounts, notes=(Phrase("neither file proves a deviation or an abandonment"),
                                              note))


def _fork(first: Sequence[SignedEnvelope], second: Sequence[SignedEnvelope]) -> Deviation | None:
    """Two different envelopes for one number signed by one seat, one in each file."""
    for x, y in zip(first, second, strict=False):
        if x.raw != y.raw:
            if x.sender == y.sender:
                return Deviation(seat=x.sender, seq=x.seq, reason="equivocation",
                                 message=Phrase("a different signed envelope for this number in each file"))
            return None
    return None


def _earliest_deviation(accounts: tuple[Account, Account]) -> Comparison | None:
    found = [(acc.proven, i) for i, acc in enumerate(accounts) if acc.proven is not None]
    if not found:
        return None
    found.sort(key=lambda item: (item[0].seq if item[0] is not None and item[0].seq is not None else 1 << 62))
    deviation, index = found[0]
    assert deviation is not None
    if len(found) == 2 and found[1][0] == deviation:
        return Comparison(AGREE, accounts, finding=deviation)
    other = accounts[1 - index]
    notes: list[str] = [Phrase("{file} proves it", file=accounts[index].name)]
    if len(found) == 2:
        notes.append(Phrase("the deviation {file} shows comes later, after this one", file=other.name))
    elif other.kind == "abandonment":
        notes.append(Phrase("the claim in {file} comes after the deviation or rests on it", file=other.name))
    return Comparison(STANDS, accounts, stands=index, finding=deviation, notes=tuple(notes))


def _resignation(accounts: tuple[Account, Account]) -> Comparison | None:
    """A resignation is the resigner's own signed match result naming the other the winner
    (spec/game.md): the earliest one in either file ends the match, whatever follows."""
    found = sorted((acc.report.resigned[1], i, acc.report.resigned[0]) for i, acc in enumerate(accounts)
                   if acc.report is not None and acc.report.resigned is not None)
    if not found:
        return None
    seq, index, seat = found[0]
    finding = Deviation(seat=seat, seq=seq, reason="resigned",
                        message=Phrase("its signed match result names the other player the winner"))
    if len(found) == 2 and found[1][0] == seq:
        return Comparison(AGREE, accounts, finding=finding)
    notes: list[str] = [Phrase("{file} holds player {seat}'s resignation", file=accounts[index].name,
                               seat=seat)]
    other = accounts[1 - index]
    if other.claim is not None and other.claim.seq > seq:
        notes.append(Phrase("the claim in {file} comes after the match ended by resignation",
                            file=other.name))
    return Comparison(STANDS if other.claim is not None else AGREE, accounts,
                      stands=index if other.claim is not None else None, finding=finding, notes=tuple(notes))


def _with_finished(accounts: tuple[Account, Account], finished: list[int]) -> Comparison:
    if len(finished) == 2:
        return Comparison(AGREE, accounts, notes=(Phrase("both files hold the finished, co-signed match"),))
    done = finished[0]
    other = accounts[1 - done]
    full = accounts[done].envelopes
    if other.claim is not None:
        claim = other.claim
        answer = full[claim.seq] if claim.seq < len(full) else None
        notes: list[str] = [Phrase("the match is finished and co-signed in {file}", file=accounts[done].name)]
        if answer is not None:
            notes.append(Phrase("player {seat} signed message {seq} ({type}), which the claim in {file} says "
                                "never came", seat=answer.sender, seq=claim.seq, type=Word(answer.type),
                                file=other.name))
        later = _own_later(full, claim)
        if later is not None:
            notes.append(Phrase("player {seat} itself signed message {later} after it, so it had received "
                                "message {seq}", seat=claim.claimant, later=later, seq=claim.seq))
        return Comparison(STANDS, accounts, stands=done, notes=tuple(notes))
    return Comparison(AGREE, accounts, notes=(Phrase("{file} is the same match cut short", file=other.name),))


def _own_later(chain: Sequence[SignedEnvelope], claim: AbandonmentClaim) -> int | None:
    """The first envelope the claimant signed at or after the message it says never came, on a
    chain that extends the claim's own (the claimant then had that message)."""
    if len(chain) <= claim.seq or (claim.seq > 0 and chain[claim.seq - 1].digest() != claim.head):
        return None
    return next((env.seq for env in chain[claim.seq:] if env.sender == claim.claimant), None)


def _claim_against(accounts: tuple[Account, Account], index: int) -> Comparison:
    """One claim that holds on its own, against the other file's chain."""
    claimant_file, other = accounts[index], accounts[1 - index]
    claim = claimant_file.claim
    assert claim is not None and claimant_file.report is not None
    later = _own_later(other.envelopes, claim)
    if later is not None:
        finding = Deviation(seat=claim.claimant, seq=claim.seq, reason="false_claim",
                            message=Phrase("player {seat} signed message {later} after it, in {file}, so it "
                                           "had received message {seq}", seat=claim.claimant, later=later,
                                           file=other.name, seq=claim.seq))
        return Comparison(STANDS, accounts, stands=1 - index, finding=finding,
                          notes=(Phrase("the claim in {file} is contradicted by its own claimant's "
                                        "signature", file=claimant_file.name),))
    notes: list[str] = [Phrase("the claim in {file} holds, and {other} does not contradict it",
                               file=claimant_file.name, other=other.name)]
    status = AGREE
    if len(other.envelopes) > claim.seq:
        answer = other.envelopes[claim.seq]
        status = STANDS
        notes = [Phrase("player {seat} did sign message {seq} ({type}), in {file}, but nothing shows player "
                        "{claimant} ever received it: it came after the deadline or was lost on the way, "
                        "which no file can tell apart (the protocol has no trusted clock)",
                        seat=answer.sender, seq=claim.seq, type=Word(answer.type), file=other.name,
                        claimant=claim.claimant)]
    return Comparison(status, accounts, stands=index if status == STANDS else None,
                      finding=claimant_file.report.deviation, notes=tuple(notes))


def _two_claims(accounts: tuple[Account, Account]) -> Comparison:
    """Two claims that each hold on its own: the earlier stands unless its own claimant refutes
    it by a later signature in the other file."""
    first, second = sorted((0, 1), key=lambda i: _claim_of(accounts[i]).seq)
    c1, c2 = _claim_of(accounts[first]), _claim_of(accounts[second])
    if c1.seq == c2.seq and c1.claimant == c2.claimant:
        return Comparison(AGREE, accounts, finding=_finding(accounts[first]))
    later = _own_later(accounts[second].envelopes, c1)
    if later is not None:
        return Comparison(STANDS, accounts, stands=second, finding=_finding(accounts[second]), notes=(
            Phrase("the claim in {file} (message {seq}) is contradicted by player {seat}'s own message "
                   "{later} in {other}", file=accounts[first].name, seq=c1.seq, seat=c1.claimant, later=later,
                   other=accounts[second].name),))
    if c1.claimant == c2.claimant:
        return Comparison(CONFLICT, accounts, notes=(
            Phrase("player {seat} signed two claims, at messages {first} and {second}", seat=c1.claimant,
                   first=c1.seq, second=c2.seq),))
    return Comparison(STANDS, accounts, stands=first, finding=_finding(accounts[first]), notes=(
        Phrase("player {late} signed message {seq} only after player {seat} had stopped waiting for it, or "
               "it was lost on the way: no file can tell which (the protocol has no trusted clock)",
               late=c2.claimant, seq=c1.seq, seat=c1.claimant),
        Phrase("the claim in {file} (message {seq}) rests on messages {start} to {end} that player {seat}'s "
               "account shows it never received", file=accounts[second].name, seq=c2.seq, start=c1.seq,
               end=c2.seq - 1, seat=c1.claimant),
    ))


def _finding(account: Account) -> Deviation | None:
    return account.report.deviation if account.report is not None else None


def _claim_of(account: Account) -> AbandonmentClaim:
    assert account.claim is not None
    return account.claim


__all__ = ["AGREE", "CONFLICT", "STANDS", "Account", "Comparison", "compare", "compare_bytes",
           "read_account"]

"""``koikoi verify A B``: two files of one session, two accounts; which one stands
(spec/protocol.md §9.2). The files are cut from one real match, as each seat would have written
them when it stopped at a different point."""

from __future__ import annotations

from typing import Any

import pytest

from koikoi_p2p.audit import AuditError
from koikoi_p2p.audit.compare import AGREE, STANDS, compare_bytes
from koikoi_p2p.audit.core import Replayer, disclosed_keys
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.envelope import SignedEnvelope, sign_envelope
from koikoi_p2p.protocol.handshake import verify_handshake_record
from koikoi_p2p.protocol.transcript import encode_transcript
from tests.protocol.game_support import make_pair, run


@pytest.fixture(scope="module")
def match() -> Any:
    pair = run(make_pair(rounds=1, seed=11))
    assert pair.peers[0].done and pair.peers[1].done
    return pair


def _envelopes(match: Any) -> list[SignedEnvelope]:
    return list(match.peers[0].transcript)


def _secrets(match: Any) -> dict[int, dict[int, bytes]]:
    return disclosed_keys(_envelopes(match))


def _waiting(match: Any, n: int) -> tuple[int, str, int]:
    """What the flow waits for after the first n messages (replayed with every card known)."""
    replayer = Replayer(verify_handshake_record(match.records[0]), _secrets(match))
    for env in _envelopes(match)[:n]:
        replayer.feed(env)
    waiting = replayer.flow.waiting_for()
    assert waiting is not None
    return waiting


def _claim(match: Any, n: int) -> bytes:
    """The abandonment file the waiting seat writes at message n, with its own round secret of
    the interrupted deal (spec/protocol.md §12.4)."""
    envelopes = _envelopes(match)[:n]
    seat, expected, deadline = _waiting(match, n)
    claimant = 1 - seat
    session = verify_handshake_record(match.records[0])
    claim = AbandonmentClaim(session_id=session.session_id, seq=n, head=envelopes[-1].digest(),
                             claimant=claimant, absent=seat, expected=expected, deadline=deadline)
    signer = match.peers[claimant].channel.identity
    deal = _deal_at(envelopes)
    return encode_abandonment(encode_transcript(match.records[0], envelopes, closed=False), claim,
                              sign_claim(signer, claim), deal=deal,
                              round_key=_secrets(match).get(deal, {}).get(claimant, b""))


def _deal_at(envelopes: list[SignedEnvelope]) -> int:
    """The deal the last message belongs to: deal 0 is the first-dealer draw."""
    keys = sum(1 for env in envelopes if env.type == m.KEY)
    return max(0, (keys + 1) // 2 - 1)


def _turn_of(match: Any, seat: int, after: int = 4) -> int:
    """A message number at which the match waits for ``seat``'s act (a person's decision)."""
    for n, env in enumerate(_envelopes(match)):
        if n > after and env.type == m.ACT and env.sender == seat and _waiting(match, n)[:2] == (seat, m.ACT):
            return n
    raise AssertionError("no such turn")


def test_the_issue_s_two_claims_the_earlier_stands(match: Any) -> None:
    """The joiner stops at the host's turn N and claims; the host moves late (message N), then
    claims that the joiner went silent at N + 1. Both files are valid alone; together the host's
    claim rests on a message the joiner never received, and the joiner's claim stands."""
    n = _turn_of(match, 0)
    joiner, host = _claim(match, n), _claim(match, n + 1)
    assert _waiting(match, n + 1)[0] == 1
    result = compare_bytes(host, joiner, ("host.abandoned", "joiner.abandoned"))
    assert result.status == STANDS and result.stands == 1
    assert result.finding is not None and (result.finding.reason, result.finding.seat) == ("abandoned", 0)
    assert result.finding.seq == n
    text = "\n".join(result.lines())
    assert "joiner.abandoned stands" in text and "no trusted clock" in text
    # The order of the arguments does not matter.
    again = compare_bytes(joiner, host, ("joiner.abandoned", "host.abandoned"))
    assert again.stands == 0 and again.finding == result.finding


def test_a_claim_its_own_claimant_answered_later_is_refuted(match: Any) -> None:
    """The joiner claims at N, but the host's file shows the joiner's own envelope after N."""
    n = _turn_of(match, 0)
    envelopes = _envelopes(match)
    later = next(k for k in range(n + 1, len(envelopes)) if envelopes[k].sender == 1
                 and _waiting(match, k + 1)[0] == 1)
    joiner, host = _claim(match, n), _claim(match, later + 1)
    result = compare_bytes(joiner, host)
    assert result.status == STANDS and result.stands == 1
    assert "contradicted by player 1's own message" in "\n".join(result.lines())


def test_a_finished_match_refutes_a_claim(match: Any) -> None:
    n = _turn_of(match, 0)
    full = encode_transcript(match.records[0], _envelopes(match), closed=True)
    result = compare_bytes(_claim(match, n), full)
    assert result.status == STANDS and result.stands == 1
    text = "\n".join(result.lines())
    assert f"player 0 signed message {n}" in text and "player 1 itself signed" in text


def test_two_copies_and_a_prefix_agree(match: Any) -> None:
    full = encode_transcript(match.records[0], _envelopes(match), closed=True)
    assert compare_bytes(full, full).status == AGREE
    cut = encode_transcript(match.records[0], _envelopes(match)[:20], closed=False)
    assert compare_bytes(cut, full).status == AGREE
    # A claim and a transcript that stops before it: consistent, the claim holds.
    n = _turn_of(match, 0)
    before = encode_transcript(match.records[0], _envelopes(match)[:n - 2], closed=False)
    claim = compare_bytes(_claim(match, n), before)
    assert claim.status == AGREE
    assert claim.finding is not None and claim.finding.reason == "abandoned"


def test_two_envelopes_one_seat_signed_for_one_number_prove_equivocation(match: Any) -> None:
    n = _turn_of(match, 1)
    envelopes = _envelopes(match)
    original = envelopes[n]
    identity = match.peers[1].channel.identity
    body = dict(original.body)
    shares = body.get("shares", [])
    assert isinstance(shares, list)
    body["shares"] = [*shares, [[47], b"\x00" * 96]]
    other = sign_envelope(identity, version=original.version, session_id=original.session_id,
                          seq=original.seq, prev=original.prev, sender=1, type=original.type, body=body)
    forked = encode_transcript(match.records[0], [*envelopes[:n], other], closed=False)
    full = encode_transcript(match.records[0], envelopes, closed=True)
    result = compare_bytes(forked, full)
    assert result.finding is not None
    assert (result.finding.reason, result.finding.seat, result.finding.seq) == ("equivocation", 1, n)


def test_files_of_two_sessions_are_refused(match: Any) -> None:
    other = run(make_pair(rounds=1, seed=12))
    first = encode_transcript(match.records[0], _envelopes(match), closed=True)
    second = encode_transcript(other.records[0], list(other.peers[0].transcript), closed=True)
    with pytest.raises(AuditError) as info:
        compare_bytes(first, second)
    assert info.value.reason == "different_sessions"


def test_an_invalid_file_is_no_account(match: Any) -> None:
    full = encode_transcript(match.records[0], _envelopes(match), closed=True)
    broken = bytearray(full)
    broken[len(broken) // 2] ^= 1
    result = compare_bytes(bytes(broken), full)
    assert result.status == STANDS and result.stands == 1
    assert "does not verify" in "\n".join(result.lines())


def test_a_resignation_is_reported_from_either_file() -> None:
    """spec/game.md: a resign message carries the resigner's signed match result; two files that
    hold it (or one that holds it and a prefix) report "resigned by player X at message N"."""
    from pathlib import Path

    from koikoi_p2p.protocol.transcript import decode_transcript

    path = Path(__file__).resolve().parents[2] / "spec/vectors/protocol/match_resigned.transcript"
    data = path.read_bytes()
    transcript = decode_transcript(data)
    prefix = encode_transcript(transcript.handshake, transcript.envelopes[:10], closed=False)
    for other in (data, prefix):
        result = compare_bytes(data, other)
        assert result.status == AGREE and result.finding is not None
        assert result.finding.reason == "resigned"
        assert "resigned by player" in "\n".join(result.lines())

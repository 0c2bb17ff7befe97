"""Forged and false abandonment claims (issue 11, holes 2 and 3), as an attacker would make them.

Hole 2: each seat signed a handshake hash that named neither identity key, so a victim's
signature from any session it took part in could be paired with a fresh key that signs the same
hash: a "new" session in which the victim never sent anything, and an abandonment file that
waits for the victim's terms. Hole 3: the claim's expected message and deadline were the
claimant's word alone.
"""

from __future__ import annotations

from koikoi_p2p.audit.abandonment import audit_abandonment_bytes
from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.handshake import signed_statement, verify_handshake_record
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.transcript import encode_transcript
from tests.protocol.game_support import make_pair, run
from tests.protocol.session_util import handshake_pair, run_pair


def _mint(victim_record: dict[str, object], fresh: Identity) -> dict[str, object]:
    """The victim (seat 0) of a real session, paired with a fresh key as seat 1."""
    from koikoi_p2p.protocol.handshake import initial_hash, mix_hash, prologue

    h = mix_hash(initial_hash(), prologue(victim_record["version"], victim_record["room"]))  # type: ignore[arg-type]
    for part in ("hello", "reply", "reveal"):
        h = mix_hash(h, victim_record[part])  # type: ignore[arg-type]
    keys, sigs = victim_record["keys"], victim_record["signatures"]
    return {**victim_record, "keys": [keys[0], fresh.public_key],  # type: ignore[index]
            "signatures": [sigs[0], fresh.sign(signed_statement(1, h))]}  # type: ignore[index]


def test_a_victim_signature_paired_with_a_fresh_key_mints_an_abandonment() -> None:
    victim, _, _ = run_pair(*handshake_pair(seed=b"victim"))
    fresh = Identity.generate()
    forged = _mint(victim.record, fresh)
    session = verify_handshake_record(forged)
    claim = AbandonmentClaim(session_id=session.session_id, seq=0, head=session.handshake_hash,
                             claimant=1, absent=0, expected="terms", deadline=60)
    data = encode_abandonment(encode_transcript(forged, [], closed=False), claim, sign_claim(fresh, claim))
    report = audit_abandonment_bytes(data)
    # Version 1: the forgery passes.
    assert report.ok and report.notes[0] == "abandoned by player 0 at message 0"


def test_a_claim_with_a_message_and_deadline_the_flow_never_gave_is_upheld() -> None:
    pair = make_pair(rounds=1, seed=3)
    run(pair, max_frames=6)
    envelopes = pair.peers[1].transcript
    n = len(envelopes)
    session = verify_handshake_record(pair.records[1])
    waiting = pair.peers[1].waiting_for()
    assert waiting is not None and waiting[0] == 0
    claim = AbandonmentClaim(session_id=session.session_id, seq=n, head=envelopes[-1].digest(),
                             claimant=1, absent=0, expected="match_sign", deadline=1)
    identity = pair.peers[1].channel.identity
    data = encode_abandonment(encode_transcript(pair.records[1], envelopes, closed=False), claim,
                              sign_claim(identity, claim))
    report = audit_abandonment_bytes(data)
    # Version 1: "no match_sign within the 1 s deadline", upheld.
    assert report.ok and report.deviation is not None and "match_sign" in report.deviation.message

"""A malicious peer: one test per attack, each caught at the first message that shows it.

The cheater is the honest machine (``GamePeer``) with one outgoing message tampered after its own
state machine accepted the honest one, so everything before the attack is honest. Each test checks
the honest peer's typed ``RemoteViolation``: its reason, the seat it blames and the envelope (seq)
that showed it, and, where the offence is a signed game message, that ``koikoi verify`` logic
(audit_evidence) confirms "player 1 deviated at message N: reason" from the evidence file alone.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_p2p.audit import audit_evidence
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.channel import SecureChannel, seal_frame
from koikoi_p2p.protocol.envelope import VERSION as ENVELOPE_VERSION
from koikoi_p2p.protocol.envelope import sign_envelope, wire_session_id
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.events import Failure
from koikoi_p2p.protocol.flow import Phase, shares_to_wire
from koikoi_p2p.protocol.peer import GamePeer, _MakeShares
from koikoi_p2p.protocol.results import round_statement
from koikoi_p2p.protocol.statement import MATCH_RESULT_DOMAIN, statement
from koikoi_p2p.protocol.transcript import decode_evidence, encode_evidence
from koikoi_p2p.rules.actions import Play
from koikoi_p2p.rules.deal import deal_layout
from mentalpoker.elgamal import CIPHERTEXT_BYTES
from mentalpoker.group import hash_to_point
from tests.protocol.game_support import Pair, evidence_bytes, make_pair, run

Attack = Callable[["Cheater", str, dict[str, Any]], "dict[str, Any] | None"]
OTHER_POINT = hash_to_point(b"koikoi-p2p tests: some valid point").raw
DECK_BYTES = 48 * CIPHERTEXT_BYTES


class Cheater(GamePeer):
    """Seat 1, honest except for the first outgoing message ``attack`` chooses to change."""

    def __init__(self, *, attack: Attack, **kw: Any) -> None:
        super().__init__(**kw)
        self.attack = attack
        self.tampered_seq: int | None = None
        self.extra: list[bytes] = []
        self.saved_channel: dict[str, object] | None = None
        self.lenient_once = False
        self.closing_before: dict[int, Any] = {}

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        source = _MakeShares(self) if "shares" in body else None
        engine = self.flow.engine
        lenient = self.lenient_once and msg_type == m.ACT and engine is not None
        if lenient:
            # Let our own engine accept a move only the full replay can refute (hidden hand rules).
            assert engine is not None
            engine.viewer = 1 - self.seat
            self.tampered_seq = self.channel.next_seq
            self.lenient_once = False
        self.closing_before = {d.number: d for d in self.flow.closing}
        self.flow.accept(self.seat, msg_type, body, seq=self.channel.next_seq, prev=self.channel.head,
                         source=source)
        if engine is not None:
            engine.viewer = self.seat
        if source is not None:
            body["shares"] = shares_to_wire(source.groups)
        if self.tampered_seq is None:
            self.saved_channel = self.channel.to_state()
            changed = self.attack(self, msg_type, copy.deepcopy(body))
            if changed is not None:
                self.tampered_seq = self.channel.next_seq
                if self.lenient_once:
                    self.lenient_once = False
                body = changed
        frame, env = self.channel.seal(msg_type, body)
        self.transcript.append(env)
        return frame

    def _speak(self, **kw: Any) -> list[bytes]:
        frames = super()._speak(**kw)
        frames += self.extra
        self.extra = []
        return frames


def play(attack: Attack, *, rules: str = "nintendo", rounds: int = 1, seed: int = 1) -> Pair:
    pair = make_pair(rules=rules, rounds=rounds, seed=seed, peer1_factory=Cheater, attack=attack)
    return run(pair)


def caught(pair: Pair, reason: str, *, evidence: bool = True,
           first_is_offence: bool = True) -> RemoteViolation:
    """The honest seat 0 stopped with ``reason`` at the tampered envelope, blaming seat 1.

    ``first_is_offence``: nothing the honest peer accepted came at or after the tampered envelope.
    Not so for a check that runs later than its envelope (a deferred preparation proof, a hidden
    move found by the re-check): the verdict still names that envelope."""
    cheater = pair.peers[1]
    assert isinstance(cheater, Cheater)
    assert cheater.tampered_seq is not None, "the attack never found its moment"
    error = pair.errors[0]
    assert isinstance(error, RemoteViolation), f"honest peer ended with {error!r}"
    assert error.reason == reason, error
    assert error.evidence.get("seq") == cheater.tampered_seq
    assert pair.peers[0].phase is Phase.FAILED
    # The user is told who deviated: the Failure event names the cheater.
    assert [e.who for e in pair.events[0] if isinstance(e, Failure)] == [1]
    if first_is_offence:
        # Nothing the honest peer accepted came at or after the tampered envelope.
        assert all(env.seq < cheater.tampered_seq for env in pair.peers[0].transcript)
    with pytest.raises(Exception):  # noqa: B017 - any later call raises (terminal state)
        pair.peers[0].receive(b"\x00" * 40)
    if evidence:
        report = audit_evidence(decode_evidence(evidence_bytes(pair, 0)))
        assert report.ok, report
        assert report.deviation is not None
        assert report.deviation.seat == 1
        assert report.deviation.seq == cheater.tampered_seq
        assert f"player 1 deviated at message {cheater.tampered_seq}" in report.deviation.describe()
    return error


def once(msg_type: str, change: Callable[[Cheater, dict[str, Any]], dict[str, Any] | None],
         *, deal: int | None = None) -> Attack:
    """Change the first ``msg_type`` message (of ``deal``: the one its body names, else the deal
    in play)."""
    def attack(peer: Cheater, kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
        of = body.get("deal", peer.flow.deal)
        if kind != msg_type or (deal is not None and of != deal):
            return None
        return change(peer, body)
    return attack


def flip(data: bytes, index: int) -> bytes:
    out = bytearray(data)
    out[index] ^= 0x01
    return bytes(out)


# -- proofs ------------------------------------------------------------------------------------

def test_wrong_key_proof() -> None:
    pair = play(once(m.KEY, lambda p, b: {**b, "key": flip(b["key"], 40)}, deal=2))
    caught(pair, "bad_key", first_is_offence=False)


def test_missing_key_proof() -> None:
    pair = play(once(m.KEY, lambda p, b: {**b, "key": b["key"][:32]}))
    caught(pair, "bad_key", first_is_offence=False)


def test_rogue_round_key() -> None:
    # A public key chosen without its secret (e.g. pk_rogue - pk_peer) cannot carry a valid proof.
    pair = play(once(m.KEY, lambda p, b: {**b, "key": OTHER_POINT + b["key"][32:]}, deal=1))
    caught(pair, "bad_key", first_is_offence=False)


def test_wrong_shuffle_proof() -> None:
    pair = play(once(m.SHUFFLE, lambda p, b: {**b, "deck": flip(b["deck"], DECK_BYTES + 100)}, deal=2))
    caught(pair, "bad_shuffle", first_is_offence=False)


def test_missing_shuffle_proof() -> None:
    pair = play(once(m.SHUFFLE, lambda p, b: {**b, "deck": b["deck"][:DECK_BYTES]}))
    caught(pair, "bad_shuffle", first_is_offence=False)


def test_shuffle_that_duplicates_a_card() -> None:
    def dup(p: Cheater, b: dict[str, Any]) -> dict[str, Any]:
        deck = b["deck"]
        first = deck[:CIPHERTEXT_BYTES]
        return {**b, "deck": first + first + deck[2 * CIPHERTEXT_BYTES:]}
    pair = play(once(m.SHUFFLE, dup, deal=1))
    caught(pair, "bad_shuffle", first_is_offence=False)


def test_shuffle_that_replaces_a_card() -> None:
    def swap(p: Cheater, b: dict[str, Any]) -> dict[str, Any]:
        deck = b["deck"]
        # Keep the first ciphertext's randomness part, replace its message part.
        return {**b, "deck": deck[:32] + OTHER_POINT + deck[CIPHERTEXT_BYTES:]}
    pair = play(once(m.SHUFFLE, swap, deal=1))
    caught(pair, "bad_shuffle", first_is_offence=False)


def test_wrong_decryption_share() -> None:
    def bad_share(p: Cheater, b: dict[str, Any]) -> dict[str, Any] | None:
        if p.flow.deal < 1 or not b.get("shares"):
            return None
        positions, data = b["shares"][0]
        b["shares"][0] = [positions, OTHER_POINT + data[32:]]
        return b
    pair = play(lambda p, kind, b: bad_share(p, b) if "shares" in b else None)
    caught(pair, "bad_share")


def test_missing_share_proof() -> None:
    def strip(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if p.flow.deal < 1 or not b.get("shares"):
            return None
        positions, data = b["shares"][0]
        b["shares"][0] = [positions, data[:-64]]   # the shares without their DLEQ proof
        return b
    caught(play(strip), "bad_share")


def test_shares_for_positions_not_owed() -> None:
    def extra(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if p.flow.deal < 1 or not b.get("shares"):
            return None
        positions, data = b["shares"][0]
        b["shares"][0] = [[*positions[:-1], 47], data]  # claims a stock position instead
        return b
    caught(play(extra), "wrong_shares")


# -- moves -------------------------------------------------------------------------------------

def test_play_a_card_it_does_not_hold() -> None:
    def steal(p: Cheater, b: dict[str, Any]) -> dict[str, Any] | None:
        if b["action"]["type"] != "play":
            return None
        dealer = p.flow.round_params[1]
        other_hand = deal_layout(dealer).hands[0]
        return {**b, "action": Play(other_hand[0]).to_dict()}
    pair = play(once(m.ACT, steal))
    caught(pair, "illegal_action")


def test_play_a_stock_position() -> None:
    def stock(p: Cheater, b: dict[str, Any]) -> dict[str, Any] | None:
        if b["action"]["type"] != "play":
            return None
        return {**b, "action": Play(deal_layout(p.flow.round_params[1]).stock[-1]).to_dict()}
    pair = play(once(m.ACT, stock))
    caught(pair, "illegal_action")


def test_capture_the_rules_forbid() -> None:
    def grab(p: Cheater, b: dict[str, Any]) -> dict[str, Any] | None:
        if b["action"]["type"] != "capture":
            return None
        # Our engine has applied the honest choice: the other option is still on the field, so
        # any card neither there nor the one just taken was never an option.
        view = p.flow.engine.view() if p.flow.engine is not None else None
        field = set(view.field) if view is not None else set()
        never = [c for c in range(48) if c not in field and c != b["action"]["card"]]
        return {**b, "action": {"type": "capture", "card": never[0]}}
    pair = None
    for seed in range(1, 40):
        pair = play(once(m.ACT, grab), rounds=1, seed=seed)
        if pair.peers[1].tampered_seq is not None:  # type: ignore[attr-defined]
            break
    assert pair is not None
    caught(pair, "illegal_action")


def test_hidden_compulsory_capture_caught_when_the_round_is_rechecked() -> None:
    """Under teaching-card a matching hand card must be played. The opponent cannot see the hand,
    so it accepts the play; the full re-check after the keys are disclosed blames that very act."""
    def skip_match(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        return None

    class Sneaky(Cheater):
        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            # A cheater does not re-check its own round (it would find its own move).
            self.flow.ensure_audited = lambda deal: None  # type: ignore[method-assign]

        def decide(self, action: Any) -> list[bytes]:
            engine = self.flow.engine
            if self.tampered_seq is None and engine is not None and isinstance(action, Play):
                legal = {a.position for a in self.legal_actions() if isinstance(a, Play)}
                hand = engine.view().hand_positions
                illegal = [pos for pos in hand if pos not in legal]
                if illegal:
                    self.lenient_once = True     # tampered_seq is set when the act is sealed
                    self._decision = Play(illegal[0])
                    return self._guard(lambda: self._speak(defer=False))
            return super().decide(action)

    for seed in range(1, 30):
        pair = make_pair(rules="teaching-card", rounds=1, seed=seed, peer1_factory=Sneaky,
                         attack=skip_match)
        run(pair)
        if pair.peers[1].tampered_seq is not None:  # type: ignore[attr-defined]
            break
    # Caught when the disclosed keys show the hand (the first message that shows it), blaming the act.
    error = caught(pair, "illegal_action", first_is_offence=False)
    assert "must_capture" in error.message


def test_koikoi_without_a_yaku() -> None:
    pair = play(once(m.ACT, lambda p, b: {**b, "action": {"type": "koikoi"}}
                     if b["action"]["type"] == "play" else None))
    caught(pair, "illegal_action")


def test_stop_without_a_yaku() -> None:
    pair = play(once(m.ACT, lambda p, b: {**b, "action": {"type": "stop"}}
                     if b["action"]["type"] == "play" else None))
    caught(pair, "illegal_action")


def test_message_out_of_turn() -> None:
    """While the honest player is to play, the cheater sends a move of its own."""
    def extra(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if p.flow.expect != (0, m.ACT) or p.flow.engine is None:
            return None
        hand = deal_layout(p.flow.round_params[1]).hands[1]
        assert isinstance(p, _Extra)   # peer1_factory below
        p.pending_extra = {"action": Play(hand[0]).to_dict(), "shares": []}
        return None
    pair = make_pair(rounds=1, seed=2, peer1_factory=_Extra, attack=extra)
    run(pair)
    caught(pair, "out_of_turn")


def test_message_racing_the_other_seat_is_caught_by_the_chain() -> None:
    """Sent while the other seat's own message is in flight, a message takes a seq that is not its."""
    def extra(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.KEY or p.flow.expect[0] != 0:   # its last key, then the other seat shuffles
            return None
        assert isinstance(p, _Extra)   # peer1_factory below
        p.pending_extra = {"shares": []}
        p.pending_type = m.REVEAL
        return None
    pair = make_pair(rounds=1, seed=2, peer1_factory=_Extra, attack=extra)
    run(pair)
    error = pair.errors[0]
    assert isinstance(error, RemoteViolation) and error.reason == "bad_seq"
    assert [e.who for e in pair.events[0] if isinstance(e, Failure)] == [1]
    # Signed on the history both hold, at a number the game gave the other seat: proven.
    report = audit_evidence(decode_evidence(evidence_bytes(pair, 0)))
    assert report.ok and report.deviation is not None and report.deviation.seat == 1


class _Extra(Cheater):
    """Sends one extra, unasked-for envelope right after an honest one."""

    pending_extra: dict[str, Any] | None = None
    pending_type: str = m.ACT

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        frame = super()._send(msg_type, body)
        if self.pending_extra is not None and self.tampered_seq is None:
            self.tampered_seq = self.channel.next_seq
            self.extra.append(self.channel.seal(self.pending_type, self.pending_extra)[0])
            self.pending_extra = None
        return frame


class _Handled(Exception):
    """The attack sealed its own frames."""


class _Raw(Cheater):
    """A cheater whose attack seals frames itself (``_Handled``) instead of returning a body."""

    def _send(self, msg_type: str, body: dict[str, Any]) -> bytes:
        try:
            return super()._send(msg_type, body)
        except _Handled:
            return self.extra.pop(0)


# -- results -----------------------------------------------------------------------------------

def _result_attack(kind_of_lie: str) -> Attack:
    def attack(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        flow = p.flow
        sign = p.channel.identity.sign
        if kind == m.ROUND_SIGN:
            record = p.closing_before.get(b["deal"])     # our own signature may have closed it
            assert record is not None and record.end_head is not None
            lie = dict(b["result"])
            lie["points"] = int(lie["points"]) + 1
            lie_statement = round_statement(session_id=flow.session_id, deal=record.number,
                                            round_index=record.params[0], head=record.end_head, result=lie)
            if kind_of_lie == "result":
                return {**b, "result": lie, "sig": sign(lie_statement)}
            return {**b, "sig": sign(lie_statement)}
        if kind == m.MATCH_RESULT:
            lie = dict(b["result"])
            lie["scores"] = [lie["scores"][0], lie["scores"][1] + 1]
            if kind_of_lie == "result":
                return {"result": lie, "sig": sign(statement(MATCH_RESULT_DOMAIN, lie))}
            return {**b, "sig": sign(statement(MATCH_RESULT_DOMAIN, lie))}
        return None
    return attack


def _play_until_found(attack: Attack) -> Pair:
    for seed in range(1, 20):
        pair = play(attack, seed=seed)
        if pair.peers[1].tampered_seq is not None:  # type: ignore[attr-defined]
            return pair
    raise AssertionError("the cheater never sent a result")


def test_wrong_result() -> None:
    caught(_play_until_found(_result_attack("result")), "wrong_result")


def test_signature_over_a_different_result() -> None:
    caught(_play_until_found(_result_attack("signature")), "bad_result_signature")


# -- envelopes ---------------------------------------------------------------------------------

def test_two_envelopes_with_one_sequence_number() -> None:
    def equivocate(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.ACT:
            return None
        assert p.saved_channel is not None
        twin = SecureChannel.from_state(p.saved_channel, identity=p.channel.identity)
        other = {**b, "action": {"type": "play", "position": 47}}
        p.extra.append(twin.seal(m.ACT, other)[0])
        p.tampered_seq = p.channel.next_seq
        return None
    pair = play(equivocate)
    error = caught(pair, "equivocation", evidence=False, first_is_offence=False)
    assert "accepted_envelope" in error.evidence
    report = audit_evidence(decode_evidence(evidence_bytes(pair, 0)))
    assert report.ok and report.deviation is not None and report.deviation.seat == 1


def test_envelope_from_another_session() -> None:
    def foreign(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.KEY:
            return None
        env = sign_envelope(p.channel.identity, version=p.channel.version,
                            session_id=wire_session_id(b"\x42" * 32), seq=p.channel.next_seq,
                            prev=p.channel.head, sender=p.seat, type=kind, body=b)
        p.extra.append(seal_frame(p.channel._send_key, env))
        p.tampered_seq = p.channel.next_seq
        raise _Handled
    pair = make_pair(rounds=1, seed=4, peer1_factory=_Raw, attack=foreign)
    run(pair)
    caught(pair, "wrong_session", evidence=False)


def test_body_replayed_from_an_earlier_deal() -> None:
    """Deal 0's key message, re-signed as deal 1's: the proof is bound to its deal (round)."""
    saved: dict[str, bytes] = {}

    def replay(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.KEY:
            return None
        if b["deal"] == 0:
            saved["key"] = b["key"]
            return None
        return {**b, "key": saved["key"]}
    caught(play(replay), "bad_key", first_is_offence=False)


def test_body_replayed_from_another_session() -> None:
    other = run(make_pair(rounds=1, seed=9))
    old_keys = [e.body["key"] for e in other.peers[1].transcript if e.type == m.KEY and e.sender == 1]
    pair = play(once(m.KEY, lambda p, b: {**b, "key": old_keys[1]}, deal=1))
    caught(pair, "bad_key", first_is_offence=False)


def test_exact_replay_of_an_earlier_frame_is_a_harmless_duplicate() -> None:
    """The same bytes again change nothing (the channel drops exact duplicates): no false alarm."""
    first: list[bytes] = []

    def replay(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        return None

    class Repeater(Cheater):
        def _speak(self, **kw: Any) -> list[bytes]:
            frames = super()._speak(**kw)
            if frames and not first:
                first.append(frames[0])
            if frames and self.flow.deal == 1 and first:
                frames.append(first[0])
            return frames

    pair = make_pair(rounds=1, seed=5, peer1_factory=Repeater, attack=replay)
    run(pair)
    assert pair.errors == [None, None]
    assert pair.peers[0].phase is Phase.DONE and pair.peers[1].phase is Phase.DONE


# -- evidence must never blame an honest peer --------------------------------------------------

def _first_run_of_two(pair: Pair) -> int:
    """The seq of a seat 0 envelope directly followed by another one of seat 0 (deal 1 on)."""
    envs = pair.peers[0].transcript
    return next(e.seq for i, e in enumerate(envs[:-1])
                if e.sender == 0 and envs[i + 1].sender == 0 and e.type != m.TERMS and e.seq > 8)


def test_a_frame_the_relay_drops_is_blamed_on_no_one() -> None:
    """Seat 0 sends two envelopes in a row and the relay drops the first: seat 1 stops at the gap
    (bad_seq), but the signed envelope after the gap is honest, so the evidence proves nothing."""
    target = _first_run_of_two(run(make_pair(rounds=1, seed=1)))
    dropped = [False]

    def relay(to: int, frame: bytes) -> list[bytes]:
        if frame[0] == 0x10 and int.from_bytes(frame[1:5], "big") == target and not dropped[0]:
            dropped[0] = True
            return []
        return [frame]

    pair = run(make_pair(rounds=1, seed=1), deliver=relay)
    error = pair.errors[1]
    assert isinstance(error, RemoteViolation) and error.reason == "bad_seq"
    assert pair.errors[0] is None                   # seat 0 just stops hearing from seat 1
    assert [e.who for e in pair.events[1] if isinstance(e, Failure)] == [None]
    report = audit_evidence(decode_evidence(evidence_bytes(pair, 1)))
    assert not report.ok
    assert report.deviation is not None and report.deviation.seat is None


def _honest(seed: int = 1) -> Pair:
    pair = run(make_pair(rounds=1, seed=seed))
    assert pair.errors == [None, None]
    return pair


def test_a_reporter_cannot_frame_the_peer_with_another_history() -> None:
    """Seat 0 files an evidence file in which its own terms differ from those seat 1 accepted:
    seat 1's accept then names another prev, which seat 0 alone could have caused."""
    pair = _honest()
    envs = pair.peers[0].transcript
    accept = next(e for e in envs if e.type == m.ACCEPT)
    # Seat 0's own history up to the accept, with other terms (and its keys signed again on it).
    identity, forged = pair.peers[0].channel.identity, []
    prev = envs[0].prev
    for env in envs[:accept.seq]:
        body = dict(env.body)
        if env.type == m.TERMS:
            body["deadlines"] = {"step": 61, "turn": 300}
        forged.append(sign_envelope(identity, version=ENVELOPE_VERSION, session_id=env.session_id,
                                    seq=env.seq, prev=prev, sender=0, type=env.type, body=body))
        prev = forged[-1].digest()
    offence = {"seat": 1, "seq": accept.seq, "envelope": accept.raw, "signature": accept.signature}
    data = encode_evidence(pair.records[0], forged, reporter=0, reason="bad_prev", message="",
                           offence=offence)
    evidence = decode_evidence(data)
    assert evidence.finding.signed and not evidence.finding.proven
    report = audit_evidence(evidence)
    assert not report.ok and report.deviation is not None and report.deviation.seat is None


def test_an_accepted_envelope_filed_again_proves_nothing() -> None:
    pair = _honest()
    envs = pair.peers[0].transcript
    accused = next(e for e in envs[5:] if e.sender == 1)
    offence = {"envelope": accused.raw, "signature": accused.signature}
    for reporter_view in (envs[:accused.seq + 1], envs[:accused.seq + 4]):
        data = encode_evidence(pair.records[0], reporter_view, reporter=0, reason="out_of_turn",
                               message="", offence=offence)
        report = audit_evidence(decode_evidence(data))
        assert not report.ok, report
        assert report.deviation is not None and report.deviation.seat is None


def test_a_prev_that_contradicts_the_accused_own_envelope_is_proven() -> None:
    """After its own envelope, the accused signs the next one on another history: no one else
    can have caused that."""
    pair = _honest()
    envs = pair.peers[0].transcript
    seq = next(e.seq for e in envs[8:-1] if e.sender == 1 and envs[e.seq + 1].sender == 1)
    nxt = envs[seq + 1]
    party = pair.peers[0].party
    assert party is not None and pair.peers[0].flow.deal == 1
    forged = sign_envelope(pair.peers[1].channel.identity, version=ENVELOPE_VERSION,
                           session_id=nxt.session_id,
                           seq=nxt.seq, prev=bytes(32), sender=1, type=nxt.type, body=nxt.body)
    offence = {"envelope": forged.raw, "signature": forged.signature, "deal": 1,
               "round_keys": [[1, party.disclose_key()]]}
    data = encode_evidence(pair.records[0], envs[:seq + 1], reporter=0, reason="bad_prev", message="",
                           offence=offence)
    evidence = decode_evidence(data)
    assert evidence.finding.proven
    report = audit_evidence(evidence)
    assert report.ok and report.deviation is not None and report.deviation.seat == 1


# -- more attacks: terms, disclosed keys, hand yaku, the match result ------------------------

def test_accept_of_other_terms() -> None:
    caught(play(once(m.ACCEPT, lambda p, b: {"terms": flip(b["terms"], 0)})), "bad_terms")


def test_wrong_disclosed_round_key() -> None:
    """Either seat's `disclose` (the first or the second of a deal): a scalar that is not the
    secret of its round key."""
    def wrong_key(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.DISCLOSE:
            return None
        return {**b, "key": (int.from_bytes(b["key"], "little") + 1).to_bytes(32, "little")}
    for seed in (1, 2, 3):
        pair = play(wrong_key, seed=seed)
        caught(pair, "bad_disclosed_key")


def test_false_hand_yaku_claim() -> None:
    """A claim of four cards of one month (teshi) with a hand that has none: its own shares in
    the same message reveal the cards, and the claim fails there."""
    def claim(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.DECLARE or b["action"]["type"] != "no_hand_yaku":
            return None
        engine, party = p.flow.engine, p.parties[p.flow.deal]
        assert engine is not None
        view = engine.view()
        months = [c // 4 for c in view.hand]
        if any(months.count(x) == 4 for x in months):
            return None                                  # it really holds one: no lie to tell
        positions = tuple(sorted(view.hand_positions[:4]))
        return {"action": {"type": "claim_hand_yaku", "yaku": "teshi", "positions": list(positions)},
                "shares": [[list(positions), party.share_message(positions, p.channel.head)]]}
    error = caught(play(claim), "illegal_action")
    assert "false_hand_yaku" in error.message


def _match_result_attack(kind_of_lie: str) -> Attack:
    def attack(p: Cheater, kind: str, b: dict[str, Any]) -> dict[str, Any] | None:
        if kind != m.MATCH_RESULT:
            return None
        lie = dict(b["result"])
        lie["scores"] = [lie["scores"][0], lie["scores"][1] + 1]
        sig = p.channel.identity.sign(statement(MATCH_RESULT_DOMAIN, lie))
        return {"result": lie, "sig": sig} if kind_of_lie == "result" else {**b, "sig": sig}
    return attack


@pytest.mark.parametrize(("lie", "reason"), [("result", "wrong_result"),
                                             ("signature", "bad_result_signature")])
def test_lie_in_the_match_result(lie: str, reason: str) -> None:
    caught(_play_until_found(_match_result_attack(lie)), reason)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), drop=st.floats(0.0, 0.05), dup=st.floats(0.0, 0.2),
       hold=st.floats(0.0, 0.05), junk=st.floats(0.0, 0.02))
def test_a_misbehaving_relay_never_gets_an_honest_peer_blamed(seed: int, drop: float, dup: float,
                                                              hold: float, junk: float) -> None:
    """Random drops, duplicates, reorders and injected frames between two honest peers: a peer may
    stop, but neither its Failure event nor its evidence file ever blames the other player."""
    import random

    chance = random.Random(seed)
    held: list[tuple[int, bytes]] = []

    def relay(to: int, frame: bytes) -> list[bytes]:
        out: list[bytes] = []
        roll = chance.random()
        if roll < drop:
            pass
        elif roll < drop + hold:
            held.append((to, frame))
        else:
            out.append(frame)
            if chance.random() < dup:
                out.append(frame)
        if chance.random() < junk:
            out.append(bytes([0x10]) + chance.randbytes(chance.randint(0, 200)))
        for item in [h for h in held if h[0] == to and chance.random() < 0.5]:
            held.remove(item)
            out.append(item[1])
        return out

    pair = run(make_pair(rounds=1, seed=seed % 7 + 1), deliver=relay)
    for seat in (0, 1):
        assert all(e.who is None for e in pair.events[seat] if isinstance(e, Failure)), pair.events[seat]
        if isinstance(pair.errors[seat], RemoteViolation):
            report = audit_evidence(decode_evidence(evidence_bytes(pair, seat)))
            assert not report.ok and (report.deviation is None or report.deviation.seat is None), report

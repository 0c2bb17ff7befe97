"""Match terms, message bodies and co-signed results: shapes, digests, every refusal typed."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi_p2p.audit import AuditError, verify_result
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.protocol.results import CoSignedResult, MatchResult
from koikoi_p2p.protocol.statement import pack
from koikoi_p2p.protocol.terms import GAME_VERSION, Deadlines, MatchTerms, profile_digest
from koikoi_p2p.rules.profile import PRESETS, preset, with_rounds

K0, K1 = b"\x01" * 32, b"\x02" * 32


def _terms(**kw: object) -> MatchTerms:
    return MatchTerms.propose(profile=preset("nintendo"), keys=(K0, K1), room="ABCDEF", **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_terms_round_trip_for_every_preset(name: str) -> None:
    terms = MatchTerms.propose(profile=preset(name), keys=(K0, K1), room="R00M42", rounds=3)
    body = terms.to_body()
    m.check_body(m.TERMS, body)
    again = MatchTerms.from_body(body)
    assert again == terms and again.digest() == terms.digest()
    assert body["profile_digest"] == hashlib.sha256(with_rounds(preset(name), 3).encode()).digest()
    assert terms.profile.name == name and terms.summary().describe() == name


def test_the_digest_binds_every_field() -> None:
    base = _terms(rounds=2)
    others = [_terms(rounds=3), _terms(rounds=2, deadlines=Deadlines(step=61)),
              MatchTerms.propose(profile=preset("wikipedia"), keys=(K0, K1), room="ABCDEF", rounds=2),
              MatchTerms.propose(profile=preset("nintendo"), keys=(K1, K0), room="ABCDEF", rounds=2),
              MatchTerms.propose(profile=preset("nintendo"), keys=(K0, K1), room="ABCDEG", rounds=2)]
    assert len({t.digest() for t in [base, *others]}) == 1 + len(others)


@pytest.mark.parametrize("change", [
    {"profile_digest": b"\x00" * 32},
    {"rounds": 5},
    {"deadlines": {"step": 0, "turn": 300}},
    {"deadlines": {"step": 60}},
    {"keys": [K0, K0]},
    {"keys": [K0]},
    {"profile": {"name": "nintendo"}},
    {"names": ["a"]},
    {"names": ["a", " b"]},
    {"names": ["a", "x" * 33]},
    {"names": ["a", "tab\there"]},
    {"names": ["a", "e\u0301"]},                   # not NFC
    {"rated": True},                                # rated without a rating service
    {"ratings": "https://ratings.example"},         # a rating service for an unrated match
    {"rated": True, "ratings": "ftp://ratings.example"},
    {"rated": True, "ratings": "https://" + "x" * 200},
])
def test_bad_terms_are_refused(change: dict[str, object]) -> None:
    body = {**_terms().to_body(), **change}
    with pytest.raises(RemoteViolation) as err:
        MatchTerms.from_body(body)
    assert err.value.reason == "bad_terms"


@pytest.mark.parametrize("version", [1, GAME_VERSION + 1])
def test_terms_of_another_version_are_refused(version: int) -> None:
    with pytest.raises(RemoteViolation) as err:
        MatchTerms.from_body({**_terms().to_body(), "version": version})
    assert err.value.reason == "unsupported_version"


def test_names_and_rating_travel_in_the_terms_and_the_digest() -> None:
    terms = _terms(names=("Aiko", "Bashō"), rated=True, ratings="https://ratings.example/v1")
    again = MatchTerms.from_body(terms.to_body())
    assert again.names == ("Aiko", "Bashō") and again.rated and again.ratings == "https://ratings.example/v1"
    assert terms.digest() != _terms(names=("Aiko", "Basho"), rated=True,
                                    ratings="https://ratings.example/v1").digest()
    assert terms.digest() != _terms(names=("Aiko", "Bashō")).digest()
    with pytest.raises(ValueError):
        _terms(names=("Aiko ", ""))
    with pytest.raises(ValueError):
        _terms(rated=True)


def test_a_preset_name_needs_exactly_that_preset() -> None:
    """spec/game.md §2.4: "nintendo" with another switch is refused; the host's proposal renames
    it custom, and screens list what differs from the closest preset."""
    from koikoi_p2p.protocol.terms import custom_name, profile_summary

    changed = preset("nintendo").with_switches(max_calls_per_round=0)
    body = {**_terms().to_body(), "profile": changed.to_dict(), "profile_digest": profile_digest(changed)}
    with pytest.raises(RemoteViolation) as err:
        MatchTerms.from_body(body)
    assert err.value.reason == "bad_terms"
    proposed = MatchTerms.propose(profile=changed, keys=(K0, K1), room="ABCDEF")
    assert proposed.profile.name == "custom" and MatchTerms.from_body(proposed.to_body()) == proposed
    summary = proposed.summary()
    assert summary.custom and summary.base == "nintendo"
    assert summary.differences == (("max_calls_per_round", "0"),)
    assert summary.describe() == "custom, based on nintendo: max_calls_per_round=0"
    # A length of its own keeps a preset a preset (spec/rules.md §3.6), the paired pool included.
    assert profile_summary(with_rounds(preset("board-game"), 6)).describe() == "board-game"
    assert profile_summary(preset("board-game").with_switches(rounds=6)).describe() == \
        "custom (board-game), based on board-game: pool_start=100"   # what terms refuse
    named = custom_name(preset("wikipedia").with_switches(name="house", hand_capture="free"))
    assert named.name == "house"
    assert profile_summary(named).describe() == "custom (house), based on wikipedia: hand_capture=free"
    with pytest.raises(ValueError):
        custom_name(changed, "wikipedia")


def test_a_changed_switch_without_a_new_digest_is_refused() -> None:
    body = _terms().to_body()
    signed_profile = body["profile"]
    assert isinstance(signed_profile, dict)
    profile = dict(signed_profile)
    profile["hand_capture"] = "compulsory"
    with pytest.raises(RemoteViolation):
        MatchTerms.from_body({**body, "profile": profile})
    assert profile_digest(preset("nintendo")) == body["profile_digest"]


def test_message_schemas_refuse_extra_missing_and_mistyped_fields() -> None:
    good = {"action": {"type": "stop"}, "shares": []}
    m.check_body(m.ACT, good)
    for bad in ({"action": {"type": "stop"}}, {**good, "x": 1}, {**good, "shares": "no"},
                {**good, "shares": [[[], b""]]}, {**good, "shares": [[[48], b""]]},
                {**good, "shares": [[[1], "text"]]}, {**good, "action": []}):
        with pytest.raises(RemoteViolation) as err:
            m.check_body(m.ACT, bad)
        assert err.value.reason == "bad_message"
    with pytest.raises(RemoteViolation) as err:
        m.check_body("chat", {})
    assert err.value.reason == "unknown_message"
    with pytest.raises(RemoteViolation):
        m.check_body(m.ACCEPT, {"terms": -1})


@given(st.dictionaries(st.text(max_size=8), st.none() | st.integers() | st.binary(max_size=8), max_size=4))
def test_random_bodies_are_judged_without_surprises(body: dict[str, object]) -> None:
    for msg_type in m.SCHEMAS:
        try:
            m.check_body(msg_type, body)
        except RemoteViolation:
            pass


def _cosigned(scores: tuple[int, int] = (12, 3)) -> tuple[CoSignedResult, Identity, Identity]:
    a = Identity.from_private_bytes(b"\x11" * 32)
    b = Identity.from_private_bytes(b"\x22" * 32)
    result = MatchResult(version=2, session_id=b"\x33" * 32, room="ABCDEF", keys=(a.public_key, b.public_key),
                         names=("Aiko", ""), rated=False, terms_digest=b"\x44" * 32, profile="nintendo",
                         profile_digest=b"\x55" * 32, rounds=((1, 0, 12), (2, None, 0), (3, 1, 3)),
                         scores=scores, winner=0, resigned=None, head=b"\x66" * 32)
    data = result.statement()
    return CoSignedResult(result=result, signatures=(a.sign(data), b.sign(data))), a, b


def test_a_co_signed_result_verifies_alone() -> None:
    cosigned, _, _ = _cosigned()
    result = verify_result(cosigned.encode())
    assert result == cosigned.result
    assert CoSignedResult.decode(cosigned.encode()) == cosigned


def test_a_result_signed_by_one_player_only_fails() -> None:
    cosigned, _, _ = _cosigned()
    first = cosigned.signatures[0]
    forged = CoSignedResult(result=cosigned.result, signatures=(first, first))
    with pytest.raises(AuditError) as err:
        verify_result(forged.encode())
    assert err.value.reason == "bad_signature"


def test_signatures_over_another_result_fail() -> None:
    cosigned, _, _ = _cosigned()
    other, _, _ = _cosigned(scores=(13, 3))
    mixed = CoSignedResult(result=other.result, signatures=cosigned.signatures)
    with pytest.raises(AuditError):
        verify_result(mixed.encode())


def test_non_canonical_or_malformed_result_files_fail() -> None:
    cosigned, _, _ = _cosigned()
    data = cosigned.encode()
    for bad in (b"", b"\x80", data + b"\x00", data[:-1], pack({"format": "x"}),
                pack({"format": "koikoi-p2p/cosigned-result/v2", "result": {}, "signatures": []}),
                pack({"format": "koikoi-p2p/cosigned-result/v1", "result": cosigned.result.to_dict(),
                      "signatures": list(cosigned.signatures)})):
        with pytest.raises(AuditError):
            verify_result(bad)


def test_a_result_of_an_unknown_version_or_a_short_session_id_is_refused() -> None:
    """Both signatures may be valid: a verifier still refuses what it does not fully understand
    (another version, a short session id, a resignation by the winner)."""
    import dataclasses

    a = Identity.from_private_bytes(b"\x11" * 32)
    b = Identity.from_private_bytes(b"\x22" * 32)
    base, _, _ = _cosigned()
    for change in ({"version": 1}, {"version": 3}, {"session_id": b"\x33" * 16}, {"resigned": 0}):
        result = dataclasses.replace(base.result, **change)
        data = result.statement()
        signed = CoSignedResult(result=result, signatures=(a.sign(data), b.sign(data)))
        with pytest.raises(AuditError) as err:
            verify_result(signed.encode())
        assert err.value.reason == "bad_result"


def test_version_1_terms_are_refused_as_such_before_their_shape() -> None:
    """A version-1 peer's terms (no names, no rating fields) are `unsupported_version`, not a
    malformed body (spec/game.md §1.2, §4.1)."""
    from koikoi_p2p.protocol.flow import GameFlow

    body = {k: v for k, v in _terms().to_body().items() if k not in ("names", "rated", "ratings")}
    body["version"] = 1
    flow = GameFlow(viewer=1, keys=(K0, K1), room="ABCDEF", session_id=b"\x05" * 32,
                    deck_factory=lambda deal, first: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(RemoteViolation) as err:
        flow.accept(0, m.TERMS, body, seq=0, prev=b"\x00" * 32)
    assert err.value.reason == "unsupported_version"


def test_a_receiver_accepts_every_custom_name() -> None:
    """spec/game.md §2.4 (issue 27 item 3): any name of the name switch that no preset has is a
    custom name a receiver accepts, whatever it says (the names koikoi host picks, custom, a
    host's own); a preset's name on other switches is bad_terms, on its own switches accepted."""
    changed = preset("nintendo").with_switches(exhaustion="oya_ken")
    for name in ("custom", "nintendo-custom", "koikoi-online-custom", "room-7", "x" * 40):
        profile = changed.with_switches(name=name)
        body = {**_terms().to_body(), "profile": profile.to_dict(), "profile_digest": profile_digest(profile)}
        assert MatchTerms.from_body(body).profile.name == name
    for name, switches in (("wikipedia", changed), ("nintendo", changed)):
        profile = switches.with_switches(name=name)
        body = {**_terms().to_body(), "profile": profile.to_dict(), "profile_digest": profile_digest(profile)}
        with pytest.raises(RemoteViolation) as err:
            MatchTerms.from_body(body)
        assert err.value.reason == "bad_terms"
    same = preset("nintendo")
    body = {**_terms().to_body(), "profile": same.to_dict(), "profile_digest": profile_digest(same)}
    assert MatchTerms.from_body(body).profile == same

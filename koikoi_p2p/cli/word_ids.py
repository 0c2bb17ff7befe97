"""The machine words a report names in words: message types (spec/game.md §3) and the reasons of
spec/game.md §9, spec/protocol.md §2.4, §8, §9, §9.1, spec/crypto.md §8.8, the ratings export and
the rating service. They reach a screen as ``phrase.Word`` values, never as literals at a call
site, so they are listed here for extraction in the context ``word`` (babel.cfg); their names in
each language live in the catalogues (koikoi_p2p/locale)."""

from __future__ import annotations

from koikoi_p2p.cli.catalogue import word_id

WORD_IDS: tuple[str, ...] = (
    # message types
    word_id("word", "terms"), word_id("word", "accept"), word_id("word", "key"), word_id("word", "shuffle"),
    word_id("word", "reveal"), word_id("word", "act"), word_id("word", "declare"),
    word_id("word", "disclose"), word_id("word", "round_sign"), word_id("word", "match_result"),
    word_id("word", "match_sign"), word_id("word", "resign"),
    # the game (spec/game.md §9)
    word_id("word", "out_of_turn"), word_id("word", "unknown_message"), word_id("word", "bad_message"),
    word_id("word", "bad_terms"), word_id("word", "unsupported_version"), word_id("word", "bad_key"),
    word_id("word", "bad_shuffle"), word_id("word", "bad_share"), word_id("word", "missing_shares"),
    word_id("word", "wrong_shares"), word_id("word", "unexpected_shares"), word_id("word", "illegal_action"),
    word_id("word", "inconsistent_reveal"), word_id("word", "bad_disclosed_key"), word_id("word", "bad_deck"),
    word_id("word", "inconsistent_round"), word_id("word", "wrong_result"),
    word_id("word", "bad_result_signature"), word_id("word", "deck_state"),
    # the session (spec/protocol.md §2.4)
    word_id("word", "bad_frame"), word_id("word", "unexpected_message"), word_id("word", "mode_mismatch"),
    word_id("word", "bad_name"), word_id("word", "bad_commitment"), word_id("word", "pake_failed"),
    word_id("word", "key_confirmation_failed"), word_id("word", "bad_signature"),
    word_id("word", "aead_failure"), word_id("word", "reflected"), word_id("word", "bad_envelope"),
    word_id("word", "wrong_session"), word_id("word", "wrong_sender"), word_id("word", "bad_seq"),
    word_id("word", "bad_prev"), word_id("word", "equivocation"),
    # files (spec/protocol.md §8, §9, §9.1)
    word_id("word", "bad_magic"), word_id("word", "bad_file"), word_id("word", "bad_handshake"),
    word_id("word", "bad_handshake_record"), word_id("word", "bad_handshake_signature"),
    word_id("word", "bad_closing"), word_id("word", "truncated"), word_id("word", "bad_claim"),
    word_id("word", "unproven_claim"), word_id("word", "false_claim"), word_id("word", "abandoned"),
    word_id("word", "resigned"), word_id("word", "bad_result"), word_id("word", "unknown_file"),
    word_id("word", "different_sessions"), word_id("word", "bad_seat"), word_id("word", "non_canonical"),
    # the deck (spec/crypto.md §8.8)
    word_id("word", "invalid_length"), word_id("word", "invalid_point"), word_id("word", "invalid_scalar"),
    word_id("word", "bad_key_proof"), word_id("word", "bad_shuffle_proof"),
    word_id("word", "bad_share_proof"), word_id("word", "wrong_key"), word_id("word", "not_a_card"),
    word_id("word", "not_a_permutation"), word_id("word", "audit_failed"),
    # the entries of a ratings export (ratings/board.py)
    word_id("word", "result"), word_id("word", "claim"),
    # a rating service's refusals (spec/ratings.md)
    word_id("word", "busy"), word_id("word", "claim_not_upheld"), word_id("word", "internal"),
    word_id("word", "method_not_allowed"), word_id("word", "not_a_claim"), word_id("word", "not_a_result"),
    word_id("word", "not_found"), word_id("word", "not_json"), word_id("word", "replayed"),
    word_id("word", "same_key"), word_id("word", "store_unavailable"), word_id("word", "too_large"),
    word_id("word", "unknown_player"), word_id("word", "unrated"),
)

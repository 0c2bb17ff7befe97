"""The machine words a screen names in words, in English: reason codes and message types.

A reason code (spec/game.md §9, spec/protocol.md §2.4, §8, §9, §9.1, spec/crypto.md §8.8,
spec/relay.md §6, spec/ratings.md, the terminal's own reasons for a stopped match) reaches a screen
as a ``phrase.Word`` or a failure's ``reason``, never as a literal at a call site, so its English
words are kept here: ``REASONS`` in the catalogue's context ``reason``, the context the browser app
names why a match stopped in (web/app/messages.en.json, section ``reason``). Where both clients say
the same English for a code it is one catalogue entry, so one translation
(tests/unit/test_catalogue.py checks that they agree). ``MESSAGE_WORDS`` names the message types
(spec/game.md §3) and the entries of a ratings export, in the context ``word``. The codes themselves
stay in --json and, in brackets after the words, where a screen keeps them for a bug report.
cli/i18n.extract_terminal hands the English to Babel; each language's words are in its catalogue.
"""

from __future__ import annotations

REASON = "reason"  # the catalogue's context of REASONS (shared with the browser)
MESSAGE_WORD = "word"  # ... of MESSAGE_WORDS

REASONS: dict[str, str] = {
    # the game (spec/game.md §9)
    "out_of_turn": "a message out of turn",
    "unknown_message": "a message of an unknown kind",
    "bad_message": "a malformed message",
    "bad_terms": "terms that are not valid",
    "unsupported_version": "a version this program does not support",
    "bad_key": "a deck key that is not valid",
    "bad_shuffle": "a shuffle that is not valid",
    "bad_share": "a decryption share that is not valid",
    "missing_shares": "decryption shares are missing",
    "wrong_shares": "decryption shares for the wrong cards",
    "unexpected_shares": "decryption shares that were not asked for",
    "illegal_action": "a move the rules do not allow",
    "inconsistent_reveal": "a revealed card that does not add up",
    "bad_disclosed_key": "a disclosed round key that does not match",
    "bad_deck": "the deck failed its check at the round end",
    "inconsistent_round": "the round failed its check at the end",
    "wrong_result": "a round result that disagrees",
    "bad_result_signature": "a signature that does not match the result",
    "deck_state": "a face-down card cannot be known",
    # the session (spec/protocol.md §2.4)
    "bad_frame": "a malformed frame",
    "unexpected_message": "an unexpected message",
    "mode_mismatch": "one of you gave a room password and the other did not",
    "bad_name": "a display name that is not valid",
    "bad_commitment": "a key that does not match its commitment",
    "pake_failed": "the room passwords differ",
    "key_confirmation_failed": "the room passwords differ",
    "bad_signature": "a signature that is not valid",
    "aead_failure": "a frame that does not authenticate",
    "reflected": "our own message sent back to us",
    "bad_envelope": "a malformed message envelope",
    "wrong_session": "a message of another session",
    "wrong_sender": "a message from the wrong sender",
    "bad_seq": "a message out of sequence",
    "bad_prev": "a message that breaks the chain",
    "equivocation": "two different messages signed with one number",
    # files (spec/protocol.md §8, §9, §9.1)
    "bad_magic": "not a file of this program",
    "bad_file": "a damaged file",
    "bad_handshake": "a handshake record that is not valid",
    "bad_handshake_record": "a handshake record that is not valid",
    "bad_handshake_signature": "a handshake record with a wrong signature",
    "bad_closing": "an ending mark that does not match",
    "truncated": "a record cut short",
    "bad_claim": "a claim that is not valid",
    "unproven_claim": "a claim its file does not prove",
    "false_claim": "a false claim",
    # an audit's word (the browser says why its own match stopped: "the opponent did not answer ...")
    "abandoned": "the match was abandoned",
    "resigned": "a player resigned",
    "bad_result": "a result that is not valid",
    "unknown_file": "a file of an unknown kind",
    "different_sessions": "files of different sessions",
    "bad_seat": "a seat that is not valid",
    "non_canonical": "an encoding that is not canonical",
    # the deck (spec/crypto.md §8.8)
    "invalid_length": "data of the wrong length",
    "invalid_point": "a point that is not valid",
    "invalid_scalar": "a scalar that is not valid",
    "bad_key_proof": "a key proof that does not verify",
    "bad_shuffle_proof": "a shuffle proof that does not verify",
    "bad_share_proof": "a share proof that does not verify",
    "wrong_key": "a secret key that does not match its public key",
    "not_a_card": "a decryption that is no card",
    "not_a_permutation": "a shuffle that is not a permutation",
    "audit_failed": "the check at the round end failed",
    # a rating service's refusals (spec/ratings.md)
    "busy": "the service is busy",
    "claim_not_upheld": "a claim that does not hold",
    "internal": "an error inside the service",
    "method_not_allowed": "a request the service does not take",
    "not_a_claim": "not an abandonment claim",
    "not_a_result": "not a co-signed result",
    "not_json": "an answer that cannot be read",
    "replayed": "a session already counted with another result",
    "same_key": "both players have the same key",
    "store_unavailable": "the service's database is not available",
    "too_large": "too large",
    "unknown_player": "a player the service does not know",
    "unrated": "a match that is not rated",
    # the relay (spec/relay.md §6) and the relay client
    "unreachable": "the relay could not be reached",
    "dropped": "the relay closed the connection without answering",
    "speaks_ws": "a relay that speaks plain ws://, not wss://",
    "speaks_wss": "a relay that speaks wss://, not plain ws://",
    "bad_url": "not a relay address",
    "bad_certificate": "a certificate that is not trusted",
    "room_not_found": "there is no room with this code",
    "not_found": "not found",
    "bad_code": "there is no room with this code",
    "room_full": "the room is full",
    "full": "the room is full",
    "room_closed": "the room was closed",
    "room_expired": "the room was idle too long",
    "relay_full": "the relay is full",
    "relay_unavailable": "the relay cannot serve rooms for now",
    "relay_busy": "the relay is busy",
    "handshakes_busy": "the relay is busy letting other connections in",
    "shutdown": "the relay is shutting down",
    "source_connections": "too many connections from your address",
    "source_handshakes": "too many connections starting from your address",
    "source_rooms": "too many rooms from your address",
    "too_many_rooms": "too many rooms from this connection",
    "lobby_rate_limited": "the lobby was asked too often",
    "rate_limited": "too many messages too fast",
    "too_many_errors": "too many errors",
    "too_many_bad_joins": "too many joins of rooms that do not exist",
    "malformed": "a message the relay cannot read",
    "unknown_type": "a message the relay does not know",
    "bad_meta": "room details the relay does not take",
    "bad_listing": "a room listing the relay does not take",
    "control_too_large": "a message too large for the relay",
    "text_not_allowed": "a text message",
    "not_in_room": "not in a room",
    "already_in_room": "already in a room",
    "not_host": "only the host may do that",
    "no_peer": "nobody else is in the room",
    "frame_too_large": "a message was too large for the relay",
    "frame_gap": "messages were lost on the way",
    "idle_timeout": "the connection was idle too long",
    "policy": "the relay closed the connection by its rules",
    "replaced": "another connection took this seat",
    "rejected": "the host turned this player away",
    "resume_unknown": "the relay does not know the match to continue",
    "resume_gap": "the relay no longer holds what was missed",
    "bad_resume": "the match could not be resumed",
    "resume_failed": "the match could not be resumed",
    "peer_resume_failed": "the opponent's match could not be resumed",
    "rejoin_timeout": "the opponent did not come back in time",
    "bad_relay_message": "the relay sent something it should not",
    "ended": "the match ended",
    # a stopped match at the terminal (play.py, online.py)
    "timeout": "the opponent did not answer in time",
    "peer_timeout": "the opponent did not answer in time",
    "peer_left": "the opponent left",
    # the browser: a joiner gone before the handshake ended, in a room with a password
    "left_in_handshake": "the opponent hung up during the handshake: most likely the passwords differ",
    # both clients: a joiner gone after the handshake, before accepting the terms (it refused them,
    # or quit at the question)
    "left_before_terms": ("the opponent left without accepting the terms (they refused them, said the "
                          "security codes differ, or ran out of time)"),
    "left": "the opponent left",
    "connection_closed": "the connection closed before the end",
    "transport_closed": "the connection closed before the end",
    "gave_up": "the connection could not be restored",
    "relay_unreachable": "the relay could not be reached, so no abandonment was claimed: the match is saved, "
                         "go on with koikoi resume",
    "terms_refused": "you refused the proposed terms",
    "own_timeout": "your time for a decision ran out",
    "local_error": "an error in this program",
}

# Message types (spec/game.md §3) and a ratings export's entries, as the audit names what a seat
# owed or sent ("player 1 owes message 14 (a move)").
MESSAGE_WORDS: dict[str, str] = {
    "terms": "the terms", "accept": "the acceptance of the terms", "key": "a deck key",
    "shuffle": "a shuffle", "reveal": "shares that reveal cards", "act": "a move", "declare": "a call",
    "disclose": "a disclosure of the round keys", "round_sign": "a signature of the round's result",
    "match_result": "the match result", "match_sign": "a signature of the match result",
    "resign": "a resignation",
    # the entries of a ratings export (ratings/board.py): the English is the export's own key
    "result": "result", "claim": "claim",
}

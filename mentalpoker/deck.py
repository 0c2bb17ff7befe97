"""The two-party deck protocol, sans-I/O (spec/crypto.md §8).

Theory of operation. Both parties hold a fresh round key and prove knowledge of it (no rogue keys);
the joint key is their sum. The public starting deck encrypts card i with public randomness. The
first shuffler permutes, re-randomises and proves; the other verifies, shuffles the result and
proves; the first verifies. A card at a deck position is revealed by the decryption shares of both
keys, each with a Chaum-Pedersen proof: a private reveal needs only the other party's share, a
public one both. Every message is verified when it arrives. When the round ends both secret keys are
disclosed and each party checks what it could not check before: the peer's shares against its
secret and the whole deck's decryption (``audit(recheck=True)`` verifies every proof again).

Every ``receive_*`` verifies before it changes any state, so a rejected message leaves the object
as it was. Messages are fixed-layout bytes; their sizes for n = 48 are in spec/crypto.md §8.6.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TypeVar

from mentalpoker.context import ProofContext
from mentalpoker.dleq import (
    DLEQ_PROOF_BYTES,
    decode_shares,
    encode_shares,
    prove_shares,
    verify_share_message,
    verify_shares,
)
from mentalpoker.elgamal import (
    CIPHERTEXT_BYTES,
    Ciphertext,
    KeyPair,
    card_of,
    decode_deck,
    encode_deck,
    joint_key,
    start_deck,
)
from mentalpoker.errors import DeckError, GroupError, InvalidEncoding, MentalPokerError
from mentalpoker.generators import start_randomness
from mentalpoker.group import Point, Rng, Scalar, base_mult
from mentalpoker.hedge import Hedge, check_seed, new_seed
from mentalpoker.keyproof import KEY_PROOF_BYTES, KeyProof, prove_key, verify_key
from mentalpoker.parallel import chunks, run_all, workers
from mentalpoker.shuffle import (
    ShuffleProof,
    prove_shuffle,
    shuffle,
    shuffle_proof_size,
    verify_shuffle,
    verify_shuffle_message,
)

__all__ = [
    "DeckObserver",
    "DeckParty",
    "Rng",
    "key_message_size",
    "share_message_size",
    "shuffle_message_size",
]

_T = TypeVar("_T")

STATE_FORMAT = 2
MAX_CARDS = 1 << 16
STEP_KEY = "key"
STEP_SHUFFLE = "shuffle"
STEP_SHARE = "share"


def key_message_size() -> int:
    """pk || c || s."""
    return 32 + KEY_PROOF_BYTES


def shuffle_message_size(n: int) -> int:
    """The n output ciphertexts || the shuffle proof."""
    return n * CIPHERTEXT_BYTES + shuffle_proof_size(n)


def share_message_size(count: int) -> int:
    """count shares || c || s."""
    return 32 * count + DLEQ_PROOF_BYTES


def _check_party(value: int, name: str) -> int:
    if value not in (0, 1):
        raise DeckError("bad_argument", f"{name} must be 0 or 1")
    return value


class _DeckCore:
    """What both a party and an observer track: keys, the chain of decks, verified shares."""

    def __init__(self, *, n: int, version: int, session_id: bytes, round: int, first_shuffler: int) -> None:
        if not isinstance(n, int) or not 2 <= n < MAX_CARDS:
            raise DeckError("bad_argument", "a deck has 2..65535 cards")
        self.n = n
        self.version = version
        self.session_id = session_id
        self.round = round
        self.first_shuffler = _check_party(first_shuffler, "first_shuffler")
        # Built once to validate version/session/round early (raises MentalPokerError "bad_context").
        self._context(STEP_KEY, 0)
        self._publics: dict[int, Point] = {}
        self._key_messages: dict[int, bytes] = {}
        self._joint: Point | None = None
        self._decks: list[tuple[Ciphertext, ...]] = []   # the start deck is made when first needed
        self._shuffle_messages: list[bytes] = []
        self._shares: dict[int, dict[int, Point]] = {0: {}, 1: {}}
        # Positions whose received share was checked against its party's disclosed secret on
        # arrival (d = x*a): the end-of-round audit does not repeat that check.
        self._checked: dict[int, set[int]] = {0: set(), 1: set()}
        # x_k*a computed from a disclosed secret for a position party k sent no share of.
        self._derived: dict[int, dict[int, Point]] = {0: {}, 1: {}}
        self._share_messages: list[tuple[int, tuple[int, ...], bytes]] = []
        self._secrets: dict[int, Scalar] = {}
        # position -> (layer 0, layer 1, card) of a decryption already made (``_plaintext``).
        self._cards: dict[int, tuple[bytes, bytes, int]] = {}

    # -- helpers ---------------------------------------------------------------------------
    def _context(self, step: str, prover: int) -> ProofContext:
        return ProofContext(self.version, self.session_id, self.round, step, prover)

    @property
    def _next_shuffler(self) -> int | None:
        done = len(self._shuffle_messages)
        if done >= 2:
            return None
        return self.first_shuffler if done == 0 else 1 - self.first_shuffler

    @property
    def shuffled(self) -> bool:
        """Both shuffles done and verified."""
        return len(self._shuffle_messages) == 2

    @property
    def joint_key(self) -> Point:
        if self._joint is None:
            raise DeckError("no_keys", "both round keys are needed first")
        return self._joint

    def final_deck(self) -> tuple[Ciphertext, ...]:
        if not self.shuffled:
            raise DeckError("not_shuffled", "the deck is not shuffled yet")
        return self._decks[-1]

    def _joint_secret(self) -> Scalar | None:
        """x_0 + x_1 when both round secrets are known (verified against their public keys)."""
        if len(self._secrets) != 2:
            return None
        return self._secrets[0] + self._secrets[1]

    def _current_deck(self) -> tuple[Ciphertext, ...]:
        """The deck the next shuffle takes; the start deck (§4.3) is made on first use, when an
        auditor may already know both secrets."""
        if self._joint is None:
            raise DeckError("no_keys", "both round keys are needed first")
        if not self._decks:
            self._decks = [start_deck(self._joint, self.n, self._joint_secret())]
        return self._decks[-1]

    def _positions(self, positions: Sequence[int]) -> tuple[int, ...]:
        out = tuple(positions)
        if not out or any(not isinstance(p, int) or not 0 <= p < self.n for p in out):
            raise DeckError("bad_position", f"positions must be non-empty and within 0..{self.n - 1}")
        if len(set(out)) != len(out):
            raise DeckError("bad_position", "positions must be distinct")
        return out

    # -- keys ------------------------------------------------------------------------------
    def _accept_key(self, party: int, data: bytes, verify: bool = True) -> None:
        if party in self._publics:
            raise DeckError("out_of_turn", f"party {party}'s key is already in")
        if not isinstance(data, bytes) or len(data) != key_message_size():
            raise InvalidEncoding("invalid_length", f"a key message is {key_message_size()} bytes")
        pk = Point.from_bytes(data[:32])
        proof = KeyProof.from_bytes(data[32:])
        if verify:
            verify_key(self._context(STEP_KEY, party), pk, proof)
        if len(self._publics) == 1:
            (other,) = self._publics.values()
            joint = joint_key([other, pk])
        else:
            joint = None
        self._publics[party] = pk
        self._key_messages[party] = data
        if joint is not None:
            self._joint = joint

    # -- shuffles --------------------------------------------------------------------------
    def _accept_shuffle(self, party: int, data: bytes, verify: bool = True) -> None:
        if self._joint is None:
            raise DeckError("no_keys", "both round keys are needed before a shuffle")
        if self._next_shuffler != party:
            raise DeckError("out_of_turn", f"it is not party {party}'s turn to shuffle")
        if not isinstance(data, bytes) or len(data) != shuffle_message_size(self.n):
            raise InvalidEncoding(
                "invalid_length", f"a shuffle message is {shuffle_message_size(self.n)} bytes"
            )
        split = self.n * CIPHERTEXT_BYTES
        inputs = self._current_deck()
        ctx = self._context(STEP_SHUFFLE, party)
        if verify:
            first = len(self._decks) == 1
            outputs = verify_shuffle_message(
                ctx, self._joint, inputs, data,
                input_logs=[start_randomness(i) for i in range(self.n)] if first else None,
                joint_secret=self._joint_secret())
        else:
            outputs = decode_deck(data[:split], self.n)
            ShuffleProof.from_bytes(data[split:], self.n)   # validates every field of a stored message
        self._decks.append(outputs)
        self._shuffle_messages.append(data)

    # -- shares ----------------------------------------------------------------------------
    def _accept_shares(self, party: int, positions: Sequence[int], data: bytes, verify: bool = True) -> None:
        deck = self.final_deck()
        pos = self._positions(positions)
        if not isinstance(data, bytes):
            raise InvalidEncoding("invalid_length", "a share message is bytes")
        checked = False
        if verify:
            secret = self._secrets.get(party)
            shares, checked = verify_share_message(
                self._context(STEP_SHARE, party), self._publics[party], pos, [deck[p].a for p in pos],
                data, secret=secret)
        else:
            shares, _ = decode_shares(data, len(pos))
        known = self._shares[party]
        for p, d in zip(pos, shares, strict=True):
            known[p] = d
        if checked:
            self._checked[party].update(pos)
        self._share_messages.append((party, pos, data))

    # -- disclosure and audit ----------------------------------------------------------------
    def _accept_secret(self, party: int, data: bytes) -> None:
        if party not in self._publics:
            raise DeckError("no_keys", f"party {party}'s public key is not known")
        secret = Scalar.from_bytes(data)
        try:
            matches = base_mult(secret) == self._publics[party]
        except GroupError:
            matches = False
        if not matches:
            raise DeckError("wrong_key", f"the disclosed key does not match party {party}'s public key")
        self._secrets[party] = secret

    def _recheck_proofs(self) -> None:
        """Verify again every stored key proof, both shuffle proofs and every share proof.

        Everything here was verified on receipt (or made by this party); a full re-check is for
        third-party audits and for callers that do not trust their stored state.
        """
        try:
            for party, data in sorted(self._key_messages.items()):
                proof_k = KeyProof.from_bytes(data[32:])
                verify_key(self._context(STEP_KEY, party), self._publics[party], proof_k)
            joint = self.joint_key
            split = self.n * CIPHERTEXT_BYTES
            for k, data in enumerate(self._shuffle_messages):
                party = self.first_shuffler if k == 0 else 1 - self.first_shuffler
                proof = ShuffleProof.from_bytes(data[split:], self.n)
                verify_shuffle(
                    self._context(STEP_SHUFFLE, party), joint, self._decks[k], self._decks[k + 1], proof
                )
            deck = self.final_deck()
            for party, pos, data in self._share_messages:
                shares, share_proof = decode_shares(data, len(pos))
                verify_shares(
                    self._context(STEP_SHARE, party),
                    self._publics[party],
                    pos,
                    [deck[p].a for p in pos],
                    shares,
                    share_proof,
                )
        except MentalPokerError as exc:
            raise DeckError("audit_failed", f"re-check failed: {exc.reason}") from exc

    def _decrypt_all(self) -> tuple[int, ...]:
        """Decrypt the whole deck with both secrets; check every share seen; must be a permutation."""
        deck = self.final_deck()
        if len(self._secrets) != 2:
            raise DeckError("keys_not_disclosed", "both round secret keys are needed for the audit")
        total = self._secrets[0] + self._secrets[1]
        # Where both layers are known (received shares, now checked, or x_k*a computed before),
        # b - d_0 - d_1 is the same plaintext as b - (x_0 + x_1)*a without a multiplication.
        layers = [{**self._derived[k], **self._shares[k]} for k in (0, 1)]
        both = layers[0].keys() & layers[1].keys()
        to_check = [(party, p, d) for party, known in self._shares.items() for p, d in known.items()
                    if p not in self._checked[party]]   # the others were checked on arrival
        # Every multiplication of the audit at once, on the pool (mentalpoker.parallel); the
        # checks below then run in their usual order, so the first failure is the usual one.
        jobs = [(deck[p].a, self._secrets[party]) for party, p, _ in to_check]
        jobs += [(ct.a, total) for p, ct in enumerate(deck) if p not in both]
        products = _products(jobs)
        for (party, p, d), product in zip(to_check, products, strict=False):
            if product != d:
                raise DeckError("bad_share", f"party {party}'s share of position {p} is inconsistent")
        decrypted = iter(products[len(to_check):])
        order = tuple(
            self._plaintext(p, layers[0][p], layers[1][p]) if p in both
            else card_of(ct.b - next(decrypted), self.n) for p, ct in enumerate(deck))
        if sorted(order) != list(range(self.n)):
            raise DeckError("not_a_permutation", "the final deck is not a permutation of the cards")
        return order

    def _share_of(self, party: int, position: int) -> Point:
        """Party's layer of a position: its received share, or x_party*a from its disclosed
        secret (computed once)."""
        share = self._shares[party].get(position)
        if share is not None:
            return share
        derived = self._derived[party].get(position)
        if derived is None:
            derived = self.final_deck()[position].a.mul(self._secrets[party])
            self._derived[party][position] = derived
        return derived

    def _plaintext(self, position: int, first: Point, second: Point) -> int:
        """The card b - first - second at a position; remembered with the two layers it came
        from (the flow asks for a revealed card several times, and the audit once more)."""
        known = self._cards.get(position)
        if known is not None and known[0] == first.raw and known[1] == second.raw:
            return known[2]
        ct = self.final_deck()[position]
        card = card_of(ct.b - first - second, self.n)
        self._cards[position] = (first.raw, second.raw, card)
        return card


class DeckParty(_DeckCore):
    """One player's side of the two-party deck for one round (one deck of n cards).

    Every random value the party draws (its round key, the key proof's nonce, its permutation and
    re-randomisers, every shuffle and share proof scalar) comes from :class:`Hedge`: a PRF keyed by
    ``seed`` of the proof context, the caller's ``binding`` and the step's statement
    (spec/crypto.md §3.5). ``binding`` is whatever commits to everything this party has received
    that the step depends on: in the game, the session's chain head before the envelope that
    carries the message. Identical inputs give identical messages (a crash-safe replay sends the
    same bytes again); a party restored twice and shown different inputs draws independently.
    ``seed`` is a 32-byte secret (default: fresh from the operating system); one seed may serve
    every round of a match, since the context names the session, the round and the party.
    """

    def __init__(
        self,
        *,
        me: int,
        n: int,
        version: int,
        session_id: bytes,
        round: int,
        first_shuffler: int,
        seed: bytes | None = None,
    ) -> None:
        super().__init__(
            n=n, version=version, session_id=session_id, round=round, first_shuffler=first_shuffler
        )
        self.me = _check_party(me, "me")
        self.peer = 1 - self.me
        self._seed = new_seed() if seed is None else check_seed(seed)
        self._keys: KeyPair | None = None
        self._own_shares: dict[int, Point] = {}
        self._disclosed = False

    def _hedge(self, step: str, binding: bytes) -> Hedge:
        return Hedge(self._seed, self._context(step, self.me), binding)

    @property
    def has_key(self) -> bool:
        """My round key exists (made by the first :meth:`key_message`)."""
        return self._keys is not None

    @property
    def _secret(self) -> Scalar:
        if self._keys is None:
            raise DeckError("no_keys", "my round key is made by key_message() first")
        return self._keys.secret

    @property
    def public_key(self) -> Point:
        if self._keys is None:
            raise DeckError("no_keys", "my round key is made by key_message() first")
        return self._keys.public

    # 1. keys
    def key_message(self, binding: bytes) -> bytes:
        """Make my round key and prove it: pk || c || s, 96 bytes; later calls return the same bytes.

        The key x and the proof's nonce are drawn from the hedge of (context "key", binding)."""
        cached = self._key_messages.get(self.me)
        if cached is not None:
            return cached
        hedge = self._hedge(STEP_KEY, binding)
        keys = KeyPair.generate(hedge)
        proof = prove_key(self._context(STEP_KEY, self.me), keys, hedge)
        data = keys.public.raw + proof.to_bytes()
        self._accept_key(self.me, data, verify=False)
        self._keys = keys
        return data

    def receive_key(self, data: bytes) -> None:
        """The peer's round key and proof; raises InvalidEncoding / ProofError."""
        self._accept_key(self.peer, data)

    # 2. shuffles
    def shuffle_message(self, binding: bytes) -> bytes:
        """My shuffle of the current deck: outputs || proof; later calls return the same bytes.

        The permutation, the re-randomisers and every proof scalar are drawn from the hedge of
        (context "shuffle", binding, joint key, input deck)."""
        if len(self._shuffle_messages) >= 1 and self.first_shuffler == self.me:
            return self._shuffle_messages[0]
        if len(self._shuffle_messages) == 2:
            return self._shuffle_messages[1]
        if self._joint is None:
            raise DeckError("no_keys", "both round keys are needed before a shuffle")
        if self._next_shuffler != self.me:
            raise DeckError("out_of_turn", "it is the peer's turn to shuffle")
        inputs = self._current_deck()
        hedge = self._hedge(STEP_SHUFFLE, binding)
        hedge.points("pk", [self._joint]).points("inputs", [p for ct in inputs for p in (ct.a, ct.b)])
        outputs, witness = shuffle(self._joint, inputs, hedge)
        proof = prove_shuffle(
            self._context(STEP_SHUFFLE, self.me), self._joint, inputs, outputs, witness, hedge
        )
        data = encode_deck(outputs) + proof.to_bytes()
        self._decks.append(outputs)
        self._shuffle_messages.append(data)
        return data

    def receive_shuffle(self, data: bytes) -> None:
        """Verify the peer's shuffle of the current deck; raises InvalidEncoding / ProofError."""
        self._accept_shuffle(self.peer, data)

    # 3. reveals
    def _own_share(self, position: int) -> Point:
        d = self._own_shares.get(position)
        if d is None:
            d = self.final_deck()[position].a.mul(self._secret)
            self._own_shares[position] = d
        return d

    def share_message(self, positions: Sequence[int], binding: bytes) -> bytes:
        """My decryption shares of these positions with one DLEQ proof: 32k + 64 bytes.

        The proof's nonce is drawn from the hedge of (context "share", binding, positions, bases)."""
        deck = self.final_deck()
        pos = self._positions(positions)
        if self._keys is None:
            raise DeckError("no_keys", "my round key is made by key_message() first")
        bases = [deck[p].a for p in pos]
        hedge = self._hedge(STEP_SHARE, binding)
        hedge.bytes_("positions", b"".join(p.to_bytes(2, "big") for p in pos)).points("a", bases)
        # Shares of our own cards were computed when we read them: reused, not multiplied again.
        own = [self._own_share(p) for p in pos]
        shares, proof = prove_shares(self._context(STEP_SHARE, self.me), self._keys, pos, bases, hedge, own)
        return encode_shares(shares, proof)

    def receive_shares(self, positions: Sequence[int], data: bytes) -> None:
        """Verify the peer's shares of these positions; raises InvalidEncoding / ProofError."""
        self._accept_shares(self.peer, positions, data)

    def known(self, position: int) -> bool:
        """I can decrypt this position (the peer's share is in, or its key is disclosed)."""
        self._positions([position])
        return position in self._shares[self.peer] or self.peer in self._secrets

    def card_at(self, position: int) -> int:
        """The card index at a position I can decrypt; DeckError if unknown or not a card."""
        if not self.known(position):
            raise DeckError("unknown_position", f"position {position} is not revealed to me")
        peer_share = self._shares[self.peer].get(position)
        if peer_share is None:
            peer_share = self.final_deck()[position].a.mul(self._secrets[self.peer])
        return self._plaintext(position, self._own_share(position), peer_share)

    # 4. end of round
    def disclose_key(self) -> bytes:
        """My round secret scalar (32 bytes); after this every card of the round is public.

        Empty when I have not made my key yet: there is nothing to disclose."""
        if self._keys is None:
            return b""
        self._disclosed = True
        self._secrets[self.me] = self._keys.secret
        return self._keys.secret.raw

    def receive_disclosed_key(self, data: bytes) -> None:
        """The peer's round secret; must match its public key (DeckError "wrong_key")."""
        self._accept_secret(self.peer, data)

    def audit(self, *, recheck: bool = False) -> tuple[int, ...]:
        """The whole deck order, checked with both round secrets (spec/crypto.md §8.5).

        The peer's key proof, its shuffle and every share it sent were verified when they arrived,
        and my own messages are mine, so by default only what could not be checked before is
        checked now: every share the peer sent equals x_peer * a, and the deck decrypts with both
        secrets to a permutation of the n cards (the peer's secret was checked against its public
        key on receipt). ``recheck=True`` verifies every proof again first, as an auditor does.
        """
        if self.peer not in self._secrets:
            raise DeckError("keys_not_disclosed", "the peer's round secret is needed for the audit")
        self._secrets[self.me] = self._secret
        if recheck:
            self._recheck_proofs()
        return self._decrypt_all()

    # persistence
    def to_state(self) -> dict[str, object]:
        """Everything needed to resume, secrets included, as msgpack-able plain data."""
        return {
            "format": STATE_FORMAT,
            "me": self.me,
            "n": self.n,
            "version": self.version,
            "session_id": self.session_id,
            "round": self.round,
            "first_shuffler": self.first_shuffler,
            "seed": self._seed,
            "secret": self._keys.secret.raw if self._keys is not None else None,
            "keys": [[party, data] for party, data in sorted(self._key_messages.items())],
            "shuffles": list(self._shuffle_messages),
            "shares": [[party, list(pos), data] for party, pos, data in self._share_messages],
            "peer_secret": self._secrets[self.peer].raw if self.peer in self._secrets else None,
            "disclosed": self._disclosed,
        }

    @classmethod
    def from_state(cls, state: dict[str, object]) -> DeckParty:
        """Rebuild from :meth:`to_state`. Points and scalars are validated again; the stored proofs are
        trusted like the stored secret (spec/crypto.md §8.7); ``audit(recheck=True)`` verifies them."""
        try:
            if state.get("format") != STATE_FORMAT:
                raise DeckError("bad_state", "unknown state format")
            raw_secret = state["secret"]
            party = cls(
                me=_as(int, state["me"]),
                n=_as(int, state["n"]),
                version=_as(int, state["version"]),
                session_id=_as(bytes, state["session_id"]),
                round=_as(int, state["round"]),
                first_shuffler=_as(int, state["first_shuffler"]),
                seed=_as(bytes, state["seed"]),
            )
            keys = None
            if raw_secret is not None:
                keys = KeyPair.from_secret(Scalar.from_bytes(_as(bytes, raw_secret)))
            for item in _as(list, state["keys"]):
                who, data = _as(list, item)
                party._accept_key(_as(int, who), _as(bytes, data), verify=False)
            mine = party._publics.get(party.me)
            if (mine is None) != (keys is None) or (keys is not None and mine != keys.public):
                raise DeckError("bad_state", "the stored key message is not this party's key")
            party._keys = keys
            for k, data in enumerate(_as(list, state["shuffles"])):
                who = party.first_shuffler if k == 0 else 1 - party.first_shuffler
                party._accept_shuffle(who, _as(bytes, data), verify=False)
            for item in _as(list, state["shares"]):
                who, pos, data = _as(list, item)
                party._accept_shares(
                    _as(int, who), [_as(int, p) for p in _as(list, pos)], _as(bytes, data), verify=False
                )
            peer_secret = state["peer_secret"]
            if peer_secret is not None:
                party._accept_secret(party.peer, _as(bytes, peer_secret))
            party._disclosed = bool(state.get("disclosed", False))
            if party._disclosed and keys is not None:
                party._secrets[party.me] = keys.secret
            return party
        except (KeyError, TypeError, ValueError) as exc:
            raise DeckError("bad_state", f"malformed state: {exc}") from None


class DeckObserver(_DeckCore):
    """A third party (auditor) fed both parties' messages in order; checks every proof."""

    def __init__(self, *, n: int, version: int, session_id: bytes, round: int, first_shuffler: int) -> None:
        super().__init__(
            n=n, version=version, session_id=session_id, round=round, first_shuffler=first_shuffler
        )

    def receive_key(self, party: int, data: bytes) -> None:
        self._accept_key(_check_party(party, "party"), data)

    def receive_shuffle(self, party: int, data: bytes) -> None:
        self._accept_shuffle(_check_party(party, "party"), data)

    def receive_shares(self, party: int, positions: Sequence[int], data: bytes) -> None:
        party = _check_party(party, "party")
        if party not in self._publics:
            raise DeckError("no_keys", f"party {party}'s key is not known")
        self._accept_shares(party, positions, data)

    def known(self, position: int) -> bool:
        """Both shares of this position have been seen (or both keys disclosed)."""
        self._positions([position])
        return all(position in self._shares[k] or k in self._secrets for k in (0, 1))

    def card_at(self, position: int) -> int:
        """The card at a publicly revealed position."""
        if not self.known(position):
            raise DeckError("unknown_position", f"position {position} is not publicly revealed")
        shares = [self._share_of(k, position) for k in (0, 1)]
        return self._plaintext(position, shares[0], shares[1])

    def receive_disclosed_key(self, party: int, data: bytes) -> None:
        self._accept_secret(_check_party(party, "party"), data)

    def audit(self, *, recheck: bool = False) -> tuple[int, ...]:
        """The whole deck order. Every proof was verified on receipt; here every share seen is
        checked against its party's disclosed secret and the deck must decrypt to a permutation.
        ``recheck=True`` verifies every proof again first (e.g. for an observer rebuilt by a
        caller that skipped nothing but wants a second look)."""
        if len(self._secrets) != 2:
            raise DeckError("keys_not_disclosed", "both round secret keys are needed for the audit")
        if recheck:
            self._recheck_proofs()
        return self._decrypt_all()


def _products(jobs: Sequence[tuple[Point, Scalar]]) -> list[Point]:
    """s*P for every (P, s), in order, spread over the pool."""
    def part(indices: range) -> list[Point]:
        return [jobs[i][0].mul(jobs[i][1]) for i in indices]

    if not jobs:
        return []
    pieces = run_all([partial(part, r) for r in chunks(len(jobs), max(2, workers()))])
    return [p for piece in pieces for p in piece]


def _as(kind: type[_T], value: object) -> _T:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DeckError("bad_state", f"expected {kind.__name__}")
    return value

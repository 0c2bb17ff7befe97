"""The prime-order subgroup of edwards25519 through libsodium (spec/crypto.md §2).

This is the only module that calls ``nacl.bindings``; a faster backend can replace it. Every point
that arrives from outside goes through :meth:`Point.from_bytes`, which rejects non-canonical
encodings, points off the curve or outside the prime-order subgroup, small-order points and the
identity. Points computed here from valid points need no second check (libsodium's variable-base
multiplication re-checks its input anyway).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import nacl.bindings as _nb
import nacl.exceptions
from cryptography.hazmat.primitives import hashes

from mentalpoker.errors import GroupError, InvalidEncoding

#: Order of the prime-order subgroup (and of the base point G).
L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
#: Domain separation tag of hash-to-point (spec/crypto.md §2.3).
HASH_TO_POINT_DST = b"koikoi-p2p/mentalpoker/v1/hash-to-point"

Rng = Callable[[int], bytes]


def default_rng(n: int) -> bytes:
    """The operating system's cryptographic randomness."""
    return secrets.token_bytes(n)


def _direct_primitives() -> dict[str, Callable[..., bytes]]:
    """The group and scalar primitives called on PyNaCl's own libsodium binding without the
    per-call argument checks and message formatting of ``nacl.bindings`` (a few microseconds a
    call, tens of thousands of calls in an audit). Every caller here passes ``bytes`` of the
    right length (checked where points and scalars are made, and again below); results and
    failures are libsodium's, as through the wrappers. Empty if the binding is not there."""
    try:
        from nacl._sodium import ffi, lib  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - every PyNaCl wheel has it
        return {}
    error = nacl.exceptions.RuntimeError

    new, buffer, out_type = ffi.new, ffi.buffer, "unsigned char[32]"

    # One closure per arity, the length checks written out: a generic ``any(...)`` over the
    # arguments cost about a microsecond a call (tens of thousands of calls an audit).
    def checked(fn: Any, *sizes: int) -> Callable[..., bytes]:
        if sizes == (32,):
            def call1(a: bytes) -> bytes:
                if len(a) != 32:
                    raise error("an argument has the wrong length")
                out = new(out_type)
                if fn(out, a) != 0:
                    raise error("Unexpected library error")
                result: bytes = buffer(out)[:]
                return result
            return call1

        def call2(a: bytes, b: bytes) -> bytes:
            if len(a) != 32 or len(b) != 32:
                raise error("an argument has the wrong length")
            out = new(out_type)
            if fn(out, a, b) != 0:
                raise error("Unexpected library error")
            result: bytes = buffer(out)[:]
            return result
        return call2

    def void(fn: Any, *sizes: int) -> Callable[..., bytes]:
        if len(sizes) == 1:
            size = sizes[0]

            def call1(a: bytes) -> bytes:
                if len(a) != size:
                    raise error("an argument has the wrong length")
                out = new(out_type)
                fn(out, a)
                result: bytes = buffer(out)[:]
                return result
            return call1

        def call2(a: bytes, b: bytes) -> bytes:
            if len(a) != 32 or len(b) != 32:
                raise error("an argument has the wrong length")
            out = new(out_type)
            fn(out, a, b)
            result: bytes = buffer(out)[:]
            return result
        return call2

    return {
        "_mult": checked(lib.crypto_scalarmult_ed25519_noclamp, 32, 32),
        "_base_mult": checked(lib.crypto_scalarmult_ed25519_base_noclamp, 32),
        "_add": checked(lib.crypto_core_ed25519_add, 32, 32),
        "_sub": checked(lib.crypto_core_ed25519_sub, 32, 32),
        "_scalar_add": void(lib.crypto_core_ed25519_scalar_add, 32, 32),
        "_scalar_sub": void(lib.crypto_core_ed25519_scalar_sub, 32, 32),
        "_scalar_mul": void(lib.crypto_core_ed25519_scalar_mul, 32, 32),
        "_scalar_negate": void(lib.crypto_core_ed25519_scalar_negate, 32),
        "_scalar_reduce": void(lib.crypto_core_ed25519_scalar_reduce, 64),
    }


_DIRECT = _direct_primitives()

# The libsodium primitives, as module globals so that ``counting_operations`` can wrap them.
_BINDINGS: dict[str, Callable[..., Any]] = {
    "_mult": _nb.crypto_scalarmult_ed25519_noclamp,
    "_base_mult": _nb.crypto_scalarmult_ed25519_base_noclamp,
    "_add": _nb.crypto_core_ed25519_add,
    "_sub": _nb.crypto_core_ed25519_sub,
    "_scalar_add": _nb.crypto_core_ed25519_scalar_add,
    "_scalar_sub": _nb.crypto_core_ed25519_scalar_sub,
    "_scalar_mul": _nb.crypto_core_ed25519_scalar_mul,
    "_scalar_negate": _nb.crypto_core_ed25519_scalar_negate,
    "_scalar_reduce": _nb.crypto_core_ed25519_scalar_reduce,
}
_mult: Callable[[bytes, bytes], bytes] = _DIRECT.get("_mult", _BINDINGS["_mult"])
_base_mult: Callable[[bytes], bytes] = _DIRECT.get("_base_mult", _BINDINGS["_base_mult"])
_add: Callable[[bytes, bytes], bytes] = _DIRECT.get("_add", _BINDINGS["_add"])
_sub: Callable[[bytes, bytes], bytes] = _DIRECT.get("_sub", _BINDINGS["_sub"])
_validate: Callable[[bytes], bool] = _nb.crypto_core_ed25519_is_valid_point
_from_uniform: Callable[[bytes], bytes] = _nb.crypto_core_ed25519_from_uniform
_scalar_add: Callable[[bytes, bytes], bytes] = _DIRECT.get("_scalar_add", _BINDINGS["_scalar_add"])
_scalar_sub: Callable[[bytes, bytes], bytes] = _DIRECT.get("_scalar_sub", _BINDINGS["_scalar_sub"])
_scalar_mul: Callable[[bytes, bytes], bytes] = _DIRECT.get("_scalar_mul", _BINDINGS["_scalar_mul"])
_scalar_negate: Callable[[bytes], bytes] = _DIRECT.get("_scalar_negate", _BINDINGS["_scalar_negate"])
_scalar_reduce: Callable[[bytes], bytes] = _DIRECT.get("_scalar_reduce", _BINDINGS["_scalar_reduce"])

#: Operation name -> module global holding its primitive.
OPERATIONS: dict[str, str] = {
    "mult": "_mult",
    "base_mult": "_base_mult",
    "add": "_add",
    "sub": "_sub",
    "validate": "_validate",
    "from_uniform": "_from_uniform",
    "scalar_add": "_scalar_add",
    "scalar_sub": "_scalar_sub",
    "scalar_mul": "_scalar_mul",
    "scalar_negate": "_scalar_negate",
    "scalar_reduce": "_scalar_reduce",
}


def sha512(*parts: bytes) -> bytes:
    """SHA-512 of the concatenation of ``parts`` (the `cryptography` package)."""
    h = hashes.Hash(hashes.SHA512())
    for part in parts:
        h.update(part)
    return h.finalize()


@dataclass(frozen=True, slots=True)
class Scalar:
    """An integer modulo L in its canonical 32-byte little-endian encoding.

    The repr hides the value: scalars are often secrets.
    """

    raw: bytes = field(repr=False)

    @classmethod
    def from_bytes(cls, data: bytes) -> Scalar:
        """Decode a received scalar; anything but 32 bytes below L is refused."""
        if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
            raise InvalidEncoding("invalid_scalar", "a scalar is exactly 32 bytes")
        if int.from_bytes(data, "little") >= L:
            raise InvalidEncoding("invalid_scalar", "scalar is not reduced modulo L")
        return cls(data)

    @classmethod
    def from_int(cls, value: int) -> Scalar:
        """A public constant (never a secret) as a scalar."""
        return cls((value % L).to_bytes(SCALAR_BYTES, "little"))

    @classmethod
    def from_wide(cls, data: bytes) -> Scalar:
        """Reduce 64 uniformly random or hashed bytes modulo L (bias below 2**-250)."""
        if len(data) != 64:
            raise InvalidEncoding("invalid_scalar", "wide reduction takes 64 bytes")
        return cls(_scalar_reduce(data))

    @classmethod
    def random(cls, rng: Rng | None = None) -> Scalar:
        """A uniform non-zero scalar from 64 random bytes (spec/crypto.md §2.4)."""
        draw = rng or default_rng
        while True:
            s = cls.from_wide(draw(64))
            if s.raw != _ZERO:
                return s

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar(_scalar_add(self.raw, other.raw))

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar(_scalar_sub(self.raw, other.raw))

    def __mul__(self, other: Scalar) -> Scalar:
        return Scalar(_scalar_mul(self.raw, other.raw))

    def __neg__(self) -> Scalar:
        return Scalar(_scalar_negate(self.raw))

    def __int__(self) -> int:
        return int.from_bytes(self.raw, "little")

    @property
    def is_zero(self) -> bool:
        return self.raw == _ZERO


_ZERO = bytes(SCALAR_BYTES)


@dataclass(frozen=True, slots=True)
class Point:
    """An element of the prime-order subgroup, as its canonical 32-byte encoding.

    Construct received points only with :meth:`from_bytes`. The identity appears only as the
    result of an addition; it is never accepted from outside.
    """

    raw: bytes

    @classmethod
    def from_bytes(cls, data: bytes) -> Point:
        """Decode a received point: canonical, on the curve, in the subgroup, not of small order."""
        if not isinstance(data, bytes) or len(data) != POINT_BYTES:
            raise InvalidEncoding("invalid_point", "a point is exactly 32 bytes")
        if not _validate(data):
            raise InvalidEncoding(
                "invalid_point", "not a canonical point of the prime-order subgroup (or small order)"
            )
        return cls(data)

    @classmethod
    def deferred(cls, data: bytes) -> Point:
        """A received point whose validation is left to the libsodium multiplication it goes into.

        ``crypto_scalarmult_ed25519_noclamp`` runs exactly the checks of :meth:`from_bytes`
        (canonical, not of small order, decodes, in the prime-order subgroup) before it
        multiplies and refuses otherwise, so a point that has been through a successful ``mul``
        is valid, and checking it first as well would do the same work twice. Only the proof
        verifiers of the audit use this (spec/crypto.md §2.2), for points that each go into a
        multiplication, and on any failure they decode the message again the eager way to give
        the same reason as before."""
        if not isinstance(data, bytes) or len(data) != POINT_BYTES:
            raise InvalidEncoding("invalid_point", "a point is exactly 32 bytes")
        return cls(data)

    def __add__(self, other: Point) -> Point:
        try:
            return Point(_add(self.raw, other.raw))
        except nacl.exceptions.CryptoError as exc:   # only for a deferred point that does not decode
            raise GroupError("invalid", "a point does not decode") from exc

    def __sub__(self, other: Point) -> Point:
        try:
            return Point(_sub(self.raw, other.raw))
        except nacl.exceptions.CryptoError as exc:
            raise GroupError("invalid", "a point does not decode") from exc

    def mul(self, s: Scalar) -> Point:
        """s * self. libsodium refuses a zero scalar, an invalid input and an identity result."""
        try:
            return Point(_mult(s.raw, self.raw))
        except nacl.exceptions.CryptoError as exc:
            raise GroupError("degenerate", "scalar multiplication refused (zero scalar or identity)") from exc

    @property
    def is_identity(self) -> bool:
        return self.raw == _IDENTITY_RAW


_IDENTITY_RAW = bytes([1]) + bytes(31)
IDENTITY = Point(_IDENTITY_RAW)


def base_mult(s: Scalar) -> Point:
    """s * G for the standard base point G."""
    try:
        return Point(_base_mult(s.raw))
    except nacl.exceptions.CryptoError as exc:
        raise GroupError("degenerate", "base multiplication refused (zero scalar)") from exc


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of the points (the identity for none). Every point goes through at least one
    libsodium addition (which decodes it); the first is not added to the identity (an addition
    saved per sum)."""
    items = [p.raw for p in points]
    if not items:
        return IDENTITY
    try:
        acc = items[0] if len(items) > 1 else _add(_IDENTITY_RAW, items[0])
        for raw in items[1:]:
            acc = _add(acc, raw)
    except nacl.exceptions.CryptoError as exc:   # only for a deferred point that does not decode
        raise GroupError("invalid", "a point does not decode") from exc
    return Point(acc)


def sum_of_products(points: Sequence[Point], scalars: Sequence[Scalar]) -> Point:
    """sum(s_i * P_i) on the raw encodings (no intermediate objects); GroupError as ``mul`` and
    ``+`` raise it: a zero scalar, an identity product or a point libsodium refuses. The first
    product starts the sum (no addition to the identity)."""
    if len(points) != len(scalars):
        raise ValueError("one scalar per point")
    mult, add = _mult, _add
    try:
        acc = _IDENTITY_RAW
        for i, (p, s) in enumerate(zip(points, scalars, strict=True)):
            product = mult(s.raw, p.raw)
            acc = product if i == 0 else add(acc, product)
    except nacl.exceptions.CryptoError as exc:
        raise GroupError("degenerate", "scalar multiplication refused (zero scalar, identity or "
                         "invalid point)") from exc
    return Point(acc)


def hash_to_point(label: bytes) -> Point:
    """A point nobody knows the discrete log of (spec/crypto.md §2.3).

    SHA-512(DST || 0x00 || label), first 32 bytes, through libsodium's Elligator 2 map with
    cofactor clearing (``crypto_core_ed25519_from_uniform``).
    """
    digest = sha512(HASH_TO_POINT_DST, b"\x00", label)
    raw = _from_uniform(digest[:32])
    if raw == _IDENTITY_RAW:  # unreachable for a hash output; refuse rather than assume
        raise GroupError("degenerate", "hash-to-point gave the identity")
    return Point(raw)


G = base_mult(Scalar.from_int(1))


@contextmanager
def wrapped_primitives() -> Iterator[None]:
    """Run the block with every primitive called through ``nacl.bindings``, as version 1 did
    (the audit benchmark's baseline, ``koikoi bench audit``). Not thread-safe."""
    module = globals()
    saved = {name: module[name] for name in _BINDINGS}
    module.update(_BINDINGS)
    try:
        yield
    finally:
        module.update(saved)


@contextmanager
def counting_operations() -> Iterator[dict[str, int]]:
    """Count every libsodium call made inside the block (for benchmark floors only).

    Not thread-safe: it rebinds this module's primitives for the duration of the block, and runs
    the block's verification work on the calling thread (``mentalpoker.parallel.serial``) so that
    the counts need no lock.
    """
    from mentalpoker.parallel import serial

    counts = dict.fromkeys(OPERATIONS, 0)
    module = globals()
    originals = {name: module[glob] for name, glob in OPERATIONS.items()}

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            counts[name] += 1
            return fn(*args)

        return counted

    for name, glob in OPERATIONS.items():
        module[glob] = wrap(name, originals[name])
    try:
        with serial():
            yield counts
    finally:
        for name, glob in OPERATIONS.items():
            module[glob] = originals[name]


def primitive_samples(rng: Rng | None = None) -> dict[str, Callable[[], object]]:
    """One raw libsodium call per operation, on typical inputs, for measuring unit costs."""
    s = Scalar.random(rng).raw
    t = Scalar.random(rng).raw
    p = _base_mult(Scalar.random(rng).raw)
    q = _base_mult(Scalar.random(rng).raw)
    wide = (rng or default_rng)(64)
    uniform = (rng or default_rng)(32)
    nb = _nb
    return {
        "mult": lambda: nb.crypto_scalarmult_ed25519_noclamp(s, p),
        "base_mult": lambda: nb.crypto_scalarmult_ed25519_base_noclamp(s),
        "add": lambda: nb.crypto_core_ed25519_add(p, q),
        "sub": lambda: nb.crypto_core_ed25519_sub(p, q),
        "validate": lambda: nb.crypto_core_ed25519_is_valid_point(p),
        "from_uniform": lambda: nb.crypto_core_ed25519_from_uniform(uniform),
        "scalar_add": lambda: nb.crypto_core_ed25519_scalar_add(s, t),
        "scalar_sub": lambda: nb.crypto_core_ed25519_scalar_sub(s, t),
        "scalar_mul": lambda: nb.crypto_core_ed25519_scalar_mul(s, t),
        "scalar_negate": lambda: nb.crypto_core_ed25519_scalar_negate(s),
        "scalar_reduce": lambda: nb.crypto_core_ed25519_scalar_reduce(wide),
    }

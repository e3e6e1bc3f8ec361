"""The prime-order group under the shared secret deck: edwards25519's main subgroup, through PyNaCl.

Why this group (docs/protocol.md, "The group and its encodings"): its order ℓ is prime, so multiplying by a nonzero
scalar is a bijection that can be undone with the scalar's inverse (the commutative encryption the deck
needs) and leaks nothing like a quadratic residue; libsodium refuses every point outside it; and PyNaCl,
bundled libsodium, is all it takes. X25519 would be faster but has no point addition, which the
Chaum–Pedersen proofs need.

Encodings are libsodium's: a point is its 32-byte compressed form, a scalar 32 bytes little-endian.
Every function here is pure. Those that compute refuse bad input with `ValueError` (prover side: the
input is the caller's own); the predicates (`is_valid_point`, `is_canonical_scalar`,
`is_nonzero_scalar`) never raise, whatever they are given, so verifiers can call them on untrusted values
first and never see an exception.
"""

from __future__ import annotations

from collections.abc import Iterable

from nacl import bindings as _nb
from nacl.exceptions import CryptoError as _CryptoError

from engines.memo import Memo

__all__ = [
    "ORDER",
    "POINT_BYTES",
    "SCALAR_BYTES",
    "ONE",
    "BASE",
    "scalar_from_wide",
    "scalar_from_int",
    "is_canonical_scalar",
    "is_nonzero_scalar",
    "is_valid_point",
    "hash_to_point",
    "mul",
    "forget_products",
    "mul_base",
    "add",
    "sub",
    "point_sum",
    "scalar_add",
    "scalar_mul",
    "invert",
]

#: ℓ, the order of the main subgroup (a prime): scalars live modulo ℓ
ORDER = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
#: the scalar 1
ONE = (1).to_bytes(SCALAR_BYTES, "little")
#: the standard base point B of ed25519 (generator of the main subgroup)
BASE = _nb.crypto_scalarmult_ed25519_base_noclamp(ONE)

# what libsodium's wrappers raise for bad input (wrong length: nacl TypeError; refused point: RuntimeError)
_REFUSED = (_CryptoError, TypeError)


def scalar_from_wide(wide: bytes) -> bytes:
    """64 bytes (512 bits, e.g. a SHA-512 output) reduced modulo ℓ: uniform to within 2^-259, where 32
    bytes reduced would be visibly biased. May be zero (probability 2^-252); callers that need a nonzero
    scalar retry (see `replays.deck`)."""
    if type(wide) is not bytes or len(wide) != 64:
        raise ValueError("a wide scalar is 64 bytes")
    return _nb.crypto_core_ed25519_scalar_reduce(wide)


def scalar_from_int(value: int) -> bytes:
    """The canonical encoding of `value mod ℓ` (tests and constants)."""
    return (value % ORDER).to_bytes(SCALAR_BYTES, "little")


def is_canonical_scalar(s: object) -> bool:
    """True for 32 bytes encoding an integer below ℓ (the one encoding of each scalar); never raises.

    Verifiers insist on it so that a proof has exactly one encoding: `s` and `s + ℓ` would otherwise
    both verify, and a replay's bytes would no longer be the only valid ones."""
    return type(s) is bytes and len(s) == SCALAR_BYTES and int.from_bytes(s, "little") < ORDER


def is_nonzero_scalar(s: object) -> bool:
    """A canonical scalar other than 0 (0 would turn every point into the identity); never raises."""
    return is_canonical_scalar(s) and any(s)  # type: ignore[arg-type]


#: points found valid lately: the check costs about half a scalar multiplication, and the same points
#: come back (a deal's value is checked as one strip's output, then as the next strip's input; a deck
#: key at every strip). Validity depends on the bytes alone, so a remembered answer is exact.
_VALID_MAX = 4096
_VALID: Memo[bytes, None] = Memo(_VALID_MAX, "a point's 32 bytes")


def is_valid_point(p: object) -> bool:
    """True for the canonical encoding of a point of the main subgroup other than a small-order point
    (the identity included); never raises. Every point a peer receives goes through this first."""
    if type(p) is not bytes or len(p) != POINT_BYTES:
        return False
    if p in _VALID:
        return True
    try:
        valid = bool(_nb.crypto_core_ed25519_is_valid_point(p))
    except _REFUSED:
        return False
    if valid:
        _VALID.put(p, None)
    return valid


def hash_to_point(digest: bytes) -> bytes:
    """A main-subgroup point from 32 hash bytes (Elligator 2, then the cofactor cleared): a point whose
    discrete logarithm nobody knows, so nobody knows a linear relation between two such points either.
    The deck's card points are made this way."""
    if type(digest) is not bytes or len(digest) != 32:
        raise ValueError("hash_to_point takes 32 bytes")
    point = _nb.crypto_core_ed25519_from_uniform(digest)
    if not _nb.crypto_core_ed25519_is_valid_point(point):  # the identity, e.g. for 32 zero bytes; never a hash
        raise ValueError("these bytes map to the identity, which is no valid point")
    return point


def mul(k: bytes, p: bytes) -> bytes:
    """k·P without clamping (the deck needs exact scalar arithmetic: k⁻¹·(k·P) = P).

    libsodium refuses P when it is not canonical, not in the main subgroup or of small order, and a zero
    result (k = 0 mod ℓ); both are `ValueError` here. k must be below 2^255 (libsodium ignores the top
    bit), which every canonical scalar is."""
    try:
        known = _PRODUCTS.get((k, p))
        if known is not None:
            return known
        return _PRODUCTS.put((k, p), _nb.crypto_scalarmult_ed25519_noclamp(k, p))
    except _REFUSED as exc:   # (TypeError: an unhashable argument too, as libsodium refuses all but bytes)
        raise ValueError(f"scalar multiplication refused: {exc}") from None


def forget_products() -> None:
    """Forget every product remembered so far: a benchmark that times the deck times it cold."""
    _PRODUCTS.clear()


#: (k, P) -> k·P. A shuffle's proof is checked by every other seat, and an opening's check redoes the products
#: its prover made: where several ledgers share a process (an audit of copies side by side, the simulator, the
#: tests) the same product comes up again and again. Only products that succeeded are kept.
#: (At most 16,384 entries of about 250 bytes each: 4 MB.)
_PRODUCTS: Memo[tuple[bytes, bytes], bytes] = Memo(1 << 14, "(scalar, point)")


def mul_base(k: bytes) -> bytes:
    """k·B, about six times faster than `mul(k, BASE)` (precomputed tables); `ValueError` for k = 0."""
    try:
        return _nb.crypto_scalarmult_ed25519_base_noclamp(k)
    except _REFUSED as exc:
        raise ValueError(f"base multiplication refused: {exc}") from None


def add(p: bytes, q: bytes) -> bytes:
    """P + Q; `ValueError` if either is not a point encoding."""
    try:
        return _nb.crypto_core_ed25519_add(p, q)
    except _REFUSED as exc:
        raise ValueError(f"point addition refused: {exc}") from None


def sub(p: bytes, q: bytes) -> bytes:
    """P − Q; `ValueError` if either is not a point encoding."""
    try:
        return _nb.crypto_core_ed25519_sub(p, q)
    except _REFUSED as exc:
        raise ValueError(f"point subtraction refused: {exc}") from None


def point_sum(points: Iterable[bytes]) -> bytes:
    """P1 + P2 + ...; `ValueError` for an empty sum (the identity is no valid point here)."""
    it = iter(points)
    try:
        acc = next(it)
    except StopIteration:
        raise ValueError("the sum of no points is the identity, which is not a valid point") from None
    for p in it:
        acc = add(acc, p)
    return acc


def scalar_add(a: bytes, b: bytes) -> bytes:
    """a + b mod ℓ."""
    return _nb.crypto_core_ed25519_scalar_add(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """a · b mod ℓ."""
    return _nb.crypto_core_ed25519_scalar_mul(a, b)


def invert(k: bytes) -> bytes:
    """k⁻¹ mod ℓ, so that `mul(invert(k), mul(k, P)) == P`; `ValueError` for k = 0 (no inverse)."""
    if not is_nonzero_scalar(k):
        raise ValueError("only a nonzero canonical scalar has an inverse")
    try:
        return _nb.crypto_core_ed25519_scalar_invert(k)
    except _REFUSED as exc:
        raise ValueError(f"scalar inversion refused: {exc}") from None

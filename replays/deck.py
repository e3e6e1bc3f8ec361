"""The arithmetic of the shared secret deck ("mental poker"): pure functions, shared by the live peers and
the audit, so that what a peer accepts and what the audit recomputes cannot differ.

Why: several seats draw from one deck in secret (Catan's development cards) and nobody, not even a
coalition missing one honest seat, may know the order or another seat's card. Commutative encryption on
a prime-order group (docs/protocol.md, "Shared secret deck", spells out the whole arithmetic with a
worked example): every seat multiplies every card by its secret key k and permutes the deck; a card is
dealt to seat d by every other seat removing its layer (multiplying by k⁻¹) with a proof, and d removes
its own layer privately and looks the point up. `replays.curve` holds the group operations; this module
the protocol's pieces. Frame bodies, the order of frames and who is
awaited belong to the ledger, which calls these functions.

Notation. `H`/`HMAC` are `hash_parts`/`hmac_parts` of docs/protocol.md "Hashing and signing"; `H64`/`HMAC64`
the same framing with SHA-512 (`hash64_parts`/`hmac64_parts`); `sc(x)` = x (64 bytes) reduced modulo the
group order ℓ; `B` the base point; points and scalars 32 bytes each (see `replays.curve`).

Card points. Card `i` of epoch (D, e) whose pool (the public composition: a sorted tuple of type
indices, 1..255 cards) says type `t`: `M_i = from_uniform(H("card", session, D, e, i, t))`. Copies of one
type are distinct points (equal points would give equal ciphertexts, which would show where the copies
of a type lie), and nobody knows a discrete logarithm of any of them.

Secrets, all derived from the seat's 32-byte seed (committed in `open`, revealed at the end), so a
restarted peer needs nothing else and the audit recomputes every value:
- key `k = sc(HMAC64(seed, "deck-key", session, seat, D, e))`; public point `P = k·B`;
- permutation `π`: Fisher–Yates over the byte stream `HMAC64(seed, "deck-perm", session, seat, D, e, 0)
  || HMAC64(..., 1) || ...`, read as 4-byte big-endian words: for i = n−1 down to 1, draw j uniform in
  0..i (a word x is rejected while x ≥ 2^32 − 2^32 mod (i+1), else j = x mod (i+1)) and swap π[i], π[j].
  `π[j]` is the input position that goes to output position j;
- proof nonces `w = sc(HMAC64(seed, "dleq-nonce", ctx, G1, X1, G2, X2))` (one per statement, RFC 6979
  style: the same statement gets the same proof, a different one a fresh nonce);
- shuffle shadows (below) `k_s = sc(HMAC64(seed, "shuffle-shadow-key", session, seat, D, e, d, s))` and
  `π_s` = Fisher–Yates over `HMAC64(seed, "shuffle-shadow-perm", session, seat, D, e, d, s, counter)`,
  where `d = H("shuffle-input", input points concatenated)`. They depend on the input on purpose: were a
  seat ever made to prove shuffles of two different inputs with the same shadows, two challenges would
  open one shadow both ways and give away k = (k/k_s)·k_s.
Any scalar that would come out 0 (probability 2^-252) is derived again with a retry counter appended to
the parts (1, 2, ...), so keys and nonces are never 0.

Chaum–Pedersen proof `DLEQ(x; G1, X1, G2, X2; ctx)` that X1 = x·G1 and X2 = x·G2: `T1 = w·G1`,
`T2 = w·G2`, `c = sc(H64("dleq", ctx, G1, X1, G2, X2, T1, T2))`, `s = w + c·x`; proof = `c || s`
(64 bytes). Verified with `c`, `s` canonical and nonzero, every point valid, `T1 = s·G1 − c·X1`,
`T2 = s·G2 − c·X2` and c recomputed. `ctx = H("deck-ctx", session, what, seat, D, e[, position])` binds
a proof to one seat, one deck epoch, one position and one purpose (`what` = "strip", "release",
"spoiled"), so no proof can be replayed for another.

Shuffle. `cards[j] = k·input[π[j]]`, `P = k·B`, and a cut-and-choose proof with t = 64 shadow
shuffles that `cards` is a permutation of `input` multiplied by the discrete logarithm of P:
- shadow s publishes `P_s = k_s·B` and `Z_s[j] = k_s·input[π_s[j]]`;
- the challenge is `h = H64("shuffle-challenge", session, seat, D, e, input concatenated, cards
  concatenated, P, commitment_0, ..., commitment_63)`; bit s is `(h[s // 8] >> (s % 8)) & 1`;
- bit 0 opens `(k_s, π_s)`: the verifier checks `P_s = k_s·B` and `Z_s[j] = k_s·input[π_s[j]]`;
- bit 1 opens `(r, ρ) = (k·k_s⁻¹, π_s⁻¹∘π)`, i.e. `ρ[j] = π_s⁻¹[π[j]]`: the verifier checks
  `P = r·P_s` and `cards[j] = r·Z_s[ρ[j]]`.
Zero knowledge: a bit-0 opening is independent of (k, π); a bit-1 opening is uniform (r is k times a
uniform unknown, ρ is π composed with a uniform unknown permutation); no shadow is opened both ways.

Soundness. If one shadow can be opened both ways, then `P_s = k_s·B`, `Z_s = π_s(k_s·input)`,
`P = r·P_s` and `cards = ρ(r·Z_s)`, hence `cards = (π_s∘ρ)(k'·input)` and `P = k'·B` with k' = r·k_s:
the claim is true, with the very scalar of P (which the strips' proofs use, so a seat cannot shuffle
with one key and strip with another). So when the claim is false each shadow can answer at most one
bit, and the prover must have guessed all 64 bits of a challenge it cannot predict (a hash over the
whole transcript, shadows included): a cheat survives with probability 2^-64 per attempt. An attempt
needs a new transcript, but the cheapest one is not a new proof: the shadows can be re-ordered or drawn
from a larger prepared pool for free, so grinding costs one challenge hash (of ~50 KB) per attempt, 2^63
of them on average, far beyond a player's machine during the frame timeout (and the session, hence the
transcript, is new in every game). Without P_s (as in the research prototype) the proof would only show
`cards = σ(k'·input)` for *some* k', not for P's.

Serialisation (msgpack-friendly: bytes and lists only; one bin per shadow keeps the item count at
2 + 2t = 130 and each bin small):
    proof = [commitments, openings]
    commitments = [P_s || Z_s[0] || ... || Z_s[n-1]  (bin, 32·(n+1) bytes)  for s in 0..63]
    openings    = [scalar || permutation              (bin, 32 + n bytes)     for s in 0..63]
where `scalar` is k_s (bit 0) or r (bit 1), and `permutation` is π_s (bit 0) or ρ (bit 1), one byte per
index (decks have at most 255 cards). 25 cards: 56,896 bytes of bins; 18 cards: 42,112. A shuffle frame
must stay under the transport's 256 KiB frame cap: about 119 cards at most.

Strip, release, spoiled: the same operation, removing one's layer from the value V at a position:
`V' = k⁻¹·V` with `DLEQ(k; B, P, V', V; ctx)` (so V = k·V'), `what` = "strip" for a deal, "release"
for a resigning seat's undealt positions, "spoiled" for a drawer showing that its unmasked point
`M = k⁻¹·V_last` is no card.

Verdicts. A verify function never raises on what it is given: it returns None when everything holds,
else a `DeckFault(rule, reason)`, the rule being what a dispute reports ("frame format", "shuffle
points", "equal cards", "shuffle proof", "strip proof", "release proof", "spoiled proof", "spoiled
card"; the audit adds "deck key", "shuffle recomputation", "strip recomputation", "release
recomputation", "spoiled recomputation"). The prover-side functions take the caller's own values and
raise `ValueError` for impossible input.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, cast, overload

from replays.crypto import hash64_parts, hash_parts, hmac64_parts
from replays.curve import (
    BASE,
    POINT_BYTES,
    SCALAR_BYTES,
    hash_to_point,
    invert,
    is_nonzero_scalar,
    is_valid_point,
    mul,
    mul_base,
    scalar_add,
    scalar_from_wide,
    scalar_mul,
    sub,
)
from replays.parallel import pmap

__all__ = [
    "SHUFFLE_ROUNDS",
    "MAX_CARDS",
    "SEED_BYTES",
    "PROOF_BYTES",
    "RULE_FORMAT",
    "RULE_SHUFFLE_POINTS",
    "RULE_EQUAL_CARDS",
    "RULE_SHUFFLE_PROOF",
    "RULE_STRIP_PROOF",
    "RULE_RELEASE_PROOF",
    "RULE_SPOILED_PROOF",
    "RULE_SPOILED_CARD",
    "RULE_REVEAL_PROOF",
    "RULE_DECK_KEY",
    "RULE_SHUFFLE",
    "RULE_STRIP",
    "RULE_RELEASE",
    "RULE_SPOILED",
    "DeckFault",
    "ShuffleProof",
    "Shuffle",
    "LayerOff",
    "Release",
    "Drawn",
    "card_point",
    "card_points",
    "card_table",
    "deck_key",
    "deck_public",
    "deck_permutation",
    "deck_context",
    "dleq_prove",
    "dleq_verify",
    "shuffle",
    "shuffled",
    "check_shuffle",
    "strip",
    "check_strip",
    "release",
    "check_release",
    "unmask",
    "draw",
    "spoil",
    "check_spoiled",
    "reveal",
    "check_reveal",
    "audit_shuffle",
    "audit_strip",
    "audit_release",
    "audit_spoiled",
]

#: t, the number of shadow shuffles of a shuffle proof (a cheat survives with probability 2^-t)
SHUFFLE_ROUNDS = 64
#: the largest deck: a permutation is written one byte per index
MAX_CARDS = 255
SEED_BYTES = 32
#: a Chaum–Pedersen proof: c || s
PROOF_BYTES = 2 * SCALAR_BYTES

RULE_FORMAT = "frame format"
RULE_SHUFFLE_POINTS = "shuffle points"
RULE_EQUAL_CARDS = "equal cards"
RULE_SHUFFLE_PROOF = "shuffle proof"
RULE_STRIP_PROOF = "strip proof"
RULE_RELEASE_PROOF = "release proof"
RULE_SPOILED_PROOF = "spoiled proof"
RULE_SPOILED_CARD = "spoiled card"
RULE_REVEAL_PROOF = "reveal proof"
RULE_DECK_KEY = "deck key"
RULE_SHUFFLE = "shuffle recomputation"
RULE_STRIP = "strip recomputation"
RULE_RELEASE = "release recomputation"
RULE_SPOILED = "spoiled recomputation"

_MAX_TYPE = 1 << 64  # a type index is hashed as 8 bytes


@dataclass(frozen=True, slots=True)
class DeckFault:
    """Why a deck value was refused: `rule` names the protocol rule (what a dispute reports), `reason`
    says in words what was wrong, e.g. which position or which shadow."""

    rule: str
    reason: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.reason}"


# ----------------------------------------------------------------------------------------- cards


def card_point(session: bytes, deck: str, epoch: int, index: int, card_type: int) -> bytes:
    """Card `index` of epoch (deck, epoch), of type `card_type`: a point nobody knows a logarithm of."""
    return hash_to_point(hash_parts("card", session, deck, epoch, index, card_type))


def _pool(pool: Sequence[int]) -> tuple[int, ...]:
    """The pool as a tuple, checked: 1..MAX_CARDS type indices, sorted (the public composition has one
    order, so every peer builds the same card list)."""
    types = tuple(pool)
    if not 1 <= len(types) <= MAX_CARDS:
        raise ValueError(f"a pool holds 1..{MAX_CARDS} cards, not {len(types)}")
    if any(type(t) is not int or not 0 <= t < _MAX_TYPE for t in types):
        raise ValueError("card types are integers in 0..2^64-1")
    if any(a > b for a, b in zip(types, types[1:], strict=False)):
        raise ValueError("a pool is sorted")
    return types


@lru_cache(maxsize=16)
def _points(session: bytes, deck: str, epoch: int, pool: tuple[int, ...]) -> tuple[bytes, ...]:
    return tuple(card_point(session, deck, epoch, i, t) for i, t in enumerate(pool))


@lru_cache(maxsize=16)
def _table(session: bytes, deck: str, epoch: int, pool: tuple[int, ...]) -> Mapping[bytes, tuple[int, int]]:
    table = {p: (i, t) for i, (p, t) in enumerate(zip(_points(session, deck, epoch, pool), pool, strict=True))}
    if len(table) != len(pool):  # two card points equal: a hash collision, never seen in practice
        raise ValueError("two card points coincide")
    return MappingProxyType(table)


def card_points(session: bytes, deck: str, epoch: int, pool: Sequence[int]) -> tuple[bytes, ...]:
    """The epoch's plain deck, by pool index: the first shuffler's input. Cached (a few decks)."""
    return _points(session, deck, epoch, _pool(pool))


def card_table(session: bytes, deck: str, epoch: int, pool: Sequence[int]) -> Mapping[bytes, tuple[int, int]]:
    """Read-only map card point -> (pool index, type): how a drawer recognises its unmasked card."""
    return _table(session, deck, epoch, _pool(pool))


# ----------------------------------------------------------------------------------------- derived secrets


def _check_seed(seed: bytes) -> None:
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")


def _secret_scalar(seed: bytes, domain: str, *parts: bytes | str | int) -> bytes:
    """sc(HMAC64(seed, domain, parts)), never 0: a zero result is derived again with 1, 2, ... appended."""
    _check_seed(seed)
    k = scalar_from_wide(hmac64_parts(seed, domain, *parts))
    retry = 0
    while not any(k):
        retry += 1
        k = scalar_from_wide(hmac64_parts(seed, domain, *parts, retry))
    return k


def _stream(seed: bytes, domain: str, *parts: bytes | str | int) -> Iterator[int]:
    """4-byte big-endian words of HMAC64(seed, domain, parts, 0) || HMAC64(..., 1) || ..."""
    _check_seed(seed)
    counter = 0
    while True:
        block = hmac64_parts(seed, domain, *parts, counter)
        counter += 1
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i:i + 4], "big")


def _fisher_yates(words: Iterator[int], n: int) -> tuple[int, ...]:
    """A uniform permutation of 0..n-1 from uniform 32-bit words (rejection sampling: no modulo bias)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = (1 << 32) - (1 << 32) % m
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % m
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def deck_key(seed: bytes, session: bytes, seat: int, deck: str, epoch: int) -> bytes:
    """The seat's key k for the deck epoch (nonzero)."""
    return _secret_scalar(seed, "deck-key", session, seat, deck, epoch)


def deck_public(seed: bytes, session: bytes, seat: int, deck: str, epoch: int) -> bytes:
    """P = k·B, published in the seat's shuffle frame; every proof of the seat's layer refers to it."""
    return mul_base(deck_key(seed, session, seat, deck, epoch))


def deck_permutation(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, n: int) -> tuple[int, ...]:
    """The seat's permutation π of an n-card epoch: output position j takes input position π[j]."""
    if not 1 <= n <= MAX_CARDS:
        raise ValueError(f"a deck holds 1..{MAX_CARDS} cards")
    return _fisher_yates(_stream(seed, "deck-perm", session, seat, deck, epoch), n)


def deck_context(session: bytes, what: str, seat: int, deck: str, epoch: int, position: int | None = None) -> bytes:
    """ctx = H("deck-ctx", session, what, seat, deck, epoch[, position]): what a proof is for."""
    parts: list[bytes | str | int] = [session, what, seat, deck, epoch]
    if position is not None:
        parts.append(position)
    return hash_parts("deck-ctx", *parts)


# ----------------------------------------------------------------------------------------- Chaum–Pedersen


def _mul_any(k: bytes, g: bytes) -> bytes:
    return mul_base(k) if g == BASE else mul(k, g)


def dleq_prove(seed: bytes, x: bytes, g1: bytes, x1: bytes, g2: bytes, x2: bytes, ctx: bytes) -> bytes:
    """Proof (c || s, 64 bytes) that X1 = x·G1 and X2 = x·G2, bound to ctx; the nonce comes from the seed
    and the statement, so the audit recomputes the proof byte for byte. It does not check the statement:
    a false one simply gives a proof that does not verify."""
    w = _secret_scalar(seed, "dleq-nonce", ctx, g1, x1, g2, x2)
    t1 = _mul_any(w, g1)
    t2 = mul(w, g2)
    c = scalar_from_wide(hash64_parts("dleq", ctx, g1, x1, g2, x2, t1, t2))
    return c + scalar_add(w, scalar_mul(c, x))


def dleq_verify(g1: object, x1: object, g2: object, x2: object, proof: object, ctx: bytes) -> bool:
    """True when `proof` shows log_G1 X1 = log_G2 X2 under ctx; False for anything else, garbage
    included (wrong types or lengths, invalid points, non-canonical or zero scalars); never raises."""
    if type(proof) is not bytes or len(proof) != PROOF_BYTES:
        return False
    c, s = proof[:SCALAR_BYTES], proof[SCALAR_BYTES:]
    if not (is_nonzero_scalar(c) and is_nonzero_scalar(s)):
        return False
    if not all(type(p) is bytes and len(p) == POINT_BYTES for p in (g1, x1, g2, x2)):
        return False
    try:
        # s·G − c·X = w·G exactly when s = w + c·x. `mul` refuses (ValueError) every point that is not
        # valid, which is every check the points need: G1 is either B or goes through `mul` too
        t1 = sub(_mul_any(s, g1), mul(c, x1))  # type: ignore[arg-type]
        t2 = sub(mul(s, g2), mul(c, x2))  # type: ignore[arg-type]
    except ValueError:
        return False
    return hmac.compare_digest(c, scalar_from_wide(hash64_parts("dleq", ctx, g1, x1, g2, x2, t1, t2)))  # type: ignore[arg-type]  # (bytes: checked above)


# ----------------------------------------------------------------------------------------- shuffle


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """The cut-and-choose proof of a shuffle: per shadow s, its commitment `P_s || Z_s[0] || ... ||
    Z_s[n-1]` and its opening `scalar || permutation` (one byte per index). See the module docstring."""

    commitments: tuple[bytes, ...]
    openings: tuple[bytes, ...]

    def to_wire(self) -> list[list[bytes]]:
        """[commitments, openings]: two lists of SHUFFLE_ROUNDS bins, the proof's only encoding."""
        return [list(self.commitments), list(self.openings)]

    @classmethod
    def from_wire(cls, value: object, n: int) -> ShuffleProof | DeckFault:
        """The proof of an n-card shuffle from its wire form (lists or tuples, as the codec decodes
        them); a DeckFault("frame format") for any other shape. Never raises."""
        if type(value) not in (list, tuple) or len(value) != 2:  # type: ignore[arg-type]
            return DeckFault(RULE_FORMAT, "a shuffle proof is [commitments, openings]")
        commitments, openings = cast("tuple[Any, ...]", value)
        for name, items, size in (("commitments", commitments, POINT_BYTES * (n + 1)),
                                  ("openings", openings, SCALAR_BYTES + n)):
            if type(items) not in (list, tuple) or len(items) != SHUFFLE_ROUNDS:
                return DeckFault(RULE_FORMAT, f"a shuffle proof holds {SHUFFLE_ROUNDS} {name}")
            for s, item in enumerate(items):
                if type(item) is not bytes or len(item) != size:
                    return DeckFault(RULE_FORMAT, f"shuffle proof {name}[{s}] is not {size} bytes")
        return cls(tuple(commitments), tuple(openings))


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One seat's shuffle of a deck epoch: its public point P = k·B, the output cards (cards[j] =
    k·input[π[j]]) and the proof that ties the two to the input."""

    public: bytes
    cards: tuple[bytes, ...]
    proof: ShuffleProof


def _input_digest(points: Sequence[bytes]) -> bytes:
    return hash_parts("shuffle-input", b"".join(points))


def _shadow(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, digest: bytes, s: int,
            n: int) -> tuple[bytes, tuple[int, ...]]:
    """Shadow s's secrets (k_s, π_s), derived from the seed and the input's digest."""
    key = _secret_scalar(seed, "shuffle-shadow-key", session, seat, deck, epoch, digest, s)
    perm = _fisher_yates(_stream(seed, "shuffle-shadow-perm", session, seat, deck, epoch, digest, s), n)
    return key, perm


def _challenge(session: bytes, seat: int, deck: str, epoch: int, inp: Sequence[bytes], out: Sequence[bytes],
               public: bytes, commitments: Sequence[bytes]) -> list[int]:
    """The t challenge bits: a hash over the whole statement and every shadow, so no shadow can be
    chosen after its bit is known."""
    h = hash64_parts("shuffle-challenge", session, seat, deck, epoch, b"".join(inp), b"".join(out), public,
                     *commitments)
    return [(h[s // 8] >> (s % 8)) & 1 for s in range(SHUFFLE_ROUNDS)]


def _prove_shuffle(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, inp: Sequence[bytes],
                   out: Sequence[bytes], public: bytes, key: bytes, perm: Sequence[int]) -> ShuffleProof:
    """The cut-and-choose proof for `out = perm(key·inp)`, `public = key·B`. Separate from `shuffle` so
    that tests can build proofs of false statements (a cheat) with the honest machinery."""
    n = len(inp)
    digest = _input_digest(inp)
    secrets = [_shadow(seed, session, seat, deck, epoch, digest, s, n) for s in range(SHUFFLE_ROUNDS)]
    # the shadows' scalar multiplications are independent: on every core (libsodium releases the GIL)
    commitments = pmap(lambda secret: mul_base(secret[0]) + b"".join(mul(secret[0], inp[j]) for j in secret[1]),
                       secrets)
    bits = _challenge(session, seat, deck, epoch, inp, out, public, commitments)
    openings = []
    for (k_s, pi_s), bit in zip(secrets, bits, strict=True):
        if bit == 0:
            openings.append(k_s + bytes(pi_s))
        else:
            where = [0] * n  # π_s⁻¹
            for j, src in enumerate(pi_s):
                where[src] = j
            rho = bytes(where[perm[j]] for j in range(n))
            openings.append(scalar_mul(key, invert(k_s)) + rho)
    return ShuffleProof(tuple(commitments), tuple(openings))


def shuffled(seed: bytes, session: bytes, seat: int, deck: str, epoch: int,
             inp: Sequence[bytes]) -> tuple[bytes, tuple[bytes, ...]]:
    """(P, cards) of the seat's shuffle of `inp` without the proof: what the audit compares a shuffle
    frame with once the seed is revealed (the proof was verified when the frame arrived)."""
    key = deck_key(seed, session, seat, deck, epoch)
    perm = deck_permutation(seed, session, seat, deck, epoch, len(inp))
    return mul_base(key), tuple(pmap(lambda j: mul(key, inp[j]), perm, min_items=8))


def shuffle(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, inp: Sequence[bytes]) -> Shuffle:
    """The seat's shuffle of `inp` (the plain cards for the first shuffler, else the previous shuffle's
    output) with its seed's key and permutation, and the proof. Deterministic: the audit calls this with
    the revealed seed and must get the frame's values byte for byte."""
    n = len(inp)
    if not 1 <= n <= MAX_CARDS:
        raise ValueError(f"a deck holds 1..{MAX_CARDS} cards")
    key = deck_key(seed, session, seat, deck, epoch)
    perm = deck_permutation(seed, session, seat, deck, epoch, n)
    out = tuple(pmap(lambda j: mul(key, inp[j]), perm, min_items=8))
    public = mul_base(key)
    return Shuffle(public, out, _prove_shuffle(seed, session, seat, deck, epoch, inp, out, public, key, perm))


def _is_permutation(perm: bytes, n: int) -> bool:
    return len(perm) == n and sorted(perm) == list(range(n))


def _check_opening(bit: int, commitment: bytes, opening: bytes, inp: Sequence[bytes], out: Sequence[bytes],
                   public: bytes) -> str | None:
    """Why one shadow's opening fails (None if it holds) for its challenge bit."""
    n = len(inp)
    scalar, perm = opening[:SCALAR_BYTES], opening[SCALAR_BYTES:]
    if not is_nonzero_scalar(scalar):
        return "the opened scalar is not a canonical nonzero scalar"
    if not _is_permutation(perm, n):
        return "the opened permutation is not a permutation"
    p_s = commitment[:POINT_BYTES]
    z = [commitment[POINT_BYTES * (j + 1):POINT_BYTES * (j + 2)] for j in range(n)]
    try:
        if bit == 0:
            if mul_base(scalar) != p_s:
                return "P_s is not k_s·B"
            for j in range(n):
                if mul(scalar, inp[perm[j]]) != z[j]:
                    return f"shadow card {j} is not k_s·input[{perm[j]}]"
        else:
            if mul(scalar, p_s) != public:
                return "P is not r·P_s"
            for j in range(n):
                if mul(scalar, z[perm[j]]) != out[j]:
                    return f"card {j} is not r·shadow card {perm[j]}"
    except ValueError:  # `mul` refuses a shadow point that is not valid: that shadow cannot be opened
        return "a shadow point is not a valid point"
    return None


def _shape(points: object, n: int | None, what: str) -> DeckFault | None:
    """A list/tuple of n (any count in 1..MAX_CARDS if None) 32-byte values."""
    if type(points) not in (list, tuple):
        return DeckFault(RULE_FORMAT, f"{what} is not a list")
    count = len(points)  # type: ignore[arg-type]
    if n is None and not 1 <= count <= MAX_CARDS:
        return DeckFault(RULE_FORMAT, f"{what} holds {count} cards, not 1..{MAX_CARDS}")
    if n is not None and count != n:
        return DeckFault(RULE_FORMAT, f"{what} holds {count} cards, not {n}")
    for j, p in enumerate(points):  # type: ignore[arg-type, var-annotated]
        if type(p) is not bytes or len(p) != POINT_BYTES:
            return DeckFault(RULE_FORMAT, f"{what}[{j}] is not {POINT_BYTES} bytes")
    return None


def check_shuffle(session: bytes, seat: int, deck: str, epoch: int, inp: Sequence[bytes], public: object,
                  cards: object, proof: object) -> DeckFault | None:
    """None when `cards` is `inp` permuted and multiplied by the logarithm of `public`, as proven; else
    the first failure, in this order: shape and lengths ("frame format"), a point that is not valid
    ("shuffle points"), two equal cards ("equal cards"), the proof ("shuffle proof"). `proof` is the
    wire form (or a ShuffleProof). Never raises. Costs about t·(n+1) scalar multiplications."""
    if (fault := _shape(inp, None, "the input")) is not None:
        return fault
    n = len(inp)
    if (fault := _shape(cards, n, "the cards")) is not None:
        return fault
    if type(public) is not bytes or len(public) != POINT_BYTES:
        return DeckFault(RULE_FORMAT, f"P is not {POINT_BYTES} bytes")
    parsed = ShuffleProof.from_wire(proof.to_wire() if isinstance(proof, ShuffleProof) else proof, n)
    if isinstance(parsed, DeckFault):
        return parsed
    out: tuple[bytes, ...] = tuple(cards)  # type: ignore[arg-type]
    if not is_valid_point(public):
        return DeckFault(RULE_SHUFFLE_POINTS, "P is not a valid point")
    for what, points in (("input", inp), ("card", out)):
        for j, p in enumerate(points):
            if not is_valid_point(p):
                return DeckFault(RULE_SHUFFLE_POINTS, f"{what} {j} is not a valid point")
    if len(set(out)) != n:
        first = next(j for j, p in enumerate(out) if out.index(p) != j)
        return DeckFault(RULE_EQUAL_CARDS, f"card {first} equals card {out.index(out[first])}")
    bits = _challenge(session, seat, deck, epoch, inp, out, public, parsed.commitments)
    # the shadows are checked independently, on every core; the first failing one (in order) is reported
    whys = pmap(lambda s: _check_opening(bits[s], parsed.commitments[s], parsed.openings[s], inp, out, public),
                range(SHUFFLE_ROUNDS))
    for s, why in enumerate(whys):
        if why is not None:
            return DeckFault(RULE_SHUFFLE_PROOF, f"shadow {s} (challenge bit {bits[s]}): {why}")
    return None


# ----------------------------------------------------------------------------------------- strip, release, spoiled


@dataclass(frozen=True, slots=True)
class LayerOff:
    """A value with one seat's layer removed, V' = k⁻¹·V, and the proof DLEQ(k; B, P, V', V) that it is
    exactly that (a strip, one position of a release, or a spoiled claim's unmasked point)."""

    value: bytes
    proof: bytes


@lru_cache(maxsize=8)
def _layer_key(seed: bytes, session: bytes, seat: int, deck: str, epoch: int) -> tuple[bytes, bytes, bytes]:
    """(k, k⁻¹, P) of the seat's layer on a deck epoch: the same for every strip and release of the epoch,
    so computed once (the inversion and P = k·B were a sixth of each strip's build)."""
    key = deck_key(seed, session, seat, deck, epoch)
    return key, invert(key), mul_base(key)


def _layer_off(seed: bytes, session: bytes, what: str, seat: int, deck: str, epoch: int, position: int,
               value: bytes) -> LayerOff:
    _check_seed(seed)   # (before the cache: a bad seed is refused, never remembered)
    key, inverse, public = _layer_key(seed, session, seat, deck, epoch)
    lower = mul(inverse, value)
    ctx = deck_context(session, what, seat, deck, epoch, position)
    return LayerOff(lower, dleq_prove(seed, key, BASE, public, lower, value, ctx))


def _check_layer_off(session: bytes, what: str, seat: int, deck: str, epoch: int, position: int,
                     public: object, value_in: object, value_out: object, proof: object) -> str | None:
    """Why a layer removal fails (None if it holds); shape problems start with "format: "."""
    if type(value_out) is not bytes or len(value_out) != POINT_BYTES:
        return f"format: the value is not {POINT_BYTES} bytes"
    if type(proof) is not bytes or len(proof) != PROOF_BYTES:
        return f"format: the proof is not {PROOF_BYTES} bytes"
    ctx = deck_context(session, what, seat, deck, epoch, position)
    # the proof first: its multiplications refuse every invalid point (libsodium checks each one it
    # multiplies, exactly as `is_valid_point` does), so a proof that holds needs no point checks of its
    # own; only a refused one is looked at again, to say which of its parts is wrong
    if dleq_verify(BASE, public, value_out, value_in, proof, ctx):
        return None
    if not is_valid_point(value_out):
        return "the value is not a valid point"
    if not is_valid_point(value_in) or not is_valid_point(public):
        return "the value it is taken from or the seat's P is not a valid point"
    return "the proof does not show value = k⁻¹·V for the k of the seat's P"


@overload
def _fault(rule: str, why: str, where: str) -> DeckFault: ...
@overload
def _fault(rule: str, why: None, where: str) -> None: ...
@overload
def _fault(rule: str, why: str | None, where: str) -> DeckFault | None: ...
def _fault(rule: str, why: str | None, where: str) -> DeckFault | None:
    if why is None:
        return None
    if why.startswith("format: "):
        return DeckFault(RULE_FORMAT, f"{where}: {why.removeprefix('format: ')}")
    return DeckFault(rule, f"{where}: {why}")


def strip(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value: bytes) -> LayerOff:
    """The seat's strip of the card at `position`, whose current value is `value` (V_0 = the deck's card,
    then the previous strip's value): V' = k⁻¹·V with its proof."""
    return _layer_off(seed, session, "strip", seat, deck, epoch, position, value)


def check_strip(session: bytes, seat: int, deck: str, epoch: int, position: int, public: object,
                value_in: object, value_out: object, proof: object) -> DeckFault | None:
    """None when value_out = k⁻¹·value_in for the k of `public` (the seat's P for this epoch), proven for
    this seat, deck epoch and position; else "frame format" or "strip proof". Never raises."""
    why = _check_layer_off(session, "strip", seat, deck, epoch, position, public, value_in, value_out, proof)
    return _fault(RULE_STRIP_PROOF, why, f"position {position}")


@dataclass(frozen=True, slots=True)
class Release:
    """A resigning seat's layer removed from every undealt position of one deck epoch, so nobody waits
    for it later: values[i] = k⁻¹·C[first + i], each with its proof (what = "release")."""

    deck: str
    epoch: int
    first: int
    values: tuple[bytes, ...]
    proofs: tuple[bytes, ...]

    def to_wire(self) -> list[object]:
        """[deck, epoch, first, [V'...], [proof...]]."""
        return [self.deck, self.epoch, self.first, list(self.values), list(self.proofs)]

    @classmethod
    def from_wire(cls, value: object) -> Release | DeckFault:
        """A release entry from its wire form; DeckFault("frame format") for any other shape (the values'
        points and the proofs are checked by `check_release`). Never raises."""
        if type(value) not in (list, tuple) or len(value) != 5:  # type: ignore[arg-type]
            return DeckFault(RULE_FORMAT, "a release is [deck, epoch, first, values, proofs]")
        deck, epoch, first, values, proofs = cast("tuple[Any, ...]", value)
        if type(deck) is not str or type(epoch) is not int or type(first) is not int or epoch < 0 or first < 0:
            return DeckFault(RULE_FORMAT, "a release names its deck (str), epoch and first position (ints >= 0)")
        if type(values) not in (list, tuple) or type(proofs) not in (list, tuple) or len(values) != len(proofs):
            return DeckFault(RULE_FORMAT, "a release has as many proofs as values")
        if not 1 <= len(values) <= MAX_CARDS:
            return DeckFault(RULE_FORMAT, f"a release holds 1..{MAX_CARDS} values")
        for i, (v, p) in enumerate(zip(values, proofs, strict=True)):
            if type(v) is not bytes or len(v) != POINT_BYTES or type(p) is not bytes or len(p) != PROOF_BYTES:
                return DeckFault(RULE_FORMAT, f"release value/proof {i} is not {POINT_BYTES}/{PROOF_BYTES} bytes")
        return cls(deck, epoch, first, tuple(values), tuple(proofs))


def release(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, first: int,
            undealt: Sequence[bytes]) -> Release:
    """The seat's release of deck epoch: `undealt` are the current values of positions first, first+1,
    ... (the next position to deal up to the end)."""
    if not undealt:
        raise ValueError("a release covers at least one undealt position")
    parts = [_layer_off(seed, session, "release", seat, deck, epoch, first + i, v) for i, v in enumerate(undealt)]
    return Release(deck, epoch, first, tuple(p.value for p in parts), tuple(p.proof for p in parts))


def check_release(session: bytes, seat: int, public: object, entry: Release,
                  undealt: Sequence[bytes]) -> DeckFault | None:
    """None when every value of `entry` is its position's current value with the seat's layer removed,
    proven; `undealt` are the current values from position entry.first on (the caller has checked that
    entry.deck/epoch is a live deck the seat has a layer on and that entry.first is its next position to
    deal). "frame format" for a count mismatch, else "release proof" naming the first bad position."""
    if len(entry.values) != len(undealt) or len(entry.proofs) != len(undealt):
        return DeckFault(RULE_FORMAT, f"the release holds {len(entry.values)} values for {len(undealt)} undealt "
                                      "positions")
    for i, (v_in, v_out, proof) in enumerate(zip(undealt, entry.values, entry.proofs, strict=True)):
        position = entry.first + i
        why = _check_layer_off(session, "release", seat, entry.deck, entry.epoch, position, public, v_in, v_out,
                               proof)
        if why is not None:
            return _fault(RULE_RELEASE_PROOF, why, f"position {position}")
    return None


@dataclass(frozen=True, slots=True)
class Drawn:
    """The drawer's view of its card: the unmasked point and, if it is a card, (pool index, type)."""

    point: bytes
    card: tuple[int, int] | None


def unmask(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, value: bytes) -> bytes:
    """M = k⁻¹·V_last: the drawer removes its own layer (privately: nothing of it is sent)."""
    return mul(invert(deck_key(seed, session, seat, deck, epoch)), value)


def draw(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, value: bytes,
         table: Mapping[bytes, tuple[int, int]]) -> Drawn:
    """Unmask the last value of a dealt position and look it up in the epoch's card table; card None means
    the point is no card (someone cheated): the drawer then sends `spoil`'s claim."""
    point = unmask(seed, session, seat, deck, epoch, value)
    return Drawn(point, table.get(point))


def spoil(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value: bytes) -> LayerOff:
    """The drawer's claim that its dealt point is no card: M = k⁻¹·V_last and DLEQ(k; B, P, M, V_last)
    (what = "spoiled"), so everyone can see M and that it really is what the drawer unmasked."""
    return _layer_off(seed, session, "spoiled", seat, deck, epoch, position, value)


def reveal(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value: bytes) -> LayerOff:
    """A card the seat was dealt, shown when it plays it: M = k⁻¹·V_last with DLEQ(k; B, P, M, V_last)
    (what = "reveal"), so everyone checks at once that M is the card dealt to it at `position`."""
    return _layer_off(seed, session, "reveal", seat, deck, epoch, position, value)


def check_reveal(session: bytes, seat: int, deck: str, epoch: int, position: int, public: object, value: object,
                 point: object, proof: object, table: Mapping[bytes, tuple[int, int]]) -> DeckFault | int:
    """The type of the card shown, when `point` is the seat's unmasking of the position's last value,
    proven, and a card of the epoch; else "reveal proof" (or "frame format"). Never raises."""
    why = _check_layer_off(session, "reveal", seat, deck, epoch, position, public, value, point, proof)
    if why is not None:
        return _fault(RULE_REVEAL_PROOF, why, f"position {position}")
    card = table.get(point)  # type: ignore[call-overload]
    if card is None:
        return DeckFault(RULE_REVEAL_PROOF, f"position {position}: the shown point is no card of the deck")
    return card[1]


def check_spoiled(session: bytes, seat: int, deck: str, epoch: int, position: int, public: object, value: object,
                  point: object, proof: object, table: Mapping[bytes, tuple[int, int]]) -> DeckFault | None:
    """None when the claim stands: `point` is the drawer's unmasking of `value` (the position's last
    value), proven, and no card of the epoch. "spoiled proof" for a bad proof, "spoiled card" when the
    point is a card after all (a false claim). Never raises."""
    why = _check_layer_off(session, "spoiled", seat, deck, epoch, position, public, value, point, proof)
    if why is not None:
        return _fault(RULE_SPOILED_PROOF, why, f"position {position}")
    card = table.get(point)  # type: ignore[call-overload]
    if card is not None:
        return DeckFault(RULE_SPOILED_CARD, f"position {position}: the unmasked point is card {card[0]} "
                                            f"(type {card[1]})")
    return None


# ----------------------------------------------------------------------------------------- audit


def audit_shuffle(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, inp: Sequence[bytes],
                  public: object, cards: object, proof: object = None) -> DeckFault | None:
    """After the seed is revealed: None when the shuffle frame's values are exactly what the seed gives
    for this input; else the first mismatch: P ("deck key"), a card or the proof ("shuffle
    recomputation", naming the position or the shadow). `proof` None skips the proof (it costs a whole
    proof build). The seed must already match the seat's commitment."""
    expected = shuffle(seed, session, seat, deck, epoch, inp)
    if public != expected.public:
        return DeckFault(RULE_DECK_KEY, "P is not k·B for the key the seed derives")
    if type(cards) not in (list, tuple) or len(cards) != len(expected.cards):  # type: ignore[arg-type]
        return DeckFault(RULE_SHUFFLE, f"the frame holds another number of cards than {len(expected.cards)}")
    for j, (got, want) in enumerate(zip(cards, expected.cards, strict=True)):  # type: ignore[call-overload]
        if got != want:
            return DeckFault(RULE_SHUFFLE, f"card {j} is not k·input[π[{j}]] for the seed's k and π")
    if proof is None:
        return None
    wire = proof.to_wire() if isinstance(proof, ShuffleProof) else proof
    want_wire = expected.proof.to_wire()
    if type(wire) not in (list, tuple) or len(wire) != 2:  # type: ignore[arg-type]
        return DeckFault(RULE_SHUFFLE, "the proof is not [commitments, openings]")
    for name, got_list, want_list in (("commitment", wire[0], want_wire[0]),  # type: ignore[index]
                                      ("opening", wire[1], want_wire[1])):  # type: ignore[index]
        if type(got_list) not in (list, tuple) or len(got_list) != len(want_list):
            return DeckFault(RULE_SHUFFLE, f"the proof's {name}s are not the seed's")
        for s, (got, want) in enumerate(zip(got_list, want_list, strict=True)):
            if got != want:
                return DeckFault(RULE_SHUFFLE, f"the proof's {name} of shadow {s} is not the seed's")
    return None


def _audit_layer_off(rule: str, what: str, seed: bytes, session: bytes, seat: int, deck: str, epoch: int,
                     position: int, value_in: bytes, value_out: object, proof: object) -> DeckFault | None:
    expected = _layer_off(seed, session, what, seat, deck, epoch, position, value_in)
    if value_out != expected.value:
        return DeckFault(rule, f"position {position}: the value is not k⁻¹·V for the key the seed derives")
    if proof is not None and proof != expected.proof:
        return DeckFault(rule, f"position {position}: the proof is not the one the seed derives")
    return None


def audit_strip(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value_in: bytes,
                value_out: object, proof: object = None) -> DeckFault | None:
    """After the seed is revealed: None when a strip frame's value (and proof, unless None) is exactly the
    seed's; else "strip recomputation"."""
    return _audit_layer_off(RULE_STRIP, "strip", seed, session, seat, deck, epoch, position, value_in, value_out,
                            proof)


def audit_release(seed: bytes, session: bytes, seat: int, entry: Release, undealt: Sequence[bytes],
                  proofs: bool = True) -> DeckFault | None:
    """After the seed is revealed: None when every value (and proof, if `proofs`) of a release entry is the
    seed's; else "release recomputation" naming the first bad position."""
    if len(entry.values) != len(undealt):
        return DeckFault(RULE_RELEASE, f"the release holds {len(entry.values)} values for {len(undealt)} "
                                       "undealt positions")
    for i, (v_in, v_out, proof) in enumerate(zip(undealt, entry.values, entry.proofs, strict=True)):
        fault = _audit_layer_off(RULE_RELEASE, "release", seed, session, seat, entry.deck, entry.epoch,
                                 entry.first + i, v_in, v_out, proof if proofs else None)
        if fault is not None:
            return fault
    return None


def audit_spoiled(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value: bytes,
                  point: object, proof: object = None) -> DeckFault | None:
    """After the seed is revealed: None when a spoiled claim's point (and proof, unless None) is exactly
    the seed's unmasking of the position's last value; else "spoiled recomputation"."""
    return _audit_layer_off(RULE_SPOILED, "spoiled", seed, session, seat, deck, epoch, position, value, point,
                            proof)

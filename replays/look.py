"""A seat's undisclosed dealt cards shown to one other seat only (a spy's look at a hand), without any
private channel: the arithmetic, shared by the live peers and the audit. The frames are the ledger's
kinds `peek` and `show` and the `seen` attachment of `act`.

Why this shape. The source seat s holds, for every card dealt to it and not shown since, the public
value `V = k_s·M` left on the chain after the other seats' strips (M the card's point, k_s its deck key
for that epoch). To let the looker p, and nobody else, learn M:
1. `peek` (by p): a fresh look key `j = sc(HMAC64(seed_p, "look-key", session, p, index))` (index = the
   chance index of the look), `J = j·B`, and per position `Z = j·V` with `DLEQ(j; B, J, V, Z)`;
2. `show` (by s): per position `W = k_s⁻¹·Z` (= j·M) with `DLEQ(k_s; B, P_s, W, Z)`;
3. p computes `M = j⁻¹·W` privately and looks it up in the epoch's card table.
Every value is proven in public, so a lying seat is named at once by every peer: there is nothing only
the looker could check (an encrypted message would leave an honest looker's complaint unprovable).
Nobody but p learns M: telling `W = j·M` apart from `j·M'` for a candidate card M' given `J = j·B` is
the decisional Diffie–Hellman problem on edwards25519's prime-order group. j is used for this look only
(not p's deck key), so no other value on the chain is related to it.
4. When p takes one of the cards it saw, its `act` carries `["seen", deck, epoch, position, M, proof]`
   with `M = j⁻¹·W` and `DLEQ(j; B, J, M, W)`: every peer sees that the taken card is the one dealt to
   s at that position, and the position counts as shown.

Contexts: `ctx = H("deck-ctx", session, what, seat, D, e, position)` with what = "peek" (p), "show" (s)
or "seen" (p), as for the deck's other proofs (replays.deck). Verdicts follow replays.deck: a check
returns None or a `DeckFault`, never raises; the audit recomputes j, J, Z and W from the seeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from replays.crypto import hmac64_parts
from replays.curve import BASE, POINT_BYTES, invert, is_valid_point, mul, mul_base, scalar_from_wide
from replays.deck import (
    PROOF_BYTES,
    RULE_FORMAT,
    SEED_BYTES,
    DeckFault,
    deck_context,
    deck_key,
    dleq_prove,
    dleq_verify,
)

__all__ = [
    "RULE_PEEK_PROOF",
    "RULE_SHOW_PROOF",
    "RULE_SEEN_PROOF",
    "RULE_LOOK_KEY",
    "RULE_PEEK",
    "RULE_SHOW",
    "Proven",
    "look_key",
    "look_public",
    "peek",
    "check_peek",
    "show",
    "check_show",
    "unpeek",
    "open_seen",
    "check_seen",
    "audit_peek",
    "audit_show",
]

RULE_PEEK_PROOF = "peek proof"
RULE_SHOW_PROOF = "show proof"
RULE_SEEN_PROOF = "seen proof"
RULE_LOOK_KEY = "look key"
RULE_PEEK = "peek recomputation"
RULE_SHOW = "show recomputation"


@dataclass(frozen=True, slots=True)
class Proven:
    """A value and the Chaum–Pedersen proof that it is what the protocol says it is."""

    value: bytes
    proof: bytes


def look_key(seed: bytes, session: bytes, seat: int, index: int) -> bytes:
    """j, the looker's one-use key for the look at chance index `index` (nonzero)."""
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    retry: tuple[int, ...] = ()
    while True:
        j = scalar_from_wide(hmac64_parts(seed, "look-key", session, seat, index, *retry))
        if any(j):
            return j
        retry = (retry[0] + 1,) if retry else (1,)


def look_public(seed: bytes, session: bytes, seat: int, index: int) -> bytes:
    """J = j·B, published in the peek frame."""
    return mul_base(look_key(seed, session, seat, index))


def peek(seed: bytes, session: bytes, seat: int, index: int, deck: str, epoch: int, position: int,
         value: bytes) -> Proven:
    """The looker's layer on the source's value: Z = j·V with DLEQ(j; B, J, V, Z)."""
    j = look_key(seed, session, seat, index)
    out = mul(j, value)
    ctx = deck_context(session, "peek", seat, deck, epoch, position)
    return Proven(out, dleq_prove(seed, j, BASE, mul_base(j), value, out, ctx))


def _shape(value: object, proof: object) -> str | None:
    if type(value) is not bytes or len(value) != POINT_BYTES:
        return f"the value is not {POINT_BYTES} bytes"
    if type(proof) is not bytes or len(proof) != PROOF_BYTES:
        return f"the proof is not {PROOF_BYTES} bytes"
    return None


def _verdict(rule: str, position: int, shape: str | None, ok: bool) -> DeckFault | None:
    if shape is not None:
        return DeckFault(RULE_FORMAT, f"position {position}: {shape}")
    if not ok:
        return DeckFault(rule, f"position {position}: the proof does not hold")
    return None


def check_peek(session: bytes, seat: int, deck: str, epoch: int, position: int, public: object, value: bytes,
               out: object, proof: object) -> DeckFault | None:
    """None when `out` = j·value for the j of `public` (the looker's J), proven; else "frame format" or
    "peek proof"."""
    shape = _shape(out, proof)
    if shape is None and not (is_valid_point(out) and is_valid_point(public)):
        return DeckFault(RULE_PEEK_PROOF, f"position {position}: the value or J is not a valid point")
    ctx = deck_context(session, "peek", seat, deck, epoch, position)
    return _verdict(RULE_PEEK_PROOF, position, shape,
                    shape is None and dleq_verify(BASE, public, value, out, proof, ctx))


def show(seed: bytes, session: bytes, seat: int, deck: str, epoch: int, position: int, value: bytes) -> Proven:
    """The source removes its deck layer from the looker's value: W = k⁻¹·Z with DLEQ(k; B, P, W, Z)."""
    k = deck_key(seed, session, seat, deck, epoch)
    out = mul(invert(k), value)
    ctx = deck_context(session, "show", seat, deck, epoch, position)
    return Proven(out, dleq_prove(seed, k, BASE, mul_base(k), out, value, ctx))


def check_show(session: bytes, seat: int, deck: str, epoch: int, position: int, public: bytes, value: bytes,
               out: object, proof: object) -> DeckFault | None:
    """None when `out` = k⁻¹·value for the k of `public` (the source's P for the epoch), proven; else
    "frame format" or "show proof"."""
    shape = _shape(out, proof)
    if shape is None and not is_valid_point(out):
        return DeckFault(RULE_SHOW_PROOF, f"position {position}: the value is not a valid point")
    ctx = deck_context(session, "show", seat, deck, epoch, position)
    return _verdict(RULE_SHOW_PROOF, position, shape,
                    shape is None and dleq_verify(BASE, public, out, value, proof, ctx))


def unpeek(seed: bytes, session: bytes, seat: int, index: int, value: bytes) -> bytes:
    """The looker's private step: M = j⁻¹·W, the source's card point."""
    return mul(invert(look_key(seed, session, seat, index)), value)


def open_seen(seed: bytes, session: bytes, seat: int, index: int, deck: str, epoch: int, position: int,
              value: bytes) -> Proven:
    """A card the looker saw, made public (when it takes that card): M = j⁻¹·W with DLEQ(j; B, J, M, W)."""
    j = look_key(seed, session, seat, index)
    out = mul(invert(j), value)
    ctx = deck_context(session, "seen", seat, deck, epoch, position)
    return Proven(out, dleq_prove(seed, j, BASE, mul_base(j), out, value, ctx))


def check_seen(session: bytes, seat: int, deck: str, epoch: int, position: int, public: bytes, value: bytes,
               point: object, proof: object, table: Mapping[bytes, tuple[int, int]]) -> DeckFault | int:
    """The card type of `point` when it is j⁻¹·value for the j of `public`, proven, and a card of the
    epoch; else "frame format" or "seen proof"."""
    shape = _shape(point, proof)
    if shape is None and not is_valid_point(point):
        return DeckFault(RULE_SEEN_PROOF, f"position {position}: the point is not a valid point")
    ctx = deck_context(session, "seen", seat, deck, epoch, position)
    fault = _verdict(RULE_SEEN_PROOF, position, shape,
                     shape is None and dleq_verify(BASE, public, point, value, proof, ctx))
    if fault is not None:
        return fault
    card = table.get(point)  # type: ignore[call-overload]
    if card is None:
        return DeckFault(RULE_SEEN_PROOF, f"position {position}: the point is no card of the deck")
    return card[1]


def audit_peek(seed: bytes, session: bytes, seat: int, index: int, public: bytes,
               entries: list[tuple[str, int, int, bytes, bytes]]) -> DeckFault | None:
    """After the looker's seed is revealed: None when J and every Z (deck, epoch, position, V, Z) are
    the seed's; else "look key" or "peek recomputation"."""
    if public != look_public(seed, session, seat, index):
        return DeckFault(RULE_LOOK_KEY, "J is not j·B for the look key the seed derives")
    for deck, epoch, position, value, out in entries:
        if peek(seed, session, seat, index, deck, epoch, position, value).value != out:
            return DeckFault(RULE_PEEK, f"position {position}: the value is not j·V for the seed's look key")
    return None


def audit_show(seed: bytes, session: bytes, seat: int,
               entries: list[tuple[str, int, int, bytes, bytes]]) -> DeckFault | None:
    """After the source's seed is revealed: None when every W (deck, epoch, position, Z, W) is the seed's
    k⁻¹·Z; else "show recomputation"."""
    for deck, epoch, position, value, out in entries:
        if show(seed, session, seat, deck, epoch, position, value).value != out:
            return DeckFault(RULE_SHOW, f"position {position}: the value is not k⁻¹·Z for the seed's deck key")
    return None

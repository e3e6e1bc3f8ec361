"""Commit-reveal randomness: pure functions, shared by the live session and the audit.

Public chance. Each seat commits at the start to the tail `x0` of a hash chain `x(i-1) = Hc(x(i))`
(`Hc` bound to session and seat) and reveals one value `x1, x2, ...` per chance point it takes part
in. A value is checked by hashing it back onto the previous one, so no seat can pick its value after
seeing the others': it was fixed when the tail was committed. The outcome of a public chance point is
`H(session, chance index, every contributing seat's value)` fed to `engines.core.outcome_from_bytes`.

Private chance for seat S. S alone knows `HMAC(seed_S, session, chance index)`; the other seats reveal
their next chain values; the outcome is `H(session, index, S, that HMAC, the others' values)`. Only S
can compute it, nobody (S included) can steer it, and the audit recomputes it once S reveals its seed,
which S committed to at the start.

Simultaneous choices are committed as `H(session, round, seat, action, salt)` and opened after every
seat's commitment arrived (or at the end, for choices that stay secret).

A peer may derive its chain secrets and salts from its seed (`chain_secret`, `salt_for`), so a peer
that restarts needs to keep nothing but the seed; the protocol checks only the hash relations.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.core import Chance, outcome_from_bytes
from engines.memo import Memo
from replays.crypto import framed, hash_parts, hmac_parts

__all__ = [
    "DealUnsupported",
    "chain_link",
    "make_chain",
    "chain_secret",
    "chain_reaches",
    "chain_tail",
    "chain_walk",
    "seed_commitment",
    "private_mac",
    "public_chance_bytes",
    "private_chance_bytes",
    "choice_commitment",
    "salt_for",
    "outcome",
]

MAX_CHAIN = 1 << 20


class DealUnsupported(NotImplementedError):
    """A `Chance(kind="deal")` in a protocol 1 transcript: secret deals need the mental-poker deck of
    protocol 2 (replays.deck, replays.ledger.decks)."""

    def __init__(self, chance: Chance | None = None):
        deck = f" from deck {chance.deck!r}" if chance is not None and chance.deck else ""
        super().__init__(
            f"secret deals{deck} (Chance kind 'deal') need the mental-poker deck of frame protocol 2; this "
            "transcript follows protocol 1, which has dice and pick chance points only")


_LINK_PREFIX: Memo[tuple[bytes, int], bytes] = Memo(256, "(session, seat)")


def chain_link(session: bytes, seat: int, value: bytes) -> bytes:
    """The value before `value` in seat's chain (hashing walks from the secret towards the tail):
    hash_parts("chain", session, seat, value), with the constant prefix computed once."""
    prefix = _LINK_PREFIX.get((session, seat))
    if prefix is None:
        prefix = _LINK_PREFIX.put((session, seat), framed("chain", session, seat))
    return hashlib.sha256(prefix + len(value).to_bytes(4, "big") + value).digest()


def make_chain(session: bytes, seat: int, secret: bytes, length: int) -> list[bytes]:
    """[tail x0, x1, ..., x(length) = secret]: x0 is committed, x1.. are revealed in that order."""
    if not 1 <= length <= MAX_CHAIN:
        raise ValueError(f"chain length must be 1..{MAX_CHAIN}")
    values = [secret]
    for _ in range(length):
        values.append(chain_link(session, seat, values[-1]))
    values.reverse()
    return values


def chain_secret(seed: bytes, session: bytes, seat: int, generation: int) -> bytes:
    """A chain secret derived from the seat's seed (generation 0, then one more per renewal)."""
    return hmac_parts(seed, "chain-secret", session, seat, generation)


def chain_reaches(session: bytes, seat: int, value: bytes, target: bytes, steps: int) -> bool:
    """True when hashing `value` back `steps` times gives `target` (steps <= MAX_CHAIN)."""
    if not 0 <= steps <= MAX_CHAIN:
        return False
    return chain_walk(session, seat, value, steps) == target


def chain_tail(session: bytes, seat: int, secret: bytes, length: int) -> bytes:
    """`make_chain(session, seat, secret, length)[0]` without keeping the chain: a check needs the tail
    only, and a chain of the maximum length kept as a list costs some 70 MB."""
    if not 1 <= length <= MAX_CHAIN:
        raise ValueError(f"chain length must be 1..{MAX_CHAIN}")
    return chain_walk(session, seat, secret, length)


def chain_walk(session: bytes, seat: int, value: bytes, steps: int) -> bytes:
    """`chain_link` applied `steps` times. The work a file can ask for is a hash per step, so the loop
    is as lean as hashlib allows (a copy of the hash of the constant prefix; 32-byte values, as every
    chain value is, share one length field)."""
    if len(value) != 32:
        for _ in range(steps):
            value = chain_link(session, seat, value)
        return value
    base = hashlib.sha256(framed("chain", session, seat) + (32).to_bytes(4, "big"))
    copy = base.copy
    for _ in range(steps):
        step = copy()
        step.update(value)
        value = step.digest()
    return value


def seed_commitment(session: bytes, seat: int, seed: bytes) -> bytes:
    return hash_parts("seed", session, seat, seed)


def private_mac(seed: bytes, session: bytes, chance_index: int) -> bytes:
    """The private seat's secret contribution to private chance point `chance_index`."""
    return hmac_parts(seed, "private-chance", session, chance_index)


def public_chance_bytes(session: bytes, chance_index: int, values: list[tuple[int, bytes]]) -> bytes:
    """Protocol bytes of a public chance point from (seat, chain value) pairs in seat order."""
    parts: list[Any] = [session, chance_index]
    for seat, value in values:
        parts += [seat, value]
    return hash_parts("public-chance", *parts)


def private_chance_bytes(session: bytes, chance_index: int, seat: int, mac: bytes,
                         values: list[tuple[int, bytes]]) -> bytes:
    """Protocol bytes of seat's private chance point: its HMAC with the other seats' chain values."""
    parts: list[Any] = [session, chance_index, seat, mac]
    for other, value in values:
        parts += [other, value]
    return hash_parts("private-chance-value", *parts)


def choice_commitment(session: bytes, round_no: int, seat: int, action: str, salt: bytes) -> bytes:
    return hash_parts("choice", session, round_no, seat, action, salt)


def salt_for(seed: bytes, session: bytes, round_no: int) -> bytes:
    """A salt derived from the seed (secret until the seed is revealed at the end)."""
    return hmac_parts(seed, "salt", session, round_no)


def outcome(chance: Chance, data: bytes) -> Any:
    """The engine value of a dice or pick chance point from protocol bytes (a deal's value is the card
    the deck really dealt: replays.ledger.decks)."""
    if chance.kind == "deal":
        raise DealUnsupported(chance)
    return outcome_from_bytes(chance, data)

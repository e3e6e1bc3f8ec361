"""The ledger's own values: a seat's secrets, the events it applied, and its bookkeeping of chains,
simultaneous rounds and timeout claims."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.core import Chance
from replays.crypto import SigningKey

__all__ = ["DEFAULT_CHAIN", "Chain", "Claim", "Event", "Round", "SeatSecrets"]

DEFAULT_CHAIN = 128


@dataclass(slots=True)
class SeatSecrets:
    """What only this seat knows: its signing key and its private seed. Chain secrets, commitment
    salts (and deck keys) are derived from the seed, so a peer that restarts needs nothing else."""

    seat: int
    key: SigningKey
    seed: bytes
    chain_length: int = DEFAULT_CHAIN


@dataclass(slots=True)
class Event:
    """One application to the engine, in order: a chance outcome or a seat's play.

    `value` is what the ledger applied (HIDDEN where it did not know); `full` is the value once every
    secret is revealed (filled in by the end-of-game re-simulation, or known from the start).
    """

    frame_no: int  # the frame that carries it (the commit or reveal of a simultaneous choice)
    at: int  # the frame whose acceptance applied it (the last commit or reveal of a simultaneous step)
    kind: str  # "chance" | "play"
    seat: int | None  # the player for a play, the private owner (or None) for a chance point
    value: Any
    full: Any = None
    chance: Chance | None = None
    index: int = 0  # chance index, or simultaneous round number
    contributions: tuple = ()
    secret: bool = False
    deal: tuple[str, int, int] | None = None  # (deck, epoch, position) of a card dealt from a shared deck
    look: Any = None  # the ledger's Look of a "show" chance point


@dataclass(slots=True)
class Chain:
    """A seat's hash chain as the others see it: the last revealed value (the tail at first)."""

    last: bytes
    length: int
    used: int = 0
    generation: int = 0


@dataclass(slots=True)
class Round:
    """A simultaneous step under way: who must choose, and the commitments and reveals so far."""

    number: int
    seats: tuple[int, ...]
    secret: bool
    commits: dict[int, tuple[bytes, int]] = field(default_factory=dict)  # seat -> (commitment, frame no)
    reveals: dict[int, tuple[str, int]] = field(default_factory=dict)  # seat -> (action, frame no)


@dataclass(slots=True)
class Claim:
    """A timeout claim: `claimant` says `blamed` withheld its `kind` frame at frame `frame_no`.

    Protocol 2: it is a demand, not a verdict. While `open`, the blamed seat may answer with that very
    frame (the claim is then void and play goes on) or contest it; the claim becomes final with the
    first other frame from any other seat, after which the other seats reveal their seeds and co-sign
    the forfeit. `resume` is the ledger status to go back to when answered."""

    frame_no: int
    kind: str
    blamed: int
    claimant: int
    resume: str
    open: bool = True

"""What every frame kind module provides, and the helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engines.core import Chance, Game, State
from replays.ledger.errors import Dispute
from replays.ledger.values import Chain, Claim, Event, Round, SeatSecrets

__all__ = ["Check", "FrameKind", "Ledger", "Transition", "bad_body", "is_bytes", "short"]


class Ledger(Protocol):
    """What a frame kind may read and change of the ledger (replays.ledger.core.Ledger implements it):
    spelled out, so that a kind's module says exactly which bookkeeping it touches."""

    game: Game
    session: bytes
    protocol: int
    players: int
    me: SeatSecrets | None
    state: State
    status: str
    frames: list
    chains: list[Chain | None]
    chain_history: list[list[tuple[bytes, int]]]
    seed_commits: list[bytes | None]
    chance_index: int
    contributions: list[tuple[int, bytes]]
    round: Round | None
    secret_commits: list[list[tuple[int, int, bytes]]]
    seeds: dict[int, tuple[bytes, tuple]]
    finals: set[int]
    events: list[Event]
    hidden_events: int
    my_choices: dict[int, str]
    claim: Claim | None
    contest: tuple[int, int, str, bool] | None
    decks: dict[tuple[str, int], Any]
    last_deal: tuple[tuple[str, int], int] | None
    spoiled: tuple | None
    look: Any
    looks: list
    building: bool

    def deal_chance(self) -> Chance: ...

    def show_chance(self) -> Chance: ...

    def pending_deal(self, ep: Any, chance: Chance) -> Any: ...

    def need_me(self) -> SeatSecrets: ...

    def need_chain(self, seat: int) -> Chain: ...

    def need_round(self) -> Round: ...

    def need_claim(self) -> Claim: ...

    def my_chain(self, generation: int, length: int, keep: bool = True) -> list[bytes]: ...

    def my_choice(self, rnd: Round, commitment: bytes) -> str | None: ...

    def play(self, state: State, seat: int, action: Any, frame_no: int, when: str = "") -> State: ...

    def contributors(self, chance: Chance | None) -> list[int]: ...

    def final_body(self) -> tuple: ...

    def claimable(self) -> tuple[str, int] | None: ...

    def check_evidence(self, seat: int, data: bytes, claim: Claim, frame_no: int) -> None: ...

#: the knowledge state after the frame, and the bookkeeping to commit once its digest matches
Transition = tuple[State, Callable[[], None]]
Check = Callable[["Ledger", int, tuple, int], Transition]
Build = Callable[["Ledger"], tuple]


@dataclass(frozen=True, slots=True)
class FrameKind:
    """A frame kind: `check(ledger, seat, body, frame_no)` validates a frame of this kind at the point
    the ledger awaits it (raising Dispute, changing nothing) and returns its transition; `build(ledger)`
    makes this seat's own body where no decision is needed (None for decisions and claims)."""

    name: str
    shape: str
    check: Check
    build: Build | None = None

    @property
    def automatic(self) -> bool:
        return self.build is not None

    def make(self, ledger: Ledger) -> tuple:
        """This seat's own body of an automatic kind (`build`); a kind whose body is a decision or a claim has none."""
        if self.build is None:
            raise TypeError(f"a {self.name} frame's body is a decision, not built by the ledger")
        return self.build(ledger)


def is_bytes(value: Any, n: int) -> bool:
    return type(value) is bytes and len(value) == n


def short(data: bytes) -> str:
    return data.hex()


def bad_body(seat: int, kind: str, frame_no: int, shape: str) -> Dispute:
    return Dispute(frame_no, seat, f"a malformed {kind} body", shape, "frame format",
                   f"seat {seat}'s {kind} frame does not have the body {shape}")

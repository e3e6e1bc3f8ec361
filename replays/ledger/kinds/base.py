"""What every frame kind module provides, and the helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.core import State
from replays.ledger.errors import Dispute

if TYPE_CHECKING:
    from replays.ledger.core import Ledger

__all__ = ["Check", "FrameKind", "Transition", "bad_body", "is_bytes", "short"]

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


def is_bytes(value: Any, n: int) -> bool:
    return type(value) is bytes and len(value) == n


def short(data: bytes) -> str:
    return data.hex()


def bad_body(seat: int, kind: str, frame_no: int, shape: str) -> Dispute:
    return Dispute(frame_no, seat, f"a malformed {kind} body", shape, "frame format",
                   f"seat {seat}'s {kind} frame does not have the body {shape}")

"""What the ledger says of a frame it does not accept: `Rejected` (dropped without effect: it cannot be
attributed, or does not belong here) or `Dispute` (signed and chained, so it is evidence, but against
the protocol or the rules: the ledger halts and names frame, seat, what was claimed, what was allowed
and the rule)."""

from __future__ import annotations

from typing import Any

__all__ = ["Dispute", "Rejected"]


class Rejected(Exception):
    """A frame dropped without effect; `reason` says why."""

    def __init__(self, reason: str, frame_no: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.frame_no = frame_no


class Dispute(Exception):
    """A signed frame that breaks the protocol or the rules; `seat` is to blame for frame `frame_no`."""

    def __init__(self, frame_no: int, seat: int, claimed: str, allowed: str, rule: str, reason: str):
        super().__init__(f"frame {frame_no}, seat {seat}: {reason}")
        self.frame_no, self.seat, self.claimed, self.allowed, self.rule, self.reason = (
            frame_no, seat, claimed, allowed, rule, reason)

    def as_dict(self) -> dict[str, Any]:
        return {"frame": self.frame_no, "seat": self.seat, "claimed": self.claimed, "allowed": self.allowed,
                "rule": self.rule, "reason": self.reason}

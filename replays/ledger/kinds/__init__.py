"""One module per frame kind: what its body is, what is checked when a frame of that kind arrives,
and (for the kinds that need no decision) how this seat builds its own. `KINDS` is the table the
ledger dispatches on; docs/protocol.md ("Frame kinds and bodies") is the same table in words."""

from __future__ import annotations

from replays.ledger.kinds import (
    act,
    chain,
    commit,
    contest,
    final,
    open,
    peek,
    reveal,
    seed,
    show,
    shuffle,
    spoiled,
    strip,
    timeout,
)
from replays.ledger.kinds.base import FrameKind

__all__ = ["KINDS", "FrameKind"]

KINDS: dict[str, FrameKind] = {kind.NAME: kind.KIND for kind in (
    open, act, commit, reveal, chain, shuffle, strip, spoiled, peek, show, seed, final, timeout, contest)}
#: the kinds protocol 1 has (the others are refused in a protocol 1 transcript)
PROTOCOL_1 = frozenset({"open", "act", "commit", "reveal", "chain", "seed", "final", "timeout"})

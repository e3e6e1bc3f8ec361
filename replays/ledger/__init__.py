"""The ledger: the one validator and applier of frames, used by the live session and by the audit.

A `Ledger` holds the frame chain of one session and the engine state of one seat's knowledge (or of a
spectator's, for the audit): other seats' private chance outcomes and secret choices are HIDDEN in it,
exactly as in engines/referee.py. It says which frame it awaits next (`expects`), builds this seat's
own frames (`build_*`), and `accept`s frames from anyone, own frames included, so that what this peer
sends and what it accepts pass the same checks.

What is checked for each frame kind lives in one module per kind (`replays.ledger.kinds`, the table
`KINDS`); the frame kinds and bodies are specified in docs/protocol.md.
"""

from replays.ledger.core import Ledger, OwnCheck
from replays.ledger.errors import Dispute, Rejected
from replays.ledger.values import DEFAULT_CHAIN, Claim, Event, SeatSecrets

__all__ = ["DEFAULT_CHAIN", "Claim", "Dispute", "Event", "Ledger", "OwnCheck", "Rejected", "SeatSecrets"]

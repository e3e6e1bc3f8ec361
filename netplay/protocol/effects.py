"""What a session's state machine asks its shell to do: the outputs of `Machine` (netplay/protocol/core.py).

The machine never touches a socket, a file or the clock; every input comes with the time, and every
consequence is one of these values, appended in order to `Machine.outbox`. The shell (netplay/host.py,
netplay/joiner.py over the transport; simulator/ over a simulated network) carries them out in that order,
so a frame is on disk (`Write`) before the message that makes others rely on it (`Send`) leaves. What an
input from a peer asked is carried out before the shell ticks the machine (netplay/protocol/core.py), so it
never waits behind the own frames the tick builds.
"""

from __future__ import annotations

from dataclasses import dataclass

from netplay.protocol.saved import SavedSeat
from replays.header import Header

__all__ = ["Send", "Write", "OpenReplay", "CloseReplay", "DiscardReplay", "SaveSeat", "ForgetSeat", "Say", "Dial",
           "Hangup", "Effect"]


@dataclass(frozen=True, slots=True)
class Send:
    """A session message (netplay/wire.py bytes) for the peer whose Ed25519 key is `to`."""

    to: bytes
    data: bytes


@dataclass(frozen=True, slots=True)
class Write:
    """Append to this peer's replay file: a frame's wire bytes, then the records that go with it (tuples:
    a host certificate, an acknowledgement that proves an equivocation)."""

    frame: bytes | None
    records: tuple[tuple, ...] = ()


@dataclass(frozen=True, slots=True)
class OpenReplay:
    """Start this game's replay file with `header` as its first record (the shell tells the machine the
    path through `Machine.replay_opened`)."""

    header: Header


@dataclass(frozen=True, slots=True)
class CloseReplay:
    pass


@dataclass(frozen=True, slots=True)
class DiscardReplay:
    """Close and delete the replay of a game that never began (a seat came free before its first frame)."""


@dataclass(frozen=True, slots=True)
class SaveSeat:
    """Keep what this peer needs to come back to the game (netplay/resume.py, mode 0600): the session,
    each held seat's secret seed, how to reach the others."""

    record: SavedSeat


@dataclass(frozen=True, slots=True)
class ForgetSeat:
    session: bytes
    seat: int


@dataclass(frozen=True, slots=True)
class Say:
    """A line for the player (the log): already made safe to show."""

    line: str


@dataclass(frozen=True, slots=True)
class Dial:
    """Open (or keep open) a direct link to the peer with key `to`, listening at `address`
    (host:port/fingerprint); the shell reports it with `linked`/`unlinked` like any link."""

    to: bytes
    address: str


@dataclass(frozen=True, slots=True)
class Hangup:
    """Close the link to `to` (a peer that did not complete the lobby in time)."""

    to: bytes


Effect = Send | Write | OpenReplay | CloseReplay | DiscardReplay | SaveSeat | ForgetSeat | Say | Dial | Hangup

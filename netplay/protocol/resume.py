"""A peer that comes back: a joiner after a reconnection or a restart, the host after a restart.

A joiner whose link to the host (re)opens during a game sends `hello` with `resume = [session, last seq,
hash of its last frame]`; the host checks that the key holds a seat of this session, that the frame
number is not beyond its own transcript and that its own frame of that number has that hash, then sends
every frame after it and `synced [last seq]`. Nothing secret moves: the seed never leaves the joiner.
Between its `hello` and `synced` a joiner goes on as always (it applies what the host sequences, sends
its own awaited frame, answers and contests claims): `synced` only stops it repeating the `hello`, which
it does every `HELLO_EVERY_S` until then.

A host that comes back (`netplay host --resume`) rebuilds its transcript from its replay file and its
saved seeds, listens on the same port, and waits: its joiners' transports reconnect by themselves and
resume as above. Its deadlines start afresh from its return.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from netplay import wire
from netplay.protocol.core import Link
from netplay.protocol.state import Event, LinkStage, Phase

if TYPE_CHECKING:   # (machines imports this module)
    from netplay.deadlines import Deadlines
    from netplay.protocol.book import Book
    from netplay.protocol.seams import HelloLobby, PendingFollowing, SeatingLobby
    from netplay.protocol.sequencing import Sequencer
    from netplay.protocol.state import SessionState

log = logging.getLogger("netplay.session")

__all__ = ["HostResume", "JoinResume", "HELLO_EVERY_S", "ResumeHost", "ResumeJoiner"]


@runtime_checkable
class ResumeHost(Protocol):
    """What of the host's machine a seat's resume reads and calls (tests/test_protocol_state.py holds the
    module to it)."""

    book: Book | None
    deadlines: Deadlines | None
    groups: dict[int, list[int]]
    @property
    def lobby(self) -> SeatingLobby: ...   # read only: a seam (seams.py) the machine's own class fits
    now: float
    old_sessions: set[bytes]
    players: int
    sequencer: Sequencer

    def refuse(self, link: Link, code: str, reason: str) -> None: ...
    def say(self, line: str) -> None: ...
    def seat_of_key(self, key: bytes) -> int | None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...
    def send_raw(self, to: bytes, data: bytes) -> None: ...


@runtime_checkable
class ResumeJoiner(Protocol):
    """What of a joiner's machine its resume reads and calls: its stage moves only through `move`."""

    book: Book | None
    @property
    def following(self) -> PendingFollowing: ...   # read only: a seam (seams.py) the machine's own class fits
    host_key: bytes
    @property
    def lobby(self) -> HelloLobby: ...   # read only: a seam (seams.py) the machine's own class fits
    mesh_port: int
    now: float
    version: str

    @property
    def phase(self) -> Phase: ...
    @property
    def state(self) -> SessionState: ...
    @property
    def synced(self) -> bool: ...
    def host_up(self) -> bool: ...
    def move(self, event: Event) -> None: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...

HELLO_EVERY_S = 2.0


class HostResume:
    def __init__(self, machine: ResumeHost):
        self.m = machine

    def on_resume(self, link: Link, session: bytes, seq: int, frame_hash: bytes) -> None:
        m = self.m
        book = m.book
        if book is None or session != book.header.session:
            if session in m.old_sessions:
                m.refuse(link, "over", "that game is over")
            else:
                m.refuse(link, "session", f"no game with session {session.hex()[:8]} here")
            return
        seat = m.seat_of_key(link.key)
        if seat is None:
            m.refuse(link, "seat", "you hold no seat in this game")
            return
        frames = book.frames
        if seq >= len(frames):
            m.refuse(link, "fork", f"you claim frame {seq}, the host has only {len(frames) - 1}: the transcripts fork")
            return
        if seq >= 0 and frames[seq].hash != frame_hash:
            m.refuse(link, "fork", f"your frame {seq} differs from the host's: the transcripts fork")
            return
        if link.seat != seat:   # a connection the host does not remember: its seats are in its saved groups
            link.seat = seat
            link.extra = [(s, book.header.seats[s][0], book.header.seats[s][1]) for s in m.groups.get(seat, ())]
        link.up, link.stage = True, LinkStage.READY
        link.acked = max(link.acked, seq)
        if m.deadlines is not None:
            for held in link.seats:
                m.deadlines.back(held)
        for frame in frames[seq + 1:]:
            m.send(link.key, "frame", frame.encode(), m.sequencer.cert(frame))
        link.sent_at = m.now
        m.send(link.key, "synced", len(frames) - 1)
        if m.players > 2:
            peers = m.lobby.peers_message(m.lobby.seated())
            for other in m.lobby.joiners():
                if other.up:
                    m.send_raw(other.key, peers)
        m.say(f"{wire.clip(link.name, 64)} (seat {seat}) resumes after frame {seq}: sent {len(frames) - 1 - seq} "
              "frame(s)")


class JoinResume:
    def __init__(self, machine: ResumeJoiner):
        self.m = machine
        self.hello_at = -1e9

    def hello(self) -> None:
        """Our link to the host (re)opened: resume the game under way, or start the lobby."""
        m = self.m
        self.hello_at = m.now
        book = m.book
        if book is None or book.ledger.closed or m.phase is not Phase.PLAY:
            m.lobby.hello()
            return
        if m.state.unstarted():   # the game has not begun: our `start` is sent again until it does
            return
        m.move(Event.REHELLO)
        at = [book.header.session, book.seq, book.last_hash if book.seq >= 0 else bytes(32)]
        m.send(m.host_key, "hello", wire.PROTO, m.version, at, m.mesh_port)

    def on_synced(self, key: bytes, last: int) -> None:
        m = self.m
        if key != m.host_key or m.book is None:
            return
        if not m.synced and last >= 0:
            m.say(f"in step with the host again at frame {m.book.seq}")
        m.move(Event.GAME_ON)
        m.lobby.answered()
        pending = m.following.pending
        if pending is not None:
            if pending.seq == m.book.seq + 1 and pending.prev == m.book.last_hash:
                m.send(m.host_key, "frame", pending.encode(), b"")
            else:
                m.following.pending = None

    def tick(self) -> None:
        m = self.m
        if not m.state.resyncing() or m.book is None or not m.host_up():
            return
        if m.now - self.hello_at >= HELLO_EVERY_S:
            self.hello()

"""The host's spectators: who may watch, what they are sent, and when (docs/protocol.md "Spectators").

Why a spectator can be shown the frames at all: every frame already goes to every seat, and every seat is an
adversary of every other seat's secrets, so no frame carries a secret before its reveal. A spectator gets exactly
the sequenced frames (with the host's certificate in games of three seats or more), each with the host's signed
*release* (replays/releases.py), and nothing else of the session: no acknowledgements, no `peers`, no relay, no
chat. Frame k leaves only once frame k + delay is sequenced, or once the game is over (its secrets are public
then); the release says so under the host's signature, so a spectator's copy proves the delay.

A spectator is kept apart from the players' links (`HostMachine.links`): it holds no seat, its acknowledgements,
claims and co-signatures never count because it can send none (its dispatch takes `watch`, `want` and `bye`;
everything else is dropped), and nothing of it reaches a joiner. It costs the players nothing they can feel: its
frames are sent without waiting (the shell drops a spectator whose send queue is full), at most `BURST` frames a
tick, and one `want` a second is answered. And its work yields to theirs: while a connected seat lacks the tip
(a move on its way to the players), no release is signed or sent, for at most `YIELD_S` (a frame is released
later, never sooner, so the delay still holds); the spectators' signatures, encryption and sends then run in
the time between the players' moves, not inside one (in a run of moves with no such time, one burst each
`YIELD_S`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.clocks import seat_clocks
from netplay.protocol.core import BURST, Link
from netplay.protocol.lobby import HELLO_S
from netplay.protocol.state import LinkStage, Phase
from netplay.protocol.table_notes import TableNotes, clock_ms
from replays.crypto import fingerprint
from replays.header import Spectating
from replays.releases import sign_release

if TYPE_CHECKING:
    from netplay.protocol.book import Book
    from replays.header import Header

log = logging.getLogger("netplay.session")

__all__ = ["HostSpectators", "SpectatorsHost", "Watcher", "SPECTATOR_TAGS"]

#: what the host takes from a spectator; every other tag is dropped
SPECTATOR_TAGS = frozenset({"watch", "want", "bye"})
WANT_S = 1.0          # one `want` a second is answered
TOLD_S = 2.5          # after its end is said, a spectator's `want` of a frame lost on the way is still answered
YIELD_S = 0.5         # the longest the players' frame in flight holds the spectators' releases back


@runtime_checkable
class SpectatorsHost(Protocol):
    """What of the host's machine the spectators read and call (tests/test_protocol_state.py holds the module
    to it)."""

    book: Book | None
    deadlines: Any
    header: Header | None
    identity: Any
    links: dict[bytes, Link]
    now: float
    outbox: list
    spectating: Spectating | None
    version: str

    @property
    def phase(self) -> Phase: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...


@dataclass(slots=True)
class Watcher:
    """One spectator's connection: since when, whether it asked to watch, the next frame it is owed."""

    key: bytes
    name: str
    since: float
    watching: bool = False
    header_sent: bool = False
    next: int = 0
    served_at: float = -1e9
    told_end: bool = False      # the game is over and every frame went: said once, with a `bye`
    told_at: float = 0.0
    line: int = 0               # the next chat line it is owed (numbered as `TableNotes` numbers them)
    clocks_sent: tuple | None = None   # the clocks it was last sent, in whole seconds (see `table`)


class HostSpectators:
    def __init__(self, machine: SpectatorsHost):
        self.m = machine
        self.watchers: dict[bytes, Watcher] = {}
        self.dropped = 0        # spectators let go (refused, silent, or a full send queue)
        self.yielding_since: float | None = None   # since when a seat connected has lacked the tip (see `yields`)
        self.yielded = 0        # ticks whose releases waited for the players (a figure for the benchmark)
        self.notes = TableNotes()   # the clocks at each frame and the chat, as the spectators are shown them

    # ------------------------------------------------------------------------------ admission

    def admit(self, key: bytes, refused: str) -> str | None:
        """The transport's rule for a key the players' lobby refused (`refused` its reason): a spectator may come
        in while there is room, never a seat's key (the lobby took those) nor the host's (refused before)."""
        m = self.m
        spectating = m.spectating
        if spectating is None:
            return f"{refused}; this game allows no spectators"
        if key in self.watchers or len(self.watchers) < spectating.most:
            return None
        return f"{refused}; and it has its {spectating.most} spectator(s) already"

    def is_seat(self, key: bytes) -> bool:
        header = self.m.header
        return key == self.m.identity.public_key or (header is not None and any(k == key for k, _ in header.seats))

    def linked(self, key: bytes, name: str) -> bool:
        """A connection while the game is set (the lobby takes the others): a spectator's if it holds no seat."""
        m = self.m
        if key in self.watchers:
            return True
        if m.header is None or self.is_seat(key):
            return False
        self.watchers[key] = Watcher(key, name, m.now)
        return True

    def unlinked(self, key: bytes) -> bool:
        watcher = self.watchers.pop(key, None)
        if watcher is not None and watcher.watching:
            self.m.say(f"spectator {wire.clip(watcher.name, 64)} left")
        return watcher is not None

    def let_go(self, key: bytes, code: str, reason: str) -> None:
        m = self.m
        watcher = self.watchers.pop(key, None)
        link = m.links.get(key)
        if link is not None and link.seat is None:
            m.links.pop(key, None)
        (log.warning if code else log.info)("letting spectator %s go: %s", fingerprint(key), reason)
        m.send(key, "refused" if code else "bye", *((code, wire.clip(reason)) if code else (wire.clip(reason),)))
        m.outbox.append(fx.Hangup(key))
        if watcher is not None or link is not None:
            self.dropped += 1

    # ------------------------------------------------------------------------------ messages

    def takes(self, key: bytes, data: bytes) -> bool:
        """Whether this message is a spectator's (then it is handled here, or dropped): every message of a known
        spectator, and a `watch` from a lobby connection that holds no seat."""
        m = self.m
        link = m.links.get(key)
        lobby = link is not None and link.seat is None and link.stage is LinkStage.NEW
        if key not in self.watchers and not lobby:
            return False
        try:
            tag, fields = wire.unpack(data)
        except wire.Malformed as exc:
            if key in self.watchers:
                log.warning("dropped a message from spectator %s: %s", key.hex()[:8], exc.reason)
            return key in self.watchers
        if key not in self.watchers:
            if tag != "watch":
                return False
            assert link is not None
            m.links.pop(key, None)          # from now on a spectator, never a player of this lobby
            self.watchers[key] = Watcher(key, link.name, m.now)
        watcher = self.watchers[key]
        if tag == "hello" and not watcher.watching:
            # a would-be player let in because spectators may watch: it learns why there is no seat for it
            self.let_go(key, "in-progress", "a game is in progress here and every seat is taken")
            return True
        if tag not in SPECTATOR_TAGS:
            log.warning("dropped a %s message from spectator %s: a spectator may not send it", tag, key.hex()[:8])
            return True
        getattr(self, f"on_{tag}")(watcher, *fields)
        return True

    def on_watch(self, watcher: Watcher, proto: int, peer_version: str, from_seq: int) -> None:
        m = self.m
        if proto != wire.PROTO:
            self.let_go(watcher.key, "version", f"session protocol {proto} is not supported: this host (netplay "
                                                f"{m.version}) speaks session protocol {wire.PROTO}")
            return
        spectating = m.spectating
        if spectating is None:
            self.let_go(watcher.key, "spectators", "this game allows no spectators")
            return
        others = sum(w.watching for w in self.watchers.values() if w is not watcher)
        if others >= spectating.most:
            self.let_go(watcher.key, "spectators", f"this game has its {spectating.most} spectator(s) already")
            return
        if watcher.watching:          # a repeated watch is a want, answered at most once a second (no flood
            self.on_want(watcher, from_seq)   # makes the host sign and send more than one burst a second)
            return
        m.say(f"spectator {wire.clip(watcher.name, 64)} ({fingerprint(watcher.key)}) watches from frame {from_seq}")
        watcher.watching, watcher.next, watcher.served_at = True, from_seq, m.now
        watcher.line = self.notes.first_line(from_seq)

    def heard(self, seat: int, text: str) -> None:
        """A chat line said at the table: kept for the spectators when the header lets them hear it, with the
        frame that is the last now (they are shown it no sooner than that frame: table_notes.py)."""
        m = self.m
        spectating, book = m.spectating, m.book
        if spectating is not None and spectating.chat and book is not None and m.phase is Phase.PLAY:
            self.notes.heard(book.seq, seat, text)

    def on_want(self, watcher: Watcher, seq: int) -> None:
        if watcher.watching and self.m.now - watcher.served_at >= WANT_S:
            watcher.served_at = self.m.now
            watcher.next = min(watcher.next, seq)

    def on_bye(self, watcher: Watcher, reason: str) -> None:
        self.watchers.pop(watcher.key, None)
        self.m.say(f"spectator {wire.clip(watcher.name, 64)} left: {wire.clip(reason)}")
        self.m.outbox.append(fx.Hangup(watcher.key))

    # ------------------------------------------------------------------------------ releases

    def tick(self) -> None:
        m = self.m
        book = m.book
        notes = self.notes
        if book is not None and book.seq >= len(notes.clocks) and m.spectating is not None:
            # past the game (its last frames sequenced as it ends) the clocks stand where they stopped
            notes.frame(book.seq, clock_ms(seat_clocks(m, m.now)) or (notes.clocks[-1] if notes.clocks else ()))
        # once the game is over nothing of the players' is in a hurry, and a spectator's `want` of a frame lost
        # on the way must be answered within the host's end-of-session wait
        wait = book is not None and m.phase is Phase.PLAY and not book.ledger.closed and self.yields(book)
        for watcher in list(self.watchers.values()):
            if not watcher.watching:
                if m.now - watcher.since > HELLO_S:
                    self.let_go(watcher.key, "lobby", f"no watch within {HELLO_S:g} s")
                continue
            book = m.book
            if book is None or m.phase is Phase.LOBBY:
                continue
            if not watcher.header_sent:
                m.send(watcher.key, "header", book.header.encode())
                watcher.header_sent = True
            if wait:
                self.yielded += 1
                continue
            self.release(watcher, book)

    def yields(self, book: Book) -> bool:
        """Whether the spectators' releases wait this tick: a seat connected lacks the tip (the players' move is on
        its way), and has for less than `YIELD_S`. An acknowledgement ticks the machine (session.py `_input`), so
        the spectators are served at once after the last one. In a long run of moves (a turn of several actions,
        the frames always a step ahead of the acknowledgements) they are served one burst each `YIELD_S`, then
        the hold starts again: at most one move in that time shares the host with them."""
        if not self.watchers:
            return False
        m = self.m
        tip = book.seq
        if not any(link.up and link.seat is not None and link.acked < tip for link in m.links.values()):
            self.yielding_since = None
            return False
        if self.yielding_since is None:
            self.yielding_since = m.now
        if m.now - self.yielding_since < YIELD_S:
            return True
        self.yielding_since = m.now      # served now, in the middle of the moves; the next hold starts here
        return False

    def behind(self, book: Book) -> bool:
        """Whether a spectator watching is still owed frames of the game (its end is flushed to it at a burst a
        tick): the host's close waits for that, within its own end-of-session wait (machines.py `lingers`)."""
        return any(w.watching and (w.next <= book.seq or (w.told_end and self.m.now - w.told_at < TOLD_S))
                   for w in self.watchers.values())

    def due(self, book: Book) -> int:
        """The last frame a spectator may hold now: the tip less the delay, or everything once the game is over."""
        spectating = self.m.spectating
        delay = spectating.delay if spectating is not None else 0
        return book.seq if book.ledger.closed else book.seq - delay

    def release(self, watcher: Watcher, book: Book) -> None:
        """Frames from `watcher.next` up to what is due, at most a burst, each with its signed release."""
        m = self.m
        last = self.due(book)
        if watcher.next > last or book.seq < 0:
            self.table(watcher, watcher.next - 1, False)
            if book.ledger.closed and watcher.next > book.seq and m.phase is not Phase.PLAY and not watcher.told_end:
                # told, not hung up: the last frames may still be on their way on this connection, and a hang-up
                # would drop them (the spectator stops by itself once its copy is whole; the host's close ends
                # the connection after its linger)
                watcher.told_end, watcher.told_at = True, m.now
                m.send(watcher.key, "bye", "the game is over: every frame was shown")
            return
        tip = book.frames[book.seq]
        session = book.header.session
        for seq in range(watcher.next, min(last, watcher.next + BURST - 1) + 1):
            frame = book.frames[seq]
            release = sign_release(m.identity.private_key, session, watcher.key, seq, frame.hash, tip.seq, tip.hash)
            cert = book.certs[seq] if seq < len(book.certs) else b""
            m.send(watcher.key, "release", frame.encode(), cert, tip.seq, tip.hash, release.sig)
            watcher.next = seq + 1
        self.table(watcher, watcher.next - 1, True)

    def table(self, watcher: Watcher, through: int, released: bool) -> None:
        """After a burst of releases up to frame `through` (`released`), or when none was due: the `table`
        message, with that frame's clocks and the chat lines said up to it that the spectator has not had.
        Sent when such a line is waiting (a line said after its frame went, delay 0, goes without a burst), or
        after a burst whose clocks differ in whole seconds from those this spectator was last sent: the spectator
        counts the running clock down itself, so one message a second at most carries them (per burst, it cost
        the players 5 % more per move with 8 spectators: `scripts/bench spectators`)."""
        if through < 0:
            return
        lines, after = self.notes.pending(watcher.line, through)
        clocks = self.notes.clocks_at(through)
        seconds = tuple(None if c is None else c // 1000 for c in clocks)
        if not lines and not (released and seconds != watcher.clocks_sent):
            return
        watcher.line, watcher.clocks_sent = after, seconds
        self.m.send(watcher.key, "table", through, list(clocks), [x.value() for x in lines])

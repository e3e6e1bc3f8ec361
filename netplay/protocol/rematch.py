"""After a complete game: every seat votes for a rematch (a joiner sends `rematch []`, the host tells everyone
the seats that agreed so far); when all agree the host composes a new header (same seats in the same
order, same options and terms, a new session id) and the lobby continues from the header. No agreement
within the reveal timeout, a refusal, a peer leaving, or a seat that does not start the rematch within
`lobby.rematch_start_s` of its header ends the session (status 0; the games played stand, nobody is blamed).
A joiner's own bounds on these waits are in netplay/protocol/waits.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from netplay import wire
from netplay.protocol import effects as fx
from netplay.protocol.core import EXIT_OK
from netplay.protocol.state import Event, Phase

if TYPE_CHECKING:   # (machines imports this module)
    from netplay.protocol.core import Decider, Link
    from netplay.protocol.lobby import HostLobby
    from replays.header import Header, Terms

__all__ = ["HostRematch", "JoinRematch", "RematchHost", "RematchJoiner"]


@runtime_checkable
class RematchHost(Protocol):
    """What of the host's machine its rematch vote reads and calls: nothing else (tests/test_protocol_state.py
    holds this module to it)."""

    book: Any
    header: Header | None
    links: dict[bytes, Link]
    lobby: HostLobby
    now: float
    old_sessions: set[bytes]
    outbox: list
    outcome: Any
    players: int
    rematch_asked: bool
    decider: Decider
    games_done: int
    host_seat_number: int
    terms: Terms

    @property
    def phase(self) -> Phase: ...
    @property
    def host_seats(self) -> list[int]: ...
    def require_header(self) -> Header: ...
    def move(self, event: Event) -> None: ...
    def finish(self, code: int, message: str) -> None: ...
    def games_message(self) -> str: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...


@runtime_checkable
class RematchJoiner(Protocol):
    """What of a joiner's machine its rematch vote reads and calls."""

    decider: Decider
    games_done: int
    host_key: bytes
    outcome: Any
    rematch_asked: bool

    @property
    def phase(self) -> Phase: ...
    def finish(self, code: int, message: str) -> None: ...
    def games_message(self) -> str: ...
    def say(self, line: str) -> None: ...
    def send(self, to: bytes, tag: str, *fields: Any) -> None: ...


class HostRematch:
    def __init__(self, machine: RematchHost):
        self.m = machine
        self.votes: set[int] = set()
        self.sent: tuple[int, ...] = ()
        self.over_since = 0.0

    def on_vote(self, key: bytes, seats: list) -> None:
        m = self.m
        link = m.links.get(key)
        if link is None or link.seat is None:     # (only the rematch vote takes a vote: state.HOST_ACCEPTS)
            return
        self.votes.update(link.seats)
        m.say(f"{wire.clip(link.name, 64)} (seat {link.seat}) wants a rematch")

    def tick(self) -> None:
        m = self.m
        if m.phase is not Phase.OVER or m.outcome is not None:
            return
        if m.host_seat_number not in self.votes:
            vote = m.decider.rematch(m.games_done)
            if vote is False:
                m.finish(EXIT_OK, m.games_message())
                return
            if vote:
                self.votes.update(m.host_seats)
                m.rematch_asked = True
                m.say("you want a rematch")
        now = tuple(sorted(self.votes))
        if self.votes and now != self.sent:
            self.sent = now
            for link in m.lobby.joiners():
                if link.up:
                    m.send(link.key, "rematch", list(now))
        if len(self.votes) == m.players:
            self.start()
        elif m.now - self.over_since > m.terms.reveal_timeout_ms / 1000:
            m.finish(EXIT_OK, f"no rematch agreed within {m.terms.reveal_timeout_ms / 1000:g} s. {m.games_message()}")

    def start(self) -> None:
        m = self.m
        seated = m.lobby.seated()
        m.old_sessions.add(m.require_header().session)
        m.outbox.append(fx.CloseReplay())
        m.book = None
        m.move(Event.REMATCH)
        self.votes, self.sent = set(), ()
        m.say("rematch: a new game with the same seats and options")
        m.lobby.send_header(seated)


class JoinRematch:
    def __init__(self, machine: RematchJoiner):
        self.m = machine
        self.over_since = 0.0

    def on_vote(self, key: bytes, seats: list) -> None:
        if key == self.m.host_key:
            self.m.say("rematch wanted by seat(s) " + ", ".join(str(s) for s in seats if type(s) is int))

    def tick(self) -> None:
        m = self.m
        if m.phase is not Phase.OVER or m.outcome is not None or m.rematch_asked:
            return
        vote = m.decider.rematch(m.games_done)
        if vote is False:
            m.finish(EXIT_OK, m.games_message())
        elif vote:
            m.rematch_asked = True
            m.say("you want a rematch")
            m.send(m.host_key, "rematch", [])

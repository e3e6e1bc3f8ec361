"""Every wait of a session has a bound: what a peer waits for outside a game, until when, and what it does when
the bound passes.

Inside a game the terms bound every wait (netplay/deadlines.py, claims). Outside one a peer waits for another
to do something that has no frame to claim: a host that never answers our `hello`, never fills its table,
never starts the game after its header, never composes the rematch it was asked for; a joiner that votes for
a rematch and never starts it. None of these is evidence against anybody (a silent host and a host whose
other players did not come look the same), so when a bound passes the waiting side leaves with the reason in
words and blames nobody: nothing was played, so there is no forfeit and no result; a replay opened for a
game that never started is discarded (no half-written file), and the games already played stay as they are.

The joiner's bounds (`JoinWaits`), each from the moment the wait began, and none longer than the joiner's
own patience (`netplay join --wait S`, `FILL_S` by default: a joiner may be less patient than the protocol):

- the host's `offer`, `OFFER_S` after our `hello` (the host answers at once; resends cover a lost one);
- the header, the patience after our `ready` (the other players may take a while to come); and the first
  game must start within `OFFER_S + patience + START_WAIT_S` of the first `hello` in all, however often
  the host starts over;
- the start (`synced`), `START_WAIT_S` after the header: the host gives every joiner `START_S` for its
  `start` (lobby.py) and the joiner `MESH_S` for its direct links, plus the joiner's grace; for a rematch,
  the host's `rematch_start_s` of the terms plus the grace;
- after a complete game, the rematch's header within the reveal timeout of the terms plus the joiner's
  grace (the host ends the vote at the reveal timeout), and then its start as above.

The host's: its rematch lobby gives every seat `rematch_start_s(terms)` for its `start` (HostLobby.tick:
the reveal timeout, at least `MESH_S` and a second for the direct links, at most `START_S`); the vote itself
ends at the reveal timeout (rematch.py). A host's first lobby waits for players as long as its person
wants: it is nobody else's wait.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from netplay.protocol import effects as fx
from netplay.protocol.core import EXIT_FAILED, EXIT_OK, JOINER_GRACE
from netplay.protocol.lobby import MESH_S, START_S, rematch_start_s
from netplay.protocol.state import Phase

if TYPE_CHECKING:
    from netplay.protocol.book import Book
    from netplay.protocol.core import MachineRematch
    from netplay.protocol.lobby import HostLobby, JoinLobby
    from netplay.protocol.state import SessionState
    from replays.header import Header, Terms

__all__ = ["Wait", "JoinWaits", "WaitsHost", "WaitsJoiner", "host_wait", "rematch_start_s", "OFFER_S", "FILL_S",
           "START_WAIT_S"]

OFFER_S = 15.0                                 # after our hello, the host's offer within this
FILL_S = 600.0                                 # after our ready, the header within this (the joiner's default)
START_WAIT_S = START_S + MESH_S + JOINER_GRACE  # after the header, the host's `synced` within this


@dataclass(frozen=True, slots=True)
class Wait:
    """What a peer waits for now (`what`, in words), until when (`until`, the peer's clock) and why it then
    leaves (`reason`, a sentence)."""

    what: str
    until: float
    reason: str

    def left(self, now: float) -> float:
        return max(0.0, self.until - now)


class WaitsJoiner(Protocol):
    """What of a joiner's machine its waits read and call (named, not imported: machines imports this module)."""

    book: Book | None
    games_done: int
    header: Header | None
    now: float
    outbox: list
    outcome: Any
    terms: Terms

    @property
    def lobby(self) -> JoinLobby: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def rematch(self) -> MachineRematch: ...
    @property
    def state(self) -> SessionState: ...
    def finish(self, code: int, message: str) -> None: ...
    def games_message(self) -> str: ...
    def require_book(self) -> Book: ...
    def require_header(self) -> Header: ...
    def say(self, line: str) -> None: ...


class WaitsHost(Protocol):
    """What of the host's machine `host_wait` reads."""

    games_done: int
    header: Header | None
    outcome: Any
    terms: Terms

    @property
    def lobby(self) -> HostLobby: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def rematch(self) -> MachineRematch: ...


class JoinWaits:
    """The joiner's waits outside a game (see the module docstring): ticked by the joiner's machine."""

    def __init__(self, machine: WaitsJoiner, fill_s: float = FILL_S):
        if not 1 <= fill_s <= 86400:
            raise ValueError("the wait for the other players is 1 s to 24 h")
        self.m = machine
        self.fill_s = fill_s
        self.first_hello: float | None = None

    def current(self) -> Wait | None:
        """The wait under way now (None: none, or one the terms bound: a game in progress)."""
        m = self.m
        lobby = m.lobby
        if m.outcome is not None:
            return None
        if m.phase is Phase.LOBBY and not m.games_done:
            if lobby.hello_at is None:
                return None
            if self.first_hello is None:
                self.first_hello = lobby.hello_at
            cap = self.first_hello + self.bound(OFFER_S) + self.fill_s + self.bound(START_WAIT_S)
            if lobby.offer is None:
                limit = self.bound(OFFER_S)
                return Wait("the host's offer", min(cap, lobby.hello_at + limit),
                            f"the host did not answer within {limit:g} s (no offer)")
            return Wait("the other players", min(cap, lobby.ready_at + self.fill_s),
                        f"the table did not fill within {self.fill_s:g} s: the host sent no header")
        if m.phase is Phase.PLAY and self.unstarted():
            what = "the rematch" if m.games_done else "the game"
            if m.games_done:
                terms = m.require_header().terms
                assert terms is not None, "a rematch's header is of format 2: it holds the terms"
                limit = self.bound(rematch_start_s(terms) + JOINER_GRACE)
            else:
                limit = self.bound(START_WAIT_S)
            started = lobby.started_at
            assert started is not None, "unstarted() holds a header's start"
            until = started + limit
            if not m.games_done and self.first_hello is not None:
                until = min(until, self.first_hello + self.bound(OFFER_S) + self.fill_s + self.bound(START_WAIT_S))
            return Wait(f"the host to start {what}", until,
                        f"the host did not start {what} within {limit:g} s of its header")
        if m.phase is Phase.OVER:
            limit = self.bound(self.reveal_s() + JOINER_GRACE)
            return Wait("a rematch", m.rematch.over_since + limit, f"no rematch within {limit:g} s")
        return None

    def bound(self, protocol_s: float) -> float:
        """A wait's bound: the protocol's, or the joiner's patience if that is shorter."""
        return min(protocol_s, self.fill_s)

    def reveal_s(self) -> float:
        m = self.m
        terms = m.header.terms if m.header is not None and m.header.terms is not None else m.terms
        return terms.reveal_timeout_ms / 1000

    def unstarted(self) -> bool:
        """A header accepted, its game not begun: no `synced` from the host, no frame."""
        m = self.m
        return (m.book is not None and m.state.unstarted() and m.book.seq == -1 and m.lobby.started_at is not None)

    def tick(self) -> None:
        wait = self.current()
        if wait is not None and self.m.now >= wait.until:
            self.leave(wait.reason)

    def leave(self, reason: str) -> None:
        """The wait is over: leave, blaming nobody (with the games already played, status 0)."""
        m = self.m
        m.say(f"leaving: {reason}")
        self.abandon()
        if m.games_done:
            m.finish(EXIT_OK, f"{m.games_message()} ({reason})")
        else:
            m.finish(EXIT_FAILED, f"{reason}; nothing was played, nobody is blamed")

    def abandon(self) -> None:
        """A game that never started leaves no file behind: its replay (a header and nothing else) is removed,
        and its saved seats forgotten (there is nothing to resume)."""
        m = self.m
        if m.phase is not Phase.PLAY or not self.unstarted():
            return
        m.outbox.append(fx.DiscardReplay())
        for seat in m.require_book().seats:
            m.outbox.append(fx.ForgetSeat(m.require_book().header.session, seat))


def host_wait(machine: WaitsHost) -> Wait | None:
    """The host's wait under way, for its person to see: the joiners' `start` after the header, the rematch
    vote (None: a game in progress, or its lobby waiting for players as long as its person wants)."""
    m = machine
    if m.outcome is not None:
        return None
    if m.phase is Phase.LOBBY and m.header is not None:
        late = sorted(seat for link in m.lobby.joiners() if not link.started for seat in link.seats[:1])
        if not late:
            return None
        what = "the rematch" if m.games_done else "the game"
        seats = ", ".join(str(s) for s in late)
        limit = rematch_start_s(m.terms) if m.games_done else START_S
        return Wait(f"seat {seats} to start {what}", m.lobby.header_at + limit,
                    f"seat {seats} did not start {what} within {limit:g} s")
    if m.phase is Phase.OVER:
        limit = m.terms.reveal_timeout_ms / 1000
        return Wait("the rematch votes", m.rematch.over_since + limit, f"no rematch agreed within {limit:g} s")
    return None

"""The host's shell: its transport (the bootstrap and encrypted ports every joiner connects to) around the
host's state machine (netplay/protocol/machines.py: the lobby, sequencing and relay, claims, resume,
rematch).

    session = HostSession(identity, decider, "ploc", bind="127.0.0.1", port=0)
    session.address                      # what joiners connect to
    outcome = session.run()              # Outcome(code, message)

    session = HostSession.resumed(identity, decider, saved)   # `netplay host --resume`: the same port, the
                                                              # transcript from the replay, the saved seeds

See netplay/session.py for what host and joiners share, docs/protocol.md "Session" for the messages.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any

from netplay import resume as saved_games
from netplay import wire
from netplay.identity import Identity, KnownPeers
from netplay.protocol.machines import HostMachine
from netplay.protocol.state import Phase
from netplay.session import Decider, PeerState, Session, version
from netplay.transcript import ResumeError, check_seeds, read_own_replay
from netplay.transport import HostTransport, Incoming
from replays.header import Spectating
from replays.ledger import Dispute, Rejected, SeatSecrets

log = logging.getLogger("netplay.session")


class HostSession(Session):
    role = "host"

    def __init__(self, identity: Identity, decider: Decider, game_id: str, *, players: int | None = None,
                 options: dict[str, Any] | None = None, seat: int = 0, bind: str = "127.0.0.1", port: int = 0,
                 known_peers: KnownPeers | None = None, also: dict[int, tuple[str, Decider]] | None = None,
                 on_free_seats: Callable[[int], None] | None = None, machine: HostMachine | None = None,
                 spectating: Spectating | None = None,
                 on_watch_places: Callable[[int], None] | None = None, **kwargs: Any):
        super().__init__(identity, decider, game=game_id, **kwargs)
        if machine is None:
            machine = HostMachine(identity, decider, game_id, players=players, options=options, seat=seat, also=also,
                                  terms=self.terms, entropy=os.urandom, wall_clock=lambda: int(time.time()),
                                  version=version(), spectating=spectating)
        self.machine = machine
        self.on_free_seats = on_free_seats
        #: told the spectators' places left whenever that number changes (the LAN advert says it: discovery's
        #: `watch`), as `on_free_seats` is told the seats
        self.on_watch_places = on_watch_places
        self._watch_seen = -1
        self.transport = HostTransport(identity, bind, port, known_peers=known_peers, accept=self._admit,
                                       pinning=self._pins)
        self.address = self.transport.address
        self.port = self.transport.port
        machine.address = f"{bind}:{self.port}"
        self._free_seen = -1

    @classmethod
    def resumed(cls, identity: Identity, decider: Decider, saved: saved_games.SavedSeat, *,
                also: dict[int, Decider] | None = None, known_peers: KnownPeers | None = None,
                **kwargs: Any) -> HostSession:
        """The host of a game under way that it left (killed, crashed): its transcript rebuilt from its own
        replay with its saved seeds, listening on the same port so that its joiners find it again."""
        own = read_own_replay(saved.replay)
        if own.header.session != saved.session_id:
            raise ResumeError(f"{saved.replay} holds another session than the saved one")
        secrets = [SeatSecrets(saved.seat, identity.private_key, saved.seed_bytes)]
        secrets += [SeatSecrets(int(s), identity.seat_key(name), bytes.fromhex(seed)) for s, seed, name in saved.extra]
        check_seeds(own.header, own.frames, secrets)
        try:
            machine = HostMachine.resumed(identity, decider, saved, own.header, own.frames, own.certs, also=also,
                                          entropy=os.urandom, wall_clock=lambda: int(time.time()),
                                          version=version())
        except (ValueError, Rejected, Dispute) as exc:   # the file's own frames do not replay with these seeds
            raise ResumeError(f"cannot resume {saved.replay}: {exc}") from None
        if machine.book.ledger.closed:
            saved_games.remove(saved.session_id, saved.seat)
            raise ResumeError(f"nothing to resume: that game is over ({machine.book.ledger.status})")
        bind, _, port = saved.address.rpartition(":")
        session = cls(identity, decider, own.header.game, bind=bind.strip("[]") or "0.0.0.0", port=int(port),
                      known_peers=known_peers, machine=machine, **kwargs)
        session.terms = own.header.terms
        session.writer = own.reopen(session.fsync)
        machine.book.path = session.writer.path
        session.replays.append(session.writer.path)
        session._carry_out(machine.drain())
        return session

    # ------------------------------------------------------------------------------ the loop

    def _admit(self, key: bytes, name: str) -> str | None:
        return self.machine.admit(key, name)

    def _pins(self, key: bytes, name: str) -> bool:
        return self.machine.pins(key, name)

    def step(self, timeout_ms: int = 100) -> None:
        with self.lock:
            self._run_posted()
            self._tick()
            self._free_seats_changed()
            urgent = self.outcome is not None or (self.phase is Phase.PLAY and self.decision_queued())
        waker, transport = self._poll_waker(), self.transport
        if waker is None or transport is None:
            return   # closed meanwhile (from another thread): nothing to poll
        events = transport.poll(0 if urgent else self._wait_ms(timeout_ms), waker)
        waker.clear()
        with self.lock:
            self._run_posted()
            for event in events:
                self._on_event(event)
            self._tick()
            self._free_seats_changed()

    def _on_event(self, event: Incoming) -> None:
        now = time.monotonic()
        if event.kind == "joined":
            self._input(lambda m: m.linked(now, event.peer, event.name, event.address), now)
        elif event.kind == "left":
            self._input(lambda m: m.unlinked(now, event.peer, event.reason), now)
        else:
            self._receive(event.peer, event.data)
            if event.peer in self.machine.spectators.watchers and self.transport is not None:
                # a lobby connection (pinned by its handshake, as any would-be player) that asked to watch: its
                # name is a spectator's label from now on, not a pin (HostMachine.pins)
                self.transport.unpin(event.peer)

    def _send(self, to: bytes, data: bytes) -> None:
        if self.transport is not None and not self.transport.send(to, data) \
                and to in self.machine.spectators.watchers:
            # a spectator that does not read (its send queue full) is let go, never waited for: the players
            # must not feel it (docs/protocol.md "Spectators")
            self.machine.spectators.unlinked(to)
            self.machine.spectators.dropped += 1
            self.transport.drop(to)

    def _hangup(self, to: bytes) -> None:
        if self.transport is not None:
            self.transport.drop(to)

    def _free_seats_changed(self) -> None:
        free = self.free_seats()
        if free != self._free_seen:
            self._free_seen = free
            if self.on_free_seats is not None:
                self.on_free_seats(free)
        places = self.watch_places()
        if places != self._watch_seen:
            self._watch_seen = places
            if self.on_watch_places is not None:
                self.on_watch_places(places)

    def watch_places(self) -> int:
        """How many more spectators this game takes now: the terms' most less those watching, from the lobby on
        (a spectator may come before the seats are taken and is sent the header when the game starts); 0 for a
        game nobody may watch, and once it is over."""
        spectating = self.machine.spectating
        if spectating is None or self.phase in (Phase.OVER, Phase.DONE):
            return 0
        watching = sum(1 for w in self.machine.spectators.watchers.values() if w.watching)
        return max(0, spectating.most - watching)

    def close(self) -> None:
        with self.lock:
            if self.transport is None:
                return
            self._closing = True
            machine = self.machine
            try:
                # how long, for whom and when to stop is the machine's (HostMachine.close_requested): this shell
                # only polls and feeds it until it no longer lingers
                machine.close_requested(time.monotonic())
                self._carry_out(machine.drain())
                while machine.lingers(time.monotonic()):
                    for event in self.transport.poll(50):
                        self._on_event(event)   # after the end: acknowledgements, wants, and a seat's resume
                    self._tick()                # and what the tick asks is carried out now, not at the next event
            except Exception as exc:   # a bug met while lingering: the joiners are still told, the file closed
                log.error("the host stopped waiting for the last acknowledgements", exc_info=exc)
            goodbye = machine.goodbye()
            transport, self.transport = self.transport, None
            try:
                try:
                    transport.broadcast(goodbye)
                finally:   # the sockets and ports go whatever the goodbye met
                    transport.close()
            finally:
                self._close_waker()
                self._close_writer()

    # ------------------------------------------------------------------------------ for the CLI and the client

    @property
    def host_seat(self) -> int:
        return self.machine.host_seat_number

    @property
    def host_seats(self) -> list[int]:
        return self.machine.host_seats

    @property
    def also(self) -> dict[int, tuple[str, Any, Decider]]:
        return self.machine.also

    @property
    def players(self) -> int:
        return self.machine.players

    def free_seats(self) -> int:
        return self.machine.free_seats()

    def peers(self) -> list[PeerState]:
        """Every seated joiner: connected or lost since when, and what happens if it stays away."""
        now = time.monotonic()
        out = []
        for seat, link in sorted(self.machine.lobby.seated().items()):
            name = self._name(seat) if self.names else wire.clip(link.name, 64)
            if link.up:
                out.append(PeerState(seat, name, True))
                continue
            gone = max(0.0, now - link.changed) if link.changed else 0.0
            claim = self._claim_in(seat)
            if claim is not None:
                text, deadline = f"if {name} is not back in {claim:.0f} s, you win by forfeit", claim
            elif self.phase is Phase.PLAY:
                text, deadline = (f"{name} has {self.reveal_timeout:g} s to come back once it is its turn; "
                                  "you may play on", None)
            else:
                text, deadline = "", None
            out.append(PeerState(seat, name, False, gone, text, deadline))
        return out

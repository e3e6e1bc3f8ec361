"""A joiner's shell: its transport to the host and, in games of three seats or more, its direct links to the
other joiners (netplay/links.py), around the joiner's state machine (netplay/protocol/machines.py: the
offer and header checks, following the host's sequence, claims, resume, rematch).

    session = JoinSession(identity, decider, "127.0.0.1:7000")   # any Decider: a bot, a UI
    outcome = session.run()

Resume (`saved=`): the transcript is rebuilt from this peer's replay file with its saved seeds (each checked
against the commitment its seat made), and the host is asked for the frames after our last one (we send
its number and hash; nothing secret moves). The same exchange runs after every reconnection.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import time
from typing import Any

import zmq

from netplay import wire
from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.links import Mesh
from netplay.protocol.machines import JoinMachine
from netplay.protocol.state import Phase
from netplay.protocol.waits import FILL_S
from netplay.resume import SavedSeat
from netplay.session import Decider, PeerState, Session, version
from netplay.transcript import ResumeError, check_seeds, read_own_replay
from netplay.transport import JoinTransport, Refused, parse_address
from replays.ledger import Dispute, Rejected, SeatSecrets

log = logging.getLogger("netplay.session")


class JoinSession(Session):
    role = "joiner"

    def __init__(self, identity: Identity, decider: Decider, address: str, *, saved: SavedSeat | None = None,
                 known_peers: KnownPeers | None = None, connect_timeout_s: float = 10.0,
                 also: list[tuple[str, Decider]] | tuple = (), wait_s: float = FILL_S, **kwargs: Any):
        super().__init__(identity, decider, **kwargs)
        self.address = address
        self.mesh: Mesh | None = None
        self._saved_port = saved.mesh_port if saved is not None else 0
        own = read_own_replay(saved.replay) if saved is not None else None
        self.transport: JoinTransport | None = JoinTransport(identity, address, known_peers,
                                                             connect_timeout_s=connect_timeout_s)
        try:
            if saved is not None and self.transport.host_key.hex() != saved.host_key:
                raise ResumeError(f"the host at {address} is not the one of the saved game (key "
                                  f"{self.transport.host_fingerprint})")
            machine = JoinMachine(identity, decider, host_key=self.transport.host_key, address=address, also=also,
                                  entropy=os.urandom, wall_clock=lambda: int(time.time()), version=version(),
                                  listen=self._listen, fill_s=wait_s)
            self.machine = machine
            if saved is not None:
                self._load(machine, saved, own)
        except BaseException:
            self.transport.close()
            if self.mesh is not None:
                self.mesh.close()
            raise
        self._gen = self.transport.generation
        self._stranger_told = False
        self._host_up = True
        now = time.monotonic()
        self._input(lambda m: m.linked(now, self.transport.host_key, self.transport.host_name or ""), now)

    def _load(self, machine: JoinMachine, saved: SavedSeat, own: Any) -> None:
        if own.header.session != saved.session_id:
            raise ResumeError(f"{saved.replay} holds another session than the saved one")
        secrets = [SeatSecrets(saved.seat, self.identity.private_key, saved.seed_bytes)]
        secrets += [SeatSecrets(int(s), self.identity.seat_key(name), bytes.fromhex(seed))
                    for s, seed, name in saved.extra]
        check_seeds(own.header, own.frames, secrets)
        try:
            machine.load(saved, own.header, own.frames, own.certs)
        except (ValueError, Rejected, Dispute) as exc:   # the header's seat key is not ours, or the frames
            raise ResumeError(f"cannot resume {saved.replay}: {exc}") from None
        if machine.book.ledger.closed:
            from netplay import resume
            resume.remove(saved.session_id, saved.seat)
            raise ResumeError(f"nothing to resume: that game is over ({machine.book.ledger.status})")
        self.writer = own.reopen(self.fsync)
        machine.book.path = self.writer.path
        self.replays.append(self.writer.path)
        if machine.players > 2:
            machine.listen()
        self._carry_out(machine.drain())

    @property
    def host_fingerprint(self) -> str | None:
        return self.transport.host_fingerprint if self.transport else None

    # ------------------------------------------------------------------------------ the direct links

    def _listen(self) -> int:
        """Open our port for the other joiners' direct links (on loopback when the host is on loopback)."""
        if self.mesh is None:
            host, _, _ = parse_address(self.address)
            try:
                local = ipaddress.ip_address(host.strip("[]")).is_loopback
            except ValueError:
                local = host == "localhost"
            bind = "127.0.0.1" if local else "0.0.0.0"
            try:
                self.mesh = Mesh(self.identity, bind, self._seated, self._saved_port)
            except Exception:   # the saved port is taken: any free one (the host tells the others)
                self.mesh = Mesh(self.identity, bind, self._seated, 0)
        return self.mesh.port

    def _seated(self, key: bytes) -> bool:
        header = self.machine.header if self.machine is not None else None
        return header is not None and key != self.identity.public_key and any(k == key for k, _ in header.seats)

    def _dial(self, to: bytes, address: str) -> None:
        if self.mesh is not None:
            self.mesh.dial(to, address)

    def _send(self, to: bytes, data: bytes) -> None:
        if self.transport is None:
            return
        if to == self.transport.host_key:
            self.transport.send(data)
        elif self.mesh is not None:
            self.mesh.send(to, data)

    # ------------------------------------------------------------------------------ the loop

    def step(self, timeout_ms: int = 100) -> None:
        with self.lock:
            self._run_posted()
            self._tick()
            urgent = self.outcome is not None or self.decision_queued()
        waker, transport = self._poll_waker(), self.transport
        if waker is None or transport is None:
            return   # closed meanwhile (from another thread): nothing to poll
        try:
            messages, links = self._poll_all(0 if urgent else self._wait_ms(timeout_ms), waker)
            waker.clear()
        except (Refused, KeyChanged) as exc:   # on a reconnection: another host now answers there
            with self.lock:
                self.finish(1, str(exc))
            return
        with self.lock:
            self._run_posted()
            now = time.monotonic()
            host = transport.host_key
            if transport.strangers and not self._stranger_told:   # once: the transport logs each stranger
                self._stranger_told = True
                self.machine.say(f"{transport.last_error}; waiting for our host as if it were unreachable")
            if transport.generation != self._gen or transport.connected != self._host_up:
                if self._host_up:
                    self._input(lambda m: m.unlinked(now, host, "silent"), now)
                self._gen, self._host_up = transport.generation, transport.connected
                if transport.connected:
                    self.machine.say("reconnected to the host")
                    self._input(lambda m: m.linked(now, host, transport.host_name or ""), now)
            for data in messages:
                self._receive(host, data)
                if self.outcome is not None:
                    break
            for event in links:
                if event.kind == "joined":
                    self._input(lambda m, e=event: m.linked(now, e.key, e.name), now)
                elif event.kind == "left":
                    self._input(lambda m, e=event: m.unlinked(now, e.key, e.reason), now)
                else:
                    self._receive(event.key, event.data)
            self._tick()

    def _poll_all(self, timeout_ms: int, waker: Any) -> tuple[list[bytes], list]:
        """What arrived from the host and on the direct links, waiting at most `timeout_ms` for anything."""
        transport, mesh = self.transport, self.mesh
        if mesh is None:
            return transport.poll(timeout_ms, waker), []
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            messages = transport.poll(0)
            links = mesh.poll()
            now = time.monotonic()
            if messages or links or now >= deadline or waker.woken:
                return messages, links
            items = [*transport.pollables(), *mesh.pollables(), (waker, zmq.POLLIN)]
            wait = min(deadline - now, 0.05)
            ready = zmq.zmq_poll(items, max(1, math.ceil(wait * 1000)))
            if any(item[0] is waker or item[0] == waker.fileno() for item in ready):
                waker.woken = True

    def close(self) -> None:
        with self.lock:
            if self.transport is None:
                return
            self._closing = True
            if self.machine is not None:
                self.machine.closing = True
            transport, self.transport = self.transport, None
            try:
                try:
                    if transport.connected:
                        reason = self.outcome.message if self.outcome else "the joiner left"
                        transport.send(wire.pack("bye", wire.clip(reason)))
                finally:   # the sockets go whatever the goodbye met
                    transport.close()
            finally:   # whatever the transport did, the direct links and the replay file are closed
                mesh, self.mesh = self.mesh, None
                try:
                    if mesh is not None:
                        mesh.close()
                finally:
                    self._close_waker()
                    self._close_writer()

    # ------------------------------------------------------------------------------ for the client

    def peers(self) -> list[PeerState]:
        """The host and the other joiners, as far as this joiner can tell."""
        machine = self.machine
        transport = self.transport
        out = []
        seat = machine.host_seat
        name = self._name(seat) if seat is not None else (transport.host_name if transport is not None else "host")
        if transport is None:
            return [PeerState(seat, name, False, 0.0, "the connection is closed")]
        if transport.connected and machine.host_gone_at is None:
            out.append(PeerState(seat, name, True))
        else:
            now = time.monotonic()
            gone = max(0.0, now - machine.host_gone_at) if machine.host_gone_at is not None else 0.0
            claim = self._claim_in(seat) if seat is not None else None
            if self.phase is Phase.PLAY and self.transcript is not None and not self.transcript.ledger.closed:
                if claim is not None:
                    out.append(PeerState(seat, name, False, gone, f"if {name} is not back in {claim:.0f} s, you "
                                                                  "claim the win by forfeit", claim))
                else:
                    left = machine.host_lost_in(now, self.reveal_timeout)
                    out.append(PeerState(seat, name, False, gone, f"if {name} is not back in {left:.0f} s, the game "
                                                                  "stops unfinished (resume it later with netplay "
                                                                  "join --resume)", left))
            else:
                out.append(PeerState(seat, name, False, gone, ""))
        for other, (key, _) in sorted(machine.lobby.peers.items()):
            if machine.seat_of_peer(key) != other:
                continue
            link = machine.links.get(key)
            up = link is not None and link.up
            how = "" if up else "no direct link: through the host"
            out.append(PeerState(other, self._name(other), True, 0.0, how))
        return out

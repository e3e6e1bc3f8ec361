"""A joiner's direct links to the other joiners (games of three seats or more), over the same authenticated,
encrypted transport as its link to the host.

Every joiner listens on a port of its own (a `HostTransport`: bootstrap and encrypted port, the same
handshake, pinning by the key the header names), and dials every joiner of a higher seat (a
`JoinTransport` that connects in the background and reconnects by itself). Only the keys that hold a seat
of the game are admitted. `poll()` reports every link as ("joined" | "left" | "message", key, name, data)
so the session's state machine sees one peer per key, whichever side dialled.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.transport import HostTransport, JoinTransport, Refused, TransportError

log = logging.getLogger("netplay.session")

__all__ = ["Mesh", "LinkEvent"]


@dataclass(frozen=True, slots=True)
class LinkEvent:
    kind: str       # joined | left | message
    key: bytes
    name: str = ""
    data: bytes = b""
    reason: str = ""


class Mesh:
    """See the module docstring. `admitted(key)` tells whether a key holds a seat of the game."""

    def __init__(self, identity: Identity, bind: str, admitted: Callable[[bytes], bool], port: int = 0):
        self.identity = identity
        self.admitted = admitted
        self.listener = HostTransport(identity, bind, port, known_peers=None,
                                      accept=lambda key, name: None if admitted(key) else "you hold no seat here")
        self.port = self.listener.port
        self.dialled: dict[bytes, JoinTransport] = {}
        self._up: dict[bytes, bool] = {}

    def dial(self, key: bytes, address: str) -> None:
        """Connect to the joiner with `key` at `address` (host:port/fingerprint), in the background."""
        if key in self.dialled:
            return
        try:
            self.dialled[key] = JoinTransport(self.identity, address, KnownPeers(), connect_timeout_s=5.0,
                                              wait=False)
        except TransportError as exc:
            log.warning("cannot dial the joiner at %s: %s", address, exc)

    def poll(self) -> list[LinkEvent]:
        """What arrived on every link, without waiting (the caller waits on `pollables()`)."""
        events = [LinkEvent(e.kind, e.peer, e.name, e.data, e.reason) for e in self.listener.poll(0)]
        for key, transport in list(self.dialled.items()):
            try:
                messages = transport.poll(0)
            except (Refused, KeyChanged) as exc:
                log.warning("the joiner at %s refused our link: %s", transport.address, exc)
                transport.close()
                del self.dialled[key]
                if self._up.pop(key, False):
                    events.append(LinkEvent("left", key, reason=str(exc)))
                continue
            up = transport.connected and transport.host_key == key
            if transport.connected and transport.host_key != key:
                log.warning("the joiner at %s is not the one the host named: closing", transport.address)
                transport.close()
                del self.dialled[key]
                continue
            if up != self._up.get(key, False):
                self._up[key] = up
                events.append(LinkEvent("joined" if up else "left", key, transport.host_name or "",
                                        reason="" if up else "silent"))
            events += [LinkEvent("message", key, data=data) for data in messages]
        return events

    def pollables(self) -> list:
        items = self.listener.pollables()
        for transport in self.dialled.values():
            items += transport.pollables()
        return items

    def send(self, key: bytes, data: bytes) -> bool:
        transport = self.dialled.get(key)
        if transport is not None:
            return transport.connected and transport.send(data)
        return self.listener.send(key, data)

    def close(self) -> None:
        for transport in self.dialled.values():
            with contextlib.suppress(Exception):
                transport.close()
        self.dialled.clear()
        self.listener.close()

"""The host's end: the bootstrap port that hands out the signed card, the encrypted port where
joiners handshake (stateless until AUTH, rationed per source), the joined peers, their heartbeats and
their silence, and the sweep of connections that hold no peer."""

from __future__ import annotations

import contextlib
import hmac
import logging
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import zmq

from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.transport.connections import _Connections
from netplay.transport.droplog import _DropLog
from netplay.transport.errors import MessageError
from netplay.transport.gates import _Gate
from netplay.transport.limits import _Budget, raise_file_limit
from netplay.transport.messages import (
    BadName,
    _card_message,
    _hello_nonce,
    _pack,
    _transcript,
    hello_version,
    parse_auth,
    parse_boot_request,
    parse_hello,
)
from netplay.transport.settings import (
    _KIND_BYTE,
    _KIND_NAMES,
    AUTH,
    AUTH_RATE,
    BATCH,
    BOOT_CARD,
    BOOT_ERROR,
    BOOT_LIFETIME_S,
    BYE,
    CARD_RATE,
    CHALLENGE,
    CLOSE_LINGER_MS,
    COOKIE_DOMAIN,
    COOKIE_WINDOW_S,
    DATA,
    DEFAULT_MAX_BYTES,
    FILE_RESERVE,
    HANDSHAKE_IVL_MS,
    HEARTBEAT_S,
    HELLO,
    HELLO_RATE,
    HOST_DOMAIN,
    JOIN_DOMAIN,
    LISTEN_BACKLOG,
    LIVENESS,
    PING,
    PROTOCOL,
    REFUSED,
    REPLY_RATE,
    UNAUTH_LIFETIME_S,
    UNKNOWN,
    WELCOME,
    _check_own_settings,
    _ms,
)
from netplay.transport.sockets import (
    _EVENTS,
    _NOBLOCK,
    _POLLIN,
    _RCVMORE,
    _SNDMORE,
    _bind,
    _Endpoint,
    _fd_of,
    _hard_cap,
    _socket,
    _source_of,
)
from netplay.transport.waker import Waker, _note_wake
from replays.crypto import fingerprint, verify

log = logging.getLogger("netplay.transport")


@dataclass(frozen=True, slots=True)
class Incoming:
    kind: str        # "joined" | "message" | "left"
    peer: bytes      # the peer's raw Ed25519 public key; also its id
    name: str
    data: bytes = b""
    reason: str = ""
    address: str = ""    # "joined": the address the peer connected from (as ZeroMQ reports it)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.peer)


@dataclass(slots=True)
class _Peer:
    key: bytes
    name: str
    rid: bytes
    join_nonce: bytes     # of the handshake that admitted it: a repeated HELLO with it is a late copy
    last_recv: float
    last_send: float
    fd: int = -1          # its connection's file descriptor (and its socket's inode): never closed for its age
    inode: int = -1


class HostTransport(_Endpoint):
    """Binds a plain bootstrap ROUTER on `port` (hands out the signed host card) and a CurveZMQ ROUTER
    on `curve_port` (default: port+1 when a port is given, else any free port) for the game itself."""

    def __init__(self, identity: Identity, bind: str = "127.0.0.1", port: int = 0, *,
                 curve_port: int | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                 heartbeat_s: float = HEARTBEAT_S, liveness: int = LIVENESS,
                 known_peers: KnownPeers | None = None,
                 accept: Callable[[bytes, str], str | None] | None = None,
                 pinning: Callable[[bytes, str], bool] | None = None):
        _check_own_settings(max_bytes, heartbeat_s, liveness)
        if not 0 <= port <= 65535 or (curve_port is not None and not 0 <= curve_port <= 65535):
            raise ValueError("ports are 0..65535")
        if curve_port is None and port == 65535:
            raise ValueError("port 65535 leaves no room for the encrypted port, which is the next one (P+1): "
                             "use a port of at most 65534, or 0 for any free port")
        self.identity, self.max_bytes = identity, max_bytes
        self.heartbeat_s, self.liveness = heartbeat_s, liveness
        self.known_peers, self.accept = known_peers, accept
        #: whether a handshake's name is checked against `known_peers` and pinned (None: every one); the
        #: session's rule leaves out a key that can only watch (HostMachine.pins)
        self.pinning = pinning
        self._fresh_pins: dict[bytes, str] = {}   # connected keys whose handshake pinned a new name: `unpin`
        self.stats: Counter[str] = Counter()
        self._drop = _DropLog()
        self._note = _DropLog(prefix="")
        self._limited = _DropLog(limit=1, prefix="rate limit: ")    # expected under a flood: one line a second
        self.file_limit = raise_file_limit()
        self._ctx = zmq.Context()
        self._closed = False
        host = f"[{bind}]" if ":" in bind else bind
        self._watch: list[_Connections] = []
        try:
            self._boot = _socket(self._ctx, zmq.ROUTER, 4096)
            self._sock = _socket(self._ctx, zmq.ROUTER, _hard_cap(max_bytes))
            for listener in (self._boot, self._sock):
                listener.handshake_ivl = HANDSHAKE_IVL_MS
                listener.backlog = LISTEN_BACKLOG
            self._sock.router_mandatory = 1
            self._sock.sndhwm = self._sock.rcvhwm = 10000
            self._sock.curve_server = True
            self._sock.curve_secretkey = identity.curve_secret
            self._sock.curve_publickey = identity.curve_public
            hb_ms = _ms(heartbeat_s)
            self._sock.heartbeat_ivl, self._sock.heartbeat_timeout = hb_ms, hb_ms * liveness
            if ":" in bind:
                self._boot.ipv6 = self._sock.ipv6 = True
            self.port = _bind(self._boot, host, port, "the bootstrap port P")
            if curve_port is None:
                curve_port, role = (port + 1, "the encrypted port C = P+1") if port else (0, "the encrypted port C")
            else:
                role = "the encrypted port C"
            self.curve_port = _bind(self._sock, host, curve_port, role)
            budget = _Budget(max(64, self.file_limit - FILE_RESERVE))
            self._watch = [_Connections(self._boot, "the bootstrap port", self.port, BOOT_LIFETIME_S, budget),
                           _Connections(self._sock, "the encrypted port", self.curve_port, UNAUTH_LIFETIME_S,
                                        budget)]
        except Exception:
            for watch in self._watch:
                watch.close()
            self._ctx.destroy(linger=0)
            raise
        self._boot_conns, self._curve_conns = self._watch
        self.bind = bind
        self.address = f"{host}:{self.port}"
        self._curve_raw = identity.curve_public_raw
        self._secret = os.urandom(32)          # keys the cookies; never leaves this process
        self._hello_gate, self._auth_gate = _Gate(HELLO_RATE), _Gate(AUTH_RATE)
        self._card_gate, self._reply_gate = _Gate(CARD_RATE), _Gate(REPLY_RATE)
        self._by_rid: dict[bytes, _Peer] = {}
        self._by_key: dict[bytes, _Peer] = {}
        self._next_tick = 0.0
        self._next_prune = 0.0
        self._next_sweep = 0.0
        self._polled = [(self._boot, _POLLIN), (self._sock, _POLLIN), *((w.monitor, _POLLIN) for w in self._watch)]
        log.info("host %s (%s) listening on %s, curve port %d", identity.name, identity.fingerprint,
                 self.address, self.curve_port)

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    @property
    def peers(self) -> dict[bytes, str]:
        return {key: peer.name for key, peer in self._by_key.items()}

    @property
    def connections(self) -> dict[str, int]:
        """Connections now open on each port, the most there were, and how many this host closed
        because they held no peer for too long or were over its budget (diagnostics, tests)."""
        boot, curve = self._boot_conns, self._curve_conns
        return {"bootstrap": len(boot), "encrypted": len(curve), "peak": boot.budget.peak,
                "closed": boot.closed + curve.closed, "budget": boot.budget.allowed}

    # -- the API ------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int = 0, wake: Waker | None = None) -> list[Incoming]:
        self._check_open()
        deadline = time.monotonic() + max(0, timeout_ms) / 1000
        events: list[Incoming] = []
        polled = self._polled if wake is None else [*self._polled, (wake, _POLLIN)]
        while True:
            # read what is there (each drain asks its socket first), and wait only when nothing was
            now = time.monotonic()
            for watch in self._watch:     # first, so a message's connection is known when it is handled
                watch.read(now)
            self._drain_boot()
            self._drain(events)
            self._tick(events)
            now = time.monotonic()
            if events or now >= deadline or (wake is not None and wake.woken):
                return events
            wait = min(deadline - now, self.heartbeat_s / 4)
            _note_wake(zmq.zmq_poll(polled, max(1, math.ceil(wait * 1000))), wake)

    def send(self, peer: bytes, data: bytes) -> bool:
        self._check_open()
        if len(data) > self.max_bytes:
            log.warning("not sending %d bytes to %s: over the %d byte cap", len(data), fingerprint(peer),
                        self.max_bytes)
            return False
        target = self._by_key.get(bytes(peer))
        if target is None:
            log.debug("not sending to %s: not connected", fingerprint(peer))
            return False
        return self._send(target, DATA, data)

    def broadcast(self, data: bytes, exclude: bytes | Iterable[bytes] | None = None) -> int:
        self._check_open()
        if len(data) > self.max_bytes:
            log.warning("not broadcasting %d bytes: over the %d byte cap", len(data), self.max_bytes)
            return 0
        if exclude is None:
            skip: set[bytes] = set()
        elif isinstance(exclude, bytes | bytearray | memoryview):
            skip = {bytes(exclude)}
        else:
            skip = {bytes(k) for k in exclude}
        return sum(self._send(peer, DATA, data) for key, peer in list(self._by_key.items()) if key not in skip)

    def drop(self, peer: bytes) -> None:
        """Let a connected peer go (BYE, then forget its connection): the session decided so, and is told
        nothing more about it."""
        self._check_open()
        target = self._by_key.pop(bytes(peer), None)
        if target is not None:
            self._send(target, BYE)
            self._by_rid.pop(target.rid, None)

    def pollables(self) -> list:
        """The (socket, event) pairs a caller that waits on several transports at once polls for this one."""
        return list(self._polled)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for peer in list(self._by_key.values()):
            with contextlib.suppress(zmq.ZMQError):
                self._sock.send_multipart([peer.rid, bytes([BYE])], flags=zmq.NOBLOCK)
        self._sock.linger = CLOSE_LINGER_MS if self._by_key else 0
        for listener in (self._boot, self._sock):
            with contextlib.suppress(zmq.ZMQError):
                listener.disable_monitor()
        for watch in self._watch:
            watch.close()
        self._boot.close()
        self._sock.close()
        self._ctx.term()
        self._by_key.clear()
        self._by_rid.clear()

    # -- internals ----------------------------------------------------------------------------------

    def _send(self, peer: _Peer, kind: int, body: bytes = b"") -> bool:
        try:
            sock = self._sock   # send_multipart by hand: the routing id, then the message
            sock.send(peer.rid, _NOBLOCK | _SNDMORE)
            sock.send(_KIND_BYTE[kind] + body, _NOBLOCK)
        except zmq.Again:
            self._drop("%s to %s (%s): its send queue is full", _KIND_NAMES[kind], peer.name, fingerprint(peer.key))
            return False
        except zmq.ZMQError as exc:   # EHOSTUNREACH: the connection is gone; liveness will report it
            log.debug("cannot reach %s: %s", peer.name, exc)
            return False
        peer.last_send = time.monotonic()
        return True

    def _reply(self, rid: bytes, kind: int, body: bytes = b"") -> None:
        with contextlib.suppress(zmq.ZMQError):
            self._sock.send_multipart([rid, bytes([kind]) + body], flags=zmq.NOBLOCK)

    def _answer(self, rid: bytes, source: str, kind: int, body: bytes, now: float) -> bool:
        """REFUSED or UNKNOWN to a connection that is no peer: cheap, but a flood must not turn the
        host into an amplifier either, so these go through their own gate."""
        if not self._reply_gate.allow(source, rid, now):
            self.stats["reply_limited"] += 1
            return False
        self._reply(rid, kind, body)
        return True

    def _drain_boot(self) -> None:
        for _ in range(BATCH):
            if not self._boot.getsockopt(_EVENTS) & _POLLIN:
                return
            frames = self._boot.recv_multipart(flags=_NOBLOCK, copy=False)
            if len(frames) != 2:
                self._drop("bootstrap request of %d parts (expected 1)", len(frames) - 1)
                continue
            rid, body = frames[0].bytes, frames[1].bytes
            try:
                request = parse_boot_request(body)
            except MessageError as exc:
                self.stats["boot_malformed"] += 1
                self._drop("bootstrap request: %s", exc)
                continue
            now = time.monotonic()
            source = _source_of(frames[1])
            if not self._card_gate.allow(source, rid, now):      # every answer on port P passes this gate
                self.stats["card_limited"] += 1
                self._limited("bootstrap requests from %s over its rate dropped", source)
                continue
            if request.version != PROTOCOL:
                reply = _pack([BOOT_ERROR, PROTOCOL, f"host speaks protocol {PROTOCOL}, not {request.version}"])
            else:
                ident = self.identity
                sig = ident.sign(_card_message(ident.name, ident.public_key, self._curve_raw, self.curve_port,
                                               request.nonce))
                self.stats["card"] += 1
                reply = _pack([BOOT_CARD, PROTOCOL, ident.name, ident.public_key, self._curve_raw,
                               self.curve_port, sig])
            with contextlib.suppress(zmq.ZMQError):
                self._boot.send_multipart([rid, reply], flags=zmq.NOBLOCK)

    def _drain(self, events: list[Incoming]) -> None:
        sock = self._sock
        for _ in range(BATCH):
            if not sock.getsockopt(_EVENTS) & _POLLIN:
                return
            # recv_multipart by hand: the routing id as bytes, the body as a frame (its metadata names
            # the source address the flood limits need)
            rid = sock.recv(_NOBLOCK)
            frames = [rid]
            while sock.getsockopt(_RCVMORE):
                frames.append(sock.recv(_NOBLOCK, copy=False))
            if len(frames) != 2 or not len(frames[1]):
                self._drop("message of %d parts or empty (expected one non-empty part)", len(frames) - 1)
                continue
            msg = frames[1].bytes
            try:
                self._handle(rid, frames[1], msg, events)
            except MessageError as exc:
                self._drop("%s from %s: %s", _KIND_NAMES.get(msg[0], f"kind {msg[0]}"), self._who(rid), exc)

    def _who(self, rid: bytes) -> str:
        peer = self._by_rid.get(rid)
        if peer is not None:
            return f"{peer.name} ({fingerprint(peer.key)})"
        return f"unauthenticated connection {rid.hex()}"

    def _handle(self, rid: bytes, frame: zmq.Frame, msg: bytes, events: list[Incoming]) -> None:
        kind, now = msg[0], time.monotonic()
        peer = self._by_rid.get(rid)
        if peer is not None:
            peer.last_recv = now
            if kind == DATA:
                if len(msg) - 1 > self.max_bytes:
                    raise MessageError(f"{len(msg) - 1} bytes, over the {self.max_bytes} byte cap")
                events.append(Incoming("message", peer.key, peer.name, msg[1:]))
                return
            if kind == PING:
                return
            if kind == BYE:
                self._remove(peer, "closed the connection", events)
                return
            if kind == AUTH or (kind == HELLO and _hello_nonce(msg[1:]) == peer.join_nonce):
                # a joiner repeats HELLO until WELCOME arrives and answers every CHALLENGE: late copies
                log.debug("late %s from %s: already connected", _KIND_NAMES[kind], peer.name)
                return
            if kind != HELLO:
                raise MessageError("unexpected after the handshake")
            self._remove(peer, "started a new handshake", events)
        source = _source_of(frame)
        if kind == HELLO:
            self._hello(rid, source, msg[1:], now)
        elif kind == AUTH:
            self._auth(rid, source, msg[1:], events, now, _fd_of(frame))
        elif kind in (DATA, PING):
            # A joiner we do not know (we restarted, or declared it gone): ask it to handshake again.
            log.debug("%s from unknown connection %s: asking it to handshake", _KIND_NAMES[kind], rid.hex())
            self._answer(rid, source, UNKNOWN, b"", now)
        else:
            raise MessageError("unexpected before the handshake")

    def _refuse(self, rid: bytes, source: str, who: str, key: bytes, reason: str, now: float) -> None:
        self.stats["refused"] += 1
        if self._answer(rid, source, REFUSED, _pack([reason]), now):
            self._note("refused %s (%s) from %s: %s", who, fingerprint(key), source, reason)

    def _cookie(self, window: int, rid: bytes, source: str, name: str, key: bytes, join_nonce: bytes,
                host_nonce: bytes) -> bytes:
        return hmac.digest(self._secret, COOKIE_DOMAIN + _pack([window, rid, source, name, key, join_nonce,
                                                                host_nonce]), "sha256")

    def _hello(self, rid: bytes, source: str, body: bytes, now: float) -> None:
        try:
            hello = parse_hello(body)
            version = hello.version
        except MessageError as exc:
            version = hello_version(body)
            if version == PROTOCOL and isinstance(exc, BadName):
                self._refuse_name(rid, source, exc, now)
                return
            if version is None or version == PROTOCOL:
                raise
        if version != PROTOCOL:
            self._answer(rid, source, REFUSED, _pack([f"host speaks protocol {PROTOCOL}, not {version}"]), now)
            return
        # The session's admission rule first: while a game runs it turns away every key that holds no
        # seat, before the host spends anything on it.
        if not self._admitted(rid, source, hello.name, hello.key, self._hello_gate, "HELLO", now):
            return
        host_nonce = os.urandom(32)
        window = int(now // COOKIE_WINDOW_S)
        cookie = self._cookie(window, rid, source, hello.name, hello.key, hello.nonce, host_nonce)
        self.stats["challenge"] += 1
        self._reply(rid, CHALLENGE, _pack([host_nonce, cookie]))

    def _admitted(self, rid: bytes, source: str, name: str, key: bytes, gate: _Gate, what: str, now: float) -> bool:
        """Whether the host goes on to the costly part of a HELLO or an AUTH: the session's admission rule
        first (it must not cost the host anything to turn a key away), then the step's flood gate. A
        refusal is answered and a drop counted here, the same way for both steps."""
        reason = self.accept(key, name) if self.accept is not None else None
        if reason is not None:
            self._refuse(rid, source, repr(name), key, reason, now)
            return False
        if not gate.allow(source, rid, now):
            self.stats[f"{what.lower()}_limited"] += 1
            self._limited(f"{what}s from %s over its rate dropped", source)
            return False
        return True

    def _refuse_name(self, rid: bytes, source: str, problem: BadName, now: float) -> None:
        self.stats["refused"] += 1
        if self._answer(rid, source, REFUSED, _pack([str(problem)]), now):
            self._note("refused a connection from %s: %s", source, problem)

    def _auth(self, rid: bytes, source: str, body: bytes, events: list[Incoming], now: float, fd: int = -1) -> None:
        try:
            auth = parse_auth(body)
        except BadName as exc:
            self._refuse_name(rid, source, exc, now)
            return
        window = int(now // COOKIE_WINDOW_S)
        if not any(hmac.compare_digest(auth.cookie, self._cookie(w, rid, source, auth.name, auth.key,
                                                                 auth.join_nonce, auth.host_nonce))
                   for w in (window, window - 1)):
            self.stats["bad_cookie"] += 1
            raise MessageError("stale or forged cookie (not a CHALLENGE of ours to this connection)")
        if not self._admitted(rid, source, auth.name, auth.key, self._auth_gate, "AUTH", now):
            return
        ident = self.identity
        transcript = _transcript(self._curve_raw, ident.public_key, ident.name, auth.key, auth.name,
                                 auth.join_nonce, auth.host_nonce)
        self.stats["verify"] += 1
        if not verify(auth.key, None, JOIN_DOMAIN + transcript, auth.sig):
            self.stats["bad_signature"] += 1
            raise MessageError(f"handshake signature of {auth.name!r} ({fingerprint(auth.key)}) does not verify")
        if self.known_peers is not None and (self.pinning is None or self.pinning(auth.key, auth.name)):
            try:
                if self.known_peers.check(auth.name, auth.key):
                    self._fresh_pins[auth.key] = auth.name
            except KeyChanged as exc:
                self._refuse(rid, source, repr(auth.name), auth.key, str(exc), now)
                return
        old = self._by_key.get(auth.key)
        if old is not None:
            self._remove(old, "reconnected", events)
        peer = _Peer(auth.key, auth.name, rid, auth.join_nonce, now, now, fd)
        peer.inode = self._curve_conns.hold(fd, now)
        self._by_rid[rid], self._by_key[auth.key] = peer, peer
        params = _pack([_ms(self.heartbeat_s), self.liveness, self.max_bytes])
        sig = ident.sign(HOST_DOMAIN + transcript + params)
        self._send(peer, WELCOME, _pack([auth.host_nonce, _ms(self.heartbeat_s), self.liveness, self.max_bytes, sig]))
        log.info("%s (%s) joined from %s", auth.name, fingerprint(auth.key), source)
        events.append(Incoming("joined", auth.key, auth.name, address=source))

    def unpin(self, key: bytes) -> bool:
        """Take back the pin this connection's handshake made (its name was new, and is still pinned to this
        key): for a lobby connection that turned out to be a spectator (`pinning`). False if it made none."""
        name = self._fresh_pins.pop(key, None)
        if name is None or self.known_peers is None or self.known_peers.get(name) != key:
            return False
        self.known_peers.forget(name)
        log.info("unpinned %r (%s): it only watches", name, fingerprint(key))
        return True

    def _remove(self, peer: _Peer, reason: str, events: list[Incoming]) -> None:
        self._fresh_pins.pop(peer.key, None)
        self._by_rid.pop(peer.rid, None)
        self._curve_conns.release(peer.fd, peer.inode, time.monotonic())
        if self._by_key.get(peer.key) is peer:
            del self._by_key[peer.key]
        log.info("%s (%s) left: %s", peer.name, fingerprint(peer.key), reason)
        events.append(Incoming("left", peer.key, peer.name, reason=reason))

    def _tick(self, events: list[Incoming]) -> None:
        now = time.monotonic()
        if now < self._next_tick:
            return
        self._next_tick = now + self.heartbeat_s / 8
        silent = self.heartbeat_s * self.liveness
        for peer in list(self._by_key.values()):
            if now - peer.last_recv > silent:
                self._remove(peer, f"silent for {now - peer.last_recv:.1f} s", events)
            elif now - peer.last_send >= self.heartbeat_s:
                self._send(peer, PING)
        if now >= self._next_sweep:
            self._next_sweep = now + 0.25
            for watch in self._watch:
                watch.sweep(now)
        if now >= self._next_prune:
            self._next_prune = now + 1.0
            for gate in (self._hello_gate, self._auth_gate, self._card_gate, self._reply_gate):
                gate.prune(now)

"""Authenticated, encrypted message pipes between a host and its joiners (ZeroMQ over TCP).

This layer moves opaque byte strings; frames, signatures of frames and game logic live above it.
What it guarantees: every connection is CurveZMQ-encrypted, the peer at the other end proved that
it holds the Ed25519 key it claims (so the session can pin it and attribute frames to it), every
message is at most `max_bytes`, and a silent peer is reported gone. Details in docs/protocol.md,
section "Transport".

API (all calls are non-blocking or bounded by the timeout they take; single-threaded: call `poll`
at least once per heartbeat interval so the other side does not think you are gone):

    host = HostTransport(identity, bind="127.0.0.1", port=0, known_peers=None, accept=None)
        # known_peers: pin joiners by name (a changed key is refused); accept(key, name) -> None to
        # admit a joiner or a reason to refuse it (the session's rule: seats full, not in this game)
    host.address                     # "ip:port" that joiners pass to JoinTransport (bind 0.0.0.0:
                                     # show discovery.local_addresses() to the user instead)
    host.poll(timeout_ms)            # -> list[Incoming]; returns as soon as something arrived
    host.send(peer_key, data)        # -> bool (False: peer unknown/gone, or message refused)
    host.broadcast(data, exclude=None)  # -> number of peers sent to; the relay for 3+ peers
    host.peers                       # {ed25519 key: name} of the peers connected now
    host.close()

    Incoming(kind, peer, name, data, reason): kind is "joined", "message" or "left"; `peer` is the
    peer's raw Ed25519 public key, which is also its id: a joiner that reconnects (new socket, same
    key) is the same peer, reported as "left" (reason "reconnected") then "joined" again.

    join = JoinTransport(identity, "ip:port[/fingerprint]", known_peers, connect_timeout_s=10)
    join.host_key, join.host_name   # the host's Ed25519 key (pinned) and its name
    join.poll(timeout_ms)            # -> list[bytes]
    join.send(data)                  # -> bool (False while disconnected: the session resumes)
    join.connected, join.generation  # generation counts successful (re)connections
    join.close()

Both take keyword options max_bytes (default 1 MiB), heartbeat_s (1.0) and liveness (4 missed
heartbeats = gone); the joiner adopts the host's heartbeat settings when it connects.

The joiner reconnects by itself when the host goes silent, says goodbye or forgets it (host
restart); a different host key on reconnect raises `KeyChanged`, a refusal raises `Refused`.
Malformed or oversized input is dropped and logged on logger "netplay.transport", never raised.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Self

import msgpack
import zmq
from zmq.utils import z85

from netplay.identity import Identity, KeyChanged, KnownPeers, check_name
from replays.crypto import fingerprint, verify

log = logging.getLogger("netplay.transport")

PROTOCOL = 1
DEFAULT_MAX_BYTES = 1 << 20
HEARTBEAT_S = 1.0
LIVENESS = 4              # heartbeats a peer may miss before it counts as gone
HANDSHAKE_S = 5.0         # a half-done handshake is forgotten after this
MAX_PENDING = 64          # half-done handshakes kept at once (the rest are forgotten oldest first)
BATCH = 256               # messages read per socket per loop turn, so one flood cannot starve the rest
CLOSE_LINGER_MS = 100     # only at close, so a goodbye can leave; everything else lingers 0

# First byte of every message on the encrypted channel.
HELLO, CHALLENGE, AUTH, WELCOME, REFUSED, DATA, PING, BYE, UNKNOWN = range(1, 10)
_KIND_NAMES = {HELLO: "hello", CHALLENGE: "challenge", AUTH: "auth", WELCOME: "welcome", REFUSED: "refused",
               DATA: "data", PING: "ping", BYE: "bye", UNKNOWN: "unknown"}

BOOT_REQUEST = "netplay-bootstrap"
BOOT_CARD = "netplay-host"
BOOT_ERROR = "netplay-error"
CARD_DOMAIN = b"netplay/1/host-card\x00"
HOST_DOMAIN = b"netplay/1/handshake/host\x00"
JOIN_DOMAIN = b"netplay/1/handshake/joiner\x00"


class TransportError(Exception):
    """The transport cannot do what was asked."""


class ConnectFailed(TransportError, ConnectionError):
    """No host answered (in time) at the given address."""


class Refused(TransportError):
    """The host refused us, or the host's key is not the one we were told to expect."""


class _Malformed(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Incoming:
    kind: str        # "joined" | "message" | "left"
    peer: bytes      # the peer's raw Ed25519 public key; also its id
    name: str
    data: bytes = b""
    reason: str = ""

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.peer)


def parse_address(address: str) -> tuple[str, int, str | None]:
    """`host:port` or `host:port/fingerprint` (IPv6 as `[addr]:port`) -> (host, port, fingerprint)."""
    m = re.fullmatch(r"\s*(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})(?:/([0-9a-fA-F]{4}(?:-[0-9a-fA-F]{4}){3}))?\s*",
                     address)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise ValueError(f"expected host:port or host:port/xxxx-xxxx-xxxx-xxxx, got {address!r}")
    return m.group(1), int(m.group(2)), (m.group(3) or "").lower() or None


def _pack(obj: object) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _unpack(body: bytes, shape: tuple[type, ...]) -> list:
    """Decode a msgpack array of exactly `shape` (bytes fields of 32 bytes are checked by callers)."""
    try:
        value = msgpack.unpackb(body, raw=False, use_list=True, strict_map_key=True)
    except Exception as exc:  # msgpack raises several unrelated types on garbage
        raise _Malformed(f"undecodable ({type(exc).__name__})") from None
    if not isinstance(value, list) or len(value) != len(shape):
        raise _Malformed(f"expected an array of {len(shape)}")
    for item, kind in zip(value, shape, strict=True):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise _Malformed(f"expected {kind.__name__}, got {type(item).__name__}")
    return value


def _key32(value: bytes, what: str) -> bytes:
    if len(value) != 32:
        raise _Malformed(f"{what} must be 32 bytes")
    return value


def _card_message(name: str, ed_key: bytes, curve_key: bytes, curve_port: int, nonce: bytes) -> bytes:
    return CARD_DOMAIN + _pack([PROTOCOL, name, ed_key, curve_key, curve_port, nonce])


def _transcript(host_curve: bytes, host_key: bytes, host_name: str, join_key: bytes, join_name: str,
                join_nonce: bytes, host_nonce: bytes) -> bytes:
    return _pack([PROTOCOL, host_curve, host_key, host_name, join_key, join_name, join_nonce, host_nonce])


class _DropLog:
    """Logs why input was dropped, at most `limit` lines per second, so a flood of garbage cannot
    flood the log too; what was suppressed is counted in the next line."""

    def __init__(self, limit: int = 20):
        self.limit, self.window, self.count, self.suppressed = limit, 0.0, 0, 0

    def __call__(self, fmt: str, *args: object) -> None:
        now = time.monotonic()
        if now - self.window >= 1.0:
            self.window, self.count = now, 0
        if self.count >= self.limit:
            self.suppressed += 1
            return
        self.count += 1
        if self.suppressed:
            fmt += " (%d earlier drops not logged)"
            args = (*args, self.suppressed)
            self.suppressed = 0
        log.warning("dropped: " + fmt, *args)


def _socket(ctx: zmq.Context, kind: int, hard_cap: int) -> zmq.Socket:
    sock = ctx.socket(kind)
    sock.linger = 0
    sock.maxmsgsize = hard_cap    # beyond this ZeroMQ cuts the connection before buffering it
    return sock


def _hard_cap(max_bytes: int) -> int:
    # Between max_bytes and this, a message is received and dropped with a logged reason; beyond it
    # ZeroMQ refuses to buffer it at all and drops the connection (which then re-handshakes).
    return 2 * max_bytes + 65536


@dataclass(slots=True)
class _Pending:
    name: str
    key: bytes
    join_nonce: bytes
    host_nonce: bytes
    expires: float


@dataclass(slots=True)
class _Peer:
    key: bytes
    name: str
    rid: bytes
    last_recv: float
    last_send: float


class _Endpoint:
    """What host and joiner share as resources: `with` closes them, and a closed one refuses use."""

    _closed: bool

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()  # type: ignore[attr-defined]  # each subclass closes its own sockets

    def _check_open(self) -> None:
        if self._closed:
            raise TransportError("transport is closed")


class HostTransport(_Endpoint):
    """Binds a plain bootstrap ROUTER on `port` (hands out the signed host card) and a CurveZMQ ROUTER
    on `curve_port` (default: port+1 when a port is given, else any free port) for the game itself."""

    def __init__(self, identity: Identity, bind: str = "127.0.0.1", port: int = 0, *,
                 curve_port: int | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                 heartbeat_s: float = HEARTBEAT_S, liveness: int = LIVENESS,
                 known_peers: KnownPeers | None = None,
                 accept: Callable[[bytes, str], str | None] | None = None):
        if max_bytes < 1 or heartbeat_s <= 0 or liveness < 1:
            raise ValueError("max_bytes, heartbeat_s and liveness must be positive")
        self.identity, self.max_bytes = identity, max_bytes
        self.heartbeat_s, self.liveness = heartbeat_s, liveness
        self.known_peers, self.accept = known_peers, accept
        self._drop = _DropLog()
        self._ctx = zmq.Context()
        self._closed = False
        try:
            self._boot = _socket(self._ctx, zmq.ROUTER, 4096)
            self._sock = _socket(self._ctx, zmq.ROUTER, _hard_cap(max_bytes))
            self._sock.router_mandatory = 1
            self._sock.sndhwm = self._sock.rcvhwm = 10000
            self._sock.curve_server = True
            self._sock.curve_secretkey = identity.curve_secret
            self._sock.curve_publickey = identity.curve_public
            hb_ms = max(1, int(heartbeat_s * 1000))
            self._sock.heartbeat_ivl, self._sock.heartbeat_timeout = hb_ms, hb_ms * liveness
            if ":" in bind:
                self._boot.ipv6 = self._sock.ipv6 = True
            host = f"[{bind}]" if ":" in bind else bind
            self._boot.bind(f"tcp://{host}:{port or '*'}")
            self.port = _bound_port(self._boot)
            if curve_port is None:
                curve_port = port + 1 if port else 0
            self._sock.bind(f"tcp://{host}:{curve_port or '*'}")
            self.curve_port = _bound_port(self._sock)
        except Exception:
            self._ctx.destroy(linger=0)
            raise
        self.bind = bind
        self.address = f"{host}:{self.port}"
        self._curve_raw = identity.curve_public_raw
        self._pending: dict[bytes, _Pending] = {}
        self._by_rid: dict[bytes, _Peer] = {}
        self._by_key: dict[bytes, _Peer] = {}
        self._next_tick = 0.0
        self._poller = zmq.Poller()
        self._poller.register(self._boot, zmq.POLLIN)
        self._poller.register(self._sock, zmq.POLLIN)
        log.info("host %s (%s) listening on %s, curve port %d", identity.name, identity.fingerprint,
                 self.address, self.curve_port)

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    @property
    def peers(self) -> dict[bytes, str]:
        return {key: peer.name for key, peer in self._by_key.items()}

    # -- the API ------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int = 0) -> list[Incoming]:
        self._check_open()
        deadline = time.monotonic() + max(0, timeout_ms) / 1000
        events: list[Incoming] = []
        ready = dict(self._poller.poll(0))
        while True:
            if self._boot in ready:
                self._drain_boot()
            if self._sock in ready:
                self._drain(events)
            self._tick(events)
            now = time.monotonic()
            if events or now >= deadline:
                return events
            wait = min(deadline - now, self.heartbeat_s / 4)
            ready = dict(self._poller.poll(max(1, math.ceil(wait * 1000))))

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

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for peer in list(self._by_key.values()):
            with contextlib.suppress(zmq.ZMQError):
                self._sock.send_multipart([peer.rid, bytes([BYE])], flags=zmq.NOBLOCK)
        self._sock.linger = CLOSE_LINGER_MS if self._by_key else 0
        self._boot.close()
        self._sock.close()
        self._ctx.term()
        self._by_key.clear()
        self._by_rid.clear()

    # -- internals ----------------------------------------------------------------------------------

    def _send(self, peer: _Peer, kind: int, body: bytes = b"") -> bool:
        try:
            self._sock.send_multipart([peer.rid, bytes([kind]) + body], flags=zmq.NOBLOCK)
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

    def _drain_boot(self) -> None:
        for _ in range(BATCH):
            if not self._boot.getsockopt(zmq.EVENTS) & zmq.POLLIN:
                return
            frames = self._boot.recv_multipart(flags=zmq.NOBLOCK)
            if len(frames) != 2:
                self._drop("bootstrap request of %d parts (expected 1)", len(frames) - 1)
                continue
            rid, body = frames
            try:
                tag, version, nonce = _unpack(body, (str, int, bytes))
                if tag != BOOT_REQUEST:
                    raise _Malformed(f"unknown request {tag[:40]!r}")
                _key32(nonce, "nonce")
            except _Malformed as exc:
                self._drop("bootstrap request: %s", exc)
                continue
            if version != PROTOCOL:
                reply = _pack([BOOT_ERROR, PROTOCOL, f"host speaks protocol {PROTOCOL}, not {version}"])
            else:
                ident = self.identity
                sig = ident.sign(_card_message(ident.name, ident.public_key, self._curve_raw, self.curve_port, nonce))
                reply = _pack([BOOT_CARD, PROTOCOL, ident.name, ident.public_key, self._curve_raw,
                               self.curve_port, sig])
            with contextlib.suppress(zmq.ZMQError):
                self._boot.send_multipart([rid, reply], flags=zmq.NOBLOCK)

    def _drain(self, events: list[Incoming]) -> None:
        for _ in range(BATCH):
            if not self._sock.getsockopt(zmq.EVENTS) & zmq.POLLIN:
                return
            frames = self._sock.recv_multipart(flags=zmq.NOBLOCK)
            if len(frames) != 2 or not frames[1]:
                self._drop("message of %d parts or empty (expected one non-empty part)", len(frames) - 1)
                continue
            rid, msg = frames
            try:
                self._handle(rid, msg, events)
            except _Malformed as exc:
                self._drop("%s from %s: %s", _KIND_NAMES.get(msg[0], f"kind {msg[0]}"), self._who(rid), exc)

    def _who(self, rid: bytes) -> str:
        peer = self._by_rid.get(rid)
        if peer is not None:
            return f"{peer.name} ({fingerprint(peer.key)})"
        return f"unauthenticated connection {rid.hex()}"

    def _handle(self, rid: bytes, msg: bytes, events: list[Incoming]) -> None:
        kind, now = msg[0], time.monotonic()
        peer = self._by_rid.get(rid)
        if peer is not None:
            peer.last_recv = now
            if kind == DATA:
                if len(msg) - 1 > self.max_bytes:
                    raise _Malformed(f"{len(msg) - 1} bytes, over the {self.max_bytes} byte cap")
                events.append(Incoming("message", peer.key, peer.name, msg[1:]))
                return
            if kind == PING:
                return
            if kind == BYE:
                self._remove(peer, "closed the connection", events)
                return
            if kind != HELLO:
                raise _Malformed("unexpected after the handshake")
            self._remove(peer, "started a new handshake", events)
        if kind == HELLO:
            self._hello(rid, msg[1:], now)
        elif kind == AUTH and rid in self._pending:
            self._auth(rid, self._pending.pop(rid), msg[1:], events, now)
        elif kind in (DATA, PING):
            # A joiner we do not know (we restarted, or declared it gone): ask it to handshake again.
            log.debug("%s from unknown connection %s: asking it to handshake", _KIND_NAMES[kind], rid.hex())
            self._reply(rid, UNKNOWN)
        else:
            raise _Malformed("unexpected before the handshake")

    def _hello(self, rid: bytes, body: bytes, now: float) -> None:
        version, name, key, join_nonce = _unpack(body, (int, str, bytes, bytes))
        if version != PROTOCOL:
            self._reply(rid, REFUSED, _pack([f"host speaks protocol {PROTOCOL}, not {version}"]))
            return
        try:
            check_name(name)
        except ValueError as exc:
            raise _Malformed(str(exc)) from None
        _key32(key, "key")
        _key32(join_nonce, "nonce")
        if len(self._pending) >= MAX_PENDING and rid not in self._pending:
            oldest = min(self._pending, key=lambda r: self._pending[r].expires)
            del self._pending[oldest]
            self._drop("too many half-done handshakes; forgot the oldest")
        host_nonce = os.urandom(32)
        ident = self.identity
        transcript = _transcript(self._curve_raw, ident.public_key, ident.name, key, name, join_nonce, host_nonce)
        self._pending[rid] = _Pending(name, key, join_nonce, host_nonce, now + HANDSHAKE_S)
        self._reply(rid, CHALLENGE, _pack([host_nonce, ident.sign(HOST_DOMAIN + transcript)]))

    def _auth(self, rid: bytes, pend: _Pending, body: bytes, events: list[Incoming], now: float) -> None:
        (sig,) = _unpack(body, (bytes,))
        ident = self.identity
        transcript = _transcript(self._curve_raw, ident.public_key, ident.name, pend.key, pend.name,
                                 pend.join_nonce, pend.host_nonce)
        if not verify(pend.key, None, JOIN_DOMAIN + transcript, sig):
            raise _Malformed(f"handshake signature of {pend.name!r} ({fingerprint(pend.key)}) does not verify")
        reason = None
        if self.known_peers is not None:
            try:
                self.known_peers.check(pend.name, pend.key)
            except KeyChanged as exc:
                reason = str(exc)
        if reason is None and self.accept is not None:
            reason = self.accept(pend.key, pend.name)
        if reason is not None:
            log.warning("refused %s (%s): %s", pend.name, fingerprint(pend.key), reason)
            self._reply(rid, REFUSED, _pack([reason]))
            return
        old = self._by_key.get(pend.key)
        if old is not None:
            self._remove(old, "reconnected", events)
        peer = _Peer(pend.key, pend.name, rid, now, now)
        self._by_rid[rid], self._by_key[pend.key] = peer, peer
        self._send(peer, WELCOME, _pack([int(self.heartbeat_s * 1000), self.liveness, self.max_bytes]))
        log.info("%s (%s) joined", pend.name, fingerprint(pend.key))
        events.append(Incoming("joined", pend.key, pend.name))

    def _remove(self, peer: _Peer, reason: str, events: list[Incoming]) -> None:
        self._by_rid.pop(peer.rid, None)
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
        for rid in [r for r, p in self._pending.items() if p.expires < now]:
            del self._pending[rid]


def _bound_port(sock: zmq.Socket) -> int:
    endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
    return int(endpoint.rsplit(":", 1)[1])


class JoinTransport(_Endpoint):
    """Connects to a host: fetches its signed card from the bootstrap port, pins its key, then talks
    to it over CurveZMQ. Reconnects by itself; see the module docstring."""

    def __init__(self, identity: Identity, address: str, known_peers: KnownPeers | None = None, *,
                 max_bytes: int = DEFAULT_MAX_BYTES, connect_timeout_s: float = 10.0,
                 expect_fingerprint: str | None = None, heartbeat_s: float = HEARTBEAT_S,
                 liveness: int = LIVENESS):
        self.identity, self.max_bytes = identity, max_bytes
        self.known_peers = known_peers if known_peers is not None else KnownPeers()
        self._ip, self._port, fp = parse_address(address)
        self.address = address.strip()
        self.expect_fingerprint = (expect_fingerprint or fp or "").lower() or None
        self.heartbeat_s, self.liveness = heartbeat_s, liveness
        self.host_key: bytes | None = None
        self.host_name: str | None = None
        self.connected = False
        self.generation = 0
        self.last_error = ""
        self._drop = _DropLog()
        self._ctx = zmq.Context()
        self._closed = False
        self._boot: zmq.Socket | None = None
        self._sock: zmq.Socket | None = None
        self._inbox: list[bytes] = []
        self._attempt_s = 0.5
        self._state = "backoff"
        self._state_until = 0.0
        self._last_recv = self._last_send = 0.0
        try:
            deadline = time.monotonic() + connect_timeout_s
            while not self.connected:
                now = time.monotonic()
                if now >= deadline:
                    why = f" (last problem: {self.last_error})" if self.last_error else ""
                    raise ConnectFailed(f"no netplay host answered at {self.address} "
                                        f"within {connect_timeout_s:g} s{why}")
                self._pump(deadline - now)
        except BaseException:
            self.close()
            raise

    @property
    def host_fingerprint(self) -> str | None:
        return fingerprint(self.host_key) if self.host_key else None

    # -- the API ------------------------------------------------------------------------------------

    def poll(self, timeout_ms: int = 0) -> list[bytes]:
        self._check_open()
        deadline = time.monotonic() + max(0, timeout_ms) / 1000
        while True:
            self._pump(0)
            now = time.monotonic()
            if self._inbox or now >= deadline:
                out, self._inbox = self._inbox, []
                return out
            self._pump(deadline - now)

    def send(self, data: bytes) -> bool:
        self._check_open()
        if len(data) > self.max_bytes:
            log.warning("not sending %d bytes: over the %d byte cap", len(data), self.max_bytes)
            return False
        if not self.connected:
            log.debug("not sending: disconnected from %s", self.address)
            return False
        return self._send(DATA, data)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._sock is not None and self.connected:
            self._send(BYE)
            self._sock.linger = CLOSE_LINGER_MS
        self.connected = False
        for sock in (self._boot, self._sock):
            if sock is not None:
                sock.close()
        self._boot = self._sock = None
        self._ctx.term()

    # -- internals ----------------------------------------------------------------------------------

    def _send(self, kind: int, body: bytes = b"") -> bool:
        try:
            self._sock.send(bytes([kind]) + body, flags=zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            log.warning("send to host failed (%s); message dropped", exc)
            return False
        self._last_send = time.monotonic()
        return True

    def _pump(self, wait_s: float) -> None:
        """One bounded turn of the connection state machine: wait at most `wait_s` for input, handle
        what arrived, then advance timers."""
        now = time.monotonic()
        if self._state == "backoff" and now >= self._state_until:
            self._start_bootstrap(now)
        wait = min(wait_s, self.heartbeat_s / 4)
        if self._state != "connected":
            wait = min(wait, max(0.0, self._state_until - now))
        sock = self._boot if self._state == "bootstrap" else self._sock
        if self._state == "backoff" or sock is None:
            if wait > 0:
                time.sleep(wait)
        else:
            if wait > 0:
                sock.poll(max(1, math.ceil(wait * 1000)), zmq.POLLIN)
            for _ in range(BATCH):
                if not sock.getsockopt(zmq.EVENTS) & zmq.POLLIN:
                    break
                frames = sock.recv_multipart(flags=zmq.NOBLOCK)
                if len(frames) != 1 or not frames[0]:
                    self._drop("message of %d parts or empty from the host", len(frames))
                    continue
                try:
                    if sock is self._boot:
                        self._on_card(frames[0])
                    else:
                        self._on_message(frames[0])
                except _Malformed as exc:
                    self._drop("%s", exc)
                if sock is not (self._boot if self._state == "bootstrap" else self._sock):
                    break        # the state moved to another socket; the next turn reads that one
        self._timers()

    def _timers(self) -> None:
        now = time.monotonic()
        if self._state == "connected":
            silent = now - self._last_recv
            if silent > self.heartbeat_s * self.liveness:
                self._lost(f"host silent for {silent:.1f} s")
            elif now - self._last_send >= self.heartbeat_s:
                self._send(PING)
        elif self._state in ("bootstrap", "handshake") and now >= self._state_until:
            self.last_error = f"{self._state} timed out"
            log.debug("%s with %s timed out; retrying", self._state, self.address)
            self._reset_sockets()
            self._backoff(now)

    def _backoff(self, now: float) -> None:
        self._state, self._state_until = "backoff", now + min(self._attempt_s, 2.0) / 2
        self._attempt_s = min(self._attempt_s * 2, 4.0)

    def _lost(self, reason: str, level: int = logging.WARNING) -> None:
        log.log(level, "lost the host %s: %s; reconnecting", self.address, reason)
        self.connected = False
        self._reset_sockets()
        self._state, self._state_until = "backoff", time.monotonic() + 0.1
        self._attempt_s = 0.5

    def _reset_sockets(self) -> None:
        for sock in (self._boot, self._sock):
            if sock is not None:
                sock.close()
        self._boot = self._sock = None

    def _start_bootstrap(self, now: float) -> None:
        self._reset_sockets()
        self._boot = _socket(self._ctx, zmq.DEALER, 4096)
        host = self._ip
        if host.startswith("["):
            self._boot.ipv6 = True
        self._boot.connect(f"tcp://{host}:{self._port}")
        self._nonce = os.urandom(32)
        self._boot.send(_pack([BOOT_REQUEST, PROTOCOL, self._nonce]), flags=zmq.NOBLOCK)
        self._state, self._state_until = "bootstrap", now + self._attempt_s

    def _on_card(self, body: bytes) -> None:
        error = None
        with contextlib.suppress(_Malformed):
            error = _unpack(body, (str, int, str))
        if error is not None and error[0] == BOOT_ERROR:
            self.last_error = f"host says: {error[2][:200]}"
            raise _Malformed(self.last_error)
        tag, version, name, key, curve, curve_port, sig = _unpack(body, (str, int, str, bytes, bytes, int, bytes))
        if tag != BOOT_CARD or version != PROTOCOL:
            raise _Malformed(f"bootstrap reply {tag[:40]!r} version {version}")
        _key32(key, "host key")
        _key32(curve, "host curve key")
        if not 0 < curve_port < 65536:
            raise _Malformed(f"bad curve port {curve_port}")
        if not verify(key, None, _card_message(name, key, curve, curve_port, self._nonce), sig):
            self.last_error = "the host card's signature does not verify"
            raise _Malformed(self.last_error)
        try:
            check_name(name)
        except ValueError as exc:
            raise _Malformed(str(exc)) from None
        if self.expect_fingerprint and fingerprint(key) != self.expect_fingerprint:
            raise Refused(f"the host at {self.address} has key {fingerprint(key)}, "
                          f"not the expected {self.expect_fingerprint}")
        if self.host_key is not None and key != self.host_key:
            raise KeyChanged(self.host_name or name, self.host_key, key)
        self.known_peers.check(name, key)
        self.host_key, self.host_name, self._host_curve = key, name, curve
        self._boot.close()
        self._boot = None
        self._sock = _socket(self._ctx, zmq.DEALER, _hard_cap(self.max_bytes))
        self._sock.sndhwm = self._sock.rcvhwm = 10000
        self._sock.curve_serverkey = z85.encode(curve)
        self._sock.curve_publickey = self.identity.curve_public
        self._sock.curve_secretkey = self.identity.curve_secret
        hb_ms = max(1, int(self.heartbeat_s * 1000))
        self._sock.heartbeat_ivl, self._sock.heartbeat_timeout = hb_ms, hb_ms * self.liveness
        if self._ip.startswith("["):
            self._sock.ipv6 = True
        self._sock.connect(f"tcp://{self._ip}:{curve_port}")
        self._hello()

    def _hello(self) -> None:
        self._join_nonce = os.urandom(32)
        ident = self.identity
        self._send(HELLO, _pack([PROTOCOL, ident.name, ident.public_key, self._join_nonce]))
        self._state, self._state_until = "handshake", time.monotonic() + HANDSHAKE_S

    def _on_message(self, msg: bytes) -> None:
        kind, now = msg[0], time.monotonic()
        self._last_recv = now
        if self._state == "connected":
            if kind == DATA:
                if len(msg) - 1 > self.max_bytes:
                    raise _Malformed(f"{len(msg) - 1} bytes from the host, over the {self.max_bytes} byte cap")
                self._inbox.append(msg[1:])
            elif kind == PING:
                pass
            elif kind == BYE:
                self._lost("the host closed the connection", logging.INFO)
            elif kind == UNKNOWN:
                log.info("host %s forgot us (restarted?); handshaking again", self.address)
                self.connected = False
                self._hello()
            else:
                raise _Malformed(f"unexpected {_KIND_NAMES.get(kind, kind)} from the connected host")
            return
        if self._state != "handshake":
            raise _Malformed(f"{_KIND_NAMES.get(kind, kind)} while {self._state}")
        ident = self.identity
        if kind == CHALLENGE:
            host_nonce, sig = _unpack(msg[1:], (bytes, bytes))
            _key32(host_nonce, "nonce")
            transcript = _transcript(self._host_curve, self.host_key, self.host_name, ident.public_key, ident.name,
                                     self._join_nonce, host_nonce)
            if not verify(self.host_key, None, HOST_DOMAIN + transcript, sig):
                self.last_error = "the host's handshake signature does not verify"
                raise _Malformed(self.last_error)
            self._send(AUTH, _pack([ident.sign(JOIN_DOMAIN + transcript)]))
        elif kind == WELCOME:
            hb_ms, liveness, max_bytes = _unpack(msg[1:], (int, int, int))
            if hb_ms > 0:           # adopt the host's rhythm, so both sides agree on "silent"
                self.heartbeat_s = hb_ms / 1000
            if liveness > 0:
                self.liveness = liveness
            self.host_max_bytes = max_bytes
            self.connected, self._state = True, "connected"
            self._attempt_s = 0.5
            self.generation += 1
            self.last_error = ""
            log.info("connected to %s (%s) at %s", self.host_name, fingerprint(self.host_key), self.address)
        elif kind == REFUSED:
            (reason,) = _unpack(msg[1:], (str,))
            raise Refused(f"host {self.host_name!r} at {self.address} refused us: {reason[:500]}")
        elif kind in (PING, UNKNOWN):
            pass
        else:
            raise _Malformed(f"unexpected {_KIND_NAMES.get(kind, kind)} during the handshake")

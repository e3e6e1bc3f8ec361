"""Authenticated, encrypted message pipes between a host and its joiners (ZeroMQ over TCP).

This layer moves opaque byte strings; frames, signatures of frames and game logic live above it.
What it guarantees: every connection is CurveZMQ-encrypted, the peer at the other end proved that
it holds the Ed25519 key it claims (so the session can pin it and attribute frames to it), every
message is at most the receiver's `max_bytes`, a silent peer is reported gone, and unauthenticated
traffic cannot lock real peers out (the handshake keeps no state before AUTH, costly work is bounded
per source address, and a connection that holds no peer is closed after a bounded time, within a
budget of open files the host first raises toward the system's hard limit). Details in
docs/protocol.md, section "Transport"; the attacks it was tested against in docs/security.md,
section "Transport attacks".

API (all calls are non-blocking or bounded by the timeout they take; single-threaded: call `poll`
at least once per heartbeat interval so the other side does not think you are gone):

    host = HostTransport(identity, bind="127.0.0.1", port=0, known_peers=None, accept=None)
        # known_peers: pin joiners by name (a changed key is refused); accept(key, name) -> None to
        # admit a joiner or a reason to refuse it (the session's rule: seats full, not in this game).
        # accept is asked before any costly work (at HELLO, before the cookie; at AUTH, before the
        # signature check), so it must be cheap and must not block. A port that cannot be bound
        # raises ListenFailed, naming the port (bootstrap P or encrypted C).
    host.address                     # "ip:port" that joiners pass to JoinTransport (bind 0.0.0.0:
                                     # show discovery.local_addresses() to the user instead)
    host.poll(timeout_ms, wake=None) # -> list[Incoming]; returns as soon as something arrived (or, given
                                     # a Waker, as soon as another thread calls its wake())
    host.send(peer_key, data)        # -> bool (False: peer unknown/gone, or message refused)
    host.broadcast(data, exclude=None)  # -> number of peers sent to; the relay for 3+ peers
    host.peers                       # {ed25519 key: name} of the peers connected now
    host.stats                       # Counter of what the flood defences did (diagnostics, tests)
    host.connections                 # connections open per port, the peak, how many were closed idle
    host.file_limit                  # the soft limit of open files after raising it (raise_file_limit)
    host.close()

    Incoming(kind, peer, name, data, reason): kind is "joined", "message" or "left"; `peer` is the
    peer's raw Ed25519 public key, which is also its id: a joiner that reconnects (new socket, same
    key) is the same peer, reported as "left" (reason "reconnected") then "joined" again.

    join = JoinTransport(identity, "ip:port[/fingerprint]", known_peers, connect_timeout_s=10)
    join.host_key, join.host_name   # the host's Ed25519 key (pinned) and its name
    join.poll(timeout_ms, wake=None) # -> list[bytes]
    join.send(data)                  # -> bool (False while disconnected, or over either side's cap)
    join.connected, join.generation  # generation counts successful (re)connections
    join.close()

Both take keyword options max_bytes (default 1 MiB), heartbeat_s (1.0) and liveness (4 missed
heartbeats = gone), each within the ranges below; the joiner adopts the host's heartbeat settings
when it connects (a WELCOME outside the ranges is refused) and never sends more than the host's cap.

The joiner reconnects by itself when the host goes silent, says goodbye or forgets it (host
restart); a different host key on reconnect raises `KeyChanged`, a refusal raises `Refused`, a
host name that does not resolve raises `ConnectFailed` at once. Malformed or oversized input is
dropped and logged on logger "netplay.transport", never raised.
"""

from __future__ import annotations

import contextlib
import errno
import hmac
import ipaddress
import logging
import math
import os
import queue
import re
import socket
import stat
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Self

import msgpack
import zmq
from zmq.utils import z85

from netplay.identity import Identity, KeyChanged, KnownPeers, check_name
from replays.crypto import fingerprint, verify
from replays.safetext import shown

log = logging.getLogger("netplay.transport")

PROTOCOL = 2
DEFAULT_MAX_BYTES = 1 << 20
HEARTBEAT_S = 1.0
LIVENESS = 4              # heartbeats a peer may miss before it counts as gone
# What either side may use, and so what a joiner accepts in WELCOME: a hostile host must not make
# its joiners ping a thousand times a second, nor wait an hour before they notice it is gone.
HEARTBEAT_MS_RANGE = (50, 10_000)
LIVENESS_RANGE = (2, 20)
MAX_BYTES_RANGE = (1024, 64 << 20)
HANDSHAKE_S = 5.0         # joiner: a handshake without WELCOME after this starts over on a new connection
HELLO_RETRY_S = 1.0       # joiner: HELLO is repeated (same nonce) this often until WELCOME: a host may drop it
COOKIE_WINDOW_S = 5.0     # a cookie is valid in the window it was made in and the next one: 5 to 10 s
MAX_CONTROL = 1024        # bytes of a bootstrap or handshake message body; larger ones are not decoded
BATCH = 256               # messages read per socket per loop turn, so one flood cannot starve the rest
# Only at close, so a goodbye can leave; everything else lingers 0. `term` returns as soon as the goodbye
# is out, so this bounds only a close towards a peer that no longer reads. 100 ms was too short on a
# loaded machine: the goodbye was lost and the other side, waiting on its own move, learnt nothing.
CLOSE_LINGER_MS = 1000

# Work a connection that has not authenticated can make the host do, per source address (an IPv4
# address, or an IPv6 /64): (answers per second, burst). The first of each kind on every connection
# is free (the peer paid a new TCP connection and CurveZMQ handshake for it), so a real joiner's
# first HELLO and AUTH get through even when another program floods from its own address.
HELLO_RATE = (20.0, 40)   # HELLO answered with a CHALLENGE (one HMAC)
AUTH_RATE = (5.0, 10)     # AUTH whose signature is checked (one Ed25519 verify, then one sign)
CARD_RATE = (10.0, 20)    # bootstrap requests answered with a signed card (one Ed25519 sign)
REPLY_RATE = (20.0, 40)   # REFUSED and UNKNOWN answers to connections that are not peers
MAX_SOURCES = 4096        # addresses with a bucket; beyond, new addresses share one overflow bucket
# Connections that hold no peer, closed after a bounded time whatever they do (docs/protocol.md, "Idle
# connections"): ZeroMQ keeps a TCP connection for as long as the other side answers its heartbeats, so
# a thousand idle connections used to exhaust a host under the usual limit of 1024 open files.
HANDSHAKE_IVL_MS = 3000   # ZMTP greeting and security handshake (ZMQ_HANDSHAKE_IVL; ZeroMQ's default is 30 s)
BOOT_LIFETIME_S = 3.0     # any connection on the bootstrap port P (a card takes one round trip)
UNAUTH_LIFETIME_S = 8.0   # a connection on C that holds no joined peer (a handshake gives up after 5 s)
FILE_LIMIT = 65536        # the soft limit of open files a host raises itself to (at most the hard limit)
FILE_RESERVE = 256        # open files kept for the process itself; the rest is the connections' budget
LISTEN_BACKLOG = 1024     # ZMQ_BACKLOG: a burst of connections waits in the kernel, not in SYN retries
MONITOR_BATCH = 4096      # connection events read per loop turn
MAX_FRESH = 4096          # connections remembered as having used their free first message
_OVERFLOW = "*overflow*"
# Plain ints for the calls on every message: pyzmq's enum flags cost a microsecond per bitwise operation.
_EVENTS, _POLLIN, _RCVMORE, _NOBLOCK = int(zmq.EVENTS), int(zmq.POLLIN), int(zmq.RCVMORE), int(zmq.NOBLOCK)
_SNDMORE = int(zmq.SNDMORE)

# First byte of every message on the encrypted channel.
HELLO, CHALLENGE, AUTH, WELCOME, REFUSED, DATA, PING, BYE, UNKNOWN = range(1, 10)
_KIND_BYTE = {kind: bytes([kind]) for kind in range(1, 10)}
_KIND_NAMES = {HELLO: "hello", CHALLENGE: "challenge", AUTH: "auth", WELCOME: "welcome", REFUSED: "refused",
               DATA: "data", PING: "ping", BYE: "bye", UNKNOWN: "unknown"}

BOOT_REQUEST = "netplay-bootstrap"
BOOT_CARD = "netplay-host"
BOOT_ERROR = "netplay-error"
CARD_DOMAIN = b"netplay/%d/host-card\x00" % PROTOCOL
HOST_DOMAIN = b"netplay/%d/handshake/host\x00" % PROTOCOL
JOIN_DOMAIN = b"netplay/%d/handshake/joiner\x00" % PROTOCOL
COOKIE_DOMAIN = b"netplay/%d/cookie\x00" % PROTOCOL


class TransportError(Exception):
    """The transport cannot do what was asked."""


class ConnectFailed(TransportError, ConnectionError):
    """No host answered (in time) at the given address, or its name does not resolve."""


class Refused(TransportError):
    """The host refused us, or the host's key is not the one we were told to expect, or the host
    asked for settings outside the documented ranges."""


class ListenFailed(TransportError):
    """The host cannot listen on one of its two ports; the message names which one, so the user
    frees (or changes) the right one."""

    def __init__(self, message: str, port: int, errno: int | None):
        super().__init__(message)
        self.port, self.errno = port, errno


class MessageError(Exception):
    """A bootstrap or handshake message that the protocol does not allow (what the `parse_*`
    functions raise). The transport drops such input with a logged reason; it never escapes `poll`."""



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


def parse_address(address: str) -> tuple[str, int, str | None]:
    """`host:port` or `host:port/fingerprint` (IPv6 as `[addr]:port`) -> (host, port, fingerprint)."""
    m = re.fullmatch(r"\s*(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})(?:/([0-9a-fA-F]{4}(?:-[0-9a-fA-F]{4}){3}))?\s*",
                     address)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise ValueError(f"expected host:port or host:port/xxxx-xxxx-xxxx-xxxx, got {address!r}")
    return m.group(1), int(m.group(2)), (m.group(3) or "").lower() or None


def check_settings(max_bytes: int, heartbeat_ms: int, liveness: int) -> str | None:
    """Why these settings are outside the documented ranges, or None. One rule for both sides: what a
    host may be configured with is exactly what its joiners accept in WELCOME."""
    for what, value, (low, high), unit in (("heartbeat interval", heartbeat_ms, HEARTBEAT_MS_RANGE, " ms"),
                                           ("liveness", liveness, LIVENESS_RANGE, " heartbeats"),
                                           ("message size cap", max_bytes, MAX_BYTES_RANGE, " bytes")):
        if type(value) is not int or not low <= value <= high:
            return f"{what} {value!r}{unit} is outside {low}..{high}{unit}"
    return None


def _check_own_settings(max_bytes: int, heartbeat_s: float, liveness: int) -> None:
    problem = check_settings(max_bytes, _ms(heartbeat_s), liveness)
    if problem:
        raise ValueError(problem)


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000)) if isinstance(seconds, int | float) and math.isfinite(seconds) else -1


def _pack(obj: object) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


_PROTOCOL_ARRAY = {"max_str_len": MAX_CONTROL, "max_bin_len": MAX_CONTROL, "max_array_len": 16, "max_map_len": 0,
                   "max_ext_len": 0}


def _unpack(body: bytes, shape: tuple[type, ...]) -> list:
    """Decode a msgpack array of exactly `shape` (bytes fields of 32 bytes are checked by callers).
    Bodies are tiny, so anything over MAX_CONTROL bytes is refused before it is decoded."""
    if len(body) > MAX_CONTROL:
        raise MessageError(f"{len(body)} bytes, over the {MAX_CONTROL} byte limit of a control message")
    value = _decode(body)
    if not isinstance(value, list) or len(value) != len(shape):
        raise MessageError(f"expected an array of {len(shape)}")
    for item, kind in zip(value, shape, strict=True):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise MessageError(f"expected {kind.__name__}, got {type(item).__name__}")
    return value


def _decode(body: bytes) -> Any:
    try:
        return msgpack.unpackb(body, raw=False, use_list=True, strict_map_key=True, **_PROTOCOL_ARRAY)
    except Exception as exc:  # msgpack raises several unrelated types on garbage
        raise MessageError(f"undecodable ({type(exc).__name__})") from None


def _key32(value: bytes, what: str) -> bytes:
    if len(value) != 32:
        raise MessageError(f"{what} must be 32 bytes")
    return value


def _sig64(value: bytes, what: str) -> bytes:
    if len(value) != 64:
        raise MessageError(f"{what} must be 64 bytes")
    return value


class BadName(MessageError):
    """A handshake message of the right shape whose name the protocol does not allow (1..64 printable
    characters): the host answers it with REFUSED and the reason, else the joiner could only time out."""


def _name(value: str) -> str:
    try:
        return check_name(value)
    except ValueError as exc:
        raise BadName(str(exc)) from None


def clip(text: str, limit: int = 500) -> str:
    """Text from the other side, safe to print (`replays.safetext.shown`): a hostile peer cannot put
    terminal escape sequences into our error messages."""
    return shown(text, limit)


# -- the messages ---------------------------------------------------------------------------------
# One parser per message: pure functions (fuzzed in tests/test_fuzz_transport.py) that return the
# message or raise MessageError.

@dataclass(frozen=True, slots=True)
class BootRequest:
    version: int
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    key: bytes
    curve_key: bytes
    curve_port: int
    sig: bytes


@dataclass(frozen=True, slots=True)
class Hello:
    version: int
    name: str
    key: bytes
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Challenge:
    host_nonce: bytes
    cookie: bytes


@dataclass(frozen=True, slots=True)
class Auth:
    name: str
    key: bytes
    join_nonce: bytes
    host_nonce: bytes
    cookie: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Welcome:
    host_nonce: bytes
    heartbeat_ms: int
    liveness: int
    max_bytes: int
    sig: bytes

    def params(self) -> bytes:
        return _pack([self.heartbeat_ms, self.liveness, self.max_bytes])


def hello_version(body: bytes) -> int | None:
    """The version a HELLO that does not parse claims (its first item), read leniently: another
    version may shape its HELLO differently, and its joiner deserves an answer naming both versions
    rather than silence. None when there is no such int."""
    if len(body) > MAX_CONTROL:
        return None
    with contextlib.suppress(MessageError):
        value = _decode(body)
        if isinstance(value, list) and value and type(value[0]) is int:
            return value[0]
    return None


def parse_boot_request(body: bytes) -> BootRequest:
    tag, version, nonce = _unpack(body, (str, int, bytes))
    if tag != BOOT_REQUEST:
        raise MessageError(f"unknown request {clip(tag, 40)!r}")
    return BootRequest(version, _key32(nonce, "nonce"))


def parse_boot_reply(body: bytes) -> Card | str:
    """The host's card, or the text of its error answer (clipped, printable)."""
    if len(body) > MAX_CONTROL:
        raise MessageError(f"{len(body)} bytes, over the {MAX_CONTROL} byte limit of a control message")
    value = _decode(body)
    if isinstance(value, list) and len(value) == 3 and value[0] == BOOT_ERROR and isinstance(value[2], str):
        return clip(value[2], 200)
    tag, version, name, key, curve, curve_port, sig = _unpack(body, (str, int, str, bytes, bytes, int, bytes))
    if tag != BOOT_CARD or version != PROTOCOL:
        raise MessageError(f"bootstrap reply {clip(tag, 40)!r} version {version}")
    if not 0 < curve_port < 65536:
        raise MessageError(f"bad curve port {curve_port}")
    return Card(_name(name), _key32(key, "host key"), _key32(curve, "host curve key"), curve_port,
                _sig64(sig, "card signature"))


def parse_hello(body: bytes) -> Hello:
    version, name, key, nonce = _unpack(body, (int, str, bytes, bytes))
    return Hello(version, _name(name), _key32(key, "key"), _key32(nonce, "nonce"))


def parse_challenge(body: bytes) -> Challenge:
    host_nonce, cookie = _unpack(body, (bytes, bytes))
    return Challenge(_key32(host_nonce, "host nonce"), _key32(cookie, "cookie"))


def parse_auth(body: bytes) -> Auth:
    name, key, join_nonce, host_nonce, cookie, sig = _unpack(body, (str, bytes, bytes, bytes, bytes, bytes))
    return Auth(_name(name), _key32(key, "key"), _key32(join_nonce, "nonce"), _key32(host_nonce, "host nonce"),
                _key32(cookie, "cookie"), _sig64(sig, "signature"))


def parse_welcome(body: bytes) -> Welcome:
    host_nonce, heartbeat_ms, liveness, max_bytes, sig = _unpack(body, (bytes, int, int, int, bytes))
    return Welcome(_key32(host_nonce, "host nonce"), heartbeat_ms, liveness, max_bytes, _sig64(sig, "signature"))


def parse_refused(body: bytes) -> str:
    (reason,) = _unpack(body, (str,))
    return clip(reason)


def _hello_nonce(body: bytes) -> bytes | None:
    try:
        return parse_hello(body).nonce
    except MessageError:
        return None


def _card_message(name: str, ed_key: bytes, curve_key: bytes, curve_port: int, nonce: bytes) -> bytes:
    return CARD_DOMAIN + _pack([PROTOCOL, name, ed_key, curve_key, curve_port, nonce])


def _transcript(host_curve: bytes, host_key: bytes, host_name: str, join_key: bytes, join_name: str,
                join_nonce: bytes, host_nonce: bytes) -> bytes:
    return _pack([PROTOCOL, host_curve, host_key, host_name, join_key, join_name, join_nonce, host_nonce])


class _DropLog:
    """Logs why input was dropped, at most `limit` lines per second, so a flood of garbage cannot
    flood the log too; what was suppressed is counted in the next line."""

    def __init__(self, limit: int = 20, prefix: str = "dropped: "):
        self.limit, self.prefix, self.window, self.count, self.suppressed = limit, prefix, 0.0, 0, 0

    def __call__(self, fmt: str, *args: object) -> None:
        now = time.monotonic()
        if now - self.window >= 1.0:
            self.window, self.count = now, 0
        if self.count >= self.limit:
            self.suppressed += 1
            return
        self.count += 1
        if self.suppressed:
            fmt += " (%d earlier lines not logged)"
            args = (*args, self.suppressed)
            self.suppressed = 0
        log.warning(self.prefix + fmt, *args)


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class _Gate:
    """Whether a connection that has not authenticated may make the host do one more costly thing.

    Each connection's first request of the gate's kind is free: it costs the sender a new TCP
    connection and CurveZMQ handshake, more than it costs us. Later ones draw from a token bucket of
    their source address, so one address cannot starve the others, and nothing of another address is
    ever evicted. Memory is bounded: at most MAX_SOURCES buckets (buckets that refilled are pruned,
    since a full bucket is the same as none; while the table is full of active ones, newcomers share
    one overflow bucket) and MAX_FRESH remembered connections (forgetting one only gives it another
    free request, which it can also get by reconnecting)."""

    def __init__(self, rate: tuple[float, int]):
        self.rate, self.burst = rate
        self._buckets: dict[str, _Bucket] = {}
        self._used: dict[bytes, None] = {}

    def allow(self, source: str, rid: bytes, now: float) -> bool:
        if rid not in self._used:
            self._used[rid] = None
            if len(self._used) > MAX_FRESH:
                del self._used[next(iter(self._used))]
            return True
        bucket = self._buckets.get(source)
        if bucket is None:
            if len(self._buckets) >= MAX_SOURCES:
                source = _OVERFLOW
                bucket = self._buckets.get(source)
            if bucket is None:
                bucket = self._buckets[source] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return True
        return False

    def prune(self, now: float) -> None:
        for source in [s for s, b in self._buckets.items() if b.tokens + (now - b.stamp) * self.rate >= self.burst]:
            del self._buckets[source]


def _fd_of(frame: zmq.Frame) -> int:
    """The file descriptor of the connection a message came on (ZMQ_SRCFD), or -1."""
    try:
        return int(frame.get(zmq.SRCFD))
    except (zmq.ZMQError, TypeError, ValueError):
        return -1


def _source_of(frame: zmq.Frame) -> str:
    """The source address of a received message, as the key of its rate limits (`source_key`)."""
    try:
        address = frame.get("Peer-Address")
    except zmq.ZMQError:          # not TCP, or no metadata: all such messages share one source
        return "?"
    return source_key(address)


def source_key(address: str) -> str:
    """What one source is for the flood limits: an IPv4 address, or the /64 of an IPv6 address
    (anyone can pick any address of their /64); an IPv4-mapped IPv6 address counts as IPv4."""
    if ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def _socket(ctx: zmq.Context, kind: int, hard_cap: int) -> zmq.Socket:
    sock = ctx.socket(kind)
    sock.linger = 0
    sock.maxmsgsize = hard_cap    # beyond this ZeroMQ cuts the connection before buffering it
    return sock


def _hard_cap(max_bytes: int) -> int:
    # Between max_bytes and this, a message is received and dropped with a logged reason; beyond it
    # ZeroMQ refuses to buffer it at all and drops the connection (which then re-handshakes).
    return 2 * max_bytes + 65536


def _bind(sock: zmq.Socket, host: str, port: int, role: str) -> int:
    """Bind and return the port; a failure names the port and its role, since the user gave only P
    and C is derived from it (an "address already in use" about C used to be reported as P)."""
    try:
        sock.bind(f"tcp://{host}:{port or '*'}")
    except zmq.ZMQError as exc:
        if exc.errno == zmq.EADDRINUSE:
            why = "the port is already in use (by another program, or another netplay host)"
        else:
            why = exc.strerror[:1].lower() + exc.strerror[1:]
        raise ListenFailed(f"cannot listen on {host}:{port or 'any port'} ({role}): {why}", port, exc.errno) from None
    return _bound_port(sock)


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


class Waker:
    """Lets another thread cut a `poll` short: a UI thread that has a person's decision calls `wake()`,
    and the session thread, blocked in its transport's poll, returns at once instead of at the end of
    its poll interval. The thread that polls calls `clear()` after each poll."""

    def __init__(self) -> None:
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self.woken = False

    def fileno(self) -> int:
        return self._read.fileno()

    def wake(self) -> None:
        self.woken = True
        with contextlib.suppress(OSError):   # full: it is awake already; closed: nobody polls any more
            self._write.send(b"\0")

    def clear(self) -> None:
        self.woken = False
        with contextlib.suppress(OSError):
            while self._read.recv(4096):
                pass

    def close(self) -> None:
        self._read.close()
        self._write.close()


def _note_wake(ready: list, wake: Waker | None) -> None:
    """A waker found readable counts as woken even if its flag was cleared meanwhile (a `wake()` racing
    the poller's `clear()` can leave a byte with the flag down): otherwise every later poll would
    return at once and spin until its deadline. The poller's `clear()` drains it."""
    if wake is not None and ready:
        fd = wake.fileno()
        if any(item[0] is wake or item[0] == fd for item in ready):   # pyzmq gives a plain object's fd back
            wake.woken = True


def raise_file_limit(target: int = FILE_LIMIT) -> int:
    """Raise this process's soft limit of open files toward its hard limit (at most `target`) and return
    the soft limit in force. Every connection costs the host a file descriptor; the usual soft limit of
    1024 is far below what the system allows (the hard limit is often 4096 to a million), and a few
    hundred idle connections must not be able to use up what is left. Where the system does not allow
    more, the host works with what it has (see `_Connections`)."""
    try:
        import resource
    except ImportError:       # not a POSIX system: nothing to raise
        return FILE_LIMIT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = target if hard == resource.RLIM_INFINITY else min(hard, target)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            log.info("raised the limit of open files from %d to %d (hard limit %s)", soft, want, hard)
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the limit of open files from %d (hard limit %s): %s", soft, hard, exc)
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return FILE_LIMIT if soft == resource.RLIM_INFINITY else soft


@dataclass(slots=True)
class _Conn:
    inode: int            # the socket's identity: a file descriptor number is reused, a socket's inode is not
    source: str
    since: float          # accepted, or when its peer left
    held: bool = False    # carries a joined peer: never closed for its age
    doubt: float = 0.0    # when it was reported disconnected while its descriptor still named it (0: never)


class _Connections:
    """The TCP connections of one listening ROUTER, learnt from a ZeroMQ socket monitor (accepted and
    disconnected, each with its file descriptor), and closed when they hold no peer for longer than the
    port's lifetime, or when the host's connections exceed its budget of file descriptors (the oldest
    connection of the source holding the most goes first: a newcomer from another source keeps its place).

    ZeroMQ cannot close one connection of a ROUTER, so a connection is closed by shutting down its
    socket through a duplicate of its descriptor (after checking, by the socket's inode, that the
    descriptor still names the connection the monitor reported); ZeroMQ then sees the end of the stream
    and forgets the connection itself. Half-open greetings end earlier, at ZMQ_HANDSHAKE_IVL."""

    def __init__(self, sock: zmq.Socket, port: str, number: int, lifetime_s: float, budget: _Budget):
        self.port, self.number, self.lifetime_s, self.budget = port, number, lifetime_s, budget
        self.monitor = sock.get_monitor_socket(zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        self.monitor.rcvhwm = 100_000
        self.conns: dict[int, _Conn] = {}
        self.closed = 0       # connections this host closed: for its age, or over the budget

    def __len__(self) -> int:
        return len(self.conns)

    def read(self, now: float) -> None:
        """Take in what the monitor reported (at most MONITOR_BATCH events)."""
        monitor = self.monitor
        for _ in range(MONITOR_BATCH):
            if not monitor.getsockopt(_EVENTS) & _POLLIN:
                return
            frames = monitor.recv_multipart(_NOBLOCK)
            if len(frames) != 2 or len(frames[0]) != 6:
                continue
            event, fd = struct.unpack("=HI", frames[0])
            if event == zmq.EVENT_ACCEPTED:
                self._learn(fd, now)
            elif event == zmq.EVENT_DISCONNECTED:
                conn = self.conns.get(fd)
                if conn is not None:
                    conn.doubt = now      # the sweeps look whether `fd` still names the recorded socket
                    self._forget_if_gone(fd, conn)

    def _forget_if_gone(self, fd: int, conn: _Conn) -> None:
        """Forget a connection reported disconnected once `fd` no longer names its socket. ZeroMQ reports
        before it closes the descriptor, and a report read late (under a flood) may be of an earlier
        connection on that number, whose successor a peer was already seated on: so the socket decides."""
        if _inode(fd) != conn.inode:
            del self.conns[fd]
            self.budget.count -= 1

    def _learn(self, fd: int, now: float) -> _Conn | None:
        """The connection on `fd` now: the one known already (a peer may have been seated on it before its
        ACCEPTED event was read, under a flood of them), or a new record."""
        conn = _inspect(fd, now, self.number)
        if conn is None:
            return None
        known = self.conns.get(fd)
        if known is not None and known.inode == conn.inode:
            return known
        if known is None:
            self.budget.count += 1
            self.budget.peak = max(self.budget.peak, self.budget.count)
        self.conns[fd] = conn
        return conn

    def hold(self, fd: int, now: float) -> int:
        """The connection on `fd` carries a joined peer now; returns its inode (-1: it is gone)."""
        conn = self._learn(fd, now) if fd >= 0 else None
        if conn is None:
            return -1
        conn.held = True
        return conn.inode

    def release(self, fd: int, inode: int, now: float) -> None:
        """Its peer left: the connection (if it is still that one) gets a lifetime again, from now."""
        conn = self.conns.get(fd)
        if conn is not None and conn.held and conn.inode == inode:
            conn.held, conn.since = False, now

    def sweep(self, now: float) -> None:
        """Forget the connections reported gone, close those past their lifetime, then, while the host is
        over its budget, the oldest of the source with the most."""
        for fd, conn in [(fd, conn) for fd, conn in self.conns.items() if conn.doubt]:
            self._forget_if_gone(fd, conn)
            if now - conn.doubt >= 1.0:
                conn.doubt = 0.0    # a second on, `fd` still names it: the report was of an earlier connection
        oldest = now - self.lifetime_s
        for fd, conn in [(fd, conn) for fd, conn in self.conns.items() if not conn.held and conn.since < oldest]:
            self._close(fd, conn, f"no peer for {now - conn.since:.0f} s")
        over = self.budget.count - self.budget.allowed
        if over > 0:
            idle = [(fd, conn) for fd, conn in self.conns.items() if not conn.held]
            per_source = Counter(conn.source for _, conn in idle)
            idle.sort(key=lambda item: (-per_source[item[1].source], item[1].since))
            for fd, conn in idle[:over]:
                self._close(fd, conn, "over the budget of open files")

    def _close(self, fd: int, conn: _Conn, why: str) -> None:
        if _shutdown(fd, conn.inode, self.number):
            self.closed += 1
            log.debug("closed a connection from %s on %s: %s", conn.source, self.port, why)
        # forgotten either way: the monitor reports DISCONNECTED (or it was gone already, and will)
        if self.conns.pop(fd, None) is not None:
            self.budget.count -= 1

    def close(self) -> None:
        self.monitor.close()


@dataclass(slots=True)
class _Budget:
    allowed: int          # connections (of both ports) the host keeps before it closes the oldest idle ones
    count: int = 0
    peak: int = 0


def _inode(fd: int) -> int:
    """The inode of the socket on `fd` (-1: `fd` names no socket now, so no connection of ours)."""
    try:
        status = os.fstat(fd)
    except OSError:
        return -1
    return status.st_ino if stat.S_ISSOCK(status.st_mode) else -1


@contextlib.contextmanager
def _borrowed(fd: int) -> Iterator[socket.socket]:
    """A socket object for ZeroMQ's descriptor `fd`, without taking it from ZeroMQ: on a duplicate (which
    keeps naming the same socket whatever ZeroMQ does with `fd` meanwhile), or, when the process has no
    descriptor left for one (exactly when idle connections must go), on `fd` itself, detached afterwards
    so that it stays open for ZeroMQ to close. OSError when `fd` names no socket."""
    try:
        dup = os.dup(fd)
    except OSError as exc:
        if exc.errno not in (errno.EMFILE, errno.ENFILE):
            raise
        sock = socket.socket(fileno=fd)
        try:
            yield sock
        finally:
            sock.detach()
        return
    try:
        sock = socket.socket(fileno=dup)
    except OSError:
        os.close(dup)
        raise
    with sock:
        yield sock


#: what a descriptor borrowed from ZeroMQ may fail with once its number names something else (a pipe, a
#: file, an AF_UNIX socket whose peer name is an empty string, a socket of another family): never an error
#: of the host's, always "not the connection reported"
_FOREIGN = (OSError, ValueError, TypeError, IndexError, OverflowError)


def _accepted_on(sock: socket.socket, port: int) -> tuple[str, int] | None:
    """The peer address of `sock` if it is provably a TCP connection accepted on our listening `port`
    (family, type and local port checked together), else None. A descriptor number that ZeroMQ reported
    may name another socket by the time it is read: one of zeroconf's, ZeroMQ's own AF_UNIX signalers, a
    connection this process dialled. Only a stream socket of an IP family whose local port is the
    listener's can be one of its accepted connections (a dialled connection has an ephemeral port)."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return None
    local, peer = sock.getsockname(), sock.getpeername()
    if not (isinstance(local, tuple) and len(local) >= 2 and local[1] == port):
        return None
    if not (isinstance(peer, tuple) and len(peer) >= 2 and isinstance(peer[0], str) and peer[0]):
        return None
    return peer[0], peer[1]


def _inspect(fd: int, now: float, port: int) -> _Conn | None:
    """The connection a monitor reported as accepted on `fd` (of the listener on `port`), or None when
    `fd` no longer names such a connection (it is gone, and its number may name anything now)."""
    try:
        with _borrowed(fd) as sock:
            peer = _accepted_on(sock, port)
            if peer is None:
                return None
            return _Conn(os.fstat(sock.fileno()).st_ino, source_key(peer[0]), now)
    except _FOREIGN as exc:
        log.debug("descriptor %d is not a connection of port %d: %s", fd, port, exc)
        return None


def _shutdown(fd: int, inode: int, port: int) -> bool:
    """Shut down the socket on `fd` if it is still the connection with `inode` accepted on `port`; True
    if it was."""
    try:
        with _borrowed(fd) as sock:
            if os.fstat(sock.fileno()).st_ino != inode or _accepted_on(sock, port) is None:
                return False
            sock.shutdown(socket.SHUT_RDWR)
            return True
    except _FOREIGN:
        return False


class HostTransport(_Endpoint):
    """Binds a plain bootstrap ROUTER on `port` (hands out the signed host card) and a CurveZMQ ROUTER
    on `curve_port` (default: port+1 when a port is given, else any free port) for the game itself."""

    def __init__(self, identity: Identity, bind: str = "127.0.0.1", port: int = 0, *,
                 curve_port: int | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                 heartbeat_s: float = HEARTBEAT_S, liveness: int = LIVENESS,
                 known_peers: KnownPeers | None = None,
                 accept: Callable[[bytes, str], str | None] | None = None):
        _check_own_settings(max_bytes, heartbeat_s, liveness)
        if not 0 <= port <= 65535 or (curve_port is not None and not 0 <= curve_port <= 65535):
            raise ValueError("ports are 0..65535")
        if curve_port is None and port == 65535:
            raise ValueError("port 65535 leaves no room for the encrypted port, which is the next one (P+1): "
                             "use a port of at most 65534, or 0 for any free port")
        self.identity, self.max_bytes = identity, max_bytes
        self.heartbeat_s, self.liveness = heartbeat_s, liveness
        self.known_peers, self.accept = known_peers, accept
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
        reason = self.accept(hello.key, hello.name) if self.accept is not None else None
        if reason is not None:
            self._refuse(rid, source, repr(hello.name), hello.key, reason, now)
            return
        if not self._hello_gate.allow(source, rid, now):
            self.stats["hello_limited"] += 1
            self._limited("HELLOs from %s over its rate dropped", source)
            return
        host_nonce = os.urandom(32)
        window = int(now // COOKIE_WINDOW_S)
        cookie = self._cookie(window, rid, source, hello.name, hello.key, hello.nonce, host_nonce)
        self.stats["challenge"] += 1
        self._reply(rid, CHALLENGE, _pack([host_nonce, cookie]))

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
        reason = self.accept(auth.key, auth.name) if self.accept is not None else None
        if reason is not None:
            self._refuse(rid, source, repr(auth.name), auth.key, reason, now)
            return
        if not self._auth_gate.allow(source, rid, now):
            self.stats["auth_limited"] += 1
            self._limited("AUTHs from %s over its rate dropped", source)
            return
        ident = self.identity
        transcript = _transcript(self._curve_raw, ident.public_key, ident.name, auth.key, auth.name,
                                 auth.join_nonce, auth.host_nonce)
        self.stats["verify"] += 1
        if not verify(auth.key, None, JOIN_DOMAIN + transcript, auth.sig):
            self.stats["bad_signature"] += 1
            raise MessageError(f"handshake signature of {auth.name!r} ({fingerprint(auth.key)}) does not verify")
        if self.known_peers is not None:
            try:
                self.known_peers.check(auth.name, auth.key)
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

    def _remove(self, peer: _Peer, reason: str, events: list[Incoming]) -> None:
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


def _bound_port(sock: zmq.Socket) -> int:
    endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
    return int(endpoint.rsplit(":", 1)[1])


def resolve(host: str, timeout_s: float) -> bool:
    """Check that `host` (a name or an address, IPv6 in brackets) resolves, within `timeout_s`; True
    when it has IPv6 addresses only (the sockets must then allow IPv6).

    ZeroMQ resolves names itself, but it retries a name that does not resolve forever and silently,
    so a typo used to wait out the whole connect timeout and then blame the bootstrap."""
    if host.startswith("["):
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).version == 6
    answers: queue.Queue = queue.Queue(maxsize=1)

    def lookup() -> None:
        try:
            answers.put(socket.getaddrinfo(host, None, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            answers.put(exc)

    threading.Thread(target=lookup, name=f"resolve {host}", daemon=True).start()
    try:
        result = answers.get(timeout=max(0.0, timeout_s))
    except queue.Empty:
        raise ConnectFailed(f"cannot resolve host {host}: no answer from the name service within "
                            f"{timeout_s:g} s") from None
    if isinstance(result, UnicodeError):
        raise ConnectFailed(f"cannot resolve host {host}: not a valid host name (an empty or too long label)")
    if isinstance(result, OSError):
        raise ConnectFailed(f"cannot resolve host {host}: {result.strerror or result}")
    families = {info[0] for info in result}
    if not families:
        raise ConnectFailed(f"cannot resolve host {host}: no address")
    return socket.AF_INET not in families


class JoinTransport(_Endpoint):
    """Connects to a host: fetches its signed card from the bootstrap port, pins its key, then talks
    to it over CurveZMQ. Reconnects by itself; see the module docstring."""

    def __init__(self, identity: Identity, address: str, known_peers: KnownPeers | None = None, *,
                 max_bytes: int = DEFAULT_MAX_BYTES, connect_timeout_s: float = 10.0,
                 expect_fingerprint: str | None = None, heartbeat_s: float = HEARTBEAT_S,
                 liveness: int = LIVENESS, wait: bool = True):
        _check_own_settings(max_bytes, heartbeat_s, liveness)
        self.identity, self.max_bytes = identity, max_bytes
        self.host_max_bytes = max_bytes          # until WELCOME says what the host takes
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
        deadline = time.monotonic() + connect_timeout_s
        self._ipv6 = resolve(self._ip, connect_timeout_s)    # before any socket exists: nothing to close
        self._ctx = zmq.Context()
        self._closed = False
        self._boot: zmq.Socket | None = None
        self._sock: zmq.Socket | None = None
        self._inbox: list[bytes] = []
        self._attempt_s = 0.5
        self._state = "backoff"
        self._state_until = 0.0
        self._hello_again = 0.0
        self._answered: list[bytes] = []
        self._last_recv = self._last_send = 0.0
        try:
            while wait and not self.connected:   # (wait=False: connect in the background, through poll)
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

    def poll(self, timeout_ms: int = 0, wake: Waker | None = None) -> list[bytes]:
        self._check_open()
        now = time.monotonic()
        deadline = now + max(0, timeout_ms) / 1000
        while True:
            self._pump(deadline - now, wake)     # returns as soon as something was read
            now = time.monotonic()
            if self._inbox or now >= deadline or (wake is not None and wake.woken):
                out, self._inbox = self._inbox, []
                return out

    def pollables(self) -> list:
        """The (socket, event) pairs a caller that waits on several transports at once polls for this one
        (none while it waits between two connection attempts)."""
        sock = self._boot if self._state == "bootstrap" else self._sock
        return [] if self._state == "backoff" or sock is None else [(sock, _POLLIN)]

    def send(self, data: bytes) -> bool:
        self._check_open()
        cap = min(self.max_bytes, self.host_max_bytes)
        if len(data) > cap:
            whose = "our" if cap == self.max_bytes else "the host's"
            log.warning("not sending %d bytes: over %s %d byte cap", len(data), whose, cap)
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
            self._sock.send(_KIND_BYTE[kind] + body, _NOBLOCK)
        except zmq.ZMQError as exc:
            log.warning("send to host failed (%s); message dropped", exc)
            return False
        self._last_send = time.monotonic()
        return True

    def _pump(self, wait_s: float, wake: Waker | None = None) -> None:
        """One bounded turn of the connection state machine: wait at most `wait_s` for input (or a
        wake-up), handle what arrived, then advance timers."""
        now = time.monotonic()
        if self._state == "backoff" and now >= self._state_until:
            self._start_bootstrap(now)
        wait = min(wait_s, self.heartbeat_s / 4)
        if self._state != "connected":
            wait = min(wait, max(0.0, self._state_until - now))
        if self._state == "handshake":
            wait = min(wait, max(0.0, self._hello_again - now))
        sock = self._boot if self._state == "bootstrap" else self._sock
        if self._state == "backoff" or sock is None:
            if wait > 0:
                time.sleep(wait)
        elif not self._read(sock) and wait > 0 and not (wake is not None and wake.woken):
            polled = [(sock, _POLLIN)] if wake is None else [(sock, _POLLIN), (wake, _POLLIN)]
            ready = zmq.zmq_poll(polled, max(1, math.ceil(wait * 1000)))
            _note_wake(ready, wake)
            if ready:
                self._read(sock)   # nothing was waiting: waited for input (at most `wait`), now read it
        self._timers()

    def _read(self, sock: zmq.Socket) -> int:
        """Handle the messages waiting on `sock` (at most BATCH); how many there were."""
        count = 0
        while count < BATCH and sock.getsockopt(_EVENTS) & _POLLIN:
            count += 1
            frames = [sock.recv(_NOBLOCK)]
            while sock.getsockopt(_RCVMORE):
                frames.append(sock.recv(_NOBLOCK))
            if len(frames) != 1 or not frames[0]:
                self._drop("message of %d parts or empty from the host", len(frames))
                continue
            try:
                if sock is self._boot:
                    self._on_card(frames[0])
                else:
                    self._on_message(frames[0])
            except MessageError as exc:
                self._drop("%s", exc)
            if sock is not (self._boot if self._state == "bootstrap" else self._sock):
                break        # the state moved to another socket; the next turn reads that one
        return count

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
        elif self._state == "handshake" and now >= self._hello_again:
            self._send_hello()      # the host may have dropped it (rate limit): same nonce, so any answer fits

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
        self._boot.ipv6 = self._ipv6
        self._boot.connect(f"tcp://{self._ip}:{self._port}")
        self._nonce = os.urandom(32)
        self._boot.send(_pack([BOOT_REQUEST, PROTOCOL, self._nonce]), flags=zmq.NOBLOCK)
        self._state, self._state_until = "bootstrap", now + self._attempt_s

    def _on_card(self, body: bytes) -> None:
        card = parse_boot_reply(body)
        if isinstance(card, str):
            self.last_error = f"host says: {card}"
            raise MessageError(self.last_error)
        if not verify(card.key, None, _card_message(card.name, card.key, card.curve_key, card.curve_port,
                                                     self._nonce), card.sig):
            self.last_error = "the host card's signature does not verify"
            raise MessageError(self.last_error)
        if self.expect_fingerprint and fingerprint(card.key) != self.expect_fingerprint:
            raise Refused(f"the host at {self.address} has key {fingerprint(card.key)}, "
                          f"not the expected {self.expect_fingerprint}")
        if self.host_key is not None and card.key != self.host_key:
            raise KeyChanged(self.host_name or card.name, self.host_key, card.key)
        self.known_peers.check(card.name, card.key)
        self.host_key, self.host_name, self._host_curve = card.key, card.name, card.curve_key
        self._boot.close()
        self._boot = None
        self._sock = _socket(self._ctx, zmq.DEALER, _hard_cap(self.max_bytes))
        self._sock.sndhwm = self._sock.rcvhwm = 10000
        self._sock.curve_serverkey = z85.encode(card.curve_key)
        self._sock.curve_publickey = self.identity.curve_public
        self._sock.curve_secretkey = self.identity.curve_secret
        hb_ms = _ms(self.heartbeat_s)
        self._sock.heartbeat_ivl, self._sock.heartbeat_timeout = hb_ms, hb_ms * self.liveness
        self._sock.ipv6 = self._ipv6
        self._sock.connect(f"tcp://{self._ip}:{card.curve_port}")
        self._hello()

    def _hello(self) -> None:
        """A new handshake on the current connection: a fresh nonce; the HELLO is repeated with it
        until WELCOME, and each CHALLENGE is answered (each names its own host nonce)."""
        self._join_nonce = os.urandom(32)
        self._answered = []
        self._send_hello()
        self._state, self._state_until = "handshake", time.monotonic() + HANDSHAKE_S

    def _send_hello(self) -> None:
        ident = self.identity
        self._send(HELLO, _pack([PROTOCOL, ident.name, ident.public_key, self._join_nonce]))
        self._hello_again = time.monotonic() + HELLO_RETRY_S

    def _transcript(self, host_nonce: bytes) -> bytes:
        ident = self.identity
        return _transcript(self._host_curve, self.host_key, self.host_name, ident.public_key, ident.name,
                           self._join_nonce, host_nonce)

    def _on_message(self, msg: bytes) -> None:
        kind, now = msg[0], time.monotonic()
        self._last_recv = now
        if self._state == "connected":
            if kind == DATA:
                if len(msg) - 1 > self.max_bytes:
                    raise MessageError(f"{len(msg) - 1} bytes from the host, over the {self.max_bytes} byte cap")
                self._inbox.append(msg[1:])
            elif kind == PING:
                pass
            elif kind == BYE:
                self._lost("the host closed the connection", logging.INFO)
            elif kind == UNKNOWN:
                # Start over from the bootstrap on new connections rather than re-handshake on this one:
                # a new connection's first HELLO and AUTH pass the host's gates even while someone
                # floods from our address, and a restarted host may have a new curve port anyway.
                self._lost("the host does not know this connection (it restarted, or dropped us)", logging.INFO)
            elif kind in (CHALLENGE, WELCOME):
                log.debug("late %s from the host: already connected", _KIND_NAMES[kind])
            else:
                raise MessageError(f"unexpected {_KIND_NAMES.get(kind, kind)} from the connected host")
            return
        if self._state != "handshake":
            raise MessageError(f"{_KIND_NAMES.get(kind, kind)} while {self._state}")
        if kind == CHALLENGE:
            challenge = parse_challenge(msg[1:])
            if len(self._answered) >= 8:
                raise MessageError("more CHALLENGEs than this handshake sent HELLOs")
            self._answered.append(challenge.host_nonce)
            ident = self.identity
            sig = ident.sign(JOIN_DOMAIN + self._transcript(challenge.host_nonce))
            self._send(AUTH, _pack([ident.name, ident.public_key, self._join_nonce, challenge.host_nonce,
                                    challenge.cookie, sig]))
        elif kind == WELCOME:
            self._welcome(parse_welcome(msg[1:]))
        elif kind == REFUSED:
            raise Refused(f"host {self.host_name!r} at {self.address} refused us: {parse_refused(msg[1:])}")
        elif kind in (PING, UNKNOWN):
            pass
        else:
            raise MessageError(f"unexpected {_KIND_NAMES.get(kind, kind)} during the handshake")

    def _welcome(self, welcome: Welcome) -> None:
        if welcome.host_nonce not in self._answered:
            raise MessageError("WELCOME for a CHALLENGE this handshake did not answer")
        if not verify(self.host_key, None, HOST_DOMAIN + self._transcript(welcome.host_nonce) + welcome.params(),
                      welcome.sig):
            self.last_error = "the host's handshake signature does not verify"
            raise MessageError(self.last_error)
        problem = check_settings(welcome.max_bytes, welcome.heartbeat_ms, welcome.liveness)
        if problem:
            # The host is who it claims (it signed this), but it asks for something unreasonable.
            self._send(BYE)
            raise Refused(f"host {self.host_name!r} at {self.address} asks for a {problem}; not connecting")
        # adopt the host's rhythm, so both sides agree on "silent"; and never send more than it takes
        self.heartbeat_s, self.liveness = welcome.heartbeat_ms / 1000, welcome.liveness
        self.host_max_bytes = welcome.max_bytes
        self.connected, self._state = True, "connected"
        self._attempt_s = 0.5
        self.generation += 1
        self.last_error = ""
        log.info("connected to %s (%s) at %s", self.host_name, fingerprint(self.host_key), self.address)

"""The joiner's end: a state machine of bootstrap, handshake and connected (with backoff between
attempts), which fetches and checks the host's card, pins its key, adopts its heartbeat settings and
reconnects by itself when the host goes silent, says goodbye or forgets it."""

from __future__ import annotations

import logging
import math
import os
import time

import zmq
from zmq.utils import z85

from netplay.identity import Identity, KnownPeers
from netplay.transport.addresses import parse_address, resolve
from netplay.transport.droplog import _DropLog
from netplay.transport.errors import ConnectFailed, MessageError, Refused
from netplay.transport.messages import (
    Welcome,
    _card_message,
    _pack,
    _transcript,
    parse_boot_reply,
    parse_challenge,
    parse_refused,
    parse_welcome,
)
from netplay.transport.settings import (
    _KIND_BYTE,
    _KIND_NAMES,
    AUTH,
    BATCH,
    BOOT_REQUEST,
    BYE,
    CHALLENGE,
    CLOSE_LINGER_MS,
    DATA,
    DEFAULT_MAX_BYTES,
    HANDSHAKE_S,
    HEARTBEAT_S,
    HELLO,
    HELLO_RETRY_S,
    HOST_DOMAIN,
    JOIN_DOMAIN,
    LIVENESS,
    PING,
    PROTOCOL,
    REFUSED,
    UNKNOWN,
    WELCOME,
    _check_own_settings,
    _ms,
    check_settings,
)
from netplay.transport.sockets import _EVENTS, _NOBLOCK, _POLLIN, _RCVMORE, _Endpoint, _hard_cap, _socket
from netplay.transport.waker import Waker, _note_wake
from replays.crypto import fingerprint, verify

log = logging.getLogger("netplay.transport")


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
        self.strangers = 0                # cards with another key met on reconnections (see `_stranger`)
        self._strangers: set[bytes] = set()
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
        if self.host_key is not None:
            if card.key != self.host_key:
                self._stranger(card.key, card.name)
                return
        elif self.expect_fingerprint and fingerprint(card.key) != self.expect_fingerprint:
            raise Refused(f"the host at {self.address} has key {fingerprint(card.key)}, "
                          f"not the expected {self.expect_fingerprint}")
        else:
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

    def _stranger(self, key: bytes, name: str) -> None:
        """Another key answers at our host's address on a reconnection. That says nothing about our host
        (the kernel gives a freed port to the next program that asks, and a liar can bind one): neither
        pin it nor give up, but go on as if our host were unreachable, so the session's own clock decides
        what its silence means. Each stranger is logged once and counted in `strangers`."""
        self.last_error = (f"another host ({name!r}, key {fingerprint(key)}) answers at {self.address}, "
                           f"not {self.host_name!r} ({fingerprint(self.host_key)})")
        if key not in self._strangers:
            self._strangers.add(key)
            log.warning("%s; still waiting for ours", self.last_error)
        self.strangers += 1
        self._reset_sockets()
        self._backoff(time.monotonic())

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

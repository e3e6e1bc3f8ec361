"""The transport's numbers and names, in one place because both ends and the docs must agree on them:
the protocol version, the default and allowed heartbeat, liveness and size settings (what a host may
be configured with is exactly what a joiner accepts in WELCOME), the timings of the handshake and of
idle connections, the flood rates, the kind bytes of the encrypted channel and the signature domains."""

from __future__ import annotations

import math

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

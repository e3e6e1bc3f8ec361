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

The package is cut by job (each module says why it stands apart): `settings` (versions, ranges,
timings, rates, kinds, domains), `errors`, `messages` (the pure bootstrap and handshake parsers and
what each side signs), `gates` (flood limits per source), `droplog`, `sockets` (ZeroMQ setup and frame
metadata), `waker`, `limits` (the budget of open files), `descriptors` and `connections` (idle and
half-open connections, closed through their descriptors), `addresses` (parse and resolve), and the two
ends, `host_transport` and `join_transport`. This module is the one import surface: import from
`netplay.transport`, and patch a setting where the code reads it (its module).
"""

from netplay.transport.addresses import (
    parse_address,
    resolve,
)
from netplay.transport.connections import (
    _Connections as _Connections,
)
from netplay.transport.descriptors import (
    _inode as _inode,
)
from netplay.transport.descriptors import (
    _inspect as _inspect,
)
from netplay.transport.descriptors import (
    _shutdown as _shutdown,
)
from netplay.transport.errors import (
    ConnectFailed,
    ListenFailed,
    MessageError,
    Refused,
    TransportError,
)
from netplay.transport.gates import (
    source_key,
)
from netplay.transport.host_transport import (
    HostTransport,
    Incoming,
)
from netplay.transport.join_transport import (
    JoinTransport,
)
from netplay.transport.limits import (
    _Budget as _Budget,
)
from netplay.transport.limits import (
    raise_file_limit,
)
from netplay.transport.messages import (
    Auth,
    BadName,
    BootRequest,
    Card,
    Challenge,
    Hello,
    Welcome,
    clip,
    hello_version,
    parse_auth,
    parse_boot_reply,
    parse_boot_request,
    parse_challenge,
    parse_hello,
    parse_refused,
    parse_welcome,
)
from netplay.transport.messages import (
    _card_message as _card_message,
)
from netplay.transport.messages import (
    _transcript as _transcript,
)
from netplay.transport.settings import (
    _KIND_NAMES as _KIND_NAMES,
)
from netplay.transport.settings import (
    AUTH,
    AUTH_RATE,
    BATCH,
    BOOT_CARD,
    BOOT_ERROR,
    BOOT_LIFETIME_S,
    BOOT_REQUEST,
    BYE,
    CARD_DOMAIN,
    CARD_RATE,
    CHALLENGE,
    CLOSE_LINGER_MS,
    COOKIE_DOMAIN,
    COOKIE_WINDOW_S,
    DATA,
    DEFAULT_MAX_BYTES,
    FILE_LIMIT,
    FILE_RESERVE,
    HANDSHAKE_IVL_MS,
    HANDSHAKE_S,
    HEARTBEAT_MS_RANGE,
    HEARTBEAT_S,
    HELLO,
    HELLO_RATE,
    HELLO_RETRY_S,
    HOST_DOMAIN,
    JOIN_DOMAIN,
    LISTEN_BACKLOG,
    LIVENESS,
    LIVENESS_RANGE,
    MAX_BYTES_RANGE,
    MAX_CONTROL,
    MAX_FRESH,
    MAX_SOURCES,
    MONITOR_BATCH,
    PING,
    PROTOCOL,
    REFUSED,
    REPLY_RATE,
    UNAUTH_LIFETIME_S,
    UNKNOWN,
    WELCOME,
    check_settings,
)
from netplay.transport.waker import (
    Waker,
)

__all__ = [
    "AUTH",
    "AUTH_RATE",
    "Auth",
    "BATCH",
    "BOOT_CARD",
    "BOOT_ERROR",
    "BOOT_LIFETIME_S",
    "BOOT_REQUEST",
    "BYE",
    "BadName",
    "BootRequest",
    "CARD_DOMAIN",
    "CARD_RATE",
    "CHALLENGE",
    "CLOSE_LINGER_MS",
    "COOKIE_DOMAIN",
    "COOKIE_WINDOW_S",
    "Card",
    "Challenge",
    "ConnectFailed",
    "DATA",
    "DEFAULT_MAX_BYTES",
    "FILE_LIMIT",
    "FILE_RESERVE",
    "HANDSHAKE_IVL_MS",
    "HANDSHAKE_S",
    "HEARTBEAT_MS_RANGE",
    "HEARTBEAT_S",
    "HELLO",
    "HELLO_RATE",
    "HELLO_RETRY_S",
    "HOST_DOMAIN",
    "Hello",
    "HostTransport",
    "Incoming",
    "JOIN_DOMAIN",
    "JoinTransport",
    "LISTEN_BACKLOG",
    "LIVENESS",
    "LIVENESS_RANGE",
    "ListenFailed",
    "MAX_BYTES_RANGE",
    "MAX_CONTROL",
    "MAX_FRESH",
    "MAX_SOURCES",
    "MONITOR_BATCH",
    "MessageError",
    "PING",
    "PROTOCOL",
    "REFUSED",
    "REPLY_RATE",
    "Refused",
    "TransportError",
    "UNAUTH_LIFETIME_S",
    "UNKNOWN",
    "WELCOME",
    "Waker",
    "Welcome",
    "check_settings",
    "clip",
    "hello_version",
    "parse_address",
    "parse_auth",
    "parse_boot_reply",
    "parse_boot_request",
    "parse_challenge",
    "parse_hello",
    "parse_refused",
    "parse_welcome",
    "raise_file_limit",
    "resolve",
    "source_key",
]

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
restart). A name pinned to another key raises `KeyChanged` and a refusal `Refused`; a different
host key met on a reconnection is not our host (a reused port, or a liar): it is counted in
`join.strangers` and skipped, and the joiner goes on trying as if the host were unreachable. A
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

from netplay.transport.addresses import parse_address as parse_address
from netplay.transport.addresses import resolve as resolve
from netplay.transport.connections import _Connections as _Connections
from netplay.transport.descriptors import _inode as _inode
from netplay.transport.descriptors import _inspect as _inspect
from netplay.transport.descriptors import _shutdown as _shutdown
from netplay.transport.errors import ConnectFailed as ConnectFailed
from netplay.transport.errors import ListenFailed as ListenFailed
from netplay.transport.errors import MessageError as MessageError
from netplay.transport.errors import Refused as Refused
from netplay.transport.errors import TransportError as TransportError
from netplay.transport.gates import source_key as source_key
from netplay.transport.host_transport import HostTransport as HostTransport
from netplay.transport.host_transport import Incoming as Incoming
from netplay.transport.join_transport import JoinTransport as JoinTransport
from netplay.transport.limits import _Budget as _Budget
from netplay.transport.limits import raise_file_limit as raise_file_limit
from netplay.transport.messages import Auth as Auth
from netplay.transport.messages import BadName as BadName
from netplay.transport.messages import BootRequest as BootRequest
from netplay.transport.messages import Card as Card
from netplay.transport.messages import Challenge as Challenge
from netplay.transport.messages import Hello as Hello
from netplay.transport.messages import Welcome as Welcome
from netplay.transport.messages import _card_message as _card_message
from netplay.transport.messages import _transcript as _transcript
from netplay.transport.messages import clip as clip
from netplay.transport.messages import hello_version as hello_version
from netplay.transport.messages import parse_auth as parse_auth
from netplay.transport.messages import parse_boot_reply as parse_boot_reply
from netplay.transport.messages import parse_boot_request as parse_boot_request
from netplay.transport.messages import parse_challenge as parse_challenge
from netplay.transport.messages import parse_hello as parse_hello
from netplay.transport.messages import parse_refused as parse_refused
from netplay.transport.messages import parse_welcome as parse_welcome
from netplay.transport.settings import _KIND_NAMES as _KIND_NAMES
from netplay.transport.settings import AUTH as AUTH
from netplay.transport.settings import AUTH_RATE as AUTH_RATE
from netplay.transport.settings import BATCH as BATCH
from netplay.transport.settings import BOOT_CARD as BOOT_CARD
from netplay.transport.settings import BOOT_ERROR as BOOT_ERROR
from netplay.transport.settings import BOOT_LIFETIME_S as BOOT_LIFETIME_S
from netplay.transport.settings import BOOT_REQUEST as BOOT_REQUEST
from netplay.transport.settings import BYE as BYE
from netplay.transport.settings import CARD_DOMAIN as CARD_DOMAIN
from netplay.transport.settings import CARD_RATE as CARD_RATE
from netplay.transport.settings import CHALLENGE as CHALLENGE
from netplay.transport.settings import CLOSE_LINGER_MS as CLOSE_LINGER_MS
from netplay.transport.settings import COOKIE_DOMAIN as COOKIE_DOMAIN
from netplay.transport.settings import COOKIE_WINDOW_S as COOKIE_WINDOW_S
from netplay.transport.settings import DATA as DATA
from netplay.transport.settings import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from netplay.transport.settings import FILE_LIMIT as FILE_LIMIT
from netplay.transport.settings import FILE_RESERVE as FILE_RESERVE
from netplay.transport.settings import HANDSHAKE_IVL_MS as HANDSHAKE_IVL_MS
from netplay.transport.settings import HANDSHAKE_S as HANDSHAKE_S
from netplay.transport.settings import HEARTBEAT_MS_RANGE as HEARTBEAT_MS_RANGE
from netplay.transport.settings import HEARTBEAT_S as HEARTBEAT_S
from netplay.transport.settings import HELLO as HELLO
from netplay.transport.settings import HELLO_RATE as HELLO_RATE
from netplay.transport.settings import HELLO_RETRY_S as HELLO_RETRY_S
from netplay.transport.settings import HOST_DOMAIN as HOST_DOMAIN
from netplay.transport.settings import JOIN_DOMAIN as JOIN_DOMAIN
from netplay.transport.settings import LISTEN_BACKLOG as LISTEN_BACKLOG
from netplay.transport.settings import LIVENESS as LIVENESS
from netplay.transport.settings import LIVENESS_RANGE as LIVENESS_RANGE
from netplay.transport.settings import MAX_BYTES_RANGE as MAX_BYTES_RANGE
from netplay.transport.settings import MAX_CONTROL as MAX_CONTROL
from netplay.transport.settings import MAX_FRESH as MAX_FRESH
from netplay.transport.settings import MAX_SOURCES as MAX_SOURCES
from netplay.transport.settings import MONITOR_BATCH as MONITOR_BATCH
from netplay.transport.settings import PING as PING
from netplay.transport.settings import PROTOCOL as PROTOCOL
from netplay.transport.settings import REFUSED as REFUSED
from netplay.transport.settings import REPLY_RATE as REPLY_RATE
from netplay.transport.settings import UNAUTH_LIFETIME_S as UNAUTH_LIFETIME_S
from netplay.transport.settings import UNKNOWN as UNKNOWN
from netplay.transport.settings import WELCOME as WELCOME
from netplay.transport.settings import check_settings as check_settings
from netplay.transport.waker import Waker as Waker


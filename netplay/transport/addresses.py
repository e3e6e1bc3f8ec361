"""Where the host is: the address a user types (host:port, optionally /fingerprint) and a check that
its name resolves in bounded time (ZeroMQ retries a name that does not resolve forever, silently)."""

from __future__ import annotations

import contextlib
import ipaddress
import queue
import re
import socket
import threading

from netplay.transport.errors import ConnectFailed


def parse_address(address: str) -> tuple[str, int, str | None]:
    """`host:port` or `host:port/fingerprint` (IPv6 as `[addr]:port`) -> (host, port, fingerprint)."""
    m = re.fullmatch(r"\s*(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})(?:/([0-9a-fA-F]{4}(?:-[0-9a-fA-F]{4}){3}))?\s*",
                     address)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise ValueError(f"expected host:port or host:port/xxxx-xxxx-xxxx-xxxx, got {address!r}")
    return m.group(1), int(m.group(2)), (m.group(3) or "").lower() or None


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

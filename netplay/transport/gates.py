"""The flood limits of work an unauthenticated connection can make the host do, per source address:
costly answers (a CHALLENGE's HMAC, an AUTH's signature check, a signed card) are the host's to
ration, and one address must not starve another."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from netplay.transport.settings import MAX_FRESH, MAX_SOURCES

_OVERFLOW = "*overflow*"


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

"""Finding hosts on the LAN with zeroconf (mDNS/DNS-SD), service type `_netplay._tcp.local.`.

A host advertises its bootstrap port and, in the TXT record, the game, the netplay version, its key
fingerprint, the free seats, the player's name and (optionally) the terms in words. Discovery is a
convenience, not a trust anchor: anyone on the LAN can advertise anything, so

- the joiner passes the advertised fingerprint on to the transport (`HostInfo.address` carries it as
  `host:port/fingerprint`), which refuses a host whose key does not match;
- an advertisement whose texts are not printable (a name, game, version or terms carrying terminal
  escapes or bidirectional overrides) is ignored: it draws no entry;
- every host is shown with its fingerprint words (`HostInfo.words`, replays.words), and hosts that
  call themselves by one name (`lookalikes`) are marked, so a person compares the words aloud;
- a name pinned to another key (`pinned_elsewhere`) marks an impostor;
- a bot (`bot_choice`) never picks a look-alike or an impostor, and the host it picks by itself is
  joined with pins checked but none written (KnownPeers.checking_only): nobody vouched for its name.

    with advertise(port=host.port, game="madagaskar", version="0.1.0", fingerprint=ident.fingerprint,
                   free_seats=2, host_name=ident.name) as ad:
        ad.update(free_seats=1)          # the TXT record follows the lobby
    hosts = browse(timeout_s=2.0)        # -> list[HostInfo], a snapshot
    describe(host, hosts, known)         # one line for people: words, look-alikes, pins
    bot_choice(hosts, known)             # -> (HostInfo or None, why others were passed over)
    with Browser(on_change=redraw) as browser:   # live view for the lobby
        browser.hosts()

`local_addresses()` lists this machine's LAN addresses (for showing a host bound to 0.0.0.0).
`interfaces` restricts zeroconf to the given interface addresses (tests use a loopback that only
they can see); the default is every interface, which is what LAN play needs.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from replays.crypto import fingerprint as fingerprint_of
from replays.safetext import MAX_NAME, is_name, shown
from replays.words import fingerprint_words

log = logging.getLogger("netplay.discovery")

SERVICE = "_netplay._tcp.local."
RESOLVE_MS = 1500
_FINGERPRINT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}")


@dataclass(frozen=True, slots=True)
class HostInfo:
    instance: str                 # the DNS-SD instance name (unique on the LAN)
    host_name: str                # the player's name, as the host's identity calls itself
    addresses: tuple[str, ...]
    port: int                     # the transport's bootstrap port
    game: str
    version: str
    fingerprint: str
    free_seats: int
    terms: str = ""               # the agreed terms in words (clock, limits), shown before joining

    @property
    def address(self) -> str:
        """What to pass to JoinTransport: the first address, the port and the expected fingerprint."""
        ip = self.addresses[0] if self.addresses else "?"
        host = f"[{ip}]" if ":" in ip else ip
        return f"{host}:{self.port}/{self.fingerprint}"

    @property
    def words(self) -> str:
        """The fingerprint as words two people can compare aloud (replays.words)."""
        return fingerprint_words(self.fingerprint)


def _txt(game: str, version: str, fingerprint: str, free_seats: int, host_name: str,
         terms: str = "") -> dict[str, str]:
    if not _FINGERPRINT.fullmatch(fingerprint):
        raise ValueError(f"not a key fingerprint: {fingerprint!r}")
    if free_seats < 0:
        raise ValueError("free seats cannot be negative")
    txt = {"game": game, "version": version, "fingerprint": fingerprint, "seats": str(free_seats),
           "host": host_name}
    if terms:
        txt["terms"] = terms[:200]
    for key, value in txt.items():
        if len(key) + 1 + len(value.encode()) > 255:
            raise ValueError(f"TXT entry {key} is too long for DNS-SD")
    return txt


def _instance_name(host_name: str, fingerprint: str) -> str:
    # DNS-SD instance names are free text up to 63 bytes; dots would read as label separators.
    base = re.sub(r"[.\x00-\x1f]", "-", host_name)[:40]
    return f"{base} {fingerprint[:9]}"


def _zeroconf(interfaces: Sequence[str] | None) -> Zeroconf:
    if interfaces is None:
        return Zeroconf(ip_version=IPVersion.V4Only)
    return Zeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)


def _announce_addresses(addresses: Sequence[str] | None, interfaces: Sequence[str] | None) -> list[bytes]:
    if addresses is None:
        addresses = local_addresses() if interfaces is None else list(interfaces)
    return [ipaddress.ip_address(a).packed for a in addresses]


def local_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses (read from the interfaces; nothing is sent), for
    showing a host bound to 0.0.0.0 as addresses a joiner can type."""
    import ifaddr  # zeroconf's own dependency; its get_all_addresses wrapper is deprecated
    found = {ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if ip.is_IPv4 and ip.network_prefix != 32}
    return sorted(a for a in found if not ipaddress.ip_address(a).is_loopback)


class Advertisement:
    """A registered service; `update` changes its TXT record in place (free seats change as people join)."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, txt: dict[str, str]):
        self._zc, self.info, self._txt = zc, info, txt

    @property
    def name(self) -> str:
        return self.info.name

    def update(self, **changes: object) -> None:
        mapping = {"free_seats": "seats", "host_name": "host"}
        txt = dict(self._txt)
        for key, value in changes.items():
            txt[mapping.get(key, key)] = str(value)
        txt = _txt(txt["game"], txt["version"], txt["fingerprint"], int(txt["seats"]), txt["host"],
                   txt.get("terms", ""))
        self.info = ServiceInfo(SERVICE, self.info.name, port=self.info.port, properties=txt,
                                addresses=self.info.addresses, server=self.info.server)
        self._txt = txt
        self._zc.update_service(self.info)


@contextlib.contextmanager
def advertise(*, port: int, game: str, version: str, fingerprint: str, free_seats: int, host_name: str,
              terms: str = "", addresses: Sequence[str] | None = None,
              interfaces: Sequence[str] | None = None) -> Iterator[Advertisement]:
    txt = _txt(game, version, fingerprint, free_seats, host_name, terms)
    instance = _instance_name(host_name, fingerprint)
    server = re.sub(r"[^a-z0-9-]", "-", f"netplay-{fingerprint}") + ".local."
    info = ServiceInfo(SERVICE, f"{instance}.{SERVICE}", port=port, properties=txt,
                       addresses=_announce_addresses(addresses, interfaces), server=server)
    zc = _zeroconf(interfaces)
    try:
        zc.register_service(info, allow_name_change=True)
        log.info("advertising %s on port %d", info.name, port)
        yield Advertisement(zc, info, txt)
    finally:
        with contextlib.suppress(Exception):   # unregistering is a courtesy; never mask the real error
            zc.unregister_all_services()
        zc.close()


# TXT fields shown to people: (longest, may be empty); a field that is not printable text within these
# rejects the whole advertisement (it would draw a fake entry: "(verified)" over the list, a cleared screen)
_TEXTS = {"game": (MAX_NAME, False), "version": (32, False), "terms": (200, True)}


def _host_info(info: ServiceInfo) -> HostInfo | None:
    try:
        props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
        fingerprint = props["fingerprint"].lower()
        if not _FINGERPRINT.fullmatch(fingerprint):
            raise ValueError(f"bad fingerprint '{shown(fingerprint, 40)}'")
        if not re.fullmatch(r"\d{1,4}", props["seats"]):
            raise ValueError(f"bad free seats '{shown(props['seats'], 20)}'")
        seats = int(props["seats"])
        name = props.get("host", "")
        if not is_name(name):
            raise ValueError(f"the host's name '{shown(name, 80)}' is not 1..{MAX_NAME} printable characters")
        for key, (longest, empty) in _TEXTS.items():
            value = props.get(key, "")
            if not (value.isprintable() and (empty or value) and len(value) <= longest):
                raise ValueError(f"{key} '{shown(value, 80)}' is not 1..{longest} printable characters")
        addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
        if not addresses or not 0 < info.port < 65536:
            raise ValueError("no address or port")
        suffix = "." + SERVICE
        instance = shown(info.name[:-len(suffix)] if info.name.endswith(suffix) else info.name, 80)
        return HostInfo(instance, name, addresses, info.port, props["game"], props["version"], fingerprint, seats,
                        props.get("terms", ""))
    except (KeyError, ValueError, UnicodeDecodeError, AttributeError) as exc:
        log.info("ignoring netplay advertisement %s: %s", shown(getattr(info, "name", "?"), 120), shown(exc, 200))
        return None


class Pins(Protocol):
    """What `describe` and `bot_choice` need of netplay.identity.KnownPeers."""

    def get(self, name: str) -> bytes | None: ...

    def names(self) -> list[str]: ...


def name_key(name: str) -> str:
    """What two names look like to a person: NFKC, case-folded, spaces collapsed ("Alice " and "alice",
    or a name in full-width letters, are look-alikes)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def lookalikes(hosts: Iterable[HostInfo]) -> dict[str, list[HostInfo]]:
    """The hosts that share a name (as `name_key` sees it) with a host of another key, by that name."""
    by_name: dict[str, list[HostInfo]] = {}
    for host in hosts:
        by_name.setdefault(name_key(host.host_name), []).append(host)
    return {key: group for key, group in by_name.items() if len({h.fingerprint for h in group}) > 1}


def pinned_elsewhere(host: HostInfo, known: Pins | None) -> tuple[str, str] | None:
    """(pinned name, its fingerprint) when another key is pinned under the host's name or under a name
    that looks the same (`name_key`: "Alice " for a pinned "alice"), else None."""
    if known is None:
        return None
    key = name_key(host.host_name)
    for name in [host.host_name, *(n for n in known.names() if n != host.host_name and name_key(n) == key)]:
        pinned = known.get(name)
        if pinned is not None and fingerprint_of(pinned) != host.fingerprint:
            return name, fingerprint_of(pinned)
    return None


def describe(host: HostInfo, hosts: Sequence[HostInfo], known: Pins | None = None) -> str:
    """One host as people see it in a list: game, name, address, key and words, seats, version, and a
    warning when another host calls itself by the same name or the name is pinned to another key."""
    line = (f"{host.game} hosted by {host.host_name} at {host.addresses[0]}:{host.port} (key {host.fingerprint}, "
            f"words: {host.words}; {host.free_seats} free seat(s), netplay {host.version})")
    if host.terms:
        line += f"; terms: {host.terms}"
    other = pinned_elsewhere(host, known)
    if other is not None:
        line += f"  !! NOT the key pinned for {other[0]} ({other[1]}): an impostor, or a new key"
    group = lookalikes(hosts).get(name_key(host.host_name))
    if group is not None:
        line += (f"  !! {len({h.fingerprint for h in group})} hosts call themselves {host.host_name}: compare "
                 "the words with that player aloud")
    return shown(line)


def bot_choice(hosts: Sequence[HostInfo], known: Pins | None = None) -> tuple[HostInfo | None, list[str]]:
    """The host a bot may join by itself, and why it passed over the others: never a host whose name is
    pinned to another key, never one of several hosts that call themselves by one name (a bot cannot
    compare words aloud; which of them is real is for a person to say). The first of the rest, in the
    order given."""
    similar = lookalikes(hosts)
    chosen, passed = None, []
    for host in hosts:
        other = pinned_elsewhere(host, known)
        if other is not None:
            passed.append(f"{host.host_name} with key {host.fingerprint}: {other[0]} is pinned to {other[1]}")
        elif name_key(host.host_name) in similar:
            passed.append(f"{host.host_name} with key {host.fingerprint} (words: {host.words}): another host calls "
                          "itself by that name")
        elif chosen is None:
            chosen = host
    return chosen, [shown(line) for line in passed]


class Browser:
    """Keeps the current list of advertised hosts up to date in a background thread (zeroconf's own);
    `on_change(hosts)` is called from that thread after every change, so a GUI should just flag a redraw."""

    def __init__(self, interfaces: Sequence[str] | None = None,
                 on_change: Callable[[list[HostInfo]], None] | None = None):
        self._lock = threading.Lock()
        self._hosts: dict[str, HostInfo] = {}
        self._on_change = on_change
        self._zc = _zeroconf(interfaces)
        self._browser = ServiceBrowser(self._zc, SERVICE, handlers=[self._handle])

    def hosts(self) -> list[HostInfo]:
        with self._lock:
            return sorted(self._hosts.values(), key=lambda h: (h.game, h.host_name, h.instance))

    def close(self) -> None:
        self._browser.cancel()
        self._zc.close()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _handle(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        host = None
        if state_change is not ServiceStateChange.Removed:
            info = zeroconf.get_service_info(service_type, name, timeout=RESOLVE_MS)
            host = _host_info(info) if info is not None else None
        with self._lock:
            if host is None:
                changed = self._hosts.pop(name, None) is not None
            else:
                changed = self._hosts.get(name) != host
                self._hosts[name] = host
        if changed and self._on_change is not None:
            try:
                self._on_change(self.hosts())
            except Exception:  # a broken callback must not kill zeroconf's thread
                log.exception("discovery on_change callback failed")


def browse(timeout_s: float = 2.0, interfaces: Sequence[str] | None = None,
           game: str | None = None) -> list[HostInfo]:
    """The hosts that answered within `timeout_s` (optionally only those of one game)."""
    with Browser(interfaces) as browser:
        time.sleep(max(0.0, timeout_s))
        hosts = browser.hosts()
    return [h for h in hosts if game is None or h.game == game]

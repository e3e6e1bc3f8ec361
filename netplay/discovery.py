"""Finding hosts on the LAN with zeroconf (mDNS/DNS-SD), service type `_netplay._tcp.local.`.

A host advertises its bootstrap port and, in the TXT record, the game, the netplay version, its key
fingerprint, the free seats, the player's name and (optionally) the terms in words. Discovery is a
convenience, not a trust anchor: anyone on the LAN can advertise anything, so

- the joiner passes the advertised fingerprint on to the transport (`HostInfo.address` carries it as
  `host:port/fingerprint`), which refuses a host whose key does not match;
- an advertisement whose texts are not printable (a name, game, version or terms carrying terminal
  escapes or bidirectional overrides) is ignored: it draws no entry;
- every host is shown with its fingerprint words (`HostInfo.words`, replays.words), and hosts whose
  names look alike (`lookalikes`: the same after NFKC, case and space folding, or UTS #39's confusables
  skeleton, netplay.names) are marked, so a person compares the words aloud;
- a name that is, or looks like, a name pinned to another key (`pinned_elsewhere`) marks an impostor,
  and a name that mixes scripts (Cyrillic letters among Latin ones) is marked as such;
- a list (`assess`, `ranked`) puts the hosts whose own names are pinned to their keys first and the
  doubtful ones last, and a person's default (`default_choice`) is never a doubtful one;
- a bot (`bot_choice`) never picks a look-alike or an impostor, and the host it picks by itself is
  joined with pins checked but none written (KnownPeers.checking_only): nobody vouched for its name.

    with advertise(port=host.port, game="madagaskar", version="0.1.0", fingerprint=ident.fingerprint,
                   free_seats=2, host_name=ident.name) as ad:
        ad.update(free_seats=1)          # the TXT record follows the lobby
    hosts = browse(timeout_s=2.0)        # -> list[HostInfo], a snapshot
    ranked(hosts, known)                 # the order to list them in: pinned keys first, doubtful last
    describe(host, hosts, known)         # one line for people: words, look-alikes, pins, mixed scripts
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from netplay.names import looks_alike, mixed_scripts, name_key, name_keys, spelled, unlike
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
    watch: int = 0                # spectators it still takes (0: none, or it allows none): its game runs

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
         terms: str = "", watch: int = 0) -> dict[str, str]:
    if not _FINGERPRINT.fullmatch(fingerprint):
        raise ValueError(f"not a key fingerprint: {fingerprint!r}")
    if free_seats < 0 or watch < 0:
        raise ValueError("free seats or spectator places cannot be negative")
    txt = {"game": game, "version": version, "fingerprint": fingerprint, "seats": str(free_seats),
           "host": host_name}
    if terms:
        txt["terms"] = terms[:200]
    if watch:
        txt["watch"] = str(watch)   # absent when 0: an older netplay's list reads the record as before
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
                   txt.get("terms", ""), int(txt.get("watch", "0")))
        self.info = ServiceInfo(SERVICE, self.info.name, port=self.info.port, properties=txt,
                                addresses=self.info.addresses, server=self.info.server)
        self._txt = txt
        self._zc.update_service(self.info)


@contextlib.contextmanager
def advertise(*, port: int, game: str, version: str, fingerprint: str, free_seats: int, host_name: str,
              terms: str = "", addresses: Sequence[str] | None = None,
              interfaces: Sequence[str] | None = None, watch: int = 0) -> Iterator[Advertisement]:
    """Register the host on the LAN until the block ends. `watch`: the spectators its game still takes
    (`update(watch=...)` once the game is on; netplay watch and the lobby's "watch" read it)."""
    txt = _txt(game, version, fingerprint, free_seats, host_name, terms, watch)
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
        if not re.fullmatch(r"\d{1,3}", props.get("watch", "0")):
            raise ValueError(f"bad spectator places '{shown(props['watch'], 20)}'")
        watch = int(props.get("watch", "0"))
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
                        props.get("terms", ""), watch)
    except (KeyError, ValueError, UnicodeDecodeError, AttributeError) as exc:
        log.info("ignoring netplay advertisement %s: %s", shown(getattr(info, "name", "?"), 120), shown(exc, 200))
        return None


class Pins(Protocol):
    """What `assess`, `describe` and `bot_choice` need of netplay.identity.KnownPeers."""

    def get(self, name: str) -> bytes | None: ...

    def names(self) -> list[str]: ...


class Doubt(Enum):
    """Why a host's name cannot be taken at its word (each is shown; see `assess`)."""

    PINNED_ELSEWHERE = "its very name is pinned to another key"
    LOOKS_LIKE_PINNED = "its name looks like a name pinned to another key"
    LOOKALIKE = "another host of another key has a name that looks the same"
    MIXED_SCRIPT = "its name mixes scripts (alphabets)"


@dataclass(frozen=True, slots=True)
class Pinned:
    """A pin of another key that a host's name is (`same_name`: equal, or equal but for case, width and
    spaces, `name_key`) or only looks like (a confusable: "aIice" for "alice")."""

    name: str
    fingerprint: str
    same_name: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """One host as a list judges it: what vouches for its name and what speaks against it."""

    host: HostInfo
    verified: bool                               # its own name is pinned to its own key (a person vouched)
    pinned: Pinned | None                        # another key's pin it is or looks like
    group: tuple[HostInfo, ...]                  # the hosts on the list whose names look like it (itself too)
    scripts: tuple[str, ...]                     # what a mixed-script name mixes ("Cyrillic", "Latin")

    @property
    def doubts(self) -> tuple[Doubt, ...]:
        out = []
        if self.pinned is not None:
            out.append(Doubt.PINNED_ELSEWHERE if self.pinned.same_name else Doubt.LOOKS_LIKE_PINNED)
        if self.group:
            out.append(Doubt.LOOKALIKE)
        if self.scripts:
            out.append(Doubt.MIXED_SCRIPT)
        return tuple(out)

    @property
    def vouched(self) -> bool:
        """Its own name is pinned to its own key and nothing speaks against it but other hosts looking
        like it: the pin is evidence a person gave, so this one is the genuine of its look-alikes."""
        return self.verified and set(self.doubts) <= {Doubt.LOOKALIKE}

    @property
    def tier(self) -> int:
        """Where the host goes in a list: 0 the pinned key under its own name, 1 nothing against it,
        2 a mixed-script name or a look-alike on the list, 3 a name that is or looks like another key's pin."""
        if self.pinned is not None:
            return 3
        if self.verified:
            return 0
        return 2 if self.doubts else 1


def lookalikes(hosts: Iterable[HostInfo]) -> dict[str, list[HostInfo]]:
    """Hosts whose names look alike (`netplay.names.looks_alike`: shared `name_keys`) while their keys
    differ, by instance: each such host's instance maps to its whole group (itself included). Groups are
    joined through any shared key, so a chain "alice" ~ "aIice" ~ "AIice" is one group."""
    hosts = list(hosts)
    parent = list(range(len(hosts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[tuple[str, str], int] = {}
    for i, host in enumerate(hosts):
        for key in name_keys(host.host_name):
            j = first.setdefault(key, i)
            parent[root(i)] = root(j)
    groups: dict[int, list[HostInfo]] = {}
    for i, host in enumerate(hosts):
        groups.setdefault(root(i), []).append(host)
    return {h.instance: group for group in groups.values() if len({g.fingerprint for g in group}) > 1
            for h in group}


def pinned_elsewhere(host: HostInfo, known: Pins | None) -> Pinned | None:
    """The pin of another key under the host's very name, else under a name that looks like it
    ("Alice ", then "aIice", for a pinned "alice"; `looks_alike`), else None."""
    if known is None:
        return None
    pinned = known.get(host.host_name)
    if pinned is not None and fingerprint_of(pinned) != host.fingerprint:
        return Pinned(host.host_name, fingerprint_of(pinned), True)
    key = name_key(host.host_name)
    alike = [n for n in known.names() if n != host.host_name and looks_alike(n, host.host_name)]
    for name in sorted(alike, key=lambda n: name_key(n) != key):       # "Alice " before "aIice"
        pinned = known.get(name)
        if pinned is not None and fingerprint_of(pinned) != host.fingerprint:
            return Pinned(name, fingerprint_of(pinned), name_key(name) == key)
    return None


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """The pins read once for a whole list (KnownPeers re-reads its file on every lookup)."""

    pins: dict[str, bytes]

    @classmethod
    def of(cls, known: Pins | None) -> _Snapshot | None:
        if known is None:
            return None
        found = {name: known.get(name) for name in known.names()}
        return cls({name: key for name, key in found.items() if key is not None})

    def get(self, name: str) -> bytes | None:
        return self.pins.get(name)

    def names(self) -> list[str]:
        return sorted(self.pins)


def _verified(host: HostInfo, known: Pins | None) -> bool:
    pinned = known.get(host.host_name) if known is not None else None
    return pinned is not None and fingerprint_of(pinned) == host.fingerprint


def assess(hosts: Sequence[HostInfo], known: Pins | None = None) -> list[Standing]:
    """Every host with what vouches for and against its name, in the order a list shows them: the pinned
    keys under their own names first, then hosts with nothing against them, then doubtful ones (a
    look-alike never sorts before the genuine pinned host), each tier by game, name and instance."""
    similar = lookalikes(hosts)
    known = _Snapshot.of(known)
    out = [Standing(h, _verified(h, known), pinned_elsewhere(h, known), tuple(similar.get(h.instance, ())),
                    tuple(mixed_scripts(h.host_name) or ())) for h in hosts]
    return sorted(out, key=lambda s: (s.tier, s.host.game, s.host.host_name, s.host.instance))


def ranked(hosts: Sequence[HostInfo], known: Pins | None = None) -> list[HostInfo]:
    """The hosts in `assess`'s order."""
    return [s.host for s in assess(hosts, known)]


def warnings(standing: Standing) -> list[str]:
    """What a person is told about one host's name, one phrase per doubt (empty when none)."""
    host, out = standing.host, []
    if standing.pinned is not None and standing.pinned.same_name:
        out.append(f"NOT the key pinned for {standing.pinned.name} ({standing.pinned.fingerprint}): an impostor, "
                   "or a new key")
    elif standing.pinned is not None:
        differs = unlike(host.host_name, standing.pinned.name)
        out.append(f"looks like the pinned {standing.pinned.name} ({standing.pinned.fingerprint}) but is another "
                   "key" + (f", with {', '.join(differs)}" if differs else ""))
    if standing.group:
        same = len({name_key(h.host_name) for h in standing.group}) == 1
        what = f"call themselves {host.host_name}" if same else f"have names that look like {host.host_name}"
        out.append(f"{len({h.fingerprint for h in standing.group})} hosts {what}: compare the words with that "
                   "player aloud")
    if standing.scripts:
        out.append(f"its name mixes {' and '.join(standing.scripts)} letters ({spelled(host.host_name)}), as "
                   "look-alike names do")
    return out


def describe(host: HostInfo, hosts: Sequence[HostInfo], known: Pins | None = None) -> str:
    """One host as people see it in a list: game, name, address, key and words, seats, version, and a
    warning for each doubt about its name (`warnings`), or that its key is the one pinned for it."""
    line = (f"{host.game} hosted by {host.host_name} at {host.addresses[0]}:{host.port} (key {host.fingerprint}, "
            f"words: {host.words}; {host.free_seats} free seat(s), netplay {host.version})")
    if host.terms:
        line += f"; terms: {host.terms}"
    others = [h for h in hosts if h is not host]
    standing = next(s for s in assess([host, *others], known) if s.host is host)
    if standing.verified and standing.pinned is None:
        line += f"; the key pinned for {host.host_name}"
    for warning in warnings(standing):
        line += f"  !! {warning}"
    return shown(line)


def bot_choice(hosts: Sequence[HostInfo], known: Pins | None = None) -> tuple[HostInfo | None, list[str]]:
    """The host a bot may join by itself, and why it passed over the others.

    Never a host whose name is, or looks like, a name pinned to another key; never one of several hosts
    whose names look alike (a bot cannot compare words aloud) unless its own name is pinned to its key
    (a person vouched for it: the pin is the evidence); a mixed-script name only when no other host is
    left. The first of the rest in `assess`'s order: the pinned keys first."""
    chosen, passed, mixed = None, [], []
    for standing in assess(hosts, known):
        host = standing.host
        who = f"{host.host_name} with key {host.fingerprint}"
        if standing.pinned is not None and standing.pinned.same_name:
            passed.append(f"{who}: {standing.pinned.name} is pinned to {standing.pinned.fingerprint}")
        elif standing.pinned is not None:
            passed.append(f"{who} (words: {host.words}): looks like the pinned {standing.pinned.name} "
                          f"({standing.pinned.fingerprint})")
        elif standing.group and not standing.verified:
            passed.append(f"{who} (words: {host.words}): another host calls itself by that name or one that "
                          "looks like it")
        elif standing.scripts:
            mixed.append((host, f"{who} (words: {host.words}): its name mixes {' and '.join(standing.scripts)} "
                                f"letters ({spelled(host.host_name)})"))
        elif chosen is None:
            chosen = host
    if chosen is None and mixed:          # no other host is left, and this one looks like no pinned name
        chosen = mixed.pop(0)[0]
    return chosen, [shown(line) for line in passed + [why for _, why in mixed]]


def default_choice(standings: Sequence[Standing]) -> int | None:
    """The list entry (1-based) offered to a person as the default, or None. Only a first entry with no
    doubt about its name, and even then only when no two hosts on the list have look-alike names (which
    is real is for the person to say), unless it is the key pinned for its own name, which is evidence."""
    if not standings:
        return None
    first = standings[0]
    if first.vouched:
        return 1
    return 1 if not first.doubts and not any(s.group for s in standings) else None


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

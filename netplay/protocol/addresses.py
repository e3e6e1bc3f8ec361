"""A joiner's own signed statement of where it listens for direct links, and the joiner's check of `peers`.

Why: the host builds every `peers` address, so without this a host could blank or bend any joiner's
address (forcing every pair through its relay) and nobody could tell. Now each joiner signs, with its own
key, the port it listens on (0: none), bound to the host's key, the lobby id of this host's offer and its
own key, and sends it in `ready`; the host passes it on untouched in that joiner's `peers` entry. A
receiving joiner checks every entry against the seat's key from the header: a missing or invalid
statement, or an address blanked or carrying another port than a statement that gives one, is the host's
fault (the host alone builds `peers`). The address's IP is the host's observation and stays its word; a
joiner that listens on no port (a signed 0) leaves the host blameless.

`peers` lists every seat but the host's own (session protocol 5): an extra seat's entry names the key of the
peer that plays it and carries the seat key's own proof of that (the `extra-seat` signature of `ready`, or the
host's for its own extra seats). Why: without it a host could leave a joiner's entry out, and the others could
not tell that seat from an extra seat of the host's, so the pair would silently relay; now a seat left out, or
given to another peer without its key's proof, is the host's fault too (`check_cover`, `check_extra`).
"""

from __future__ import annotations

from dataclasses import dataclass

from replays.crypto import fingerprint, sign, verify
from replays.safetext import shown

__all__ = ["DOMAIN", "EXTRA_DOMAIN", "LOBBY_ID_BYTES", "AddressCheck", "statement_bytes", "sign_address", "check_entry",
           "check_extra", "check_cover"]

DOMAIN = "mesh-address"
#: the proof that a peer plays an extra seat: the seat key signs host key || peer key || name
EXTRA_DOMAIN = "extra-seat"
LOBBY_ID_BYTES = 16


def statement_bytes(host_key: bytes, lobby_id: bytes, joiner_key: bytes, port: int) -> bytes:
    """The exact message signed (under DOMAIN): host key (32) || lobby id (16) || joiner key (32) || port (u16 BE)."""
    return host_key + lobby_id + joiner_key + port.to_bytes(2, "big")


def sign_address(key, host_key: bytes, lobby_id: bytes, joiner_key: bytes, port: int) -> bytes:
    """The joiner's statement (64 bytes) that it listens on `port` (0: on none) for this host's lobby."""
    return sign(key, DOMAIN, statement_bytes(host_key, lobby_id, joiner_key, port))


def valid(joiner_key: bytes, host_key: bytes, lobby_id: bytes, port: int, signature: bytes) -> bool:
    return (0 <= port <= 65535 and len(lobby_id) == LOBBY_ID_BYTES and len(signature) == 64
            and verify(joiner_key, DOMAIN, statement_bytes(host_key, lobby_id, joiner_key, port), signature))


@dataclass(slots=True, frozen=True)
class AddressCheck:
    """What a joiner concluded of one `peers` entry: `fault` None (the host passed the statement on
    faithfully) or the host's fault, in words."""

    seat: int
    fault: str | None


def _port_of(address: str, key: bytes) -> int | None:
    """The port of `host:port/fingerprint` when its fingerprint is `key`'s, else None."""
    where, _, fp = address.rpartition("/")
    _, _, port = where.rpartition(":")
    if fp != fingerprint(key) or not port.isdigit() or len(port) > 5:
        return None
    return int(port)


def check_entry(seat: int, seat_key: bytes, host_key: bytes, lobby_id: bytes, address: str, port: int,
                signature: bytes) -> AddressCheck:
    """Judge one `peers` entry of a joiner's first seat against that seat's key from the header."""
    if not signature:
        return AddressCheck(seat, f"the host withheld seat {seat}'s own address: its entry carries no statement "
                                  "signed by that seat")
    if not valid(seat_key, host_key, lobby_id, port, signature):
        return AddressCheck(seat, f"the host withheld seat {seat}'s own address: the statement in its entry is not "
                                  "that seat's signature for this host and lobby")
    if port == 0:
        return AddressCheck(seat, None)      # it listens on none: nothing to pass on, nobody's fault
    if not address:
        return AddressCheck(seat, f"the host withheld seat {seat}'s own address: seat {seat} signed that it listens "
                                  f"on port {port}, and the host blanked it")
    if _port_of(address, seat_key) != port:
        return AddressCheck(seat, f"the host withheld seat {seat}'s own address: seat {seat} signed that it listens "
                                  f"on port {port}, and the host gives {shown(address, 80)!r}")
    return AddressCheck(seat, None)


def check_extra(seat: int, seat_key: bytes, seat_name: str, host_key: bytes, peer_key: bytes, proof: bytes,
                header_keys: set[bytes]) -> AddressCheck:
    """Judge one `peers` entry that gives `seat` (key `seat_key`, named `seat_name` in the header) to another
    peer's key: that peer must hold a seat of the header, and the seat's own key must have signed that it plays
    it. Only the seat's key can sign that, so a host cannot pass a joiner's seat off as its own extra seat."""
    if peer_key not in header_keys:
        return AddressCheck(seat, f"the host gives seat {seat} to a key that holds no seat of the header "
                                  f"({fingerprint(peer_key)})")
    if len(proof) != 64 or not verify(seat_key, EXTRA_DOMAIN, host_key + peer_key + seat_name.encode(), proof):
        return AddressCheck(seat, f"the host gives seat {seat} to another peer ({fingerprint(peer_key)}) without "
                                  "that seat's signed proof that this peer plays it")
    return AddressCheck(seat, None)


def check_cover(players: int, host_seat: int, held: set[int], listed: set[int]) -> list[AddressCheck]:
    """The seats a `peers` message leaves out: every seat but the host's own and the receiver's must have an
    entry, since only the host builds `peers` and an honest one lists them all."""
    return [AddressCheck(seat, f"the host left seat {seat} out of `peers`: no key, address or proof for it")
            for seat in range(players) if seat != host_seat and seat not in held and seat not in listed]

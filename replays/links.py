"""The `links` record (format 2.1): which pairs of seats the host's relay alone joined, written once by a
peer when a game of three seats or more starts. Its value and its shape are here, apart from the file reader,
because the session's protocol builds it and must reach no file I/O (tests/test_protocol_pure.py);
`replays.reader` reads it (and names these as before)."""

from __future__ import annotations

from replays.header import Header

__all__ = ["MAX_LINK_PAIRS", "links_from_value", "links_record"]

#: every pair of 64 seats: the most a `links` record can name
MAX_LINK_PAIRS = 64 * 63 // 2


def links_record(pairs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> tuple:
    """The `links` record a peer writes once when a game of three seats or more starts: the pairs of seats
    with no direct link between their peers, which the host's relay alone joined. Sorted and without repeats,
    so that one knowledge has one encoding (docs/replay-format.md "Layout")."""
    return ("links", tuple(sorted({(min(a, b), max(a, b)) for a, b in pairs})))


def links_from_value(value: tuple, header: Header) -> tuple[tuple[int, int], ...] | None:
    """The pairs of a `links` record, or None when it is not one: `["links", [[a, b], ...]]` with a < b seats
    of the game, neither the host's, at most MAX_LINK_PAIRS pairs in strictly increasing order. Only a 2.1
    file holds one (a later minor version may append fields, read past). The record is the writer's word,
    signed by nothing: the shape is all a reader can check."""
    if (header.major, header.minor) < (2, 1) or not (len(value) == 2 or (header.minor > 1 and len(value) > 2)):
        return None
    pairs = value[1]
    if type(pairs) is not tuple or len(pairs) > MAX_LINK_PAIRS:
        return None
    host = header.terms.host_seat if header.terms is not None else None
    players = len(header.seats)
    out: list[tuple[int, int]] = []
    for pair in pairs:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not int or type(pair[1]) is not int:
            return None
        a, b = pair
        if not 0 <= a < b < min(players, 64) or host in (a, b) or (out and out[-1] >= (a, b)):
            return None
        out.append((a, b))
    return tuple(out)

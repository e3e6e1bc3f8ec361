"""Players' names as shown in one game or one list, told apart when two would read the same.

Anybody may call themselves anything: two machines set up alike both announce "root@vm", and every bot
of a sandbox is "smart bot". A table, a log line, an end screen or a list of hosts that shows such a name
twice leaves the person unable to say who is who, so every name that looks like another one of the same
game (netplay.names: case, width, spaces and look-alike letters folded, the same test the lobby's host
list warns with) gets a short suffix that stays put for the whole game and means something:

- a peer with a key: the first hex digits of its key's fingerprint, "root@vm (a52e)" (the fingerprint a
  person can check on the other machine; more digits when 4 do not tell two keys apart);
- a name without a key (a bot of this window, a seat this machine plays twice): a number by seat order,
  "smart bot 1", "smart bot 2".

Names no other one of the list looks like are left exactly as they are. No pygame here: the terminal, the
table, the lobby and the replay viewer all call `distinct`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from netplay.names import name_keys
from replays.crypto import fingerprint

__all__ = ["distinct", "seat_names", "tail"]

#: the end of a text that may be the suffix `distinct` gave a name: kept whole when a text is cut to fit
_TAIL = re.compile(r" (?:\([0-9a-f]{4,64}\)|\d{1,3})$")

Key = bytes | str | None     # a raw public key, a fingerprint ("3f2a-9c01-77de-0b45"), or none


def _digits(key: Key) -> str:
    """The key's fingerprint as bare hex digits ("" without a key)."""
    if key is None or key == b"" or key == "":
        return ""
    return (fingerprint(key) if isinstance(key, bytes) else key).replace("-", "").lower()


def _groups(names: Sequence[str]) -> list[list[int]]:
    """The indices of the names that look alike, each group in order (a name alone is no group). Two
    names are together when they share a key of `netplay.names.name_keys`, and so are names linked
    through a third one (so that every suffix of one look-alike family is chosen at once)."""
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[tuple[str, str], int] = {}
    for i, name in enumerate(names):
        if not name:
            continue
        for key in name_keys(name):
            if key in first:
                parent[root(i)] = root(first[key])
            else:
                first[key] = i
    members: dict[int, list[int]] = {}
    for i, name in enumerate(names):
        if name:
            members.setdefault(root(i), []).append(i)
    return [group for group in members.values() if len(group) > 1]


def _prefix(digits: list[str]) -> int:
    """How many hex digits tell the different keys of a group apart (4, more when they share 4)."""
    different = set(digits)
    for n in range(4, 65, 4):
        if len({d[:n] for d in different}) == len(different):
            return n
    return 64


def distinct(names: Sequence[str], keys: Sequence[Key] | None = None) -> list[str]:
    """`names` (one per seat or peer, in order) with every name that looks like another one of the list
    marked apart: "(a52e)" after it from `keys[i]`'s fingerprint when it has a key no other look-alike
    shares, else " 1", " 2"... by order. Names unlike every other one come back unchanged, and so does
    a list without look-alikes. See the module docstring for why."""
    keys = list(keys or [])
    out = list(names)
    groups = _groups(names)
    grouped = {i for group in groups for i in group}
    taken = set().union(*(name_keys(n) for i, n in enumerate(names) if n and i not in grouped))
    for group in groups:
        digits = {i: _digits(keys[i]) if i < len(keys) else "" for i in group}
        owned = [d for d in digits.values() if d]
        unique = {d for d in owned if owned.count(d) == 1}
        width = _prefix(sorted(unique)) if unique else 4
        number = 0
        for i in group:
            if digits[i] in unique:
                out[i] = f"{names[i]} ({digits[i][:width]})"
            else:       # the next number that makes no name the list has already ("x 1" beside "x", "x")
                number += 1
                while name_keys(f"{names[i]} {number}") & taken:
                    number += 1
                out[i] = f"{names[i]} {number}"
            taken |= name_keys(out[i])
    if groups and _groups(out):
        # a name made to look like a suffixed one ("root@vm (a52e)" typed as a name): seat numbers settle it
        clash = {i for group in _groups(out) for i in group}
        out = [f"{shown} (seat {i})" if i in clash else shown for i, shown in enumerate(out)]
    return out


def seat_names(seats: Sequence[tuple[bytes, str]]) -> list[str]:
    """A game header's seats ((key, name) each) as `distinct` shows them."""
    return distinct([name for _, name in seats], [key for key, _ in seats])


def tail(text: str) -> str:
    """The end of `text` that may tell a name apart (" (a52e)", " 2"; "" when there is none): what a cut
    to fit keeps (client.ui.widgets.fit), so that two cut names do not read the same again."""
    found = _TAIL.search(text)
    return found.group(0) if found else ""

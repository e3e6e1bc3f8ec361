"""When two player names look the same to a person, and when one name mixes alphabets.

Anyone on the LAN may advertise under any name, so a list of hosts marks the names a person could
mistake for one another (netplay.discovery). "Look the same" is the union of two foldings, so that
nothing either misses is missed:

- what `name_key` folds: Unicode NFKC (full-width letters, ligatures), case, runs of spaces, so
  "Alice " and "alice" and "ａｌｉｃｅ" are one name;
- UTS #39's confusables skeleton (netplay.uts39), before and after folding case: "aIice" (capital I)
  and Cyrillic "аlice" look like "alice", "ALICE" with a Cyrillic А like "ALICE".

Each name gets a few keys (`name_keys`); two names look alike when they share one (`looks_alike`).
The keys are tagged by the folding that made them, so a key of one kind never meets one of another.
Names that are merely similar ("alice" and "alice2", "Lia" and "Ila") share none.
"""

from __future__ import annotations

import functools
import unicodedata

from netplay.uts39 import mixed_scripts, skeleton

__all__ = ["looks_alike", "mixed_scripts", "name_key", "name_keys", "spelled", "unlike"]


def _spaces(text: str) -> str:
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What two names look like to a person, case and width aside: NFKC, case-folded, spaces collapsed
    ("Alice " and "alice", or a name in full-width letters, are one)."""
    return _spaces(unicodedata.normalize("NFKC", name).casefold())


_ROUNDS = 8     # case folding and skeleton settle within 3 rounds on every entry of the table (tests)


def _settled(text: str) -> str:
    """Case folding and the skeleton applied in turn until neither changes anything: the skeleton may
    give a capital ("0" has the prototype "O"), folding that may give a letter with a prototype."""
    for _ in range(_ROUNDS):
        after = _spaces(skeleton(text.casefold()))
        if after == text:
            break
        text = after
    return text


@functools.lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[tuple[str, str]]:
    """The keys two look-alike names share at least one of:

    - ("folded", ...): case, width and spaces folded first (`name_key`), then confusables;
    - ("skeleton", ...): UTS #39's skeleton of the name as it is, so the capital I of "aIice" becomes "l"
      before case folding could make it "i" (and any two names UTS #39 calls confusable share it), then
      case;

    each then settled (`_settled`), so that every key is a name whose keys include that key itself."""
    return frozenset({("folded", _settled(name_key(name))), ("skeleton", _settled(_spaces(skeleton(name))))})


def looks_alike(a: str, b: str) -> bool:
    """True when a person could take the name `a` for `b` (they share a key of `name_keys`)."""
    return bool(name_keys(a) & name_keys(b))


def spelled(name: str) -> str:
    """The name with every character outside printable ASCII written as its code point (\\u0430lice for
    a Cyrillic а): how a warning shows which letters of a mixed-script name are foreign."""
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"
                   for c in name)


def unlike(name: str, other: str, most: int = 4) -> list[str]:
    """The characters of `name` that `other` does not have, each spelled and named ("I (LATIN CAPITAL
    LETTER I)", "\\u0430 (CYRILLIC SMALL LETTER A)"): what a warning points at when `name` only looks
    like `other`, since the two may be drawn the same on the screen. At most `most` of them."""
    theirs = set(unicodedata.normalize("NFD", other))
    out: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if char not in theirs and not char.isspace():
            text = f"{spelled(char)} ({unicodedata.name(char, f'U+{ord(char):04X}')})"
            if text not in out:
                out.append(text)
    return out[:most]

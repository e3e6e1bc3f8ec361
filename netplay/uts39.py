"""Unicode Technical Standard #39 (security mechanisms), the two parts a list of names needs:

- `skeleton(text)` (section 4): NFD, Default_Ignorable_Code_Point characters removed, every character
  replaced by its prototype from confusables.txt, NFD again. Two strings are confusable exactly when
  their skeletons are equal: "aIice" and "alice" both give "alice" (capital I, digit one and the
  vertical bar all have the prototype "l"), Cyrillic "аlice" and Greek "αlice" give "alice" too.
  Case is part of it (UTS #39 keeps "A" and "a" apart); callers that also fold case say so.
- `resolved_scripts(text)` and `mixed_scripts(text)` (section 5.1): a string is mixed-script when no
  one script covers all its letters, Common and Inherited characters (digits, "@", accents) counting
  for every script and Script_Extensions with the CJK augmentation applied, so "山田たろう" (Han and
  Hiragana: Japanese) is one script and "аlice" (Cyrillic а, Latin lice) is two; Latin beside
  Han, kana, Hangul or Bopomofo is not counted as mixed (section 5.2's "Highly Restrictive").

The data is netplay/uts39_data.py (generated from Unicode's own files by scripts/uts39_tables.py; it says
which versions); NFD is Python's `unicodedata`. Pure functions, the tables parsed once on first use.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from dataclasses import dataclass

from netplay import uts39_data

# UTS #39 section 5.1: a CJK script stands for the writing systems that use it
_AUGMENT = {"Hani": ("Hanb", "Jpan", "Kore"), "Hira": ("Jpan",), "Kana": ("Jpan",), "Hang": ("Kore",),
            "Bopo": ("Hanb",)}
_EVERY = ("Zyyy", "Zinh")     # Common and Inherited: compatible with any script


@dataclass(frozen=True, slots=True)
class _Ranges:
    """Sorted disjoint code point ranges with a value each, looked up by bisection."""

    firsts: tuple[int, ...]
    lasts: tuple[int, ...]
    values: tuple[tuple[str, ...], ...]

    @classmethod
    def parse(cls, block: str) -> _Ranges:
        rows = sorted((int(a, 16), int(b, 16), tuple(rest)) for a, b, *rest in (line.split() for line in
                                                                                  block.splitlines() if line))
        return cls(tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows))

    def get(self, cp: int) -> tuple[str, ...] | None:
        i = bisect.bisect_right(self.firsts, cp) - 1
        return self.values[i] if i >= 0 and cp <= self.lasts[i] else None


@functools.cache
def _prototypes() -> dict[str, str]:
    table = {}
    for line in uts39_data.PROTOTYPES.splitlines():
        source, *target = line.split()
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target)
    return table


@functools.cache
def _scripts() -> _Ranges:
    return _Ranges.parse(uts39_data.SCRIPTS)


@functools.cache
def _extensions() -> _Ranges:
    return _Ranges.parse(uts39_data.EXTENSIONS)


@functools.cache
def _ignorable() -> _Ranges:
    return _Ranges.parse(uts39_data.IGNORABLE)


@functools.cache
def _script_names() -> dict[str, str]:
    return dict(line.split(" ", 1) for line in uts39_data.SCRIPT_NAMES.splitlines() if line)


def prototype(char: str) -> str:
    """The prototype confusables.txt gives `char` (itself when it has none)."""
    return _prototypes().get(char, char)


def confusable_sources() -> list[str]:
    """Every character confusables.txt maps to a prototype (for tests and tools)."""
    return list(_prototypes())


_ROUNDS = 8    # the data needs 2 at most (tests/test_names_confusable.py checks every entry)


def _one_skeleton(text: str) -> str:
    ignorable = _ignorable()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototype(c) for c in decomposed if ignorable.get(ord(c)) is None)
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """UTS #39 skeleton(X): equal skeletons mean that the two strings can be mistaken for each other.

    Applied until it no longer changes: 13 entries of confusables.txt have a prototype whose NFD holds a
    character with a prototype of its own (U+01C6 "dž" gives d, z, U+030C caron, whose prototype is the
    breve U+0306), so one pass is not idempotent. Repeating it keeps every pair one pass finds equal
    (equal strings stay equal) and makes skeleton(skeleton(x)) == skeleton(x), which comparing names
    under several foldings (netplay.discovery.name_keys) relies on."""
    for _ in range(_ROUNDS):
        after = _one_skeleton(text)
        if after == text:
            break
        text = after
    return text


def confusable(a: str, b: str) -> bool:
    return skeleton(a) == skeleton(b)


def script(char: str) -> str:
    """The Script property's four-letter code ("Latn", "Cyrl", "Zyyy" for Common, "Zzzz" unknown)."""
    found = _scripts().get(ord(char))
    return found[0] if found else "Zzzz"


def script_extensions(char: str) -> frozenset[str]:
    """Script_Extensions: the scripts a character is used with (its Script where the file says nothing)."""
    found = _extensions().get(ord(char))
    return frozenset(found) if found else frozenset((script(char),))


def _augmented(char: str) -> frozenset[str] | None:
    """The character's augmented script set; None for one that goes with every script."""
    scripts = script_extensions(char)
    if scripts & set(_EVERY):
        return None
    out = set(scripts)
    for code in scripts:
        out.update(_AUGMENT.get(code, ()))
    return frozenset(out)


def resolved_scripts(text: str) -> frozenset[str] | None:
    """UTS #39 5.1's resolved script set: the scripts every character is compatible with; None means
    every script (a string of digits and punctuation), empty means mixed-script."""
    resolved: frozenset[str] | None = None
    for char in unicodedata.normalize("NFD", text):
        scripts = _augmented(char)
        if scripts is not None:
            resolved = scripts if resolved is None else resolved & scripts
    return resolved


def scripts_named(text: str) -> list[str]:
    """The long names of the scripts of `text`'s characters, Common and Inherited left out, in order of
    first appearance ("Latin", "Cyrillic"): how a person is told what a mixed name mixes."""
    names = _script_names()
    seen: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        code = script(char)
        if code not in _EVERY and names.get(code, code) not in seen:
            seen.append(names.get(code, code))
    return seen


_WITH_LATIN = frozenset(("Jpan", "Kore", "Hanb"))   # section 5.2, "Highly Restrictive": Latin with these


def mixed_scripts(text: str) -> list[str] | None:
    """The scripts a mixed-script string mixes (their long names), or None when one script covers it.

    Latin together with Han, Japanese kana, Hangul or Bopomofo is not counted as mixed: UTS #39's
    "Highly Restrictive" level (section 5.2) allows it, since people write their names that way
    ("山田taro") and those scripts have no letters that pass for Latin ones."""
    resolved = resolved_scripts(text)
    if resolved is None or resolved:
        return None
    rest = resolved_scripts("".join(c for c in unicodedata.normalize("NFD", text)
                                    if script_extensions(c) != frozenset(("Latn",))))
    if rest and rest & _WITH_LATIN:
        return None
    return scripts_named(text)

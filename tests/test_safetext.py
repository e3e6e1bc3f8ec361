"""replays.safetext: the one place text from a peer or a file is made safe to show, and the name rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from netplay import transport, wire
from netplay.identity import check_name as identity_check_name
from replays.safetext import MAX_NAME, check_name, is_name, shown

ATTACKS = {
    "title": "ann\x1b]0;you have been pwned\x07",          # retitles the terminal
    "wipe": "\x1b[2J\x1b[H",                               # clears it
    "overwrite": "INVALID\rVALID  ",                        # a carriage return prints over the verdict
    "bidi": "gnp.\u202eexe",                                # right-to-left override reverses what follows
    "isolate": "\u2066abc\u2069",
    "c1": "\x9b31m red",                                   # an 8-bit CSI
    "zero-width": "a\u200bb",
    "line-separator": "a\u2028b",
    "nul": "a\x00b",
    "del": "a\x7fb",
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_escapes_and_overrides_are_shown_as_visible_escapes(name: str) -> None:
    text = shown(ATTACKS[name])
    assert text.isprintable() and "\x1b" not in text and "\r" not in text
    assert text.isascii()                        # these attacks are left as plain ASCII text


def test_the_escapes_are_the_ones_a_programmer_types() -> None:
    assert shown("ann\x1b]0;x\x07") == "ann\\x1b]0;x\\x07"
    assert shown("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert shown("gnp.\u202eexe") == "gnp.\\u202eexe"
    assert shown("\U000e0041") == "\\U000e0041"
    assert shown("Zoë Müller 🎲 漢字 \\ 'quoted'") == "Zoë Müller 🎲 漢字 \\ 'quoted'"   # printable text stays


def test_limit_cuts_at_a_whole_character_or_escape() -> None:
    assert shown("abcdefghij", 6) == "abc..."
    assert shown("abcdef", 6) == "abcdef"
    assert shown("a\x1bbcdefgh", 8) == "a\\x1b..."
    assert shown("\x1b" * 10, 9) == "\\x1b..."
    assert len(shown("x" * 10_000_000, 500)) == 500          # a megabyte of text costs nothing


def test_not_a_str_is_shown_as_its_str() -> None:
    assert shown(42) == "42" and shown(None) == "None" and shown(b"\x1b") == "b'\\x1b'"


@given(st.text(max_size=300), st.one_of(st.none(), st.integers(0, 400)))
def test_shown_is_printable_bounded_and_idempotent(text: str, limit: int | None) -> None:
    out = shown(text, limit)
    assert out.isprintable()
    if limit is not None:
        assert len(out) <= max(3, limit)
    if limit is None or len(out) < limit:
        assert shown(out) == out                 # applying it again changes nothing


@given(st.text(max_size=200))
def test_wire_and_transport_clip_delegate(text: str) -> None:
    assert wire.clip(text) == shown(text, wire.MAX_TEXT)
    assert transport.clip(text, 40) == shown(text, 40)


def test_names() -> None:
    for good in ("ann", "a" * MAX_NAME, "Zoë@box", "x y"):
        assert is_name(good) and check_name(good) == good and identity_check_name(good) == good
    for bad in ("", "a" * (MAX_NAME + 1), "ann\x1b[2J", "bob\r", "\u202eeve", "a\u200bb", "tab\t", None, 7, b"ann"):
        assert not is_name(bad)
        with pytest.raises(ValueError, match="1..64 printable characters") as caught:
            check_name(bad)
        assert str(caught.value).isprintable()

"""Text from a peer or a file, made safe to show: the one place every front end (terminal, window,
log line, error message) passes such text through before anyone sees it.

Why: a name, a chat line, a refusal reason, a discovery record or a replay header field is chosen by
whoever sent it. Shown raw, `ESC ] 0;... BEL` retitles the terminal, `ESC [2J` wipes it, a carriage
return overwrites a verdict (`INVALID` printed over as `VALID`), and a right-to-left override
(U+202E) reverses what follows on screen. So every character that is not printable is shown as the
escape a Python programmer would type for it, visibly and without effect.

API (the lowest layer: `replays` imports nothing above it, so client, netplay and replays all use it):

    shown(text, limit=None) -> str
        `text` with every character that is not printable (`str.isprintable()` is false: C0 and C1
        controls, DEL, format characters such as the bidirectional overrides and isolates U+202A..E and
        U+2066..9 or zero-width ones, line and paragraph separators, spaces other than U+0020,
        surrogates, unassigned code points) replaced by its visible escape: `\\n`, `\\r`, `\\t`,
        `\\xNN`, `\\uNNNN` or `\\UNNNNNNNN`. Printable text (any script, accents, emoji) is kept as it
        is. With `limit`, the result is at most `limit` characters: longer text is cut at a whole
        character or escape and ends in "..." (only about `limit` characters of the input are read,
        so a megabyte of hostile text costs nothing). Not a str: its `str()` is shown. Idempotent:
        `shown(shown(t)) == shown(t)` (a backslash is printable and left alone, so text that already
        went through `shown` is unchanged), so layers may each apply it without doubling escapes.
    is_name(value) -> bool
    check_name(value) -> str
        A peer name as the protocol allows it (docs/protocol.md, "Keys"): a str of 1..64 characters,
        every one printable. `check_name` returns it or raises ValueError whose message shows the
        rejected value safely. Names are pin keys and appear on every screen, so they are validated
        where they enter (the transport's HELLO and AUTH, a replay header read from a file or the
        wire) rather than escaped at every place that shows them.
    MAX_NAME = 64

Use `shown` at the last step before text reaches a person, on everything that did not come from this
program itself; `check_name` where a name enters. JSON output needs neither (json.dumps escapes every
control and non-ASCII character).
"""

from __future__ import annotations

from typing import TypeGuard

__all__ = ["MAX_NAME", "check_name", "is_name", "shown"]

MAX_NAME = 64
ELLIPSIS = "..."
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _piece(ch: str) -> str:
    """One character as shown: itself when printable, else its escape."""
    if ch.isprintable():
        return ch
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: object, limit: int | None = None) -> str:
    """`text` with every non-printable character shown as its escape, at most `limit` characters."""
    if not isinstance(text, str):
        text = str(text)
    if limit is not None:
        limit = max(len(ELLIPSIS), limit)
        text = text[:limit + 1]          # each input character shows as at least one character
    out = text if text.isprintable() else "".join(map(_piece, text))   # printable: the common case
    if limit is None or len(out) <= limit:
        return out
    pieces, used, room = [], 0, limit - len(ELLIPSIS)
    for piece in map(_piece, text):
        if used + len(piece) > room:
            break
        pieces.append(piece)
        used += len(piece)
    return "".join(pieces) + ELLIPSIS


def is_name(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()


def check_name(value: object) -> str:
    """`value` if it is a valid peer name (1..64 printable characters), else ValueError."""
    if not is_name(value):
        what = shown(value, 80) if isinstance(value, str) else type(value).__name__
        raise ValueError(f"a peer name must be 1..{MAX_NAME} printable characters, got '{what}'"
                         + (f" ({len(value)} characters)" if isinstance(value, str) and len(value) > MAX_NAME
                            else ""))
    return value

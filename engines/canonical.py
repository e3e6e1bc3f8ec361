"""The canonical encoding behind `Game.digest`: equal values give equal bytes on every peer.

Type-tagged and length-prefixed, so that no two different values share an encoding (1 and "1",
[1, 2] and [[1], 2]); dict keys are sorted by their own encoding, so insertion order never matters.
docs/protocol.md states the byte format for other implementations.
"""

from __future__ import annotations

from typing import Any

from engines.contract import HIDDEN

__all__ = ["canonical_bytes"]


def canonical_bytes(value: Any) -> bytes:
    """The canonical encoding of nested ints, strs, bytes, bools, None, HIDDEN, tuples/lists and dicts."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _encode(value: Any, out: bytearray) -> None:
    # Exact-type checks first: this runs for every digest, i.e. for every frame a peer or the audit
    # accepts; subclasses (NamedTuple states, IntEnum) take the isinstance path below.
    t = type(value)
    if t is int:
        text = b"%d" % value
        out += b"i" + len(text).to_bytes(2, "big") + text
    elif t is tuple or t is list:
        out += b"l" + len(value).to_bytes(4, "big")
        for item in value:
            _encode(item, out)
    elif t is str:
        data = value.encode()
        out += b"s" + len(data).to_bytes(4, "big") + data
    elif value is None:
        out += b"N"
    elif value is True:
        out += b"T"
    elif value is False:
        out += b"F"
    elif isinstance(value, int):
        _encode(int(value), out)
    elif isinstance(value, str):
        _encode(str(value), out)
    elif isinstance(value, bytes):
        out += b"b" + len(value).to_bytes(4, "big") + bytes(value)
    elif isinstance(value, (tuple, list)):
        _encode(tuple(value), out)
    elif isinstance(value, dict):
        items = sorted((canonical_bytes(k), v) for k, v in value.items())
        out += b"d" + len(items).to_bytes(4, "big")
        for key, item in items:
            out += key
            _encode(item, out)
    elif value is HIDDEN:
        out += b"H"
    else:
        raise TypeError(f"cannot encode {type(value).__name__} canonically")

"""The canonical encoding behind `Game.digest`: equal values give equal bytes on every peer.

Type-tagged and length-prefixed, so that no two different values share an encoding (1 and "1",
[1, 2] and [[1], 2]); dict keys are sorted by their own encoding, so insertion order never matters.
docs/protocol.md states the byte format for other implementations.

This runs for every digest, i.e. for every frame a peer or the audit accepts, so it is written for
speed: pieces are collected in a list and joined once, the encodings of small ints, array headers
and short texts are looked up rather than built, and arrays of arrays are walked without going
through the general dispatch. `tests/test_core.py` checks it against a plain reference encoder.
"""

from __future__ import annotations

from typing import Any

from engines.contract import HIDDEN

__all__ = ["canonical_bytes"]


def _int_bytes(value: int) -> bytes:
    text = b"%d" % value
    return b"i" + len(text).to_bytes(2, "big") + text


#: int -> its encoding, for the ints game states are made of (exact ints only: True == 1 as a key,
#: so a bool must never be looked up here)
_INTS = {i: _int_bytes(i) for i in range(-1024, 4096)}
#: array header of n items
_ARRAYS = [b"l" + n.to_bytes(4, "big") for n in range(1024)]
#: short texts seen so far (action and piece names, phases): bounded, filled as they come
_TEXTS: dict[str, bytes] = {}
_TEXTS_MAX = 4096


def canonical_bytes(value: Any) -> bytes:
    """The canonical encoding of nested ints, strs, bytes, bools, None, HIDDEN, tuples/lists and dicts."""
    out: list[bytes] = []
    _encode(value, out)
    return b"".join(out)


def _array(value: tuple | list, out: list[bytes]) -> None:
    n = len(value)
    append = out.append
    append(_ARRAYS[n] if n < 1024 else b"l" + n.to_bytes(4, "big"))
    ints = _INTS
    for item in value:
        kind = type(item)
        if kind is int:
            data = ints.get(item)
            if data is not None:
                append(data)
                continue
        elif kind is tuple:
            _array(item, out)
            continue
        elif item is None:
            append(b"N")
            continue
        _encode(item, out)


def _encode(value: Any, out: list[bytes]) -> None:
    # Exact-type checks first; subclasses (NamedTuple states, IntEnum) take the isinstance path below
    # and are encoded as their base type.
    t = type(value)
    if t is tuple or t is list:
        _array(value, out)
    elif t is int:
        data = _INTS.get(value)
        out.append(data if data is not None else _int_bytes(value))
    elif t is str:
        data = _TEXTS.get(value)
        if data is None:
            raw = value.encode()
            data = b"s" + len(raw).to_bytes(4, "big") + raw
            if len(value) <= 64 and len(_TEXTS) < _TEXTS_MAX:
                _TEXTS[value] = data
        out.append(data)
    elif value is None:
        out.append(b"N")
    elif value is True:
        out.append(b"T")
    elif value is False:
        out.append(b"F")
    elif isinstance(value, int):
        _encode(int(value), out)
    elif isinstance(value, str):
        _encode(str(value), out)
    elif isinstance(value, bytes):
        out.append(b"b" + len(value).to_bytes(4, "big") + bytes(value))
    elif isinstance(value, (tuple, list)):
        _encode(tuple(value), out)
    elif isinstance(value, dict):
        items = sorted((canonical_bytes(k), v) for k, v in value.items())
        out.append(b"d" + len(items).to_bytes(4, "big"))
        for key, item in items:
            out.append(key)
            _encode(item, out)
    elif value is HIDDEN:
        out.append(b"H")
    else:
        raise TypeError(f"cannot encode {type(value).__name__} canonically")

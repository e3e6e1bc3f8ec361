"""Canonical msgpack: the one byte encoding of every frame and replay record.

Signatures and hashes are taken over bytes, so every value must have exactly one encoding. We allow
only nil, bool, int, str, bin and arrays (tuples/lists), which msgpack encodes in one shortest form
each; no maps (their key order is a second encoding), no floats, no ext types. The decoder never
trusts its input: it enforces size, depth, item and length limits, rejects every type outside the
list above, and re-encodes what it read to reject any non-shortest encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

__all__ = ["FormatError", "Limits", "DEFAULT_LIMITS", "encode", "decode", "iter_records", "scan"]


class FormatError(ValueError):
    """Bytes that are not a well-formed canonical record; `reason` says what was wrong."""

    def __init__(self, reason: str, truncated: bool = False):
        super().__init__(reason)
        self.reason = reason
        #: the bytes end inside a record that was well-formed so far (a torn write, not garbage)
        self.truncated = truncated


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on one decoded record. The defaults fit any frame or header by a wide margin."""

    max_bytes: int = 1 << 20
    max_depth: int = 8
    max_items: int = 20_000
    max_str: int = 1 << 16
    max_bin: int = 1 << 16


DEFAULT_LIMITS = Limits()

_SCALARS = (int, str, bytes, bool)


def _check(value: Any, depth: int, limits: Limits, budget: list[int]) -> None:
    # bool is an int subclass and None a singleton: both are fine as they are
    if value is None or type(value) in _SCALARS:
        return
    if type(value) in (tuple, list):
        if depth >= limits.max_depth:
            raise FormatError(f"nested deeper than {limits.max_depth} levels")
        budget[0] -= len(value)
        if budget[0] < 0:
            raise FormatError(f"more than {limits.max_items} items in one record")
        for item in value:
            if item is None or type(item) in _SCALARS:
                continue
            _check(item, depth + 1, limits, budget)
        return
    if isinstance(value, dict):
        raise FormatError("maps are not allowed (records are fixed-position arrays)")
    if isinstance(value, float):
        raise FormatError("floats are not allowed")
    raise FormatError(f"type {type(value).__name__} is not allowed")


def encode(value: Any, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The canonical bytes of `value` (nil, bool, int, str, bytes and tuples/lists of them)."""
    _check(value, 0, limits, [limits.max_items])
    try:
        return msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError, TypeError) as exc:
        raise FormatError(f"cannot encode: {exc}") from None


def _unpack_args(limits: Limits) -> dict[str, Any]:
    return {
        "raw": False,
        "use_list": False,
        "strict_map_key": True,
        "max_str_len": limits.max_str,
        "max_bin_len": limits.max_bin,
        "max_array_len": limits.max_items,
        "max_map_len": 0,
        "max_ext_len": 0,
    }


def _reason(exc: BaseException) -> str:
    if isinstance(exc, msgpack.ExtraData):
        return "trailing bytes after the record"
    if isinstance(exc, msgpack.OutOfData) or "incomplete input" in str(exc):
        return "truncated record"
    if isinstance(exc, UnicodeDecodeError):
        return "a text field is not valid UTF-8"
    text = str(exc)
    if "max_map_len" in text:
        return "maps are not allowed (records are fixed-position arrays)"
    if "max_ext_len" in text:
        return "msgpack extension types are not allowed"
    for kind in ("str", "bin", "array"):
        if f"max_{kind}_len" in text:
            return f"a {kind} is longer than the limit ({text})"
    if isinstance(exc, msgpack.StackError) or "nest" in text.lower():
        return "nested too deeply"
    if isinstance(exc, msgpack.FormatError) or not text:
        return "not msgpack (invalid type byte)"
    return text


def decode(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """One record from exactly `data`; FormatError for anything that is not canonical and allowed."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise FormatError(f"expected bytes, got {type(data).__name__}")
    if len(data) > limits.max_bytes:
        raise FormatError(f"record of {len(data)} bytes exceeds the limit of {limits.max_bytes}")
    if not data:
        raise FormatError("empty record")
    _end, problem, plain = _walk(data, limits, 0)
    if problem:
        raise FormatError(problem)
    raw = bytes(data)
    try:
        value = msgpack.unpackb(raw, **_unpack_args(limits))
    except (ValueError, msgpack.UnpackException, TypeError, OverflowError, RecursionError) as exc:
        raise FormatError(_reason(exc)) from None
    # The walk above already held these very bytes to the depth and item limits; what it cannot say is a
    # value's type, so the decoded value is walked again only when a float, map or extension header was
    # met (msgpack decoded the same bytes the walk did, so without one every value is nil, bool, int,
    # str, bin or an array)
    if not plain:
        _check(value, 0, limits, [limits.max_items])
    if msgpack.packb(value, use_bin_type=True) != raw:
        raise FormatError("not canonically encoded (a value is not in its shortest msgpack form)")
    return value


def iter_records(data: bytes, limits: Limits = DEFAULT_LIMITS):
    """Split a byte stream of concatenated records: yields (offset, raw bytes, value or FormatError).

    A record cut off by the end of the data is yielded as (offset, rest, FormatError("truncated
    record ...")) and ends the stream, so a caller can tell a torn tail from garbage in the middle;
    a record that cannot be delimited at all (bad type byte, over a limit) also ends the stream.
    Every limit applies to every record, `max_bytes` included: a record longer than that is a
    FormatError (never a torn tail), however it ends.
    Data is fed in small pieces, so a huge declared length costs no memory.
    """
    unpacker = msgpack.Unpacker(max_buffer_size=limits.max_bytes, **_unpack_args(limits))
    view = memoryview(bytes(data))
    total = len(view)
    fed = pos = 0
    while pos < total:
        stop, problem = scan(view, limits, pos)
        if not problem and stop is not None and stop - pos > limits.max_bytes:
            problem = f"record of {stop - pos} bytes exceeds the limit of {limits.max_bytes}"
        if problem:                # decided without decoding (which would reserve what headers declare)
            if stop is None:
                yield pos, bytes(view[pos:]), FormatError(problem)
                return
            yield pos, bytes(view[pos:stop]), FormatError(problem)
            while unpacker.tell() < stop:           # step over it without decoding it
                if not unpacker.read_bytes(stop - unpacker.tell()):
                    step = min(total, fed + (1 << 16))
                    unpacker.feed(view[fed:step])
                    fed = step
            pos = stop
            continue
        try:
            while True:
                try:
                    value = unpacker.unpack()
                    break
                except msgpack.OutOfData:
                    if fed >= total:
                        raise
                    step = min(total, fed + (1 << 16))
                    unpacker.feed(view[fed:step])
                    fed = step
        except msgpack.OutOfData:
            rest = bytes(view[pos:])
            oversize = _declared_oversize(rest, limits)
            if not oversize and len(rest) > limits.max_bytes:
                # a torn write of a record within the limits is shorter than the limit: this is no torn write
                oversize = f"record of more than {limits.max_bytes} bytes (cut off after {len(rest)})"
            if oversize:
                yield pos, rest, FormatError(oversize)
            else:
                yield pos, rest, FormatError(f"truncated record ({total - pos} bytes at the end)", truncated=True)
            return
        except msgpack.BufferFull:
            yield pos, bytes(view[pos:]), FormatError(f"record longer than the limit of {limits.max_bytes} bytes")
            return
        except (ValueError, msgpack.UnpackException, TypeError, OverflowError, RecursionError) as exc:
            yield pos, bytes(view[pos:]), FormatError(_reason(exc))
            return
        end = unpacker.tell()
        raw = bytes(view[pos:end])
        try:
            _check(value, 0, limits, [limits.max_items])
            if msgpack.packb(value, use_bin_type=True) != raw:
                raise FormatError("not canonically encoded (a value is not in its shortest msgpack form)")
        except FormatError as exc:
            yield pos, raw, exc
        else:
            yield pos, raw, value
        pos = end


_FIXED = {0xC0: 1, 0xC2: 1, 0xC3: 1, 0xCC: 2, 0xD0: 2, 0xCD: 3, 0xD1: 3, 0xCE: 5, 0xD2: 5, 0xCA: 5, 0xCF: 9, 0xD3: 9,
          0xCB: 9}
#: type byte -> the size of the whole value when it has a fixed one (0: it has not, or is no scalar)
_SKIP = [1 if b <= 0x7F or b >= 0xE0 or b == 0x80 else _FIXED.get(b, 0) for b in range(256)]
_EMPTY_EXT = {0xC7: (1, 3), 0xC8: (2, 4), 0xC9: (4, 6)}     # type byte -> (width of its length, size if empty)
#: type byte -> what `_walk` does with it, one small int so the walk branches on it in a fixed order:
#: 0 a scalar of the size in _SKIP that `_check` allows, 7 one it refuses after decoding (a float, an
#: empty fixmap), 1 a fixarray, 2 a fixstr, 3 a bin8, 4 any other length-prefixed header (_LENGTHS; its
#: maps are refused after decoding too), 5 an extension header (_EMPTY_EXT, the same), 6 a byte msgpack
#: refuses at once. A walk that met no 4-map, 5 or 7 saw only nil, bool, int, str, bin and arrays.
_ACTION = [7 if b in (0x80, 0xCA, 0xCB) else 0 if _SKIP[b] else 1 if 0x90 <= b <= 0x9F else 2 if 0xA0 <= b <= 0xBF
           else 3 if b == 0xC4 else 5 if b in _EMPTY_EXT
           else 4 if b in (0xD9, 0xDA, 0xDB, 0xC5, 0xC6, 0xDC, 0xDD, 0xDE, 0xDF) else 6
           for b in range(256)]


def scan(data: bytes | memoryview, limits: Limits = DEFAULT_LIMITS, start: int = 0) -> tuple[int | None, str]:
    """Walk the msgpack value at `start` without building it: (end, problem), where `end` is where the
    value ends (None when the bytes end first, or at a header msgpack refuses at once: an array or
    a str/bin over its limit, a non-empty map or extension, an invalid type byte) and `problem` says
    which limit the value breaks ("" if none seen): its nesting, its total item count, or a declared
    str/bin length.

    Decoding runs this first because msgpack reserves room for what an array header declares before
    the items arrive, at every level of a nesting it allows a thousand deep: three bytes declaring
    20,000 items cost 160 KiB, so 3 KiB of nested headers cost tens of megabytes. The walk builds
    nothing and every step reads at least one byte, so it is linear in the record."""
    end, problem, _plain = _walk(data, limits, start)
    return end, problem


def _walk(data: bytes | memoryview, limits: Limits, start: int) -> tuple[int | None, str, bool]:
    """`scan`, and whether every type byte met is one `_check` allows (False once a float, map or
    extension header is met), so that `decode` can skip re-walking the decoded value for types.

    It runs for every message and frame received, so it is written for speed: one table lookup picks
    the action for a type byte, the commonest ones (fixed-size scalars, fixarrays, fixstrs, bin8:
    hashes and signatures) are tested first and read their length without slicing, and the items
    left in the array being walked are counted in a local, the enclosing arrays' on a stack."""
    end, pos = len(data), start
    skip, action = _SKIP, _ACTION
    outer: list[int] = []           # items still to come in each enclosing array
    left = 1                        # items still to come at this level (the value itself at the top)
    budget, problem = limits.max_items, ""
    max_depth, max_items, max_str, max_bin = limits.max_depth, limits.max_items, limits.max_str, limits.max_bin
    plain = True
    while pos < end:
        b = data[pos]
        act = action[b]
        if act == 0:                # fixint, nil, bool, an int
            pos += skip[b]
            left -= 1
            if left:
                continue
            items = -1
        elif act == 1:
            items = b & 0x0F
            pos += 1
            left -= 1
        elif act == 2:
            size = b & 0x1F
            if size > max_str:
                return None, f"a str declares {size} bytes (limit {max_str})", plain
            pos += 1 + size
            left -= 1
            if left:
                continue
            items = -1
        elif act == 3:
            if pos + 2 > end:
                return None, problem, plain
            size = data[pos + 1]
            if size > max_bin:
                return None, f"a bin declares {size} bytes (limit {max_bin})", plain
            pos += 2 + size
            left -= 1
            if left:
                continue
            items = -1
        elif act == 4:
            kind, width = _LENGTHS[b]
            if pos + 1 + width > end:
                return None, problem, plain
            size = int.from_bytes(data[pos + 1:pos + 1 + width], "big")
            items = -1
            if kind == "array":
                if size > max_items:
                    return None, f"an array declares {size} items (limit {max_items})", plain
                items, pos = size, pos + 1 + width
            elif kind == "map":
                plain = False
                if size:
                    return None, problem, plain     # msgpack refuses a non-empty map at its header
                pos += 1 + width
            else:
                cap = max_str if kind == "str" else max_bin
                if size > cap:
                    return None, f"a {kind} declares {size} bytes (limit {cap})", plain
                pos += 1 + width + size
            left -= 1
        elif act == 5:
            plain = False
            width, size = _EMPTY_EXT[b]
            if pos + 1 + width > end or int.from_bytes(data[pos + 1:pos + 1 + width], "big"):
                return None, problem, plain         # msgpack refuses a non-empty extension at its header
            pos += size
            left -= 1
            items = -1
        elif act == 7:              # a float or an empty fixmap: refused after decoding
            plain = False
            pos += skip[b]
            left -= 1
            items = -1
        else:
            return None, problem, plain             # fixmap, fixext, 0xc1: msgpack refuses them at once
        if items >= 0:
            if not problem and len(outer) >= max_depth:
                problem = f"nested deeper than {max_depth} levels"
            budget -= items
            if not problem and budget < 0:
                problem = f"more than {max_items} items in one record"
            if items:
                outer.append(left)
                left = items
                continue
        while not left:                     # one value is complete: count it off its array(s)
            if not outer:
                return (pos, problem, plain) if pos <= end else (None, problem, plain)
            left = outer.pop()
    return None, problem, plain


# type byte -> (kind, width of the length that follows)
_LENGTHS = {0xD9: ("str", 1), 0xDA: ("str", 2), 0xDB: ("str", 4), 0xC4: ("bin", 1), 0xC5: ("bin", 2),
            0xC6: ("bin", 4), 0xDC: ("array", 2), 0xDD: ("array", 4), 0xDE: ("map", 2), 0xDF: ("map", 4)}


def _declared_oversize(rest: bytes, limits: Limits) -> str:
    """Why a cut-off record cannot be a torn write: some length in it is over a limit ("" if none).

    Walks the record as far as the bytes go; a torn write of a valid record never declares more than
    the limits allow, a corrupted or hostile length usually does.
    """
    cap = {"str": limits.max_str, "bin": limits.max_bin, "array": limits.max_items, "map": 0}
    pos = 0
    for _ in range(limits.max_items + 1):
        if pos >= len(rest):
            return ""
        b = rest[pos]
        if b in _LENGTHS:
            kind, width = _LENGTHS[b]
            if pos + 1 + width > len(rest):
                return ""
            size = int.from_bytes(rest[pos + 1:pos + 1 + width], "big")
            if size > cap[kind]:
                unit = "items" if kind in ("array", "map") else "bytes"
                return f"a {kind} declares {size} {unit} (limit {cap[kind]})"
            pos += 1 + width + (0 if kind in ("array", "map") else size)
        elif b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3) or 0x80 <= b <= 0x9F:
            pos += 1  # fixint, nil, bool, fixmap/fixarray headers
        elif 0xA0 <= b <= 0xBF:
            pos += 1 + (b & 0x1F)
        elif b in (0xCC, 0xD0):
            pos += 2
        elif b in (0xCD, 0xD1):
            pos += 3
        elif b in (0xCE, 0xD2, 0xCA):
            pos += 5
        elif b in (0xCF, 0xD3, 0xCB):
            pos += 9
        else:
            return ""
    return ""

"""Canonical msgpack: one encoding per value, and a decoder that never trusts its input."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replays.codec import FormatError, Limits, decode, encode, iter_records

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=40) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=6).map(tuple),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(values)
def test_round_trip_and_canonical(value):
    data = encode(value)
    assert decode(data) == value
    assert encode(decode(data)) == data


def test_lists_and_tuples_encode_alike():
    assert encode([1, [b"x", "y"]]) == encode((1, (b"x", "y")))
    assert decode(encode([1, [2]])) == (1, (2,))


@pytest.mark.parametrize(("data", "fragment"), [
    (b"\xcd\x00\x01", "not canonically encoded"),       # 1 as uint16
    (b"\xd9\x01a", "not canonically encoded"),          # "a" as str8
    (msgpack.packb(1.5), "floats"),
    (b"\x81\x01\x02", "maps are not allowed"),
    (b"\xd4\x01\x01", "extension types"),
    (b"\xc1", "invalid type byte"),
    (b"\xa2\xff\xfe", "UTF-8"),
    (b"\x91\x01\x01", "trailing bytes"),
    (b"\x92\x01", "truncated"),
    (b"", "empty"),
])
def test_bad_bytes_are_refused_with_a_reason(data, fragment):
    with pytest.raises(FormatError) as info:
        decode(data)
    assert fragment in info.value.reason


def test_limits():
    with pytest.raises(FormatError, match="deep"):
        decode(b"\x91" * 50 + b"\x01")
    with pytest.raises(FormatError, match="deep"):
        decode(b"\x91" * 200_000 + b"\x01", Limits(max_bytes=1 << 20))
    small = Limits(max_bytes=100, max_str=4, max_bin=4, max_items=5)
    with pytest.raises(FormatError, match="str"):
        decode(encode("hello"), small)
    with pytest.raises(FormatError, match="bin"):
        decode(encode(b"hello"), small)
    with pytest.raises(FormatError):
        decode(encode(tuple(range(6))), small)
    with pytest.raises(FormatError, match="exceeds the limit"):
        decode(encode(b"x" * 200), small)
    with pytest.raises(FormatError, match="not allowed"):
        encode({"a": 1})
    with pytest.raises(FormatError, match="floats"):
        encode((1, 2.0))
    with pytest.raises(FormatError):
        decode("not bytes")  # type: ignore[arg-type]


def test_record_stream_tells_a_torn_tail_from_garbage():
    data = encode((1, "a")) + encode((2,))
    records = list(iter_records(data + encode((3, b"xyz"))[:-2]))
    assert [r[2] for r in records[:2]] == [(1, "a"), (2,)]
    torn = records[2][2]
    assert isinstance(torn, FormatError) and torn.truncated and records[2][0] == len(data)
    garbage = list(iter_records(data + b"\xc1\x00"))[-1][2]
    assert isinstance(garbage, FormatError) and not garbage.truncated
    huge = list(iter_records(data + b"\xdb\xff\xff\xff\xff" + b"a" * 10))[-1][2]
    assert isinstance(huge, FormatError) and not huge.truncated and "declares 4294967295" in huge.reason
    noncanonical = list(iter_records(data + b"\xcd\x00\x01"))[-1][2]
    assert isinstance(noncanonical, FormatError) and "canonical" in noncanonical.reason


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_the_decoder(data):
    try:
        decode(data)
    except FormatError as exc:
        assert exc.reason
    for offset, raw, value in iter_records(data):
        assert 0 <= offset <= len(data) and data[offset:offset + len(raw)] == raw
        if isinstance(value, FormatError):
            assert value.reason

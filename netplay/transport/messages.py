"""The bootstrap and handshake messages: their values, their pure parsers and the bytes each side
signs. Pure (no socket, no clock), so the fuzzer (tests/test_fuzz_transport.py) and the conformance
vectors reach them directly; every parser returns its message or raises MessageError."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import msgpack

from netplay.identity import check_name
from netplay.transport.errors import MessageError
from netplay.transport.settings import (
    BOOT_CARD,
    BOOT_ERROR,
    BOOT_REQUEST,
    CARD_DOMAIN,
    MAX_CONTROL,
    PROTOCOL,
)
from replays.safetext import shown


def _pack(obj: object) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


_PROTOCOL_ARRAY = {"max_str_len": MAX_CONTROL, "max_bin_len": MAX_CONTROL, "max_array_len": 16, "max_map_len": 0,
                   "max_ext_len": 0}


def _unpack(body: bytes, shape: tuple[type, ...]) -> list:
    """Decode a msgpack array of exactly `shape` (bytes fields of 32 bytes are checked by callers).
    Bodies are tiny, so anything over MAX_CONTROL bytes is refused before it is decoded."""
    if len(body) > MAX_CONTROL:
        raise MessageError(f"{len(body)} bytes, over the {MAX_CONTROL} byte limit of a control message")
    value = _decode(body)
    if not isinstance(value, list) or len(value) != len(shape):
        raise MessageError(f"expected an array of {len(shape)}")
    for item, kind in zip(value, shape, strict=True):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise MessageError(f"expected {kind.__name__}, got {type(item).__name__}")
    return value


def _decode(body: bytes) -> Any:
    try:
        return msgpack.unpackb(body, raw=False, use_list=True, strict_map_key=True, **_PROTOCOL_ARRAY)
    except Exception as exc:  # msgpack raises several unrelated types on garbage
        raise MessageError(f"undecodable ({type(exc).__name__})") from None


def _key32(value: bytes, what: str) -> bytes:
    if len(value) != 32:
        raise MessageError(f"{what} must be 32 bytes")
    return value


def _sig64(value: bytes, what: str) -> bytes:
    if len(value) != 64:
        raise MessageError(f"{what} must be 64 bytes")
    return value


class BadName(MessageError):
    """A handshake message of the right shape whose name the protocol does not allow (1..64 printable
    characters): the host answers it with REFUSED and the reason, else the joiner could only time out."""


def _name(value: str) -> str:
    try:
        return check_name(value)
    except ValueError as exc:
        raise BadName(str(exc)) from None


def clip(text: str, limit: int = 500) -> str:
    """Text from the other side, safe to print (`replays.safetext.shown`): a hostile peer cannot put
    terminal escape sequences into our error messages."""
    return shown(text, limit)


# One parser per message: pure functions (fuzzed in tests/test_fuzz_transport.py) that return the
# message or raise MessageError.

@dataclass(frozen=True, slots=True)
class BootRequest:
    version: int
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    key: bytes
    curve_key: bytes
    curve_port: int
    sig: bytes


@dataclass(frozen=True, slots=True)
class Hello:
    version: int
    name: str
    key: bytes
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Challenge:
    host_nonce: bytes
    cookie: bytes


@dataclass(frozen=True, slots=True)
class Auth:
    name: str
    key: bytes
    join_nonce: bytes
    host_nonce: bytes
    cookie: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Welcome:
    host_nonce: bytes
    heartbeat_ms: int
    liveness: int
    max_bytes: int
    sig: bytes

    def params(self) -> bytes:
        return _pack([self.heartbeat_ms, self.liveness, self.max_bytes])


def hello_version(body: bytes) -> int | None:
    """The version a HELLO that does not parse claims (its first item), read leniently: another
    version may shape its HELLO differently, and its joiner deserves an answer naming both versions
    rather than silence. None when there is no such int."""
    if len(body) > MAX_CONTROL:
        return None
    with contextlib.suppress(MessageError):
        value = _decode(body)
        if isinstance(value, list) and value and type(value[0]) is int:
            return value[0]
    return None


def parse_boot_request(body: bytes) -> BootRequest:
    tag, version, nonce = _unpack(body, (str, int, bytes))
    if tag != BOOT_REQUEST:
        raise MessageError(f"unknown request {clip(tag, 40)!r}")
    return BootRequest(version, _key32(nonce, "nonce"))


def parse_boot_reply(body: bytes) -> Card | str:
    """The host's card, or the text of its error answer (clipped, printable)."""
    if len(body) > MAX_CONTROL:
        raise MessageError(f"{len(body)} bytes, over the {MAX_CONTROL} byte limit of a control message")
    value = _decode(body)
    if isinstance(value, list) and len(value) == 3 and value[0] == BOOT_ERROR and isinstance(value[2], str):
        return clip(value[2], 200)
    tag, version, name, key, curve, curve_port, sig = _unpack(body, (str, int, str, bytes, bytes, int, bytes))
    if tag != BOOT_CARD or version != PROTOCOL:
        raise MessageError(f"bootstrap reply {clip(tag, 40)!r} version {version}")
    if not 0 < curve_port < 65536:
        raise MessageError(f"bad curve port {curve_port}")
    return Card(_name(name), _key32(key, "host key"), _key32(curve, "host curve key"), curve_port,
                _sig64(sig, "card signature"))


def parse_hello(body: bytes) -> Hello:
    version, name, key, nonce = _unpack(body, (int, str, bytes, bytes))
    return Hello(version, _name(name), _key32(key, "key"), _key32(nonce, "nonce"))


def parse_challenge(body: bytes) -> Challenge:
    host_nonce, cookie = _unpack(body, (bytes, bytes))
    return Challenge(_key32(host_nonce, "host nonce"), _key32(cookie, "cookie"))


def parse_auth(body: bytes) -> Auth:
    name, key, join_nonce, host_nonce, cookie, sig = _unpack(body, (str, bytes, bytes, bytes, bytes, bytes))
    return Auth(_name(name), _key32(key, "key"), _key32(join_nonce, "nonce"), _key32(host_nonce, "host nonce"),
                _key32(cookie, "cookie"), _sig64(sig, "signature"))


def parse_welcome(body: bytes) -> Welcome:
    host_nonce, heartbeat_ms, liveness, max_bytes, sig = _unpack(body, (bytes, int, int, int, bytes))
    return Welcome(_key32(host_nonce, "host nonce"), heartbeat_ms, liveness, max_bytes, _sig64(sig, "signature"))


def parse_refused(body: bytes) -> str:
    (reason,) = _unpack(body, (str,))
    return clip(reason)


def _hello_nonce(body: bytes) -> bytes | None:
    try:
        return parse_hello(body).nonce
    except MessageError:
        return None


def _card_message(name: str, ed_key: bytes, curve_key: bytes, curve_port: int, nonce: bytes) -> bytes:
    return CARD_DOMAIN + _pack([PROTOCOL, name, ed_key, curve_key, curve_port, nonce])


def _transcript(host_curve: bytes, host_key: bytes, host_name: str, join_key: bytes, join_name: str,
                join_nonce: bytes, host_nonce: bytes) -> bytes:
    return _pack([PROTOCOL, host_curve, host_key, host_name, join_key, join_name, join_nonce, host_nonce])

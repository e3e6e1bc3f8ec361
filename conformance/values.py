"""How the vectors write protocol values in JSON (standard library only).

A msgpack value of the protocol is written as: nil -> null, bool -> true/false, int -> a JSON number, str
-> a JSON string, bin -> {"bin": "<hex>"}, array -> a JSON list. So `"abc"` is always text and
`{"bin": "616263"}` always bytes, as in the canonical encoding (docs/protocol.md "Encoding").

The digest's own encoding (engines/canonical.py, docs/protocol.md "State digest") also has maps and the
stand-in for a secret: {"map": [[key, value], ...]} and {"hidden": true}.
"""

from __future__ import annotations

from typing import Any

__all__ = ["typed", "untyped", "typed_state", "untyped_state", "HIDDEN_MARK"]

HIDDEN_MARK = {"hidden": True}


def typed(value: Any) -> Any:
    """A protocol value (nil, bool, int, str, bytes, tuples/lists) as JSON."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"bin": bytes(value).hex()}
    if isinstance(value, (list, tuple)):
        return [typed(v) for v in value]
    raise TypeError(f"no protocol value: {type(value).__name__}")


def untyped(value: Any) -> Any:
    """The protocol value of its JSON form (arrays come back as tuples)."""
    if isinstance(value, dict):
        if set(value) != {"bin"}:
            raise ValueError(f"not a protocol value: {value!r}")
        return bytes.fromhex(value["bin"])
    if isinstance(value, list):
        return tuple(untyped(v) for v in value)
    return value


def typed_state(value: Any, hidden: Any = None) -> Any:
    """A value of the digest's encoding as JSON (maps and the secret's stand-in included)."""
    if hidden is not None and value is hidden:
        return dict(HIDDEN_MARK)
    if isinstance(value, dict):
        return {"map": [[typed_state(k, hidden), typed_state(v, hidden)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [typed_state(v, hidden) for v in value]
    return typed(value)


def untyped_state(value: Any, hidden: Any) -> Any:
    if isinstance(value, dict):
        if value == HIDDEN_MARK:
            return hidden
        if set(value) == {"map"}:
            return {untyped_state(k, hidden): untyped_state(v, hidden) for k, v in value["map"]}
        return untyped(value)
    if isinstance(value, list):
        return tuple(untyped_state(v, hidden) for v in value)
    return value

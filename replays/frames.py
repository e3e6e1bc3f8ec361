"""The signed frame: the one unit of the session transcript, on the wire and in a replay file alike.

A frame is the canonical msgpack array
    [session (bin 16), seq (int), prev (bin 32), seat (int), kind (str), body (array),
     digest (bin 32), signature (bin 64)]
The signature is Ed25519 over the domain tag "frame" and the canonical encoding of the first seven
fields (the same array without the signature). The frame's hash, which the next frame names as
`prev`, is H("frame", those same signed bytes); the first frame's `prev` is the header's hash.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import msgpack

from replays import codec
from replays.crypto import PublicKey, SigningKey, hash_parts, sign, verify

__all__ = ["Frame", "KINDS", "make_frame", "decode_frame", "SESSION_BYTES"]

SESSION_BYTES = 16
KINDS = ("open", "act", "commit", "reveal", "chain", "shuffle", "strip", "spoiled", "peek", "show", "seed", "final",
         "timeout", "contest")
_KINDS = frozenset(KINDS)


@dataclass(frozen=True, slots=True)
class Frame:
    session: bytes
    seq: int
    prev: bytes
    seat: int
    kind: str
    body: tuple
    digest: bytes
    signature: bytes
    #: canonical bytes of the first seven fields (what is signed and hashed)
    signed: bytes
    #: H("frame", signed): what the next frame names as prev
    hash: bytes
    #: set only on a frame a ledger has just built: the outcome of applying it, as that ledger computed
    #: it while building (`replays.ledger.OwnCheck`), so accepting the very frame need not compute it
    #: again. Never encoded, never compared; a ledger keeps the frame without it.
    checked: Any = field(default=None, compare=False, repr=False)

    def bare(self) -> Frame:
        """The frame without what its builder computed (what a ledger keeps)."""
        return self if self.checked is None else replace(self, checked=None)

    def encode(self) -> bytes:
        """The frame's wire bytes (canonical: equal frames give equal bytes)."""
        return b"\x98" + self.signed[1:] + msgpack.packb(self.signature, use_bin_type=True)

    def verify(self, public: PublicKey) -> bool:
        return verify(public, "frame", self.signed, self.signature)

    def fields(self) -> tuple:
        return (self.session, self.seq, self.prev, self.seat, self.kind, self.body, self.digest)


def _signed_bytes(session: bytes, seq: int, prev: bytes, seat: int, kind: str, body: tuple, digest: bytes) -> bytes:
    return codec.encode((session, seq, prev, seat, kind, tuple(body), digest))


def make_frame(key: SigningKey, session: bytes, seq: int, prev: bytes, seat: int, kind: str, body: Any,
               digest: bytes) -> Frame:
    """Build and sign a frame."""
    body = tuple(body)
    signed = _signed_bytes(session, seq, prev, seat, kind, body, digest)
    signature = sign(key, "frame", signed)
    return Frame(session, seq, prev, seat, kind, _freeze(body), digest, signature, signed, hash_parts("frame", signed))


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _is_int(value: Any) -> bool:
    return type(value) is int


def decode_frame(data: bytes, limits: codec.Limits = codec.DEFAULT_LIMITS) -> Frame:
    """A frame from its wire bytes; FormatError names the first field that is wrong. Says nothing about
    the signature or whether the frame belongs where it claims (that is the ledger's job)."""
    value = codec.decode(data, limits)
    return frame_from_value(value, bytes(data))


def frame_from_value(value: Any, raw: bytes) -> Frame:
    """A frame from an already decoded (canonical) record and its raw bytes."""
    if type(value) is not tuple or len(value) != 8:
        raise codec.FormatError("a frame is an array of 8 fields")
    session, seq, prev, seat, kind, body, digest, signature = value
    if type(session) is not bytes or len(session) != SESSION_BYTES:
        raise codec.FormatError("frame field 0 (session) must be 16 bytes")
    if not _is_int(seq) or seq < 0:
        raise codec.FormatError("frame field 1 (seq) must be an int >= 0")
    if type(prev) is not bytes or len(prev) != 32:
        raise codec.FormatError("frame field 2 (prev) must be 32 bytes")
    if not _is_int(seat) or not 0 <= seat < 64:
        raise codec.FormatError("frame field 3 (seat) must be an int 0..63")
    if type(kind) is not str or kind not in _KINDS:
        raise codec.FormatError(f"frame field 4 (kind) must be one of {', '.join(KINDS)}")
    if type(body) is not tuple:
        raise codec.FormatError("frame field 5 (body) must be an array")
    if type(digest) is not bytes or len(digest) != 32:
        raise codec.FormatError("frame field 6 (digest) must be 32 bytes")
    if type(signature) is not bytes or len(signature) != 64:
        raise codec.FormatError("frame field 7 (signature) must be 64 bytes")
    # the signed part is the same array without its last field: same items, one fewer in the header
    sig_len = 66  # bin8 marker, length byte, 64 bytes
    signed = b"\x97" + raw[1:-sig_len]
    return Frame(session, seq, prev, seat, kind, body, digest, signature, signed, hash_parts("frame", signed))

"""The session's messages on the transport: small msgpack arrays `[tag, field, ...]`.

They are not signed: the transport already proved which key sent each one, and everything that
matters for the outcome travels inside them as signed frames (`frame` carries a frame's wire bytes
untouched). So a decoder here checks only shape and size, and a message that fails is dropped with
a logged reason (`Malformed`), never raised further. The shapes are listed in docs/protocol.md,
section "Session".
"""

from __future__ import annotations

from typing import Any

import msgpack

from replays import codec
from replays.safetext import shown

PROTO = 5                  # session protocol version, sent in `hello` and `offer` (4: signed mesh addresses;
                           # 5: `peers` lists every seat but the host's, an extra seat's with its key's proof)
MAX_TEXT = 500             # reasons, chat lines
MAX_FRAME = 256 * 1024     # one frame's wire bytes
MAX_HEADER = 64 * 1024
MAX_ADDRESS = 300          # a peer's address for a direct link: host:port/fingerprint

#: Walked before decoding (replays.codec.scan): msgpack reserves what array headers declare, so without
#: these a few KiB of nested headers would cost tens of MiB. The deepest messages are `offer` (options
#: and terms inside the message array) and `ready`/`peers` (entries inside a list): three levels.
_BOUNDS = codec.Limits(max_bytes=1 << 62, max_depth=4, max_items=10_000, max_str=1 << 62, max_bin=1 << 62)

NIL = type(None)
_B = bytes
_S = str
_I = int
_L = list

#: tag -> the types of the fields after the tag; a tuple of types means "any of these"
SHAPES: dict[str, tuple[Any, ...]] = {
    "hello": (_I, _S, (NIL, _L), _I),     # proto, netplay version, resume: nil | [session, seq, hash], mesh port (0)
    "offer": (_I, _S, _S, _I, _L, _S, _L, _B),  # proto, game, rules version, players, options [[k, v]], host version,
                                            # terms [reveal ms, nil | [clock ms, increment ms], move ms | nil,
                                            #        frame ms, lateness ms], lobby id (16 bytes)
    "ready": (_L, _I, _B),                # more seats this peer plays: [[name, ed25519 key, proof], ...], mesh port,
                                          # its signed statement of that port (netplay/protocol/addresses.py)
    "decline": (_S,),                     # reason
    "refused": (_S, _S),                  # code, reason
    "header": (_B,),                      # the encoded header
    "peers": (_L,),                       # where the other joiners listen:
                                          # [[seat, key, address or "", port, the joiner's statement or b""], ...]
    "start": (_B, _L),                    # the header's hash, the seats this joiner reaches directly
    "synced": (_I,),                      # the host's last seq (-1: the game is on)
    "frame": (_B, _B),                    # a frame's wire bytes, the host's cert (b"": not sequenced, or 2 seats)
    "ack": (_I, _B, _B, _B),              # seq, hash of the frame applied and written, the host's cert, signature
    "want": (_I,),                        # send me your sequenced frames from this number on
    "reject": (_I, _S, _S),               # seq (-1: unknown), code, reason
    "relay": (_B, _B),                    # to (a joiner's key), a message for it (via the host: no direct link)
    "relayed": (_B, _B),                  # from (a joiner's key), its message
    "chat": (_I, _S),                     # seat (-1 from a joiner: the host knows), text
    "dispute": (_B, _S),                  # the signed frame that proves it, reason
    "rematch": (_L,),                     # seats that agreed so far (a joiner sends [])
    "bye": (_S,),                         # reason
    # a spectator's (docs/protocol.md "Spectators"): it asks to watch from a frame number, and the host answers
    # with the header and then each frame with its signed release (replays/releases.py)
    "watch": (_I, _S, _I),                # proto, netplay version, from seq (0: the start)
    "release": (_B, _B, _I, _B, _B),      # frame bytes, the host's cert (b"" with 2 seats), tip seq, tip hash,
                                          # the host's signature of the release
    "table": (_I, _L, _L),                # after a burst of releases, what the table showed at its last frame:
                                          # that frame's number, each seat's clock then (ms left, nil: no clock),
                                          # the chat said at the frames of the burst [[frame, seat, text], ...]
                                          # (empty unless the header lets spectators hear it); unsigned, shown only
}

#: the most chat lines one `table` message carries (the host sends the rest with the next)
MAX_TABLE_CHAT = 32

#: `refused` codes: why the host will not have this peer (a joiner's rule depends on which)
REFUSALS = frozenset({"version", "full", "in-progress", "seat", "over", "fork", "session", "header", "name", "key",
                      "lobby", "self", "spectators"})
#: `reject` codes: why the host did not sequence this peer's frame
REJECTS = frozenset({"premature", "late", "host-frame", "untimed", "frame", "closed"})


class Malformed(Exception):
    """A message that is not one of ours; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def pack(tag: str, *fields: Any) -> bytes:
    if tag not in SHAPES or len(fields) != len(SHAPES[tag]):
        raise ValueError(f"bad session message {tag!r} with {len(fields)} fields")
    return msgpack.packb([tag, *fields], use_bin_type=True)


def unpack(data: bytes) -> tuple[str, list[Any]]:
    """(tag, fields) of a received message; Malformed for anything else."""
    problem = codec.scan(data, _BOUNDS)[1]
    if problem:
        raise Malformed(f"undecodable message ({problem})")
    try:
        value = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                                max_array_len=10_000, max_map_len=0, max_ext_len=0)
    except Exception as exc:  # msgpack raises several unrelated types on garbage
        raise Malformed(f"undecodable message ({type(exc).__name__})") from None
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise Malformed("a session message is an array starting with its tag")
    tag, fields = value[0], value[1:]
    shape = SHAPES.get(tag)
    if shape is None:
        raise Malformed(f"unknown message {tag[:32]!r}")
    if len(fields) != len(shape):
        raise Malformed(f"{tag}: expected {len(shape)} fields, got {len(fields)}")
    for i, (item, kind) in enumerate(zip(fields, shape, strict=True)):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise Malformed(f"{tag}: field {i + 1} has the wrong type ({type(item).__name__})")
        if isinstance(item, str) and len(item) > MAX_TEXT * 4:
            raise Malformed(f"{tag}: field {i + 1} is {len(item)} characters long")
    if tag == "header" and len(fields[0]) > MAX_HEADER:
        raise Malformed(f"header of {len(fields[0])} bytes, over the {MAX_HEADER} byte cap")
    if tag == "hello" and fields[2] is not None:
        resume = fields[2]
        if (len(resume) != 3 or not isinstance(resume[0], bytes) or len(resume[0]) != 16
                or not isinstance(resume[1], int) or isinstance(resume[1], bool) or resume[1] < -1
                or not isinstance(resume[2], bytes) or len(resume[2]) != 32):
            raise Malformed("hello: resume must be [session (16 bytes), seq >= -1, hash (32 bytes)]")
    if tag == "offer" and not all(isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
                                  and isinstance(o[1], int | str) for o in fields[4]):
        raise Malformed("offer: options must be [key, value] pairs")
    if tag == "offer" and not _terms_ok(fields[6]):
        raise Malformed("offer: terms must be [reveal ms, nil or [clock ms, increment ms], move ms or nil, frame ms, "
                        "lateness ms]")
    if tag == "release" and (len(fields[0]) > MAX_FRAME or len(fields[1]) not in (0, 64) or len(fields[3]) != 32
                             or len(fields[4]) != 64):
        raise Malformed("release: a frame, a certificate of 64 bytes (or none), a 32-byte tip hash, a 64-byte "
                        "signature")
    if tag in ("frame", "dispute") and len(fields[0]) > MAX_FRAME:
        raise Malformed(f"{tag} of {len(fields[0])} bytes, over the {MAX_FRAME} byte cap")
    out_of_range = _ranges(tag, fields)
    if out_of_range:
        raise Malformed(f"{tag}: {out_of_range}")
    if tag == "ack" and not all(len(f) in ((32,) if i == 0 else (0, 64))
                                           for i, f in enumerate(x for x in fields if isinstance(x, bytes))):
        raise Malformed(f"{tag}: hash (32 bytes) and signatures (64 bytes, or none with two seats)")
    if tag == "frame" and len(fields[1]) not in (0, 64):
        raise Malformed("frame: the certificate is 64 bytes (or none)")
    if tag == "ready" and not all(isinstance(s, list) and len(s) == 3 and isinstance(s[0], str)
                                  and 0 < len(s[0]) <= 64 and isinstance(s[1], bytes) and len(s[1]) == 32
                                  and isinstance(s[2], bytes) and len(s[2]) == 64 for s in fields[0]):
        raise Malformed("ready: more seats are [name, 32-byte key, 64-byte proof]")
    if tag == "peers" and not all(isinstance(p, list) and len(p) == 5 and _is_int(p[0]) and 0 <= p[0] < 64
                                  and isinstance(p[1], bytes) and len(p[1]) == 32 and isinstance(p[2], str)
                                  and len(p[2]) <= MAX_ADDRESS and _is_int(p[3]) and 0 <= p[3] <= 65535
                                  and isinstance(p[4], bytes) and len(p[4]) in (0, 64) for p in fields[0]):
        raise Malformed("peers: entries are [seat, 32-byte key, address, port 0..65535, 64-byte statement or none]")
    if tag == "offer" and len(fields[7]) != 16:
        raise Malformed("offer: the lobby id is 16 bytes")
    if tag == "ready" and len(fields[2]) != 64:
        raise Malformed("ready: the address statement is 64 bytes")
    if tag == "start" and not all(_is_int(s) and 0 <= s < 64 for s in fields[1]):
        raise Malformed("start: reached seats must be seat numbers")
    if tag in ("hello", "ready") and not 0 <= fields[1 if tag == "ready" else 3] <= 65535:
        raise Malformed(f"{tag}: the mesh port is 0..65535")
    if tag in ("relay", "relayed") and (len(fields[0]) != 32 or len(fields[1]) > MAX_FRAME + 1024):
        raise Malformed(f"{tag}: a 32-byte key and a message of at most {MAX_FRAME + 1024} bytes")
    if tag == "table" and not (len(fields[1]) <= 64 and all(c is None or (_is_int(c) and 0 <= c <= MAX_SEQ)
                                                            for c in fields[1])):
        raise Malformed("table: the clocks are ms left (>= 0) or nil, one per seat")
    if tag == "table" and not (len(fields[2]) <= MAX_TABLE_CHAT and all(
            isinstance(c, list) and len(c) == 3 and _is_int(c[0]) and 0 <= c[0] <= MAX_SEQ and _is_int(c[1])
            and -1 <= c[1] < 64 and isinstance(c[2], str) and len(c[2]) <= MAX_TEXT * 4 for c in fields[2])):
        raise Malformed(f"table: at most {MAX_TABLE_CHAT} chat lines, each [frame, seat -1..63, text]")
    if tag == "refused" and fields[0] not in REFUSALS:
        raise Malformed(f"refused: unknown code {fields[0][:32]!r}")
    if tag == "reject" and fields[1] not in REJECTS:
        raise Malformed(f"reject: unknown code {fields[1][:32]!r}")
    return tag, fields


MAX_SEQ = 1 << 40      # no game has more frames; larger numbers are refused before a handler sees them

#: tag -> (field index, lowest, highest) for the int fields whose range a handler relies on
_RANGES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "ack": ((0, 0, MAX_SEQ),), "want": ((0, 0, MAX_SEQ),), "reject": ((0, -1, MAX_SEQ),),
    "synced": ((0, -1, MAX_SEQ),), "chat": ((0, -1, 63),), "offer": ((3, 1, 64),),
    "watch": ((2, 0, MAX_SEQ),), "release": ((2, 0, MAX_SEQ),), "table": ((0, 0, MAX_SEQ),),
}


def _ranges(tag: str, fields: list) -> str | None:
    for index, low, high in _RANGES.get(tag, ()):
        if not low <= fields[index] <= high:
            return f"field {index + 1} is out of range {low}..{high}"
    if tag == "rematch" and not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 64 for s in fields[0]):
        return "seats must be seat numbers"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _terms_ok(terms: list) -> bool:
    def ms(value: Any) -> bool:       # (the ranges are the joiner's to judge: it declines with the reason)
        return _is_int(value) and -MAX_SEQ <= value <= MAX_SEQ
    if len(terms) == 6:     # the spectators' terms, [most, delay frames] (and 1: they hear the chat), only when
        extra = terms[5]    # spectators may watch
        if not (isinstance(extra, list) and len(extra) in (2, 3) and all(ms(v) for v in extra)):
            return False
    elif len(terms) != 5:
        return False
    clock = terms[1]
    clock_ok = clock is None or (isinstance(clock, list) and len(clock) == 2 and all(ms(c) for c in clock))
    return (ms(terms[0]) and clock_ok
            and (terms[2] is None or ms(terms[2])) and ms(terms[3]) and ms(terms[4]))


def terms_message(terms: Any, spectating: Any = None) -> list:
    """The `offer`'s terms field for a replays.header.Terms (the header adds the host's seat), with the
    spectators' terms (replays.header.Spectating) as a sixth item only when spectators may watch: an offer of a
    game nobody may watch is byte for byte what it was."""
    out = [terms.reveal_timeout_ms, None if terms.clock is None else list(terms.clock), terms.move_ms,
           terms.frame_limit_ms, terms.lateness_ms]
    if spectating is not None:
        out.append(spectating.offered())
    return out


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Text from a peer, safe to print: `replays.safetext.shown` (escapes visible, at most `limit` characters)."""
    return shown(text, limit)

"""A spectator's evidence of the delay (format 2.2): the host's signed *release* of each frame it showed a
spectator, and the record that marks a replay as a spectator's copy.

Why signed: the header's spectators' terms say frame k may reach a spectator only once frame k + delay is
sequenced (or the game is over). A promise in a document proves nothing; so the host signs, for every frame it
sends a spectator, which frame was its last one (the *tip*) when it let frame k go, and the hash of that tip.
The spectator keeps the releases in its copy; the audit then checks each one against the frames: a tip less
than k + delay (before the game's end), or a tip hash that is not frame t's, is the host's own signature on an
early release, and names it.

    message = session (16) || spectator key (32) || k (8, big-endian) || hash of frame k (32)
              || t (8, big-endian) || hash of frame t (32)
    sig     = Ed25519(host seat key, L("netplay/1/released") || message)

Records: `["spectator", key32]` (once, before the first frame: whose copy this is, so whom the releases were
signed for) and `["release", k, hash_k, t, hash_t, sig64]` after frame k (docs/replay-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replays.crypto import PublicKey, SigningKey, sign, verify

__all__ = ["Release", "sign_release", "verify_release", "release_from_value", "spectator_record",
           "spectator_from_value", "RELEASE_TAG", "SPECTATOR_TAG"]

RELEASE_TAG = "release"
SPECTATOR_TAG = "spectator"


@dataclass(frozen=True, slots=True)
class Release:
    """The host's word, signed, that it let frame `seq` (hash `hash`) go to a spectator when frame `tip`
    (hash `tip_hash`) was its last sequenced frame."""

    seq: int
    hash: bytes
    tip: int
    tip_hash: bytes
    sig: bytes

    def value(self) -> tuple:
        return (RELEASE_TAG, self.seq, self.hash, self.tip, self.tip_hash, self.sig)


def _message(session: bytes, spectator: bytes, seq: int, frame_hash: bytes, tip: int, tip_hash: bytes) -> bytes:
    return session + spectator + seq.to_bytes(8, "big") + frame_hash + tip.to_bytes(8, "big") + tip_hash


def sign_release(key: SigningKey, session: bytes, spectator: bytes, seq: int, frame_hash: bytes, tip: int,
                 tip_hash: bytes) -> Release:
    sig = sign(key, "released", _message(session, spectator, seq, frame_hash, tip, tip_hash))
    return Release(seq, frame_hash, tip, tip_hash, sig)


def verify_release(public: PublicKey | bytes, session: bytes, spectator: bytes, release: Release) -> bool:
    return verify(public, "released", _message(session, spectator, release.seq, release.hash, release.tip,
                                               release.tip_hash), release.sig)


def _int(value: Any) -> bool:
    return type(value) is int and 0 <= value < 1 << 62


def _bin(value: Any, size: int) -> bool:
    return type(value) is bytes and len(value) == size


def release_from_value(value: tuple) -> Release | None:
    """A `release` record (a later minor version may append fields: read past), or None when it is none."""
    if (len(value) >= 6 and _int(value[1]) and _bin(value[2], 32) and _int(value[3]) and _bin(value[4], 32)
            and _bin(value[5], 64)):
        return Release(value[1], value[2], value[3], value[4], value[5])
    return None


def spectator_record(key: bytes) -> tuple:
    return (SPECTATOR_TAG, bytes(key))


def spectator_from_value(value: tuple) -> bytes | None:
    return value[1] if len(value) >= 2 and _bin(value[1], 32) else None

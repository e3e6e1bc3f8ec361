"""Certificates of the relay (format 2): what makes a host accountable for the order it sends.

The host signs, for every frame it sequences, `sequenced(session, seq, hash)`; a joiner signs
`ack(session, seq, hash)` once the frame is applied and on disk, and sends the host's certificate with
it. The host passes every joiner's acknowledgement on to the others, so every seat learns what every
other seat holds. Two different host certificates for one frame number are proof that the host sent
different frames to different seats, whoever authored them; a joiner that meets one stops and names
the host, and `netplay replay verify` over several seats' files finds it too.
"""

from __future__ import annotations

from dataclasses import dataclass

from replays.crypto import PublicKey, SigningKey, sign, verify

__all__ = ["Cert", "sign_ack", "sign_cert", "verify_ack", "verify_cert"]


@dataclass(frozen=True, slots=True)
class Cert:
    """A signed record beside the frames (format 2): `kind` "cert" is the host's certificate that it
    sequenced the frame with `hash` as frame `seq`; "ack" a joiner's acknowledgement of it (with the
    host's certificate it acknowledged). Both are evidence when two peers' copies of a game fork."""

    kind: str
    seat: int
    seq: int
    hash: bytes
    sig: bytes
    host_seat: int = -1
    host_sig: bytes = b""

    def value(self) -> tuple:
        if self.kind == "cert":
            return ("cert", self.seat, self.seq, self.hash, self.sig)
        return ("ack", self.seat, self.seq, self.hash, self.sig, self.host_seat, self.host_sig)


def _message(session: bytes, seq: int, frame_hash: bytes) -> bytes:
    return session + seq.to_bytes(8, "big") + frame_hash


def sign_cert(key: SigningKey, session: bytes, seq: int, frame_hash: bytes) -> bytes:
    return sign(key, "sequenced", _message(session, seq, frame_hash))


def verify_cert(public: PublicKey | bytes, session: bytes, seq: int, frame_hash: bytes, sig: bytes) -> bool:
    return verify(public, "sequenced", _message(session, seq, frame_hash), sig)


def sign_ack(key: SigningKey, session: bytes, seq: int, frame_hash: bytes) -> bytes:
    return sign(key, "ack", _message(session, seq, frame_hash))


def verify_ack(public: PublicKey | bytes, session: bytes, seq: int, frame_hash: bytes, sig: bytes) -> bool:
    return verify(public, "ack", _message(session, seq, frame_hash), sig)

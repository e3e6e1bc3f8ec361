"""Hashes, signatures and fingerprints, each bound to a domain so that no value signed or hashed for
one purpose can be passed off as another (a chain value as a commitment, a frame as a header).

Hash inputs are length-prefixed: `H(domain, a, b)` = SHA-256 over `len(domain) || domain || len(a) ||
a || len(b) || b`, each length 4 bytes big-endian; an int part is first written as 8 bytes big-endian
(unsigned), a str part as UTF-8. So no two different part lists give the same input.
"""

from __future__ import annotations

import hashlib
import hmac as _hmac
import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair
from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

from engines.memo import Memo

__all__ = [
    "PREFIX",
    "SigningKey",
    "PublicKey",
    "hash_parts",
    "hmac_parts",
    "hash64_parts",
    "hmac64_parts",
    "sign",
    "verify",
    "forget_verified",
    "load_public",
    "public_bytes",
    "generate_key",
    "key_from_bytes",
    "fingerprint",
]

#: every domain tag starts with this, so netplay hashes never collide with anyone else's
PREFIX = "netplay/1/"

SigningKey = Ed25519PrivateKey
#: a public key ready to verify with (libsodium's, through PyNaCl: about twice as fast as OpenSSL's
#: through `cryptography`, and stricter about non-canonical signatures and small-order keys)
PublicKey = VerifyKey


def _part(value: bytes | str | int) -> bytes:
    if isinstance(value, (bytes, bytearray)):
        data = bytes(value)
    elif isinstance(value, str):
        data = value.encode()
    elif isinstance(value, int) and not isinstance(value, bool):
        data = value.to_bytes(8, "big")
    else:
        raise TypeError(f"cannot hash a {type(value).__name__}")
    return len(data).to_bytes(4, "big") + data


_DOMAINS: dict[str, bytes] = {}


def _domain(domain: str) -> bytes:
    tag = _DOMAINS.get(domain)
    if tag is None:
        tag = _DOMAINS[domain] = _part(PREFIX + domain)
    return tag


def framed(domain: str, *parts: bytes | str | int) -> bytes:
    """The exact bytes that `hash_parts` hashes and `sign` signs: the domain and parts, length-prefixed."""
    out = [_domain(domain)]
    for p in parts:
        if type(p) is bytes:
            out.append(len(p).to_bytes(4, "big"))
            out.append(p)
        else:
            out.append(_part(p))
    return b"".join(out)


def hash_parts(domain: str, *parts: bytes | str | int) -> bytes:
    """SHA-256 with domain separation over length-prefixed parts."""
    return hashlib.sha256(framed(domain, *parts)).digest()


def hmac_parts(key: bytes, domain: str, *parts: bytes | str | int) -> bytes:
    """HMAC-SHA-256 keyed by `key` over the same framing as `hash_parts`."""
    return _hmac.new(key, framed(domain, *parts), hashlib.sha256).digest()


def hash64_parts(domain: str, *parts: bytes | str | int) -> bytes:
    """SHA-512 over the same framing as `hash_parts` (64 bytes): what a scalar of the curve group is
    reduced from, since reducing 512 uniform bits modulo the 253-bit group order leaves no visible bias."""
    return hashlib.sha512(framed(domain, *parts)).digest()


def hmac64_parts(key: bytes, domain: str, *parts: bytes | str | int) -> bytes:
    """HMAC-SHA-512 keyed by `key` over the same framing as `hash_parts` (64 bytes): secret scalars and
    permutation streams derived from a seat's seed (see `replays.deck`)."""
    return _hmac.new(key, framed(domain, *parts), hashlib.sha512).digest()


#: id(key) -> (key, libsodium's 64-byte secret key for it); the key is held, so its id stays its own
_SODIUM: Memo[int, tuple[SigningKey, bytes]] = Memo(64, "id(key), the key held")


def _sodium_secret(key: SigningKey) -> bytes:
    entry = _SODIUM.get(id(key))
    if entry is None or entry[0] is not key:
        _, secret = crypto_sign_seed_keypair(key.private_bytes_raw())
        entry = _SODIUM.put(id(key), (key, secret))
    return entry[1]


def sign(key: SigningKey, domain: str, message: bytes) -> bytes:
    """An Ed25519 signature over the domain tag and `message` (64 bytes).

    Signed by libsodium, which takes about two thirds of OpenSSL's time here; Ed25519 signatures are
    deterministic (RFC 8032), so the bytes are the very ones `key.sign` gives."""
    return crypto_sign(_domain(domain) + message, _sodium_secret(key))[:64]


#: (public key, signature, signed bytes) -> True, for signatures that verified. A frame is verified by every
#: ledger that accepts it (a peer's own, a resumed one, the audit's, each simulated peer's in one process): the
#: same bytes, the same answer, since verification is a pure function of them. Only successes are kept, and
#: only of messages up to `_VERIFIED_MAX` bytes, so the memo stays small (4,096 entries of at most 4 KB).
_VERIFIED: Memo[tuple[bytes, bytes, bytes], bool] = Memo(4096, "(public key, signature, signed bytes) verified")
_VERIFIED_MAX = 4096


def verify(public: PublicKey | bytes, domain: str | None, message: bytes, signature: bytes) -> bool:
    """True when `signature` is `public`'s signature of `message` under `domain`; never raises.

    `public` is a loaded key or its 32 raw bytes. `domain` None checks a signature over `message`
    exactly as given: the transport's handshake messages carry their own NUL-terminated tags, a
    different convention from the frames' length-prefixed ones (docs/protocol.md)."""
    try:
        raw = bytes(public) if isinstance(public, VerifyKey) else public_bytes(public)
        signed = message if domain is None else _domain(domain) + message
        signature = bytes(signature)
        known = (raw, signature, bytes(signed))
        if known in _VERIFIED:
            return True
        if len(raw) != 32 or len(signature) != 64:
            return False
        crypto_sign_open(signature + known[2], raw)
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
    if len(signed) <= _VERIFIED_MAX:
        _VERIFIED.put(known, True)
    return True


def forget_verified() -> None:
    """Forget every signature verified so far: a benchmark that times verification times it cold."""
    _VERIFIED.clear()


def load_public(raw: bytes) -> PublicKey:
    """A public key from its 32 raw bytes; ValueError for anything else."""
    if not isinstance(raw, bytes) or len(raw) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return VerifyKey(raw)


def public_bytes(key: SigningKey | PublicKey | Ed25519PublicKey | bytes) -> bytes:
    """The 32 raw bytes of a public key (or of a signing key's public half)."""
    if isinstance(key, bytes):
        return key
    if isinstance(key, VerifyKey):
        return bytes(key)
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def generate_key() -> SigningKey:
    """A fresh random Ed25519 key (ephemeral seats of local games, tests)."""
    return Ed25519PrivateKey.generate()


def key_from_bytes(raw: bytes) -> SigningKey:
    """The Ed25519 key whose 32-byte private seed is `raw` (reproducible test and bench keys)."""
    return Ed25519PrivateKey.from_private_bytes(raw)


def random_bytes(n: int = 32) -> bytes:
    return os.urandom(n)


def fingerprint(public: bytes | PublicKey) -> str:
    """Four groups of four hex digits of SHA-256(raw public key), e.g. "3f2a-9c01-77de-0b45".

    The same form `netplay.identity` shows, so a player can compare a replay's seats by eye.
    """
    raw = public if isinstance(public, bytes) else public_bytes(public)
    digest = hashlib.sha256(raw).hexdigest()
    return "-".join(digest[i:i + 4] for i in range(0, 16, 4))

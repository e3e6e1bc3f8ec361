"""Who a player is: one long-lived Ed25519 key per user, plus the CurveZMQ keypair the transport
encrypts with, and the peers we have met before.

The Ed25519 key is the identity: it signs every frame of a game and every handshake, and a replay
names seats by it. The Curve keypair only encrypts; it is bound to the Ed25519 key by signatures in
the transport handshake, so losing it costs nothing but a re-handshake. Both live in
`paths.keys_dir()` with mode 0600. A key file that others can read is refused (or repaired when the
caller asks), because a leaked key lets anyone play - and sign replays - as its owner.

Trust is SSH-style trust on first use: `KnownPeers` pins the key a peer name was first seen with;
the same name with another key raises `KeyChanged`, naming both fingerprints, and nothing connects
until the user forgets the old pin.
"""

from __future__ import annotations

import contextlib
import fcntl
import getpass
import hashlib
import hmac
import json
import logging
import os
import socket
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import zmq
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from zmq.utils import z85

from netplay import paths
from replays.crypto import fingerprint
from replays.safetext import MAX_NAME, check_name

__all__ = ["MAX_NAME", "Identity", "IdentityError", "KeyChanged", "KeyPermissionError", "KnownPeers", "check_name",
           "default_name"]

log = logging.getLogger("netplay.identity")

ED25519_FILE = "ed25519.pem"
CURVE_FILE = "curve.key"


class IdentityError(Exception):
    """A key or the known-peers file cannot be used as it is."""


class KeyPermissionError(IdentityError):
    """A private key file is readable or writable by someone other than its owner."""


class KeyChanged(IdentityError):
    """A known peer presented a different key than the one pinned for it."""

    def __init__(self, name: str, old: bytes, new: bytes):
        self.name, self.old, self.new = name, old, new
        super().__init__(
            f"the key of known peer {name!r} changed: pinned {fingerprint(old)}, now offered {fingerprint(new)}. "
            "Someone may be impersonating them. If they really made a new key, remove the old pin "
            f"(netplay peers forget {name!r}) and connect again.")


def default_name() -> str:
    """`user@host`, the name peers pin our key under unless the user picks another."""
    try:
        user = getpass.getuser()
    except Exception:  # no passwd entry, no USER: still want a usable name
        user = "player"
    return check_name(f"{user}@{socket.gethostname()}"[:MAX_NAME])


@dataclass(frozen=True, slots=True)
class Identity:
    name: str
    private_key: Ed25519PrivateKey = field(repr=False)
    public_key: bytes            # raw 32 bytes
    curve_public: bytes          # Z85, 40 bytes, as pyzmq takes it
    curve_secret: bytes = field(repr=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    @property
    def curve_public_raw(self) -> bytes:
        return z85.decode(self.curve_public)

    def sign(self, data: bytes) -> bytes:
        return self.private_key.sign(bytes(data))

    def seat_key(self, label: str) -> Ed25519PrivateKey:
        """The signing key of another seat this user plays on this machine (a bot seat, a hot-seat
        player), derived from this identity and the seat's name: stable across games (so a saved game
        resumes with it and peers can pin it), and never the identity's own key."""
        raw = self.private_key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                             serialization.NoEncryption())
        derived = hmac.new(raw, b"netplay/1/seat-key\0" + label.encode(), hashlib.sha256).digest()
        return Ed25519PrivateKey.from_private_bytes(derived)

    @classmethod
    def generate(cls, name: str | None = None) -> Identity:
        """A throw-away identity kept only in memory (tests, bots in the same process)."""
        public, secret = zmq.curve_keypair()
        return cls._make(name, Ed25519PrivateKey.generate(), public, secret)

    @classmethod
    def load(cls, directory: Path | None = None, name: str | None = None, *, create: bool = True,
             repair: bool = False) -> Identity:
        """The user's identity from `directory` (default `paths.keys_dir()`), created on first use.

        A key file with group/other permission bits raises `KeyPermissionError` unless `repair` is
        true, in which case it is chmod-ed to 0600 with a warning."""
        directory = paths.ensure_dir(directory or paths.keys_dir())
        ed_path, curve_path = directory / ED25519_FILE, directory / CURVE_FILE
        if create:
            if not ed_path.exists():
                pem = Ed25519PrivateKey.generate().private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
                if _create_private(ed_path, pem):
                    log.info("created identity key %s", ed_path)
            if not curve_path.exists():
                public, secret = zmq.curve_keypair()
                text = (f"# netplay CurveZMQ keypair (Z85); transport encryption only\n"
                        f"public {public.decode()}\nsecret {secret.decode()}\n")
                _create_private(curve_path, text.encode())
        private = _load_ed25519(ed_path, repair)
        public, secret = _load_curve(curve_path, repair)
        return cls._make(name, private, public, secret)

    @classmethod
    def _make(cls, name: str | None, private: Ed25519PrivateKey, curve_public: bytes,
              curve_secret: bytes) -> Identity:
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return cls(check_name(name) if name is not None else default_name(), private, raw, curve_public,
                   curve_secret)


def _create_private(path: Path, content: bytes) -> bool:
    """Write a new private file with mode 0600, atomically and without ever replacing an existing one:
    two processes starting at once (host and joiner sharing NETPLAY_HOME) must end up with one key.
    Returns False if someone else created it first."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        tmp.unlink(missing_ok=True)


def _check_private(path: Path, repair: bool) -> None:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise IdentityError(f"key file {path} does not exist") from None
    if not stat.S_ISREG(st.st_mode):
        raise IdentityError(f"key file {path} is not a regular file")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise KeyPermissionError(f"key file {path} belongs to another user (uid {st.st_uid}); refusing to use it")
    loose = stat.S_IMODE(st.st_mode) & 0o077
    if loose:
        if not repair:
            raise KeyPermissionError(
                f"key file {path} has mode {stat.S_IMODE(st.st_mode):04o}: other users can read or change it, "
                f"and a leaked key lets anyone play and sign as you. Fix it with `chmod 600 {path}` "
                "(and make a new key if others may have copied it).")
        os.chmod(path, 0o600)
        log.warning("key file %s had mode %04o; repaired to 0600", path, stat.S_IMODE(st.st_mode))


def _load_ed25519(path: Path, repair: bool) -> Ed25519PrivateKey:
    _check_private(path, repair)
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as exc:
        raise IdentityError(f"key file {path} is not an unencrypted PEM private key: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityError(f"key file {path} holds a {type(key).__name__}, not an Ed25519 key")
    return key


def _load_curve(path: Path, repair: bool) -> tuple[bytes, bytes]:
    _check_private(path, repair)
    fields = {}
    for line in path.read_text(errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("public", "secret"):
            fields[parts[0]] = parts[1].encode()
    try:
        public, secret = fields["public"], fields["secret"]
        if len(public) != 40 or len(secret) != 40 or zmq.curve_public(secret) != public:
            raise ValueError("public key does not belong to the secret key")
    except (KeyError, ValueError, zmq.ZMQError) as exc:
        raise IdentityError(f"curve key file {path} is damaged ({exc}); delete it to make a new one "
                            "(it only encrypts, the identity is the Ed25519 key)") from None
    return public, secret


class KnownPeers:
    """Pinned peer keys by peer name (trust on first use), kept in a JSON file.

    The file is re-read on every lookup and updated under a lock, so several netplay processes of the
    same user (a host and a local bot peer) see each other's pins. `path=None` keeps pins in memory
    only, for tests and throw-away identities."""

    VERSION = 1

    def __init__(self, path: Path | None = None):
        self.path = path
        self._memory: dict[str, dict] = {}

    @classmethod
    def default(cls) -> KnownPeers:
        return cls(paths.known_peers_file())

    def get(self, name: str) -> bytes | None:
        entry = self._read().get(name)
        return bytes.fromhex(entry["key"]) if entry else None

    def names(self) -> list[str]:
        return sorted(self._read())

    def check(self, name: str, public_key: bytes) -> bool:
        """Pin on first use. True if `name` was new (now pinned), False if it was known with this key;
        raises `KeyChanged` if it was known with another key."""
        check_name(name)
        public_key = bytes(public_key)
        if len(public_key) != 32:
            raise ValueError("an Ed25519 public key is 32 bytes")
        with self._locked() as peers:
            entry = peers.get(name)
            if entry is not None:
                old = bytes.fromhex(entry["key"])
                if old != public_key:
                    raise KeyChanged(name, old, public_key)
                return False
            alike = _lookalike_pins(peers, name, public_key)
            peers[name] = {"key": public_key.hex(), "fingerprint": fingerprint(public_key),
                           "first_seen": int(time.time())}
            log.info("pinned new peer %r with key %s", name, fingerprint(public_key))
            for other, other_fingerprint in alike:
                log.warning("pinned the new peer %r with key %s, whose name looks like the pinned %r (key %s): "
                            "if you took one for the other, compare their keys' words", name,
                            fingerprint(public_key), other, other_fingerprint)
            return True

    def pin(self, name: str, public_key: bytes) -> None:
        """Pin `public_key` for `name`, replacing any earlier pin (the user accepted a new key)."""
        check_name(name)
        with self._locked() as peers:
            peers[name] = {"key": bytes(public_key).hex(), "fingerprint": fingerprint(public_key),
                           "first_seen": int(time.time())}

    def checking_only(self) -> KnownPeers:
        """These pins, enforced, but no new one written: for a host a bot found on the LAN and joined by
        itself. Nobody vouched for that name (anyone may advertise any), so an impostor found first must
        not pin the name to its key and have the real host refused later."""
        view = _CheckingOnly(self.path)
        view._memory = self._memory
        return view

    def forget(self, name: str) -> bool:
        with self._locked() as peers:
            return peers.pop(name, None) is not None

    def _read(self) -> dict[str, dict]:
        if self.path is None:
            return dict(self._memory)
        try:
            raw = self.path.read_text()
        except FileNotFoundError:
            return {}
        try:
            doc = json.loads(raw)
            peers = doc["peers"]
            if doc.get("version") != self.VERSION or not isinstance(peers, dict):
                raise ValueError(f"unsupported version {doc.get('version')!r}")
            for name, entry in peers.items():
                if len(bytes.fromhex(entry["key"])) != 32:
                    raise ValueError(f"bad key for {name!r}")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            # Never fall back to "no pins": that would silently trust a changed key.
            raise IdentityError(f"known peers file {self.path} is damaged ({exc}); fix or remove it") from None
        return peers

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, dict]]:
        if self.path is None:
            peers = dict(self._memory)
            yield peers
            self._memory = peers
            return
        paths.ensure_dir(self.path.parent)
        lock_fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
            peers = self._read()
            before = json.dumps(peers, sort_keys=True)
            yield peers
            if json.dumps(peers, sort_keys=True) != before:
                tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w") as handle:
                    json.dump({"version": self.VERSION, "peers": peers}, handle, indent=1, sort_keys=True)
                    handle.write("\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
        finally:
            os.close(lock_fd)


def _lookalike_pins(peers: dict[str, dict], name: str, public_key: bytes) -> list[tuple[str, str]]:
    """(name, fingerprint) of the pins of other keys under names that look like `name` (netplay.names:
    "aIice@box" for "alice@box"): a new pin beside them is worth a warning, never a refusal (two people
    may well be called Alice; the words of their keys tell them apart)."""
    from netplay.names import looks_alike

    return [(other, fingerprint(bytes.fromhex(entry["key"]))) for other, entry in sorted(peers.items())
            if other != name and bytes.fromhex(entry["key"]) != public_key and looks_alike(other, name)]


class _CheckingOnly(KnownPeers):
    """KnownPeers.checking_only(): `check` raises KeyChanged for a name pinned to another key, and pins nothing."""

    def check(self, name: str, public_key: bytes) -> bool:
        check_name(name)
        pinned = self.get(name)
        if pinned is not None and pinned != bytes(public_key):
            raise KeyChanged(name, pinned, bytes(public_key))
        if pinned is None:
            log.info("not pinning %r (%s): a host found on the LAN and picked without a person", name,
                     fingerprint(public_key))
        return False

"""Keys on disk, fingerprints, pinning, and where the files live."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import zmq

from netplay import paths
from netplay.identity import (
    Identity,
    IdentityError,
    KeyChanged,
    KeyPermissionError,
    KnownPeers,
    check_name,
)
from replays.crypto import fingerprint, verify


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_paths_follow_netplay_home_then_xdg(tmp_path: Path) -> None:
    env = {"NETPLAY_HOME": str(tmp_path / "np"), "XDG_CONFIG_HOME": "/x/c", "XDG_DATA_HOME": "/x/d"}
    assert paths.keys_dir(env) == tmp_path / "np" / "keys"
    assert paths.replays_dir(env) == tmp_path / "np" / "replays"
    assert paths.known_peers_file(env) == tmp_path / "np" / "known_peers.json"
    env = {"XDG_CONFIG_HOME": "/x/c", "XDG_DATA_HOME": "/x/d"}
    assert paths.keys_dir(env) == Path("/x/c/netplay/keys")
    assert paths.replays_dir(env) == Path("/x/d/netplay/replays")
    assert paths.config_dir({}) == Path.home() / ".config" / "netplay"
    assert paths.data_dir({}) == Path.home() / ".local" / "share" / "netplay"
    # a relative XDG value is invalid by the spec and ignored; an empty NETPLAY_HOME means unset
    assert paths.config_dir({"XDG_CONFIG_HOME": "rel", "NETPLAY_HOME": ""}) == Path.home() / ".config" / "netplay"


def test_paths_read_the_environment_at_call_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path))
    assert paths.keys_dir() == tmp_path / "keys"
    assert paths.replays_dir() == tmp_path / "replays"


def test_fingerprint_is_sha256_prefix_in_four_groups() -> None:
    key = bytes(range(32))
    digest = hashlib.sha256(key).hexdigest()
    fp = fingerprint(key)
    assert fp == f"{digest[0:4]}-{digest[4:8]}-{digest[8:12]}-{digest[12:16]}"
    assert len(fp) == 19 and fp.count("-") == 3


def test_key_created_once_with_private_modes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "home"))
    first = Identity.load(name="alice")
    keys = tmp_path / "home" / "keys"
    assert mode(keys) == 0o700
    for name in ("ed25519.pem", "curve.key"):
        assert mode(keys / name) == 0o600
    again = Identity.load(name="alice")
    assert again.public_key == first.public_key and again.curve_public == first.curve_public
    assert again.fingerprint == fingerprint(first.public_key)
    assert zmq.curve_public(again.curve_secret) == again.curve_public
    assert len(first.curve_public_raw) == 32
    sig = first.sign(b"frame")
    assert verify(again.public_key, None, b"frame", sig)
    assert not verify(again.public_key, None, b"frame!", sig)
    assert not verify(b"short", None, b"frame", sig) and not verify(again.public_key, None, b"frame", b"junk")
    with pytest.raises(IdentityError, match="does not exist"):
        Identity.load(tmp_path / "empty", create=False)


def test_concurrent_first_use_makes_one_key(tmp_path: Path) -> None:
    code = ("import sys; from pathlib import Path; from netplay.identity import Identity; "
            "print(Identity.load(Path(sys.argv[1]), name='x').fingerprint)")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "keys")], stdout=subprocess.PIPE,
                              text=True) for _ in range(4)]
    outs = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert len(outs) == 1 and all(p.returncode == 0 for p in procs)
    assert [p.name for p in (tmp_path / "keys").iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("filename", ["ed25519.pem", "curve.key"])
def test_readable_key_refused_or_repaired(tmp_path: Path, filename: str) -> None:
    ident = Identity.load(tmp_path, name="bob")
    os.chmod(tmp_path / filename, 0o644)
    with pytest.raises(KeyPermissionError, match=r"mode 0644.*chmod 600") as info:
        Identity.load(tmp_path, name="bob")
    assert str(tmp_path / filename) in str(info.value)
    repaired = Identity.load(tmp_path, name="bob", repair=True)
    assert mode(tmp_path / filename) == 0o600 and repaired.public_key == ident.public_key


def test_damaged_key_files_are_clear_errors(tmp_path: Path) -> None:
    Identity.load(tmp_path, name="c")
    curve = (tmp_path / "curve.key").read_text()
    other_secret = zmq.curve_keypair()[1].decode()
    lines = [f"secret {other_secret}" if line.startswith("secret") else line for line in curve.splitlines()]
    (tmp_path / "curve.key").write_text("\n".join(lines))
    with pytest.raises(IdentityError, match="curve key file .* is damaged"):
        Identity.load(tmp_path, name="c")
    (tmp_path / "curve.key").write_text(curve)
    (tmp_path / "ed25519.pem").write_bytes(b"-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
    with pytest.raises(IdentityError, match="not an unencrypted PEM private key"):
        Identity.load(tmp_path, name="c")


def test_names_are_checked() -> None:
    assert check_name("alice@laptop") == "alice@laptop"
    for bad in ("", "x" * 65, "tab\there", "new\nline", 7):
        with pytest.raises(ValueError):
            check_name(bad)
    assert Identity.generate().name          # user@host by default, always valid


def test_known_peers_trust_on_first_use(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "known_peers.json"
    a, b = Identity.generate("a"), Identity.generate("b")
    peers = KnownPeers(path)
    assert peers.get("alice") is None
    assert peers.check("alice", a.public_key) is True
    assert peers.check("alice", a.public_key) is False
    assert mode(path) == 0o600
    # a second instance (another process of the same user) sees the pin
    other = KnownPeers(path)
    assert other.get("alice") == a.public_key
    with pytest.raises(KeyChanged) as info:
        other.check("alice", b.public_key)
    message = str(info.value)
    assert a.fingerprint in message and b.fingerprint in message and "'alice'" in message
    assert info.value.old == a.public_key and info.value.new == b.public_key
    assert other.get("alice") == a.public_key           # the pin did not move
    assert other.check("bob", b.public_key) is True
    assert sorted(KnownPeers(path).names()) == ["alice", "bob"]
    doc = json.loads(path.read_text())
    assert doc["peers"]["alice"]["fingerprint"] == a.fingerprint
    # the user accepts the new key explicitly, or forgets the old one
    peers.pin("alice", b.public_key)
    assert KnownPeers(path).get("alice") == b.public_key
    assert peers.forget("alice") and not peers.forget("alice")
    assert peers.check("alice", a.public_key) is True
    with pytest.raises(ValueError):
        peers.check("carol", b"short")


def test_damaged_known_peers_file_never_means_trust_everyone(tmp_path: Path) -> None:
    path = tmp_path / "known_peers.json"
    for text in ("{not json", json.dumps({"version": 2, "peers": {}}),
                 json.dumps({"version": 1, "peers": {"x": {"key": "00"}}})):
        path.write_text(text)
        with pytest.raises(IdentityError, match="damaged"):
            KnownPeers(path).check("x", bytes(32))


def test_in_memory_known_peers() -> None:
    peers = KnownPeers()
    key, other = Identity.generate().public_key, Identity.generate().public_key
    assert peers.check("p", key) and not peers.check("p", key)
    with pytest.raises(KeyChanged):
        peers.check("p", other)

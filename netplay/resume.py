"""What a peer keeps on disk so that it can come back to a game after a crash (`netplay join --resume`,
`netplay host --resume`).

The replay file holds every frame the peer accepted; the only other thing a seat needs to go on is
its private seed (chain secrets and commitment salts are derived from it, see replays/ledger).
The seed is secret until the end of the game, so it lives in the config directory with mode 0600,
one small JSON file per game in progress, removed when the game is over. A host also keeps where it
listened and which seats each joiner holds, so that its joiners find it and resume their seats.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import asdict
from pathlib import Path

from netplay import paths
from netplay.protocol.saved import SavedSeat  # the value, with the protocol that builds it (no disk there)


def sessions_dir() -> Path:
    return paths.config_dir() / "sessions"


def save(record: SavedSeat) -> Path:
    folder = paths.ensure_dir(sessions_dir())
    path = folder / f"{record.session}-{record.seat}.json"
    tmp = folder / f".{record.session}-{record.seat}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(asdict(record), handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path


def remove(session: bytes, seat: int) -> None:
    (sessions_dir() / f"{session.hex()}-{seat}.json").unlink(missing_ok=True)


def saved(address: str | None = None, role: str = "joiner") -> list[SavedSeat]:
    """Games in progress of this `role`, newest first; only those with `address` (host:port, fingerprint
    ignored) if given."""
    folder = sessions_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.json"):
        try:
            record = SavedSeat(**json.loads(path.read_text()))
        except (OSError, ValueError, TypeError):
            continue
        if record.role != role:
            continue
        if address is None or _plain(record.address) == _plain(address):
            found.append(record)
    return sorted(found, key=lambda r: r.saved, reverse=True)


def _plain(address: str) -> str:
    return address.strip().split("/", 1)[0]


def now() -> int:
    return int(time.time())

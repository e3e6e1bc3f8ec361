"""A front end's remembered settings (the lobby's last game, seats, options, bots, clock, names): one
small JSON file in the config directory (`$NETPLAY_HOME`, or ~/.config/netplay). The user's preferences
that hold for every window (the lobby, the replay viewer, a sandbox) are `Preferences`, in their own file.

Written safely: a new file beside the old one, flushed to disk, then renamed over it, so a crash or a
full disk leaves the old settings or the new ones, never half of a file. Read leniently: settings are
a convenience, so a missing, damaged or foreign file means the defaults (with a note in the log),
never a failure; and what is read is only a dict of plain JSON values, which the caller checks field
by field before using any of it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from netplay import paths

log = logging.getLogger("netplay.client")

MAX_BYTES = 64 * 1024      # a settings file is a few hundred bytes; anything much bigger is not ours
PREFERENCES = "preferences"   # the file of `Preferences`


def settings_file(name: str) -> Path:
    return paths.config_dir() / f"{name}.json"


def load(name: str) -> dict[str, Any]:
    """The saved settings called `name` ({} when there are none or they cannot be read)."""
    path = settings_file(name)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("cannot read %s (%s): using the defaults", path, exc)
        return {}
    if len(data) > MAX_BYTES:
        log.warning("%s is larger than %d bytes: not a settings file; using the defaults", path, MAX_BYTES)
        return {}
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        log.warning("%s is damaged (%s): using the defaults", path, exc)
        return {}
    if not isinstance(value, dict):
        log.warning("%s holds no settings: using the defaults", path)
        return {}
    return value


def save(name: str, values: dict[str, Any]) -> Path | None:
    """Write the settings called `name` atomically; None (and a note in the log) if they cannot be
    written: a read-only home must not stop a game."""
    path = settings_file(name)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        paths.ensure_dir(path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(values, handle, indent=1, sort_keys=True)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError) as exc:
        log.warning("cannot save the settings to %s: %s", path, exc)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return None
    return path


@dataclass(slots=True)
class Preferences:
    """What the user chose for every window of theirs, apart from the lobby's own settings: `sound`, the
    table's sounds (client/sounds.py; `--no-sound` turns them off for one run without changing this)."""

    sound: bool = True

    @classmethod
    def load(cls) -> Preferences:
        """The saved preferences, each field checked: a value of another type is the default."""
        saved = load(PREFERENCES)
        sound = saved.get("sound")
        return cls(sound=sound if isinstance(sound, bool) else True)

    def save(self) -> Path | None:
        return save(PREFERENCES, asdict(self))

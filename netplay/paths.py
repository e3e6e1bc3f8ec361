"""Where netplay keeps a user's files.

Keys and pinned peers are configuration (they decide whom we trust), replays are data (they pile up
and may be deleted), so by default they follow the XDG split: `$XDG_CONFIG_HOME/netplay` (or
`~/.config/netplay`) and `$XDG_DATA_HOME/netplay` (or `~/.local/share/netplay`). `NETPLAY_HOME`
puts everything under one directory instead, which is what tests, demos and a second identity on the
same account need.

The environment is read on every call, not at import, so a test (or a CLI option that sets
`NETPLAY_HOME`) changes the answer without reloading anything.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP = "netplay"


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _home_override(env: Mapping[str, str]) -> Path | None:
    value = env.get("NETPLAY_HOME", "").strip()
    return Path(value).expanduser() if value else None


def _xdg(env: Mapping[str, str], var: str, fallback: str) -> Path:
    # The XDG spec says a relative value is invalid and must be ignored.
    value = env.get(var, "").strip()
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory holding keys and pinned peers."""
    env = _env(env)
    return _home_override(env) or _xdg(env, "XDG_CONFIG_HOME", ".config") / APP


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory holding replays and other bulky data."""
    env = _env(env)
    return _home_override(env) or _xdg(env, "XDG_DATA_HOME", ".local/share") / APP


def keys_dir(env: Mapping[str, str] | None = None) -> Path:
    return config_dir(env) / "keys"


def known_peers_file(env: Mapping[str, str] | None = None) -> Path:
    return config_dir(env) / "known_peers.json"


def replays_dir(env: Mapping[str, str] | None = None) -> Path:
    return data_dir(env) / "replays"


def ensure_dir(path: Path, mode: int = 0o700) -> Path:
    """Create `path` (and parents) if missing. New directories get `mode` because a key directory
    readable by others leaks at least which keys exist; an existing directory is left as the user made it."""
    path.mkdir(mode=mode, parents=True, exist_ok=True)
    return path

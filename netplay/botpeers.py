"""Bot peers on this machine: one `netplay join --bot` process per free seat of a host session, each
with its own throw-away identity, connected over loopback through the very same protocol. Used by
`netplay play --vs BOT` and by the lobby's "play here vs bots", so a game against bots is a real
networked game: signed, recorded and auditable like any other."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def bot_peers(session, bot: str, note: Callable[[str], None] | None = None,
              delay_s: float = 0.0) -> Iterator[list[subprocess.Popen]]:
    """Start the bot processes; stop them (bounded) when done, passing a failed bot's last words to
    `note`. `delay_s`: seconds each bot waits before a decision, so a person can follow its moves."""
    with tempfile.TemporaryDirectory(prefix="netplay-bot-") as tmp:
        peers: list[subprocess.Popen] = []
        logs: list[Path] = []
        address = f"127.0.0.1:{session.port}/{session.identity.fingerprint}"
        try:
            for n in range(session.free_seats()):
                home = Path(tmp) / f"bot{n}"
                home.mkdir(mode=0o700)
                logs.append(home / "bot.log")
                env = dict(os.environ, NETPLAY_HOME=str(home))
                cmd = [sys.executable, "-m", "client.cli", "join", address, "--bot", bot, "--games", "10000",
                       "--quiet", "--no-fsync",
                       "--replay-dir", str(home / "replays"), "--bot-delay", f"{delay_s:g}"]
                with open(logs[-1], "wb") as out:
                    peers.append(subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                                  stdin=subprocess.DEVNULL))
            yield peers
        finally:
            deadline = time.monotonic() + 10
            for proc, path in zip(peers, logs, strict=True):
                try:
                    proc.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
                if proc.returncode not in (0, -9) and note is not None:
                    tail = path.read_text(errors="replace").strip().splitlines()[-3:]
                    note(f"bot process {proc.pid} ended with status {proc.returncode}: " + " | ".join(tail))

"""The lobby's list of saved replays: every file (no cap), newest first, each summed up as a person
looks for it (game, opponents, who won and how, the audit's verdict), filterable by game; a game this
user left unfinished (its seat saved for `--resume`, see netplay.resume) is marked resumable.

Reading a header is quick; the verdict needs the whole audit, so summaries are made in a background
thread and cached by file and modification time: the list shows the files at once and fills in.
No pygame here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engines
from client.ending import from_result, line
from engines.core import Result
from replays.audit import audit_replay
from replays.codec import FormatError
from replays.reader import read_replay

__all__ = ["ReplayEntry", "ReplayList"]


@dataclass(frozen=True, slots=True)
class ReplayEntry:
    path: Path
    mtime: float
    game: str = ""          # game id ("" while unknown)
    title: str = ""         # the game's title
    players: str = ""       # "you vs ann", or every name
    when: str = ""          # "2026-11-23 20:18"
    result: str = ""        # "You won by resignation", "unfinished: ...", "" while the audit runs
    verdict: str = ""       # valid | unfinished | invalid | unreadable | "" while the audit runs
    resume: str = ""        # "host" or "joiner": this user left the game unfinished and can resume its seat

    @property
    def line(self) -> str:
        parts = [self.title or self.path.stem, self.players, self.result or "checking..."]
        return " - ".join(p for p in parts if p)


def _when(created: int | float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M", time.localtime(created))


def summarize(path: Path, my_key: bytes | None) -> ReplayEntry:
    """One replay as the lobby lists it; an unreadable file says so instead of failing the list."""
    mtime = path.stat().st_mtime
    try:
        replay = read_replay(path)
    except (FormatError, OSError, ValueError) as exc:
        return ReplayEntry(path, mtime, title=path.stem, result=f"unreadable: {exc}", verdict="unreadable")
    header = replay.header
    names = [name for _, name in header.seats]
    me = next((s for s, (key, _) in enumerate(header.seats) if my_key is not None and key == my_key), None)
    shown = ["you" if s == me else n for s, n in enumerate(names)]
    title = engines.GAMES[header.game].title if header.game in engines.GAMES else header.game
    base = ReplayEntry(path, mtime, header.game, title, " vs ".join(shown), _when(header.created))
    verdict = audit_replay(replay)
    if verdict.result is not None and verdict.status == "valid":
        r = verdict.result
        ending = from_result(Result(tuple(r["winners"]), tuple(r["scores"]), r["reason"]), me, names)
        result = line(ending).split("; score")[0]  # the scores are for the viewer; the list says who won
    elif verdict.status == "unfinished" and verdict.blame is not None and "withheld" in verdict.reason:
        blamed = shown[verdict.blame] if verdict.blame < len(shown) else f"seat {verdict.blame}"
        result = f"forfeit: {blamed} withheld a move"
    elif verdict.status == "unfinished":
        result = "unfinished"
    else:
        result = verdict.reason
    return ReplayEntry(path, mtime, base.game, title, base.players, base.when, result, verdict.status)


class ReplayList:
    """The replays of a folder, summed up in the background; `entries(game)` is what to show now."""

    def __init__(self, folder: Path, my_key: bytes | None = None):
        self.folder = folder
        self.my_key = my_key
        self._lock = threading.Lock()
        self._cache: dict[Path, ReplayEntry] = {}
        self._files: list[tuple[float, Path]] = []
        self._saved: dict[Path, Any] = {}     # replay file -> the seat saved to resume it (netplay.resume)
        self._thread: threading.Thread | None = None
        self.refresh()

    def refresh(self) -> None:
        try:
            files = [(p.stat().st_mtime, p) for p in self.folder.glob("*.npr")]
        except OSError:
            files = []
        files.sort(reverse=True)  # newest first
        saved = _saved_seats()
        with self._lock:
            self._files = files
            self._saved = saved
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._work, name="netplay-replays", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                todo = [p for m, p in self._files if p not in self._cache or self._cache[p].mtime != m]
            if not todo:
                return
            for path in todo:
                with contextlib.suppress(OSError):
                    entry = summarize(path, self.my_key)
                    with self._lock:
                        self._cache[path] = entry

    def wait(self, timeout_s: float = 10.0) -> None:
        """For tests and scripts: until every file is summed up."""
        if self._thread is not None:
            self._thread.join(timeout_s)

    def entries(self, game: str | None = None) -> list[ReplayEntry]:
        with self._lock:
            files = list(self._files)
            cache = dict(self._cache)
            saved = dict(self._saved)
        out = []
        for mtime, path in files:
            entry = cache.get(path) or ReplayEntry(path, mtime, title=path.stem)
            seat = saved.get(_key(path))
            if seat is not None and entry.verdict in ("", "unfinished"):
                entry = dataclasses.replace(entry, resume=seat.role)
            if game is None or entry.game == game or (entry.game == "" and game in path.name):
                out.append(entry)
        return out

    def saved_seat(self, path: Path) -> Any:
        """The seat saved to resume the game of this file (a netplay.resume.SavedSeat), or None."""
        with self._lock:
            return self._saved.get(_key(path))

    def games(self) -> list[str]:
        """The games that have replays here, for the filter."""
        return sorted({e.game for e in self.entries() if e.game})


def _key(path: Path | str) -> Path:
    try:
        return Path(path).resolve()
    except OSError:
        return Path(path)


def _saved_seats() -> dict[Path, Any]:
    """Every seat this user left in a game in progress (as host or joiner), by its replay file; none
    when the config directory cannot be read (the list then only lacks its resume buttons)."""
    from netplay import resume

    found: dict[Path, Any] = {}
    with contextlib.suppress(OSError):
        for role in ("joiner", "host"):
            for seat in resume.saved(role=role):
                if seat.replay:
                    found.setdefault(_key(seat.replay), seat)
    return found

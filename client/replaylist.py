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
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engines
from client.ending import from_result, line
from client.names import seat_names
from engines.core import Result
from replays.audit import audit_replay
from replays.codec import FormatError
from replays.ledger.core import DECISIONS
from replays.reader import read_header, read_replay
from replays.safetext import shown

__all__ = ["ReplayEntry", "ReplayList", "glance", "summarize"]

log = logging.getLogger("netplay.replays")


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
    forfeit: bool = False   # the game ended by a forfeit every seat that had to co-sign it co-signed

    @property
    def badge(self) -> str:
        """The word at the end of the row: the audit's verdict, except for a co-signed forfeit (a game lost on
        time, by the clock or the move limit), which is a result like any other, not an unfinished game."""
        return "forfeit" if self.forfeit else self.verdict

    @property
    def line(self) -> str:
        parts = [self.title or self.path.stem, self.players, self.result or "checking..."]
        return " - ".join(p for p in parts if p)


def _when(created: int | float) -> str:
    import time

    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(created))
    except (OverflowError, OSError, ValueError):   # the header checks the range; a local time zone may not reach it
        return "?"


def _unreadable(path: Path, mtime: float, why: object) -> ReplayEntry:
    return ReplayEntry(path, mtime, title=shown(path.stem, 80), result=f"unreadable: {shown(why, 200)}",
                       verdict="unreadable")


def glance(path: Path, my_key: bytes | None, mtime: float | None = None) -> ReplayEntry:
    """The replay as the list shows it before its audit: the header only (quick, whatever the file's size)."""
    mtime = path.stat().st_mtime if mtime is None else mtime
    try:
        header = read_header(path)
    except (FormatError, OSError) as exc:
        return _unreadable(path, mtime, exc.reason if isinstance(exc, FormatError) else exc.strerror or exc)
    names = seat_names(header.seats)
    me = next((s for s, (key, _) in enumerate(header.seats) if my_key is not None and key == my_key), None)
    shown_names = ["you" if s == me else shown(n) for s, n in enumerate(names)]
    title = engines.GAMES[header.game].title if header.game in engines.GAMES else shown(header.game)
    return ReplayEntry(path, mtime, header.game, title, " vs ".join(shown_names), _when(header.created))


def summarize(path: Path, my_key: bytes | None) -> ReplayEntry:
    """One replay as the lobby lists it, audited; an unreadable file says so instead of failing the list."""
    mtime = path.stat().st_mtime
    base = glance(path, my_key, mtime)
    if base.verdict == "unreadable":
        return base
    try:
        replay = read_replay(path)
    except (FormatError, OSError) as exc:
        return _unreadable(path, mtime, exc.reason if isinstance(exc, FormatError) else exc.strerror or exc)
    header = replay.header
    names = [shown(name) for name in seat_names(header.seats)]
    me = next((s for s, (key, _) in enumerate(header.seats) if my_key is not None and key == my_key), None)
    verdict = audit_replay(replay)
    forfeit = False
    if verdict.status == "valid" and verdict.result is not None:
        r = verdict.result
        ending = from_result(Result(tuple(r["winners"]), tuple(r["scores"]), r["reason"]), me, names)
        result = line(ending).split("; score")[0]  # the scores are for the viewer; the list says who won
    elif verdict.status == "unfinished" and verdict.claim is not None and verdict.result is not None:
        blamed = verdict.claim["blamed"]           # a forfeit every seat that must co-sign it co-signed
        who = "you" if blamed == me else names[blamed] if 0 <= blamed < len(names) else f"seat {blamed}"
        # a decision (a move, a secret choice) not made in time, or a part the protocol makes for the seat
        # (a reveal, a shuffle) that its program stopped sending
        late = "did not move in time" if verdict.claim["kind"] in DECISIONS else "went silent"
        result = f"forfeit: {who} {late}"
        forfeit = True
    elif verdict.status == "unfinished":
        result = "unfinished"
    elif verdict.status == "contested":
        result = "contested: nobody forfeits"
    else:
        result = shown(verdict.reason, 200)
    return ReplayEntry(path, mtime, base.game, base.title, base.players, base.when, result, verdict.status,
                       forfeit=forfeit)


def _guarded(step, path: Path, mtime: float, my_key: bytes | None) -> ReplayEntry:
    """One file's entry; whatever goes wrong becomes the entry, so the list never waits on that file again
    (a header `created` of 2^62 used to make the thread re-read it for ever, 2^63 killed the thread)."""
    try:
        return step(path, mtime, my_key)
    except Exception as exc:   # noqa: BLE001  (a hostile file must not end the list's thread)
        log.warning("replay list: %s: %s", shown(path), shown(exc, 200))
        return _unreadable(path, mtime, f"{type(exc).__name__}: {exc}")


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
        """Headers first (every file shows its game and players at once), then the audits, newest first.
        Every file read gets an entry, whatever it holds (an error is its entry), so each pass leaves
        only files that changed meanwhile, and the thread ends when none did."""
        while True:
            with self._lock:
                todo = [(m, p) for m, p in self._files if p not in self._cache or self._cache[p].mtime != m]
            if not todo:
                return
            for step in (self._glance, self._summarize):
                for mtime, path in todo:
                    entry = _guarded(step, path, mtime, self.my_key)
                    with self._lock:
                        known = self._cache.get(path)
                        if step is self._summarize or known is None or known.mtime != mtime:
                            self._cache[path] = entry

    @staticmethod
    def _glance(path: Path, mtime: float, my_key: bytes | None) -> ReplayEntry:
        return glance(path, my_key, mtime)

    @staticmethod
    def _summarize(path: Path, mtime: float, my_key: bytes | None) -> ReplayEntry:
        entry = summarize(path, my_key)
        return entry if entry.mtime == mtime else dataclasses.replace(entry, mtime=mtime)

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

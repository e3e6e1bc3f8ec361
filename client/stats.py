"""Per-player statistics from the replays on this machine: games, wins, losses and draws per game, and
the dice luck of each player against fair dice. No pygame here (the lobby's page is
client/scenes/stats.py, the terminal's `netplay stats`).

Only signed facts count. Each file is audited (`replays.audit.run_ledger`, the check `netplay replay
verify` makes): a file that does not verify (invalid or unreadable) is left out and counted as such,
never read for its header's word. A result is a win or a loss only when the audit proves it (every seat
co-signed it, or a forfeit every seat that had to co-signed); a game that stops early is "unfinished".

A player is an identity, the public key its seats signed with: two people may call themselves "ann",
one person may change name. A player is shown by the name of their latest game, with the key's short
fingerprint when two identities share that name. Copies of one game (one session, several seats'
files) count once.

Dice: in the games that roll two six-sided dice for their sum (Catan, and the red and white dice of
Cities & Knights), each roll is the roller's: the seat whose turn it is (as the viewer's dice tab says
it, client/story/catan.py). A player's sums over all their games are compared with fair 2d6: the
count, the mean against 7.0, and the chi-square test of client/dice.py, in words.

Auditing is the costly part, so a file's summary is cached by its path, size, modification time and
the SHA-256 of its bytes: in memory for the process, and as JSON under the data directory (never
pickle: a cache file is data, not code). An entry only stands for the exact bytes it was made from.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engines
from client.dice import ChiSquare, Histogram, chi_square, fair_two_dice
from replays import codec
from replays.audit import run_ledger
from replays.crypto import fingerprint
from replays.reader import MAX_FILE, parse_replay
from replays.safetext import shown
from replays.writer import SUFFIX

__all__ = ["FileSummary", "GameTally", "PlayerStats", "ReplayStats", "SeatLine", "Stats", "SummaryCache",
           "TWO_DICE", "aggregate", "default_cache", "game_title", "summarize_bytes", "summarize_file"]

log = logging.getLogger("netplay.stats")

TWO_DICE = frozenset(("catan", "catan-ck"))   # the games whose two six-sided dice are read by their sum
SUMS = tuple(range(2, 13))
FAIR = tuple(fair_two_dice())
FAIR_MEAN = 7.0
NOT_COUNTED = frozenset(("invalid", "unreadable"))   # the verdicts of a file that does not verify
OUTCOMES = ("win", "loss", "draw", "unfinished")
CACHE_FILE = "stats-cache.json"
CACHE_VERSION = 1


# ---------------------------------------------------------------------------------------------- one file

@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of one verified game: who (the key, as hex), under which name, and how it went."""

    key: str
    name: str
    outcome: str                  # win | loss | draw | unfinished
    forfeit: bool = False         # lost by a forfeit (a timeout claim every seat that had to co-signed)
    sums: tuple[int, ...] = ()    # how often each sum 2..12 was rolled in this seat's turns; () without 2d6


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What one replay file adds to the statistics: its verdict, and per seat the outcome and the dice."""

    status: str                   # the audit's verdict: valid | unfinished | contested | invalid | unreadable
    reason: str = ""              # why, for a file that is not counted
    game: str = ""
    session: str = ""             # the header's hash, hex: the copies of one game share it (and only they)
    created: int = 0              # the header's time (the latest game's name is the one shown)
    seats: tuple[SeatLine, ...] = ()

    @property
    def counted(self) -> bool:
        return self.status not in NOT_COUNTED

    @property
    def decided(self) -> bool:
        return any(s.outcome != "unfinished" for s in self.seats)

    @property
    def rolls(self) -> int:
        return sum(sum(s.sums) for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "game": self.game, "session": self.session,
                "created": self.created,
                "seats": [{"key": s.key, "name": s.name, "outcome": s.outcome, "forfeit": s.forfeit,
                           "sums": list(s.sums)} for s in self.seats]}

    @classmethod
    def from_json(cls, data: Any) -> FileSummary:
        """The summary a cache file holds; ValueError for anything that is not one (an old or edited file)."""
        if not isinstance(data, dict):
            raise ValueError("not an object")
        seats = []
        for seat in data.get("seats", []):
            sums = seat["sums"]
            if (not isinstance(seat["key"], str) or not isinstance(seat["name"], str) or seat["outcome"] not in OUTCOMES
                    or not isinstance(seat["forfeit"], bool) or not isinstance(sums, list)
                    or len(sums) not in (0, len(SUMS)) or not all(type(n) is int and n >= 0 for n in sums)):
                raise ValueError("a seat that is not one")
            seats.append(SeatLine(seat["key"], seat["name"], seat["outcome"], seat["forfeit"], tuple(sums)))
        fields = (data["status"], data["reason"], data["game"], data["session"])
        if not all(isinstance(f, str) for f in fields) or type(data["created"]) is not int:
            raise ValueError("a summary that is not one")
        return cls(*fields, data["created"], tuple(seats))


def summarize_file(path: str | os.PathLike) -> FileSummary:
    """One file audited and summed up; never raises for what the file holds (it becomes the verdict)."""
    try:
        data = _read(Path(path))
    except OSError as exc:
        return FileSummary("unreadable", f"cannot read the file: {exc.strerror or exc}")
    return summarize_bytes(data, str(path))


def _read(path: Path) -> bytes:
    if path.stat().st_size > MAX_FILE:
        raise OSError(f"larger than the limit of {MAX_FILE} bytes")
    return path.read_bytes()


def summarize_bytes(data: bytes, name: str = "<bytes>") -> FileSummary:
    try:
        replay = parse_replay(data)
    except codec.FormatError as exc:
        return FileSummary("unreadable", shown(exc.reason, 200))
    replay.path = name
    ledger, verdict = run_ledger(replay)
    header = replay.header
    if verdict.status in NOT_COUNTED or ledger is None:
        status = verdict.status if verdict.status in NOT_COUNTED else "unreadable"
        return FileSummary(status, shown(verdict.reason, 200), header.game)
    outcomes = _outcomes(verdict, header.players)
    sums = _dice_sums(ledger.game, header, ledger.events) if header.game in TWO_DICE else None
    seats = tuple(SeatLine(key.hex(), name, outcome, forfeit, tuple(sums[s]) if sums is not None else ())
                  for s, ((key, name), (outcome, forfeit)) in enumerate(zip(header.seats, outcomes, strict=True)))
    return FileSummary(verdict.status, "", header.game, header.hash.hex(), int(header.created), seats)


def _outcomes(verdict: Any, players: int) -> list[tuple[str, bool]]:
    """(outcome, lost by forfeit) per seat, as far as the verdict proves it."""
    result = verdict.result
    if verdict.status == "valid" and result is not None:
        winners = set(result["winners"])
        if not winners:   # nobody won: a draw, except in a game played alone, where it is a loss
            return [("loss" if players == 1 else "draw", False)] * players
        return [("win" if s in winners else "loss", False) for s in range(players)]
    if verdict.status == "unfinished" and verdict.claim is not None and result is not None:
        winners, blamed = set(result["winners"]), verdict.claim["blamed"]
        return [("win" if s in winners else "loss", s == blamed) for s in range(players)]
    return [("unfinished", False)] * players   # cut short, an open claim, or contested: nobody forfeits


def _dice_sums(game: Any, header: Any, events: Iterable[Any]) -> list[list[int]] | None:
    """Per seat, how often each sum 2..12 of two six-sided dice was rolled in its turns. The events are
    applied as the audit's spectator knew them (the dice are public); the roller is the view's `active`
    seat, else the seat that moved last. None when the game cannot be followed (logged, never raised)."""
    players = header.players
    sums = [[0] * len(SUMS) for _ in range(players)]
    try:
        state = game.start(players, header.option_dict)
        last: int | None = None
        for event in events:
            if event.kind == "play":
                last = event.seat
                state = game.play(state, event.seat, event.value)
                continue
            chance, value = event.chance, event.value
            if (chance is not None and chance.kind == "dice" and tuple(chance.sides[:2]) == (6, 6)
                    and isinstance(value, (tuple, list)) and len(value) >= 2):
                active = game.view(state, None).get("active")
                seat = active if isinstance(active, int) else last
                total = int(value[0]) + int(value[1])
                if seat is not None and 0 <= seat < players and 2 <= total <= 12:
                    sums[seat][total - 2] += 1
            state = game.chance(state, value)
    except Exception as exc:   # noqa: BLE001  (a verified game the engine cannot follow: no dice figures for it)
        log.warning("statistics: the dice of a %s game cannot be followed: %s", shown(header.game), shown(exc, 200))
        return None
    return sums


# ---------------------------------------------------------------------------------------------- players

@dataclass(slots=True)
class GameTally:
    """One player's games of one game id."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    unfinished: int = 0
    forfeits: int = 0   # losses by forfeit (also counted in `losses`)

    def add(self, outcome: str, forfeit: bool) -> None:
        self.games += 1
        if outcome == "win":
            self.wins += 1
        elif outcome == "loss":
            self.losses += 1
            self.forfeits += forfeit
        elif outcome == "draw":
            self.draws += 1
        else:
            self.unfinished += 1

    @property
    def finished(self) -> int:
        return self.wins + self.losses + self.draws

    def words(self) -> str:
        """"5 games, 3 wins, 1 loss (by forfeit), 1 unfinished": what is not zero, the games always."""
        parts = [_n(self.games, "game")]
        if self.wins:
            parts.append(_n(self.wins, "win"))
        if self.losses:
            by = "" if not self.forfeits else " (by forfeit)" if self.forfeits == self.losses == 1 \
                else f" ({self.forfeits} by forfeit)"
            parts.append(_n(self.losses, "loss") + by)
        if self.draws:
            parts.append(_n(self.draws, "draw"))
        if self.unfinished:
            parts.append(f"{self.unfinished} unfinished")
        return ", ".join(parts)


def _n(count: int, word: str) -> str:
    plural = word + ("es" if word.endswith("s") else "s")
    return f"{count} {word if count == 1 else plural}"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


@dataclass(slots=True)
class PlayerStats:
    """One identity (a public key) over every counted game it sat in."""

    key: str                       # hex
    name: str                      # the name of its latest game
    last_played: int = 0           # that game's header time
    label: str = ""                # the name as shown: with the short fingerprint when another key shares it
    me: bool = False               # this machine's own identity
    by_game: dict[str, GameTally] = field(default_factory=dict)
    sums: list[int] = field(default_factory=lambda: [0] * len(SUMS))

    @property
    def fingerprint(self) -> str:
        return fingerprint(bytes.fromhex(self.key))

    def total(self) -> GameTally:
        out = GameTally()
        for t in self.by_game.values():
            out.games += t.games
            out.wins += t.wins
            out.losses += t.losses
            out.draws += t.draws
            out.unfinished += t.unfinished
            out.forfeits += t.forfeits
        return out

    @property
    def games(self) -> int:
        return sum(t.games for t in self.by_game.values())

    @property
    def wins(self) -> int:
        return sum(t.wins for t in self.by_game.values())

    @property
    def win_rate(self) -> str:
        """Wins among the games that finished (an unfinished game is neither won nor lost)."""
        total = self.total()
        return percent(total.wins, total.finished)

    @property
    def rolls(self) -> int:
        return sum(self.sums)

    @property
    def mean(self) -> float | None:
        n = self.rolls
        return sum(s * c for s, c in zip(SUMS, self.sums, strict=True)) / n if n else None

    def histogram(self) -> Histogram:
        """The player's sums against fair 2d6, as the viewer's dice tab draws one game's."""
        n = self.rolls
        return Histogram("sums of the two dice in this player's turns", tuple(str(s) for s in SUMS),
                         tuple(self.sums), tuple(n * p for p in FAIR))

    def test(self) -> ChiSquare | None:
        return chi_square(self.histogram())

    def dice_short(self) -> str:
        """"63 rolls, mean 6.9 (fair 7.0)", or "" for a player who never rolled two dice."""
        mean = self.mean
        if mean is None:
            return ""
        return f"{_n(self.rolls, 'roll')}, mean {mean:.1f} (fair {FAIR_MEAN:.1f})"

    def dice_line(self, test: bool = True) -> str:
        """The short figures, the sevens (the robber's number), and the test in words (`test`)."""
        short = self.dice_short()
        if not short:
            return "dice: no rolls of two dice (only Catan and Cities & Knights are counted)"
        sevens = self.sums[SUMS.index(7)]
        line = f"dice: {short}; sevens {sevens} (fair {self.rolls * FAIR[5]:.1f})"
        if not test:
            return line
        found = self.test()
        return f"{line}; " + (found.words if found is not None
                              else "too few rolls to judge (a test needs about 5 expected per sum)")

    def games_line(self) -> str:
        """Per game: "Catan: 3 games, 2 wins, 1 loss; Ploc: 1 game, ...", the most played first."""
        return "; ".join(f"{game_title(gid)}: {t.words()}" for gid, t in self.games_played())

    def games_played(self) -> list[tuple[str, GameTally]]:
        """(game id, tally), the most played first."""
        return sorted(self.by_game.items(), key=lambda kv: (-kv[1].games, game_title(kv[0])))


def game_title(game_id: str) -> str:
    """A game id as people know the game ("Catan"); an id this netplay does not know, as it is (made safe)."""
    return engines.GAMES[game_id].title if game_id in engines.GAMES else shown(game_id, 40)


@dataclass(slots=True)
class Stats:
    """Everything the page and the command show."""

    players: list[PlayerStats]
    files: int = 0                 # replay files found
    games: int = 0                 # games counted (a game's copies once)
    not_counted: list[tuple[str, str]] = field(default_factory=list)   # (file name, why) of files that do not verify
    copies: int = 0                # further copies of a game already counted
    pending: int = 0               # files not summed up yet (the background work goes on)

    def head(self) -> str:
        """"12 games from 14 files; not counted: 1 file that does not verify; 1 second copy counted once"."""
        parts = [f"{_n(self.games, 'game')} from {_n(self.files, 'replay file')}"]
        if self.pending:
            parts.append(f"checking {self.files - self.pending} of {self.files} files...")
        if self.not_counted:
            n = len(self.not_counted)
            parts.append(f"not counted: {_n(n, 'file')} that {'does' if n == 1 else 'do'} not verify")
        if self.copies:
            copies = "1 more copy" if self.copies == 1 else f"{self.copies} more copies"
            parts.append(f"{copies} of a game counted once")
        return "; ".join(parts)

    def lines(self) -> list[str]:
        """The statistics as a terminal prints them."""
        out = [self.head()]
        if not self.players:
            return [*out, "no player yet: the statistics come from finished replays"]
        width = max(12, *(len(p.label) for p in self.players))
        out.append(f"{'player':<{width}}  games  wins  losses  draws  unfinished  win %")
        for p in self.players:
            t = p.total()
            out.append(f"{p.label:<{width}}  {t.games:>5}  {t.wins:>4}  {t.losses:>6}  {t.draws:>5}  "
                       f"{t.unfinished:>10}  {p.win_rate:>5}")
            out.append(f"    {p.games_line()}")
            if p.rolls:
                out.append(f"    {p.dice_line()}")
        if self.not_counted:
            out.append("not counted (they do not verify: `netplay replay verify FILE` says why):")
            out += [f"  {name}: {why}" for name, why in self.not_counted]
        return out


def aggregate(summaries: Iterable[tuple[str, FileSummary]], my_key: bytes | None = None, pending: int = 0) -> Stats:
    """The statistics of these files (name, summary): every verified game once, by its best copy (one with
    a result, else the one with the most rolls), its seats tallied by their keys."""
    summaries = list(summaries)
    stats = Stats([], files=len(summaries) + pending, pending=pending)
    best: dict[str, FileSummary] = {}
    for name, summary in summaries:
        if not summary.counted:
            stats.not_counted.append((shown(name, 120), summary.reason or summary.status))
            continue
        session = summary.session or f"file:{name}"
        known = best.get(session)
        if known is not None:
            stats.copies += 1
            if (summary.decided, summary.rolls) <= (known.decided, known.rolls):
                continue
        best[session] = summary
    stats.games = len(best)
    players: dict[str, PlayerStats] = {}
    mine = my_key.hex() if my_key is not None else None
    for summary in sorted(best.values(), key=lambda s: s.created):   # the latest game's name last
        for seat in summary.seats:
            p = players.get(seat.key)
            if p is None:
                p = players[seat.key] = PlayerStats(seat.key, seat.name, me=seat.key == mine)
            if summary.created >= p.last_played:
                p.name, p.last_played = seat.name, summary.created
            p.by_game.setdefault(summary.game, GameTally()).add(seat.outcome, seat.forfeit)
            if seat.sums:
                p.sums = [a + b for a, b in zip(p.sums, seat.sums, strict=True)]
    _label(players.values())
    stats.players = sorted(players.values(), key=lambda p: (-p.games, -p.wins, p.label.casefold()))
    stats.not_counted.sort()
    return stats


def _label(players: Iterable[PlayerStats]) -> None:
    """Each player's shown name: the latest name, with the key's short fingerprint when that name (any
    case) is another identity's too, and "(you)" for this machine's own."""
    players = list(players)
    by_name: dict[str, int] = {}
    for p in players:
        by_name[p.name.casefold()] = by_name.get(p.name.casefold(), 0) + 1
    for p in players:
        label = shown(p.name, 40)
        if by_name[p.name.casefold()] > 1:
            label += f" ({p.fingerprint[:9]})"
        p.label = label + (" (you)" if p.me else "")


# ---------------------------------------------------------------------------------------------- the cache

class SummaryCache:
    """File summaries by path, each valid only for the size, modification time and SHA-256 it was made
    from; thread-safe. `path` (optional) is the JSON file it is loaded from and saved to."""

    def __init__(self, path: Path | None = None):
        self.path = path
        self._lock = threading.Lock()
        self._entries: dict[str, dict[str, Any]] = {}
        self._dirty = False
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return   # none yet, or unreadable: everything is verified again
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return
        if not isinstance(data.get("files"), dict):
            return
        for name, entry in data["files"].items():
            with contextlib.suppress(KeyError, TypeError, ValueError):
                summary = FileSummary.from_json(entry["summary"])
                if type(entry["size"]) is int and type(entry["mtime_ns"]) is int and isinstance(entry["sha256"], str):
                    self._entries[name] = {"size": entry["size"], "mtime_ns": entry["mtime_ns"],
                                           "sha256": entry["sha256"], "summary": summary}

    def summary(self, path: Path, counted: Callable[[], None] | None = None) -> FileSummary:
        """The file's summary: the cached one when size, time and digest still match, else a new audit."""
        name = str(path.resolve())
        try:
            st = path.stat()
            data = _read(path)
        except OSError as exc:
            return FileSummary("unreadable", f"cannot read the file: {exc.strerror or exc}")
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            entry = self._entries.get(name)
        if entry is not None and (entry["size"], entry["mtime_ns"], entry["sha256"]) == (st.st_size, st.st_mtime_ns,
                                                                                         digest):
            return entry["summary"]
        if counted is not None:
            counted()
        summary = summarize_bytes(data, path.name)
        with self._lock:
            self._entries[name] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest,
                                   "summary": summary}
            self._dirty = True
        return summary

    def save(self) -> None:
        """Write the JSON file (atomically) when something was added; files gone since are dropped."""
        if self.path is None:
            return
        with self._lock:
            if not self._dirty:
                return
            self._entries = {name: e for name, e in self._entries.items() if os.path.exists(name)}
            files = {name: {"size": e["size"], "mtime_ns": e["mtime_ns"], "sha256": e["sha256"],
                            "summary": e["summary"].to_json()} for name, e in self._entries.items()}
            self._dirty = False
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"version": CACHE_VERSION, "files": files}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:   # a read-only home: the cache stays in memory
            log.warning("statistics: the cache cannot be saved to %s: %s", self.path, exc)


_DEFAULT: SummaryCache | None = None
_DEFAULT_LOCK = threading.Lock()


def default_cache() -> SummaryCache:
    """The process's cache, loaded once from the data directory ($NETPLAY_HOME, else the user data dir)."""
    global _DEFAULT
    from netplay.paths import data_dir

    path = data_dir() / CACHE_FILE
    with _DEFAULT_LOCK:
        if _DEFAULT is None or _DEFAULT.path != path:   # NETPLAY_HOME changed (a test, a second identity)
            _DEFAULT = SummaryCache(path)
        return _DEFAULT


# ---------------------------------------------------------------------------------------------- a folder

class ReplayStats:
    """The statistics of a folder's replays, summed up in a background thread (as the lobby's replay list
    is): `stats()` is what to show now, `progress()` how far the work is."""

    def __init__(self, folder: Path, my_key: bytes | None = None, cache: SummaryCache | None = None,
                 background: bool = True):
        self.folder = Path(folder)
        self.my_key = my_key
        self.cache = cache if cache is not None else default_cache()
        self._lock = threading.Lock()
        self._files: list[Path] = []
        self._done: dict[Path, FileSummary] = {}
        self.audited = 0   # files audited by this object (not found in the cache): for tests and the curious
        self._thread: threading.Thread | None = None
        self.background = background
        self.refresh()

    def refresh(self) -> None:
        try:
            files = sorted(self.folder.glob("*" + SUFFIX))
        except OSError:
            files = []
        with self._lock:
            self._files = files
            self._done = {}
        if not self.background:
            self._work()
        elif self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._work, name="netplay-stats", daemon=True)
            self._thread.start()

    def _count(self) -> None:
        self.audited += 1

    def _work(self) -> None:
        while True:
            with self._lock:
                todo = [p for p in self._files if p not in self._done]
            if not todo:
                self.cache.save()
                return
            for path in todo:
                try:
                    summary = self.cache.summary(path, self._count)
                except Exception as exc:   # noqa: BLE001  (a hostile file must not end the thread)
                    log.warning("statistics: %s: %s", shown(path), shown(exc, 200))
                    summary = FileSummary("unreadable", shown(f"{type(exc).__name__}: {exc}", 200))
                with self._lock:
                    self._done[path] = summary

    def progress(self) -> tuple[int, int]:
        with self._lock:
            return len(self._done), len(self._files)

    def wait(self, timeout_s: float | None = 30.0) -> None:
        """For tests and the command: until every file is summed up (or the timeout)."""
        if self._thread is not None:
            self._thread.join(timeout_s)

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stats(self) -> Stats:
        with self._lock:
            files = list(self._files)
            done = dict(self._done)
        found = [(p.name, done[p]) for p in files if p in done]
        return aggregate(found, self.my_key, pending=len(files) - len(found))

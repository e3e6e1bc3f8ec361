"""The audit: a replay re-checked from its first byte by the same Ledger a live peer runs, as a
spectator that learns every secret only when the seats reveal them at the end.

Verdicts: "valid" (every frame genuine and legal, every secret opened and re-checked, result
co-signed by every seat; exit 0), "unfinished" (nothing wrong, but the game stops early: a peer
vanished or withheld a reveal, with the seat to blame; exit 1), "invalid" (a frame the file cannot
contain honestly: forged, out of chain, against the rules, a wrong reveal, a desync; exit 1),
"unreadable" (not a replay this netplay can read; exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.core import Game, Result
from replays import codec
from replays.crypto import fingerprint
from replays.ledger import DealUnsupported, Dispute, Ledger, Rejected
from replays.reader import Replay, parse_replay, read_replay

__all__ = ["Verdict", "audit_file", "audit_replay", "audit_bytes", "EXIT"]

EXIT = {"valid": 0, "unfinished": 1, "invalid": 1, "unreadable": 2}


@dataclass(slots=True)
class Verdict:
    path: str
    status: str  # valid | unfinished | invalid | unreadable
    reason: str
    game: str = ""
    players: int = 0
    seats: list[dict[str, Any]] = field(default_factory=list)
    frames: int = 0
    checked: int = 0
    result: dict[str, Any] | None = None
    dispute: dict[str, Any] | None = None
    blame: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return EXIT[self.status]

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "verdict": self.status, "exit": self.exit_code, "reason": self.reason,
                "game": self.game, "players": self.players, "seats": self.seats, "frames": self.frames,
                "checked": self.checked, "result": self.result, "dispute": self.dispute, "blame": self.blame,
                "notes": self.notes}

    def lines(self) -> list[str]:
        """The verdict as a person reads it."""
        head = f"{self.path}: {self.status.upper()}"
        if self.game:
            head += f" - {self.game}, {self.players} seats, {self.frames} frames"
        out = [head, f"  {self.reason}"]
        for seat in self.seats:
            out.append(f"  seat {seat['seat']}: {seat['name']} key {seat['fingerprint']}")
        if self.dispute:
            d = self.dispute
            out += [f"  frame {d['frame']}, seat {d['seat']}",
                    f"    claimed: {d['claimed']}",
                    f"    the rules allow: {d['allowed']}",
                    f"    rule: {d['rule']}"]
        if self.result:
            r = self.result
            out.append(f"  result: {Result(tuple(r['winners']), tuple(r['scores']), r['reason']).describe()}")
        out += [f"  note: {n}" for n in self.notes]
        return out


def _resolve(game_id: str, games: dict[str, Game] | None) -> Game:
    if games is not None and game_id in games:
        return games[game_id]
    return engines.get(game_id)


def audit_file(path: str | os.PathLike, games: dict[str, Game] | None = None,
               on_frame: Callable[[int, int], None] | None = None) -> Verdict:
    """Audit one replay file (never raises for anything the file contains)."""
    try:
        replay = read_replay(path)
    except codec.FormatError as exc:
        return Verdict(str(path), "unreadable", exc.reason)
    except OSError as exc:
        return Verdict(str(path), "unreadable", f"cannot read the file: {exc.strerror or exc}")
    return audit_replay(replay, games, on_frame)


def audit_bytes(data: bytes, games: dict[str, Game] | None = None, name: str = "<bytes>") -> Verdict:
    try:
        replay = parse_replay(data)
    except codec.FormatError as exc:
        return Verdict(name, "unreadable", exc.reason)
    replay.path = name
    return audit_replay(replay, games)


def audit_replay(replay: Replay, games: dict[str, Game] | None = None,
                 on_frame: Callable[[int, int], None] | None = None) -> Verdict:
    return run_ledger(replay, games, on_frame)[1]


def run_ledger(replay: Replay, games: dict[str, Game] | None = None,
               on_frame: Callable[[int, int], None] | None = None) -> tuple[Ledger | None, Verdict]:
    """Feed every frame to a spectator ledger; the ledger as far as it got, and the verdict."""
    header = replay.header
    verdict = Verdict(replay.path, "valid", "", header.game, header.players,
                      [{"seat": s, "name": name, "fingerprint": fingerprint(key), "key": key.hex()}
                       for s, (key, name) in enumerate(header.seats)], len(replay.frames))
    verdict.notes += replay.notes
    if replay.torn:
        verdict.notes.append(replay.torn)
    try:
        ledger = Ledger(header, None, _resolve(header.game, games))
    except (engines.UnknownGame, ValueError) as exc:
        verdict.status, verdict.reason = "unreadable", f"cannot audit: {exc}"
        return None, verdict
    return ledger, _verdict(replay, ledger, verdict, on_frame)


def _verdict(replay: Replay, ledger: Ledger, verdict: Verdict, on_frame: Callable[[int, int], None] | None) -> Verdict:
    header = replay.header
    try:
        for n, frame in enumerate(replay.frames):
            ledger.accept(frame)
            verdict.checked = n + 1
            if on_frame is not None:
                on_frame(n, len(replay.frames))
    except Rejected as exc:
        verdict.status = "invalid"
        verdict.reason = f"frame {verdict.checked} rejected: {exc.reason}"
        return verdict
    except Dispute as exc:
        verdict.status = "invalid"
        verdict.checked = len(ledger.frames)
        verdict.dispute = exc.as_dict()
        verdict.blame = exc.seat if exc.seat >= 0 else None
        verdict.reason = f"rule dispute: {exc.reason}"
        return verdict
    except DealUnsupported as exc:
        verdict.status, verdict.reason = "unreadable", f"cannot audit: {exc}"
        return verdict
    result = ledger.result
    if result is not None:
        verdict.result = {"winners": list(result.winners), "scores": list(result.scores), "reason": result.reason}
    if ledger.status == "complete":
        verdict.reason = (f"all {len(replay.frames)} frames genuine and legal, every secret re-checked, result "
                          f"co-signed by all {header.players} seats")
        return verdict
    verdict.status = "unfinished"
    if ledger.claim is not None:
        frame_no, kind, claimant = ledger.claim
        verdict.blame = ledger.blame
        verdict.reason = (f"seat {ledger.blame} withheld its {kind} frame: seat {claimant} claimed the timeout in "
                          f"frame {frame_no}; seat {ledger.blame} is to blame")
        return verdict
    awaited = ledger.awaited()
    if awaited is None:
        verdict.reason = "the transcript stops early"
        return verdict
    kind, seat = awaited
    verdict.blame = seat
    stage = {"open": "before the game began", "seed": "during the final reveals",
             "final": "before every seat co-signed the result"}.get(kind, "in the middle of the game")
    verdict.reason = (f"the transcript stops {stage}, after {len(replay.frames)} frames, awaiting a {kind} frame "
                      f"from seat {seat} (seat {seat} vanished or withheld it, or this copy was cut short)")
    return verdict

"""A signed match: a bot game played through the ledger in one process. One Ledger per seat, each
frame built by its author, encoded, and accepted by every seat's ledger from its bytes, exactly as
peers would over the network; the transcript is written as a replay. This proves the protocol end to
end without sockets, and gives `netplay selfplay --record DIR` and the tests something to audit.

The bots are passed in (anything with the `choose(game, state, seat, legal, rng)` of bots.lib.Bot):
this layer knows the engine contract, not the bots package."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engines
from engines.core import Game, Result
from replays.crypto import generate_key, hash_parts, key_from_bytes, public_bytes
from replays.frames import Frame
from replays.header import Header, Terms
from replays.ledger import DEFAULT_CHAIN, Ledger, SeatSecrets
from replays.writer import ReplayWriter

__all__ = ["LocalRecord", "SignedMatch", "record_match", "make_seats", "replay_bytes"]


@dataclass(slots=True)
class LocalRecord:
    header: Header
    frames: list[Frame]
    result: Result | None
    path: Path | None
    ledgers: list[Ledger] = field(default_factory=list)
    actions: int = 0


def make_seats(players: int, seed: int | str | None,
               chain_length: int = DEFAULT_CHAIN) -> tuple[bytes, list[SeatSecrets]]:
    """A session id and each seat's ephemeral key and seed: random, or reproducible from `seed`."""
    if seed is None:
        session = os.urandom(16)
        seats = [SeatSecrets(s, generate_key(), os.urandom(32), chain_length) for s in range(players)]
    else:
        session = hash_parts("local-session", seed)[:16]
        seats = [SeatSecrets(s, key_from_bytes(hash_parts("local-key", seed, s)), hash_parts("local-seed", seed, s),
                             chain_length) for s in range(players)]
    return session, seats


class SignedMatch:
    """Seats of one game in this process: one Ledger per seat, bots choosing from their own knowledge
    (`bots`: one per seat, or one bot for every seat).

    `next_frame()` builds the frame the protocol awaits (a bot decision or an automatic frame) without
    delivering it; `deliver(frame)` hands its bytes to every seat's ledger. Tests use the two halves
    to tamper with frames in between; `step()` is both.
    """

    def __init__(self, game: Game | str, bots: Any, seed: int = 0, players: int | None = None,
                 options: dict[str, Any] | None = None, reproducible: bool = False,
                 chain_length: int = DEFAULT_CHAIN, created: int | None = None, terms: Terms | None = None,
                 secrets_seed: str | None = None):
        self.game = game = engines.get(game) if isinstance(game, str) else game
        self.players = players if players is not None else game.players[0]
        resolved = game.check_options(dict(options or {}))
        game.start(self.players, resolved)
        self.bots = list(bots) if isinstance(bots, (list, tuple)) else [bots] * self.players
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} seats")
        self.rngs = [random.Random(f"{seed}/{seat}") for seat in range(self.players)]
        # `secrets_seed`: the session and the seats' secrets from a seed of their own (a test's recording that must
        # be the same game in every run, yet another session than any other recording)
        self.session, self.secrets = make_seats(
            self.players, secrets_seed if secrets_seed is not None else seed if reproducible else None, chain_length)
        names = [getattr(b, "name", "bot") for b in self.bots]
        self.header = Header.make(game.id, game.rules_version, self.players, resolved,
                                  [(public_bytes(s.key), f"{names[s.seat]}-{s.seat}") for s in self.secrets],
                                  self.session, created if created is not None else (
                                      0 if reproducible else int(time.time())), terms)
        self.ledgers = [Ledger(self.header, me, game) for me in self.secrets]
        self.actions = 0

    def expects(self) -> tuple[str, int] | None:
        nxt = self.ledgers[0].expects()
        return nxt[0] if nxt else None

    def next_frame(self) -> Frame | None:
        nxt = self.expects()
        if nxt is None:
            return None
        kind, seat = nxt
        author = self.ledgers[seat]
        if kind in ("act", "commit"):
            legal = self.game.legal(author.state, seat)
            self.actions += 1
            return author.build_action(self.bots[seat].choose(self.game, author.state, seat, legal, self.rngs[seat]))
        return author.build_next()

    def deliver(self, frame: Frame | bytes) -> bytes:
        """Every seat's ledger accepts the frame from its bytes (Rejected / Dispute propagate)."""
        data = frame.encode() if isinstance(frame, Frame) else bytes(frame)
        for ledger in self.ledgers:
            # its author takes the frame as built (with what building it computed), the others its bytes
            own = isinstance(frame, Frame) and frame.checked is not None and frame.checked.ledger is ledger
            ledger.accept(frame if own else data)
        return data

    def step(self) -> Frame | None:
        frame = self.next_frame()
        if frame is not None:
            self.deliver(frame)
        return frame


def record_match(
    game_id: str | Game,
    bots: Any,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    path: str | os.PathLike | None = None,
    directory: str | os.PathLike | None = None,
    write: bool = True,
    reproducible: bool = False,
    chain_length: int = DEFAULT_CHAIN,
    sync: bool = True,
    created: int | None = None,
    max_frames: int = 1_000_000,
    stop_after: int | None = None,
    on_frame: Callable[[Frame], None] | None = None,
    secrets_seed: str | None = None,
) -> LocalRecord:
    """Play one bot game through the ledger and write its replay.

    `path` names the file; else it goes to `directory` under a
    name of date, game and players; `write=False` keeps it in memory. `seed` drives the bots'
    random choices; keys, seeds and salts are fresh random ones unless `reproducible`.
    `stop_after` ends the recording after that many frames, leaving an unfinished game (as if the
    peers vanished); running past `max_frames` without an end is an error.
    """
    match = SignedMatch(game_id, bots, seed, players, options, reproducible, chain_length, created,
                        secrets_seed=secrets_seed)
    writer = None
    if write:
        if path is not None:
            writer = ReplayWriter(path, match.header, sync)
        elif directory is not None:
            writer = ReplayWriter.in_dir(directory, match.header, sync)
        else:
            raise ValueError("record_match: name a path or a directory for the replay (or write=False)")
    record = LocalRecord(match.header, [], None, writer.path if writer else None, match.ledgers)
    try:
        for n in range(max_frames + 1):
            if stop_after is not None and n >= stop_after:
                break
            frame = match.next_frame()
            if frame is None:
                break
            if n == max_frames:
                raise RuntimeError(f"{match.game.id} seed {seed}: no end after {max_frames} frames")
            data = match.deliver(frame)
            if writer is not None:
                writer.append(data)
            record.frames.append(frame)
            if on_frame is not None:
                on_frame(frame)
    finally:
        if writer is not None:
            writer.close()
    record.result = match.ledgers[0].result
    record.actions = match.actions
    return record


def replay_bytes(record: LocalRecord) -> bytes:
    """The replay file's bytes of a record kept in memory (`write=False`)."""
    return record.header.encode() + b"".join(f.encode() for f in record.frames)

"""A peer of the shared-deck and full-table tests: `netplay host/join` for any game, or Toy Deck
(tests/support/deckgame.py, which lives only in the tests), holding one or more seats: bots, or "humans" (a
QueueDecider fed from another thread, as the UI feeds it). Prints `join with: ...` (host) and
`outcome CODE MESSAGE` at the end, like tests/support/session_peer.py."""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import threading
import time
from pathlib import Path

# run by path: the repository root and tests/ (for `from support.x import ...`) go first on the path
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from bots.lib import RandomBot  # noqa: E402
from netplay import resume  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity, KnownPeers  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from netplay.session import QueueDecider  # noqa: E402
from support.deckgame import DECK_GAME  # noqa: E402
from support.spybot import SpyDecider  # noqa: E402


class DeckBot(BotDecider):
    """The random bot for a game that has no entry in bots/."""

    def prepare(self, game) -> None:
        self.bot = RandomBot()


def _humans(session, humans: list[QueueDecider], rng: random.Random) -> None:
    """People at the keyboard (hot seat, when more than one), played by a thread: whoever's seat must
    decide reads that seat's own view under the session's lock, as the UI does, and submits a legal
    action; the others' cards are never looked at."""
    while session.outcome is None:
        time.sleep(0.01)
        with session.lock:
            transcript = session.transcript
            if transcript is None or session.phase != "play" or session.blocked():
                continue
            for seat in transcript.seats:
                decider = session.decider_for(seat)
                if decider not in humans or decider.waiting:
                    continue
                decision = transcript.ledger_for(seat).decision()
                if decision is None or decision[0] != seat:
                    continue
                legal = [a for a in decision[1] if a not in ("resign", "offer draw", "accept draw")]
                # a person who can improve a city (C&K) does: it is what brings the progress cards the
                # network tests must see dealt
                better = [a for a in legal if a.startswith("improve ")]
                if legal:
                    decider.submit(rng.choice(better or legal))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("host", "join"))
    parser.add_argument("target", nargs="?", default="", help="ADDRESS for a joiner")
    parser.add_argument("--home", required=True)
    parser.add_argument("--name", default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--game", default=None, help="a host's game (default: Toy Deck)")
    parser.add_argument("--bot", default="random", help="every bot seat's bot (spy: C&K, plays spy cards)")
    parser.add_argument("--humans", type=int, default=0, help="how many of this peer's seats are people (simulated)")
    parser.add_argument("--also", type=int, default=0, help="more seats this peer plays, each a bot")
    parser.add_argument("--replay-dir", required=True)
    parser.add_argument("--reveal-timeout", type=float, default=120.0)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--lifetime", type=float, default=180.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    os.environ["NETPLAY_HOME"] = args.home
    engines.GAMES[DECK_GAME.id] = DECK_GAME
    ident = Identity.load(name=args.name or f"{args.role}-{os.getpid()}")
    common = {"replay_dir": args.replay_dir, "reveal_timeout": args.reveal_timeout, "fsync": False,
              "on_line": lambda line: print(f"  {line}", flush=True)}
    kind = DeckBot if args.game in (None, DECK_GAME.id) else SpyDecider if args.bot == "spy" else BotDecider
    bots = [kind(args.bot, games=args.games) for _ in range(args.also + 1)]
    humans = [QueueDecider() for _ in range(args.humans)]
    for i, person in enumerate(humans):
        person.rematch = lambda done: done < args.games
        bots[i] = person
    if args.role == "host":
        also = {seat: (f"{ident.name}-{seat}", bots[seat]) for seat in range(1, args.also + 1)}
        options = dict(pair.split("=", 1) for pair in args.option)
        session = HostSession(ident, bots[0], args.game or DECK_GAME.id, players=args.players, options=options,
                              bind=args.bind, known_peers=KnownPeers(), also=also, **common)
        print(f"join with: netplay join {session.address}/{ident.fingerprint}", flush=True)
    else:
        also = [(f"{ident.name}-{i}", bots[i]) for i in range(1, args.also + 1)]
        saved = resume.saved()[0] if args.resume else None
        address = saved.address if saved is not None else args.target
        session = JoinSession(ident, bots[0], address, known_peers=KnownPeers(), also=also, saved=saved, **common)
    if humans:
        threading.Thread(target=_humans, args=(session, humans, random.Random(os.getpid())), daemon=True).start()
    outcome = session.run(max_seconds=args.lifetime)
    print(f"outcome {outcome.code} {outcome.message}", flush=True)
    return outcome.code


if __name__ == "__main__":
    sys.exit(main())

"""A peer of the shared-deck tests: `netplay host/join` for Toy Deck (tests/deckgame.py), which lives
only in the tests, with bots on every seat this peer holds. Prints `join with: ...` (host) and
`outcome CODE MESSAGE` at the end, like tests/session_peer.py."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckgame import DECK_GAME  # noqa: E402

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from bots.lib import RandomBot  # noqa: E402
from netplay import resume  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity, KnownPeers  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402


class DeckBot(BotDecider):
    """The random bot for a game that has no entry in bots/."""

    def prepare(self, game) -> None:
        self.bot = RandomBot()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("host", "join"))
    parser.add_argument("target", nargs="?", default="", help="ADDRESS for a joiner")
    parser.add_argument("--home", required=True)
    parser.add_argument("--name", default=None)
    parser.add_argument("--players", type=int, default=4)
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
    bots = [DeckBot("random", games=args.games) for _ in range(args.also + 1)]
    if args.role == "host":
        also = {seat: (f"{ident.name}-{seat}", bots[seat]) for seat in range(1, args.also + 1)}
        session = HostSession(ident, bots[0], DECK_GAME.id, players=args.players, known_peers=KnownPeers(),
                              also=also, **common)
        print(f"join with: netplay join {session.address}/{ident.fingerprint}", flush=True)
    else:
        also = [(f"{ident.name}-{i}", bots[i]) for i in range(1, args.also + 1)]
        saved = resume.saved()[0] if args.resume else None
        address = saved.address if saved is not None else args.target
        session = JoinSession(ident, bots[0], address, known_peers=KnownPeers(), also=also, saved=saved, **common)
    outcome = session.run(max_seconds=args.lifetime)
    print(f"outcome {outcome.code} {outcome.message}", flush=True)
    return outcome.code


if __name__ == "__main__":
    sys.exit(main())

"""A session peer in its own process that can lie, for the session tests.

    python tests/support/session_peer.py host GAME --home DIR [options]
    python tests/support/session_peer.py join ADDRESS --home DIR [options]

It plays like `netplay host/join --bot random` (and prints `join with: ADDRESS` the same way), but:
  --cheat SPEC                lie as the adversary strategy SPEC of simulator/adversary.py does (the same
                              classes the simulator explores), hooked into the real session: e.g.
                              withhold:KIND[:N]   never send its N-th own KIND frame (answer the claim, late)
                              vanish:KIND[:N]     from that frame on, send nothing (stay connected)
                              tamper:KIND[:N]     that frame with a changed body, properly signed
                              inject[:N]          garbage, forged, unsigned, foreign, out-of-order, replayed and
                                                  oversized frames before each of its first N decisions
                              claim-early[:KIND[:SEAT]]  claim a timeout at once against another seat
                              close-early, ahead-then-claim, veto-roll[:N], equivocate[:N] (host)
                              withhold-from[:KIND[:TO[:FROM]]] (host), double[:N] (joiner), bare-dispute[:N],
                              never-decide, stall-automatic, stall-decisions, mutate, replay, garbage, silent
  --script A,B,...            play these actions (resign, offer draw, accept draw, ...) as soon as legal
  --proto N                   pretend to speak session protocol N
  --rules-version V           (host) offer the game under another rules version
  --toy                       (host) offer a game that lives only in the tests (unknown to the joiner)
  --inputs X                  test-only determinism: session id, seeds and every bot decision derive from
                              X (and the knowledge state), so a run is repeatable, also across kill -9 and
                              resume; nothing of it reaches the CLI
  --resume                    continue the newest saved game of this home, like `join --resume` / `host --resume`
  --print-acks                (host) print `acked SEAT SEQ` when a joiner acknowledges a frame
  --reveal-timeout, --move-limit, --lateness, --frame-time    the terms a host proposes
  --quiet                     do not print the game's lines
The last line on stdout is `outcome CODE MESSAGE`; the exit status is the outcome code. Logging goes
to stderr. Everything ends after --lifetime seconds at the latest.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

# run by path: the repository root and tests/ (for `from support.x import ...`) go first on the path
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from bots.lib import RandomBot  # noqa: E402
from netplay import wire  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity, KnownPeers  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from simulator import adversary  # noqa: E402


class ScriptDecider(BotDecider):
    """The random bot, except that scripted actions are played, in order, as soon as they are legal."""

    def __init__(self, script: list[str]):
        super().__init__("random")
        self.script = list(script)

    def prepare(self, game) -> None:
        self.bot = RandomBot()

    def decide(self, game, state, seat, legal):
        if self.script and self.script[0] in legal:
            return self.script.pop(0)
        return super().decide(game, state, seat, legal)


class InputsDecider(BotDecider):
    """The random bot, its every choice drawn from `inputs`, the seat and the knowledge state's digest:
    a pure function of the game so far, so the same inputs give the same game also after a restart."""

    def __init__(self, inputs: str, games: int = 1):
        super().__init__("random", games=games)
        self.inputs = inputs

    def decide(self, game, state, seat, legal):
        self.rng = random.Random(f"{self.inputs}/{seat}/{state.plies}/{game.digest(state).hex()}")
        return super().decide(game, state, seat, legal)


class _InputsOs:
    """`os` for netplay.host / netplay.joiner with a repeatable `urandom` (session ids and seeds)."""

    def __init__(self, inputs: str, role: str):
        self._tag, self._count = f"{inputs}/{role}", 0

    def urandom(self, n: int) -> bytes:
        self._count += 1
        return hashlib.sha256(f"{self._tag}/{self._count}".encode()).digest()[:n]

    def __getattr__(self, name: str):
        return getattr(os, name)


class Tap:
    """An adversary hooked into a real session (Session.tap), printing what it does."""

    def __init__(self, liar: adversary.Adversary):
        self.liar = liar
        self.attached: Any = None

    def _attach(self, machine: Any) -> None:
        if self.attached is not machine:
            self.attached = machine
            self.liar.attach(machine)

    def _report(self) -> None:
        for line in getattr(self.liar, "lines", []):
            print(line, flush=True)
        self.liar.lines = []

    def outgoing(self, machine: Any, effects: list) -> list:
        self._attach(machine)
        out = self.liar.outgoing(machine, effects)
        self._report()
        return out

    def incoming(self, machine: Any, key: bytes, data: bytes) -> bytes | None:
        self._attach(machine)
        out = self.liar.incoming(machine, key, data)
        self._report()
        return out

    def tick(self, machine: Any) -> None:
        self._attach(machine)
        self.liar.tick(machine)
        self._report()


class _ToyGameDecider(BotDecider):
    def prepare(self, game) -> None:
        self.bot = RandomBot()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=("host", "join"))
    parser.add_argument("target", help="GAME for a host, ADDRESS for a joiner")
    parser.add_argument("--home", required=True)
    parser.add_argument("--name", default=None)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--replay-dir", required=True)
    parser.add_argument("--reveal-timeout", type=float, default=120.0)
    parser.add_argument("--move-limit", type=float, default=600.0)
    parser.add_argument("--lateness", type=float, default=60.0)
    parser.add_argument("--frame-time", type=float, default=0.5)
    parser.add_argument("--cheat", default="")
    parser.add_argument("--script", default="")
    parser.add_argument("--proto", type=int, default=None)
    parser.add_argument("--rules-version", default=None)
    parser.add_argument("--toy", action="store_true")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--lifetime", type=float, default=120.0)
    parser.add_argument("--inputs", default=None)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--print-acks", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    os.environ["NETPLAY_HOME"] = args.home
    if args.proto is not None:
        wire.PROTO = args.proto
    ident = Identity.load(name=args.name or f"{args.role}-{random.randrange(1 << 30):x}")
    decider = ScriptDecider(args.script.split(",")) if args.script else BotDecider("random", games=args.games)
    if args.inputs is not None:
        import netplay.host
        import netplay.joiner
        decider = InputsDecider(args.inputs, games=args.games)
        netplay.host.os = _InputsOs(args.inputs, "host")
        netplay.joiner.os = _InputsOs(args.inputs, "join")
    common = {"replay_dir": args.replay_dir, "reveal_timeout": args.reveal_timeout, "move_limit": args.move_limit,
              "lateness": args.lateness, "frame_time": args.frame_time, "fsync": False,
              "on_line": None if args.quiet else (lambda line: print(f"  {line}", flush=True))}
    from netplay import resume
    if args.role == "host":
        game_id = args.target
        if args.toy:
            from engines.core import Game
            from support.toygames import NimGame
            engines.GAMES["toy-nim"] = Game(NimGame())
            game_id, decider = "toy-nim", _ToyGameDecider("random")
        if args.rules_version is not None:
            engines.get(game_id).rules.rules_version = args.rules_version
        if args.resume:
            saved = resume.saved(role="host")[0]
            print(f"resuming session {saved.session[:8]} as seat {saved.seat}", flush=True)
            session = HostSession.resumed(ident, decider, saved, known_peers=KnownPeers(),
                                          replay_dir=args.replay_dir, fsync=False, on_line=common["on_line"])
        else:
            session = HostSession(ident, decider, game_id, players=args.players, bind=args.bind,
                                  known_peers=KnownPeers(), **common)
        if args.print_acks:
            session.on_ack = lambda seat, seq: print(f"acked {seat} {seq}", flush=True)
        print(f"join with: netplay join {session.address}/{ident.fingerprint}", flush=True)
    else:
        saved = None
        if args.resume:
            saved = resume.saved()[0]
            print(f"resuming session {saved.session[:8]} as seat {saved.seat}", flush=True)
        session = JoinSession(ident, decider, args.target, known_peers=KnownPeers(), saved=saved, **common)
    if args.cheat:
        session.tap = Tap(adversary.parse(args.cheat, random.Random(args.cheat)))
    outcome = session.run(max_seconds=args.lifetime)
    print(f"outcome {outcome.code} {outcome.message}", flush=True)
    return outcome.code


if __name__ == "__main__":
    sys.exit(main())

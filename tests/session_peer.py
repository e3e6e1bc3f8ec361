"""A session peer in its own process that can misbehave, for the session tests.

    python tests/session_peer.py host GAME --home DIR [options]
    python tests/session_peer.py join ADDRESS --home DIR [options]

It plays like `netplay host/join --bot random` (and prints `join with: ADDRESS` the same way), but:
  --cheat withhold:KIND[:N]   never send its N-th (default 1st) own frame of KIND (open, chain, reveal, ...)
  --cheat tamper:KIND[:N]     send its N-th own KIND frame with a changed body, properly re-signed
  --cheat inject[:N]          before each of its first N (default 3) decisions, send garbage, forged,
                              unsigned, replayed, foreign, out-of-order and oversized frames
  --script A,B,...            play these actions (resign, offer draw, accept draw, ...) as soon as legal
  --proto N                   pretend to speak session protocol N
  --rules-version V           (host) offer the game under another rules version
  --toy                       (host) offer a game that lives only in the tests (unknown to the joiner)
The last line on stdout is `outcome CODE MESSAGE`; the exit status is the outcome code. Logging goes
to stderr. Everything ends after --lifetime seconds at the latest.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import engines  # noqa: E402
from bots.decider import BotDecider  # noqa: E402
from bots.lib import RandomBot  # noqa: E402
from netplay import wire  # noqa: E402
from netplay.host import HostSession  # noqa: E402
from netplay.identity import Identity, KnownPeers  # noqa: E402
from netplay.joiner import JoinSession  # noqa: E402
from replays.certs import sign_cert  # noqa: E402
from replays.crypto import generate_key  # noqa: E402
from replays.frames import Frame, decode_frame, make_frame  # noqa: E402


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


def _cheating(base: type) -> type:
    class Cheater(base):
        cheat = ""
        counts: dict[str, int] = {}

        def _frame_msg(self, data: bytes) -> bytes:
            """A `frame` message; a cheating host certifies whatever it sends (it holds its own key)."""
            cert = b""
            if isinstance(self, HostSession):
                try:
                    frame = decode_frame(data)
                    cert = sign_cert(self.identity.private_key, frame.session, frame.seq, frame.hash)
                except Exception:
                    cert = bytes(64)
            return wire.pack("frame", data, cert)

        def _raw(self, data: bytes) -> None:
            if isinstance(self, HostSession):
                self.transport.broadcast(data)
            else:
                self.transport.send(data)

        def _emit(self, frame: Frame) -> None:
            what, _, rest = self.cheat.partition(":")
            kind, _, nth = rest.partition(":")
            if what == "inject" and frame.kind in ("act", "commit"):
                left = int(rest or 3) - self.counts.get("inject", 0)
                if left > 0:
                    self.counts["inject"] = self.counts.get("inject", 0) + 1
                    self._inject(frame)
            if what == "vanish" and (self.counts.get("vanished") or frame.kind == kind):
                # withhold this frame and every later one (stays connected, answers nothing)
                self.counts[kind] = self.counts.get(kind, 0) + (frame.kind == kind)
                if self.counts.get("vanished") or self.counts[kind] >= int(nth or 1):
                    if not self.counts.get("vanished"):
                        print(f"cheat: vanishing at {frame.kind} frame {frame.seq}", flush=True)
                    self.counts["vanished"] = 1
                    self._hold_seq = frame.seq
                    if hasattr(self, "pending"):
                        self.pending = frame
                    return
            if what in ("withhold", "tamper") and frame.kind == kind:
                self.counts[kind] = self.counts.get(kind, 0) + 1
                if self.counts[kind] == int(nth or 1):
                    if what == "withhold":
                        print(f"cheat: withholding {kind} frame {frame.seq}", flush=True)
                        self._hold_seq = frame.seq
                        if hasattr(self, "pending"):
                            self.pending = frame     # blocks this joiner as if the frame were in flight
                        return
                    bad = self._tampered(frame)
                    print(f"cheat: sending a changed {kind} frame {frame.seq}", flush=True)
                    self._raw(self._frame_msg(bad.encode()))
                    self._hold_seq = frame.seq
                    if hasattr(self, "pending"):
                        self.pending = frame
                    return
            super()._emit(frame)

        def _tampered(self, frame: Frame) -> Frame:
            body = list(frame.body)
            if frame.kind == "reveal":
                ledger = self.transcript.ledger
                legal = [a for a in ledger.game.legal(ledger.state, frame.seat) if a != body[0]]
                body[0] = legal[0] if legal else body[0] + "x"
            else:
                body[0] = bytes(b ^ 0x5A for b in body[0]) if isinstance(body[0], bytes) else body[0]
            return make_frame(self.identity.private_key, frame.session, frame.seq, frame.prev, frame.seat,
                              frame.kind, tuple(body), frame.digest)

        def _inject(self, frame: Frame) -> None:
            key = self.identity.private_key
            ledger = self.transcript.ledger
            junk = [
                b"\x00\xffthis is not msgpack at all",
                self._frame_msg(b"\x93not a frame"),
                # forged: the right place in the chain, signed by a key that holds no seat
                self._frame_msg(make_frame(generate_key(), frame.session, frame.seq, frame.prev, frame.seat,
                                              frame.kind, frame.body, frame.digest).encode()),
                # unsigned: an all-zero signature
                self._frame_msg(frame.encode()[:-64] + bytes(64)),
                # another session
                self._frame_msg(make_frame(key, os.urandom(16), frame.seq, frame.prev, frame.seat, frame.kind,
                                              frame.body, frame.digest).encode()),
                # out of order: a frame far ahead
                self._frame_msg(make_frame(key, frame.session, frame.seq + 5, frame.prev, frame.seat, frame.kind,
                                              frame.body, frame.digest).encode()),
                # oversized
                self._frame_msg(bytes(wire.MAX_FRAME + 1)),
                wire.pack("chat", -1, "x" * 100) + b"trailing",
                b"\x92\xa3zap\xc0",
            ]
            if ledger.frames:
                junk.append(self._frame_msg(ledger.frames[-1].encode()))             # replayed
                junk.append(self._frame_msg(ledger.frames[0].encode()))              # replayed, old
            for data in junk:
                self._raw(data)

    return Cheater


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
    parser.add_argument("--cheat", default="")
    parser.add_argument("--script", default="")
    parser.add_argument("--proto", type=int, default=None)
    parser.add_argument("--rules-version", default=None)
    parser.add_argument("--toy", action="store_true")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--lifetime", type=float, default=120.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    os.environ["NETPLAY_HOME"] = args.home
    if args.proto is not None:
        wire.PROTO = args.proto
    ident = Identity.load(name=args.name or f"{args.role}-{random.randrange(1 << 30):x}")
    decider = ScriptDecider(args.script.split(",")) if args.script else BotDecider("random", games=args.games)
    common = {"replay_dir": args.replay_dir, "reveal_timeout": args.reveal_timeout, "fsync": False,
              "on_line": lambda line: print(f"  {line}", flush=True)}
    if args.role == "host":
        game_id = args.target
        if args.toy:
            from toygames import NimGame

            from engines.core import Game
            engines.GAMES["toy-nim"] = Game(NimGame())
            game_id, decider = "toy-nim", _ToyGameDecider("random")
        if args.rules_version is not None:
            engines.get(game_id).rules.rules_version = args.rules_version
        cls = _cheating(HostSession)
        cls.cheat = args.cheat
        session = cls(ident, decider, game_id, players=args.players, bind=args.bind, known_peers=KnownPeers(),
                      **common)
        print(f"join with: netplay join {session.address}/{ident.fingerprint}", flush=True)
    else:
        cls = _cheating(JoinSession)
        cls.cheat = args.cheat
        session = cls(ident, decider, args.target, known_peers=KnownPeers(), **common)
    outcome = session.run(max_seconds=args.lifetime)
    print(f"outcome {outcome.code} {outcome.message}", flush=True)
    return outcome.code


if __name__ == "__main__":
    sys.exit(main())

"""A session peer in its own process that can misbehave, for the session tests.

    python tests/session_peer.py host GAME --home DIR [options]
    python tests/session_peer.py join ADDRESS --home DIR [options]

It plays like `netplay host/join --bot random` (and prints `join with: ADDRESS` the same way), but:
  --cheat withhold:KIND[:N]   never send its N-th (default 1st) own frame of KIND (open, chain, reveal, ...)
  --cheat tamper:KIND[:N]     send its N-th own KIND frame with a changed body (an act: an illegal action),
                              properly re-signed
  --cheat inject[:N]          before each of its first N (default 3) decisions, send garbage, forged,
                              unsigned, replayed, foreign, out-of-order and oversized frames
  --cheat claim-early[:KIND[:SEAT]]  claim a timeout at once (no deadline) against the first other seat
                              (SEAT only, if given) whose KIND frame (any kind if none) is awaited; a host
                              sequences its own claim, a joiner sends it to the host
  --cheat veto-roll[:N]       (host) drop the joiner's chain frame that completes the N-th chance point
                              after computing the roll, drop its answers, and claim the timeout at once
  --cheat bare-dispute[:N]    before each of its first N decisions, report disputes with no evidence,
                              garbage, an accepted frame and an unsigned one as "evidence"
  --cheat equivocate[:N]      (host, 3 seats) sign two different actions for its N-th own act, send one
                              to each joiner (each under a host certificate)
  --cheat withhold-from:KIND:TO:FROM  (host) never pass seat FROM's KIND frames to seat TO (live or resume)
  --cheat double[:N]          (joiner) send a second, different frame for the slot of its N-th decision
  --script A,B,...            play these actions (resign, offer draw, accept draw, ...) as soon as legal
  --proto N                   pretend to speak session protocol N
  --rules-version V           (host) offer the game under another rules version
  --toy                       (host) offer a game that lives only in the tests (unknown to the joiner)
  --inputs X                  test-only determinism: session id, seeds and every bot decision derive from
                              X (and the knowledge state), so a run is repeatable, also across kill -9 and
                              resume; nothing of it reaches the CLI
  --resume                    (join) continue the newest saved game of this home, like `join --resume`
  --print-acks                (host) print `acked SEAT SEQ` when a joiner acknowledges a frame
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
from replays.codec import FormatError  # noqa: E402
from replays.crypto import generate_key  # noqa: E402
from replays.frames import Frame, decode_frame, make_frame  # noqa: E402
from replays.ledger import Dispute, Rejected  # noqa: E402


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

        def _count(self, key: str) -> int:
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]

        def _emit(self, frame: Frame) -> None:
            what, _, rest = self.cheat.partition(":")
            kind, _, nth = rest.partition(":")
            if what == "bare-dispute" and frame.kind in ("act", "commit") and self._count("dispute") <= int(rest or 3):
                self._bare_disputes(frame)
            if (what == "equivocate" and frame.kind == "act" and self._count("act") == int(rest or 1)
                    and self._equivocate(frame)):
                return
            if what == "double" and frame.kind == "act" and self._count("double") == int(rest or 1):
                self._double(frame)
                return
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
                    self._hold_seq = frame.seq      # (not `pending`: it never pretends to have sent anything)
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

        # ---------------------------------------------------------------- claims without a deadline

        def _timers(self) -> None:
            if self.cheat.startswith("claim-early") and not self.counts.get("claimed") and self.phase == "play":
                self._claim_early()
            super()._timers()

        def _claim_early(self) -> None:
            ledger = self.transcript.ledger
            _, want, target = (self.cheat.split(":") + ["", ""])[:3]
            nxt = ledger.claimable()
            if (nxt is None or nxt[1] == self.transcript.seat or (want and nxt[0] != want)
                    or (target and nxt[1] != int(target)) or self.blocked()):
                return
            self.counts["claimed"] = 1
            print(f"cheat: claiming at once that seat {nxt[1]} withheld its {nxt[0]} frame {len(ledger.frames)}",
                  flush=True)
            frame = ledger.build_timeout()
            if isinstance(self, HostSession):
                self._emit(frame)
            else:
                self._claim_frame, self._claim_deadline = frame, 1e18   # never recorded locally: only a lie
                self.transport.send(wire.pack("frame", frame.encode(), b""))

        # ---------------------------------------------------------------- a host that vetoes a roll

        def _on_frame(self, *fields) -> None:
            if isinstance(self, HostSession) and self.cheat.startswith("veto-roll") and self._veto(*fields[:2]):
                return
            super()._on_frame(*fields)

        def _veto(self, conn, data: bytes) -> bool:
            ledger = self.transcript.ledger if self.transcript is not None else None
            try:
                frame = decode_frame(data)
            except FormatError:
                return False
            if ledger is None or frame.seq != len(ledger.frames):
                return False
            if self.counts.get("vetoing") == frame.seat:      # its answers (and contest) are dropped too
                print(f"cheat: dropping seat {frame.seat}'s {frame.kind} frame {frame.seq}", flush=True)
                return True
            if frame.kind != "chain" or self.counts.get("vetoing") is not None:
                return False
            waiting = ledger.game.awaiting(ledger.state)
            if len(ledger.contributions) + 1 != len(ledger.contributors(waiting.chance)):
                return False                                    # not the contribution that completes the roll
            if self._count("rolls") != int(self.cheat.split(":")[1] if ":" in self.cheat else 1):
                return False
            from replays.randomness import outcome, public_chance_bytes
            roll = (outcome(waiting.chance, public_chance_bytes(ledger.session, ledger.chance_index,
                                                                [*ledger.contributions, (frame.seat, frame.body[0])]))
                    if waiting.chance.private_to is None else "(private)")
            print(f"cheat: seat {frame.seat}'s chain frame {frame.seq} would roll {roll}: vetoing it", flush=True)
            self.counts["vetoing"] = frame.seat
            self._emit(ledger.build_timeout())
            return True

        # ---------------------------------------------------------------- a relay that lies

        def _relay(self, frame: Frame) -> None:   # (hosts only)
            what, _, rest = self.cheat.partition(":")
            if what == "withhold-from":
                kind, seat, source = self._withheld()
                if frame.kind == kind and frame.seat == source:
                    print(f"cheat: not passing seat {frame.seat}'s {kind} frame {frame.seq} to seat {seat}", flush=True)
                    cert = sign_cert(self.identity.private_key, self.header.session, frame.seq, frame.hash)
                    message = wire.pack("frame", frame.encode(), cert)
                    for conn in self.conns.values():
                        if conn.seat is not None and conn.connected and conn.seat != int(seat):
                            self.transport.send(conn.key, message)
                    return
            super()._relay(frame)

        def _resume(self, conn, session: bytes, seq: int, frame_hash: bytes) -> None:   # (hosts only)
            if not self.cheat.startswith("withhold-from") or self.transcript is None:
                super()._resume(conn, session, seq, frame_hash)
                return
            kind, seat, source = self._withheld()
            if conn.seat != int(seat):
                super()._resume(conn, session, seq, frame_hash)
                return
            frames = self.transcript.ledger.frames   # as the honest host, but without the withheld frames
            for frame in frames[seq + 1:]:
                if frame.kind == kind and frame.seat == source:
                    print(f"cheat: not resending frame {frame.seq} to seat {seat}", flush=True)
                    continue
                cert = sign_cert(self.identity.private_key, self.header.session, frame.seq, frame.hash)
                self.transport.send(conn.key, wire.pack("frame", frame.encode(), cert))
            self.transport.send(conn.key, wire.pack("synced", len(frames) - 1))

        def _withheld(self) -> tuple[str, int, int]:
            """withhold-from:KIND:TO:FROM -> (KIND, TO, FROM)."""
            _, kind, to, source = self.cheat.split(":")
            return kind, int(to), int(source)

        def _equivocate(self, frame: Frame) -> bool:
            """Our act: `frame` to the lowest joiner seat, another legal action, signed for the same slot,
            to the others; both under our certificate. Our own ledger keeps the first."""
            ledger = self.transcript.ledger
            others = [a for a in ledger.decision()[1] if a != frame.body[0] and a not in ("resign", "offer draw")]
            seats = sorted(c.seat for c in self.conns.values() if c.seat is not None and c.connected)
            if not others or len(seats) < 2:
                return False
            twin = ledger.build_action(others[0])
            try:
                self.transcript.accept(frame)
            except (Rejected, Dispute) as exc:
                self.finish(1, f"own frame refused: {exc}")
                return True
            print(f"cheat: frame {frame.seq}: {frame.body[0]!r} to seat {seats[0]}, {twin.body[0]!r} to the others",
                  flush=True)
            for conn in self.conns.values():
                if conn.seat is not None and conn.connected:
                    sent = frame if conn.seat == seats[0] else twin
                    self.transport.send(conn.key, self._frame_msg(sent.encode()))
            for line in self.transcript.lines():
                self.say(line)
            self._after_accept(frame)
            return True

        def _on_ack(self, conn, seq, frame_hash, cert, sig) -> None:   # (hosts only: joiners take no ack)
            if self.cheat.startswith("equivocate") and self.players > 2:   # pass every ack on, as a relay does
                for other in self.conns.values():
                    if other is not conn and other.connected and other.seat is not None:
                        self.transport.send(other.key, wire.pack("acked", conn.seat, seq, frame_hash, cert, sig))
                conn.acked = max(conn.acked, seq)
                return
            super()._on_ack(conn, seq, frame_hash, cert, sig)

        # ---------------------------------------------------------------- reports and frames that lie

        def _bare_disputes(self, frame: Frame) -> None:
            ledger = self.transcript.ledger
            reports = [b"", b"\x93not a frame", frame.encode()[:-64] + bytes(64)]
            if ledger.frames:
                reports.append(ledger.frames[-1].encode())
            print(f"cheat: {len(reports)} dispute reports without proof", flush=True)
            for evidence in reports:
                self._raw(wire.pack("dispute", evidence, "seat 0 cheated, believe me"))

        def _double(self, frame: Frame) -> None:
            """A joiner's decision sent twice for one slot, the second one different (signed by us)."""
            ledger = self.transcript.ledger
            others = [a for a in ledger.decision()[1] if a != frame.body[0] and a not in ("resign", "offer draw")]
            super()._emit(frame)
            if others:
                twin = ledger.build_action(others[0])
                print(f"cheat: a second frame {twin.seq} ({twin.body[0]!r}) for the same slot", flush=True)
                self._raw(self._frame_msg(twin.encode()))

        def _tampered(self, frame: Frame) -> Frame:
            body = list(frame.body)
            if frame.kind == "act":
                body[0] = "no such move 99"      # an illegal action, properly signed
            elif frame.kind == "reveal":
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
    common = {"replay_dir": args.replay_dir, "reveal_timeout": args.reveal_timeout, "fsync": False,
              "on_line": None if args.quiet else (lambda line: print(f"  {line}", flush=True))}
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
        if args.print_acks:
            session.on_ack = lambda seat, seq: print(f"acked {seat} {seq}", flush=True)
        print(f"join with: netplay join {session.address}/{ident.fingerprint}", flush=True)
    else:
        cls = _cheating(JoinSession)
        cls.cheat = args.cheat
        saved = None
        if args.resume:
            from netplay import resume
            saved = resume.saved()[0]
            print(f"resuming session {saved.session[:8]} as seat {saved.seat}", flush=True)
        session = cls(ident, decider, args.target, known_peers=KnownPeers(), saved=saved, **common)
    outcome = session.run(max_seconds=args.lifetime)
    print(f"outcome {outcome.code} {outcome.message}", flush=True)
    return outcome.code


if __name__ == "__main__":
    sys.exit(main())

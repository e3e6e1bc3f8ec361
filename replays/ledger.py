"""The ledger: the one validator and applier of frames, used by the live session and by the audit.

A `Ledger` holds the frame chain of one session and the engine state of one seat's knowledge (or of a
spectator's, for the audit): other seats' private chance outcomes and secret choices are HIDDEN in
it, exactly as in bots/selfplay.py. It says which frame it awaits next (`expects`), builds this
seat's own frames (`build_*`), and `accept`s frames from anyone, own frames included, so that what
this peer sends and what it accepts pass the same checks.

`accept` raises `Rejected` for a frame that cannot be attributed or does not belong here (malformed,
wrong session, replayed, out of order, not chained, bad signature); the ledger is untouched and the
frame should be dropped. It raises `Dispute` for a correctly signed, correctly chained frame whose
content the protocol or the rules forbid (wrong turn, illegal action, wrong reveal, digest mismatch):
the ledger halts, keeps the frame as evidence, and the dispute names the frame, the seat, what was
claimed, what was allowed and the rule. The frame kinds and bodies are specified in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.core import HIDDEN, Chance, Game, IllegalAction, Result, State, interrupts_step
from replays import codec
from replays.crypto import SigningKey, load_public
from replays.frames import Frame, decode_frame, make_frame
from replays.header import Header
from replays.randomness import (
    MAX_CHAIN,
    DealUnsupported,
    chain_link,
    chain_reaches,
    chain_secret,
    choice_commitment,
    make_chain,
    outcome,
    private_chance_bytes,
    private_mac,
    public_chance_bytes,
    salt_for,
    seed_commitment,
)

__all__ = ["Ledger", "SeatSecrets", "Rejected", "Dispute", "Event", "DealUnsupported", "DEFAULT_CHAIN"]

DEFAULT_CHAIN = 128
MAX_ACTION = 256
_SHOWN_LEGAL = 12


class Rejected(Exception):
    """A frame dropped without effect; `reason` says why."""

    def __init__(self, reason: str, frame_no: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.frame_no = frame_no


class Dispute(Exception):
    """A signed frame that breaks the protocol or the rules; `seat` is to blame for frame `frame_no`."""

    def __init__(self, frame_no: int, seat: int, claimed: str, allowed: str, rule: str, reason: str):
        super().__init__(f"frame {frame_no}, seat {seat}: {reason}")
        self.frame_no, self.seat, self.claimed, self.allowed, self.rule, self.reason = (
            frame_no, seat, claimed, allowed, rule, reason)

    def as_dict(self) -> dict[str, Any]:
        return {"frame": self.frame_no, "seat": self.seat, "claimed": self.claimed, "allowed": self.allowed,
                "rule": self.rule, "reason": self.reason}


@dataclass(slots=True)
class SeatSecrets:
    """What only this seat knows: its signing key and its private seed. Chain secrets and commitment
    salts are derived from the seed, so a peer that restarts needs nothing else to go on."""

    seat: int
    key: SigningKey
    seed: bytes
    chain_length: int = DEFAULT_CHAIN


@dataclass(slots=True)
class Event:
    """One application to the engine, in order: a chance outcome or a seat's play.

    `value` is what the ledger applied (HIDDEN where it did not know); `full` is the value once every
    secret is revealed (filled in by the end-of-game re-simulation, or known from the start).
    """

    frame_no: int  # the frame that carries it (the commit or reveal of a simultaneous choice)
    at: int  # the frame whose acceptance applied it (the last commit or reveal of a simultaneous step)
    kind: str  # "chance" | "play"
    seat: int | None  # the player for a play, the private owner (or None) for a chance point
    value: Any
    full: Any = None
    chance: Chance | None = None
    index: int = 0  # chance index, or simultaneous round number
    contributions: tuple = ()
    secret: bool = False


@dataclass(slots=True)
class _Chain:
    last: bytes  # the tail, then the last revealed value
    length: int
    used: int = 0
    generation: int = 0


@dataclass(slots=True)
class _Round:
    number: int
    seats: tuple[int, ...]
    secret: bool
    commits: dict[int, tuple[bytes, int]] = field(default_factory=dict)  # seat -> (commitment, frame no)
    reveals: dict[int, tuple[str, int]] = field(default_factory=dict)  # seat -> (action, frame no)


_CLOSED = ("complete", "unfinished", "disputed")


def _hex(data: bytes) -> str:
    return data.hex()


def _is_bytes(value: Any, n: int) -> bool:
    return type(value) is bytes and len(value) == n


class Ledger:
    """See the module docstring. `me` is None for a spectator or the audit."""

    def __init__(self, header: Header, me: SeatSecrets | None = None, game: Game | None = None):
        self.header = header
        self.game = game if game is not None else engines.get(header.game)
        if self.game.rules_version != header.rules_version:
            raise ValueError(f"{header.game}: the replay follows rules version {header.rules_version!r}, this "
                             f"netplay has {self.game.rules_version!r}")
        self.players = header.players
        self.session = header.session
        self.publics = [load_public(key) for key, _ in header.seats]
        self.state: State = self.game.start(self.players, header.option_dict)
        self.digest: bytes = self.game.digest(self.state)
        self.me = me
        if me is not None:
            from replays.crypto import public_bytes
            if not 0 <= me.seat < self.players or public_bytes(me.key) != header.seats[me.seat][0]:
                raise ValueError(f"seat {me.seat}'s key is not the one in the header")
        self.frames: list[Frame] = []
        self.last_hash = header.hash
        self.status = "open"  # open, play, reveal, cosign, complete, unfinished, disputed
        self.chains: list[_Chain | None] = [None] * self.players
        self.seed_commits: list[bytes | None] = [None] * self.players
        self.chance_index = 0
        self.contributions: list[tuple[int, bytes]] = []
        self.round_count = 0
        self.round: _Round | None = None
        self.secret_commits: list[list[tuple[int, int, bytes]]] = [[] for _ in range(self.players)]
        self.seeds: dict[int, tuple[bytes, tuple]] = {}
        self.finals: set[int] = set()
        self.events: list[Event] = []
        self.hidden_events = 0
        self.dispute: Dispute | None = None
        self.blame: int | None = None  # the seat a timeout claim names
        self.claim: tuple[int, str, int] | None = None  # (frame no, awaited kind, claimant)
        self.resimulated = False
        self._my_chains: dict[int, list[bytes]] = {}
        self._built: tuple | None = None  # (frame, state, commit, digest) of the last own frame built
        self._my_choices: dict[int, str] = {}

    # ------------------------------------------------------------------------------ what comes next

    def expects(self) -> list[tuple[str, int]]:
        """The frame(s) acceptable next as (kind, seat); [] once the session is closed.

        Frames come one at a time in a fixed order, so this is one entry, except that at a
        simultaneous step the expected seat may instead send an `act` frame with a common action
        (resign, offer draw), and that any other seat may send a `timeout` claim (not listed)."""
        nxt = self._next()
        return [] if nxt is None else [nxt]

    def _next(self) -> tuple[str, int] | None:
        if self.status in _CLOSED:
            return None
        if self.status == "open":
            return ("open", next(s for s in range(self.players) if self.chains[s] is None))
        if self.status == "reveal":
            return ("seed", next(s for s in range(self.players) if s not in self.seeds))
        if self.status == "cosign":
            return ("final", next(s for s in range(self.players) if s not in self.finals))
        waiting = self.game.awaiting(self.state)
        if waiting.kind == "move":
            return ("act", waiting.seats[0])
        if waiting.kind == "chance":
            return ("chain", self._contributors(waiting.chance)[len(self.contributions)])
        if waiting.kind == "simultaneous":
            rnd = self._current_round(waiting.seats, waiting.secret)
            for seat in rnd.seats:
                if seat not in rnd.commits:
                    return ("commit", seat)
            for seat in rnd.seats:
                if seat not in rnd.reveals:
                    return ("reveal", seat)
        raise RuntimeError(f"{self.game.id}: unexpected awaiting {waiting!r} with status {self.status}")

    def decision(self) -> tuple[int, list[str]] | None:
        """(seat, legal actions) when the next frame is a seat's choice (act or commit), else None."""
        nxt = self._next()
        if nxt is None or nxt[0] not in ("act", "commit"):
            return None
        return nxt[1], self.game.legal(self.state, nxt[1])

    @property
    def closed(self) -> bool:
        return self.status in _CLOSED

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state)

    def _contributors(self, chance: Chance | None) -> list[int]:
        if chance is None:
            raise RuntimeError("a chance point without its domain")
        if chance.kind == "deal":
            raise DealUnsupported(chance)
        playing = [s for s in range(self.players) if s not in self.state.out]
        if chance.private_to is None:
            return playing
        others = [s for s in playing if s != chance.private_to]
        return others or [chance.private_to]

    def _current_round(self, seats: tuple[int, ...], secret: bool) -> _Round:
        if self.round is None:
            self.round = _Round(self.round_count, tuple(seats), secret)
            self.round_count += 1
        return self.round

    # ------------------------------------------------------------------------------ accepting

    def accept(self, frame: Frame | bytes) -> Frame:
        """Validate and apply one frame (see the module docstring for Rejected vs Dispute)."""
        if not isinstance(frame, Frame):
            try:
                frame = decode_frame(frame)
            except codec.FormatError as exc:
                raise Rejected(f"malformed frame: {exc.reason}") from None
        expected_no = len(self.frames)
        if frame.session != self.session:
            raise Rejected(f"frame for another session ({_hex(frame.session)}, this is {_hex(self.session)})")
        if frame.seq != expected_no:
            if frame.seq < expected_no and self.frames[frame.seq].hash == frame.hash:
                raise Rejected(f"replayed frame: frame {frame.seq} was already accepted", frame.seq)
            if frame.seq < expected_no:
                raise Rejected(f"stale or conflicting frame {frame.seq}: frame {frame.seq} is already another one "
                               f"(this ledger is at frame {expected_no})", frame.seq)
            raise Rejected(f"out of order: frame {frame.seq} arrived, frame {expected_no} is next", frame.seq)
        if self.status in _CLOSED:
            raise Rejected(f"the session is closed ({self.status}); frame {frame.seq} is not accepted", frame.seq)
        if frame.prev != self.last_hash:
            raise Rejected(f"frame {frame.seq} does not chain onto the previous frame (prev hash mismatch)",
                           frame.seq)
        if not frame.seat < self.players:
            raise Rejected(f"frame {frame.seq} names seat {frame.seat}; this game has {self.players} seats", frame.seq)
        built, self._built = self._built, None
        own = built is not None and built[0].hash == frame.hash and built[0].signature == frame.signature
        if not own and not frame.verify(self.publics[frame.seat]):
            raise Rejected(f"frame {frame.seq}: bad signature, not made by seat {frame.seat}'s key "
                           "(forged or corrupted)", frame.seq)
        try:
            if own:  # the very frame this ledger just built and signed at this point: checked then, not twice
                _, new_state, commit, digest = built
            else:
                new_state, commit = self._transition(frame.seat, frame.kind, frame.body, frame.seq)
                digest = self.digest if new_state is self.state else self.game.digest(new_state)
            if frame.digest != digest:
                raise Dispute(frame.seq, frame.seat, _hex(frame.digest), _hex(digest), "state digest",
                              f"desync at frame {frame.seq}: seat {frame.seat}'s state digest after the frame is "
                              f"{_hex(frame.digest)[:16]}..., this peer's is {_hex(digest)[:16]}...")
        except Dispute as dispute:
            self._halt(frame, dispute)
            raise
        except IllegalAction as exc:  # an engine refusing what the ledger let through: still that seat's frame
            dispute = Dispute(frame.seq, frame.seat, frame.kind, "", exc.reason, f"the engine refused it: {exc.reason}")
            self._halt(frame, dispute)
            raise dispute from None
        commit()
        self.state, self.digest = new_state, digest
        self.frames.append(frame)
        self.last_hash = frame.hash
        if self.status == "play" and self.game.result(self.state) is not None:
            self.status = "reveal"
        if self.status == "reveal" and len(self.seeds) == self.players:
            self.status = "cosign"
            try:
                self._resimulate()
            except Dispute as dispute:
                self.status = "disputed"
                self.dispute = dispute
                raise
        if self.status == "cosign" and len(self.finals) == self.players:
            self.status = "complete"
        return frame

    def _halt(self, frame: Frame, dispute: Dispute) -> None:
        self.frames.append(frame)
        self.last_hash = frame.hash
        self.status = "disputed"
        self.dispute = dispute

    def _wrong_turn(self, seat: int, kind: str, frame_no: int, nxt: tuple[str, int]) -> Dispute:
        return Dispute(frame_no, seat, f"a {kind} frame from seat {seat}", f"a {nxt[0]} frame from seat {nxt[1]}",
                       "turn order", f"seat {seat} sent a {kind} frame out of turn (the protocol awaits a {nxt[0]} "
                       f"frame from seat {nxt[1]})")

    def _transition(self, seat: int, kind: str, body: tuple, frame_no: int) -> tuple[State, Callable[[], None]]:
        """Check a frame's content against the protocol and the rules; return the new knowledge state and
        the bookkeeping to commit once the digest matches. Raises Dispute; changes nothing itself."""
        nxt = self._next()
        if kind == "timeout":
            return self._on_timeout(seat, body, frame_no, nxt)
        if nxt is None:
            raise Dispute(frame_no, seat, kind, "nothing", "session over", "the session awaits no more frames")
        if kind == "act" and nxt == ("commit", seat):
            return self._on_act(seat, body, frame_no, interrupt=True)
        if (kind, seat) != nxt:
            raise self._wrong_turn(seat, kind, frame_no, nxt)
        handler = getattr(self, "_on_" + kind)
        return handler(seat, body, frame_no)

    def _bad_body(self, seat: int, kind: str, frame_no: int, shape: str) -> Dispute:
        return Dispute(frame_no, seat, f"a malformed {kind} body", shape, "frame format",
                       f"seat {seat}'s {kind} frame does not have the body {shape}")

    # --- open: [chain tail, chain length, seed commitment]
    def _on_open(self, seat: int, body: tuple, frame_no: int):
        if (len(body) != 3 or not _is_bytes(body[0], 32) or type(body[1]) is not int
                or not 1 <= body[1] <= MAX_CHAIN or not _is_bytes(body[2], 32)):
            raise self._bad_body(seat, "open", frame_no, f"[tail (32 bytes), length 1..{MAX_CHAIN}, seed commitment]")
        tail, length, commit = body

        def done() -> None:
            self.chains[seat] = _Chain(tail, length)
            self.seed_commits[seat] = commit
            if all(c is not None for c in self.chains):
                self.status = "play"
        return self.state, done

    # --- act: [action text]
    def _on_act(self, seat: int, body: tuple, frame_no: int, interrupt: bool = False):
        if len(body) != 1 or type(body[0]) is not str or not 0 < len(body[0]) <= MAX_ACTION:
            raise self._bad_body(seat, "act", frame_no, "[action text]")
        action = body[0]
        if interrupt and not interrupts_step(action):
            raise Dispute(frame_no, seat, action, "a commit frame, or a common action (resign, offer draw)",
                          "simultaneous choices are committed",
                          f"seat {seat} played {action!r} openly in a simultaneous step instead of committing it")
        new_state = self._play(self.state, seat, action, frame_no)

        def done() -> None:
            self.events.append(Event(frame_no, frame_no, "play", seat, action, action))
            if interrupt:
                self.round = None  # the step is interrupted: everyone commits afresh afterwards
        return new_state, done

    def _play(self, state: State, seat: int, action: Any, frame_no: int, when: str = "") -> State:
        try:
            return self.game.play(state, seat, action)
        except IllegalAction as exc:
            legal = self.game.legal(state, seat)
            shown = ", ".join(legal[:_SHOWN_LEGAL]) + (f", ... ({len(legal)} in all)" if len(legal) > _SHOWN_LEGAL
                                                         else "")
            raise Dispute(frame_no, seat, str(action), shown or "no action", exc.reason,
                          f"seat {seat} played {action!r}{when}, which the rules forbid: {exc.reason}") from None

    # --- chain: [value, renewal] with renewal nil or [new tail, new length]
    def _on_chain(self, seat: int, body: tuple, frame_no: int):
        if len(body) != 2 or not _is_bytes(body[0], 32) or not (
                body[1] is None or (type(body[1]) is tuple and len(body[1]) == 2 and _is_bytes(body[1][0], 32)
                                    and type(body[1][1]) is int and 1 <= body[1][1] <= MAX_CHAIN)):
            raise self._bad_body(seat, "chain", frame_no, "[value (32 bytes), nil or [new tail, new length]]")
        value, renewal = body
        chain = self.chains[seat]
        if chain_link(self.session, seat, value) != chain.last:
            raise Dispute(frame_no, seat, _hex(value), f"a value that hashes to {_hex(chain.last)}",
                          "hash chain", f"seat {seat} revealed a chain value that does not hash to its previous "
                          "one (a changed or forged random contribution)")
        last = chain.used + 1 == chain.length
        if last and renewal is None:
            raise Dispute(frame_no, seat, "no renewal", "a new chain tail", "hash chain",
                          f"seat {seat} revealed the last value of its chain without committing a new chain")
        if renewal is not None and not last:
            raise Dispute(frame_no, seat, "a renewal", "no renewal before the chain is used up", "hash chain",
                          f"seat {seat} renewed its chain before using it up")
        waiting = self.game.awaiting(self.state)
        contributions = [*self.contributions, (seat, value)]
        complete = len(contributions) == len(self._contributors(waiting.chance))
        new_state = self.state
        event = None
        if complete:
            chance = waiting.chance
            index = self.chance_index
            owner = chance.private_to
            if owner is None:
                value_out = outcome(chance, public_chance_bytes(self.session, index, contributions))
                applied, full = value_out, value_out
            elif self.me is not None and self.me.seat == owner:
                mac = private_mac(self.me.seed, self.session, index)
                applied = outcome(chance, private_chance_bytes(self.session, index, owner, mac, contributions))
                full = applied
            else:
                applied, full = HIDDEN, None
            new_state = self.game.chance(self.state, applied)
            event = Event(frame_no, frame_no, "chance", owner, applied, full, chance, index, tuple(contributions))

        def done() -> None:
            if renewal is not None:
                self.chains[seat] = _Chain(renewal[0], renewal[1], 0, chain.generation + 1)
            else:
                chain.last, chain.used = value, chain.used + 1
            if complete:
                self.contributions = []
                self.chance_index += 1
                self.events.append(event)
                if event.seat is not None:
                    self.hidden_events += 1
            else:
                self.contributions = contributions
        return new_state, done

    # --- commit: [commitment]
    def _on_commit(self, seat: int, body: tuple, frame_no: int):
        if len(body) != 1 or not _is_bytes(body[0], 32):
            raise self._bad_body(seat, "commit", frame_no, "[commitment (32 bytes)]")
        rnd = self.round
        commitment = body[0]
        mine = self.me is not None and self.me.seat == seat
        choice = self._my_choice(rnd, commitment) if mine else None
        commits = {**rnd.commits, seat: (commitment, frame_no)}
        new_state = self.state
        events: list[Event] = []
        if rnd.secret and len(commits) == len(rnd.seats):
            # every choice is in: apply them in seat order, as HIDDEN where not ours
            for s in rnd.seats:
                own = self.me is not None and self.me.seat == s
                action = (choice if s == seat else self._my_choices.get(rnd.number)) if own else HIDDEN
                new_state = self._play(new_state, s, action, commits[s][1], " (a secret choice)")
                events.append(Event(commits[s][1], frame_no, "play", s, action, action if own else None,
                                    index=rnd.number, secret=True))

        def done() -> None:
            rnd.commits[seat] = (commitment, frame_no)
            if mine and choice is not None:
                self._my_choices[rnd.number] = choice
            if events:  # a secret round is complete: its commitments are opened in the seed frames
                for s, (c, no) in rnd.commits.items():
                    self.secret_commits[s].append((rnd.number, no, c))
                self.events.extend(events)
                self.hidden_events += len(events)
                self.round = None
        return new_state, done

    def _my_choice(self, rnd: _Round, commitment: bytes) -> str | None:
        """Our own committed choice: remembered, or recovered from the seed (after a restart)."""
        me = self.me
        salt = salt_for(me.seed, self.session, rnd.number)
        known = self._my_choices.get(rnd.number)
        if known is not None and choice_commitment(self.session, rnd.number, me.seat, known, salt) == commitment:
            return known
        for action in self.game.legal(self.state, me.seat):
            if choice_commitment(self.session, rnd.number, me.seat, action, salt) == commitment:
                return action
        return None

    # --- reveal: [action text, salt]
    def _on_reveal(self, seat: int, body: tuple, frame_no: int):
        if (len(body) != 2 or type(body[0]) is not str or not 0 < len(body[0]) <= MAX_ACTION
                or not _is_bytes(body[1], 32)):
            raise self._bad_body(seat, "reveal", frame_no, "[action text, salt (32 bytes)]")
        action, salt = body
        rnd = self.round
        commitment, commit_no = rnd.commits[seat]
        if choice_commitment(self.session, rnd.number, seat, action, salt) != commitment:
            raise Dispute(frame_no, seat, action, f"the choice committed in frame {commit_no}", "choice commitment",
                          f"seat {seat}'s revealed choice {action!r} does not open its commitment of frame "
                          f"{commit_no} (a changed choice)")
        reveals = {**rnd.reveals, seat: (action, frame_no)}
        new_state = self.state
        events: list[Event] = []
        if len(reveals) == len(rnd.seats):
            for s in rnd.seats:
                act, no = reveals[s]
                new_state = self._play(new_state, s, act, no, " (a simultaneous choice)")
                events.append(Event(no, frame_no, "play", s, act, act, index=rnd.number))

        def done() -> None:
            rnd.reveals[seat] = (action, frame_no)
            if events:
                self.events.extend(events)
                self.round = None
        return new_state, done

    # --- seed: [seed, chain secret, [[action, salt], ...] openings of the seat's secret choices]
    def _on_seed(self, seat: int, body: tuple, frame_no: int):
        if (len(body) != 3 or not _is_bytes(body[0], 32) or not _is_bytes(body[1], 32) or type(body[2]) is not tuple
                or not all(type(o) is tuple and len(o) == 2 and type(o[0]) is str and _is_bytes(o[1], 32)
                           for o in body[2])):
            raise self._bad_body(seat, "seed", frame_no, "[seed, chain secret, [[action, salt], ...]]")
        seed, secret, openings = body
        if seed_commitment(self.session, seat, seed) != self.seed_commits[seat]:
            raise Dispute(frame_no, seat, _hex(seed), "the seed committed in the seat's open frame",
                          "seed commitment", f"seat {seat} revealed a seed that does not match its commitment")
        chain = self.chains[seat]
        if not chain_reaches(self.session, seat, secret, chain.last, chain.length - chain.used):
            raise Dispute(frame_no, seat, _hex(secret), f"the secret of the chain ending in {_hex(chain.last)}",
                          "hash chain", f"seat {seat}'s revealed chain secret does not lead to its chain values")
        commits = self.secret_commits[seat]
        if len(openings) != len(commits):
            raise Dispute(frame_no, seat, f"{len(openings)} openings", f"{len(commits)} (one per secret choice)",
                          "choice commitment", f"seat {seat} opened {len(openings)} secret choices, it made "
                          f"{len(commits)}")
        for (action, salt), (number, commit_no, commitment) in zip(openings, commits, strict=True):
            if choice_commitment(self.session, number, seat, action, salt) != commitment:
                raise Dispute(frame_no, seat, action, f"the choice committed in frame {commit_no}",
                              "choice commitment", f"seat {seat}'s opening {action!r} does not match its secret "
                              f"commitment of frame {commit_no} (a changed choice)")

        def done() -> None:
            self.seeds[seat] = (seed, tuple(a for a, _ in openings))
        return self.state, done

    # --- final: [digest, winners, scores, reason]: the seat's co-signature of the outcome
    def _on_final(self, seat: int, body: tuple, frame_no: int):
        if (len(body) != 4 or not _is_bytes(body[0], 32) or type(body[1]) is not tuple
                or type(body[2]) is not tuple or type(body[3]) is not str):
            raise self._bad_body(seat, "final", frame_no, "[digest, winners, scores, reason]")
        mine = self._final_body()
        if tuple(body) != mine:
            raise Dispute(frame_no, seat, repr(body[1:]), repr(mine[1:]), "final result",
                          f"seat {seat} co-signed a different final state or result")

        def done() -> None:
            self.finals.add(seat)
        return self.state, done

    # --- timeout: [blamed seat, awaited kind]: a claim that a seat withheld its frame
    def _on_timeout(self, seat: int, body: tuple, frame_no: int, nxt: tuple[str, int] | None):
        if len(body) != 2 or type(body[0]) is not int or type(body[1]) is not str:
            raise self._bad_body(seat, "timeout", frame_no, "[blamed seat, awaited kind]")
        if nxt is None or (body[1], body[0]) != nxt or seat == nxt[1]:
            raise Dispute(frame_no, seat, f"seat {body[0]} withheld a {body[1]} frame",
                          "a claim against the seat the protocol awaits" if nxt else "no claim: the session is over",
                          "timeout claim", f"seat {seat}'s timeout claim does not name what the protocol awaits")

        def done() -> None:
            self.status = "unfinished"
            self.blame = nxt[1]
            self.claim = (frame_no, nxt[0], seat)
        return self.state, done

    # ------------------------------------------------------------------------------ the end

    def _final_body(self) -> tuple:
        result = self.game.result(self.state)
        if result is None:
            return (self.digest, (), (), "")
        return (self.digest, tuple(result.winners), tuple(result.scores), result.reason)

    def _resimulate(self, every_frame: bool = False) -> None:
        """With every seed and secret choice revealed, replay the game on a full-knowledge state: every
        private outcome is recomputed and every action re-checked. The final digest is compared; only if
        it differs is the replay run again comparing every frame's digest, to name the first bad frame."""
        if self.hidden_events == 0:
            for event in self.events:
                event.full = event.value
            self.resimulated = True
            return
        game = self.game
        state = game.start(self.players, self.header.option_dict)
        openings = {seat: list(opened) for seat, (_, opened) in self.seeds.items()}
        used = dict.fromkeys(range(self.players), 0)
        for i, event in enumerate(self.events):
            if event.kind == "chance":
                owner = event.seat
                if owner is None:
                    value = event.value
                else:
                    mac = private_mac(self.seeds[owner][0], self.session, event.index)
                    value = outcome(event.chance, private_chance_bytes(self.session, event.index, owner, mac,
                                                                       list(event.contributions)))
                try:
                    state = game.chance(state, value)
                except IllegalAction as exc:
                    raise Dispute(event.frame_no, owner if owner is not None else -1, repr(value), "", exc.reason,
                                  f"the revealed chance outcome {value!r} is refused: {exc.reason}") from None
                event.full = value
            else:
                action = event.value
                if event.secret:
                    action = openings[event.seat][used[event.seat]]
                    used[event.seat] += 1
                state = self._play(state, event.seat, action, event.frame_no, " (checked once every secret was "
                                   "revealed)")
                event.full = action
            if every_frame and (i + 1 == len(self.events) or self.events[i + 1].at != event.at):
                frame = self.frames[event.at]
                if game.digest(state) != frame.digest:
                    blame = event.seat if event.seat is not None else frame.seat
                    raise Dispute(event.frame_no, blame, _hex(frame.digest), _hex(game.digest(state)),
                                  "state digest", f"with every secret revealed, the state after frame "
                                  f"{event.at} does not match the digest the seats signed")
        if game.digest(state) != self.digest:
            if not every_frame:
                self._resimulate(every_frame=True)
            raise Dispute(len(self.frames) - 1, self.frames[-1].seat, _hex(self.digest), _hex(game.digest(state)),
                          "state digest", "with every secret revealed, the final state differs from the signed one")
        self.resimulated = True

    # ------------------------------------------------------------------------------ own frames

    def _sign(self, kind: str, body: tuple, key: SigningKey | None = None) -> Frame:
        """Sign a frame of ours with the digest that applying it will give."""
        me = self._need_me()
        seat = me.seat
        new_state, commit = self._transition(seat, kind, body, len(self.frames))
        digest = self.digest if new_state is self.state else self.game.digest(new_state)
        frame = make_frame(key or me.key, self.session, len(self.frames), self.last_hash, seat, kind, body, digest)
        # accepting this same frame next (own frames pass accept too) need not redo the check just done
        self._built = (frame, new_state, commit, digest) if key is None or key is me.key else None
        return frame

    def _need_me(self) -> SeatSecrets:
        if self.me is None:
            raise RuntimeError("this ledger has no seat of its own (a spectator or the audit)")
        return self.me

    def _my_turn(self, *kinds: str) -> tuple[str, int]:
        me = self._need_me()
        nxt = self._next()
        if nxt is None or nxt[1] != me.seat or nxt[0] not in kinds:
            want = "/".join(kinds)
            raise RuntimeError(f"not seat {me.seat}'s {want} now (awaiting {nxt})")
        return nxt

    def build_open(self, key: SigningKey | None = None) -> Frame:
        me = self._need_me()
        self._my_turn("open")
        chain = self._chain_values(0, me.chain_length)
        return self._sign("open", (chain[0], me.chain_length, seed_commitment(self.session, me.seat, me.seed)), key)

    def _chain_values(self, generation: int, length: int) -> list[bytes]:
        me = self._need_me()
        values = self._my_chains.get(generation)
        if values is None or len(values) != length + 1:
            secret = chain_secret(me.seed, self.session, me.seat, generation)
            values = make_chain(self.session, me.seat, secret, length)
            self._my_chains = {generation: values}
        return values

    def build_action(self, action: str, key: SigningKey | None = None) -> Frame:
        """Our decision: an `act` frame on our move, a `commit` frame (or an `act` with a common action)
        at a simultaneous step. An action the rules forbid raises IllegalAction before anything is signed."""
        me = self._need_me()
        kind, _ = self._my_turn("act", "commit")
        if kind == "act" or interrupts_step(action):
            self.game.play(self.state, me.seat, action)  # our own illegal action is our bug: raise it here
            return self._sign("act", (action,), key)
        if action not in self.game.legal(self.state, me.seat):
            self.game.play(self.state, me.seat, action)
            raise IllegalAction(f"{action!r} is not among seat {me.seat}'s legal choices")
        rnd = self.round
        salt = salt_for(me.seed, self.session, rnd.number)
        self._my_choices[rnd.number] = action
        commitment = choice_commitment(self.session, rnd.number, me.seat, action, salt)
        return self._sign("commit", (commitment,), key)

    def build_reveal(self, key: SigningKey | None = None) -> Frame:
        me = self._need_me()
        self._my_turn("reveal")
        rnd = self.round
        action = self._my_choices.get(rnd.number) or self._my_choice(rnd, rnd.commits[me.seat][0])
        if action is None:
            raise RuntimeError(f"seat {me.seat} cannot recover its choice of round {rnd.number}")
        return self._sign("reveal", (action, salt_for(me.seed, self.session, rnd.number)), key)

    def build_share(self, key: SigningKey | None = None) -> Frame:
        """Our next chain value for the chance point under way (with a new chain when it is the last)."""
        me = self._need_me()
        self._my_turn("chain")
        chain = self.chains[me.seat]
        values = self._chain_values(chain.generation, chain.length)
        value = values[chain.used + 1]
        renewal = None
        if chain.used + 1 == chain.length:
            fresh = self._chain_values_peek(chain.generation + 1, me.chain_length)
            renewal = (fresh[0], me.chain_length)
        return self._sign("chain", (value, renewal), key)

    def _chain_values_peek(self, generation: int, length: int) -> list[bytes]:
        me = self._need_me()
        secret = chain_secret(me.seed, self.session, me.seat, generation)
        return make_chain(self.session, me.seat, secret, length)

    def build_seed(self, key: SigningKey | None = None) -> Frame:
        me = self._need_me()
        self._my_turn("seed")
        chain = self.chains[me.seat]
        secret = self._chain_values(chain.generation, chain.length)[-1]
        openings = []
        for number, _, commitment in self.secret_commits[me.seat]:
            salt = salt_for(me.seed, self.session, number)
            action = self._my_choices.get(number)
            if action is None or choice_commitment(self.session, number, me.seat, action, salt) != commitment:
                raise RuntimeError(f"seat {me.seat} lost its secret choice of round {number}")
            openings.append((action, salt))
        return self._sign("seed", (me.seed, secret, tuple(openings)), key)

    def build_final(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("final")
        return self._sign("final", self._final_body(), key)

    def build_timeout(self, key: SigningKey | None = None) -> Frame:
        """A claim that the seat the protocol awaits has withheld its frame (the caller decides when)."""
        me = self._need_me()
        nxt = self._next()
        if nxt is None or nxt[1] == me.seat:
            raise RuntimeError(f"seat {me.seat} cannot claim a timeout now (awaiting {nxt})")
        return self._sign("timeout", (nxt[1], nxt[0]), key)

    def build_next(self, key: SigningKey | None = None) -> Frame | None:
        """Our next frame when it needs no decision (open, chain, reveal, seed, final); None otherwise."""
        nxt = self._next()
        if nxt is None or self.me is None or nxt[1] != self.me.seat:
            return None
        builders = {"open": self.build_open, "chain": self.build_share, "reveal": self.build_reveal,
                    "seed": self.build_seed, "final": self.build_final}
        build = builders.get(nxt[0])
        return None if build is None else build(key)

    # ------------------------------------------------------------------------------ reporting

    def awaited(self) -> tuple[str, int] | None:
        """What the session waits for (for reports of unfinished games)."""
        try:
            return self._next()
        except DealUnsupported:
            return None

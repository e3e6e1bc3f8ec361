"""The Ledger: the chain of one session's frames and one seat's knowledge state (see the package
docstring). It decides which frame comes next and dispatches each frame to its kind's module
(`replays.ledger.kinds.KINDS`) for the checks; this module holds the order of the protocol, the
acceptance of a frame, the end-of-game re-simulation and this seat's own frames.

`accept` raises `Rejected` for a frame that cannot be attributed or does not belong here (malformed:
no frame of this protocol, a wrong envelope field or an unknown kind; wrong session, replayed, out of
order, not chained, bad signature); the ledger is untouched and the frame should be dropped. It
raises `Dispute` for a correctly signed, correctly chained frame whose content the protocol or the
rules forbid (wrong turn, illegal action, wrong reveal, digest mismatch):
the ledger halts, keeps the frame as evidence, and the dispute names the frame, the seat, what was
claimed, what was allowed and the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engines
from engines.core import Chance, Game, IllegalAction, Result, State, interrupts_step
from replays import codec
from replays.crypto import SigningKey, load_public, public_bytes
from replays.frames import Frame, decode_frame, make_frame
from replays.header import Header
from replays.ledger import decks
from replays.ledger.errors import Dispute, Rejected
from replays.ledger.kinds import KINDS, PROTOCOL_1, act, commit, contest
from replays.ledger.kinds.base import Transition, short
from replays.ledger.kinds.strip import new_deal
from replays.ledger.values import Chain, Claim, Event, Round, SeatSecrets
from replays.randomness import (
    DealUnsupported,
    chain_secret,
    choice_commitment,
    make_chain,
    outcome,
    private_chance_bytes,
    private_mac,
    salt_for,
)

__all__ = ["Ledger", "OwnCheck"]

_SHOWN_LEGAL = 12
CLOSED = ("complete", "unfinished", "disputed", "contested")
DECISIONS = ("act", "commit")


@dataclass(frozen=True, slots=True)
class OwnCheck:
    """What building an own frame computed, returned on the frame (`Frame.checked`) rather than kept in
    the ledger: the state it was built on, the state and digest it gives, and the bookkeeping to run
    when it is applied. `Ledger.accept` uses it only for the very ledger that built it, on that state."""

    ledger: Any
    state: State
    next_state: State
    done: Callable[[], None]
    digest: bytes


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
        self.protocol = header.protocol
        self.publics = [load_public(key) for key, _ in header.seats]
        self.state: State = self.game.start(self.players, header.option_dict)
        self.digest: bytes = self.game.digest(self.state)
        self.me = me
        if me is not None and (not 0 <= me.seat < self.players or public_bytes(me.key) != header.seats[me.seat][0]):
            raise ValueError(f"seat {me.seat}'s key is not the one in the header")
        self.frames: list[Frame] = []
        self.last_hash = header.hash
        self.status = "open"  # open, play, claimed, reveal, cosign, then one of CLOSED
        self.chains: list[Chain | None] = [None] * self.players
        self.chain_history: list[list[tuple[bytes, int]]] = [[] for _ in range(self.players)]
        self.seed_commits: list[bytes | None] = [None] * self.players
        self.chance_index = 0
        self.contributions: list[tuple[int, bytes]] = []
        self.round_count = 0
        self.round: Round | None = None
        self.secret_commits: list[list[tuple[int, int, bytes]]] = [[] for _ in range(self.players)]
        self.seeds: dict[int, tuple[bytes, tuple]] = {}
        self.finals: set[int] = set()
        self.events: list[Event] = []
        self.hidden_events = 0
        self.dispute: Dispute | None = None
        self.claim: Claim | None = None           # the timeout claim under way or final
        self.answered: list[Claim] = []           # claims the blamed seat answered in time (protocol 2)
        self.contest: tuple[int, int, str, bool] | None = None  # (frame no, seat, reason, with evidence)
        self.resimulated = False
        self.decks: dict[tuple[str, int], decks.Epoch] = {}   # shared secret decks, by (deck, epoch)
        self.last_deal: tuple[tuple[str, int], int] | None = None  # the latest deal, until its drawer acts
        self.spoiled: tuple | None = None          # (frame no, seat, (deck, epoch), position) of a spoiled deal
        self.look: decks.Look | None = None        # the latest look at a seat's hand (a "show" chance point)
        self.looks: list[decks.Look] = []
        self.my_choices: dict[int, str] = {}
        self._my_chains: dict[int, list[bytes]] = {}
        #: True while this ledger computes the outcome of a frame it is building itself: the frame kinds
        #: then skip verifying the zero-knowledge proofs it has just made (every other peer verifies them)
        self.building = False
        #: hashes of frames whose signatures were already checked (the audit checks them in parallel)
        self.verified: set[bytes] = set()

    # ------------------------------------------------------------------------------ what comes next

    def expects(self) -> list[tuple[str, int]]:
        """The frame(s) acceptable next as (kind, seat); [] once the session is closed.

        Frames come one at a time in a fixed order, so this is one entry, except that at a simultaneous
        step the expected seat may instead send an `act` frame with a common action, that any other seat
        may send a `timeout` claim (not listed), and that while a claim is open (protocol 2) the blamed
        seat's answer comes first and the other seats' first frame after it is listed second."""
        nxt = self._next()
        if nxt is None:
            return []
        if self.status == "claimed":
            return [nxt, self._after_claim()]
        return [nxt]

    def _next(self) -> tuple[str, int] | None:
        status = self.status
        if status in CLOSED:
            return None
        if status == "open":
            return ("open", next(s for s in range(self.players) if self.chains[s] is None))
        if status == "claimed":
            claim = self.need_claim()
            return (claim.kind, claim.blamed)
        if status == "reveal":
            return ("seed", next(s for s in self._seeding() if s not in self.seeds))
        if status == "cosign":
            return ("final", next(s for s in self._revealing() if s not in self.finals))
        waiting = self.game.awaiting(self.state)
        if waiting.kind == "move":
            return ("act", waiting.seats[0])
        if waiting.kind == "chance" and waiting.chance is not None and waiting.chance.kind == "deal":
            return self._next_deal(waiting.chance)
        if waiting.kind == "chance" and waiting.chance is not None and waiting.chance.kind == "show":
            return self._next_look(waiting.chance)
        if waiting.kind == "chance":
            return ("chain", self.contributors(waiting.chance)[len(self.contributions)])
        if waiting.kind == "simultaneous":
            rnd = self._current_round(waiting.seats, waiting.secret)
            for seat in rnd.seats:
                if seat not in rnd.commits:
                    return ("commit", seat)
            for seat in rnd.seats:
                if seat not in rnd.reveals:
                    return ("reveal", seat)
        raise RuntimeError(f"{self.game.id}: unexpected awaiting {waiting!r} with status {status}")

    def _next_deal(self, chance: Chance) -> tuple[str, int]:
        """A deal from a shared deck: the epoch's shuffle round first (every seat still in, in seat order),
        then one strip from every other seat with a layer on the deck."""
        if self.protocol < 2:
            raise DealUnsupported(chance)
        ep = self.decks.get((chance.deck, chance.epoch))
        if ep is None:
            return ("shuffle", next(s for s in range(self.players) if s not in self.state.out))
        if not ep.ready:
            return ("shuffle", ep.shufflers[len(ep.shuffles)])
        deal = self.pending_deal(ep, chance)
        if not deal.strippers:
            raise RuntimeError(f"deck {chance.deck!r}: seat {deal.drawer} is the only seat with a layer on it")
        return ("strip", deal.strippers[len(deal.strips)])

    def _next_look(self, chance: Chance) -> tuple[str, int]:
        """A look at a seat's hand: the looker's peek, then the source's show (replays.look)."""
        if self.protocol < 2:
            raise DealUnsupported(chance)
        looker, source = chance.private_to, chance.source
        assert looker is not None and source is not None, "a show chance names its looker and its source"
        look = self.look
        if look is None or look.index != self.chance_index:
            return ("peek", looker)
        return ("show", source)

    def show_chance(self) -> Chance:
        """The look the game awaits (for the kinds peek and show)."""
        waiting = self.game.awaiting(self.state)
        if waiting.kind != "chance" or waiting.chance is None or waiting.chance.kind != "show":
            raise RuntimeError("no look at a hand is awaited")
        return waiting.chance

    def deal_chance(self) -> Chance:
        """The deal the game awaits (for the deck kinds)."""
        waiting = self.game.awaiting(self.state)
        if waiting.kind != "chance" or waiting.chance is None or waiting.chance.kind != "deal":
            raise RuntimeError("no deal is awaited")
        return waiting.chance

    def pending_deal(self, ep: decks.Epoch, chance: Chance) -> decks.Deal:
        """The deal under way in `ep`, or the one the chance point starts (not stored until a strip is)."""
        if ep.current is not None:
            return ep.current
        if len(ep.pool) - ep.next != chance.n or chance.private_to is None:
            raise RuntimeError(f"deck {chance.deck!r} epoch {chance.epoch}: the engine says {chance.n} cards are left "
                               f"(to seat {chance.private_to}), the deck holds {len(ep.pool) - ep.next}")
        return new_deal(ep, chance)

    def _revealing(self) -> list[int]:
        """The seats that reveal and co-sign: every seat, or after a final claim every seat but the
        blamed one."""
        blamed = self.claim.blamed if self.claim is not None else None
        return [s for s in range(self.players) if s != blamed]

    def _seeding(self) -> list[int]:
        """The seats that reveal their seed: those of `_revealing()` that committed one (a claim made
        while the seats open can come before some of them sent their open frame)."""
        return [s for s in self._revealing() if self.seed_commits[s] is not None]

    def _after_claim(self) -> tuple[str, int]:
        """The frame that makes an open claim final: the first other seat's missing seed, else its
        co-signature of the forfeit."""
        seats = self._revealing()
        missing = [s for s in self._seeding() if s not in self.seeds]
        return ("seed", missing[0]) if missing else ("final", seats[0])

    def claimable(self) -> tuple[str, int] | None:
        """What a timeout claim may name now: the awaited frame (None while a claim is open or the
        session is closed)."""
        if self.status in CLOSED or self.status == "claimed":
            return None
        return self._next()

    def decision(self) -> tuple[int, list[str]] | None:
        """(seat, legal actions) when the next frame is a seat's choice (act or commit), else None."""
        nxt = self._next()
        if nxt is None or nxt[0] not in DECISIONS:
            return None
        return nxt[1], self.game.legal(self.state, nxt[1])

    def awaited(self) -> tuple[str, int] | None:
        """What the session waits for (for reports of unfinished games)."""
        try:
            return self._next()
        except DealUnsupported:
            return None

    @property
    def closed(self) -> bool:
        return self.status in CLOSED

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state)

    @property
    def blame(self) -> int | None:
        """The seat a final timeout claim names (None otherwise)."""
        return self.claim.blamed if self.claim is not None and not self.claim.open else None

    def contributors(self, chance: Chance | None) -> list[int]:
        if chance is None:
            raise RuntimeError("a chance point without its domain")
        if chance.kind == "deal":
            raise DealUnsupported(chance)
        playing = [s for s in range(self.players) if s not in self.state.out]
        if chance.private_to is None:
            return playing
        others = [s for s in playing if s != chance.private_to]
        return others or [chance.private_to]

    def _current_round(self, seats: tuple[int, ...], secret: bool) -> Round:
        if self.round is None:
            self.round = Round(self.round_count, tuple(seats), secret)
            self.round_count += 1
        return self.round

    # ------------------------------------------------------------------------------ accepting

    def accept(self, frame: Frame | bytes) -> Frame:
        """Validate and apply one frame (see the module docstring for Rejected vs Dispute)."""
        frame = self._attributable(frame)
        built = frame.checked
        # the very frame this ledger just built and signed at this point, on this state: checked then
        own = isinstance(built, OwnCheck) and built.ledger is self and built.state is self.state
        frame = frame.bare()
        if not own and frame.hash not in self.verified and not frame.verify(self.publics[frame.seat]):
            raise Rejected(f"frame {frame.seq}: bad signature, not made by seat {frame.seat}'s key "
                           "(forged or corrupted)", frame.seq)
        try:
            if own:
                new_state, done, digest = built.next_state, built.done, built.digest
            else:
                new_state, done = self._transition(frame.seat, frame.kind, frame.body, frame.seq)
                digest = self.digest if new_state is self.state else self.game.digest(new_state)
            if frame.digest != digest:
                raise Dispute(frame.seq, frame.seat, short(frame.digest), short(digest), "state digest",
                              f"desync at frame {frame.seq}: seat {frame.seat}'s state digest after the frame is "
                              f"{short(frame.digest)[:16]}..., this peer's is {short(digest)[:16]}...")
        except Dispute as dispute:
            self._halt(frame, dispute)
            raise
        except IllegalAction as exc:  # an engine refusing what the ledger let through: still that seat's frame
            refused = Dispute(frame.seq, frame.seat, frame.kind, "", exc.reason, f"the engine refused it: {exc.reason}")
            self._halt(frame, refused)
            raise refused from None
        latest = self.last_deal
        done()
        if latest is not None and self.last_deal == latest and frame.kind != "spoiled" \
                and frame.seat == self.decks[latest[0]].deals[latest[1]].drawer:
            self.last_deal = None   # its drawer moved on: the window for a spoiled claim is closed
        self.state, self.digest = new_state, digest
        self.frames.append(frame)
        self.last_hash = frame.hash
        self._advance_status()
        return frame

    def _attributable(self, frame: Frame | bytes) -> Frame:
        """The frame, if it belongs at the end of this chain (Rejected otherwise; nothing changes)."""
        if not isinstance(frame, Frame):
            try:
                frame = decode_frame(frame)
            except codec.FormatError as exc:
                raise Rejected(f"malformed frame: {exc.reason}") from None
        if self.protocol == 1 and frame.kind not in PROTOCOL_1:   # (decode_frame knows every protocol's kinds)
            raise Rejected(f"malformed frame: kind {frame.kind!r} is not a frame kind of protocol 1", frame.seq)
        expected_no = len(self.frames)
        if frame.session != self.session:
            raise Rejected(f"frame for another session ({short(frame.session)}, this is {short(self.session)})")
        if frame.seq != expected_no:
            if frame.seq < expected_no and self.frames[frame.seq].hash == frame.hash:
                raise Rejected(f"replayed frame: frame {frame.seq} was already accepted", frame.seq)
            if frame.seq < expected_no:
                raise Rejected(f"stale or conflicting frame {frame.seq}: frame {frame.seq} is already another one "
                               f"(this ledger is at frame {expected_no})", frame.seq)
            raise Rejected(f"out of order: frame {frame.seq} arrived, frame {expected_no} is next", frame.seq)
        if self.status in CLOSED and not self._contest_of_final_claim(frame):
            raise Rejected(f"the session is closed ({self.status}); frame {frame.seq} is not accepted", frame.seq)
        if frame.prev != self.last_hash:
            raise Rejected(f"frame {frame.seq} does not chain onto the previous frame (prev hash mismatch)",
                           frame.seq)
        if not frame.seat < self.players:
            raise Rejected(f"frame {frame.seq} names seat {frame.seat}; this game has {self.players} seats", frame.seq)
        return frame

    def _contest_of_final_claim(self, frame: Frame) -> bool:
        """A closed session takes nothing more, except the blamed seat's contest of the claim that closed
        it (its answer may never have reached the others)."""
        return (self.status == "unfinished" and self.protocol >= 2 and frame.kind == "contest"
                and self.claim is not None and frame.seat == self.claim.blamed)

    def _advance_status(self) -> None:
        if self.status == "play" and self.game.result(self.state) is not None:
            self.status = "reveal"
        if self.status == "reveal" and all(s in self.seeds for s in self._seeding()):
            self.status = "cosign"
            try:
                if self.claim is None:  # every seed is known: check every secret with full knowledge
                    self._resimulate()
                elif self.decks:        # after a claim: check what the revealed seeds cover
                    decks.audit(self, {seat: seed for seat, (seed, _) in self.seeds.items()})
            except Dispute as dispute:
                self.status = "disputed"
                self.dispute = dispute
                raise
        if self.status == "cosign" and all(s in self.finals for s in self._revealing()):
            self.status = "complete" if self.claim is None else "unfinished"

    def _halt(self, frame: Frame, dispute: Dispute) -> None:
        self.frames.append(frame)
        self.last_hash = frame.hash
        self.status = "disputed"
        self.dispute = dispute

    def _wrong_turn(self, seat: int, kind: str, frame_no: int, nxt: tuple[str, int] | None) -> Dispute:
        if nxt is None:
            return Dispute(frame_no, seat, kind, "nothing", "session over", "the session awaits no more frames")
        return Dispute(frame_no, seat, f"a {kind} frame from seat {seat}", f"a {nxt[0]} frame from seat {nxt[1]}",
                       "turn order", f"seat {seat} sent a {kind} frame out of turn (the protocol awaits a {nxt[0]} "
                       f"frame from seat {nxt[1]})")

    def _transition(self, seat: int, kind: str, body: tuple, frame_no: int) -> Transition:
        """Check a frame's content against the protocol and the rules; return the new knowledge state and
        the bookkeeping to commit once the digest matches. Raises Dispute; changes nothing itself (except
        that a frame closing a claim's window marks the claim final before its checks)."""
        handler = KINDS[kind]   # an unknown kind never gets here: it is no frame (Rejected as malformed)
        if kind in ("timeout", "contest"):
            return handler.check(self, seat, body, frame_no)
        if kind == "spoiled" and self.status == "play":
            return handler.check(self, seat, body, frame_no)
        nxt = self._next()
        if self.status == "claimed":
            claim = self.need_claim()
            if seat == claim.blamed and (kind == claim.kind or (claim.kind == "commit" and kind == "act")):
                return self._answer(claim, seat, kind, body, frame_no)
            if (kind, seat) != self._after_claim():
                raise self._wrong_turn(seat, kind, frame_no, nxt)
            return self._close_window(claim, handler, seat, body, frame_no)
        if kind == "act" and nxt == ("commit", seat):
            return act.check(self, seat, body, frame_no, interrupt=True)
        if (kind, seat) != nxt:
            raise self._wrong_turn(seat, kind, frame_no, nxt)
        return handler.check(self, seat, body, frame_no)

    def _answer(self, claim: Claim, seat: int, kind: str, body: tuple, frame_no: int) -> Transition:
        """The blamed seat's awaited frame, arriving while the claim is open: the claim is void."""
        if kind == "act" and claim.kind == "commit":
            new_state, done = act.check(self, seat, body, frame_no, interrupt=True)
        else:
            new_state, done = KINDS[kind].check(self, seat, body, frame_no)

        def answered() -> None:
            self.status = claim.resume
            self.claim = None
            self.answered.append(claim)
            done()
        return new_state, answered

    def _close_window(self, claim: Claim, handler: Any, seat: int, body: tuple, frame_no: int) -> Transition:
        """Another seat's first frame after an open claim (its seed, or its co-signature of the
        forfeit): the blamed seat did not answer in time, so the claim is final."""
        claim.open = False   # what is co-signed now is the forfeit
        try:
            new_state, done = handler.check(self, seat, body, frame_no)
        finally:
            claim.open = True

        def closed() -> None:
            claim.open = False
            self.status = "reveal"
            self.finals = set()   # co-signatures of the result so far do not count for the forfeit
            done()
        return new_state, closed

    def check_evidence(self, seat: int, data: bytes, claim: Claim, frame_no: int) -> None:
        """A contest's evidence: the blamed seat's own signed frame for the claimed slot, which this
        ledger would have accepted there (a claim changes no state, so the slot's checks still apply)."""
        frame = contest.evidence_frame(data)
        claimed = self.frames[claim.frame_no]
        # the seat's frame for the slot itself, or its answer chained onto the claim
        slots = ((claim.frame_no, claimed.prev), (claim.frame_no + 1, claimed.hash))
        problem = None
        if frame is None:
            problem = "the evidence is not a frame"
        elif frame.session != self.session or frame.seat != seat or (frame.seq, frame.prev) not in slots:
            problem = "the evidence is not the seat's frame for the claimed slot (or its answer to the claim)"
        elif not frame.verify(self.publics[seat]):
            problem = "the evidence is not signed by the seat"
        elif not (frame.kind == claim.kind or (claim.kind == "commit" and frame.kind == "act")):
            problem = f"the evidence is a {frame.kind} frame, the claim names a {claim.kind} frame"
        if problem is None:
            # a claim, a seed and a co-signature change no game state: the slot's checks still apply as
            # they stood when the claim was made
            was_open, claim.open = claim.open, True
            try:
                if frame.kind == "act" and claim.kind == "commit":
                    act.check(self, seat, frame.body, frame.seq, interrupt=True)
                else:
                    KINDS[frame.kind].check(self, seat, frame.body, frame.seq)
            except (Dispute, IllegalAction) as exc:
                problem = f"the evidence would not have been accepted: {getattr(exc, 'reason', exc)}"
            finally:
                claim.open = was_open
        if problem is not None:
            raise Dispute(frame_no, seat, "evidence for a contest", "the seat's own valid frame for the claimed slot",
                          "timeout claim", f"seat {seat} contested the claim of frame {claim.frame_no}: {problem}")

    # ------------------------------------------------------------------------------ helpers of the kinds

    def play(self, state: State, seat: int, action: Any, frame_no: int, when: str = "") -> State:
        """The engine's play, as a Dispute naming the rule (and the legal actions) when it refuses."""
        try:
            return self.game.play(state, seat, action)
        except IllegalAction as exc:
            legal = self.game.legal(state, seat)
            shown = ", ".join(legal[:_SHOWN_LEGAL]) + (f", ... ({len(legal)} in all)" if len(legal) > _SHOWN_LEGAL
                                                         else "")
            raise Dispute(frame_no, seat, str(action), shown or "no action", exc.reason,
                          f"seat {seat} played {action!r}{when}, which the rules forbid: {exc.reason}") from None

    def my_choice(self, rnd: Round, commitment: bytes) -> str | None:
        """Our own committed choice: remembered, or recovered from the seed (after a restart)."""
        me = self.need_me()
        salt = salt_for(me.seed, self.session, rnd.number)
        known = self.my_choices.get(rnd.number)
        if known is not None and choice_commitment(self.session, rnd.number, me.seat, known, salt) == commitment:
            return known
        for action in self.game.legal(self.state, me.seat):
            if choice_commitment(self.session, rnd.number, me.seat, action, salt) == commitment:
                return action
        return None

    def my_chain(self, generation: int, length: int, keep: bool = True) -> list[bytes]:
        """Our chain of `generation`, derived from our seed ([tail, x1, ..., secret])."""
        me = self.need_me()
        values = self._my_chains.get(generation)
        if values is None or len(values) != length + 1:
            values = make_chain(self.session, me.seat, chain_secret(me.seed, self.session, me.seat, generation), length)
            if keep:
                self._my_chains = {generation: values}
        return values

    def final_body(self) -> tuple:
        """What every seat co-signs: the digest and the engine's result, or after a final claim the
        forfeit of the blamed seat."""
        claim = self.claim
        if claim is not None and not claim.open:
            winners = tuple(s for s in range(self.players) if s != claim.blamed and s not in self.state.out)
            return (self.digest, winners, (), f"forfeit: seat {claim.blamed} withheld its {claim.kind} frame")
        result = self.game.result(self.state)
        if result is None:
            return (self.digest, (), (), "")
        return (self.digest, tuple(result.winners), tuple(result.scores), result.reason)

    def need_me(self) -> SeatSecrets:
        if self.me is None:
            raise RuntimeError("this ledger has no seat of its own (a spectator or the audit)")
        return self.me

    # The turn order (`_next`) lets a frame kind through only where what it acts on exists: a seat's chain
    # after its open frame, a round during a simultaneous step, a claim once one is made. These name that
    # precondition where a kind relies on it (and give the checker the value, not an Optional).

    def need_chain(self, seat: int) -> Chain:
        chain = self.chains[seat]
        if chain is None:
            raise RuntimeError(f"seat {seat} has no hash chain before its open frame")
        return chain

    def need_round(self) -> Round:
        if self.round is None:
            raise RuntimeError("no simultaneous step is under way")
        return self.round

    def need_claim(self) -> Claim:
        if self.claim is None:
            raise RuntimeError("no claim is under way")
        return self.claim

    # ------------------------------------------------------------------------------ the end

    def _resimulate(self, every_frame: bool = False) -> None:
        """With every seed and secret choice revealed, replay the game on a full-knowledge state: every
        private outcome is recomputed and every action re-checked. The final digest is compared; only if
        it differs is the replay run again comparing every frame's digest, to name the first bad frame."""
        if self.decks:
            decks.audit(self, {seat: seed for seat, (seed, _) in self.seeds.items()})
        if self.spoiled is not None:
            no, seat, _, position = self.spoiled
            raise Dispute(no, seat, "a spoiled card", "a card", "spoiled card",
                          f"seat {seat} claimed position {position} is no card, yet every deck value follows from "
                          "its seed")
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
                if event.deal is not None:
                    value = event.full   # decrypted by the deck audit
                elif event.look is not None:   # the source's cards the deck audit decrypted
                    value = game.show_value(state, tuple((ep.deck, deal.card) for ep, deal in event.look.cards))
                elif owner is None:
                    value = event.value
                else:
                    assert event.chance is not None, "a chance event holds its chance point"
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
                seat = event.seat
                assert seat is not None, "a play has its seat"
                action = event.value
                if event.secret:
                    action = openings[seat][used[seat]]
                    used[seat] += 1
                state = self.play(state, seat, action, event.frame_no, " (checked once every secret was "
                                  "revealed)")
                event.full = action
            if every_frame and (i + 1 == len(self.events) or self.events[i + 1].at != event.at):
                frame = self.frames[event.at]
                if game.digest(state) != frame.digest:
                    blame = event.seat if event.seat is not None else frame.seat
                    raise Dispute(event.frame_no, blame, short(frame.digest), short(game.digest(state)),
                                  "state digest", f"with every secret revealed, the state after frame "
                                  f"{event.at} does not match the digest the seats signed")
        if game.digest(state) != self.digest:
            if not every_frame:
                self._resimulate(every_frame=True)
            raise Dispute(len(self.frames) - 1, self.frames[-1].seat, short(self.digest), short(game.digest(state)),
                          "state digest", "with every secret revealed, the final state differs from the signed one")
        self.resimulated = True

    # ------------------------------------------------------------------------------ own frames

    def _sign(self, kind: str, body: tuple, key: SigningKey | None = None) -> Frame:
        """Sign a frame of ours with the digest that applying it will give."""
        me = self.need_me()
        seat = me.seat
        self.building = key is None or key is me.key   # our own proofs (a test's forgery with another key is checked)
        try:
            new_state, done = self._transition(seat, kind, body, len(self.frames))
        finally:
            self.building = False
        digest = self.digest if new_state is self.state else self.game.digest(new_state)
        frame = make_frame(key or me.key, self.session, len(self.frames), self.last_hash, seat, kind, body, digest)
        if key is not None and key is not me.key:
            return frame      # a forgery made with another key (tests, the simulator): checked in full
        # accepting this same frame next (own frames pass accept too) need not redo the check just done
        return replace(frame, checked=OwnCheck(self, self.state, new_state, done, digest))

    def _my_turn(self, *kinds: str) -> tuple[str, int]:
        me = self.need_me()
        for nxt in self.expects():
            if nxt[1] == me.seat and nxt[0] in kinds:
                return nxt
        want = "/".join(kinds)
        raise RuntimeError(f"not seat {me.seat}'s {want} now (awaiting {self.expects()})")

    def build_action(self, action: str, key: SigningKey | None = None) -> Frame:
        """Our decision: an `act` frame on our move, a `commit` frame (or an `act` with a common action)
        at a simultaneous step. An action the rules forbid raises IllegalAction before anything is signed."""
        me = self.need_me()
        kind, _ = self._my_turn(*DECISIONS)
        if kind == "act" or interrupts_step(action):
            # our own illegal action is our bug: raise it here, before anything is signed
            self.game.play(self.state, me.seat, action)
            extra = act.attachments(self, action) if self.protocol >= 2 else ()
            return self._sign("act", (action, extra) if extra else (action,), key)
        if action not in self.game.legal(self.state, me.seat):
            self.game.play(self.state, me.seat, action)
            raise IllegalAction(f"{action!r} is not among seat {me.seat}'s legal choices")
        return self._sign("commit", commit.body_for(self, action), key)

    def build_timeout(self, key: SigningKey | None = None) -> Frame:
        """A claim that the seat the protocol awaits has withheld its frame (the caller decides when)."""
        me = self.need_me()
        nxt = self.claimable()
        if nxt is None or nxt[1] == me.seat:
            raise RuntimeError(f"seat {me.seat} cannot claim a timeout now (awaiting {nxt})")
        return self._sign("timeout", (nxt[1], nxt[0]), key)

    def build_contest(self, reason: str, evidence: Frame | None = None, key: SigningKey | None = None) -> Frame:
        """Our contest of a claim that blames us (with our own frame for the slot as evidence, if we
        hold one)."""
        me = self.need_me()
        if self.claim is None or self.claim.blamed != me.seat or self.status in ("disputed", "contested"):
            raise RuntimeError(f"seat {me.seat} has no claim against it to contest")
        body = (reason[:contest.MAX_REASON], None if evidence is None else evidence.encode())
        return self._sign("contest", body, key)

    def build_next(self, key: SigningKey | None = None) -> Frame | None:
        """Our next frame when it needs no decision (open, chain, reveal, seed, final); None otherwise.
        While a claim is open we only answer it (when it blames us): the other seats' frames that would
        make it final are the session's to send, when its grace has passed (`build_after_claim`)."""
        if self.must_claim_spoiled():
            return self._sign("spoiled", KINDS["spoiled"].make(self), key)
        nxt = self._next()
        if nxt is None or self.me is None or nxt[1] != self.me.seat:
            return None
        kind = KINDS[nxt[0]]
        if not kind.automatic:
            return None
        return self._sign(nxt[0], kind.make(self), key)

    def must_claim_spoiled(self) -> bool:
        """Our latest dealt point is no card (someone cheated): we must say so before anything else."""
        if self.last_deal is None or self.me is None or self.status != "play":
            return False
        deal = self.decks[self.last_deal[0]].deals[self.last_deal[1]]
        return deal.drawer == self.me.seat and deal.card is None

    def build_after_claim(self, key: SigningKey | None = None) -> Frame | None:
        """Our frame that makes an open claim final (our seed or forfeit co-signature), if it is ours."""
        if self.status != "claimed" or self.me is None:
            return None
        kind, seat = self._after_claim()
        if seat != self.me.seat:
            return None
        claim = self.need_claim()
        claim.open = False   # build it as it will be checked: with the window closed
        try:
            body = KINDS[kind].make(self)
        finally:
            claim.open = True
        return self._sign(kind, body, key)

    # kept for callers that build one kind by name
    def build_open(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("open")
        return self._sign("open", KINDS["open"].make(self), key)

    def build_share(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("chain")
        return self._sign("chain", KINDS["chain"].make(self), key)

    def build_reveal(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("reveal")
        return self._sign("reveal", KINDS["reveal"].make(self), key)

    def build_seed(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("seed")
        return self._sign("seed", KINDS["seed"].make(self), key)

    def build_final(self, key: SigningKey | None = None) -> Frame:
        self._my_turn("final")
        return self._sign("final", KINDS["final"].make(self), key)



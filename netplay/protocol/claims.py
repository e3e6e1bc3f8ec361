"""Deadlines and claims: when a peer claims that a seat withheld its frame, and what every peer does about
a claim, by its own clock and its own knowledge only.

The rules (docs/protocol.md, "Deadlines and claims"), each written so that an honest peer never ends up
blaming itself or another honest seat:

- **Claiming.** A peer claims against the awaited frame of a seat it does not hold once that frame is
  due by its own clock (netplay/deadlines.py; a joiner `JOINER_GRACE` later than the host) and it has
  not received that frame from anyone. A frame it did receive from its author but the host does not
  sequence is the host's stall, not the author's: it is passed to the host again, and if the host still
  does not sequence it the game stops unfinished.
- **Admitting.** The host sequences a joiner's claim only when its own clock says the frame is due (a
  `reject` with code `premature`, `untimed` or `host-frame` says why not). A joiner applies a sequenced
  claim like any frame: a claim is a demand, and nothing it co-signs rests on the claimant's clock.
- **Answering.** The blamed seat answers an open claim with the awaited frame, at once for a frame that
  needs no decision; a decision whose own deadline (limit per move, move clock) has passed by the blamed
  seat's clock is not answered: the seat is late and the claim may stand.
- **Closing.** The seat whose frame makes the claim final (`Ledger.expects()[1]`) sends it only once the
  claimed frame is due by its own clock, and never while it holds the blamed seat's frame for the slot,
  received in time (then it passes that frame to the host instead); a claim it never closes stops the
  others unfinished a reveal timeout after its due time (`_window_unclosed`). The host sequences the blamed
  seat's answer only while the claimed frame is not due by its own clock: a deadline is a deadline, so
  a seat whose move clock ran out cannot go on by answering every claim against it.
- **Co-signing.** After a final claim, a seat reveals its seed and co-signs the forfeit only if the claim
  reached it no more than `CLAIM_SKEW` before the claimed frame was due by its own clock, and it never
  received the blamed seat's frame for the slot before that deadline; otherwise it refuses (and
  contests a claim that it withholds its seed). The host claims `CLAIM_SKEW` after the due time.
- **Hearing out.** With three seats or more, a joiner closes a claim against another joiner only
  `ANSWER_WAIT` after the claim reached it, and co-signs only `ANSWER_WAIT` after it became final here: the
  blamed seat's answer or contest comes to us directly within that time, even from a seat the host kept
  from the claim (it learns of it from our acknowledgement).
- **Nothing through the relay is evidence** (issue 32, N1). A joiner co-signs (or closes) a claim against
  another seat only on what it holds from that seat itself: a direct link to the seat's peer (the host's
  link for the host's own seat, the joiners' mesh link for a joiner) that was up over the whole window of
  the claimed frame, on which nothing came for the slot. The host's silence about a seat it alone relays
  is the accused's word against the host's, so such a claim gets no honest co-signature and the game ends
  unfinished, nobody blamed. And a frame signed by the blamed seat for the claimed slot or later, received
  by any route and whatever its `prev` (a frame of another branch: the host forked us), shows that the
  seat was playing: we refuse too.
- **Contesting.** The blamed seat contests a final claim unless it was late by its own clock: with its
  own frame for the slot as evidence when it had sent one in time. A contest the host does not sequence
  within `CONTEST_WAIT` is recorded in the seat's own replay alone, so no host can make it show its
  forfeit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from netplay.deadlines import DECISIONS
from netplay.protocol.core import EXIT_FAILED, EXIT_FORFEIT, JOINER_GRACE
from netplay.protocol.state import Phase
from replays.frames import Frame
from replays.ledger import Dispute, Rejected

if TYPE_CHECKING:
    from netplay.deadlines import Deadlines
    from netplay.protocol.book import Book
    from netplay.protocol.core import Link, Outcome
    from netplay.protocol.state import SessionState

__all__ = ["ANSWER_WAIT", "Claims", "ClaimsMachine", "CLAIM_WAIT", "CONTEST_WAIT"]

CLAIM_WAIT = 5.0      # a joiner waits this long for the host to sequence (or refuse) its claim
CONTEST_WAIT = 5.0    # ... and its contest, before it records it in its own replay alone
#: how long a joiner hears a blamed joiner out, on their direct link, before it closes or co-signs the claim
#: against it: the blamed seat's answer (or contest) goes to every other joiner directly, and a host that
#: withheld the claim from it is overtaken by our own acknowledgement of the claim, which it asks us for
#: (`PULL_S`, then a round trip); without this wait a host that claims and closes at once races the
#: blamed seat's word to us, and wins (the long campaign's seed 1061462)
ANSWER_WAIT = 2.0
#: how much earlier than its due time by a co-signer's clock a claim may come and still be co-signed: the
#: claimant's clock and ours start a frame's timing a network delay apart (the host claims this much late)
CLAIM_SKEW = 1.0
MAX_SEEN = 16         # frames kept per frame number, received from their authors but not yet sequenced


@runtime_checkable
class ClaimsMachine(Protocol):
    """What of its machine the claims read and call, for both roles: the joiner-only steps (`send_frame`,
    `accept_alone`, `record_contest_alone`, `witness_key`) are called behind a role check, and the host's
    machine has them as refusing hooks (netplay/protocol/core.py). tests/test_protocol_state.py holds the
    class to this list."""

    book: Book | None
    deadlines: Deadlines | None
    links: dict[bytes, Link]
    now: float
    outcome: Outcome | None
    role: str
    state: SessionState

    @property
    def phase(self) -> Phase: ...
    @property
    def host_seat(self) -> int | None: ...
    def require_book(self) -> Book: ...
    def require_deadlines(self) -> Deadlines: ...
    def say(self, line: str) -> None: ...
    def finish(self, code: int, message: str) -> None: ...
    def stop_unfinished(self, why: str) -> None: ...
    def game_closed(self) -> None: ...
    def emit(self, frame: Frame) -> None: ...
    def send_frame(self, frame: Frame) -> None: ...
    def accept_alone(self, frame: Frame) -> None: ...
    def record_contest_alone(self) -> None: ...
    def witness_key(self, seat: int) -> bytes | None: ...


class Claims:
    """See the module docstring. One per machine; `reset()` at every game's start."""

    def __init__(self, machine: ClaimsMachine):
        self.m = machine
        self.reset()

    def reset(self) -> None:
        #: frames received from their authors (or passed on), not sequenced yet: seq -> [(frame, when)]
        self.seen: dict[int, list[tuple[Frame, float]]] = {}
        self.claim_seen_at = 0.0          # when the open claim was applied here (this peer's clock)
        self.final_seen: tuple[int, float] | None = None   # (claim's frame number, when it was found final here)
        self.open_since: tuple[int, float] | None = None   # (claim's frame number, when first found open here)
        self.evidence: Frame | None = None    # our own frame for a slot a claim names (sent, maybe never passed on)
        self.evidence_in_time = False     # ... sent before our own deadline for it
        self.owed: str | None = None      # the reason of a contest we owe (built until it is in the ledger)
        self.owed_since = 0.0
        self.contested = False            # our contest is applied (sequenced, or recorded here alone)
        self.judged: int | None = None    # frame number of the final claim against us we have judged
        self.unfinished_at: float | None = None   # when a forfeit was co-signed here (a contest may follow)
        self.refusing: int | None = None  # frame number of a final claim whose forfeit we will not co-sign
        #: (frame number, seconds left by our clock) of a claim that came before its frame was due here
        self.early: tuple[int, float | None] | None = None
        self.refusing_since = 0.0
        self.refusal = ""                 # ... and why
        self.forwarded: set[bytes] = set()   # hashes of seen frames passed to the host already
        #: seat -> the highest-numbered frame signed by that seat that reached us by any route (checked)
        self.latest: dict[int, int] = {}
        self.claimed_since: float | None = None   # when the claimed frame became awaited (our clock)
        self.stall_since: float | None = None
        # a joiner's own claim in flight
        self.mine: Frame | None = None
        self.mine_until = 0.0
        self.refused_at = -1e9
        self.host_frame_until: float | None = None

    # ------------------------------------------------------------------------------ what others sent us

    def seen_frame(self, frame: Frame) -> None:
        """A frame that reached us from its author (or another peer) without the host's sequencing: kept,
        for as long as its slot is open, as knowledge that its author did send it."""
        book = self.m.book
        if book is None or frame.session != book.header.session:
            return
        nxt = len(book.ledger.frames)
        if not nxt <= frame.seq <= nxt + 1 or not 0 <= frame.seat < book.header.players:
            return
        kept = self.seen.setdefault(frame.seq, [])
        if len(kept) < MAX_SEEN and all(f.hash != frame.hash for f, _ in kept):
            kept.append((frame, self.m.now))

    def signed_by(self, frame: Frame, checked: bool = False) -> None:
        """A frame of the current session reached us (sequenced or not, from anyone, on any branch): if its
        author signed it for a number beyond what we knew of that seat, that seat was playing there.
        `checked`: the ledger accepted it (its signature checked there: not checked twice, nor are the
        frames of our own seats, which no claim of ours concerns)."""
        book = self.m.book
        if book is None or frame.session != book.header.session or not 0 <= frame.seat < book.header.players:
            return
        if book.holds(frame.seat) or frame.seq <= self.latest.get(frame.seat, -1):
            return
        if not checked and frame.seq < len(book.ledger.frames) - 1:
            return
        if checked or frame.verify(book.ledger.publics[frame.seat]):
            self.latest[frame.seat] = frame.seq

    def _answer_seen(self, kind: str, seat: int) -> Frame | None:
        """The frame `seat` sent for the awaited slot (or as its answer to the open claim), signed by it,
        if it reached us from anyone in time (before its deadline by our clock)."""
        due = self.m.require_deadlines().due(kind, seat)
        book = self.m.require_book()
        ledger = book.ledger
        nxt = len(ledger.frames)
        claim = ledger.claim
        slots = {(nxt, ledger.last_hash)}
        if claim is not None:
            claimed = ledger.frames[claim.frame_no]
            slots |= {(claim.frame_no, claimed.prev), (claim.frame_no + 1, claimed.hash)}
        for seq in sorted({s for s, _ in slots}):
            for frame, when in self.seen.get(seq, ()):
                if due is not None and when > due:
                    continue
                if (frame.seat == seat and (frame.seq, frame.prev) in slots
                        and (frame.kind == kind or (kind == "commit" and frame.kind == "act"))
                        and frame.verify(ledger.publics[seat])):
                    return frame
        return None

    def after_accept(self, frame: Frame) -> None:
        """Bookkeeping after any frame was applied."""
        m = self.m
        book = m.require_book()
        ledger = book.ledger
        nxt = len(ledger.frames)
        claim = ledger.claim
        # the claimed frame's time left, by the timing it had before this frame moved it (a frame that
        # closes the claim starts timing the next slot)
        deadlines = m.require_deadlines()
        left = None if claim is None else deadlines.remaining(claim.kind, claim.blamed, m.now)
        since = deadlines.since     # when the frame this one closes (a claim: the claimed one) became awaited
        # timing by our own clock from the frame on: frames applied in one step each start the next one's
        deadlines.moved(nxt, None if ledger.closed else ledger.awaited(), m.now, ledger.frames)
        answers = set() if claim is None else {claim.frame_no, claim.frame_no + 1}   # an answer's slots
        for seq in [s for s in self.seen if s < nxt and s not in answers]:
            del self.seen[seq]
        if frame.kind == "timeout" and claim is not None and claim.open:
            self.claim_seen_at = m.now
            self.claimed_since = since
            remaining = m.require_deadlines().remaining(claim.kind, claim.blamed, m.now)
            # the claimant's own peer signed the claim already: the rule is for the other peers
            if not book.holds(claim.blamed) and not book.holds(claim.claimant) \
                    and (remaining is None or remaining > CLAIM_SKEW):
                self.early = (claim.frame_no, remaining)
            if book.holds(claim.blamed):
                m.say(f"seat {claim.claimant} claims that you withheld your {claim.kind} frame: "
                      + ("answering" if claim.kind not in DECISIONS else "your move is awaited"))
        if frame.kind == "contest" and book.holds(frame.seat):
            self.contested, self.owed = True, None
        if claim is not None and not claim.open and (self.final_seen is None or self.final_seen[0] != claim.frame_no):
            self.final_seen = (claim.frame_no, m.now)
        if claim is not None and not claim.open and book.holds(claim.blamed) and self.judged != claim.frame_no \
                and ledger.status != "contested" and not self.contested:
            self.judged = claim.frame_no
            self._owe_contest(claim, left)
        if self.mine is not None and nxt > self.mine.seq:
            self.mine = None
        if ledger.status == "unfinished" and self.unfinished_at is None:
            self.unfinished_at = m.now
        self.stall_since = None

    def _owe_contest(self, claim, remaining: float | None) -> None:
        """The claim against us became final: contest it unless we were late by our own clock (`remaining`:
        the claimed frame's time left when the claim became final)."""
        m = self.m
        if self._evidence_for(claim) is not None:
            self.owed = "our frame for the claimed slot was sent in time and not passed on"
        elif claim.kind in DECISIONS:
            if remaining is not None and remaining <= 0:
                m.say(f"your {claim.kind} was not made within the agreed time: the claim stands")
                return
            why = "thinking is untimed and this seat is here" if remaining is None else \
                f"this seat had {remaining:.0f} s left by its own clock"
            self.owed = f"claimed while deciding: {why}"
        else:
            self.owed = "this seat sends its frames at once; the claim came before it could answer"
        self.owed_since = m.now

    # ------------------------------------------------------------------------------ what we build

    def contest_frame(self) -> Frame | None:
        """Our contest, while we owe one."""
        m = self.m
        ledger = m.require_book().ledger
        if self.owed is None or self.contested:
            return None
        claim = ledger.claim
        if claim is None or not m.require_book().holds(claim.blamed) or ledger.status in ("contested", "disputed"):
            self.owed = None
            return None
        own = m.require_book().ledger_for(claim.blamed)
        evidence = self._evidence_for(claim)
        m.say(f"contesting the claim against us: {self.owed}")
        return own.build_contest(self.owed, evidence)

    def _evidence_for(self, claim) -> Frame | None:
        """Our own frame for the slot `claim` names (or our answer chained onto it), sent in time."""
        ev = self.evidence
        if ev is None or not self.evidence_in_time or ev.seat != claim.blamed:
            return None
        claimed = self.m.require_book().ledger.frames[claim.frame_no]
        return ev if (ev.seq, ev.prev) in ((claim.frame_no, claimed.prev), (claim.frame_no + 1, claimed.hash)) else None

    def may_build(self, kind: str, seat: int) -> bool:
        """Whether our seat `seat` may send its awaited `kind` frame now."""
        m = self.m
        ledger = m.require_book().ledger
        claim = ledger.claim
        if claim is None:
            return True
        if claim.open and claim.blamed == seat and kind in DECISIONS:
            remaining = m.require_deadlines().remaining(kind, seat, m.now)
            return remaining is None or remaining > 0    # late by our own clock: the claim may stand
        closing = not claim.open and claim.blamed != seat and kind in ("seed", "final")
        if not closing or ledger.status == "contested":
            return True
        if self._refuse(claim):
            return False
        if self.final_seen is None or self.final_seen[0] != claim.frame_no:
            self.final_seen = (claim.frame_no, m.now)   # (a copy resumed from its file: heard out from now)
        return self._heard_out(claim, self.final_seen[1], m.require_deadlines().due(kind, seat))

    def _heard_out(self, claim, since: float, due: float | None) -> bool:
        """Whether the blamed seat had `ANSWER_WAIT` since `since` (when the claim reached us, or became final
        here) to tell us directly that it was playing. Only a joiner waits, and only for a seat that it
        witnesses on a joiners' link: the host's links are all its own, and a claim against the host's seat
        came from the host's own peer. A frame of ours that falls due before the wait is over (terms with
        next to no lateness allowance) is not sent on an unheard claim: we refuse, and nobody is blamed."""
        m = self.m
        if m.role == "host" or claim.blamed == m.host_seat or m.witness_key(claim.blamed) is None:
            return True
        if m.now >= since + ANSWER_WAIT:
            return True     # (what it said meanwhile, `_refuse` and `_refused_closing` have read)
        if due is not None and m.now >= due:
            self.refusing, self.refusing_since = claim.frame_no, m.now
            self.refusal = (f"the terms leave too little time to hear seat {claim.blamed} out ({ANSWER_WAIT:g} s) "
                            "before this peer's own frame is due")
            m.say(f"not co-signing the forfeit of seat {claim.blamed}: {self.refusal}")
        return False

    def _refuse(self, claim) -> bool:
        """Whether we refuse to co-sign the forfeit of `claim`: its seat's frame reached us in time, or the
        claim came before that frame was due by our own clock (the claimant's clock is not evidence)."""
        if self.refusing == claim.frame_no:
            return True
        early = self.early[1] if self.early is not None and self.early[0] == claim.frame_no else False
        why: str | None
        if early is not False:
            why = ("the claim came while its decision was untimed here" if early is None else
                   f"the claim came {early:.1f} s before its frame was due by this peer's clock")
        elif self._answer_seen(claim.kind, claim.blamed) is not None:
            why = f"its {claim.kind} frame reached this peer"
        else:
            why = self.unwitnessed(claim)
            if why is None:
                return False
        self.refusing, self.refusing_since, self.refusal = claim.frame_no, self.m.now, why
        self.m.say(f"not co-signing the forfeit of seat {claim.blamed}: {why}")
        return True

    def unwitnessed(self, claim) -> str | None:
        """Why this peer cannot witness the blamed seat's silence itself (None: it can). Only a joiner asks:
        the host's links are all its own. A seat's silence counts only on a direct link to its peer that was
        up over the claimed frame's whole window; a frame that seat signed for the claimed slot or later, by
        any route and on any branch, shows that it was playing."""
        m = self.m
        if m.role == "host":
            return None
        blamed = claim.blamed
        if self.latest.get(blamed, -1) >= claim.frame_no:
            return (f"a frame signed by seat {blamed} for frame {self.latest[blamed]} (the claimed one or later) "
                    "reached this peer: it was playing")
        key = m.witness_key(blamed)
        link = None if key is None else m.links.get(key)
        since = self.claimed_since if self.claimed_since is not None else m.now
        if link is None or (not link.up and link.changed == 0.0):
            return (f"seat {blamed} reaches this peer only through the host's relay: the host's silence about it "
                    "is no evidence")
        if not link.up or link.changed > since:
            return (f"this peer's direct link to seat {blamed} was not up over the claimed frame's whole window: "
                    "its silence is no evidence")
        return None

    def _refused_closing(self, claim) -> bool:
        """Whether we do not close `claim` (our frame would make it final): we cannot witness the silence."""
        if self.refusing == claim.frame_no:
            return True
        why = self.unwitnessed(claim)
        if why is None:
            return False
        self.refusing, self.refusing_since, self.refusal = claim.frame_no, self.m.now, why
        self.m.say(f"not co-signing the forfeit of seat {claim.blamed}: {why}")
        return True

    def closing_frame(self) -> Frame | None:
        """Our frame that makes an open claim final, once it is due by our own clock and we hold no answer."""
        m = self.m
        book = m.require_book()
        ledger = book.ledger
        claim = ledger.claim
        if claim is None or not claim.open:
            return None
        kind, closer = ledger.expects()[1]
        if not book.holds(closer) or book.holds(claim.blamed):
            return None
        due = m.require_deadlines().due(claim.kind, claim.blamed)
        if due is None:    # an untimed decision of a seat that is here: we wait the reveal timeout
            due = m.require_deadlines().since + m.require_deadlines().timeout
        if m.now < max(due, self.claim_seen_at):
            return None
        answer = self._answer_seen(claim.kind, claim.blamed)
        if answer is not None:
            self.forward(answer)
            return None
        if self._refused_closing(claim) or not self._heard_out(claim, self.claim_seen_at, None):
            return None
        m.say(f"seat {claim.blamed} did not answer the claim in time: the claim stands")
        return book.ledger_for(closer).build_after_claim()

    def forward(self, frame: Frame) -> None:
        """Pass a frame its author sent us to the host (once): the host may never have received it."""
        m = self.m
        if frame.hash in self.forwarded or m.role == "host":
            return
        self.forwarded.add(frame.hash)
        m.send_frame(frame)

    # ------------------------------------------------------------------------------ our own frames in flight

    def sent(self, frame: Frame) -> None:
        """We sent `frame` (a joiner: to the host). An answer to a claim against us is evidence."""
        m = self.m
        ledger = m.require_book().ledger
        claim = ledger.claim
        nxt = ledger.expects()
        if frame.kind in ("timeout", "contest"):
            return
        if nxt and m.require_book().holds(frame.seat) and nxt[0][1] == frame.seat:
            due = m.require_deadlines().due(nxt[0][0], frame.seat)
            self.evidence = frame
            self.evidence_in_time = due is None or m.now <= due or nxt[0][0] not in DECISIONS
        if claim is not None and claim.open and claim.blamed == frame.seat:
            m.say("answered the claim")

    # ------------------------------------------------------------------------------ timers

    def tick(self) -> None:
        m = self.m
        book = m.book
        if book is None or m.phase is not Phase.PLAY or m.outcome is not None:
            return
        if m.state.unstarted():
            # no frame is due before the game is on: the host may still be waiting for another seat to start
            # (or let it go and wait for a new player); a joiner timing frames from the header blamed an honest
            # host for an open frame it may not send yet (plan 1007759: one joiner's `start` refused)
            return
        ledger = book.ledger
        deadlines = m.require_deadlines()
        deadlines.moved(len(ledger.frames), None if ledger.closed else ledger.awaited(), m.now, ledger.frames)
        if self.owed is not None and not self.contested and m.role != "host" \
                and m.now - self.owed_since > CONTEST_WAIT:
            m.record_contest_alone()
            return
        if ledger.closed:
            return
        if self._mine_overdue():
            return
        if self.stall_since is not None and m.now - self.stall_since > deadlines.timeout:
            m.stop_unfinished("the host does not sequence the frame the game awaits")
            return
        if self.refusing is not None and m.now - self.refusing_since > deadlines.timeout:
            refused = ledger.claim
            assert refused is not None, "refusing to co-sign a forfeit: its claim stands"
            m.stop_unfinished(f"this peer does not co-sign the forfeit of seat {refused.blamed} ({self.refusal}),"
                              " and no contest was passed on")
            return
        if ledger.status == "claimed":
            self._window_unclosed()
            return
        if ledger.claim is not None and not ledger.claim.open:
            self._cosigner_late()
            return
        nxt = ledger.claimable()
        if nxt is None or book.holds(nxt[1]):
            return
        kind, seat = nxt
        remaining = deadlines.remaining(kind, seat, m.now)
        if remaining is None or remaining + self.grace() > 0:
            return
        answer = self._answer_seen(kind, seat)
        if answer is not None:    # its author sent it: the host does not sequence it
            self.forward(answer)
            if self.stall_since is None:
                self.stall_since = m.now
            return
        self.claim(kind, seat, m.now - deadlines.since)

    def grace(self) -> float:
        """How long after a frame's due time by our clock this peer claims it: the host `CLAIM_SKEW` late (so a
        co-signer whose clock started the frame a network delay later finds it due), a joiner `JOINER_GRACE`
        late (so an honest host's claim comes first)."""
        return CLAIM_SKEW if self.m.role == "host" else JOINER_GRACE

    def claim_in(self, seat: int, now: float) -> float | None:
        """Seconds until this peer's tick claims that `seat` withheld the frame awaited now (None: no claim is
        due against it): the very test `tick` makes, `remaining + grace() <= 0`, read at `now` without moving
        anything, so a countdown shown from it reaches 0 at the tick that claims."""
        m = self.m
        book = m.book
        if book is None or m.phase is not Phase.PLAY or book.ledger.closed or m.deadlines is None:
            return None
        nxt = book.ledger.claimable()
        if nxt is None or nxt[1] != seat:
            return None
        remaining = m.deadlines.remaining(nxt[0], nxt[1], now)
        return None if remaining is None else max(0.0, remaining + self.grace())

    def _window_unclosed(self) -> None:
        """An open claim that neither its blamed seat answers nor the seat whose frame makes it final closes
        (that seat refused to co-sign it and left, or lost its link): nobody else may close it for that seat,
        so once the claim has stood open a whole reveal timeout past its due time the game stops here,
        unfinished and nobody blamed (seed 1270 of the quick campaign, a variant: the host and the third
        joiner waited for ever for the refusing joiner's seed)."""
        m = self.m
        ledger = m.require_book().ledger
        claim = ledger.claim
        expects = ledger.expects()
        if claim is None or len(expects) < 2 or m.require_book().holds(expects[1][1]) \
                or m.require_book().holds(claim.blamed):
            return
        if self.open_since is None or self.open_since[0] != claim.frame_no:
            self.open_since = (claim.frame_no, m.now)   # timed from here (a resumed peer: from its resume)
        left = m.require_deadlines().remaining(claim.kind, claim.blamed, m.now)
        grace = 0.0 if m.role == "host" else JOINER_GRACE
        waited = m.now - self.open_since[1]
        # (None: not due at all by our clock, an untimed decision of a seat that is here: it may still answer)
        if left is None or left > 0 or waited <= m.require_deadlines().timeout + grace:
            return
        kind, seat = expects[1]
        m.stop_unfinished(f"the claim against seat {claim.blamed} stays open: seat {claim.blamed} did not answer it "
                          f"and seat {seat} did not send its {kind} for it within {waited:.0f} s (nobody is blamed)")

    def _cosigner_late(self) -> None:
        """A final claim, and a seat that should reveal its seed or co-sign the forfeit does not: no second
        claim (a forfeit is not claimed twice); the game ends here, the forfeit as far as we can tell."""
        m = self.m
        ledger = m.require_book().ledger
        nxt = ledger.awaited()
        claim = ledger.claim
        assert claim is not None, "called on a final claim (tick)"
        if nxt is None or m.require_book().holds(nxt[1]) or m.require_book().holds(claim.blamed):
            return
        remaining = m.require_deadlines().remaining(nxt[0], nxt[1], m.now)
        grace = 0.0 if m.role == "host" else JOINER_GRACE
        if remaining is None or remaining + grace > 0:
            return
        unseen = self.unwitnessed(claim)
        if unseen is not None:    # not ours to say: we could not have seen that seat's silence ourselves
            m.stop_unfinished(f"the claim against seat {claim.blamed} stands unconfirmed (seat {nxt[1]} did not send "
                              f"its {nxt[0]} for it) and this peer cannot confirm it: {unseen}")
            return
        text = (f"seat {claim.blamed} forfeits as far as this peer can tell: it withheld its {claim.kind} frame; "
                f"seat {nxt[1]} did not send its {nxt[0]} for the forfeit")
        m.say(text)
        m.finish(EXIT_FORFEIT, f"{text}; replay {m.require_book().path}")

    def claim(self, kind: str, seat: int, waited: float) -> None:
        m = self.m
        if self.mine is not None or m.now - self.refused_at < m.require_deadlines().timeout:
            return   # one claim at a time; after a refusal, wait a whole timeout before asking again
        claimant = m.require_book().seat
        m.say(f"seat {seat} has not sent its {kind} frame for {waited:.1f} s{self._ran_out(kind, seat)}: "
              "claiming the timeout")
        frame = m.require_book().ledger_for(claimant).build_timeout()
        if m.role == "host":
            m.emit(frame)
            return
        self.mine, self.mine_until = frame, m.now + CLAIM_WAIT
        m.send_frame(frame)

    def _mine_overdue(self) -> bool:
        """A joiner's claim that the host neither sequenced nor refused in time: against the host's own frame,
        record it ourselves; against another seat, the host stalls (the game will stop unfinished)."""
        m = self.m
        mine = self.mine
        if mine is None:
            return False
        until = self.mine_until if self.host_frame_until is None else self.host_frame_until
        if m.now <= until:
            return False
        ledger = m.require_book().ledger
        if mine.seq != len(ledger.frames):
            self.mine = None
            return False
        blamed = mine.body[0]
        if blamed != m.host_seat:
            self.mine, self.refused_at = None, m.now
            if self.stall_since is None:
                self.stall_since = m.now
            return False
        self.mine = None
        self.host_frame_until = None
        m.say("the host neither passed our claim on nor answered it: recorded it in our own replay")
        self._record_alone(mine)
        return True

    def _record_alone(self, claim: Frame) -> None:
        """Our claim against the host, which it neither sequenced nor answered: accept it into our own
        replay, with our seed and co-signature where they are ours to give, and stop."""
        m = self.m
        book = m.require_book()
        ledger = book.ledger
        try:
            m.accept_alone(claim)
            for _ in range(2 * ledger.players + 2):
                own = None
                for seat in book.seats:
                    led = book.ledger_for(seat)
                    own = led.build_after_claim() if ledger.status == "claimed" else led.build_next()
                    if own is not None:
                        break
                if own is None:
                    break
                m.accept_alone(own)
        except (Rejected, Dispute) as exc:
            m.finish(EXIT_FAILED, f"our own timeout claim was refused by our ledger: {exc}")
            return
        if ledger.closed:
            m.game_closed()
            return
        claim_ = ledger.claim
        assert claim_ is not None, "our claim, accepted and not closed, stands"
        text = (f"seat {claim_.blamed} forfeits as far as this peer can tell: it withheld its {claim_.kind} frame and "
                "the host passed nothing on (claimed by you; the other seats could not co-sign)")
        m.say(text)
        m.finish(EXIT_FORFEIT, f"{text}; replay {book.path}")

    def rejected(self, seq: int, code: str, reason: str) -> bool:
        """The host's `reject`: True if it concerned our claim in flight."""
        m = self.m
        mine = self.mine
        if mine is None or seq not in (mine.seq, -1):
            return False
        m.say(f"the host refused our timeout claim: {reason}")
        self.mine, self.refused_at = None, m.now
        if code == "host-frame":
            # the host says its own frame is on its way: it gets one more answer window, not forever
            self.mine, self.host_frame_until = mine, m.now + CLAIM_WAIT
        return True

    # ------------------------------------------------------------------------------ the host's admission

    def premature(self, frame: Frame) -> tuple[str, str] | None:
        """(code, why) a joiner's timeout claim may not be sequenced now by the host's clock (None: it may,
        or it is no fitting claim, which the ledger rejects or disputes)."""
        m = self.m
        if frame.kind != "timeout" or not frame.body or type(frame.body[0]) is not int:
            return None
        # (read as attributes, not through require_book(): tests/test_deadlines.py gives this a bare machine)
        book, deadlines = m.book, m.deadlines
        assert book is not None, "a claim is admitted in a game under way"
        ledger = book.ledger
        awaited = ledger.claimable()
        if awaited is None or frame.seq != len(ledger.frames):
            return None
        kind, seat = awaited
        if book.holds(seat):
            if kind not in DECISIONS:
                return "host-frame", "the host is here; its frame is on its way"
            assert deadlines is not None, "a game under way has its clocks (start_lines)"
            remaining = deadlines.remaining(kind, seat, m.now)
            if remaining is None:
                return "untimed", "the host is here and deciding; thinking is untimed"
            if remaining > 0:
                return "premature", f"the host's decision has {remaining:.1f} s left"
            return None   # our own deadline has passed: the claim stands
        assert deadlines is not None, "a game under way has its clocks (start_lines)"
        remaining = deadlines.remaining(kind, seat, m.now)
        if remaining is None:
            return "untimed", f"seat {seat} is connected and deciding; thinking is untimed"
        if remaining > 0:
            return "premature", f"seat {seat}'s {kind} frame is due in {remaining:.1f} s by the host's clock"
        return None

    def late_answer(self, frame: Frame) -> str | None:
        """Why the host does not sequence the blamed seat's answer to an open claim (None: it does): the
        claimed frame is due by the host's clock, so the claim stands."""
        m = self.m
        ledger = m.require_book().ledger
        claim = ledger.claim
        if claim is None or not claim.open or frame.seat != claim.blamed or frame.seq != len(ledger.frames):
            return None
        if not (frame.kind == claim.kind or (claim.kind == "commit" and frame.kind == "act")):
            return None
        remaining = m.require_deadlines().remaining(claim.kind, claim.blamed, m.now)
        if remaining is None or remaining > 0:
            return None
        return f"seat {claim.blamed}'s {claim.kind} frame came {-remaining:.1f} s after its deadline: the claim stands"

    # ------------------------------------------------------------------------------ words

    def _ran_out(self, kind: str, seat: int) -> str:
        m = self.m
        if kind not in DECISIONS:
            return ""
        left = m.require_deadlines().allowance(seat, m.now)
        if left is not None and left <= 0:
            return f" (its move clock, {m.require_deadlines().terms.describe_clock()}, ran out)"
        return ""

    def late_words(self, kind: str, seat: int) -> str:
        """How late a claimed frame is, in words."""
        m = self.m
        if kind in DECISIONS and m.require_deadlines().terms.clock is not None:
            left = m.require_deadlines().allowance(seat, m.now)
            if left is not None and left <= 0:
                return f"past its move clock ({m.require_deadlines().terms.describe_clock()})"
        return "past its deadline"

    def may_close(self) -> bool:
        """Whether the session may report the closed game now: not while our contest is on its way, nor in
        the first `CONTEST_WAIT` after a forfeit of another seat (its contest may be on its way)."""
        m = self.m
        ledger = m.require_book().ledger
        if ledger.status != "unfinished":
            return True
        if self.owed is not None and not self.contested:
            return False
        blamed = ledger.claim.blamed if ledger.claim is not None else None
        return (blamed is None or m.require_book().holds(blamed) or self.unfinished_at is None
                or m.now - self.unfinished_at >= CONTEST_WAIT)


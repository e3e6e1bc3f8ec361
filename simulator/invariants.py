"""The promises of a session, checked on every simulated run against the simulator's ground truth.

- **No crash.** No exception escapes a peer's state machine, whatever it is sent: any peer's, a liar's
  included. A liar is an honest machine with hooks (simulator/adversary.py, simulator/liar.py): what it
  sends, receives and decides passes them, and what it signs it signs with its own keys, so whatever its
  lies make the other peers send it, and whatever corner its own honest state gets into, an honest peer can
  meet too (the same messages from another liar, the same state after a run of bad luck). So every crash
  is a violation, with no exemption: one raised in a strategy's own code (the traceback's last frame in
  simulator/adversary.py or simulator/liar.py), or by a machine a strategy corrupted in a way no wire
  message can, is a bug of the strategy, to fix so that it does only what the wire allows. The report
  names the file that raised (`_raised_in`) so that a reader sees at once whose bug it is.
- **No honest blame.** An honest peer's own copy never ends with its own forfeit (a final timeout claim
  against one of its seats, not contested) unless, by the ground truth, that peer was dead or cut off
  from the host for longer than its deadline; no honest copy co-signs (or shows complete) the forfeit of
  another honest seat unless that seat was dead or cut off; no honest copy holds a dispute that blames an
  honest seat. With two seats an abort leaves the honest copy unfinished or contested, never lost.
- **Bounded time.** Every honest peer ends (finished, the liar's forfeit, contested, unfinished) within a
  bound computed from the agreed terms and the frames played, plus the time the run's faults cost, plus
  the bounds of the waits outside a game (`lobby_bound`: the lobby, a start that never comes, every
  rematch); only an honest host whose first lobby still waits for players (its person's own wait) is not
  held to it.
- **Agreement.** Honest copies hold the same frame wherever both hold one the host sequenced, unless a
  proof that the host equivocated (two of its certificates for one number) is in every honest copy of
  three seats or more that met the fork (and that peer stopped, naming the host). Two joiners that never
  had a direct link (no address reached them) may hold an unproven fork, provided neither copy completes.
- **Bounded memory.** The buffers a peer keeps for others (frames seen, frames ahead, acknowledgements,
  reported frames) stay within their caps.
- **Liveness.** With every seat honest and no faults, or only crashes that a resume repairs, every game
  completes and every copy is valid and the same; no frame a peer acknowledged is lost across a crash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from netplay.deadlines import DECISIONS
from netplay.protocol.claims import MAX_SEEN
from netplay.protocol.following import MAX_AHEAD
from netplay.protocol.state import Phase
from netplay.protocol.waits import OFFER_S
from replays.audit import audit_bytes
from replays.codec import encode
from simulator.bounds import bound, lobby_bound
from simulator.sessions import check_waits, session_bound

__all__ = ["Report", "check", "bound", "lobby_bound", "waiting_for_players"]


@dataclass(slots=True)
class Report:
    violations: list[str] = field(default_factory=list)
    outcomes: dict[int, Any] = field(default_factory=dict)
    frames: int = 0
    bound: float = 0.0
    ended_at: dict[int, float] = field(default_factory=dict)
    audited: int = 0

    @property
    def ok(self) -> bool:
        return not self.violations


def _away(world: Any, index: int, since: float, until: float) -> float:
    """How long peer `index` was dead, or had no link to the host, within [since, until] (ground truth)."""
    total = 0.0
    for start, end in world.peers[index].down:
        total += max(0.0, min(end, until) - max(start, since))
    if index != 0:
        down_at = None
        for when, kind, args in world.history:
            if kind in ("down", "up") and set(args) == {0, index}:
                if kind == "down" and down_at is None:
                    down_at = when
                elif kind == "up" and down_at is not None:
                    total += max(0.0, min(when, until) - max(down_at, since))
                    down_at = None
        if down_at is not None:
            total += max(0.0, until - max(down_at, since))
    return total


def _deadline(world: Any, kind: str) -> float:
    """The shortest deadline a frame of `kind` can have under the run's terms (ground truth's yardstick)."""
    terms = world.terms
    if kind not in DECISIONS:
        return terms.frame_limit_ms / 1000
    limits = [terms.reveal_timeout_ms / 1000]
    if terms.move_ms is not None:
        limits.append(terms.move_ms / 1000)
    if terms.clock is not None:
        limits.append(terms.clock[1] / 1000 or terms.clock[0] / 1000)
    return min(limits)


def waiting_for_players(world: Any, peer: Any) -> bool:
    """An honest host whose first lobby waits for players (a seat free, no header, nobody else connected to
    it any more, after the joiners' first moments): its person's own wait, which nobody else holds up."""
    machine = peer.machine
    if (machine is None or machine.role != "host" or machine.phase is not Phase.LOBBY or machine.games_done
            or machine.header is not None or peer.outcome is not None or world.now <= OFFER_S):
        return False
    return not any(frozenset((0, q.index)) in world.links and q.outcome is None for q in world.peers[1:])


def check(world: Any, honest_only: bool, repairable: bool, audit: bool = True) -> Report:
    """Every invariant over a finished run. `honest_only`: every seat honest; `repairable`: the only faults
    were crashes and link drops short enough for a resume to repair."""
    report = Report()
    # (a joiner that never came is nobody's peer: it has no copy and no wait of its own)
    honest = [p for p in world.peers if p.adversary is None and p.index not in world.absent]
    # which seat each peer plays: peer n plays the seat its key holds in any header it saw
    seat_of: dict[int, int] = {}
    for p in world.peers:
        header = p.disk.header
        if header is not None:
            for s, (key, _) in enumerate(header.seats):
                if key == p.key:
                    seat_of[p.index] = s
    honest_seats = {seat_of[p.index] for p in honest if p.index in seat_of}
    for p in world.peers:
        report.outcomes[p.index] = p.outcome
        if p.crash is not None:     # a liar's peer too (the module's docstring): honest code crashed all the same
            who = f" (a liar: {p.adversary.name})" if p.adversary is not None else ""
            report.violations.append(f"peer {p.index}{who} crashed in {_raised_in(p.crash)}:\n{p.crash}")
    longest = max((len(p.disk.frames) for p in world.peers), default=0)
    report.frames = longest
    report.bound = session_bound(world, longest) + lobby_bound(world)   # each game's, and the waits'
    ended = {args[0]: when for when, kind, args in world.history if kind == "ended"}
    report.ended_at = ended
    for p in honest:
        if p.outcome is None and p.crash is None and waiting_for_players(world, p):
            continue   # a host's first lobby that waits for players (one that never came back): its own wait
        if p.outcome is None and p.crash is None:
            report.violations.append(f"honest peer {p.index} did not end within {world.now:.0f} s (bound "
                                     f"{report.bound:.0f} s): last lines {p.lines[-3:]}")
        elif p.index in ended and ended[p.index] > report.bound:
            report.violations.append(f"honest peer {p.index} ended at {ended[p.index]:.0f} s, after the bound "
                                     f"{report.bound:.0f} s")
    for p in honest:
        machine = p.machine
        if machine is None or machine.book is None:
            continue
        _blame(world, p, machine, honest_seats, report)
        _memory(p, machine, report)
    _agreement(world, honest, report)
    check_waits(world, honest, report)
    if honest_only or repairable:
        _liveness(world, report, audit)
    _acked(world, honest, report)
    return report


def _raised_in(trace: str) -> str:
    """The file and line that raised, from a formatted traceback (its last `File "...", line N` entry), the
    path from the project's root: a crash's first line then says whether honest code (netplay/, replays/,
    engines/) or a strategy (simulator/adversary.py, simulator/liar.py) raised."""
    sites = _SITE.findall(trace)
    if not sites:
        return "an unknown place"
    path, line = sites[-1]
    for root in ("netplay/", "replays/", "engines/", "simulator/", "bots/", "tests/"):
        at = path.rfind("/" + root)
        if at >= 0:
            path = path[at + 1:]
            break
    return f"{path}:{line}"


_SITE = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.MULTILINE)


def _blame(world: Any, p: Any, machine: Any, honest_seats: set[int], report: Report) -> None:
    book = machine.book
    ledger = book.ledger
    claim = ledger.claim
    if ledger.status == "disputed" and ledger.dispute is not None and ledger.dispute.seat in honest_seats:
        report.violations.append(f"honest peer {p.index}'s copy blames honest seat {ledger.dispute.seat}: "
                                 f"{ledger.dispute.reason}")
    if claim is None or claim.open or ledger.status == "contested":
        return
    blamed = claim.blamed
    if blamed not in honest_seats:
        return
    owner = next((q for q in world.peers if q.machine is not None and q.machine.book is not None
                  and q.machine.book.holds(blamed)), None)
    owner_index = owner.index if owner is not None else blamed
    away = _away(world, owner_index, 0.0, world.now)
    deadline = _deadline(world, claim.kind)
    cosigned = ledger.status == "unfinished"
    late_decision = claim.kind in DECISIONS and world.think_max >= deadline
    if book.holds(blamed):
        if cosigned and away < deadline and not late_decision:
            report.violations.append(f"honest peer {p.index}'s own copy shows its own forfeit (seat {blamed}, "
                                     f"{claim.kind} frame {claim.frame_no}); it was away {away:.1f} s")
        return
    signed = [f for f in ledger.frames[claim.frame_no + 1:] if book.holds(f.seat) and f.kind in ("seed", "final")]
    if world.lost.get(owner_index):
        return     # the network lost that seat's messages: its link was (partly) down
    if (cosigned or signed) and away < deadline and not late_decision:
        report.violations.append(f"honest peer {p.index} co-signs or shows the forfeit of honest seat {blamed} "
                                 f"({claim.kind} frame {claim.frame_no}), which was away only {away:.1f} s")


def _memory(p: Any, machine: Any, report: Report) -> None:
    claims = machine.claims
    if any(len(v) > MAX_SEEN for v in claims.seen.values()) or len(claims.seen) > 4:
        report.violations.append(f"peer {p.index} keeps too many unsequenced frames ({len(claims.seen)} numbers)")
    following = getattr(machine, "following", None)
    if following is not None:
        for name in ("ahead", "acks"):
            if len(getattr(following, name)) > MAX_AHEAD:
                report.violations.append(f"peer {p.index} keeps {len(getattr(following, name))} {name}")
        if len(following.holders) > world_players(machine):
            report.violations.append(f"peer {p.index} tracks {len(following.holders)} holders")


def world_players(machine: Any) -> int:
    return max(machine.players, 1)


def _agreement(world: Any, honest: list, report: Report) -> None:
    copies = []
    for p in honest:
        machine = p.machine
        book = machine.book if machine is not None else None
        if book is None:
            continue
        copies.append((p, book, _proofs(p)))
    for i, (pa, ba, proofs_a) in enumerate(copies):
        for pb, bb, proofs_b in copies[i + 1:]:
            if ba.header.session != bb.header.session:
                continue
            if _relay_only(world, pa, pb) and "complete" not in (ba.ledger.status, bb.ledger.status):
                continue    # only the host carried their messages: it can fork them unseen, never make both end
            for seq in range(min(len(ba.frames), len(bb.frames))):
                if not (ba.sequenced(seq) and bb.sequenced(seq)):
                    continue
                if ba.frames[seq].hash != bb.frames[seq].hash:
                    named_a = proofs_a or _disputed(ba, seq)
                    named_b = proofs_b or _disputed(bb, seq)
                    if named_a or named_b:
                        for q, named in ((pa, named_a), (pb, named_b)):
                            if not named and not world.faults.partition:
                                report.violations.append(f"honest peer {q.index} met the host's fork at frame {seq} "
                                                         "without naming it")
                    else:
                        report.violations.append(f"honest peers {pa.index} and {pb.index} hold different sequenced "
                                                 f"frames {seq} and no proof names the host")
                    break


def _relay_only(world: Any, pa: Any, pb: Any) -> bool:
    """Two joiners that never had a direct link (no address reached them, issue 32): nothing can prove a fork
    of the host's between them, and an honest copy must then end unfinished or contested, never complete."""
    return 0 not in (pa.index, pb.index) and frozenset((pa.index, pb.index)) not in world.mesh_wanted


def _disputed(book: Any, seq: int) -> bool:
    """Whether this copy stopped in a dispute at frame `seq` (the frame that differs is its evidence), or in
    a dispute that names that frame's author (a liar caught in another frame first is named all the same)."""
    ledger = book.ledger
    dispute = ledger.dispute
    return ledger.status == "disputed" and dispute is not None and (
        dispute.frame_no == seq or dispute.seat == book.frames[seq].seat)


def _proofs(p: Any) -> bool:
    """Whether peer p's disk holds two host certificates for one frame number (an equivocation proof)."""
    seen: dict[int, set[bytes]] = {}
    for record in p.disk.records:
        if record and record[0] in ("cert", "ack"):
            seen.setdefault(record[2], set()).add(record[3])
        if record and record[0] == "twin":
            return True
    return any(len(h) > 1 for h in seen.values())


def _liveness(world: Any, report: Report, audit: bool) -> None:
    terms = world.terms
    allowance = min((terms.lateness_ms + terms.frame_limit_ms) / 1000, terms.reveal_timeout_ms / 1000)
    if any(_away(world, p.index, 0.0, world.now) >= allowance for p in world.peers):
        return    # a peer was away for longer than the terms allow in all: a claim against it may stand
    for p in world.peers:
        if p.outcome is None or p.outcome.code != 0:
            report.violations.append(f"an honest game did not complete at peer {p.index}: {p.outcome}")
            return
    frames = [tuple(p.disk.frames) for p in world.peers if p.disk.header is not None]
    if len(set(frames)) != 1:
        report.violations.append("the copies of an honest game differ")
        return
    host = world.peers[0]
    ledger = host.machine.book.ledger if host.machine is not None and host.machine.book is not None else None
    if ledger is None or ledger.status != "complete":
        report.violations.append(f"the host's own ledger of an honest game is {getattr(ledger, 'status', None)}")
        return
    if not audit:
        return
    data = encode(host.disk.header.value()) + b"".join(host.disk.frames)
    verdict = audit_bytes(data, name=f"peer 0 of run {world.seed}")
    report.audited += 1
    if verdict.status != "valid":
        report.violations.append(f"the copy of an honest game is {verdict.status}: {verdict.reason}")


def _acked(world: Any, honest: list, report: Report) -> None:
    """No frame a peer acknowledged is lost: each is in its own copy, and in the host's copy (which sequenced
    it), also after a crash and resume."""
    host = world.peers[0]
    host_frames = host.machine.book.frames if host.machine is not None and host.machine.book is not None else None
    for p in honest:
        machine = p.machine
        if machine is None or machine.book is None:
            continue
        frames = machine.book.frames
        for seq, digest in p.acked.items():
            if seq < len(frames) and frames[seq].hash != digest:
                report.violations.append(f"peer {p.index} lost its acknowledged frame {seq}")
                return
            if seq >= len(frames) and p.outcome is not None and p.outcome.code == 0:
                report.violations.append(f"peer {p.index}'s acknowledged frame {seq} is gone from its copy")
                return
            if (host.adversary is None and host_frames is not None and host.disk.header is not None
                    and host.disk.header.session == machine.book.header.session and seq < len(host_frames)
                    and host_frames[seq].hash != digest):
                report.violations.append(f"the host lost frame {seq} that peer {p.index} acknowledged")
                return

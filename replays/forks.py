"""Several seats' replays of one game, compared: where the transcripts fork, and who signed what.

Each seat writes the frames it accepted, so honest copies of one game agree frame for frame. Where two
copies hold different frames under one frame number, the signatures say what can be proven: a seat
that signed two different frames for one number is named (it equivocated); a host whose certificates
(replays.certs) put two different frames at one number is named (it sent different frames to
different seats). Otherwise the fork is reported without blame. Only what each copy's audit found
genuine is compared: its frames before the one it is invalid at (a copy rejected at frame k, or
disputed live at k, says nothing checked after it; a disputed frame is signed and chained, so it
counts), and only its host's certificates (`replays.audit.host_seat`). A timeout claim that one copy ends
with and the blamed seat's copy contests is reported as contested.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from replays import codec
from replays.audit import Verdict, audit_replay, host_seat
from replays.certs import verify_cert
from replays.frames import Frame
from replays.reader import Replay, read_replay

__all__ = ["Fork", "compare", "verify_files"]


@dataclass(slots=True)
class Fork:
    """What comparing copies of one session found."""

    session: str
    frame: int
    reason: str
    blame: int | None = None
    paths: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "frame": self.frame, "reason": self.reason, "blame": self.blame,
                "paths": self.paths}


def compare(replays: list[Replay], verdicts: list[Verdict]) -> list[Fork]:
    """Compare the replays that share a session id (2 or more files of one game)."""
    groups: dict[bytes, list[int]] = {}
    for i, replay in enumerate(replays):
        groups.setdefault(replay.header.session, []).append(i)
    found: list[Fork] = []
    for session, members in groups.items():
        if len(members) > 1:
            found += _compare_one(session, [replays[i] for i in members], [verdicts[i] for i in members])
    return found


def _compare_one(session: bytes, replays: list[Replay], verdicts: list[Verdict]) -> list[Fork]:
    tag = session.hex()[:8]
    headers = {r.header.hash for r in replays}
    if len(headers) > 1:
        return [Fork(tag, -1, "the copies carry different headers for one session id (seats or terms differ)",
                     None, [r.path for r in replays])]
    seats = replays[0].header.seats
    by_seq: dict[int, dict[bytes, tuple[Frame, str]]] = {}
    for replay, verdict in zip(replays, verdicts, strict=True):
        # only the frames the audit found genuine count: a copy that is invalid at a frame (rejected,
        # or disputed live, after which nothing is checked) proves nothing with what follows it
        for frame in replay.frames[:verdict.checked]:
            by_seq.setdefault(frame.seq, {}).setdefault(frame.hash, (frame, replay.path))
    forks: list[Fork] = []
    for seq in sorted(by_seq):
        variants = by_seq[seq]
        if len(variants) < 2:
            continue
        frames = list(variants.values())
        paths = [path for _, path in frames]
        signers = {frame.seat for frame, _ in frames}
        if len(signers) < len(frames):
            seat = next(s for s in signers if sum(f.seat == s for f, _ in frames) > 1)
            forks.append(Fork(tag, seq, f"seat {seat} signed two different frames as frame {seq}: it told seats "
                                        "different things (both frames are in these files)", seat, paths))
        else:
            host = _double_certifier(session, seats, replays, seq, set(variants))
            if host is not None:
                forks.append(Fork(tag, seq, f"the host (seat {host}) certified different frames as frame {seq}: "
                                            "it sent different frames to different seats (its two signed "
                                            "certificates are in these files)", host, paths))
            else:
                described = "; ".join(f"{path}: seat {frame.seat}'s {frame.kind} frame" for frame, path in frames)
                forks.append(Fork(tag, seq, f"the copies fork at frame {seq} ({described}); no signature shows "
                                            "who sent which to whom", None, paths))
        break   # after the first fork the copies differ everywhere: the first one is the finding
    forks += _claim_against_contest(tag, verdicts)
    return forks


def _double_certifier(session: bytes, seats: tuple, replays: list[Replay], seq: int, hashes: set[bytes]) -> int | None:
    """The seat whose valid certificates put two of `hashes` at `seq`, if these files hold them."""
    certified: dict[int, set[bytes]] = {}
    for replay in replays:
        host = host_seat(replay)
        for cert in replay.certs:
            signer, sig = (cert.seat, cert.sig) if cert.kind == "cert" else (cert.host_seat, cert.host_sig)
            if (cert.seq == seq and cert.hash in hashes and signer == host and 0 <= signer < len(seats)
                    and verify_cert(seats[signer][0], session, seq, cert.hash, sig)):
                certified.setdefault(signer, set()).add(cert.hash)
    return next((s for s, got in certified.items() if len(got) > 1), None)


def _claim_against_contest(tag: str, verdicts: list[Verdict]) -> list[Fork]:
    claims = [v for v in verdicts if v.claim is not None]
    forfeits = [v for v in claims if v.status == "unfinished" and v.claim is not None and v.claim["final"]]
    contests = [v for v in claims if v.status == "contested"]
    claim = forfeits[0].claim if forfeits else None
    if claim is not None and contests:
        reason = (f"contested: seat {claim['claimant']}'s copy ends with seat {claim['blamed']}'s forfeit, and seat "
                  f"{claim['blamed']}'s copy contests the claim; nobody can be proven at fault, so nobody forfeits")
        return [Fork(tag, claim["frame"], reason, None, [v.path for v in (*forfeits, *contests)])]
    return []


def verify_files(paths: list[str | os.PathLike], games: dict | None = None,
                 tick: Callable[[], None] | None = None) -> tuple[list[Verdict], list[Fork]]:
    """Audit every file, then compare the copies of each game among them."""
    verdicts: list[Verdict] = []
    readable: list[Replay] = []
    audited: list[Verdict] = []
    for path in paths:
        try:
            replay = read_replay(path)
        except codec.FormatError as exc:
            verdicts.append(Verdict(str(path), "unreadable", exc.reason))
        except OSError as exc:
            verdicts.append(Verdict(str(path), "unreadable", f"cannot read the file: {exc.strerror or exc}"))
        else:
            verdict = audit_replay(replay, games)
            verdicts.append(verdict)
            readable.append(replay)
            audited.append(verdict)
        if tick is not None:
            tick()
    return verdicts, compare(readable, audited)

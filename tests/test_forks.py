"""Several seats' copies of one game compared (`netplay replay verify A B ...`): forks are found, and a
signer of two frames for one slot, or a host that certified two, is named with the proof."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.ledgerkit import CARDS, GAMES, forge, play_out, run_until

from bots.lib import RandomBot
from replays.certs import sign_cert
from replays.forks import verify_files
from replays.frames import make_frame
from replays.local import SignedMatch
from replays.reader import Cert
from replays.writer import ReplayWriter

ROOT = Path(__file__).resolve().parent.parent


def _write(path: Path, match: SignedMatch, frames, certs=()) -> Path:
    with ReplayWriter(path, match.header, sync=False) as writer:
        for frame in frames:
            writer.append(frame, *[c.value() for c in certs if c.seq == frame.seq])
    return path


def test_two_honest_copies_agree(tmp_path):
    match = SignedMatch(CARDS, RandomBot(), seed=3, reproducible=True)
    play_out(match)
    a = _write(tmp_path / "a.npr", match, match.ledgers[0].frames)
    b = _write(tmp_path / "b.npr", match, match.ledgers[1].frames)
    verdicts, forks = verify_files([a, b], GAMES)
    assert [v.status for v in verdicts] == ["valid", "valid"] and forks == []


def test_a_seat_that_signs_two_frames_for_one_slot_is_named(tmp_path):
    match = SignedMatch(CARDS, RandomBot(), seed=5, reproducible=True)
    run_until(match, lambda kind, seat: kind == "commit" and seat == 1)
    ledger = match.ledgers[1]
    honest = match.step()          # seat 1 commits one choice ...
    _KEYS[1] = match.secrets[1].key
    other = forge(ledger, match.secrets[1].key, 1, "commit", (bytes(32), honest.body[1]))
    frames = match.ledgers[0].frames
    a = _write(tmp_path / "a.npr", match, frames)
    b = _write(tmp_path / "b.npr", match, [*frames[:-1], _refit(other, frames[-1])])  # ... and another to a peer
    _, forks = verify_files([a, b], GAMES)
    assert len(forks) == 1 and forks[0].blame == 1 and forks[0].frame == honest.seq, forks
    assert "signed two different frames" in forks[0].reason


def _refit(frame, like):
    """`frame` re-signed at `like`'s place in the chain (same seq and prev)."""
    return make_frame(_KEYS[frame.seat], frame.session, like.seq, like.prev, frame.seat, frame.kind, frame.body,
                      like.digest)


_KEYS: dict[int, object] = {}


def test_a_host_that_certifies_two_frames_for_one_slot_is_named(tmp_path):
    """Three seats: the host (seat 0) passes seat 1's claim to one joiner and seat 2's to the other, each
    under its certificate; the two certificates name it."""
    match = SignedMatch(CARDS, RandomBot(), seed=7, players=3, reproducible=True)
    run_until(match, lambda kind, seat: kind == "reveal" and seat == 2)   # seat 2's reveal is awaited
    ledger = match.ledgers[0]
    claim1 = forge(ledger, match.secrets[1].key, 1, "timeout", (2, "reveal"))
    claim0 = forge(ledger, match.secrets[0].key, 0, "timeout", (2, "reveal"))
    host = match.secrets[0].key
    session = match.header.session
    cert1 = Cert("cert", 0, claim1.seq, claim1.hash, sign_cert(host, session, claim1.seq, claim1.hash))
    cert0 = Cert("cert", 0, claim0.seq, claim0.hash, sign_cert(host, session, claim0.seq, claim0.hash))
    frames = ledger.frames
    a = _write(tmp_path / "a.npr", match, [*frames, claim1], [cert1])
    b = _write(tmp_path / "b.npr", match, [*frames, claim0], [cert0])
    verdicts, forks = verify_files([a, b], GAMES)
    assert len(forks) == 1 and forks[0].blame == 0, forks
    assert "certified different frames" in forks[0].reason
    # one file holding both certificates (a joiner met the other's acknowledgement) proves it alone
    c = _write(tmp_path / "c.npr", match, [*frames, claim1], [cert1, Cert("ack", 2, claim0.seq, claim0.hash,
                                                                         bytes(64), 0, cert0.sig)])
    (alone,), _ = verify_files([c], GAMES)
    assert alone.status == "invalid" and "not signed by seat 2" in alone.reason   # a forged ack is caught first


def test_a_claim_in_one_copy_and_its_contest_in_another_is_contested(tmp_path):
    match = SignedMatch(CARDS, RandomBot(), seed=11, reproducible=True)
    run_until(match, lambda kind, seat: kind == "reveal" and seat == 1)
    claim = match.ledgers[0].build_timeout()
    match.deliver(claim)
    answer = match.ledgers[1].build_reveal()
    match.deliver(match.ledgers[0].build_after_claim())
    play_out(match)
    a = _write(tmp_path / "a.npr", match, match.ledgers[0].frames)   # the claimant's copy: a forfeit
    match.deliver(match.ledgers[1].build_contest("answered in time", answer))
    b = _write(tmp_path / "b.npr", match, match.ledgers[1].frames)   # the blamed seat's copy: contested
    verdicts, forks = verify_files([a, b], GAMES)
    assert [v.status for v in verdicts] == ["unfinished", "contested"]
    assert any("contested" in f.reason and f.blame is None for f in forks), forks


def test_the_cli_reports_a_fork_and_exits_1(tmp_path):
    match = SignedMatch("loyal-captain", RandomBot(), seed=5, reproducible=True)
    run_until(match, lambda kind, seat: kind == "act" and seat == 1)
    before = match.ledgers[1].state
    honest = match.step()
    other_action = next(a for a in match.game.legal(before, 1) if a != honest.body[0])
    frames = match.ledgers[0].frames
    other = make_frame(match.secrets[1].key, honest.session, honest.seq, honest.prev, 1, "act", (other_action,),
                       honest.digest)
    a = _write(tmp_path / "a.npr", match, frames)
    b = _write(tmp_path / "b.npr", match, [*frames[:-1], other])
    run = subprocess.run([sys.executable, "-m", "client.cli", "replay", "verify", str(a), str(b)],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FORK in session" in run.stdout and "seat 1 is to blame" in run.stdout


def test_a_copy_is_compared_only_as_far_as_its_audit_found_it_genuine(tmp_path):
    """Copy b's frame 6 is replaced by one its seat did not sign: b is invalid at frame 6, and its frames from
    there on prove nothing, so there is no fork and nobody is blamed (a comparison of every frame record
    would name the frame's seat as having signed two frames)."""
    match = SignedMatch("loyal-captain", RandomBot(), seed=5, reproducible=True)
    play_out(match)
    frames = match.ledgers[0].frames
    f = frames[6]
    altered = make_frame(match.secrets[1 - f.seat].key, f.session, f.seq, f.prev, f.seat, f.kind, ("resign",),
                         f.digest)   # signed by the other seat's key: not seat f.seat's frame
    a = _write(tmp_path / "a.npr", match, frames)
    b = _write(tmp_path / "b.npr", match, [*frames[:6], altered, *frames[7:]])
    verdicts, forks = verify_files([a, b], GAMES)
    assert [v.status for v in verdicts] == ["valid", "invalid"] and verdicts[1].frame == 6
    assert forks == []


def test_certificates_of_a_seat_that_is_not_the_host_blame_nobody(tmp_path):
    """Seat 1 (not the host, whose certificates the copies hold) signs certificates for two different claims
    at one frame number: they do not count, and each copy is invalid for holding them."""
    match = SignedMatch(CARDS, RandomBot(), seed=7, players=3, reproducible=True)
    run_until(match, lambda kind, seat: kind == "reveal" and seat == 2)
    ledger = match.ledgers[0]
    claim1 = forge(ledger, match.secrets[1].key, 1, "timeout", (2, "reveal"))
    claim0 = forge(ledger, match.secrets[0].key, 0, "timeout", (2, "reveal"))
    session = match.header.session
    host = [Cert("cert", 0, f.seq, f.hash, sign_cert(match.secrets[0].key, session, f.seq, f.hash))
            for f in ledger.frames]
    joiner = match.secrets[1].key
    fake1 = Cert("cert", 1, claim1.seq, claim1.hash, sign_cert(joiner, session, claim1.seq, claim1.hash))
    fake0 = Cert("cert", 1, claim0.seq, claim0.hash, sign_cert(joiner, session, claim0.seq, claim0.hash))
    a = _write(tmp_path / "a.npr", match, [*ledger.frames, claim1], [*host, fake1])
    b = _write(tmp_path / "b.npr", match, [*ledger.frames, claim0], [*host, fake0])
    verdicts, forks = verify_files([a, b], GAMES)
    assert [v.status for v in verdicts] == ["invalid", "invalid"]
    assert all("names seat 1 as the host" in v.reason and v.blame is None for v in verdicts)
    assert len(forks) == 1 and forks[0].blame is None and forks[0].frame == claim1.seq

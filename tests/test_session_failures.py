"""What goes wrong between peers, over real processes: a joiner killed mid-game and resumed, a
withheld reveal (timeout forfeit, proven by the honest side's replay), a changed reveal (caught and
blamed), garbage and forged frames (rejected and logged, the game goes on), refused versions and
unknown games."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from support.cpuclock import Budget
from support.sessionhelpers import CLI, ROOT, cli_host, cli_join, peer, processes, replays_of, same_result, verdict

from replays.audit import run_ledger
from replays.reader import read_replay

pytestmark = pytest.mark.slow


def _frames(path: Path) -> int:
    try:
        return len(read_replay(path).frames)
    except Exception:
        return 0


def _awaited(proc) -> int | None:
    """The seat whose frame the game awaits after the frames in `proc`'s replay so far (None: no file yet, or
    no frame yet: the header alone is written in the lobby, before the host starts the game)."""
    files = replays_of(proc)
    if not files:
        return None
    try:
        replay = read_replay(files[0])
        ledger, _ = run_ledger(replay)
    except Exception:   # a record half written as we read: look again
        return None
    if not replay.frames:
        return None
    nxt = ledger.awaited() if ledger is not None and not ledger.closed else None
    return None if nxt is None else nxt[1]


def test_a_joiner_killed_mid_game_resumes_and_the_game_goes_on(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--bot-delay", "0.01")
        procs.append(host)
        address = host.address()
        joiner = cli_join(tmp_path, address, "--bot", "random", "--bot-delay", "0.01")
        procs.append(joiner)
        budget = Budget(30)   # CPU seconds (tests/support/cpuclock.py)
        while not budget.over():
            files = replays_of(joiner)
            if files and _frames(files[0]) >= 30:
                break
            time.sleep(0.02)
        else:
            raise AssertionError(joiner.describe())
        joiner.kill()                                   # kill -9: no goodbye, maybe a torn last record
        assert joiner.proc.returncode == -9, joiner.describe()
        before = _frames(replays_of(joiner)[0])
        fresh = cli_join(tmp_path, address, "--bot", "random", tag="join")   # forgot --resume
        procs.append(fresh)
        assert fresh.wait(30) == 1, fresh.describe()
        assert "you hold seat 1: come back with `netplay join --resume`" in fresh.err
        again = cli_join(tmp_path, None, "--resume", "--bot", "random", tag="join")
        procs.append(again)
        assert again.wait(90) == 0, again.describe()
        assert host.wait(30) == 0, host.describe()
        assert "resuming madagaskar session" in again.out
        assert "resumes after frame" in host.out
        files = replays_of(again)
        assert len(files) == 1                            # the same file, continued
        assert _frames(files[0]) > before
        v = same_result([*replays_of(host), *files])
        assert v.status == "valid", v.reason
        # the game is over: nothing is left to resume
        late = cli_join(tmp_path, None, "--resume", "--bot", "random", tag="join")
        procs.append(late)
        assert late.wait(30) == 1 and "nothing to resume" in late.err, late.describe()


def test_a_seat_that_vanishes_forfeits_and_the_replay_says_who_claimed_it(tmp_path: Path) -> None:
    """A joiner that goes silent (it stays connected) at its third chain frame: once its lateness allowance
    is used up the host claims, and the claim stands. (The liar's own process, still running the honest
    rules, contests in its own replay: a frame that needs no decision is never late by its own clock.)"""
    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--reveal-timeout", "1.5", "--lateness", "1")
        procs.append(host)
        cheat = peer(tmp_path, "join", host.address(), "--cheat", "vanish:chain:3", tag="cheat")
        procs.append(cheat)
        assert host.wait(60) == 3, host.describe()
        assert cheat.wait(30) in (3, 5), cheat.describe()
        assert "seat 1 forfeits: it withheld its chain frame" in host.err
        (path,) = replays_of(host)
        v = verdict(path)
        # a claim is about time, which no file shows: the verdict says who claimed what, and blames nobody
        assert v.status == "unfinished" and v.blame is None, v.reason
        assert v.claim["blamed"] == 1 and v.claim["claimant"] == 0 and v.claim["kind"] == "chain", v.claim
        assert "withheld its chain frame" in v.reason and "not verifiable from this file alone" in v.reason
        run = subprocess.run([*CLI, "replay", "verify", "--json", str(path)], capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
        assert run.returncode == 1
        assert json.loads(run.stdout)[0]["claim"]["blamed"] == 1


def test_a_seat_that_withholds_then_answers_the_claim_late_cannot_play_on(tmp_path: Path) -> None:
    """A frame withheld past its deadline, then sent as the answer to the claim: the host does not sequence
    a late answer (a deadline is a deadline: before, a seat could stall every frame up to the timeout plus the
    answer window at no cost). The liar contests with its late frame; nobody can be proven at fault."""
    with processes() as procs:
        host = cli_host(tmp_path, "quedah-merchant", "--bot", "random", "--reveal-timeout", "1.5", "--lateness", "1")
        procs.append(host)
        cheat = peer(tmp_path, "join", host.address(), "--cheat", "withhold:chain:3", tag="cheat")
        procs.append(cheat)
        assert host.wait(60) == 5, host.describe()
        assert cheat.wait(30) == 5, cheat.describe()
        assert "claiming the timeout" in host.out and "contests the timeout claim" in host.out, host.describe()
        v = same_result([*replays_of(host), *replays_of(cheat)])
        assert v.status == "contested" and v.blame is None, v.reason


def test_a_host_that_withholds_is_claimed_against_by_the_joiner(tmp_path: Path) -> None:
    with processes() as procs:
        cheat = peer(tmp_path, "host", "quedah-merchant", "--cheat", "vanish:chain:1", "--reveal-timeout", "2",
                     "--lateness", "1", tag="cheat")
        procs.append(cheat)
        joiner = cli_join(tmp_path, cheat.address(), "--bot", "random")
        procs.append(joiner)
        assert joiner.wait(60) == 3, joiner.describe()
        assert "seat 0 forfeits" in joiner.err
        assert "claiming the timeout" in joiner.out
        assert "the host neither passed our claim on nor answered it: recorded it in our own replay" in joiner.out
        (path,) = replays_of(joiner)
        v = verdict(path)
        assert v.status == "unfinished" and v.blame is None and v.claim["blamed"] == 0, v.reason


def test_a_changed_reveal_is_caught_and_blamed(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "turning-tides", "--bot", "random")
        procs.append(host)
        cheat = peer(tmp_path, "join", host.address(), "--cheat", "tamper:reveal:2", tag="cheat")
        procs.append(cheat)
        assert host.wait(60) == 4, host.describe()
        assert cheat.wait(30) == 4, cheat.describe()
        assert "DISPUTE at frame" in host.out and "seat 1" in host.err
        assert "choice commitment" in host.out
        (path,) = replays_of(host)
        v = verdict(path)
        assert v.status == "invalid" and v.blame == 1, v.reason
        assert v.dispute["rule"] == "choice commitment"
        # the cheater's own replay holds the same evidence against itself
        assert verdict(replays_of(cheat)[0]).blame == 1


def test_a_changed_random_contribution_is_caught_and_blamed(tmp_path: Path) -> None:
    with processes() as procs:
        cheat = peer(tmp_path, "host", "quedah-merchant", "--cheat", "tamper:chain:2", tag="cheat")
        procs.append(cheat)
        joiner = cli_join(tmp_path, cheat.address(), "--bot", "random")
        procs.append(joiner)
        assert joiner.wait(60) == 4, joiner.describe()
        (path,) = replays_of(joiner)
        v = verdict(path)
        assert v.status == "invalid" and v.blame == 0 and v.dispute["rule"] == "hash chain", v.reason


REJECTIONS = ("undecodable", "malformed frame", "bad signature", "another session", "ahead",
              "over the 262144 byte cap", "replayed frame", "unknown message")


def test_garbage_and_forged_frames_from_a_joiner_are_rejected_and_the_game_goes_on(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--quiet")
        procs.append(host)
        cheat = peer(tmp_path, "join", host.address(), "--cheat", "inject:3", tag="cheat")
        procs.append(cheat)
        assert host.wait(60) == 0, host.describe()
        assert cheat.wait(30) == 0, cheat.describe()
        for reason in REJECTIONS:
            assert reason in host.err, (reason, host.err[-3000:])
        v = same_result([*replays_of(host), *replays_of(cheat)])
        assert v.status == "valid", v.reason


def test_garbage_and_forged_frames_from_the_host_are_rejected_and_the_game_goes_on(tmp_path: Path) -> None:
    with processes() as procs:
        cheat = peer(tmp_path, "host", "madagaskar", "--cheat", "inject:3", tag="cheat")
        procs.append(cheat)
        joiner = cli_join(tmp_path, cheat.address(), "--bot", "random", "--quiet")
        procs.append(joiner)
        assert joiner.wait(60) == 0, joiner.describe()
        assert cheat.wait(30) == 0, cheat.describe()
        for reason in REJECTIONS:
            assert reason in joiner.err, (reason, joiner.err[-3000:])
        v = same_result([*replays_of(joiner), *replays_of(cheat)])
        assert v.status == "valid", v.reason


def test_another_session_protocol_is_refused_with_a_reason(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random")
        procs.append(host)
        odd = peer(tmp_path, "join", host.address(), "--proto", "99", tag="odd")
        procs.append(odd)
        assert odd.wait(30) == 1, odd.describe()
        assert "session protocol 99 is not supported" in odd.out
        # the seat stays free: an honest joiner still gets it, and the game is played
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "--quiet")
        procs.append(joiner)
        assert joiner.wait(60) == 0 and host.wait(30) == 0, joiner.describe() + host.describe()


def test_another_rules_version_is_declined_with_a_reason(tmp_path: Path) -> None:
    with processes() as procs:
        odd = peer(tmp_path, "host", "madagaskar", "--rules-version", "99", tag="odd")
        procs.append(odd)
        joiner = cli_join(tmp_path, odd.address(), "--bot", "random")
        procs.append(joiner)
        assert joiner.wait(30) == 1, joiner.describe()
        assert "by rules version '99', this netplay has '1'" in joiner.err
        assert len(joiner.err.strip().splitlines()) == 1
        odd.kill()
        assert "declined" in odd.out


def test_an_unknown_game_is_declined_with_a_reason(tmp_path: Path) -> None:
    with processes() as procs:
        odd = peer(tmp_path, "host", "unused", "--toy", tag="odd")
        procs.append(odd)
        joiner = cli_join(tmp_path, odd.address(), "--bot", "random")
        procs.append(joiner)
        assert joiner.wait(30) == 1, joiner.describe()
        assert "'toy-nim', a game this netplay does not know" in joiner.err


def test_a_slow_bot_never_silences_its_peer(tmp_path: Path) -> None:
    """A host whose bot waits 5 s before its move (longer than the 4 s the joiner allows a silent
    peer) keeps answering heartbeats meanwhile: deciding never blocks the session loop, so the joiner
    never drops it as silent."""
    with processes() as procs:
        host = cli_host(tmp_path, "loyal-captain", "--bot", "random", "--bot-delay", "5")
        procs.append(host)
        joiner = peer(tmp_path, "join", host.address(), "--script", "resign", tag="join")
        procs.append(joiner)
        assert joiner.wait(40) == 0, joiner.describe()
        assert host.wait(20) == 0, host.describe()
        log = joiner.out + joiner.err
        assert "resign" in log and "silent" not in log and "reconnected" not in log, joiner.describe()


def test_a_stranger_on_a_dead_hosts_port_is_not_our_host_and_the_joiner_claims(tmp_path: Path) -> None:
    """The host is killed mid-game, and another program (a stranger with its own key, as a reused port or
    a liar would be) answers on its port. That says nothing about our host: the joiner names the stranger,
    never pins it nor gives up on it, and goes on as if the host were unreachable, so its own clock
    decides: the host, awaited, forfeits (before, the changed key stopped the joiner with nothing claimed)."""
    from netplay.identity import Identity
    from netplay.transport import HostTransport, ListenFailed

    with processes() as procs:
        # the host's bot waits a minute on every move, so the host is the seat awaited when it dies
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--bot-delay", "60", "--reveal-timeout", "4")
        procs.append(host)
        address = host.address()
        joiner = cli_join(tmp_path, address, "--bot", "random")
        procs.append(joiner)
        budget = Budget(20)   # CPU seconds (tests/support/cpuclock.py)
        while not budget.over() and _awaited(joiner) != 0:   # the joiner's last frame is sequenced, too
            time.sleep(0.05)
        assert _awaited(joiner) == 0, joiner.describe()
        host.kill()
        stranger = None
        for _ in range(50):   # the kernel frees a killed program's port at once; a dialling joiner may hold it
            try:
                stranger = HostTransport(Identity.generate("a-stranger"), bind="127.0.0.1",
                                         port=int(address.split("/")[0].rsplit(":", 1)[1]))
                break
            except ListenFailed:
                time.sleep(0.1)
        assert stranger is not None, "could not bind the dead host's port"
        try:
            budget = Budget(30)
            while joiner.proc.poll() is None and not budget.over():
                stranger.poll(50)
            assert joiner.wait(30) == 3, joiner.describe()
        finally:
            stranger.close()
        assert stranger.identity.fingerprint in joiner.out, joiner.describe()
        assert "waiting for our host as if it were unreachable" in joiner.out
        assert "seat 0 forfeits" in joiner.err, joiner.describe()
        assert stranger.peers == {}
        (path,) = replays_of(joiner)
        v = verdict(path)
        assert v.status == "unfinished" and v.claim["blamed"] == 0 and v.claim["claimant"] == 1, v.reason

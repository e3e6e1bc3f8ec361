"""The adversarial suite over real processes: one lying peer (tests/support/session_peer.py --cheat ...) against
honest `netplay host` / `netplay join` processes, one attack at a time, as listed in tests/support/attack_table.py
(which also writes the table of docs/security.md). For each: the honest peers exit with the status the
table gives, print what it says they print, `netplay replay verify` of their replays gives the table's
verdict, blames the liar exactly when the table says so and names its rule; verify over every copy of
the game reports the fork the table names.

Quick form: every attack on its one game. `NETPLAY_LONG=1`: every attack on every game that has the
frames it needs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.attack_table import ATTACKS, DOC, Attack, current, render
from support.cpuclock import Budget
from support.sessionhelpers import cli_host, cli_join, peer, processes, replays_of

import engines
from replays.audit import Verdict, audit_file
from replays.forks import verify_files

pytestmark = pytest.mark.slow

LONG = os.environ.get("NETPLAY_LONG") == "1"
#: the liar's own bound on the clock: a hang guard only, above the honest peers' wait (`Proc.wait`: CPU seconds,
#: capped at 450 s on the clock). Every row's game ends on its own in well under a minute on an idle machine; at
#: 45 s, a busy machine stretched the 3-seat claim row's game (its joiners think 0.3 s a move) past it, and the liar
#: host "gave up", which stopped the honest joiners unfinished: a test decided by the clock
LIFETIME = "600"


def _kinds(game_id: str) -> set[str]:
    """The frame kinds a game's networked play uses (from a local signed match)."""
    from bots.lib import RandomBot
    from replays.local import record_match
    return {f.kind for f in record_match(game_id, RandomBot(), seed=1, players=2, write=False).frames}


def _cases() -> list:
    cases = []
    for a in ATTACKS:
        if a.where != "process":
            continue
        games = [a.game]
        if LONG and a.players == 2 and a.every_game:
            games = [g for g, game in engines.GAMES.items() if 2 in game.players and (not a.needs or a.needs in
                                                                                      _kinds(g))]
        cases += [pytest.param(a, g, id=a.id if g == a.game else f"{a.id}[{g}]") for g in games]
    return cases


def _run(tmp: Path, a: Attack, game: str) -> tuple[list, object, list[Path], Path | None]:
    """Play the attack: (honest processes, the liar, the honest replays, the liar's replay)."""
    timeout = ("--reveal-timeout", "2", "--lateness", "1")
    with processes() as procs:
        if a.liar == "host":
            liar = peer(tmp, "host", game, "--cheat", a.cheat, "--players", str(a.players), *timeout, *a.liar_args,
                        "--lifetime", LIFETIME, tag="liar")
            procs.append(liar)
            address = liar.address()
            honest = []
            for i in range(a.players - 1):
                honest.append(cli_join(tmp, address, "--bot", "random", *a.honest_args, tag=f"join{i}"))
                procs.append(honest[-1])
                _wait_for(liar, f"takes seat {i + 1}")
        else:
            host = cli_host(tmp, game, "--bot", "random", "--players", str(a.players), *timeout, *a.honest_args)
            procs.append(host)
            address = host.address()
            liar = peer(tmp, "join", address, "--cheat", a.cheat, "--lifetime", LIFETIME, tag="liar")
            procs.append(liar)
            _wait_for(host, "takes seat 1")       # the liar holds seat 1, an honest joiner seat 2
            honest = [host]
            if a.players == 3:
                slow = ("--bot-delay", "0.2") if a.slow_seat == 2 else ()
                honest.append(cli_join(tmp, address, "--bot", "random", *a.honest_args, *slow, tag="join1"))
                procs.append(honest[-1])
        for proc in honest:
            proc.wait(90)
        if a.liar == "joiner" or liar.proc.poll() is None:
            liar.kill()
        files = [f for proc in honest for f in replays_of(proc)]
        mine = replays_of(liar)
    return honest, liar, files, mine[0] if mine else None


def _wait_for(proc, text: str, timeout: float = 30.0) -> None:
    budget = Budget(timeout)   # CPU seconds (tests/support/cpuclock.py)
    while text not in proc.out and not budget.over():
        assert proc.proc.poll() is None, proc.describe()
        time.sleep(0.05)
    assert text in proc.out, proc.describe()


def _check_verdict(a: Attack, v: Verdict, liar_seat: int) -> None:
    assert v.status in a.verdict.split("|"), (a.id, v.path, v.status, v.reason)
    assert v.blame == (liar_seat if a.blame_liar else None), (a.id, v.blame, v.reason)
    if a.blame_liar:
        assert v.dispute is not None and v.dispute["seat"] == liar_seat
        if a.rule == "the game's rule":
            assert v.dispute["rule"] and v.dispute["rule"] not in ("turn order", "state digest"), v.dispute
        else:
            assert v.dispute["rule"] == a.rule, v.dispute
    if a.note:
        assert any(a.note in note for note in v.notes), v.notes
    if v.status == "contested":
        assert v.claim is not None and v.claim["contest"] is not None, v.claim


@pytest.mark.parametrize(("a", "game"), _cases())
def test_attack(tmp_path: Path, a: Attack, game: str) -> None:
    honest, liar, files, liar_file = _run(tmp_path, a, game)
    liar_seat = 0 if a.liar == "host" else 1
    described = "\n".join(p.describe() for p in (*honest, liar))
    for proc in honest:
        exits = a.honest_exit if isinstance(a.honest_exit, tuple) else (a.honest_exit,)
        assert proc.proc.returncode in exits, (a.id, described)
    assert len(files) == len(honest), described
    for path in files:
        _check_verdict(a, audit_file(path), liar_seat)
        verdict = audit_file(path)     # and no honest copy shows an honest seat's forfeit as its result
        if verdict.result is not None and verdict.claim is not None:
            assert verdict.claim["blamed"] == liar_seat, (a.id, path, verdict.reason)
    if a.verdict == "unfinished" and a.rule == "timeout claim":
        for path in files:
            claim = audit_file(path).claim
            assert claim is not None and claim["blamed"] == liar_seat, (claim, described)
            if a.cheat.startswith(("vanish:", "withhold:")):     # the very frame it withheld
                assert claim["kind"] == a.cheat.split(":")[1], (claim, described)
    for text in a.shows:
        assert any(alt in p.out + p.err for p in honest for alt in text.split("|")), (a.id, text, described)
    _, forks = verify_files([*files, *([liar_file] if liar_file else [])])
    if a.fork:
        assert forks and a.fork in forks[0].reason, (forks, described)
        assert forks[0].blame == (liar_seat if a.blame_liar else None), forks
    else:
        assert not [f for f in forks if f.blame is not None and f.blame != liar_seat], forks


def test_the_security_doc_shows_this_table() -> None:
    assert DOC.exists(), "docs/security.md is missing"
    assert current() == render(), ("docs/security.md's attack table differs from tests/support/attack_table.py: run "
                                   "`python tests/support/attack_table.py --write`")
    text = DOC.read_text()
    assert "## Transport attacks" in text

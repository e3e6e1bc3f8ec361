"""The move clock over real processes: `netplay host --clock` agrees a short clock with a joiner whose
bot thinks far longer than the clock and the claim's answer window together. The host claims only once
the joiner's allowance has run out by the host's own clock, the joiner's own clock agrees (it does not
contest), the slow seat forfeits with a reason naming the clock, and both replays verify with the
agreed terms in their headers. (With an increment, the claim once counted as a decision made, so the
blamed seat's clock gained an increment and it contested a sound claim.) The arithmetic itself is in
tests/test_deadlines.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.sessionhelpers import cli_host, cli_join, processes, replays_of, same_result

from replays.header import Terms
from replays.reader import read_replay

pytestmark = pytest.mark.slow

CLOCK = "clock 2 s + 1 s per move"


def test_a_seat_that_thinks_past_its_move_clock_forfeits_naming_the_clock(tmp_path: Path) -> None:
    with processes() as procs:
        host = cli_host(tmp_path, "madagaskar", "--bot", "random", "--clock", "2+1", "--reveal-timeout", "2")
        procs.append(host)
        joiner = cli_join(tmp_path, host.address(), "--bot", "random", "--bot-delay", "10")
        procs.append(joiner)
        assert host.wait(30) == 3, host.describe() + joiner.describe()
        assert joiner.wait(30) == 3, host.describe() + joiner.describe()
    described = host.describe() + joiner.describe()
    for proc in (host, joiner):
        assert f"terms: {CLOCK}, 10 min per move at most; automatic frames 0.5 s each" in proc.out, described
    # the host claims once the allowance ran out by its own clock, and says it was the clock
    m = re.search(r"seat 1 has not sent its act frame for ([\d.]+) s \(its move clock, (.*?), ran out\): "
                  r"claiming the timeout", host.out)
    assert m, described
    assert float(m.group(1)) >= 2.0 and m.group(2) == f"{CLOCK}, 10 min per move at most", m.group(0)
    # the blamed joiner's own clock agrees: it does not contest (the claim earns it no increment: it is no
    # decision), and its bot is too slow to answer
    assert "contesting" not in joiner.out, described
    assert f"seat 1 forfeits: it withheld its act frame past its move clock ({CLOCK}" in host.out, described
    assert f"you withheld your act frame past its move clock ({CLOCK}" in joiner.out, described
    files = [*replays_of(host), *replays_of(joiner)]
    assert len(files) == 2, described
    for path in files:
        assert read_replay(path).header.terms == Terms.agreed(2_000, (2_000, 1_000), 600_000, 500, 60_000, 0), path
    v = same_result(files)
    assert v.status == "unfinished" and v.blame is None, v.reason     # a claim is about time: no proof
    assert v.claim is not None and (v.claim["claimant"], v.claim["blamed"], v.claim["kind"], v.claim["final"]) == (
        0, 1, "act", True), v.claim
    assert v.claim["contest"] is None and "not verifiable from this file alone" in v.reason
    acts = [f for f in read_replay(files[0]).frames if f.kind == "act" and f.seat == 1]
    assert not acts, "the slow seat never got a move in"

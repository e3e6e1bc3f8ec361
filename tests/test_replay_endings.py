"""Every replay tool reads every kind of ending without a traceback, and hostile files cost what their
size allows (issue 25, "Files"): `verify` (text and JSON), `show` (moves and frames), `step` to the
end, `export`, `view --screenshot` and the lobby's replay list, over finished, resigned, forfeit by
a claim, claim still open, contested, cut, torn, invalid and unreadable files, and over the hostile
ones of the issue: a cut copy holding a forged forfeit, seat names carrying terminal escapes, a
header `created` of 2^62 and 2^63, a megabyte of unknown 3-byte records and hash chains of the
maximum length (tests/data/hostile-max-chain.npr: `record_match("loyal-captain", RandomBot(), seed=5,
reproducible=True, chain_length=1 << 20)`, 9 KB)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.lib import RandomBot
from client.cli import main
from client.replaylist import ReplayList
from replays import codec
from replays.audit import audit_file
from replays.header import header_from_value
from replays.local import SignedMatch
from replays.randomness import MAX_CHAIN

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "docs" / "vectors" / "replays"
DATA = Path(__file__).resolve().parent / "data"
MAX_CREATED = 253_402_300_799      # the last second of the year 9999 (replays.header.MAX_CREATED)

# vector -> verdict: one of every ending the replay vectors hold (real games, so every tool can draw them)
ENDINGS = {
    "valid-quedah": "valid",                  # finished
    "valid-format-1": "valid",
    "timeout-forfeit": "unfinished",          # forfeit by a timeout claim, co-signed
    "timeout-open": "unfinished",             # a claim still open
    "timeout-answered": "valid",
    "contested": "contested",
    "cut-short": "unfinished",
    "torn-final": "unfinished",               # torn
    "torn-last-record": "valid",
    "wrong-digest": "invalid",
    "illegal-action": "invalid",
    "unknown-kind": "invalid",
    "record-garbage": "unreadable",
    "header-torn": "unreadable",
    "empty-file": "unreadable",
    "unknown-game": "unreadable",
}
# the text printed to a terminal may hold no control character but the line ends
CONTROL = re.compile(r"[^\n\S ]|[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def records(path: Path) -> list[bytes]:
    return [raw for _, raw, _ in codec.iter_records(path.read_bytes())]


def with_header(path: Path, index: int, value: object) -> bytes:
    """The file with one header field replaced (encoded as it is: no check of ours runs)."""
    raws = records(path)
    header = list(codec.decode(raws[0]))
    header[index] = value
    return codec.encode(tuple(header)) + b"".join(raws[1:])


def resigned() -> bytes:
    """A Loyal Captain game in which seat 1 resigns at its first move."""
    table = SignedMatch("loyal-captain", RandomBot(), seed=3, reproducible=True)
    for _ in range(1000):
        if table.expects() == ("act", 1):
            break
        table.step()
    table.deliver(table.ledgers[1].build_action("resign"))
    for _ in range(1000):
        if table.step() is None:
            break
    assert table.ledgers[0].result.reason == "resign"
    return table.header.encode() + b"".join(f.encode() for f in table.ledgers[0].frames)


def forged_cut() -> bytes:
    """A cut copy of the forfeit vector: the claim became final (the claimant's seed follows it), but the
    forfeit was never co-signed. Issue 25: it printed "result: seat 0 won (forfeit ...)"."""
    raws = records(VECTORS / "timeout-forfeit.npr")
    return b"".join(raws[:-1])


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("endings")
    out: dict[str, tuple[Path, str]] = {}
    for name, verdict in ENDINGS.items():
        target = folder / f"{name}.npr"
        target.write_bytes((VECTORS / f"{name}.npr").read_bytes())
        out[name] = (target, verdict)
    hostile = {
        "resigned": (resigned(), "valid"),
        "forged-forfeit-cut": (forged_cut(), "unfinished"),
        "names-with-escapes": (with_header(VECTORS / "valid-quedah.npr", 7, tuple(
            (key, name) for key, name in zip(
                [k for k, _ in codec.decode(records(VECTORS / "valid-quedah.npr")[0])[7]],
                ["ann\x1b]0;pwned\x07\x1b[2J", "bob\rVALID \u202egnp.exe"], strict=True))), "unreadable"),
        "created-2-62": (with_header(VECTORS / "valid-quedah.npr", 9, 1 << 62), "unreadable"),
        "created-2-63": (with_header(VECTORS / "valid-quedah.npr", 9, 1 << 63), "unreadable"),
        "unknown-records": ((VECTORS / "valid-quedah.npr").read_bytes() + b"\x91\xa1x" * 20_000, "valid"),
    }
    for name, (data, verdict) in hostile.items():
        target = folder / f"{name}.npr"
        target.write_bytes(data)
        out[name] = (target, verdict)
    return out


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


def clean(result, name: str, what: str) -> str:
    """The command ended by itself (no traceback) and printed nothing a terminal would obey."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{what} {name}: {result.exception!r}\n{result.output}") from result.exception
    assert result.exit_code in (0, 1, 2), (what, name, result.exit_code, result.output)
    bad = CONTROL.search(result.output)
    assert bad is None, f"{what} {name} printed {bad.group()!r}: {result.output[:2000]}"
    return result.output


def test_every_tool_reads_every_ending_without_a_traceback(files, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    for name, (path, verdict) in files.items():
        out = clean(run("verify", str(path)), name, "verify")
        assert f": {verdict.upper()}" in out.splitlines()[0], (name, out)
        # a result is printed only where the verdict supports one: co-signed by every seat that must sign it
        proven = verdict == "valid" or name == "timeout-forfeit"
        assert ("  result: " in out) == proven, (name, out)
        (shown,) = json.loads(clean(run("verify", "--json", str(path)), name, "verify --json"))
        assert shown["verdict"] == verdict and (shown["result"] is not None) == proven, (name, shown)
        readable = verdict != "unreadable"
        for args in (["show"], ["show", "--frames", "--log-lines", "0"], ["export"]):
            result = run(*args, str(path))
            clean(result, name, " ".join(args))
            # export needs no engine: a file of a game this netplay does not know still exports
            exported = readable or (args == ["export"] and name == "unknown-game")
            assert (result.exit_code == 0) == exported, (name, args, result.output)
        result = run("step", str(path), stdin="l\nv\nf\nl\nq\n")
        out = clean(result, name, "step")
        if readable:   # "l" went to the last frame and "v" showed it
            assert result.exit_code == 0 and re.search(r"frame (\d+) of \1,", out), (name, out[-2000:])
        shot = tmp_path / f"{name}.png"
        result = run("view", str(path), "--screenshot", str(shot))
        clean(result, name, "view")
        assert shot.exists() == readable, (name, result.output)
    folder = next(iter(files.values()))[0].parent
    listing = ReplayList(folder)
    listing.wait(60)
    assert not listing._thread.is_alive(), "the replay list's thread never finished"
    entries = {e.path.stem: e for e in listing.entries()}
    for name, (_, verdict) in files.items():
        entry = entries[name]
        assert entry.verdict == verdict, (name, entry)
        assert CONTROL.search(entry.line + entry.result + entry.players) is None, (name, entry)
    assert entries["timeout-forfeit"].result.startswith("forfeit: ")
    assert entries["timeout-forfeit"].badge == "forfeit"          # a result, listed as one (issue 34, item 3)
    assert entries["forged-forfeit-cut"].result == "unfinished"
    assert entries["forged-forfeit-cut"].badge == "unfinished"    # never co-signed: no result
    assert entries["contested"].result == "contested: nobody forfeits"


def test_show_and_step_reach_the_end_of_a_forfeit_by_a_timeout_claim() -> None:
    """Issue 25: `'Claim' object is not subscriptable` (replays/stepping.py) on every such replay."""
    path = str(VECTORS / "timeout-forfeit.npr")
    out = clean(run("show", path), "timeout-forfeit", "show")
    assert "the end: vector-0 won: forfeit: vector-1 withheld its chain frame" in out
    out = clean(run("step", path, stdin="l\nq\n"), "timeout-forfeit", "step")
    assert out.rstrip().endswith("withheld its chain frame and forfeits"), out[-500:]


def test_a_cut_copy_with_a_forged_forfeit_shows_no_result(tmp_path) -> None:
    """Issue 25: the human output said "result: seat 0 won (forfeit ...)" for the real loser while the
    verdict was unfinished; no result is shown unless every seat that must co-sign the forfeit did."""
    path = tmp_path / "cut.npr"
    path.write_bytes(forged_cut())
    verdict = audit_file(path)
    assert verdict.status == "unfinished" and verdict.result is None
    assert "proves no result" in verdict.reason and "forfeits" not in verdict.reason
    out = clean(run("verify", str(path)), "cut", "verify")
    assert "result" not in out.split("\n", 2)[2]
    out = clean(run("show", str(path)), "cut", "show")
    assert "the end:" not in out and " won" not in out


def test_names_with_terminal_escapes_make_a_header_unreadable(tmp_path) -> None:
    """Issue 25: seat names carrying `ESC ] 0;... BEL`, `ESC [2J` or a carriage return reached the
    terminal, and a verdict of INVALID could be printed over as VALID."""
    source = VECTORS / "valid-quedah.npr"
    keys = [k for k, _ in codec.decode(records(source)[0])[7]]
    for names in (["ann\x1b]0;pwned\x07", "bob"], ["ann", "\x1b[2J\rVALID"], ["ann", "\u202eexe.txt"], ["", "bob"],
                  ["ann", "b" * 65]):
        path = tmp_path / "names.npr"
        path.write_bytes(with_header(source, 7, tuple(zip(keys, names, strict=True))))
        verdict = audit_file(path)
        assert verdict.status == "unreadable" and "name must be 1..64 printable characters" in verdict.reason
        out = clean(run("verify", str(path)), "names", "verify")
        assert out.splitlines()[0].endswith(": UNREADABLE"), out      # and the name shows as visible escapes
    bad = with_header(source, 7, tuple(zip(keys, ["ann\x1b]0;pwned\x07", "bob"], strict=True)))
    with pytest.raises(codec.FormatError, match=r"seat 0's name .*, got 'ann\\x1b\]0;pwned\\x07'"):
        header_from_value(codec.decode(records_of(bad)[0]))


def records_of(data: bytes) -> list[bytes]:
    return [raw for _, raw, _ in codec.iter_records(data)]


@pytest.mark.parametrize("created", [1 << 62, (1 << 63), (1 << 64) - 1, -1, MAX_CREATED + 1])
def test_a_header_created_out_of_range_is_a_clear_error(created: int, tmp_path) -> None:
    """Issue 25: `created` 2^62 made the lobby's list re-read the file for ever, 2^63 killed its thread,
    and a host sending it crashed the joiner (which reads headers with header_from_value, and declines a
    header that raises FormatError)."""
    data = with_header(VECTORS / "valid-quedah.npr", 9, created)
    with pytest.raises(codec.FormatError, match=r"created must be unix seconds 0\.\.253402300799"):
        header_from_value(codec.decode(records_of(data)[0]))
    (tmp_path / "hostile.npr").write_bytes(data)
    (tmp_path / "good.npr").write_bytes((VECTORS / "valid-quedah.npr").read_bytes())
    os.utime(tmp_path / "good.npr", (1, 1))          # the hostile file is the newest: listed and read first
    listing = ReplayList(tmp_path)
    listing.wait(30)
    assert not listing._thread.is_alive()
    entries = {e.path.stem: e for e in listing.entries()}
    assert entries["hostile"].verdict == "unreadable" and "created must be" in entries["hostile"].result
    assert entries["good"].verdict == "valid"
    assert threading.active_count() < 50


def test_max_created_is_still_readable() -> None:
    from replays import header

    assert header.MAX_CREATED == MAX_CREATED
    data = with_header(VECTORS / "valid-quedah.npr", 9, MAX_CREATED)
    assert header_from_value(codec.decode(records_of(data)[0])).created == MAX_CREATED


def test_unknown_records_are_one_line_and_cost_memory_in_proportion(tmp_path) -> None:
    """Issue 25: 1 MB of 3-byte unknown records printed 349,530 lines and cost 147 MB (10 MB: 1.2 GB).
    Now one note says how many there were; memory stays within a few times the file."""
    path, source = tmp_path / "unknown.npr", VECTORS / "valid-quedah.npr"
    path.write_bytes(source.read_bytes() + b"\x91\xa1x" * ((1 << 20) // 3))
    out = clean(run("verify", str(path)), "unknown", "verify")
    assert len(out.splitlines()) < 10, out[:2000]
    assert ("349525 record(s) of unknown types that no signature covers were skipped ('x' x349525; the first is "
            f"record {len(records(source))} at byte {source.stat().st_size})") in out
    peak = peak_rss_mb("from replays.audit import audit_file; audit_file(sys.argv[1])", path)
    base = peak_rss_mb("from replays.audit import audit_file", path)
    assert peak - base < 4 * path.stat().st_size / 1e6 + 4, (peak, base)


def peak_rss_mb(code: str, path: Path) -> float:
    """The peak resident memory of a fresh interpreter that runs `code` (argv[1] is `path`), in MB."""
    probe = f"import resource, sys\n{code}\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, env=env,
                          timeout=120, check=True)
    return int(done.stdout.split()[-1]) / 1000


def test_hash_chains_of_the_maximum_length_cost_one_walk_per_seat_and_no_list(monkeypatch) -> None:
    """Issue 25: a 15 KB file whose chains have the maximum length (2^20) took 4.7-7.7 s: each seat's
    chain was walked twice at its seed, once into a list of a million values (~70 MB a seat). Now the
    current chain is walked once (the secret back to its last revealed value: work the protocol cannot
    spare) and nothing is kept. The fixture is a Loyal Captain game whose seats committed 2^20-long chains."""
    import replays.ledger.kinds.seed as seed
    from replays import randomness

    path = DATA / "hostile-max-chain.npr"
    walked: list[int] = []
    real = randomness.chain_walk

    def counted(session: bytes, seat: int, value: bytes, steps: int) -> bytes:
        walked.append(steps)
        return real(session, seat, value, steps)

    monkeypatch.setattr(randomness, "chain_walk", counted)
    verdict = audit_file(path)
    assert verdict.status == "valid", verdict.reason
    assert verdict.players == 2 and sum(walked) <= verdict.players * MAX_CHAIN and max(walked) > MAX_CHAIN // 2
    assert not hasattr(seed, "make_chain")
    monkeypatch.undo()
    peak = peak_rss_mb("from replays.audit import audit_file; audit_file(sys.argv[1])", path)
    base = peak_rss_mb("from replays.audit import audit_file; audit_file(sys.argv[1].replace('hostile-max-chain', "
                       "'quedah-merchant-valid'))", path)
    assert peak - base < 20, (peak, base)

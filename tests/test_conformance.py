"""The conformance kit run against `netplay replay verify` itself (every replay vector must give its expected
verdict, exit status and frame), the kit catching a verifier that is wrong, the documented `verify --json`
schema, and the fixes of issue 17: the 1 MiB record limit and the one rule for bytes that are no frame."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import check
from replays import codec
from replays.audit import audit_bytes
from replays.frames import make_frame
from replays.header import Header
from replays.ledger import Ledger, Rejected
from replays.local import make_seats
from replays.reader import parse_replay

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "docs" / "vectors"
VERIFY = f"{sys.executable} -m client.cli replay verify --json {{file}}"


def kit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.check", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, check=False)


def test_netplay_passes_its_own_kit_in_one_batch():
    run = kit("--verifier", VERIFY, "--batch", "--jobs", "2")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"^(\d+) passed, 0 failed, of \1 replay vectors$", run.stdout, re.M), run.stdout[-500:]


def test_netplay_passes_its_own_kit_one_file_at_a_time():
    """The real per-process exit statuses, for one vector of each group."""
    names = ["valid-catan-deck", "timeout-forfeit", "contested", "bad-signature", "unknown-kind", "wrong-digest",
             "record-over-1-mib", "torn-final", "fork-equivocation"]
    run = kit("--verifier", VERIFY, "--jobs", "2", "--only", *names)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"{len(names)} passed, 0 failed" in run.stdout


def test_the_kit_catches_a_verifier_that_is_wrong(tmp_path):
    liar = tmp_path / "liar.py"
    liar.write_text("import json, sys\n"
                    "print(json.dumps([{'path': p, 'verdict': 'valid', 'exit': 0, 'frame': None, 'dispute': None,\n"
                    "                   'blame': None, 'forks': []} for p in sys.argv[1:]]))\n")
    run = kit("--verifier", f"{sys.executable} {liar} {{file}}", "--only", "valid-quedah", "bad-signature",
              "fork-equivocation", "--json")
    assert run.returncode == 1
    report = json.loads(run.stdout)
    results = {r["name"]: r for r in report["results"]}
    assert results["valid-quedah"]["ok"] and not results["bad-signature"]["ok"]
    assert any("exit status" in p for p in results["bad-signature"]["problems"])
    assert any("frame" in p for p in results["bad-signature"]["problems"])
    assert not results["fork-equivocation"]["ok"]
    # exit statuses alone: a verifier that always says 1
    ones = kit("--verifier", f"{sys.executable} -c 'raise SystemExit(1)' {{file}}", "--exit-only", "--only",
               "bad-signature", "valid-quedah")
    assert ones.returncode == 1 and "PASS bad-signature" in ones.stdout and "FAIL valid-quedah" in ones.stdout
    assert kit("--verifier", VERIFY, "--only", "no-such-vector").returncode == 2


def test_the_kit_builds_the_command_line():
    assert check.command("v --json {file}", ["a"]) == ["v", "--json", "a"]
    assert check.command("v {file}", ["a", "b"]) == ["v", "a", "b"]
    assert check.command("v --in={file}", ["a"]) == ["v", "--in=a"]
    assert check.command("v", ["a", "b"]) == ["v", "a", "b"]
    with pytest.raises(ValueError):
        check.command("v --in={file}", ["a", "b"])


# ------------------------------------------------------------------------------------------ verify --json


def _documented_keys() -> dict[str, list[str]]:
    """The keys of each object of the verdict schema, as docs/replay-format.md lists them (the tables
    between <!-- verdict-schema --> and <!-- /verdict-schema -->)."""
    text = (ROOT / "docs" / "replay-format.md").read_text()
    block = text.split("<!-- verdict-schema -->")[1].split("<!-- /verdict-schema -->")[0]
    found: dict[str, list[str]] = {}
    for obj, key in re.findall(r"^\| `(\w+)` \| `(\w+)` \|", block, re.M):
        found.setdefault(obj, []).append(key)
    return found


def test_verify_json_matches_the_documented_schema(tmp_path):
    schema = json.loads((VECTORS / "verdict-schema.json").read_text())
    documented = _documented_keys()
    for obj in ("verdict", "seat", "result", "dispute", "claim", "contest", "fork"):
        assert documented.get(obj) == list(schema[obj]), f"docs/replay-format.md and the schema differ on {obj}"
    files = [VECTORS / "replays" / n for n in ("valid-quedah.npr", "wrong-digest.npr", "timeout-forfeit.npr",
                                                "contest-after-forfeit.npr", "empty-file.npr")]
    run = subprocess.run([sys.executable, "-m", "client.cli", "replay", "verify", "--json", *map(str, files)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    verdicts = json.loads(run.stdout)
    assert [v["verdict"] for v in verdicts] == ["valid", "invalid", "unfinished", "contested", "unreadable"]
    for verdict in verdicts:
        assert list(verdict) == list(schema["verdict"])
        for seat in verdict["seats"]:
            assert list(seat) == list(schema["seat"])
    valid, wrong, forfeit, contested, _ = verdicts
    assert list(valid["result"]) == list(schema["result"]) and list(wrong["dispute"]) == list(schema["dispute"])
    assert list(forfeit["claim"]) == list(schema["claim"]) and list(forfeit["result"]) == list(schema["result"])
    assert list(contested["claim"]["contest"]) == list(schema["contest"])
    assert run.returncode == 2
    pair = [VECTORS / "replays" / n for n in ("fork-copy-a.npr", "fork-copy-b.npr")]
    run = subprocess.run([sys.executable, "-m", "client.cli", "replay", "verify", "--json", *map(str, pair)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    forks = json.loads(run.stdout)[0]["forks"]
    assert forks and list(forks[0]) == list(schema["fork"]) and run.returncode == 1


# ------------------------------------------------------------------------------------------ the fixes


def _quedah() -> bytes:
    return (VECTORS / "replays" / "valid-quedah.npr").read_bytes()


def test_a_record_over_1_mib_makes_the_file_unreadable():
    data = _quedah()
    replay = parse_replay(data)
    last = replay.frames[-1]
    body = ("x" * 60_000,) * 19                    # 1.1 MiB
    big = codec.encode((last.session, last.seq + 1, last.hash, 0, "act", body, bytes(32), bytes(64)),
                       codec.Limits(max_bytes=1 << 30))
    assert 1_100_000 < len(big) < 1_200_000
    with pytest.raises(codec.FormatError) as info:
        parse_replay(data + big)
    assert "exceeds the limit of 1048576" in info.value.reason
    with pytest.raises(codec.FormatError) as cut:           # cut off, it is still no torn write
        parse_replay(data + big[:-10])
    assert "more than 1048576" in cut.value.reason
    assert parse_replay(data + big[:1000]).torn            # a short cut-off record is a torn write
    verdict = audit_bytes(data + big)
    assert verdict.status == "unreadable" and verdict.exit_code == 2


def test_bytes_that_are_no_frame_are_rejected_live_and_invalid_in_a_file():
    """One rule (docs/replay-format.md "Reading without trust"): a well-formed record in a frame's place that is
    no frame (unknown kind, wrong envelope) is what a peer rejects; in a file the verdict is invalid (exit 1)
    naming that frame, never unreadable. Unreadable is only for bytes that are not canonical records within
    the limits, or a header this netplay cannot read."""
    data = _quedah()
    replay = parse_replay(data)
    header, frames = replay.header, replay.frames
    _, seats = make_seats(2, 1)                 # the vector's reproducible keys (conformance/replay_vectors.py)
    f = frames[10]
    key = seats[f.seat].key
    assert make_frame(key, f.session, f.seq, f.prev, f.seat, f.kind, f.body, f.digest).signature == f.signature
    from replays.crypto import sign
    fields = (f.session, f.seq, f.prev, f.seat, "dance", f.body, f.digest)
    dance = codec.encode((*fields, sign(key, "frame", codec.encode(fields))))
    live = Ledger(header)
    for frame in frames[:10]:
        live.accept(frame)
    with pytest.raises(Rejected) as info:
        live.accept(dance)
    assert "malformed frame" in info.value.reason and len(live.frames) == 10
    records = [raw for _, raw, _ in codec.iter_records(data)]
    blob = b"".join(records[:11]) + dance + b"".join(records[12:])
    verdict = audit_bytes(blob)
    assert (verdict.status, verdict.exit_code, verdict.frame) == ("invalid", 1, 10)
    assert "frame 10 rejected: malformed frame" in verdict.reason and "record 11" in verdict.reason
    garbage_later = blob + b"\xc1"                          # a broken record anywhere still makes it unreadable
    assert audit_bytes(garbage_later).status == "unreadable"
    # a protocol-2 kind in a protocol-1 transcript is no frame of that protocol either
    v1 = Header(header.game, header.rules_version, 2, header.options, header.seats, header.session, header.created,
                1, 0, None)
    old = Ledger(v1)
    shuffle = make_frame(key, f.session, 0, v1.hash, f.seat, "shuffle", ("d", 0, bytes(32), b"", ()), bytes(32))
    with pytest.raises(Rejected) as info:
        old.accept(shuffle.encode())
    assert "not a frame kind of protocol 1" in info.value.reason


def test_a_resumed_joiner_never_cuts_off_a_record_that_is_no_frame(tmp_path):
    from netplay.transcript import ResumeError, read_own_replay
    data = _quedah()
    records = [raw for _, raw, _ in codec.iter_records(data)]
    path = tmp_path / "mine.npr"
    path.write_bytes(b"".join(records[:6]) + codec.encode((b"x", 1)) + b"".join(records[6:9]))
    with pytest.raises(ResumeError) as info:
        read_own_replay(path)
    assert "no frame" in str(info.value)
    assert path.stat().st_size == len(b"".join(records[:6]) + codec.encode((b"x", 1)) + b"".join(records[6:9]))

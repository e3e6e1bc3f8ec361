"""Replay files: writing as the game goes, reading without trust, and the format fixtures in tests/data
(kept so that a change which breaks reading old replays fails here). Regenerate the fixtures only on
a deliberate format change: `.venv/bin/python tests/test_replay_files.py regen`."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from bots.lib import RandomBot

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.ledgerkit import CARDS, GAMES, LyingBot, LyingCards, play_out, run_until  # noqa: E402

from engines.core import Game  # noqa: E402
from replays import codec  # noqa: E402
from replays.audit import audit_file  # noqa: E402
from replays.header import FORMAT_MAJOR, Header, VersionError  # noqa: E402
from replays.ledger import Dispute, Ledger  # noqa: E402
from replays.local import SignedMatch, record_match  # noqa: E402
from replays.reader import parse_replay, read_replay  # noqa: E402
from replays.writer import ReplayWriter, replay_filename  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"

# fixture -> (verdict, seat to blame): what this version writes (format 2, frame protocol 2)
FIXTURES = {
    "cards-valid.npr": ("valid", None),
    "cards-3p-valid.npr": ("valid", None),
    "quedah-merchant-valid.npr": ("valid", None),
    "cards-timeout.npr": ("unfinished", None),
    "cards-contested.npr": ("contested", None),
    "cards-cheat.npr": ("invalid", 0),
    "cards-torn.npr": ("unfinished", None),
}
# files written by format 1 (frame protocol 1): they must keep verifying. Claims and cut files blame
# nobody any more (a claim is one seat's word about time; a cut file proves nothing).
V1_FIXTURES = {
    "cards-valid.npr": ("valid", None),
    "cards-3p-valid.npr": ("valid", None),
    "quedah-merchant-valid.npr": ("valid", None),
    "cards-timeout.npr": ("unfinished", None),
    "cards-cheat.npr": ("invalid", 0),
    "cards-torn.npr": ("unfinished", None),
}


def _write(path: Path, header: Header, frames) -> None:
    if path.exists():
        path.unlink()
    with ReplayWriter(path, header, sync=False) as writer:
        for frame in frames:
            writer.append(frame)


def make_fixtures(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, players in (("cards-valid.npr", 2), ("cards-3p-valid.npr", 3)):
        if (folder / name).exists():
            (folder / name).unlink()
        record_match(CARDS, RandomBot(), seed=21, players=players, path=folder / name, reproducible=True,
                     chain_length=2, sync=False)
    target = folder / "quedah-merchant-valid.npr"
    if target.exists():
        target.unlink()
    record_match("quedah-merchant", RandomBot(), seed=4, path=target, reproducible=True, sync=False)
    table = SignedMatch(CARDS, RandomBot(), seed=22, reproducible=True)
    run_until(table, lambda kind, seat: kind == "reveal" and seat == 1)
    table.deliver(table.ledgers[0].build_timeout())
    table.deliver(table.ledgers[0].build_after_claim())   # unanswered: seat 0 reveals and co-signs the forfeit
    play_out(table)
    _write(folder / "cards-timeout.npr", table.header, table.ledgers[0].frames)
    table = SignedMatch(CARDS, RandomBot(), seed=24, reproducible=True)
    run_until(table, lambda kind, seat: kind == "reveal" and seat == 1)
    table.deliver(table.ledgers[0].build_timeout())
    table.deliver(table.ledgers[1].build_contest("I am here and my reveal was sent"))
    _write(folder / "cards-contested.npr", table.header, table.ledgers[0].frames)
    table = SignedMatch(CARDS, RandomBot(), seed=23, reproducible=True)
    table.ledgers[0] = Ledger(table.header, table.secrets[0], Game(LyingCards()))
    table.bots[0] = LyingBot()
    with pytest.raises(Dispute):
        play_out(table)
    _write(folder / "cards-cheat.npr", table.header, table.ledgers[1].frames)
    valid = (folder / "cards-valid.npr").read_bytes()
    records = [raw for _, raw, _ in codec.iter_records(valid)]
    # stops after seat 0's first chain value (a frame of seat 1 torn mid-write)
    (folder / "cards-torn.npr").write_bytes(b"".join(records[:5]) + records[5][:40])


@pytest.mark.parametrize("name", sorted(V1_FIXTURES))
def test_format_1_files_still_read_and_verify(name):
    status, blame = V1_FIXTURES[name]
    path = DATA / "v1" / name
    replay = read_replay(path)
    assert replay.header.major == 1 and replay.header.protocol == 1 and replay.frames
    verdict = audit_file(path, GAMES)
    assert verdict.status == status, verdict.reason
    assert verdict.blame == blame
    if name == "cards-timeout.npr":
        assert "claimed by seat 0, not verifiable from this file alone" in verdict.reason
        assert verdict.claim["blamed"] == 1
    if name == "cards-torn.npr":
        assert replay.torn and "torn" in verdict.notes[-1] and "awaiting seat 1" in verdict.reason


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_format_fixtures_still_read_and_verify(name):
    status, blame = FIXTURES[name]
    path = DATA / name
    replay = read_replay(path)
    assert replay.header.major == FORMAT_MAJOR and replay.frames
    verdict = audit_file(path, GAMES)
    assert verdict.status == status, verdict.reason
    assert verdict.blame == blame
    if name == "cards-torn.npr":
        assert replay.torn and "torn" in verdict.notes[-1]


def test_fixtures_match_what_this_version_writes(tmp_path):
    """Same seeds, same protocol: the same bytes (a change here is a format change: bump the version)."""
    make_fixtures(tmp_path)
    for name in FIXTURES:
        if name.startswith("quedah"):
            continue  # engine-owned digests may change with a rules version; the audit above covers it
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


def test_writer_flushes_and_fsyncs_every_record(tmp_path, monkeypatch):
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    record = record_match(CARDS, RandomBot(), seed=1, path=tmp_path / "g.npr", sync=True)
    assert len(calls) == len(record.frames) + 1
    size = (tmp_path / "g.npr").stat().st_size
    assert size == len(record.header.encode()) + sum(len(f.encode()) for f in record.frames)
    with pytest.raises(FileExistsError):
        ReplayWriter(tmp_path / "g.npr", record.header)


def test_replays_are_named_by_date_game_and_players(tmp_path):
    record = record_match("ploc", RandomBot(), seed=1, created=1_700_000_000, sync=False, directory=tmp_path / "r")
    assert record.path.parent == tmp_path / "r"
    assert re.fullmatch(r"2023-11-14_221320_ploc_random-0-vs-random-1_[0-9a-f]{8}\.npr", record.path.name)
    assert replay_filename(record.header) == record.path.name
    with pytest.raises(ValueError, match="name a path or a directory"):
        record_match("ploc", RandomBot(), seed=1)


def test_a_torn_last_record_is_reported_and_skipped(tmp_path):
    data = (DATA / "cards-valid.npr").read_bytes()
    records = [raw for _, raw, _ in codec.iter_records(data)]
    whole = b"".join(records[:-1])
    for cut in range(1, len(records[-1]), 7):
        replay = parse_replay(whole + records[-1][:cut])
        assert len(replay.frames) == len(records) - 2 and "torn" in replay.torn
    path = tmp_path / "cut.npr"
    path.write_bytes(whole + records[-1][:30])
    verdict = audit_file(path, GAMES)
    assert verdict.status == "unfinished" and verdict.exit_code == 1
    assert any("torn" in n for n in verdict.notes)


def test_a_resumed_writer_continues_after_unknown_records_and_cuts_a_torn_tail(tmp_path):
    data = (DATA / "cards-valid.npr").read_bytes()
    records = [raw for _, raw, _ in codec.iter_records(data)]
    later_minor = codec.encode(("a-later-record-type", 1))  # what a later minor version may write
    path = tmp_path / "resumed.npr"
    path.write_bytes(b"".join(records[:5]) + later_minor + b"".join(records[5:8]) + records[8][:9])
    replay = read_replay(path)
    assert len(replay.frames) == 7 and replay.torn and replay.end == path.stat().st_size - 9
    writer = ReplayWriter.resume(path, replay.end, 1 + len(replay.frames), sync=False)
    writer.append(records[8])
    writer.close()
    again = read_replay(path)
    assert again.torn is None and len(again.frames) == 8 and again.frames[-1].encode() == records[8]


@pytest.mark.parametrize(("data", "fragment"), [
    (b"", "empty"),
    (b"hello world", "not a netplay replay"),
    (codec.encode(("something-else", 1, 0)), "not a netplay replay"),
    (codec.encode(("netplay-replay", 1, 0, "ploc")), "too few fields"),
    (codec.encode(("netplay-replay", "1", 0)), "format version"),
    (b"\x91" * 100, "record 0"),
    (b"\xdb\xff\xff\xff\xff" + b"x" * 100, "declares"),
])
def test_garbage_files_are_refused_with_a_reason(data, fragment, tmp_path):
    path = tmp_path / "bad.npr"
    path.write_bytes(data)
    verdict = audit_file(path)
    assert verdict.status == "unreadable" and verdict.exit_code == 2
    assert fragment in verdict.reason


def test_a_newer_major_version_is_refused_clearly():
    header = parse_replay((DATA / "cards-valid.npr").read_bytes()).header
    value = list(header.value())
    value[1] = FORMAT_MAJOR + 1
    with pytest.raises(VersionError) as info:
        parse_replay(codec.encode(tuple(value)))
    assert "newer" in info.value.reason and "upgrade" in info.value.reason
    value[1], value[2] = FORMAT_MAJOR, 7
    newer_minor = parse_replay(codec.encode((*value, "a later field")))
    assert newer_minor.notes and newer_minor.header.extra == ("a later field",)


def test_garbage_after_the_header_is_unreadable_naming_the_record(tmp_path):
    data = (DATA / "cards-valid.npr").read_bytes()
    records = [raw for _, raw, _ in codec.iter_records(data)]
    path = tmp_path / "mid.npr"
    path.write_bytes(b"".join(records[:3]) + b"\xc1" + b"".join(records[3:]))
    verdict = audit_file(path, GAMES)
    assert verdict.status == "unreadable" and "record 3" in verdict.reason
    path.write_bytes(b"".join(records[:3]) + codec.encode((b"x", 1)) + b"".join(records[3:]))
    assert "record 3" in audit_file(path, GAMES).reason


def test_both_peers_files_verify_to_the_same_result(tmp_path):
    table = SignedMatch(CARDS, RandomBot(), seed=30, reproducible=True)
    play_out(table)
    verdicts = []
    for seat, ledger in enumerate(table.ledgers):
        _write(tmp_path / f"peer{seat}.npr", table.header, ledger.frames)
        verdicts.append(audit_file(tmp_path / f"peer{seat}.npr", GAMES).as_dict())
    for v in verdicts:
        v.pop("path")
    assert verdicts[0] == verdicts[1] and verdicts[0]["verdict"] == "valid"


if __name__ == "__main__" and sys.argv[1:] == ["regen"]:
    make_fixtures(DATA)
    print("fixtures written to", DATA)

"""`netplay replay verify` and the audit behind it: every kind of tampering is detected and named."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.lib import RandomBot

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.ledgerkit import GAMES, forge, run_until  # noqa: E402

import engines  # noqa: E402
from client.cli import main  # noqa: E402
from replays import codec  # noqa: E402
from replays.audit import audit_bytes, audit_file  # noqa: E402
from replays.crypto import generate_key  # noqa: E402
from replays.frames import decode_frame, make_frame  # noqa: E402
from replays.ledger import Dispute  # noqa: E402
from replays.local import SignedMatch, make_seats  # noqa: E402
from replays.writer import ReplayWriter  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
CARDS_FILE = DATA / "cards-valid.npr"  # recorded reproducibly with seed 21, two seats, chains of 2
QUEDAH_FILE = DATA / "quedah-merchant-valid.npr"


def records(path: Path) -> list[bytes]:
    return [raw for _, raw, _ in codec.iter_records(path.read_bytes())]


def verify(*args: str):
    return CliRunner().invoke(main, ["replay", "verify", *args])


def rechain(recs: list[bytes], index: int, body, players: int = 2, seed: int = 21) -> bytes:
    """Replace frame `index`'s body, re-signed by its real seat key, and re-chain every later frame with
    the real keys: what a seat that lies about one value could produce at most."""
    _, secrets = make_seats(players, seed, 2)
    header, frames = recs[0], [decode_frame(r) for r in recs[1:]]
    out = [header]
    prev = frames[0].prev
    for n, f in enumerate(frames):
        new_body = body if n == index else f.body
        g = make_frame(secrets[f.seat].key, f.session, f.seq, prev, f.seat, f.kind, new_body, f.digest)
        out.append(g.encode())
        prev = g.hash
    return b"".join(out)


def test_fixture_is_valid_to_start_with():
    assert audit_file(CARDS_FILE, GAMES).status == "valid"
    assert rechain(records(CARDS_FILE), -1, None) == CARDS_FILE.read_bytes()


def test_flipping_any_byte_is_detected():
    data = CARDS_FILE.read_bytes()
    for pos in range(0, len(data), 5):
        for bit in (0x01, 0x80):
            bad = bytearray(data)
            bad[pos] ^= bit
            verdict = audit_bytes(bytes(bad), GAMES)
            assert verdict.status != "valid", (pos, bit)
            assert verdict.reason


def test_dropping_or_swapping_frames_is_detected_and_named():
    recs = records(CARDS_FILE)
    for i in range(1, len(recs) - 1):
        dropped = audit_bytes(b"".join(recs[:i] + recs[i + 1:]), GAMES)
        assert dropped.status == "invalid" and f"frame {i - 1} rejected" in dropped.reason
        swapped = recs[:i] + [recs[i + 1], recs[i]] + recs[i + 2:]
        verdict = audit_bytes(b"".join(swapped), GAMES)
        assert verdict.status == "invalid" and f"frame {i - 1} rejected" in verdict.reason
        assert "out of order" in verdict.reason
    last = audit_bytes(b"".join(recs[:-1]), GAMES)
    assert last.status == "unfinished" and last.blame is None  # a cut file proves nothing about who stopped
    assert "awaiting seat 1" in last.reason and "cut short" in last.reason


def test_re_signing_with_another_key_is_detected():
    recs = records(CARDS_FILE)
    other = generate_key()
    for i in range(1, len(recs)):
        f = decode_frame(recs[i])
        forged = make_frame(other, f.session, f.seq, f.prev, f.seat, f.kind, f.body, f.digest).encode()
        verdict = audit_bytes(b"".join(recs[:i] + [forged] + recs[i + 1:]), GAMES)
        assert verdict.status == "invalid"
        assert f"frame {i - 1} rejected" in verdict.reason and "bad signature" in verdict.reason


def test_changed_revealed_values_are_blamed_on_their_seat():
    recs = records(CARDS_FILE)
    frames = [decode_frame(r) for r in recs[1:]]
    seen = set()
    for n, f in enumerate(frames):
        if f.kind == "chain" and "chain" not in seen:
            body, rule = (bytes(32), f.body[1]), "hash chain"
        elif f.kind == "reveal" and "reveal" not in seen:
            other = next(c for c in ("card 0", "card 1", "card 2") if c != f.body[0])
            body, rule = (other, f.body[1]), "choice commitment"
        elif f.kind == "seed" and "seed" not in seen:
            body, rule = (bytes(32), *f.body[1:]), "seed commitment"
        elif f.kind == "act" and "act" not in seen:
            body, rule = ("card 9",), "expected 'card N'"
        else:
            continue
        seen.add(f.kind)
        verdict = audit_bytes(rechain(recs, n, body), GAMES)
        assert verdict.status == "invalid", f.kind
        assert verdict.dispute["frame"] == n and verdict.dispute["seat"] == f.seat and verdict.blame == f.seat
        assert rule in verdict.dispute["rule"], verdict.dispute
    assert {"chain", "reveal", "seed"} <= seen


def _disputed_quedah(tmp_path: Path) -> tuple[Path, int, str]:
    game = engines.get("quedah-merchant")
    table = SignedMatch(game, RandomBot(), seed=3, reproducible=True)
    run_until(table, lambda kind, seat: kind == "act")
    for _ in range(6):
        run_until(table, lambda kind, seat: kind == "act")
        table.step()
    run_until(table, lambda kind, seat: kind == "act")
    seat = table.expects()[1]
    ledger = table.ledgers[0]
    bad = "move 99 99"
    with pytest.raises(Dispute):
        table.deliver(forge(ledger, table.secrets[seat].key, seat, "act", (bad,)))
    path = tmp_path / "disputed.npr"
    with ReplayWriter(path, table.header, sync=False) as writer:
        for frame in ledger.frames:
            writer.append(frame)
    return path, seat, bad


def test_cli_verdicts_and_exit_codes(tmp_path):
    ok = verify(str(QUEDAH_FILE))
    assert ok.exit_code == 0, ok.output
    assert "VALID" in ok.output and "co-signed" in ok.output and "seat 0:" in ok.output

    disputed, seat, bad = _disputed_quedah(tmp_path)
    result = verify(str(disputed))
    assert result.exit_code == 1
    assert "INVALID" in result.output and f"seat {seat}" in result.output
    assert f"claimed: {bad}" in result.output and "the rules allow:" in result.output and "rule:" in result.output

    garbage = tmp_path / "garbage.npr"
    garbage.write_bytes(b"\x00\x01\x02 not a replay")
    bad_run = verify(str(garbage))
    assert bad_run.exit_code == 2 and "UNREADABLE" in bad_run.output
    missing = verify(str(tmp_path / "nope.npr"))
    assert missing.exit_code == 2 and "cannot read" in missing.output

    many = verify("--json", str(QUEDAH_FILE), str(disputed), str(garbage))
    assert many.exit_code == 2
    data = json.loads(many.stdout if hasattr(many, "stdout") else many.output)
    assert [d["verdict"] for d in data] == ["valid", "invalid", "unreadable"]
    assert data[1]["dispute"]["seat"] == seat and data[1]["dispute"]["claimed"] == bad
    assert data[0]["result"]["winners"] and data[0]["seats"][0]["fingerprint"]


def test_cli_verifies_the_replay_dir_when_no_file_is_given(tmp_path, monkeypatch):
    folder = tmp_path / "replays"
    folder.mkdir()
    (folder / "a.npr").write_bytes(QUEDAH_FILE.read_bytes())
    (folder / "b.npr").write_bytes(QUEDAH_FILE.read_bytes())
    result = verify("--replay-dir", str(folder))
    assert result.exit_code == 0 and "2 valid" in result.output
    monkeypatch.setenv("NETPLAY_HOME", str(tmp_path / "empty"))
    empty = verify()
    assert empty.exit_code == 2 and "none in" in empty.output


def test_unsupported_games_and_hostile_structures_are_unreadable(tmp_path):
    verdict = audit_file(CARDS_FILE)  # toy-cards is not in engines.GAMES
    assert verdict.status == "unreadable" and "unknown game" in verdict.reason
    recs = records(QUEDAH_FILE)
    deep = b"\x91" * 30 + b"\x01"
    for junk in (deep, b"\xdd\xff\xff\xff\xff", b"\xcb" + bytes(8)):
        verdict = audit_bytes(b"".join(recs[:4]) + junk, None)
        assert verdict.status == "unreadable" and "record 4" in verdict.reason

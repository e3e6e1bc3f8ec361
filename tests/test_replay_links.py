"""The `links` record (docs/replay-format.md "Layout"): the pairs of seats that only the host's relay joined when
a game of three seats or more started, written once by every peer into its own copy, unsigned; `netplay replay
verify` says what the relay could and could not have done to each pair. Its shape is checked like a `cert`'s
(a bad one: the file was altered); a file without it is valid as before. The games are simulated (well under a
CPU second each): the simulator's peers keep their records in memory, and a copy's file is built from them in
the order a peer writes them."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from client.cli import main
from conformance.replay_vectors import Chooser
from netplay.transcript import read_own_replay
from replays import codec
from replays.audit import audit_bytes, relay_lines
from replays.header import Header, Terms
from replays.local import SignedMatch
from replays.reader import MAX_LINK_PAIRS, links_record, parse_replay, read_replay
from simulator.liar import Act, Rule, Setting
from simulator.run import Plan, simulate
from simulator.world import Faults

LINE = "seats 1 and 2 had no direct link: the host relayed between them"


@pytest.fixture(autouse=True)
def quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


@pytest.fixture(scope="module")
def game() -> tuple[Header, list[bytes]]:
    """A whole three-seat game under a 2.1 header (the host's seat 0 named in the terms): header and frames."""
    return _played(Terms.agreed())


def _played(terms: Terms | None) -> tuple[Header, list[bytes]]:
    """A whole game of three seats (the conformance kit's uniform chooser): its header and frames."""
    match = SignedMatch("madagaskar", Chooser(), seed=3, players=3, reproducible=True, chain_length=64,
                        created=1_700_000_000, terms=terms)
    while match.step() is not None:
        pass
    return match.header, [f.encode() for f in match.ledgers[0].frames]


def _file(header: Header, frames: list[bytes], *records: tuple) -> bytes:
    """A copy as a peer writes it: the header, the records written as the game starts, then the frames."""
    return header.encode() + b"".join(codec.encode(r) for r in records) + b"".join(frames)


# ------------------------------------------------------------------------------ the record itself


def test_the_record_is_sorted_and_without_repeats_so_one_knowledge_has_one_encoding() -> None:
    assert links_record([(2, 1), (1, 3), (1, 2)]) == ("links", ((1, 2), (1, 3)))
    assert links_record([]) == ("links", ())


def test_a_valid_record_is_read_and_verify_says_what_the_relay_could_do(game) -> None:
    header, frames = game
    replay = parse_replay(_file(header, frames, links_record([(1, 2)])))
    assert replay.links == ((1, 2),) and not replay.bad_records and not replay.skipped
    verdict = audit_bytes(_file(header, frames, links_record([(1, 2)])))
    assert verdict.status == "valid", verdict.reason
    assert verdict.notes == relay_lines(((1, 2),))
    assert "withhold or delay" in verdict.notes[0] and "never change it" in verdict.notes[0]
    assert "no forfeit rests on its silence" in verdict.notes[0]


def test_an_empty_record_or_none_at_all_adds_nothing(game) -> None:
    header, frames = game
    for data in (_file(header, frames, links_record([])), _file(header, frames)):
        replay = parse_replay(data)
        assert replay.links == (() if len(data) > len(_file(header, frames)) else None)
        verdict = audit_bytes(data)
        assert verdict.status == "valid" and verdict.notes == [], (verdict.reason, verdict.notes)


BAD = {
    "the host's seat": ("links", ((0, 1),)),
    "a seat twice": ("links", ((1, 1),)),
    "a > b": ("links", ((2, 1),)),
    "not a seat of the game": ("links", ((1, 3),)),
    "a bool for a seat": ("links", ((True, 2),)),
    "out of order": ("links", ((1, 2), (1, 2))),
    "a pair of three": ("links", ((1, 2, 3),)),
    "no list": ("links", 12),
    "no pairs field": ("links",),
    "a field more (2.1)": ("links", ((1, 2),), 0),
    "over the limit": ("links", ((1, 2),) * (MAX_LINK_PAIRS + 1)),
}


@pytest.mark.parametrize("why", sorted(BAD))
def test_a_malformed_record_is_an_altered_file_like_a_malformed_cert(game, why: str) -> None:
    header, frames = game
    verdict = audit_bytes(_file(header, frames, BAD[why]))
    assert verdict.status == "invalid" and verdict.frame == 0 and verdict.blame is None, verdict.reason
    assert verdict.dispute is None and "a links record of the wrong shape" in verdict.reason


def test_a_second_record_is_an_altered_file(game) -> None:
    """A peer writes one per game (a resumed one keeps its file's): two would be two words that may contradict."""
    header, frames = game
    verdict = audit_bytes(_file(header, frames, links_record([(1, 2)]), links_record([])))
    assert verdict.status == "invalid" and verdict.blame is None and "a second links record" in verdict.reason


def test_a_format_2_0_file_skips_the_tag_with_a_note() -> None:
    header, frames = _played(None)
    assert (header.major, header.minor) == (2, 0)
    data = _file(header, frames, ("links", ((0, 0),)))
    verdict = audit_bytes(data)
    assert verdict.status == "valid" and any("'links' x1" in note for note in verdict.notes), verdict.notes


# ------------------------------------------------------------------------------ the peers write it


def _simulate(players: int, settings: dict | None = None, faults: Faults | None = None, game: str = "madagaskar"):
    settings = settings or {}
    plan = Plan(5, game, players, {}, {i: "liar" for i in settings}, faults or Faults(), settings=settings, games=1)
    world, report = simulate(plan)
    assert report.ok, report.violations
    assert all(p.crash is None for p in world.peers), [p.crash for p in world.peers]
    return world


def _links(peer) -> list[tuple]:
    return [r for r in peer.disk.records if r and r[0] == "links"]


def _copy(peer) -> bytes:
    """The peer's replay file as its shell writes it: header, the links record, each frame with its cert."""
    disk = peer.disk
    certs = {r[2]: r for r in disk.records if r and r[0] == "cert"}
    data = disk.header.encode() + b"".join(codec.encode(r) for r in _links(peer))
    for n, frame in enumerate(disk.frames):
        data += frame + (codec.encode(certs[n]) if n in certs else b"")
    return data


def test_with_the_mesh_cut_every_copy_names_the_pair_and_verify_prints_it(tmp_path: Path) -> None:
    """The host blanks every address in `peers`: no direct link comes up, the game is played through the relay,
    and each copy (the joiners' honest ones, and the host's from the joiners' `start` reports) says so."""
    host = Setting("", (Rule(Act.BLANK, ("peers",), field=0),))
    world = _simulate(3, {0: host})
    for peer in world.peers:
        assert _links(peer) == [("links", ((1, 2),))], (peer.index, _links(peer))
    for joiner in world.peers[1:]:
        path = tmp_path / f"seat{joiner.machine.book.seat}.npr"
        path.write_bytes(_copy(joiner))
        run = CliRunner().invoke(main, ["replay", "verify", str(path)])
        assert run.exit_code == 0, run.output
        assert f"note: {LINE}; it could withhold or delay what one sent the other, never change it" in run.output
    show = CliRunner().invoke(main, ["replay", "show", str(path)])
    assert show.exit_code == 0 and f"note: {LINE}" in show.output, show.output


def test_a_joiner_names_only_the_pairs_it_knows_when_the_network_keeps_two_apart() -> None:
    world = _simulate(3, faults=Faults(partition=(1, 2)))
    assert [_links(p) for p in world.peers] == [[("links", ((1, 2),))]] * 3


def test_an_honest_mesh_writes_an_empty_record_and_verify_adds_no_line(tmp_path: Path) -> None:
    world = _simulate(3)
    for peer in world.peers:
        assert _links(peer) == [("links", ())]
    path = tmp_path / "copy.npr"
    path.write_bytes(_copy(world.peers[1]))
    run = CliRunner().invoke(main, ["replay", "verify", str(path)])
    assert run.exit_code == 0 and "direct link" not in run.output, run.output


def test_a_two_seat_game_writes_no_links_record() -> None:
    world = _simulate(2, game="quedah-merchant")
    assert all(p.disk.header is not None and p.disk.frames and not _links(p) for p in world.peers)


def test_a_peer_killed_and_resumed_keeps_one_record() -> None:
    """Write once per game: a resumed peer does not start the game again, so writes no second record."""
    world = _simulate(3, faults=Faults(partition=(1, 2), kills=3, kill_s=1.0))
    assert any(kind == "revive" for _, kind, _ in world.history), "no peer was killed and resumed"
    for peer in world.peers:
        assert len(_links(peer)) <= 1, (peer.index, _links(peer))
        if peer.disk.frames:
            assert _links(peer) == [("links", ((1, 2),))], (peer.index, _links(peer))


def test_a_resumed_writer_keeps_the_record_in_its_file(tmp_path: Path, game) -> None:
    """The file side of the rule: a peer that comes back reads its copy (the record counted among its records),
    cuts a torn tail and writes on; the one record it wrote at the start stays the only one."""
    header, frames = game
    path = tmp_path / "own.npr"
    path.write_bytes(_file(header, frames[:40], links_record([(1, 2)])) + frames[40][:9])
    own = read_own_replay(path)
    assert own.records == 1 + 1 + 40 and len(own.frames) == 40
    with own.reopen(fsync=False) as writer:
        for frame in frames[40:]:
            writer.append(frame)
    replay = read_replay(path)
    assert replay.links == ((1, 2),) and not replay.bad_records and len(replay.frames) == len(frames)
    assert audit_bytes(path.read_bytes()).status == "valid"

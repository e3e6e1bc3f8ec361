"""Issue 34: per-player statistics from the replays on this machine (client/stats.py), from the signed files
only: real games recorded into a folder and counted against their own results; a tampered copy is not counted;
the dice of a recorded Catan game against a hand count of its rolls (the viewer's own chronicle); the cache; the
`netplay stats` command; and the lobby's statistics page, headless, at three window sizes."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import shutil
from pathlib import Path

import pygame
import pytest
from click.testing import CliRunner

import bots
from bots.lib import RandomBot
from client.stats import SUMS, ReplayStats, SummaryCache, summarize_file
from replays.local import record_match

ARTIFACTS = Path(__file__).parent / "artifacts"
VECTORS = Path(__file__).resolve().parent.parent / "docs" / "vectors" / "replays"


class Games:
    """A folder of recorded games and what each one's result was."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        # keys follow the seed when reproducible: the Catan game's seats 0 and 1 play Ploc under other names
        self.catan = record_match("catan", bots.make("catan", ["smart"], 3), seed=1, players=3, directory=folder,
                                  options={"max_rounds": "25"}, reproducible=True, created=1_700_000_000)
        self.ploc = record_match("ploc", RandomBot(), seed=1, directory=folder, reproducible=True,
                                 created=1_700_000_100)
        self.captain = record_match("loyal-captain", RandomBot(), seed=3, directory=folder, created=1_700_000_200)
        self.cut = record_match("catan", bots.make("catan", ["smart"], 3), seed=2, players=3, directory=folder,
                                reproducible=True, stop_after=150, created=1_700_000_300)
        shutil.copy(VECTORS / "timeout-forfeit.npr", folder / "timeout-forfeit.npr")
        shutil.copy(self.ploc.path, folder / "ploc-second-copy.npr")      # one game, two files: counted once
        data = bytearray(self.catan.path.read_bytes())
        data[len(data) // 2] ^= 0x01                                       # one bit of one frame flipped
        (folder / "catan-tampered.npr").write_bytes(bytes(data))


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Games:
    return Games(tmp_path_factory.mktemp("stats") / "replays")


def _by_key(stats) -> dict[str, object]:
    return {p.key: p for p in stats.players}


def test_the_counts_are_the_games_results_and_a_tampered_file_is_not_counted(games, tmp_path):
    work = ReplayStats(games.folder, cache=SummaryCache(tmp_path / "cache.json"))
    work.wait(120)
    stats = work.stats()
    assert stats.pending == 0 and stats.files == 7
    assert stats.games == 5, stats.head()              # catan, ploc (two copies), captain, the cut catan, the forfeit
    assert stats.copies == 1
    assert [name for name, _ in stats.not_counted] == ["catan-tampered.npr"], stats.not_counted
    assert summarize_file(games.folder / "catan-tampered.npr").status in ("invalid", "unreadable")
    assert "not counted: 1 file that does not verify" in stats.head()
    players = _by_key(stats)
    expected: dict[str, dict[str, list[str]]] = {}   # key -> game -> outcomes
    for record in (games.catan, games.ploc, games.captain):
        assert record.result is not None
        for seat, (key, _) in enumerate(record.header.seats):
            won = seat in record.result.winners
            outcome = "win" if won else "draw" if not record.result.winners else "loss"
            expected.setdefault(key.hex(), {}).setdefault(record.header.game, []).append(outcome)
    for key, _ in games.cut.header.seats:
        expected.setdefault(key.hex(), {}).setdefault("catan", []).append("unfinished")
    for key, per_game in expected.items():
        p = players[key]
        for game_id, outcomes in per_game.items():
            tally = p.by_game[game_id]
            assert (tally.games, tally.wins, tally.losses, tally.draws, tally.unfinished) == (
                len(outcomes), outcomes.count("win"), outcomes.count("loss"), outcomes.count("draw"),
                outcomes.count("unfinished")), (p.label, game_id, tally)
    # one identity, two games under two names: one player, shown by the name of the latest game
    from replays.reader import read_header

    key0 = games.catan.header.seats[0][0]
    seat0 = players[key0.hex()]
    assert {"catan", "ploc"} <= set(seat0.by_game)
    headers = [read_header(path) for path in games.folder.glob("*.npr") if path.name != "catan-tampered.npr"]
    latest = max((h for h in headers if key0 in (k for k, _ in h.seats)), key=lambda h: h.created)
    assert seat0.name == next(name for k, name in latest.seats if k == key0) != games.catan.header.seats[0][1]
    # the forfeit: the blamed seat lost by forfeit, the other won
    from replays.audit import audit_file

    verdict = audit_file(games.folder / "timeout-forfeit.npr")
    vector = read_header(games.folder / "timeout-forfeit.npr")
    for seat, (key, _) in enumerate(vector.seats):
        tally = players[key.hex()].by_game[vector.game]
        lost = seat == verdict.claim["blamed"]
        assert (tally.games, tally.wins, tally.losses, tally.forfeits) == (1, int(not lost), int(lost), int(lost))
    assert sum(t.forfeits for p in stats.players for t in p.by_game.values()) == 1
    # names two identities share carry each key's short fingerprint; a name nobody else has, none
    names: dict[str, int] = {}
    for p in stats.players:
        names[p.name.casefold()] = names.get(p.name.casefold(), 0) + 1
    for p in stats.players:
        assert (p.fingerprint[:9] in p.label) == (names[p.name.casefold()] > 1), p.label
    assert any(names[p.name.casefold()] > 1 for p in stats.players), "the fixture has a shared name"


def test_the_dice_match_a_hand_count_of_the_rolls(games, tmp_path):
    from client.story.record import from_stepper
    from replays.stepping import Stepper

    stepper = Stepper.load(games.catan.path)
    rolls = from_stepper(stepper, "revealed").rolls    # what the viewer's dice tab shows, with each roller
    assert len(rolls) > 20
    hand: dict[str, list[int]] = {}
    for roll in rolls:
        assert roll.seat is not None
        key = stepper.header.seats[roll.seat][0].hex()
        hand.setdefault(key, [0] * 11)[sum(roll.values[:2]) - 2] += 1
    only = tmp_path / "one"
    only.mkdir()
    shutil.copy(games.catan.path, only / games.catan.path.name)
    work = ReplayStats(only, cache=SummaryCache())
    work.wait(60)
    players = _by_key(work.stats())
    assert sum(p.rolls for p in players.values()) == len(rolls)
    for key, counts in hand.items():
        p = players[key]
        assert p.sums == counts, p.label
        n = sum(counts)
        mean = sum(s * c for s, c in zip(SUMS, counts, strict=True)) / n
        assert p.mean == pytest.approx(mean)
        assert p.dice_short() == f"{n} rolls, mean {mean:.1f} (fair 7.0)"
        assert p.dice_line().startswith(f"dice: {n} rolls, mean {mean:.1f} (fair 7.0); sevens {counts[5]} (fair ")


def test_the_cache_spares_a_second_audit_and_follows_a_changed_file(games, tmp_path):
    folder = tmp_path / "replays"
    shutil.copytree(games.folder, folder)
    cache_file = tmp_path / "cache.json"
    first = ReplayStats(folder, cache=SummaryCache(cache_file))
    first.wait(120)
    assert first.audited == 7 and cache_file.exists()
    again = ReplayStats(folder, cache=SummaryCache(cache_file))   # a new process: the JSON file
    again.wait(60)
    assert again.audited == 0
    assert again.stats().lines() == first.stats().lines()
    target = next(folder.glob("*loyal-captain*"))
    data = bytearray(target.read_bytes())
    data[-10] ^= 0x01
    target.write_bytes(bytes(data))
    changed = ReplayStats(folder, cache=SummaryCache(cache_file))
    changed.wait(60)
    assert changed.audited == 1
    assert len(changed.stats().not_counted) == 2
    # an edited cache is only a cache: an entry that is no summary is ignored and the file verified again
    cache_file.write_text('{"version": 1, "files": {"x": {"summary": 5}}}')
    assert ReplayStats(folder, cache=SummaryCache(cache_file)).stats is not None


def test_the_stats_command_prints_the_figures(games, home):
    from client.cli import main

    result = CliRunner().invoke(main, ["stats", str(games.folder)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "5 games from 7 replay files" in out and "not counted: 1 file that does not verify" in out
    assert "catan-tampered.npr" in out and "Catan: 1 game, " in out and "dice: " in out and "(fair 7.0)" in out
    help_ = CliRunner().invoke(main, ["stats", "--help"])
    assert help_.exit_code == 0 and "Per-player statistics" in help_.output
    as_json = CliRunner().invoke(main, ["stats", str(games.folder), "--json"])
    assert as_json.exit_code == 0 and '"games": 5' in as_json.output


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
def test_the_lobby_opens_the_statistics_page(games, home, size):
    from client.app import App
    from client.scenes.lobby import LobbyScene
    from client.scenes.stats import StatsScene
    from client.ui import textfit

    app = App(size)
    lobby = LobbyScene(games.folder, browse=False)
    app.push(lobby)
    lobby.replay_list.wait(120)
    app.step([], 16)
    w, h = size
    app.screenshot(ARTIFACTS / f"stats-lobby-{w}x{h}.png")
    button = next(b for b in lobby.buttons if b.key == "stats:")
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center)], 16)
    page = app.scene
    assert isinstance(page, StatsScene)
    page.work.wait(120)
    app.step([], 16)
    assert page.rows, "the table lists the players"
    catan_player = next(i for i, p in enumerate(page.stats.players) if p.rolls)
    page.select(catan_player)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    texts = [t for kind, _, t in frame.items if kind == "text"]
    assert any(t.startswith("5 games from 7 replay files") for t in texts), texts
    assert any(t.startswith("dice: ") or "rolls, mean" in t for t in texts), texts
    found = textfit.problems(frame)
    assert not found, found[:5]
    app.screenshot(ARTIFACTS / f"stats-{w}x{h}.png")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")], 16)
    assert app.scene is lobby

"""The `netplay` command as a user meets it: help everywhere, one-line errors, real output."""

from __future__ import annotations

from click.testing import CliRunner

import engines
from client.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_help_on_every_command():
    top = run("--help")
    assert top.exit_code == 0 and "Usage" in top.output
    for name in main.commands:
        result = run(name, "--help")
        assert result.exit_code == 0, name
        assert "Usage" in result.output


def test_games_lists_every_game():
    result = run("games")
    assert result.exit_code == 0
    for gid, game in engines.GAMES.items():
        assert gid in result.output and game.title in result.output


def test_selfplay_reports_wins_and_speed():
    gid = next(iter(engines.GAMES))
    result = run("selfplay", gid, "-n", "3", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "3 games" in result.output and "actions/s" in result.output and "average length" in result.output


def test_unknown_game_is_a_one_line_error():
    result = run("selfplay", "chess")
    assert result.exit_code != 0
    assert "unknown game 'chess'" in result.output
    assert "Traceback" not in result.output


def test_bad_player_count_and_option():
    gid = next(iter(engines.GAMES))
    result = run("selfplay", gid, "--players", "9")
    assert result.exit_code != 0 and "not 9" in result.output
    result = run("selfplay", gid, "--option", "nonsense=1")
    assert result.exit_code != 0 and "no option 'nonsense'" in result.output
    result = run("selfplay", gid, "--option", "novalue")
    assert result.exit_code != 0 and "key=value" in result.output


def test_bad_bot_name():
    gid = next(iter(engines.GAMES))
    result = run("selfplay", gid, "--bots", "genius")
    assert result.exit_code != 0 and "unknown bot 'genius'" in result.output


def test_watch_prints_moves_and_result():
    gid = next(iter(engines.GAMES))
    result = run("watch", gid, "--seed", "2", "--bots", "random")
    assert result.exit_code == 0, result.output
    assert "random bot: " in result.output and "result:" in result.output


def test_selfplay_can_record_auditable_replays(tmp_path):
    from replays.audit import audit_file

    result = run("selfplay", "ploc", "-n", "2", "--record", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "2 replays written" in result.output
    files = sorted(tmp_path.glob("*.npr"))
    assert len(files) == 2
    assert all(audit_file(f).status == "valid" for f in files)

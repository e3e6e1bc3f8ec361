"""The terminal table as a person meets it (issue 15): numbers name the game's own actions only, the
common actions are words and `resign` asks first; a compact board per game instead of the whole state;
the choices printed once per decision; `help` prints help only; a chat line goes out at once."""

from __future__ import annotations

import io
import random
import re

import pytest
from click.testing import CliRunner

import bots
import engines
from client.cli import main
from client.controller import LocalController
from client.moves import readable, split_actions
from client.terminal import play
from client.textview import board
from engines.core import COMMON_ACTIONS
from engines.referee import Referee


def _run(ctl: LocalController, script: str, seconds: float = 10) -> str:
    out = io.StringIO()
    play(ctl, io.StringIO(script), out, poll_s=0.01, max_seconds=seconds)
    return out.getvalue()


def _ctl(gid: str = "madagaskar", seed: int = 1) -> LocalController:
    game = engines.get(gid)
    return LocalController(game, 0, ["random"], players=game.players[0], seed=seed, bot_delay_ms=0)


def test_a_bare_number_never_resigns_and_resign_asks_first() -> None:
    ctl = _ctl()
    out = _run(ctl, "1\n1\nresign\nno\n1\n")
    assert ctl.result() is None, out                      # "1" three times and a declined resign: still playing
    assert "resign: you lose this game at once. Sure? [y/N]" in out and "not resigned" in out
    numbered = [line for line in out.splitlines() if line.strip()[:3].strip(". ").isdigit()]
    assert numbered and not any("resign" in line or "draw" in line for line in numbered), numbered
    assert "or type: resign" in out
    ctl = _ctl()
    out = _run(ctl, "resign\ny\n")
    assert ctl.result() is not None and ctl.result().winners == (1,)
    assert "game over: You lost: random bot won by resignation" in out


def test_the_choices_are_printed_once_and_help_is_only_help() -> None:
    ctl = _ctl()
    out = _run(ctl, "help\nhelp\n")
    assert out.count("choose:") == 1, out                 # one decision, listed once
    assert out.count("commands:") == 2
    assert out.count("supply") == 2                        # the compact board once (two seat lines)
    assert "state" in out and "fields:" not in out         # the full state only on request
    full = _run(_ctl(), "state\n")
    assert "fields:" in full


def test_a_chat_line_goes_out_at_once_and_appears_once() -> None:
    ctl = _ctl()
    out = _run(ctl, "say hello there\n")
    assert ctl.chat_lines == ["you: hello there"] and out.count("hello there") == 1


def test_numbers_stay_stable_and_follow_the_engine_order() -> None:
    game = engines.get("ploc")  # ploc's legal list mixes resign and draw in among the game's actions
    referee = Referee(game, 2, {}, 3)
    rng = random.Random(1)
    seated = bots.make("ploc", ["random"], 2)
    for _ in range(200):
        if game.result(referee.state) is not None:
            break
        if referee.awaiting().kind == "chance":
            referee.feed_chance()
            continue
        seat = referee.awaited_seats()[0]
        legal = game.legal(referee.state_of(seat), seat)
        actions, common = split_actions(legal)
        assert actions == [a for a in legal if a not in COMMON_ACTIONS] and set(common) <= set(COMMON_ACTIONS)
        referee.submit(seat, seated[seat].choose(game, referee.state_of(seat), seat, legal, rng))


def test_readable_drops_the_seat_and_what_the_text_already_says() -> None:
    assert readable("seat 0: step 6 -> 12", "step 6 12") == ""
    assert readable("Gold (seat 0): pick cannon", "pick cannon") == ""
    assert readable("yellow pairs 4 with 4: a red athlete is laid down", "weaken 1 3").startswith("yellow pairs")


@pytest.mark.parametrize("gid", sorted(engines.GAMES))
def test_every_game_has_a_compact_board(gid: str) -> None:
    ctl = _ctl(gid)
    for _ in range(5):
        ctl.poll(0)
        legal = ctl.legal()
        if legal:
            ctl.submit(split_actions(legal)[0][0])
    text = board(ctl.view(), ctl.names, me=0)
    lines = text.splitlines()
    assert 2 <= len(lines) <= 16, text
    assert all(len(line) <= 110 for line in lines), text
    assert "(you)" in text or "= you" in text or gid.startswith("ebbe"), text


def test_the_catan_board_names_each_count_by_its_resource() -> None:
    """Hands and the bank are counts in the spec's canonical order (brick, lumber, wool, grain, ore)."""
    from support.catanhelpers import position

    view = engines.get("catan").view(position(players=3, s0=dict(settlements=[12], hand="2brick+1wool+3ore")), 0)
    text = board(view, ["ann", "bob", "cy"], me=0)
    assert "2 brick, 1 wool, 3 ore" in text, text
    assert "bank: 17 brick, 19 lumber, 18 wool, 19 grain, 16 ore" in text, text


def test_watch_prints_moves_in_words_and_a_board() -> None:
    result = CliRunner().invoke(main, ["watch", "ploc", "--seed", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "roll of the three free dice: " in out
    assert not re.search(r"\(\d, \d, \d\)", out), "raw chance tuples"
    assert "yellow pairs" in out and "result: " in out and "won" in out
    assert "match 1" in out  # the compact board


@pytest.mark.parametrize("gid,roll", [("ploc", "roll of the three free dice: "), ("catan", "roll of the two dice: ")],
                         ids=["ploc", "catan"])
def test_a_local_table_logs_chance_in_words_as_watch_does(gid: str, roll: str) -> None:
    from support.terminalhelpers import decisions, table

    ctl, term, printed = table(gid, seed=2)
    for shown in decisions(ctl, term, printed, 40):   # the first listed choice each time: to the rolls
        term._action(shown.typed()[0])
    term._new_log_lines()
    out = printed.getvalue()
    rolls = [line for line in ctl.log if line.startswith(roll)]
    assert rolls and all(re.fullmatch(r"[^:]+: \d(, \d)+", line) for line in rolls), ctl.log
    raw = re.compile(r"\(\d+(, \d+)+\)|chance: ")
    assert not [line for line in ctl.log if raw.search(line)], ctl.log
    assert rolls[0] in out and not raw.search(out), "raw chance tuples in the terminal"


def test_games_lists_players_options_and_bots_in_words() -> None:
    out = CliRunner().invoke(main, ["games"]).output
    assert "(1 players)" not in out and "1 player " in out and "2 or 3 players" in out
    assert "bots: easy, hard, medium, random, smart" in out and "False" not in out and "(D13)" not in out
    assert "easy, medium or hard" in CliRunner().invoke(main, ["play", "--help"]).output


class _Flaky(LocalController):
    """A local table whose opponent drops off and comes back (the networked case has its own test)."""

    lost = True

    def peers(self) -> list:
        from netplay.session import PeerState

        if self.lost:
            return [PeerState(1, "anna", False, 3.0, "if anna is not back in 117 s, you win by forfeit", 117.0)]
        return [PeerState(1, "anna", True)]


def test_the_terminal_says_when_a_player_is_lost_and_back() -> None:
    game = engines.get("madagaskar")
    ctl = _Flaky(game, 0, ["random"], players=2, seed=1, bot_delay_ms=0)
    out = io.StringIO()
    from client.terminal import Lines, TerminalTable

    table = TerminalTable(ctl, Lines(io.StringIO("")), out, width=10_000)   # unfolded, one line a choice
    table._show_peers()
    table._show_peers()
    ctl.lost = False
    table._show_peers()
    text = out.getvalue()
    assert text.count("[lost anna, reconnecting... if anna is not back in 117 s, you win by forfeit]") == 1
    assert "[anna is back]" in text


_NUMBERED = re.compile(r"^\s+(\d+)\. (\S.*?)(?:   \(.*\))?$")


@pytest.mark.parametrize("gid", ["ploc", "turning-tides", "ebbe-flut-solo"])
def test_an_action_keeps_its_number_while_the_phase_lasts(gid: str) -> None:
    """Ploc's three actions of a turn use up a die each (legal() shrinks, and grows where a weakened
    die opens `elimw`); Tides and the solo game repeat one phase. Within a phase (this seat choosing
    again, nothing else applied in between) the number printed for an action never changes, a number
    is never given to another action, and the common actions are never numbered."""
    from client.terminal import Lines, TerminalTable

    ctl = _ctl(gid, seed=3)
    out = io.StringIO()
    table = TerminalTable(ctl, Lines(io.StringIO("")), out, width=10_000)   # unfolded, one line a choice
    rng = random.Random(5)
    phase: dict[str, int] = {}   # action -> number, in the current phase
    longest = decisions = gaps = 0
    now = 0
    for _ in range(120):
        if ctl.result() is not None:
            break
        added = len(ctl.log)
        while not ctl.legal() and ctl.result() is None and now < 10**6:
            now += 1
            ctl.poll(now)
        if ctl.result() is not None:
            break
        if len(ctl.log) != added:  # a bot moved or chance fell in between: a new phase
            phase = {}
        actions, common = split_actions(ctl.legal())
        if not set(actions) & set(phase):  # nothing in common (Ploc's `done`, then its actions): a new phase
            phase = {}
        start = len(out.getvalue())
        table.shown_choices = None   # print the choices now (a new decision prints them by itself)
        table._show_choices()
        printed = {}
        for line in out.getvalue()[start:].splitlines():
            match = _NUMBERED.match(line)
            if match:
                printed[match.group(2)] = int(match.group(1))
        assert sorted(printed) == sorted(actions), (printed, actions)
        assert not set(printed) & set(COMMON_ACTIONS)
        assert not any(text.startswith(("resign", "offer draw")) for text in printed)
        for action, number in printed.items():
            assert phase.get(action, number) == number, f"{action} was {phase[action]}, now {number}"
            assert [a for a, n in phase.items() if n == number and a != action] == [], "a number reused"
        if phase and sorted(printed.values()) != list(range(1, len(printed) + 1)):
            gaps += 1
        phase.update(printed)
        longest = max(longest, len(phase))
        decisions += 1
        pick = rng.choice(sorted(printed))
        said = len(out.getvalue())
        table._action(str(printed[pick]))
        assert "refused" not in out.getvalue()[said:] and "choose one of" not in out.getvalue()[said:]
    assert decisions > 10
    if gid == "ploc":
        assert gaps, "Ploc's action phase never left a gap: the test would not see a renumbering"
    if ctl.players > 1:
        assert common or ctl.result() is not None   # resign was there all along, as a word only


@pytest.mark.parametrize("gid", sorted(engines.GAMES))
def test_every_listed_choice_can_be_typed_as_listed(gid: str) -> None:
    """Issue 27 item 3: whatever a listing shows (a number, an action's text, the example of a summed-up
    verb, a node of a place list, a word of the common actions), typed as shown, is taken as that very
    choice, never as another one (Catan's `accept` and `decline` were taken for the draw's answers).
    And the listing hides nothing: every legal game action is numbered, or in a summed-up verb."""
    from support.terminalhelpers import decisions, table

    catan = gid.startswith("catan")
    ctl, term, out = table(gid, seed=3, players=4 if catan else None)
    seen_words: set[str] = set()
    count = 0
    for shown in decisions(ctl, term, out, 150 if catan else 60, seed=3):
        actions, common = split_actions(ctl.legal())
        for number, text in shown.numbered.items():
            assert term.resolve(str(number)) == (text, ""), (gid, number, text)
            assert term.resolve(text) == (text, ""), (gid, text)
        for example in shown.examples.values():
            assert term.resolve(example) == (example, ""), (gid, example)
        for verb, nodes in shown.places.items():
            for node in nodes:
                assert term.resolve(f"{verb} {node}") == (f"{verb} {node}", ""), (gid, verb, node)
        for word in shown.words:
            action, why = term.resolve(word)
            assert action in common and not why, (gid, word, action, why)
            assert action == {"draw": "offer draw"}.get(word, word) or action.startswith(word), (word, action)
        summed = set(shown.examples) | set(shown.places)
        listed = set(shown.numbered.values())
        assert {a for a in actions if a.split(" ")[0] not in summed} == listed, gid
        for text in actions[:: max(1, len(actions) // 50)]:    # a sample of the long lists, typed as text
            assert term.resolve(text) == (text, ""), (gid, text)
        seen_words |= {w for w in shown.words} | {a for a in actions if a in ("accept", "decline")}
        count += 1
    assert count >= 10
    if catan:   # the case of the report: the game's own accept/decline, typed as listed
        assert {"accept", "decline"} <= seen_words, seen_words


class _Stub:
    """A controller that lists what a test says (the draw's answers pending, or a game's own accept)."""

    game = engines.get("ploc")
    seat = 0
    names = ["you", "them"]

    def __init__(self, legal: list[str]):
        self._legal = legal

    def legal(self) -> list[str]:
        return self._legal

    def last_move(self):
        return None

    def describe(self, action: str) -> str:
        return action

    def why_not(self, action: str) -> str:
        return ""


@pytest.mark.parametrize("legal,typed,meant", [
    (["accept", "decline", "resign", "offer draw"], "accept", "accept"),      # Catan: answer a trade offer
    (["accept", "decline", "resign", "offer draw"], "decline", "decline"),
    (["accept", "decline", "resign", "offer draw"], "Decline", "decline"),
    (["accept", "decline", "resign", "offer draw"], "draw", "offer draw"),
    (["accept draw", "decline draw"], "accept", "accept draw"),              # a draw offered: the words answer it
    (["accept draw", "decline draw"], "decline", "decline draw"),
    (["accept draw", "decline draw"], "accept draw", "accept draw"),
    (["accept", "decline", "accept draw", "decline draw"], "accept draw", "accept draw"),
])
def test_a_game_action_of_the_same_word_wins_over_the_draw(legal: list[str], typed: str, meant: str) -> None:
    from client.moves import common_words
    from client.terminal import Lines, TerminalTable

    term = TerminalTable(_Stub(legal), Lines(io.StringIO("")), io.StringIO(), width=100)
    assert term.resolve(typed) == (meant, "")
    actions, common = split_actions(legal)
    shown = common_words(common, actions)
    assert not set(shown) & set(actions)                                # no listed word is a game action too
    assert all(term.resolve(word) == (action, "") for word, action in shown.items())

"""Issue 27 at the table: every seat's clock on a timed game with a warning before it runs out (item 2),
the own chat line where it was said and the keys given back after sending (item 4), an end screen
whose rematch agrees with the log (item 5), leaving mid-game with a confirmation that says what
leaving means, by a button or Esc, in the sandbox too (item 6), a resign confirmation that waits for
the player and a step with one possible action in one keypress (item 13). Driven by events, headless;
screenshots at 1024x600, 1280x720 and 1920x1080 in tests/artifacts/."""

from __future__ import annotations

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"

import contextlib
import random
import threading
from pathlib import Path

import pygame
import pytest
from support.clickplay import _button, _click, _play_one, drawn_texts, shots
from support.sessionhelpers import cli_host, processes

import engines
from bots.lib import RandomBot
from client.app import App
from client.controller import LocalController
from client.ending import RematchState, rematch_words
from client.netcontroller import NetController
from client.scenes.table import TableScene
from client.scenes.viewer import ViewerScene
from engines.core import COMMON_ACTIONS
from netplay.session import QueueDecider
from replays.local import record_match
from replays.stepping import Stepper

ARTIFACTS = Path(__file__).parent / "artifacts"


def _key(app: App, key: int, text: str = "") -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=text)], 16)


class _Base:
    """The scene under a table (the lobby, the viewer): leaving the table comes back to it."""

    def handle(self, event, app) -> None: ...

    def update(self, app, dt_ms: int) -> None: ...

    def draw(self, surface, app) -> None: ...


def _table(ctl, size=(1280, 720)) -> tuple[App, TableScene]:
    app = App(size)
    app.push(_Base())
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    return app, table


def _madagaskar(delay_ms: int = 10**9) -> LocalController:
    ctl = LocalController(engines.get("madagaskar"), 0, ["random"], players=2, seed=1, bot_delay_ms=delay_ms)
    ctl.poll(0)
    return ctl


# ---------------------------------------------------------------------------------------------- chat (item 4)

def test_own_chat_stays_where_it_was_said_and_the_keys_go_back_to_the_table():
    ctl = _madagaskar(delay_ms=0)
    app, table = _table(ctl)
    assert table.builder.candidates(), "the person is to move"
    _click(app, table.chat_input.rect.center)
    assert table.chat_input.focused
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="good luck")], 16)
    _key(app, pygame.K_RETURN, "\r")
    assert ctl.lines_with_chat[-1] == "chat you: good luck" and "chat you: good luck" not in ctl.log
    assert not table.chat_input.focused, "after sending, the chat box keeps the keyboard"
    before = len(ctl.log)
    _key(app, pygame.K_1, "1")   # a number chooses again: it is not typed into the chat box
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="1")], 16)
    assert table.chat_input.text == ""
    assert table.builder.tokens or len(ctl.log) > before, "key 1 chose nothing"
    table.builder.clear()
    # moves after the chat line: the person's (whole), then the bot's answer; they come below it, not above
    _play_one(app, table, random.Random(5), {"board": 0, "button": 0})
    for _ in range(50):
        app.step([], 100)
        if len(ctl.log) > before + 1:
            break
    assert len(ctl.log) > before + 1, "no move came after the chat line"
    texts = drawn_texts(app)
    assert "you: good luck" in texts, texts
    # the log panel's own lines, in order (the screen's texts also hold the panels drawn after the log): the
    # bot's move comes after the chat line, which is no longer pinned under every later move (issue 34, item 1)
    logged = [item.text for item in table.chronicle._items[1]]
    said = logged.index("you: good luck")
    assert said < len(logged) - 1, f"the chat line is pinned at the bottom: {logged[-4:]}"
    assert any(t.strip() and not t.startswith("you:") for t in logged[said + 1:]), logged[said:]
    app.screenshot(ARTIFACTS / "table-chat-among-moves.png")


class _Log:
    """What NetController reads of a session for its log: lines, where the current game's begin, a lock."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.log = ["seat 0: move 4 10", "seat 1: move 13 18"]
        self.game_log_start = 0
        self.transcript = None
        self.chat_lines: list[str] = []
        self.posted: list = []

    def post(self, call) -> None:
        self.posted.append(call)

    def chat(self, text: str) -> None:
        self.chat_lines.append(f"you: {text}")


def test_a_networked_tables_own_chat_line_is_shown_where_it_was_sent():
    session = _Log()
    ctl = NetController(session, QueueDecider(), thread=False)
    ctl.chat("well played")
    session.log += ["seat 0: move 1 2", "game over: seat 0 won", "chat Anna: thanks"]
    assert "chat you: well played" not in ctl.log   # a terminal prints its own line as it sends it
    assert ctl.lines_with_chat == ["seat 0: move 4 10", "seat 1: move 13 18", "chat you: well played",
                                   "seat 0: move 1 2", "game over: seat 0 won", "chat Anna: thanks"]
    ctl.chat("again?")
    session.game_log_start = 4   # a rematch: the earlier game's lines (and chat) are not this game's
    assert ctl.lines_with_chat == ["chat Anna: thanks", "chat you: again?"]


# ---------------------------------------------------------------------------------------------- leaving (item 6)

def test_esc_and_the_leave_button_ask_first_and_say_what_leaving_means():
    ctl = _madagaskar()
    app, table = _table(ctl)
    base = app.scenes[0]
    # a token chosen: Esc takes it back first
    _key(app, pygame.K_1, "1")
    if table.builder.tokens:
        _key(app, pygame.K_ESCAPE)
        assert table.builder.tokens == [] and table.confirm is None
    _key(app, pygame.K_ESCAPE)
    assert table.confirm == "leave"
    texts = drawn_texts(app)
    assert "Leave this table?" in texts and any("not recorded" in t for t in texts), texts
    shots(app, "table-leave")
    _key(app, pygame.K_1, "1")           # nothing reaches the table under the question
    assert table.builder.tokens == [] and table.confirm == "leave"
    _key(app, pygame.K_ESCAPE)           # Esc: stay
    assert table.confirm is None and app.scene is table
    _click(app, _button(table, "ask-leave").center)   # the top bar's button asks the same
    assert table.confirm == "leave"
    _click(app, next(b for b in table.confirm_buttons if b.key == "stay").rect.center)
    assert table.confirm is None and app.scene is table
    _key(app, pygame.K_ESCAPE)
    _click(app, next(b for b in table.confirm_buttons if b.key == "leave").rect.center)
    assert app.scene is base, "leaving did not leave"
    # Y answers the question too; and at the end of a game Esc leaves at once (nothing is lost)
    app, table = _table(_madagaskar())
    _key(app, pygame.K_ESCAPE)
    _key(app, pygame.K_y, "y")
    assert app.scene is app.scenes[0] and not isinstance(app.scene, TableScene)
    ctl = _madagaskar()
    ctl.submit("resign")
    app, table = _table(ctl)
    assert ctl.ending() is not None
    _key(app, pygame.K_ESCAPE)
    assert not isinstance(app.scene, TableScene)


def test_esc_leaves_the_sandbox_back_to_the_replay(home):
    record = record_match("ploc", RandomBot(), seed=4, directory=home / "replays")
    stepper = Stepper.load(record.path)
    stepper.jump("first")
    for _ in range(10):
        stepper.jump("next-move")
    app = App((1280, 720))
    viewer = ViewerScene(stepper)
    app.push(viewer)
    app.step([], 16)
    ok, why = viewer.can_fork()
    assert ok, why
    viewer.fork(app)
    sandbox = app.scene
    assert isinstance(sandbox, TableScene)
    app.step([], 16)
    _key(app, pygame.K_ESCAPE)
    while sandbox.builder.tokens:   # Esc first takes back what was chosen
        _key(app, pygame.K_ESCAPE)
    if sandbox.confirm is None:
        _key(app, pygame.K_ESCAPE)
    assert sandbox.confirm == "leave"
    assert any("not recorded" in t for t in drawn_texts(app))
    _key(app, pygame.K_y, "y")
    assert app.scene is viewer


def test_leaving_a_joined_game_says_the_others_may_claim_it(home):
    from netplay.identity import Identity
    from netplay.joiner import JoinSession

    with processes() as procs:
        host = cli_host(home, "madagaskar", "--bot", "random", "--bot-delay", "60", tag="host")
        procs.append(host)
        decider = QueueDecider()
        session = JoinSession(Identity.load(), decider, host.address(), replay_dir=home / "replays", fsync=False)
        ctl = NetController(session, decider)
        try:
            assert "not started" in ctl.leave_words() or ctl.started
            # (begun: the host's `synced` came; before it, leaving only cancels a game, netplay/protocol/waits.py)
            assert ctl.wait(lambda: ctl.started and session.phase == "play" and session.machine.started, 180), \
                ctl.status()
            words = ctl.leave_words()
            assert "forfeit" in words and "netplay join --resume" in words, words
            app, table = _table(ctl)
            _key(app, pygame.K_ESCAPE)
            assert table.confirm == "leave" and any("forfeit" in t for t in drawn_texts(app))
        finally:
            ctl.leave()
            ctl.join(10)


# ---------------------------------------------------------------------------------------------- resign, one key (13)

def test_the_resign_confirmation_waits_while_the_player_reads_it():
    ctl = LocalController(engines.get("loyal-captain"), 0, ["random"], bot_delay_ms=10**9)
    app, table = _table(ctl)
    resign = _button(table, "action:resign").center
    _click(app, resign)
    for _ in range(600):   # a minute of the app's time, nothing else happening
        app.step([], 100, lazy=True)
    app.step([], 16)
    assert "confirm resign" in [b.label for b in table.buttons], "the armed resign expired"
    assert "confirm resign" in table.notice
    _key(app, pygame.K_ESCAPE)   # Esc: keep playing
    assert "confirm resign" not in [b.label for b in table.buttons] and ctl.result() is None
    _click(app, resign)
    _click(app, resign)
    assert ctl.result() is not None and ctl.result().reason == "resign"
    app.step([], 16)
    # the game is over: no resign or draw buttons stay on the table, disabled or not
    assert not [b for b in table.buttons if b.key.startswith("action:")], [b.label for b in table.buttons]


def _until_single(ctl: LocalController, rng: random.Random, tokens: int) -> str:
    """Play on (the person's moves at random, the bots' own at once) until the person has exactly one
    possible action of `tokens` words (at least); that action. The bots wait from then on."""
    ctl.bot_delay_ms = 0
    for t in range(4000):
        ctl.poll(t * 1000)
        legal = [a for a in ctl.legal() if a not in COMMON_ACTIONS]
        if len(legal) == 1 and len(legal[0].split(" ")) >= tokens:
            ctl.bot_delay_ms = 10**9
            return legal[0]
        if legal:
            ctl.submit(rng.choice(legal))
        assert ctl.result() is None, "the game ended first"
    raise AssertionError("no such position")


@pytest.mark.parametrize("gid,tokens,key", [("catan", 1, pygame.K_RETURN), ("madagaskar", 2, pygame.K_1),
                                            ("madagaskar", 2, pygame.K_SPACE)])
def test_a_step_with_one_possible_action_is_one_keypress(gid: str, tokens: int, key: int):
    game = engines.get(gid)
    ctl = LocalController(game, 0, ["random"], players=game.players[0], seed=1, bot_delay_ms=10**9)
    only = _until_single(ctl, random.Random(1), tokens)
    app, table = _table(ctl)
    assert table._only_action() == only
    assert any("Enter plays it" in t for t in drawn_texts(app)), "the choices do not say that one key plays it"
    played = len([s for s in ctl.referee.steps if s.seat == 0])
    _key(app, key)
    steps = [s.value for s in ctl.referee.steps if s.seat == 0]
    assert len(steps) == played + 1 and steps[-1] == only, f"{only!r} took more than one keypress"


# ---------------------------------------------------------------------------------- networked: clocks, rematch

@contextlib.contextmanager
def _hosted(home: Path, game: str, bot_delay: float, **kwargs):
    """A host session here (seat 0, a person), a bot peer process at seat 1, the table's controller."""
    from netplay.botpeers import bot_peers
    from netplay.host import HostSession
    from netplay.identity import Identity

    decider = QueueDecider()
    session = HostSession(Identity.load(), decider, game, players=2, seat=0, bind="127.0.0.1", port=0,
                          replay_dir=home / "replays", fsync=False, **kwargs)
    ctl = NetController(session, decider)
    try:
        with bot_peers(session, "random", None, delay_s=bot_delay):
            assert ctl.wait(lambda: ctl.started and session.phase == "play" and bool(ctl.legal()), 180), ctl.status()
            yield session, ctl
    finally:
        ctl.leave()
        ctl.join(10)


def test_a_timed_table_shows_every_clock_and_warns_before_its_own_runs_out(home):
    with _hosted(home, "madagaskar", 60, clock=(19, 0)) as (session, ctl):
        app, table = _table(ctl)
        texts = drawn_texts(app)
        mine, theirs = session.names[0], session.names[1]
        assert any(t.startswith("0:1") for t in texts), f"the running clock is not shown: {texts}"
        assert "0:19" in texts, f"the other seat's clock (not running) is not shown: {texts}"
        assert any(t.startswith("hurry: 0:1") and "forfeit" in t for t in texts), texts
        assert any(mine[:8] in t for t in texts) and any(theirs[:8] in t for t in texts)
        assert any("clock 19 s + 0 s per move" in t for t in texts), "the terms are not said at the table"
        chips = table._chips()
        assert [c.running for c in chips] == [True, False] and chips[0].low and not chips[1].low
        shots(app, "table-clock")
        assert "nobody wins or loses" in ctl.leave_words()


def test_a_table_without_a_clock_shows_the_move_limit_alone(home):
    """No chess clock (chosen so: `--clock none`; the default is the game's clock) but the default limit on
    one decision: the seat to move shows that limit, no seat shows time left, and nothing hurries anyone
    yet."""
    with _hosted(home, "madagaskar", 60, clock=None) as (_, ctl):
        app, table = _table(ctl)
        chips = table._chips()
        assert [c.running for c in chips] == [True, False]
        assert all(c.left == "" for c in chips) and chips[0].limit.startswith("9:5") and chips[1].limit == ""
        assert not any(t.startswith("hurry") for t in drawn_texts(app))


def test_an_untimed_table_shows_no_clock(home):
    with _hosted(home, "madagaskar", 60, clock=None, move_limit=None) as (_, ctl):
        app, table = _table(ctl)
        assert table._chips() == ()
        assert not any(t.startswith("hurry") for t in drawn_texts(app))


def test_the_default_table_shows_the_games_own_clock(home):
    """Nothing chosen: the game's own clock (Madagaskar 20 min + 10 s), each seat's time left shown."""
    with _hosted(home, "madagaskar", 60) as (session, ctl):
        app, table = _table(ctl)
        assert session.terms.clock == (1_200_000, 10_000)
        chips = table._chips()
        assert [c.running for c in chips] == [True, False] and chips[1].left == "20:00", chips
        assert chips[0].left.startswith(("19:", "20:")) and not chips[0].low


def test_the_end_screen_tells_the_rematch_as_the_session_has_it(home):
    """The bot wants a rematch (the log says so): the end screen says so too and offers to accept; once
    the host's time for agreeing is over, it says why no rematch comes (never "they left")."""
    with _hosted(home, "madagaskar", 0, reveal_timeout=4) as (session, ctl):
        app, table = _table(ctl)
        ctl.submit("resign")
        assert ctl.wait(lambda: ctl.rematch_state().wanted_by, 120), (ctl.status(), ctl.log[-5:])
        bot = session.names[1]
        assert any(f"{bot} (seat 1) wants a rematch" in line for line in ctl.log), ctl.log[-5:]
        state = ctl.rematch_state()
        assert state.open and not state.asked and state.wanted_by == (bot,)
        texts = drawn_texts(app)      # (with the time left of the host's time for agreeing)
        assert any(re.fullmatch(rf"rematch offer open: 0:0\d left; {re.escape(bot)} wants a rematch", t)
                   for t in texts), texts
        rematch = next(b for b in table.buttons if b.key == "rematch")
        assert rematch.enabled and rematch.label == "accept rematch"
        shots(app, "table-end-rematch-wanted")
        assert ctl.wait(lambda: not ctl.rematch_state().open, 120), ctl.status()
        state = ctl.rematch_state()
        assert state.closed.startswith("the rematch offer expired after 4 s"), state
        texts = drawn_texts(app)
        assert any(t.startswith("the rematch offer expired after 4 s")
                   and f"({bot} wanted one)" in t for t in texts), texts
        assert not any("they left" in t for t in texts)
        rematch = next(b for b in table.buttons if b.key == "rematch")
        assert not rematch.enabled and rematch.label == "no rematch"
        shots(app, "table-end-no-rematch")


def test_rematch_words_never_contradict_the_state():
    assert rematch_words(RematchState(True)) == ("a rematch? nobody has asked yet", "rematch")
    assert rematch_words(RematchState(True, wanted_by=("Anna",))) == ("Anna wants a rematch", "accept rematch")
    assert rematch_words(RematchState(True, True, ("Anna", "Bert")))[0] == \
        "you and Anna and Bert want a rematch: waiting for the others"
    assert rematch_words(RematchState(False, closed="Anna left"), True) == ("no rematch: Anna left", "no rematch")
    line, caption = rematch_words(RematchState(False, wanted_by=("Anna",), closed="no rematch agreed within 9 s"))
    assert line == "no rematch agreed within 9 s (Anna wanted one)" and caption == "no rematch"


def test_clock_chips_show_each_seats_time_a_decisions_limit_and_when_it_runs_low():
    from client.ui import clocks
    from netplay.session import SeatClock

    assert [clocks.clock_text(s) for s in (0, 0.9, 59.99, 61, 3600, 3725.5)] == \
        ["0:00", "0:00", "0:59", "1:01", "1:00:00", "1:02:05"]
    names = ["Anna", "Bert\x1b[2J", ""]
    shown = clocks.chips([SeatClock(0, 125.0, False), SeatClock(1, 300.0, True, 8.5), SeatClock(2, 19.2, False)],
                         names)
    assert [(c.name, c.left, c.limit, c.running, c.low) for c in shown] == [
        ("Anna", "2:05", "", False, ""), ("Bert\\x1b[2J", "5:00", "0:08", True, "0:08"),
        ("seat 2", "0:19", "", False, "")]
    assert clocks.warning(shown, 1) == "hurry: 0:08 left to decide, or you lose by forfeit"
    assert clocks.warning(shown, 2) == "" and clocks.warning(shown, 0) == ""   # only a running clock warns
    low = clocks.chips([SeatClock(0, 12.7, True)], names)
    assert low[0].low == "0:12" and clocks.warning(low, 0).startswith("hurry: 0:12")
    assert clocks.chips([SeatClock(0, None, True), SeatClock(1, None, False)], names) == ()   # untimed
    limited = clocks.chips([SeatClock(0, None, False), SeatClock(1, None, True, 595.5)], names)  # a limit, no clock
    assert [(c.left, c.limit, c.low) for c in limited] == [("", "", ""), ("", "9:55", "")]
    assert clocks.terms_words("clock 60 s + 2 s per move, 30 s per move at most; away at most 120 s")[1]
    assert clocks.terms_words("10 min per move at most; automatic frames 0.5 s each")[1]
    assert not clocks.terms_words("untimed (a player who never moves holds the game); away at most 2 min")[1]
    assert not clocks.terms_words("protocol 2, reveal timeout 120 s, untimed")[1]
    assert clocks.terms_words("protocol 2, reveal timeout 120 s, clock 60 s + 2 s per move") == \
        ("TIMED: clock 60 s + 2 s per move, protocol 2, reveal timeout 120 s", True)



def test_more_choices_than_fit_turn_pages_and_every_one_can_be_clicked():
    """Catan's first settlement: 54 corners, more than the choices panel holds at 1024x600. The last
    place is "more (1 of N)", each page shows the next corners, every one is reachable, and a click on
    one of a later page takes it (before, the choices past the panel's room were simply not there)."""
    game = engines.get("catan")
    ctl = LocalController(game, 0, ["random"] * 2, players=3, seed=4, bot_delay_ms=10**9)
    ctl.poll(0)
    app, table = _table(ctl, size=(1024, 600))
    _click(app, _button(table, "token:settle").center)
    wanted = set(table.builder.candidates())
    assert len(wanted) == 54
    seen: set[str] = set()
    pages = 0
    for _ in range(len(wanted)):
        seen |= {b.key.removeprefix("token:") for b in table.buttons if b.key.startswith("token:")}
        more = _button(table, "more")
        if more is None or seen >= wanted:
            break
        pages += 1
        _click(app, more.center)
        if pages == 1:
            shots(app, "table-choice-pages")
    assert seen == wanted, f"corners never shown: {sorted(wanted - seen)}"
    assert pages >= 2, "54 corners should need several pages at 1024x600"
    late = next(b for b in table.buttons if b.key.startswith("token:"))
    _click(app, late.rect.center)
    mine = [s.value for s in ctl.referee.steps if s.seat == 0]
    assert mine == [f"settle {late.key.removeprefix('token:')}"], mine

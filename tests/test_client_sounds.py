"""Issue 34: the table's sounds. Each is synthesized by client/sounds.py (the same bytes every time,
never silent, never loud); under the dummy audio driver nothing is heard and no audio device is opened,
but every cue asked for is recorded, so these tests see what would have played, and when (the app's
own clock: every time here is simulated, none is the wall clock). The cues come from real games played
at a table (client/cues.py decides them, once per event): the dice and the person's turn in Catan, a
trade offer to the person, the barbarians in Cities & Knights, the last ten seconds of the person's
clock, the end; off (the setting, `--no-sound`) means none is even recorded."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import array
import random

import pygame
from click.testing import CliRunner
from support.catanhelpers import position

import bots
import engines
from client import settings
from client.app import App
from client.controller import LocalController
from client.cues import CueWatcher, TableState
from client.moves import split_actions
from client.scenes.lobby import LobbyScene
from client.scenes.table import TableScene
from client.sounds import AMPLITUDE, CLOCK_GAP_MS, GAP_MS, Cue, Format, Sounds, synthesize
from engines.core import COMMON_ACTIONS
from netplay.session import SeatClock

STEP_MS = 50
FORMATS = (Format(44100, -16, 2), Format(22050, 8, 1), Format(48000, -32, 2), Format(11025, 16, 1))


def _decoded(data: bytes, fmt: Format) -> list[float]:
    """The raw bytes back as samples in [-1, 1] (the first channel)."""
    bits, signed = abs(fmt.size), fmt.size < 0
    code = "f" if bits == 32 else {(8, True): "b", (8, False): "B", (16, True): "h", (16, False): "H"}[bits, signed]
    values = array.array(code)
    values.frombytes(data)
    if bits == 32:
        return list(values[::fmt.channels])
    top = (1 << (bits - 1)) - 1
    offset = 0 if signed else top + 1
    return [(v - offset) / top for v in values[::fmt.channels]]


def test_every_sound_is_synthesized_the_same_short_and_at_a_modest_level():
    for fmt in FORMATS:
        width = (abs(fmt.size) // 8) * fmt.channels
        for cue in Cue:
            random.seed(cue.value)      # the process's generator is not the one the dice noise comes from
            data = synthesize(cue, fmt)
            random.seed(12345)
            assert synthesize(cue, fmt) == data, f"{cue} in {fmt}: not the same bytes twice"
            assert data and len(data) % width == 0, (cue, fmt, len(data))
            seconds = len(data) / width / fmt.frequency
            assert 0.02 <= seconds <= 1.2, f"{cue}: {seconds:.2f} s is not a short cue"
            mono = _decoded(data, fmt)
            peak = max(abs(v) for v in mono)
            assert AMPLITUDE * 0.9 <= peak <= AMPLITUDE + 0.01, f"{cue} in {fmt}: peak {peak:.3f}"
            assert abs(mono[0]) < 0.05 and abs(mono[-1]) < 0.05, f"{cue}: a click at an end"
    assert len({synthesize(cue, FORMATS[0]) for cue in Cue}) == len(Cue), "two cues sound the same"


def test_under_the_dummy_driver_nothing_is_heard_but_every_cue_is_recorded():
    pygame.mixer.quit()
    sounds = Sounds()
    assert sounds.silent_driver()
    assert sounds.play(Cue.ROLL, 0) and sounds.play(Cue.END, 10)
    assert list(sounds.played) == [(Cue.ROLL, 0), (Cue.END, 10)]
    assert not pygame.mixer.get_init(), "the dummy driver opened the mixer"
    for at in range(0, 200 * CLOCK_GAP_MS, CLOCK_GAP_MS):
        sounds.play(Cue.CLOCK, at)
    assert len(sounds.played) == sounds.played.maxlen, "the record is bounded"


def test_turned_off_nothing_plays_nor_is_recorded():
    sounds = Sounds(enabled=False)
    assert not any(sounds.play(cue, 1000 * i) for i, cue in enumerate(Cue))
    assert not sounds.played


def test_each_cue_is_rate_limited_by_the_apps_clock():
    sounds = Sounds()
    times = {cue: [at for at in (0, 100, GAP_MS - 1, GAP_MS, GAP_MS + 50, 2 * GAP_MS + 10) if sounds.play(cue, at)]
             for cue in (Cue.ROLL, Cue.YOUR_TURN)}
    assert times == {Cue.ROLL: [0, GAP_MS, 2 * GAP_MS + 10], Cue.YOUR_TURN: [0, GAP_MS, 2 * GAP_MS + 10]}
    ticks = [at for at in range(0, 3000, 250) if sounds.play(Cue.CLOCK, at)]
    assert ticks == [0, 1000, 2000], "the clock ticks once a second at most"
    assert sounds.play(Cue.ROLL, 0), "another table's clock starts at 0 again: its first cue is not held back"


def _played(app: App, since: int) -> list[tuple[Cue, int]]:
    return list(app.sounds.played)[since:]


def test_a_catan_table_rolls_and_says_your_turn_once_each():
    """A four-seat game with three bots, the person at seat 0 playing the smart bot's choices as soon as
    it is their turn; every app step is 50 ms of the app's clock. A roll of the dice (any seat's) is one
    ROLL at the step it happened; the person's turn is one YOUR_TURN when the game waits on them after the
    bots played, never a second one for the steps of that same turn (the roll, the building after it)."""
    game = engines.get("catan")
    ctl = LocalController(game, 0, ["smart"], players=4, seed=3, bot_delay_ms=600)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    smart, rng = bots.make("catan", ["smart"], 1)[0], random.Random(3)
    dice = 0
    turns = rolls = offers = 0
    others_since_mine, was_mine = True, False
    seen_steps = 0
    for _ in range(4000):
        before = len(app.sounds.played)
        app.step([], STEP_MS)
        cues = [cue for cue, _ in _played(app, before)]
        steps = ctl.referee.steps
        new = steps[seen_steps:]
        seen_steps = len(steps)
        rolled = sum(1 for s in new if s.kind == "chance" and isinstance(s.value, tuple) and len(s.value) == 2)
        dice += rolled
        assert cues.count(Cue.ROLL) == min(1, rolled), (cues, new)
        if any(s.kind == "play" and s.seat != 0 for s in new):
            others_since_mine = True
        mine = bool(ctl.legal())
        began = mine and not was_mine and others_since_mine
        offered = ctl.view()["offer"] is not None and 0 in ctl.view()["pending"]
        assert cues.count(Cue.OFFER) <= (1 if offered else 0), (cues, new)
        # (an offer to answer chimes instead: not two sounds on top of each other)
        assert cues.count(Cue.YOUR_TURN) == (1 if began and Cue.OFFER not in cues else 0), (cues, mine, new)
        if mine:
            others_since_mine = False
        was_mine = mine
        turns += began
        rolls += cues.count(Cue.ROLL)
        offers += cues.count(Cue.OFFER)
        if mine and table.cover is None:
            state = ctl.referee.state_of(0)
            legal = [a for a in game.legal(state, 0) if a not in COMMON_ACTIONS]
            ctl.submit(smart.choose(game, state, 0, legal, rng))
        if dice >= 12 and turns >= 5:
            break
    assert dice >= 12 and turns >= 5, (dice, turns)
    assert rolls == dice
    print(f"{dice} rolls, {turns} turns, {offers} offers to the person")
    assert not any(cue is Cue.END for cue, _ in app.sounds.played)


def test_a_trade_offer_to_the_person_chimes_once():
    """Seat 1 offers seat 0 a trade (a real move, through the referee): one OFFER when it arrives (and no
    YOUR_TURN over it), none while it waits or for the answer, another for the next offer of the same turn;
    an offer to another seat says nothing."""
    state = position(players=4, active=1, s0=dict(hand="2brick+2ore"), s1=dict(hand="2wool+2grain"),
                     s2=dict(hand="1ore"), s3=dict(hand="1ore"))
    ctl = LocalController(engines.get("catan"), 0, ["smart"], players=4, seed=1, bot_delay_ms=10**9, start=state)
    app = App((1280, 720))
    app.push(TableScene(ctl))
    app.step([], STEP_MS)
    assert not app.sounds.played, "nothing happened yet"

    def steps(move=None) -> list[Cue]:
        if move is not None:
            move()
        before = len(app.sounds.played)
        for _ in range(20):
            app.step([], STEP_MS)
        return [cue for cue, _ in _played(app, before)]

    assert steps(lambda: ctl.referee.submit(1, "offer 1wool for 1brick to 0")) == [Cue.OFFER]
    assert steps(lambda: ctl.submit("decline")) == [], "the answer is no new offer"
    assert steps(lambda: ctl.referee.submit(1, "offer 1grain for 1ore to 0")) == [Cue.OFFER], "the turn's second"
    assert steps(lambda: ctl.submit("decline")) == []
    assert steps(lambda: ctl.referee.submit(1, "offer 1grain for 1ore to 2")) == [], "an offer to another seat"


def test_the_barbarians_sound_once_when_they_attack():
    """The seeded C&K game of tests/test_client_catan_ck.py, driven to its first attack."""
    ctl = LocalController(engines.get("catan-ck"), 0, ["smart"] * 3, players=4, seed=4, bot_delay_ms=0)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    app.step([], 16)
    rng = random.Random(4)
    attacked_at = None
    for _ in range(6000):
        legal = [a for a in ctl.legal() if a not in COMMON_ACTIONS]
        if legal:
            ctl.submit(rng.choice(legal))
        before = len(app.sounds.played)
        app.step([], STEP_MS)
        cues = [cue for cue, _ in _played(app, before)]
        chron = table.live.chronicle
        attacks = sum(1 for e in chron.entries if e.kind == "alarm") if chron is not None else 0
        assert cues.count(Cue.BARBARIANS) == (1 if attacks and attacked_at is None else 0), (cues, attacks)
        if attacks:
            attacked_at = table.now_ms
            break
    assert attacked_at is not None, "no barbarian attack in the seeded game"
    for _ in range(20):
        app.step([], STEP_MS)
    assert [c for c, _ in app.sounds.played].count(Cue.BARBARIANS) == 1


class _TimedController(LocalController):
    """A table whose person's move clock runs down by the app's simulated time, from 14 s (the session's
    SeatClock, as a network table has it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.elapsed_ms = 0

    def poll(self, now_ms: int) -> None:
        self.elapsed_ms = now_ms
        super().poll(now_ms)

    def clocks(self) -> list[SeatClock]:
        return [SeatClock(0, max(0.0, 14 - self.elapsed_ms / 1000), True), SeatClock(1, 300.0, False)]


def test_the_persons_clock_ticks_each_of_its_last_ten_seconds():
    ctl = _TimedController(engines.get("madagaskar"), 0, ["random"], players=2, seed=4, bot_delay_ms=10**9)
    app = App((1280, 720))
    app.push(TableScene(ctl))
    for _ in range(round(16_000 / STEP_MS)):
        app.step([], STEP_MS)
    # 9.95 s left at 4050 ms: the first tick; then one at each whole second down to 0, and none after 0
    ticks = [at for cue, at in app.sounds.played if cue is Cue.CLOCK]
    assert ticks == [4000 + STEP_MS + 1000 * k for k in range(10)], ticks


def test_the_end_sounds_once_and_a_table_opened_on_an_ended_game_plays_none():
    game = engines.get("madagaskar")
    ctl = LocalController(game, 0, ["random"], players=2, seed=4, bot_delay_ms=0)
    app = App((1280, 720))
    app.push(TableScene(ctl))
    rng = random.Random(4)
    for _ in range(20_000):
        app.step([], STEP_MS)
        if ctl.result() is not None:
            break
        legal = split_actions(ctl.legal())[0]
        if legal:
            ctl.submit(rng.choice(legal))
    assert ctl.result() is not None
    for _ in range(10):
        app.step([], STEP_MS)
    assert [c for c, _ in app.sounds.played].count(Cue.END) == 1
    again = App((1280, 720))
    again.push(TableScene(ctl))
    for _ in range(10):
        again.step([], STEP_MS)
    assert Cue.END not in [c for c, _ in again.sounds.played], "the end of a game over before the table opened"


def test_the_setting_off_plays_nothing_at_a_table():
    ctl = LocalController(engines.get("catan"), 0, ["smart"], players=4, seed=3, bot_delay_ms=0)
    app = App((1280, 720), sound=False)
    table = TableScene(ctl)
    app.push(table)
    for _ in range(200):
        app.step([], STEP_MS)
        if ctl.legal():
            ctl.submit(split_actions(ctl.legal())[0][0])
    assert table.live.chronicle is not None and table.live.chronicle.rolls, "the game went on"
    assert not app.sounds.played


def test_the_watcher_tells_each_event_once():
    """client/cues.py alone: the same state twice is no news; the past of a chronicle seen first is none."""
    watcher = CueWatcher()
    assert watcher.update(TableState(0, False, story=1, rolls=5)) == []
    assert watcher.update(TableState(0, True, story=1, rolls=5)) == [Cue.YOUR_TURN]
    assert watcher.update(TableState(0, True, story=1, rolls=6)) == [Cue.ROLL]
    assert watcher.update(TableState(0, True, story=1, rolls=6)) == []
    assert watcher.update(TableState(0, False, story=1, rolls=6)) == []
    assert watcher.update(TableState(0, True, story=1, rolls=6)) == [], "no other seat played: the same turn"
    assert watcher.update(TableState(0, True, story=2, rolls=9, offer="a")) == [Cue.OFFER], "a rematch's past"
    assert watcher.update(TableState(0, True, story=2, rolls=9, offer="a", clock_s=9.5)) == [Cue.CLOCK]
    assert watcher.update(TableState(0, True, story=2, rolls=9, offer="a", clock_s=9.1)) == []
    assert watcher.update(TableState(0, True, story=2, rolls=9, clock_s=8.9, ended=True)) == [Cue.CLOCK, Cue.END]
    assert watcher.update(TableState(0, False, story=2, rolls=9, ended=True)) == []


def test_the_lobby_turns_the_sounds_off_for_good_and_the_flag_for_one_run(home, monkeypatch):
    app = App((1280, 720))
    lobby = LobbyScene(home / "replays", browse=False)
    app.push(lobby)
    app.step([], 16)
    button = next(b for b in lobby.buttons if b.key == "sound:")
    assert button.label == "sound: on"
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1)], 16)
    assert not app.sounds.enabled and settings.Preferences.load() == settings.Preferences(sound=False)
    assert next(b for b in lobby.buttons if b.key == "sound:").label == "sound: off"
    lobby.close()
    settings.Preferences(sound=True).save()
    opened: list[bool] = []

    class _App(App):
        def __init__(self, *args, sound: bool = True, **kwargs):
            opened.append(sound)
            raise SystemExit(0)

    monkeypatch.setattr("client.app.App", _App)
    from client.cli import main

    runner = CliRunner()
    assert "--no-sound" in runner.invoke(main, ["lobby", "--help"]).output
    runner.invoke(main, ["lobby", "--no-browse", "--no-sound"])
    runner.invoke(main, ["lobby", "--no-browse"])
    assert opened == [False, True]

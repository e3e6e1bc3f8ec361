"""The sandbox ("play from here") from any position of every game (issue 27, item 1).

A base Catan sandbox used to crash as soon as a development card was bought: the driver rebuilt the
position without the deck's history and dealt from a full deck the engine knew was not. The property:
from positions spread over a seeded replay of each of the nine games (and every position right
after a deal), (a) the replay's own continuation, fed to the sandbox's referee, reproduces the
replay's signed digests exactly (every deal is among the cards the sandbox thinks are left), and (b) bots play
every seat from there to the end without an error, every seat's knowledge checked at every step.
"""

from __future__ import annotations

import pytest
from support import quick

import bots
import engines
from bots.selfplay import play_match
from engines.core import HIDDEN
from engines.referee import Referee
from replays.local import record_match, replay_bytes
from replays.reader import parse_replay
from replays.sandbox import fork_at, why_not
from replays.stepping import Stepper

GAMES = sorted(engines.GAMES)
SPREAD = 8        # positions spread evenly over each replay
AFTER_DEALS = 4    # and at most this many positions right after a card was dealt
WINDOW = 80        # moves replayed from each position at least


def players_of(gid: str) -> int:
    return 3 if gid.startswith("catan") else engines.get(gid).players[0]


_REPLAYS: dict[str, bytes] = {}
_STEPPERS: dict[str, Stepper] = {}


def replay_bytes_of(gid: str) -> bytes:
    """A seeded smart-bot game of `gid` (recorded once per test run)."""
    if gid not in _REPLAYS:
        n = players_of(gid)
        options = quick.options(gid)  # random bots end too
        record = record_match(gid, bots.make(gid, ["smart"], n), seed=5, players=n, options=options, write=False,
                              reproducible=True)
        _REPLAYS[gid] = replay_bytes(record)
    return _REPLAYS[gid]


def stepper_of(gid: str) -> Stepper:
    if gid not in _STEPPERS:
        _STEPPERS[gid] = Stepper(parse_replay(replay_bytes_of(gid)))
    return _STEPPERS[gid]


def positions(st: Stepper) -> list[int]:
    spread = {-1, *range(0, st.count, max(1, st.count // SPREAD))}
    deals = sorted({e.at for e in st.events if e.chance is not None and e.chance.kind == "deal"})
    step = max(1, len(deals) // AFTER_DEALS)
    return sorted(p for p in spread | set(deals[::step][:AFTER_DEALS]) if not why_not(st, p))


def _referee(st: Stepper, position: int, seed: int) -> Referee:
    fork = fork_at(st, position)
    return Referee.from_state(st.game, fork.state, fork.players, seed, dealt=fork.dealt, knowing=fork.knowing)


@pytest.mark.parametrize("gid", GAMES)
def test_the_replays_own_continuation_replays_exactly_from_any_position(gid):
    """Fed the replay's own next moves (past two more deals, or at least WINDOW of them), the sandbox's
    referee reaches the digest the replay signed there."""
    st = stepper_of(gid)
    checked = 0
    for position in positions(st):
        referee = _referee(st, position, seed=position)
        rest = st.events[st.moves_done(position):]
        deals = 0
        for i, event in enumerate(rest):
            value = event.full if event.full is not None else event.value
            assert value is not HIDDEN, (gid, position, event)
            if event.kind == "chance":
                referee.feed_chance(value)  # a deal outside the cards the sandbox holds is refused here
                deals += event.chance.kind == "deal"
            else:
                referee.submit(event.seat, value)
            last = i + 1 == len(rest) or rest[i + 1].at != event.at  # a frame's events all applied
            if last and (i + 1 == len(rest) or (i >= WINDOW and deals >= 2)):
                assert st.game.digest(referee.state) == st.frames[event.at].digest, (gid, position, event.at)
                break
        checked += 1
    assert checked >= 5, f"{gid}: only {checked} positions to fork from"


@pytest.mark.parametrize("gid", GAMES)
def test_bots_play_every_seat_to_the_end_from_any_position(gid):
    st = stepper_of(gid)
    n = players_of(gid)
    for position in positions(st):
        record = play_match(st.game, bots.make(gid, ["random"], n), position, n, table=_referee(st, position, position),
                            max_steps=20_000)
        assert record.result is not None, (gid, position)


def test_a_position_rebuilt_without_its_deals_is_refused_at_once():
    """The old bug's shape: the deck's history left out. The referee says so when it is built (the
    deal awaited now) or at the deal (later), in words that name the deck, never with a wrong card."""
    st = stepper_of("catan")
    deal = next(e for e in st.events if e.chance is not None and e.chance.kind == "deal" and e.chance.n < 25)
    fork = fork_at(st, deal.at - 1)
    assert fork.cards_dealt == 25 - deal.chance.n
    with pytest.raises(ValueError, match="development"):
        referee = Referee.from_state(st.game, fork.state, fork.players, 1, knowing=fork.knowing)
        referee.feed_chance()


def test_the_sandbox_keeps_each_seats_secrets():
    st = stepper_of("catan")
    position = max(e.at for e in st.events if e.chance is not None and e.chance.kind == "deal")
    fork = fork_at(st, position)
    holder = next(e.seat for e in st.events if e.at == position and e.chance is not None)
    other = (holder + 1) % fork.players
    game = st.game
    assert "cards" in game.view(fork.knowing[holder], holder)["dev"][holder]
    assert "cards" not in game.view(fork.knowing[other], other)["dev"][holder]


def test_no_fork_where_the_game_is_over():
    st = stepper_of("loyal-captain")
    assert why_not(st, st.count - 1) == "the game is over at this position"
    with pytest.raises(ValueError, match="over"):
        fork_at(st, st.count - 1)


# ---------------------------------------------------------------------------------- netplay replay fork

@pytest.fixture(scope="module")
def catan_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("fork") / "catan.npr"
    path.write_bytes(replay_bytes_of("catan"))
    return path


@pytest.fixture(scope="module")
def short_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("fork") / "loyal-captain.npr"
    path.write_bytes(replay_bytes_of("loyal-captain"))
    return path


def _fork(*args: str, stdin: str | None = None, env: dict | None = None):
    from click.testing import CliRunner

    from client.cli import main

    return CliRunner().invoke(main, ["replay", "fork", *args], input=stdin, env=env)


def test_fork_watch_plays_every_seat_to_the_end_and_exits_0(catan_file):
    st = Stepper.load(catan_file)
    before_deal = next(e.at for e in st.events if e.chance is not None and e.chance.kind == "deal" and e.chance.n < 24)
    out = _fork(str(catan_file), "--frame", str(before_deal), "--watch", "--bot", "random")
    assert out.exit_code == 0, out.output
    assert f"from frame {before_deal}" in out.output and "result: " in out.output


def test_fork_without_a_display_opens_the_terminal(catan_file):
    out = _fork(str(catan_file), "--frame", "300", stdin="quit\n",
                env={"DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "dummy"})
    assert out.exit_code == 0, out.output
    assert "no display found, so in the terminal" in out.output and "you are seat" in out.output


def test_fork_says_why_not(short_file):
    st = Stepper.load(short_file)
    out = _fork(str(short_file), "--frame", str(st.count), "--watch")
    assert out.exit_code == 1 and "the game is over at this position" in out.output
    out = _fork(str(short_file), "--frame", str(st.count + 5), "--watch")
    assert out.exit_code == 2 and "frames 1.." in out.output
    out = _fork(str(short_file), "--frame", "3", "--seat", "7")
    assert out.exit_code == 2 and "seats 0..1" in out.output
    out = _fork(str(short_file), "--frame", "3", "--bot", "genius")
    assert out.exit_code == 2 and "no bot 'genius'" in out.output

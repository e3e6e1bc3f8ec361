"""The tutorials' coach (client/tutorial/), without a window: the lessons due at real positions of the
seeded tutorial games, the order a reader meets them in, each told once, a step lesson gone once its
step is past, a hidden coach telling nothing, and the costs the Catan coach names being the engine's."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engines
from client.controller import LocalController
from client.tutorial import catan
from client.tutorial.catalogue import TUTORIALS, tutorial
from client.tutorial.coach import Coach
from client.tutorial.lesson import Kind, Moment
from engines.core import COMMON_ACTIONS

RESOURCES = ("brick", "lumber", "wool", "grain", "ore")


def moments(key: str, limit: int = 400) -> Iterator[Moment]:
    """The person's moments in the tutorial game `key` (its game, seed and bots), after every change,
    with the smart bot playing the person's seat as well."""
    t = tutorial(key)
    ctl = LocalController(engines.get(t.game), 0, [t.bot], players=t.players, options=dict(t.options), seed=t.seed,
                          bot_delay_ms=0)
    rng = random.Random(t.seed)
    for now in range(1, limit + 1):
        ctl.poll(now)
        legal = tuple(a for a in ctl.legal() if a not in COMMON_ACTIONS)
        yield Moment(ctl.view(), legal, 0)
        if ctl.result() is not None:
            return
        if legal:
            state = ctl.referee.state_of(0)
            ctl.submit(ctl.bots[0].choose(ctl.game, state, 0, ctl.game.legal(state, 0), rng))


def first(key: str, want, limit: int = 400) -> Moment:
    found = next((m for m in moments(key, limit) if want(m)), None)
    assert found is not None, f"no such moment in the first {limit} of {key}"
    return found


def due(m: Moment, key: str = "catan") -> set[str]:
    return {lesson.key for lesson in tutorial(key).syllabus.due(m)}


def read_through(key: str, lessons: int, limit: int = 400) -> list[str]:
    """The lessons in the order a reader meets them who reads every one at once ("got it")."""
    coach = Coach(tutorial(key).syllabus)
    told: list[str] = []
    for moment in moments(key, limit):
        coach.observe(moment)
        while coach.lesson is not None:
            told.append(coach.lesson.key)
            coach.got_it()
        if len(told) >= lessons:
            break
    return told


def test_the_catan_setup_lessons_at_real_positions() -> None:
    start = first("catan", lambda m: m.mine)
    assert {"welcome", "settle-first"} <= due(start) and not due(start) & {"numbers", "road-first", "roll"}
    road = first("catan", lambda m: catan.at(m, "setup-road"))
    assert "road-first" in due(road) and "settle-first" not in due(road)
    second = first("catan", lambda m: catan.at(m, "setup-settle") and catan.buildings(m) == 1)
    assert "numbers" in due(second) and "settle-first" not in due(second)


def test_the_catan_turn_lessons_at_real_positions() -> None:
    roll = first("catan", lambda m: catan.at(m, "pre-roll"))
    assert "roll" in due(roll) and "build" not in due(roll)
    main = first("catan", lambda m: catan.at(m, "main"))
    assert catan.rolled(main) != 7 and {"collect", "build"} <= due(main) and "seven" not in due(main)
    seven = first("catan", lambda m: catan.rolled(m) == 7)
    assert "seven" in due(seven) and "collect" not in due(seven)
    robber = first("catan", lambda m: catan.at(m, "robber"))
    assert "robber" in due(robber) and "roll" not in due(robber)


def test_a_reader_meets_the_catan_lessons_in_the_games_order_each_once() -> None:
    told = read_through("catan", 9)
    assert told[:9] == ["welcome", "settle-first", "road-first", "numbers", "roll", "collect", "build", "offer",
                        "respond"], told
    assert len(told) == len(set(told))


@pytest.mark.parametrize("key, expected", [
    ("catan-ck", ["welcome", "setup-city", "roll", "commodities"]),
    ("kidd", ["welcome", "enter", "step"]),
    ("ebbe-flut", ["welcome", "opening", "place", "turn"]),
    ("ploc", ["welcome", "reroll", "actions"]),
    ("turning-tides", ["welcome", "pick", "sailor"]),
])
def test_each_family_starts_with_its_welcome_and_first_steps(key: str, expected: list[str]) -> None:
    told = read_through(key, len(expected))
    assert told[:len(expected)] == expected, told
    assert set(told) <= set(tutorial(key).syllabus.keys)


def test_a_step_lesson_goes_once_its_step_is_past_and_a_note_stays() -> None:
    coach = Coach(catan.SYLLABUS)
    coach.observe(first("catan", lambda m: m.mine))
    assert coach.lesson.key == "welcome" and [lesson.key for lesson in coach.queue] == ["welcome", "settle-first"]
    coach.next()
    assert coach.page == 1 and coach.lesson.key == "welcome"      # two pages: "next" turns the page
    coach.observe(first("catan", lambda m: catan.at(m, "setup-road")))   # the person placed without reading
    assert [lesson.key for lesson in coach.queue] == ["welcome", "road-first"] and coach.page == 1
    coach.next()                                                     # the welcome's last page: done
    assert coach.lesson.key == "road-first" and coach.page == 0
    assert "settle-first" not in coach.told                          # never shown: it may come again


def test_a_lesson_once_shown_never_comes_again() -> None:
    coach = Coach(catan.SYLLABUS)
    start = first("catan", lambda m: m.mine)
    coach.observe(start)
    coach.got_it()
    assert coach.lesson.key == "settle-first"
    coach.got_it()
    coach.observe(start)          # the same position again: everything due there was told
    assert coach.lesson is None and coach.told == {"welcome", "settle-first"}


def test_a_hidden_coach_tells_nothing_until_shown() -> None:
    coach = Coach(catan.SYLLABUS)
    coach.hide()
    coach.observe(first("catan", lambda m: m.mine))
    assert coach.lesson is None and coach.told == set() and not coach.holding
    coach.show()
    assert coach.lesson.key == "welcome" and coach.holding and coach.told == {"welcome"}


def test_the_building_costs_the_coach_names_are_the_engines() -> None:
    rules = engines.get("catan").rules
    text = " ".join(catan.BUILD.pages)
    for cost in (rules.cost_road, rules.cost_settlement, rules.cost_city, rules.cost_dev):
        for resource, n in zip(RESOURCES, cost, strict=False):
            if n:
                assert f"{n} {resource}" in text, (resource, n)
    assert engines.get("catan").rules.win_vp == 10 and engines.get("catan-ck").rules.win_vp == 13


def test_every_tutorial_is_a_game_with_its_syllabus() -> None:
    for t in TUTORIALS:
        game = engines.get(t.game)
        assert t.players in game.players and set(t.options) <= set(game.options)
        keys = t.syllabus.keys
        assert keys[0] == "welcome" and len(keys) == len(set(keys))
        assert all(lesson.pages for lesson in (t.syllabus.lesson(k) for k in keys))
        assert any(t.syllabus.lesson(k).kind is Kind.STEP for k in keys)

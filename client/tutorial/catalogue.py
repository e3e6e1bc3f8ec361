"""The tutorials the lobby lists: one guided first game of Catan and a short one per other family, each a
real local game against bots on a fixed seed (the same game every time, so the coach's words and the
board agree), with the family's syllabus."""

from __future__ import annotations

from dataclasses import dataclass, field

from client.tutorial import catan, catan_ck, ebbeflut, kidd, ploc, tides
from client.tutorial.lesson import Syllabus

BOT_DELAY_MS = 1500    # a bot waits this long before each move: slow enough to follow on the board


@dataclass(frozen=True, slots=True)
class Tutorial:
    key: str
    title: str
    about: str            # one line in the list: what it teaches
    game: str             # the engine's game id
    players: int
    syllabus: Syllabus
    seed: int = 1
    options: dict = field(default_factory=dict)
    bot: str = "smart"
    bot_delay_ms: int = BOT_DELAY_MS


TUTORIALS: tuple[Tutorial, ...] = (
    Tutorial("catan", "Catan: your first game",
             "the whole game step by step: setting up, numbers, rolling, building, trading, the robber, cards, "
             "winning", "catan", 4, catan.SYLLABUS, seed=3),
    Tutorial("catan-ck", "Cities & Knights: what it adds",
             "commodities, city improvements, knights and the barbarians, for players who know Catan",
             "catan-ck", 3, catan_ck.SYLLABUS, seed=3),
    Tutorial("kidd", "Capt'n W. Kidd: Loyal Captain",
             "entering, stepping forward and enclosing, in the simplest of the three Kidd games",
             "loyal-captain", 2, kidd.SYLLABUS, seed=3),
    Tutorial("ebbe-flut", "Ebbe & Flut", "drawing, placing, conflicts and pushes, scoring in your goal",
             "ebbe-flut", 2, ebbeflut.SYLLABUS, seed=3),
    Tutorial("ploc", "Ploc", "your column, rerolls, and pairing the free dice with your team dice",
             "ploc", 2, ploc.SYLLABUS, seed=3),
    Tutorial("turning-tides", "Turning Tides (introductory game)",
             "secret picks, the Hierarchy, and what each card does on your ship", "turning-tides", 2,
             tides.SYLLABUS, seed=3, options={"intro": True}),
)


def tutorial(key: str) -> Tutorial:
    return next(t for t in TUTORIALS if t.key == key)

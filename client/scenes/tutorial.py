"""The tutorials, from the lobby's "tutorial" button: the list (client/tutorial/catalogue.py), and a
tutorial's table: a real local game against slow bots on a fixed seed, with the coach's box in the side
panel, under the choices, never over the board or the buttons it asks the person to click.

The coach (client/tutorial/coach.py) is told the person's moment after every change of the game and
picks what to say; this scene only shows it, outlines what the lesson points at (the board, whose legal
spots the renderer already lights, or the choice buttons) and holds the bots while a note is open, so
that nothing runs away while the person reads. "next"/"got it" and "hide coach" are the coach's buttons;
the table's own "leave (Esc)" ends the tutorial, back to the lobby."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

import engines
from client.controller import LocalController
from client.scenes.table import TableScene
from client.tutorial.catalogue import TUTORIALS, Tutorial
from client.tutorial.coach import Coach
from client.tutorial.lesson import Moment, Point
from client.ui import textfit, theme
from client.ui.widgets import Button, draw_text, fit, panel, wrap
from engines.core import COMMON_ACTIONS


@dataclass
class TutorialController(LocalController):
    """A local game whose bots can be held while the coach's note is read."""

    paused: bool = False

    def poll(self, now_ms: int) -> None:
        if not self.paused:
            LocalController.poll(self, now_ms)

    def leave_words(self) -> str:
        return ("This tutorial game is played in this window only and is not recorded: leaving ends it, back to "
                "the lobby.")


def controller(tutorial: Tutorial) -> TutorialController:
    """The tutorial's game: the person at seat 0 (who acts first in every game here), bots at the others."""
    ctl = TutorialController(engines.get(tutorial.game), 0, [tutorial.bot], players=tutorial.players,
                             options=dict(tutorial.options), seed=tutorial.seed, bot_delay_ms=tutorial.bot_delay_ms)
    ctl.intro = f"Tutorial: {tutorial.title}. Nothing is recorded; the bots take their time."
    ctl.log.append(ctl.intro)
    return ctl


def _line(size: int) -> int:
    """The height of a line of the coach's text at `size`, as the font draws it (12 px at least)."""
    return theme.font(size).get_linesize()


@dataclass(slots=True)
class CoachLayout:
    """The coach's box laid out for a width: its font size and its lines."""

    px: int
    title: str
    lines: list[str]
    height: int
    part: int = 0       # a page longer than the room: which of its parts is shown ("more" turns them)
    parts: int = 1


class TutorialTable(TableScene):
    """The table of a tutorial game, with the coach's box."""

    MIN_PX = 11

    def __init__(self, tutorial: Tutorial, on_leave=None):
        game = controller(tutorial)
        super().__init__(game, f"Tutorial: {tutorial.title}", on_leave=on_leave)  # type: ignore[arg-type]
        self.local = game     # (the table's `ctl`, with its own type: the bots' pause)
        self.tutorial = tutorial
        self.coach = Coach(tutorial.syllabus)
        self._seen: tuple | None = None     # what the coach was last told (the log's length, the choices)
        self._layout: tuple[tuple, CoachLayout] | None = None
        self._room = 0      # the room the side panel had for the coach in the picture being drawn
        self._part: tuple[tuple, int] = ((), 0)   # (the lesson's key and page, the part of that page shown)

    # ------------------------------------------------------------------ the coach's moment
    def moment(self) -> Moment:
        legal = tuple(a for a in (self.legal_key or ()) if a not in COMMON_ACTIONS)
        return Moment(self.local.view(), legal, self.local.seat)

    def update(self, app, dt_ms: int) -> None:
        super().update(app, dt_ms)
        seen = (len(self.ctl.log), self.legal_key)
        if seen != self._seen:     # (a view is not free: the coach looks again only when the game moved)
            self._seen = seen
            self.coach.observe(self.moment())
        self.local.paused = self.coach.holding and self.local.result() is None

    def frame_key(self, app) -> tuple:
        coach = self.coach
        lesson = coach.lesson
        return (*super().frame_key(app), lesson.key if lesson else None, coach.page, coach.hidden, coach.waiting)

    def _button(self, key: str, app) -> None:
        kind, _, value = key.partition(":")
        if kind != "coach":
            super()._button(key, app)
        elif value == "more":
            self._part = (self._part[0], self._part[1] + 1)
        elif value == "next":
            self.coach.next()
        elif value == "hide":
            self.coach.hide()
        elif value == "show":
            self.coach.show()
        self.local.paused = self.coach.holding and self.local.result() is None

    # ------------------------------------------------------------------ the coach's box
    def _laid_out(self, width: int, px: int, room: int) -> CoachLayout | None:
        coach = self.coach
        lesson = coach.lesson
        if lesson is None:
            return None
        holding = coach.holding and not self.builder.legal    # (said only while the game waits on a bot)
        if self._part[0] != (lesson.key, coach.page):
            self._part = ((lesson.key, coach.page), 0)
        key = (lesson.key, coach.page, width, px, room, coach.waiting, holding, self._part[1])
        if self._layout is not None and self._layout[0] == key:
            return self._layout[1]

        def frame(size: int) -> int:   # the box's height but for the page's lines
            line = _line(size)
            return 10 + line + 6 + 8 + line + 6 + (line + 3 if holding else 0) + 10

        floor = max(self.MIN_PX, theme.min_size())   # (12 px text: a size under it draws no smaller)
        size = max(floor, px - 2)
        while True:    # the page at the largest size that leaves the box within the room
            lines = wrap(coach.text, size, width - 24)
            if frame(size) + len(lines) * (_line(size) + 1) <= room or size <= floor:
                break
            size -= 1
        pitch = _line(size) + 1
        # a page too long even so (12 px text at 1024x600 under a full choices pane): in parts, whole lines
        # each, that "more" turns before "next" (it used to shrink to a size 7 px high)
        per = max(1, (room - frame(size)) // pitch)
        parts = -(-len(lines) // per)
        part = min(self._part[1], parts - 1)
        shown = lines[part * per:(part + 1) * per]
        laid = CoachLayout(size, self._title_text(lesson.title, size, width - 24), shown,
                           frame(size) + len(shown) * pitch, part, parts)
        self._layout = (key, laid)
        return laid

    def _title_text(self, title: str, size: int, width: int) -> str:
        more = f"  ({self.coach.waiting} more)" if self.coach.waiting else ""
        return fit(f"coach: {title}{more}", size, width, bold=True)

    def aside_height(self, width: int, px: int, room: int) -> int:
        if self.ctl.ending() is not None:
            return 0
        self._room = room
        if self.coach.hidden:
            return min(room, px + 12)
        laid = self._laid_out(width, px, room)
        if laid is None:
            return 0
        if room - laid.height - 6 < 3 * px + 24:   # no room left for a useful log: the coach takes it all
            return room
        return laid.height

    def draw_aside(self, surface: pygame.Surface, rect: pygame.Rect, px: int) -> None:
        if self.coach.hidden:
            waiting = len(self.coach.queue)
            caption = f"show coach ({waiting} to read)" if waiting else "show coach"
            self.buttons.append(Button(pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, px + 8)), caption,
                                       "coach:show"))
            return
        laid = self._laid_out(rect.w, px, self._room)   # (as measured for the height: the page never changes size)
        lesson = self.coach.lesson
        if laid is None or lesson is None:
            return
        self._point(surface, lesson.point, rect)
        pygame.draw.rect(surface, theme.PANEL, rect, border_radius=8)
        pygame.draw.rect(surface, theme.ACCENT, rect, width=2, border_radius=8)
        textfit.box(rect, "panel")
        size = laid.px
        x, y = rect.x + 12, rect.y + 10
        draw_text(surface, laid.title, (x, y), size, theme.ACCENT, bold=True)
        y += _line(size) + 6
        for line in laid.lines:
            draw_text(surface, line, (x, y), size, theme.TEXT)
            y += _line(size) + 1
        pages = len(lesson.pages)
        row = pygame.Rect(x, y + 8, rect.w - 24, _line(size) + 6)
        bw = (row.w - 8) // 2
        last = self.coach.last_page
        caption = "got it" if last else f"next ({self.coach.page + 1} of {pages})"
        key = "coach:next"
        if laid.part < laid.parts - 1:
            caption, key = f"more ({laid.part + 1} of {laid.parts})", "coach:more"
        self.buttons.append(Button(pygame.Rect(row.x, row.y, bw, row.h), caption, key, selected=True))
        self.buttons.append(Button(pygame.Rect(row.x + bw + 8, row.y, bw, row.h), "hide coach", "coach:hide"))
        if self.coach.holding and not self.builder.legal:     # why the bots do not move
            note = "(the bots wait until you have read this)"
            draw_text(surface, fit(note, size - 1, rect.w - 24), (x, row.bottom + 4), size - 1, theme.MUTED)

    def _point(self, surface: pygame.Surface, point: Point, box: pygame.Rect) -> None:
        """Outline what the lesson asks the person to look at or click (drawn beside it, never over it)."""
        if point is Point.BOARD and self.builder.legal:
            pygame.draw.rect(surface, theme.ACCENT, self.board_rect.inflate(4, 4), width=3, border_radius=12)
            tip = (self.board_rect.right + 3, box.y + 18)     # a notch on the coach's box, towards the board
            pygame.draw.polygon(surface, theme.ACCENT, [(box.x, tip[1] - 8), (box.x, tip[1] + 8), tip])
        elif point is Point.CHOICES:
            tokens = [b.rect for b in self.buttons if b.key.startswith("token:")]
            if tokens:
                around = tokens[0].unionall(tokens[1:]).inflate(6, 6)
                pygame.draw.rect(surface, theme.ACCENT, around, width=2, border_radius=8)


HOW = ("Each tutorial is a real game against bots that wait a moment before each move. The coach, under your "
       "choices, explains each step once, when the game gets there, and outlines what to click; \"next\" reads on, "
       "\"hide coach\" puts it away. While the coach's note is open, the bots wait.")


class TutorialsScene:
    """The list of tutorials; a click starts one. Esc or "back" returns to the lobby."""

    def __init__(self) -> None:
        self.buttons: list[Button] = []
        self.rows: list[tuple[pygame.Rect, Tutorial]] = []

    def start(self, app, tutorial: Tutorial) -> TutorialTable:
        def leave(app) -> None:   # the table and this list: back to the lobby
            while len(app.scenes) > 1 and app.scene is not self:
                app.pop()
            app.pop()

        table = TutorialTable(tutorial, on_leave=leave)
        app.push(table)
        return table

    def handle(self, event: pygame.event.Event, app) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            app.pop()
        elif event.type == pygame.KEYDOWN and pygame.K_1 <= event.key <= pygame.K_9:
            index = event.key - pygame.K_1
            if index < len(TUTORIALS):
                self.start(app, TUTORIALS[index])
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if any(b.key == "back" and b.hit(event.pos) for b in self.buttons):
                app.pop()
                return
            for rect, tutorial in self.rows:
                if rect.collidepoint(event.pos):
                    self.start(app, tutorial)
                    return

    def update(self, app, dt_ms: int) -> None:
        pass

    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        small = max(12, px - 4)
        title_px = app.px(28)
        self.buttons = [Button(pygame.Rect(w - 16 - px * 5, 10, px * 5, title_px + 4), "back", "back")]
        head = draw_text(surface, "Tutorials", (16, 10), title_px, theme.ACCENT, bold=True)
        about = "a real game against slow bots, with a coach beside the board; Esc at the table goes back"
        draw_text(surface, fit(about, small, self.buttons[0].rect.x - head.right - 40),
                  (head.right + 18, head.bottom - small - 2), small, theme.MUTED)
        top = max(head.bottom, self.buttons[0].rect.bottom) + 10
        row_h = px + small + 22
        count = len(TUTORIALS)
        height = min(h - top - 12, 12 + px + 4 + count * (row_h + 6))   # as tall as the list, at most the window
        inner = panel(surface, pygame.Rect(12, top, w - 24, height), "choose one (or press its number)", px)
        self.rows = []
        row_h = min(row_h, (inner.h - 6 * (count - 1)) // count)
        mouse = pygame.mouse.get_pos()
        y = inner.y
        for n, tutorial in enumerate(TUTORIALS):
            rect = pygame.Rect(inner.x, y, inner.w, row_h)
            colour = theme.BUTTON_HOVER if rect.collidepoint(mouse) else theme.BUTTON
            pygame.draw.rect(surface, colour, rect, border_radius=6)
            textfit.box(rect, "row")
            name = f"{n + 1}. {tutorial.title}"
            draw_text(surface, fit(name, px, rect.w - 20, bold=True), (rect.x + 10, rect.y + 5), px, theme.TEXT,
                      bold=True)
            draw_text(surface, fit(tutorial.about, small, rect.w - 20), (rect.x + 10, rect.y + px + 9), small,
                      theme.MUTED)
            self.rows.append((rect, tutorial))
            y += row_h + 6
        y = inner.bottom + 14
        for line in wrap(HOW, px - 2, w - 40):     # how a tutorial goes, below the list where there is room
            if y + px > h - 8:
                break
            draw_text(surface, line, (20, y), px - 2, theme.MUTED)
            y += px + 2
        for button in self.buttons:
            button.draw(surface, mouse, px)


def open_tutorials(app) -> TutorialsScene:
    scene = TutorialsScene()
    app.push(scene)
    return scene

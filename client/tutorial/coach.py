"""The coach: which lesson to show now, from the moments of the game as they come.

Each lesson is told once per tutorial, in the order the game reaches them: a lesson whose condition
comes true joins the queue (once), the head of the queue is what the box shows, and "got it" (or the
last page's "next") takes it off. A lesson about a step (`Kind.STEP`: "place your first settlement")
also leaves the queue by itself when the game moves past that step; if it never reached the head (the
person was quicker than the coach), it may come again the next time the step does. A lesson once shown
never comes again. Pure: no window, no clock, no engine, only the `Moment`s it is given."""

from __future__ import annotations

from dataclasses import dataclass, field

from client.tutorial.lesson import Kind, Lesson, Moment, Syllabus


@dataclass(slots=True)
class Coach:
    syllabus: Syllabus
    queue: list[Lesson] = field(default_factory=list)
    told: set[str] = field(default_factory=set)   # shown at the head of the queue: never again
    page: int = 0
    hidden: bool = False

    def observe(self, moment: Moment) -> None:
        """The game is at `moment`: step lessons of past steps go, lessons that came due join the queue."""
        head = self.queue[0] if self.queue else None
        due = self.syllabus.due(moment)
        keys = {lesson.key for lesson in due}
        self.queue = [lesson for lesson in self.queue if lesson.kind is not Kind.STEP or lesson.key in keys]
        queued = {lesson.key for lesson in self.queue}
        self.queue += [lesson for lesson in due if lesson.key not in self.told and lesson.key not in queued]
        if (self.queue[0] if self.queue else None) is not head:
            self.page = 0
        if self.queue and not self.hidden:
            self.told.add(self.queue[0].key)

    @property
    def lesson(self) -> Lesson | None:
        """The lesson shown now (None: nothing to say, or the coach is hidden)."""
        return self.queue[0] if self.queue and not self.hidden else None

    @property
    def text(self) -> str:
        lesson = self.lesson
        return lesson.pages[min(self.page, len(lesson.pages) - 1)] if lesson is not None else ""

    @property
    def last_page(self) -> bool:
        lesson = self.lesson
        return lesson is None or self.page >= len(lesson.pages) - 1

    @property
    def holding(self) -> bool:
        """Whether the bots should wait: a note is open (a step lesson is about the person's own move, which
        the bots wait for anyway)."""
        lesson = self.lesson
        return lesson is not None and lesson.kind is Kind.NOTE

    @property
    def waiting(self) -> int:
        """How many lessons are queued behind the one shown."""
        return max(0, len(self.queue) - 1)

    def next(self) -> None:
        """The next page of the lesson shown, or, on its last page, the lesson is done."""
        if self.last_page:
            self.got_it()
        else:
            self.page += 1

    def got_it(self) -> None:
        if self.queue:
            self.told.add(self.queue.pop(0).key)
        self.page = 0
        if self.queue and not self.hidden:
            self.told.add(self.queue[0].key)

    def hide(self) -> None:
        self.hidden = True

    def show(self) -> None:
        self.hidden = False
        if self.queue:
            self.told.add(self.queue[0].key)

"""Driving a terminal table the way a person does: read what it lists, type one of the listed choices
as it is written. Shared by the terminal tests."""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field

import engines
from client.controller import LocalController
from client.terminal import Lines, TerminalTable

_NUMBERED = re.compile(r"^\s+(\d+)\. (\S.*)$")
_EXAMPLE = re.compile(r"^  (\w+): \d+ possible; type one like `([^`]+)`")
_PLACES = re.compile(r"^  (\w+): type `\w+ <node>`, at nodes ([\d, ]+) \(")
_WORDS = re.compile(r"^  or type: (.*)$")


@dataclass
class Listing:
    """What one decision's listing offers: numbered choices, examples of the summed-up verbs, places
    named by node number, and the words of the common actions."""

    numbered: dict[int, str] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    places: dict[str, list[int]] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)

    def typed(self) -> list[str]:
        """Every line a person could type from this listing, as it is written there."""
        out = [str(n) for n in self.numbered] + list(self.numbered.values()) + list(self.examples.values())
        out += [f"{verb} {n}" for verb, nodes in self.places.items() for n in nodes]
        return out + list(self.words)


def listing(text: str) -> Listing:
    """The choices of the last listing in `text` (a line folded to the width joined again first)."""
    found = Listing()
    lines: list[str] = []
    for line in text[text.rfind("choose:"):].splitlines():
        if lines and re.match(r"^ {6,}\S", line) and not _NUMBERED.match(line):
            lines[-1] += " " + line.lstrip()
        else:
            lines.append(line)
    for line in lines:
        if match := _NUMBERED.match(line):
            found.numbered[int(match.group(1))] = match.group(2).split("   (")[0]
        elif match := _EXAMPLE.match(line):
            found.examples[match.group(2).split(" ")[0]] = match.group(2)
        elif match := _PLACES.match(line):
            found.places[match.group(1)] = [int(n) for n in match.group(2).split(", ")]
        elif match := _WORDS.match(line):
            found.words = match.group(1).split(", ")
    return found


def table(gid: str, seed: int = 1, players: int | None = None, width: int = 10_000,
          **kwargs) -> tuple[LocalController, TerminalTable, io.StringIO]:
    game = engines.get(gid)
    players = players or game.players[0]
    ctl = LocalController(game, 0, ["smart"], players=players, seed=seed, bot_delay_ms=0, **kwargs)
    out = io.StringIO()
    return ctl, TerminalTable(ctl, Lines(io.StringIO("")), out, width=width), out


def decisions(ctl: LocalController, term: TerminalTable, out: io.StringIO, count: int, seed: int = 0):
    """Up to `count` decisions of seat 0: yields the listing printed for each (the caller types a
    choice with `term._action`; if it does not, a random listed line is typed after it)."""
    rng = random.Random(seed)
    now = 0
    for _ in range(count):
        while not ctl.legal() and ctl.result() is None and now < 10**6:
            now += 1
            ctl.poll(now)
        if ctl.result() is not None:
            return
        term._new_log_lines()
        start = len(out.getvalue())
        term.shown_choices = None
        term._show_choices()
        shown = listing(out.getvalue()[start:])
        legal = list(ctl.legal())
        yield shown
        if ctl.legal() == legal and ctl.result() is None:   # the caller chose nothing: type a listed line
            lines = [t for t in shown.typed() if t not in shown.words]
            term._action(rng.choice(lines))

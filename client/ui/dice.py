"""Dice you can trust, visibly: the game's rolls in order (the latest last), a histogram of them
against what fair dice give (with the chi-square verdict in words), and for any roll clicked the
proof behind it, recomputed by this client from the signed frames (client/story/record.py,
replays/proof.py): who committed to what and when, what each seat revealed, the value derived."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.dice import Histogram, Roll, chi_square, fairness
from client.ui import textfit, theme
from client.ui.widgets import draw_text, fit, wrap, wrap_lines
from engines.memo import Memo
from replays.proof import ChanceProof

EXPECTED = (236, 226, 200)


def _verdict(h: Histogram, lead: str = "chi-square ") -> str:
    """The chi-square test's verdict alone ("chi-square p = 0.41: as fair dice give"), for a panel too short
    for the test in full (`fairness`)."""
    test = chi_square(h)
    if test is None:
        return "too few rolls to judge yet" if h.n else "no rolls yet"
    return lead + test.words.rsplit(", ", 1)[-1]


class DicePanel:
    def __init__(self) -> None:
        self.selected: int | None = None     # the roll (its number) whose proof is shown
        self.tiles: list[tuple[pygame.Rect, int]] = []
        self._verdicts: Memo[tuple[int, int], bool | None] = Memo(20_000, "(chronicle id, roll number)")  # proof held

    def handle(self, event: pygame.event.Event) -> int | None:
        """A click on a roll shows its proof (a second click, the histogram again); the roll's number."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, number in self.tiles:
                if rect.collidepoint(event.pos):
                    self.selected = None if self.selected == number else number
                    return number
        return None

    def draw(self, surface: pygame.Surface, box: pygame.Rect, rolls: list[Roll], hists: list[Histogram], px: int,
             proof: Callable[[Roll], ChanceProof | str], colours: Callable[[int | None], tuple],
             named: Callable[[str], str], tile: Callable[[Roll], str], owner: int = 0, rolling: bool = True) -> None:
        self.tiles = []
        small = px
        y = box.y
        if not rolls:
            empty = ("No dice rolled yet. Every roll will show here, with a histogram against fair dice and the "
                     "proof of each." if rolling else "This game rolls no dice. Its random draws are proven by the "
                     "same commit-reveal chains, checked by the audit (netplay replay verify).")
            pitch = theme.font(small).get_linesize() + 1   # as many lines as the box holds (C&K at 1024x600: 3)
            most = max(1, min(4, box.h // pitch))
            if rolling and len(wrap(empty, small, box.w)) > most:
                empty = "No dice rolled yet. Each roll will show here, with its proof."
            for line in wrap_lines(empty, small, box.w, most):
                draw_text(surface, line, (box.x, y), small, theme.MUTED)
                y += pitch
            return
        checked = [self._verdict(owner, r, proof) for r in rolls]
        failed = [r.number for r, ok in zip(rolls, checked, strict=True) if ok is False]
        proven = sum(ok is True for ok in checked)
        if failed:
            head, colour = f"roll {failed[0]} does NOT match its frames", theme.BAD
        elif proven == len(rolls):
            head, colour = f"{len(rolls)} rolls, each proven from the signed frames", theme.GOOD
        elif proven:
            head, colour = f"{len(rolls)} rolls, {proven} proven so far (the others when the seeds are out)", \
                theme.GOOD
        else:
            head, colour = f"{len(rolls)} rolls", theme.TEXT
        draw_text(surface, fit(head, small, box.w), (box.x, y), small, colour)
        y += small + 6
        y = self._history(surface, pygame.Rect(box.x, y, box.w, px + 8), rolls, px, colours, tile) + 6
        rest = pygame.Rect(box.x, y, box.w, box.bottom - y)
        chosen = next((r for r in rolls if r.number == self.selected), None)
        if chosen is not None:
            self._proof(surface, rest, chosen, proof(chosen), small, named)
        else:
            self._histograms(surface, rest, hists, small)

    def _verdict(self, owner: int, roll: Roll, proof) -> bool | None:
        key = (owner, roll.number)
        if key not in self._verdicts:
            found = proof(roll)
            verdict = None if isinstance(found, str) or found.pending else found.ok
            if verdict is None:
                return None   # asked again later: a seed revealed at the end completes it
            return self._verdicts.put(key, verdict)
        return self._verdicts[key]

    def _history(self, surface, row: pygame.Rect, rolls: list[Roll], px: int, colours, tile_text) -> int:
        """The latest rolls as tiles, newest on the right; a click selects one."""
        small = max(10, px - 2)
        font = theme.font(small, True)
        x = row.right
        for roll in reversed(rolls):
            text = tile_text(roll)
            w = max(px + 4, font.size(text)[0] + 12)
            if x - w < row.x:
                break
            x -= w
            tile = pygame.Rect(x, row.y, w - 3, row.h)
            seat_colour = colours(roll.seat)
            pygame.draw.rect(surface, (238, 234, 222), tile, border_radius=5)
            textfit.box(tile, "button")
            pygame.draw.rect(surface, seat_colour, tile, width=2, border_radius=5)
            if roll.number == self.selected:
                pygame.draw.rect(surface, theme.HILITE, tile.inflate(4, 4), width=2, border_radius=6)
            draw_text(surface, text, tile.center, small, (30, 30, 30), bold=True, anchor="center")
            self.tiles.append((tile, roll.number))
        return row.bottom

    def chart(self, surface, box: pygame.Rect, hists: list[Histogram], px: int) -> None:
        """The histograms alone, as this panel draws them (the lobby's statistics page draws a player's)."""
        self._histograms(surface, box, hists, px)

    def _histograms(self, surface, box: pygame.Rect, hists: list[Histogram], px: int) -> None:
        """The bars against fair dice, the key, and the test in words; on a short panel the bars and
        one line of the test (cut), the key left out."""
        if not hists or box.h < 2 * px + 8:
            return
        texts = [(h.title + ": " if len(hists) > 1 else "") + fairness(h) for h in hists]
        roomy = box.h >= 9 * px
        if roomy:
            lines = [part for text in texts for part in wrap(text, px, box.w)][:4]
        else:   # two lines of it where the bars keep most of the panel, the verdict alone where those cut it
            most = 2 if box.h >= 7 * px else 1
            lines = wrap("; ".join(texts), px, box.w)
            if len(lines) > most:   # (the table's dice tab at 1024x600: "...p = 0.41: as fair …")
                short = [h.title + ": " + _verdict(h, "") if len(hists) > 1 else _verdict(h) for h in hists]
                lines = wrap_lines("; ".join(short), px, box.w, most)
        key_h = px + 4 if roomy else 0
        chart_h = box.h - len(lines) * (px + 2) - key_h - 4
        bars = sum(len(h.counts) for h in hists)
        gap = 10
        x = box.x
        width = box.w - gap * (len(hists) - 1)
        for h in hists:
            w = width * len(h.counts) // max(1, bars)
            self._chart(surface, pygame.Rect(x, box.y, w, chart_h), h, px)
            x += w + gap
        y = box.y + chart_h + 4
        if roomy:
            pygame.draw.rect(surface, theme.ACCENT, (box.x, y + px // 4, px // 2, px // 2))
            legend = draw_text(surface, "rolled", (box.x + px // 2 + 4, y), px, theme.TEXT)
            pygame.draw.line(surface, EXPECTED, (legend.right + 12, y + px // 2), (legend.right + 12 + px, y + px // 2),
                             2)
            draw_text(surface, "fair dice (expected)", (legend.right + 16 + px, y), px, theme.MUTED)
            y += key_h
        for line in lines:
            draw_text(surface, line, (box.x, y), px, theme.MUTED)
            y += px + 2

    def _chart(self, surface, box: pygame.Rect, h: Histogram, px: int) -> None:
        n = len(h.counts)
        label_h = px + 2
        counted = box.h >= 6 * px          # room for the counts above the bars
        top_pad = (2 * px + 4) if counted else (px + 2)   # the title, then the tallest bar's count
        area = pygame.Rect(box.x, box.y + top_pad, box.w, box.h - label_h - top_pad)
        if area.h <= 4 or n == 0:
            return
        peak = max([*h.counts, *h.expected, 1])
        slot = area.w / n
        font = theme.font(px)
        for i, (count, expected) in enumerate(zip(h.counts, h.expected, strict=True)):
            left = area.x + round(i * slot)
            bar_w = max(2, round(slot) - 3)
            height = round(area.h * count / peak)
            bar = pygame.Rect(left, area.bottom - height, bar_w, height)
            colour = theme.HILITE if i == h.last else theme.ACCENT
            if height:
                pygame.draw.rect(surface, colour, bar, border_radius=2)
            ey = area.bottom - round(area.h * expected / peak)
            pygame.draw.line(surface, EXPECTED, (left - 1, ey), (left + bar_w, ey), 2)
            label = h.labels[i]
            if font.size(label)[0] <= slot + 2:
                draw_text(surface, label, (left + bar_w // 2, area.bottom + 2), px, theme.TEXT, anchor="midtop")
            if counted and count and font.size(str(count))[0] <= slot:
                draw_text(surface, str(count), (left + bar_w // 2, bar.y - 1), px, theme.MUTED, anchor="midbottom")
        title = fit(h.title, px, box.w)
        draw_text(surface, title, (box.x, box.y), px, theme.MUTED)

    def _proof(self, surface, box: pygame.Rect, roll: Roll, found: ChanceProof | str, px: int, named) -> None:
        y = box.y
        by = named(f" by seat {roll.seat}") if roll.seat is not None else ""
        where = f", frame {roll.position + 1}" if roll.position >= 0 else ""
        head = f"roll {roll.number}: {roll.text}{by}{where}"
        pitch = theme.font(px).get_linesize() + 1   # lines as close as the font's (12 px text at 1024x600)
        body = self._proof_rows(box, found, px, named)
        if (len(body) + len(wrap(head + " (click it again for the histogram)", px, box.w))) * pitch <= box.h:
            head += " (click it again for the histogram)"   # (left out where the proof needs the line)
        rows = [(part, theme.HILITE) for part in wrap(head, px, box.w)] + body
        room = max(1, box.h // pitch)
        if len(rows) > room:   # the last line that fits says that more was left out
            rows = [*rows[:room - 1], (fit(rows[room - 1][0] + " …", px, box.w), rows[room - 1][1])]
        for text, colour in rows:
            draw_text(surface, text, (box.x, y), px, colour)
            y += pitch

    @staticmethod
    def _proof_rows(box: pygame.Rect, found: ChanceProof | str, px: int, named) -> list[tuple[str, tuple]]:
        rows: list[tuple[str, tuple]] = []
        if isinstance(found, str):
            rows += [(part, theme.MUTED) for part in wrap(found, px, box.w)]
        else:
            for text, ok in found.steps:
                mark = "ok  " if ok else "FAILS  "
                rows += [(part, theme.GOOD if ok else theme.BAD) for part in wrap(mark + named(text), px, box.w)]
            if found.pending:
                rows += [(part, theme.MUTED) for part in wrap(named(found.pending), px, box.w)]
            elif found.ok:
                rows += [(part, theme.GOOD) for part in wrap("proven: nobody could choose or change it",
                                                            px, box.w)]
        return rows

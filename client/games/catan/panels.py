"""Painting what lies around the island: the dice and the step above it, a card per seat beside
it, the bank and the development deck (the strip below it is `strip`)."""

from __future__ import annotations

import pygame

from client.games import paint
from client.games.catan.geometry import Layout, header_pitch
from client.games.catan.look import (
    DEV_PLURAL,
    DEV_WORDS,
    PIECE_NAMES,
    SEAT_COLOURS,
    piece_colour,
)
from client.games.catan.pieces import _outline, card_back, city, road, settlement
from client.points import own_points, shown_points
from client.ui import theme
from client.ui.widgets import label_size, wrap_lines


class Panels:
    """The header, the seat cards and the bank (a part of `Renderer`)."""

    def _header_lines(self, lay: Layout, view: dict) -> tuple[list[str], int, list[str], int]:
        """The header's words beside the dice: the step (bold) and the hint or the detail under it, each
        whole on a line, a size smaller where the header is narrow (issue 6), else wrapped over two lines
        at the smallest size that reads (12 px: C&K's three dice at 1024x600, issue 34). Returns the
        step's lines and size, the hint's lines and size."""
        px = self.px
        width = lay.header.right - (lay.dice.right + px // 2)
        step, detail = self._step_words(view)
        dice = view.get("dice")
        if dice:
            detail = f"{self._roll_words(view, dice)} - {detail}"
        hint = self._hint(lay, view) or detail
        size = label_size(step, px, width, bold=True)
        small = label_size(hint, px - 3, width)
        return (wrap_lines(step, size, width, 2, bold=True), size, wrap_lines(hint, small, width, 2), small)

    def _header_extra(self, lay: Layout, view: dict) -> int:
        """How many lines more than two the header's words need (`layout`'s `header_extra`)."""
        step, _, hint, _ = self._header_lines(lay, view)
        return len(step) + len(hint) - 2

    def _draw_header(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        self._draw_dice(surface, lay, view, self._lit(("tokens", ("roll",), lay.dice), view))
        x = lay.dice.right + px // 2
        step, size, hint, small = self._header_lines(lay, view)
        y = lay.header.y + 1
        for line in step:
            paint.text(surface, line, (x, y), size, theme.TEXT, bold=True)
            y += header_pitch(px)
        colour = theme.HILITE if self._hint(lay, view) else theme.MUTED
        for line in hint:
            paint.text(surface, line, (x, y), small, colour)
            y += header_pitch(px)

    def _die_boxes(self, lay: Layout) -> list[pygame.Rect]:
        size = lay.dice.h
        gap = (lay.dice.w - self.dice * size) // max(1, self.dice - 1)
        return [pygame.Rect(lay.dice.x + k * (size + gap), lay.dice.y, size, size) for k in range(self.dice)]

    def _draw_dice(self, surface: pygame.Surface, lay: Layout, view: dict, lit: bool) -> None:
        dice = view.get("dice")
        for k, box in enumerate(self._die_boxes(lay)):
            paint.die(surface, box, dice[k] if dice else None, faded=dice is None,
                      body=(250, 236, 200) if not (dice and sum(dice) == 7) else (250, 200, 190))
            if lit:
                _outline(surface, box.inflate(4, 4), 3)

    def _roll_words(self, view: dict, dice: list[int]) -> str:
        return f"last roll {sum(dice)}" + (" (the robber moves)" if sum(dice) == 7 else "")

    #: what a lit place of each kind is called in the hint line (a place's kind, or a token spot's verb)
    hint_words: tuple[tuple[str, str], ...] = (
        ("node", "a lit corner"), ("edge", "a lit path"), ("hex", "a lit hex"), ("seat", "a lit player"),
        ("roll", "the dice"), ("buy", "the deck to buy"), ("play", "a lit card"), ("bank", "a lit resource"),
        ("accept", "accept or decline"), ("confirm", "a player to trade with"), ("cancel", "cancel"),
        ("offer", "\u201coffer this\u201d"))

    def _hint(self, lay: Layout, view: dict) -> str:
        """What a click on the board does now, in words (empty when nothing here may be chosen)."""
        if not self._split:
            return ""
        if self._tray_options() is not None:
            return "put the cards together below with + and -, then ok (or pick them in the list)"
        spots, menu, memo = tuple(lay.spots), getattr(self, "menu", None), self._hint_memo   # (C&K's verb menu)
        if (memo is not None and memo[0] is view and memo[1] is self._legal_src and memo[2] == self.chosen
                and memo[3] == spots and memo[5] is menu):
            return memo[4]
        kinds = {p[0] if p[0] != "tokens" else p[1][0] for p in self._places(lay, view) if self._lit(p, view)}
        words = list(dict.fromkeys(w for k, w in self.hint_words if k in kinds))
        hint = "choose on the right" if not words else (
            "click " + ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]
            + (" - or choose on the right" if len(words) < 3 else ""))
        self._hint_memo = (view, self._legal_src, list(self.chosen), spots, hint, menu)
        return hint

    def _step_words(self, view: dict) -> tuple[str, str]:
        step = view.get("step", "")
        to_act = view.get("to_act")
        who = self._who(view, to_act) if to_act is not None else ""
        result = view.get("result")
        limit = view.get("options", {}).get("max_rounds", "0")
        of = f" of {limit}" if limit != "0" else ""
        turn = f"round {view.get('round', 0)}{of}, turn {view.get('turn', 0)}"
        if result is not None:
            return "game over", turn
        words = self._step_phrase(view, step)
        if view.get("draw_offer") is not None:
            words = "answers the draw offer"
        return (f"{who} {words}" if who else words), turn

    def _step_phrase(self, view: dict, step: str) -> str:
        """What the seat to act does in `step`, after its name."""
        return {
            "setup-settle": "places a settlement", "setup-road": "places a road beside it",
            "pre-roll": "rolls (or plays a card first)", "discard": "discards half the hand",
            "robber": "moves the robber", "steal": "robs a player", "main": "builds, trades or ends the turn",
            "free-road": f"places free roads ({view.get('free_roads', 0)} left)", "respond": "answers the offer",
            "confirm": "chooses whom to trade with", "claim": "claims victory",
            "final-reveal": "reveals victory point cards", "roll": "rolls the dice",
            "steal-pick": "takes a card at random", "deal": "draws a development card",
            "terrain": "lays out the board", "spiral": "lays out the board", "harbour": "lays out the board",
        }.get(step, step)

    def _facts_row(self, surface: pygame.Surface, view: dict, seat: int, row: pygame.Rect, small: int) -> None:
        """Road length and knights played, then the pieces still in supply as little pieces with counts."""
        dev = view["dev"][seat]
        facts = f"road {view['longest_road']['lengths'][seat]}   knights {dev['knights_played']}"
        pieces = (view.get("pieces") or [None] * (seat + 1))[seat]
        colour = piece_colour(seat)
        icons = []
        if pieces:
            icons = [("settlement", pieces["settlements"]), ("city", pieces["cities"]), ("road", pieces["roads"])]
        size = max(3, small // 4)
        font = theme.font(small)
        widths = [size * 4 + 2 + font.size(str(k))[0] for _, k in icons]
        total = sum(widths) + 6 * len(icons)
        x = row.right - total
        text_room = x - row.x - 6
        if text_room < font.size("road 15")[0]:
            x, text_room = row.right + 1, row.w  # no room for the supply: the facts alone
        else:
            for (kind, count), w in zip(icons, widths, strict=True):
                centre = (x + size * 2, row.centery + 1)
                if kind == "settlement":
                    settlement(surface, centre, size, colour)
                elif kind == "city":
                    city(surface, (centre[0], centre[1] + size // 3), max(2, size * 2 // 3), colour)
                else:
                    road(surface, (centre[0] - size * 3, centre[1] + size), (centre[0] + size * 3, centre[1] - size),
                         max(2, size // 2 + 1), colour)
                paint.text(surface, str(count), (x + size * 4 + 2, row.centery), small, theme.MUTED, anchor="midleft")
                x += w + 6
        paint.text(surface, paint.fit(facts, small, text_room), (row.x, row.y), small, theme.MUTED)

    def _draw_seat(self, surface: pygame.Surface, lay: Layout, view: dict, seat: int) -> None:
        px = self.px
        box = lay.seats[seat]
        acting = seat == view.get("to_act") and view.get("result") is None
        edge = theme.HILITE if acting else theme.PANEL_EDGE
        paint.rounded_panel(surface, box, (30, 40, 54), edge, radius=8, alpha=240, width=3 if acting else 1)
        inner = box.inflate(-px // 2 - 4, -px // 3 - 2)
        small = max(10, px - 4)
        y = self._seat_title(surface, view, seat, inner)
        y = self._seat_chips(surface, view, seat, inner, y, small)
        y = self._seat_body(surface, view, seat, inner, y, small)
        # awards and state, on the last line
        if y + small <= inner.bottom + 2:
            self._draw_tags(surface, view, seat, inner.x, y, inner.right, small)
        if self._lit(("seat", seat, box), view):
            _outline(surface, box, 3)

    def _tags_width(self, view: dict, seat: int, small: int) -> int:
        """The room the seat's tags take on a line (`_draw_tags`)."""
        return sum(theme.font(small, True).size(words_)[0] + 12 for words_, _ in self._seat_tags(view, seat))

    def _draw_tags(self, surface: pygame.Surface, view: dict, seat: int, x: int, y: int, right: int,
                   small: int) -> None:
        """The seat's awards and state from `x` on the line at `y`, as many as fit before `right`."""
        self._draw_tag_list(surface, self._seat_tags(view, seat), x, y, right, small)

    @staticmethod
    def _draw_tag_list(surface: pygame.Surface, tags: list[tuple[str, paint.Colour]], x: int, y: int, right: int,
                       small: int) -> None:
        for words_, tag_colour in tags:
            w = theme.font(small, True).size(words_)[0] + 8
            if x + w > right:
                break
            tag = pygame.Rect(x, y - 1, w, small + 2)
            pygame.draw.rect(surface, paint.darker(tag_colour, 0.55), tag, border_radius=4)
            paint.text(surface, words_, tag.center, small, paint.lighter(tag_colour, 0.3), bold=True,
                       anchor="center")
            x += w + 4

    def _seat_vp(self, view: dict, seat: int) -> str:
        """Public points plus the victory point cards shown at the end; the viewer's own total in brackets."""
        vp = shown_points(view, seat)
        hidden_vp = own_points(view, seat)
        return f"{vp} VP" + (f" ({hidden_vp})" if hidden_vp is not None and hidden_vp != vp else "")

    def _seat_title(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect) -> int:
        """The first line: colour, name, victory points; returns the y below it."""
        px = self.px
        disc_r = max(5, px // 3)
        paint.disc(surface, (inner.x + disc_r, inner.y + px // 2), disc_r, piece_colour(seat), rim_width=1)
        vp_rect = paint.text(surface, self._seat_vp(view, seat), (inner.right, inner.y), px, theme.ACCENT, bold=True,
                             anchor="topright")
        name_x = inner.x + 2 * disc_r + px // 3
        paint.text(surface, paint.fit(self._who(view, seat), px, vp_rect.x - name_x - px // 2, bold=True),
                   (name_x, inner.y), px, SEAT_COLOURS[seat % 4], bold=True)
        return inner.y + px + 3

    def _seat_chips(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect, y: int,
                    small: int) -> int:
        """The hand (public): a coloured chip with the count per card type, then the total."""
        px = self.px
        hand = view["hands"][seat]
        kinds = len(self.kinds)
        chip_w = max(16, min(round(px * 1.5), (inner.w - px * 3) // kinds - 3))
        chip_h = max(12, round(px * 0.95))
        for t, name_ in enumerate(self.kinds):
            chip = pygame.Rect(inner.x + t * (chip_w + 3), y, chip_w, chip_h)
            pygame.draw.rect(surface, self.colours[name_] if hand[t] else paint.mix(self.colours[name_],
                             (60, 60, 60), 0.6), chip, border_radius=3)
            paint.text(surface, str(hand[t]), chip.center, small, self.inks[name_] if hand[t] else theme.MUTED,
                       bold=True, anchor="center")
        total_x = inner.x + kinds * (chip_w + 3) + 2
        paint.text(surface, f"= {sum(hand)}", (total_x, y + chip_h // 2), small, theme.TEXT, anchor="midleft")
        return y + chip_h + 4

    def _seat_body(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect, y: int,
                   small: int) -> int:
        """Development cards (face up where this view knows them, else backs with the count), then the
        facts row where the tags row still fits below it (a short card keeps the tags)."""
        px = self.px
        dev = view["dev"][seat]
        known = dev.get("cards")
        count = dev["count"]
        back_h = max(10, round(px * 0.9))
        back_w = max(7, back_h * 2 // 3)
        shown = min(count, 5)
        for k in range(shown):
            card_back(surface, pygame.Rect(inner.x + k * (back_w // 2 + 2), y, back_w, back_h))
        tx = inner.x + (shown - 1) * (back_w // 2 + 2) + back_w + 4 if shown else inner.x
        if known is not None and seat != view.get("seat"):
            kinds = dict.fromkeys(known)
            words = ", ".join(f"{known.count(c)} {(DEV_WORDS if known.count(c) == 1 else DEV_PLURAL)[c]}"
                              for c in kinds) or "no development cards"
        else:
            words = f"{count} development card{'s' * (count != 1)}" if count else "no development cards"
            if dev.get("bought_this_turn") and count:
                words += f" ({dev['bought_this_turn']} new)"
        paint.text(surface, paint.fit(words, small, inner.right - tx), (tx, y + back_h // 2), small, theme.TEXT,
                   anchor="midleft")
        y += back_h + 4
        if y + 2 * small + 5 <= inner.bottom + 2:
            self._facts_row(surface, view, seat, pygame.Rect(inner.x, y, inner.w, small), small)
            y += small + 3
        return y

    def _seat_tags(self, view: dict, seat: int) -> list[tuple[str, paint.Colour]]:
        """Awards and state, for the seat card's last line."""
        over = view.get("result") is not None
        tags: list[tuple[str, paint.Colour]] = []
        if view["longest_road"]["holder"] == seat:
            tags.append(("Longest Road", (214, 170, 60)))
        if view.get("largest_army") == seat:
            tags.append(("Largest Army", (170, 120, 200)))
        if seat in view.get("out", []):
            tags.append(("resigned", theme.BAD))
        elif seat == view.get("to_act") and not over:
            tags.append(("to act", theme.HILITE))
        elif seat in view.get("pending", []):
            tags.append(("waiting", theme.MUTED))
        elif seat == view.get("active") and not over:
            tags.append(("their turn", theme.MUTED))
        offer = view.get("offer")
        if offer is not None and seat in offer.get("accepted", []):
            tags.append(("accepts the offer", theme.GOOD))
        elif offer is not None and seat in offer.get("declined", []):
            tags.append(("declines", theme.BAD))
        revealed = (view.get("revealed") or [None] * (seat + 1))[seat] or 0
        if revealed:
            tags.append((f"{revealed} VP card{'s' * (revealed != 1)} shown", theme.ACCENT))
        return tags

    #: room beside the bank's chips, in font sizes (the development deck)
    bank_aside = 1.6

    def _bank_chips(self, lay: Layout) -> tuple[int, int, int]:
        px = self.px
        inner_w = lay.bank.w - px
        deck_w = round(px * self.bank_aside)
        chip_w = max(16, (inner_w - deck_w - px // 2) // len(self.kinds) - 4)
        chip_h = round(px * 1.5)
        return chip_w, chip_h, lay.bank.y + px + 6

    def _deck_rect(self, lay: Layout) -> pygame.Rect:
        chip_w, chip_h, y = self._bank_chips(lay)
        x = lay.bank.x + self.px // 2 + len(self.kinds) * (chip_w + 4) + self.px // 4
        return pygame.Rect(x, y - 2, min(round(self.px * 1.4), lay.bank.right - x - 6), chip_h + 4)

    def _draw_bank(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        paint.rounded_panel(surface, lay.bank, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        small = max(10, px - 4)
        awards = self._bank_awards(view)
        font = theme.font(small)
        room = lay.bank.w - px - theme.font(px - 2, True).size("bank")[0] - px // 2
        if font.size(awards)[0] > room:
            awards = awards.replace("   ", "  ")   # (closer together before the title gives way)
        if font.size(awards)[0] <= room:
            title = paint.text(surface, "bank", (lay.bank.x + px // 2, lay.bank.y + 4), px - 2, theme.MUTED, bold=True)
            room = lay.bank.right - title.right - px
        else:   # the awards in the title's place: a short seat card leaves its tags to them (catan_ck)
            room = lay.bank.w - px
        paint.text(surface, paint.fit(awards, small, room), (lay.bank.right - px // 2, lay.bank.y + 5), small,
                   theme.MUTED, anchor="topright")
        chip_w, chip_h, y = self._bank_chips(lay)
        for t, name in enumerate(self.kinds):
            chip = lay.spots[("bank", name)]
            colour = self.colours[name]
            pygame.draw.rect(surface, colour, chip, border_radius=4)
            pygame.draw.rect(surface, paint.darker(colour, 0.5), chip, 1, border_radius=4)
            if chip.w >= round(px * 1.6):  # else the count alone: a picture would run into it
                self.glyph(surface, name, (chip.x + chip.w // 4, chip.centery), max(3, chip.h // 4), self.inks[name])
            paint.text(surface, str(view["bank"][t]), (chip.right - 3, chip.centery), small + 1, self.inks[name],
                       bold=True, anchor="midright")
            if self._lit(("bank", name, chip), view):
                _outline(surface, chip, 3)
        self._draw_decks(surface, lay, view, y + chip_h + 4, small)

    def _bank_awards(self, view: dict) -> str:
        army = view.get("largest_army")
        road_holder = view["longest_road"]["holder"]
        return (f"road: {PIECE_NAMES[road_holder % 4] if road_holder is not None else '-'}   "
                f"army: {PIECE_NAMES[army % 4] if army is not None else '-'}")

    def _draw_decks(self, surface: pygame.Surface, lay: Layout, view: dict, label_y: int, small: int) -> None:
        """The development deck beside the chips, and a line of words below them."""
        px = self.px
        deck = self._deck_rect(lay)
        if view["deck"]:
            for k in range(min(3, view["deck"]) - 1, -1, -1):
                card_back(surface, pygame.Rect(deck.x + k * 2, deck.y - k * 2, deck.w - 4, deck.h))
        else:
            pygame.draw.rect(surface, theme.PANEL_EDGE, deck, 1, border_radius=4)
        paint.text(surface, str(view["deck"]), (deck.centerx - 1, deck.centery), small, paint.IVORY, bold=True,
                   anchor="center")
        if label_y + small <= lay.bank.bottom:
            paint.text(surface, "resources left in the bank; the deck: development cards", (lay.bank.x + px // 2,
                       label_y), small, theme.MUTED) if lay.bank.w > theme.font(small).size(
                "resources left in the bank; the deck: development cards")[0] + px else paint.text(
                surface, "bank resources; deck", (lay.bank.x + px // 2, label_y), small, theme.MUTED)
        if self._lit(("tokens", ("buy",), deck), view):
            _outline(surface, deck.inflate(4, 4), 3)

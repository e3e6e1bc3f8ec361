"""Painting the strip below the island: the viewer's own hand, the composer of card multisets with its
+ and - and ok, the development cards face up, and the trade offer with its answers. Apart from the
panels because what it shows, and where its buttons lie, follow the step (a discard, an offer)."""

from __future__ import annotations

import pygame

from client.games import paint
from client.games.catan.geometry import Layout, card_row
from client.games.catan.look import (
    DEV_COLOURS,
    DEV_WORDS,
    PIECE_NAMES,
    RED_NUMBER,
    cards_words,
)
from client.games.catan.pieces import _outline, dev_icon
from client.ui import textfit, theme
from client.ui.widgets import wrap, wrap_lines
from engines.catan.cards import multiset_text


def _name_lines(name: str, width: int) -> list[str] | None:
    """A resource's name in the lines a card `width` wide shows it in at the smallest size that reads:
    whole, or broken in two ("lum-", "ber"); None where even two lines are too narrow."""
    size = theme.min_size()
    if theme.font(size).size(name)[0] <= width:
        return [name]
    pieces = paint.broken(name, size, width)
    return pieces if len(pieces) == 2 and all(theme.font(size).size(x)[0] <= width for x in pieces) else None


class Strip:
    """The hand, the composer, the own cards and the offer (a part of `Renderer`)."""

    def _hand_cards(self, box: pygame.Rect, top: int, bottom: int, rows: int = 1) -> list[pygame.Rect]:
        """One card per kind between `top` and `bottom`, in `rows` rows (two: `_hand_rows`)."""
        n = len(self.kinds)
        per = -(-n // rows)
        gap = max(4 if per <= 5 else 3, self.px // (4 if per <= 5 else 6))
        h = (bottom - top - (rows - 1) * gap) // rows
        w = min(round(h * (0.78 if rows == 1 else 1.4)), (box.w - (per - 1) * gap) // per)
        cards = []
        for k in range(n):
            row, col = divmod(k, per)
            count = min(per, n - row * per)
            x0 = box.x + (box.w - count * w - (count - 1) * gap) // 2
            cards.append(pygame.Rect(x0 + col * (w + gap), top + row * (h + gap), w, h))
        return cards

    def _hand_rows(self, box: pygame.Rect, top: int, bottom: int) -> int:
        """One row of tall cards, unless a card of that row cannot hold its name whole in 12 px text (C&K's
        eight kinds at 1024x600 left 27 px a card, "br…", issue 34): then two rows of wider cards, where
        each is still three lines high (a glyph, the count, the name); else one row, the names broken
        over two lines ("lum-" over "ber")."""
        def whole(cards: list[pygame.Rect]) -> bool:
            return all(_name_lines(name, card.w - 2) == [name] for name, card in zip(self.kinds, cards, strict=True))

        if whole(self._hand_cards(box, top, bottom)):
            return 1
        two = self._hand_cards(box, top, bottom, 2)
        return 2 if whole(two) and two[0].h >= 3 * theme.font(theme.min_size()).get_linesize() else 1

    def _tray_buttons(self, lay: Layout) -> dict[str, tuple[pygame.Rect, pygame.Rect]]:
        px = self.px
        box = lay.hand.inflate(-px // 2, -px // 3)
        ok_w = round(px * 2.6)
        area = pygame.Rect(box.x, box.y, box.w - ok_w - px // 2, box.h)
        button_h = px + 8
        cards = self._hand_cards(area, box.y + px + 4, box.bottom - button_h - 4)
        out = {}
        for name, card in zip(self.kinds, cards, strict=True):
            half = (card.w - 2) // 2
            minus = pygame.Rect(card.x, card.bottom + 3, half, button_h)
            plus = pygame.Rect(card.right - half, card.bottom + 3, half, button_h)
            out[name] = (plus, minus)
        return out

    def _ok_rect(self, lay: Layout) -> pygame.Rect:
        px = self.px
        box = lay.hand.inflate(-px // 2, -px // 3)
        ok_w = round(px * 2.6)
        return pygame.Rect(box.right - ok_w, box.centery - px, ok_w, 2 * px)

    def _draw_hand(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        box = lay.hand
        paint.rounded_panel(surface, box, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        inner = box.inflate(-px // 2, -px // 3)
        me = view.get("seat")
        small = max(10, px - 4)
        options = self._tray_options()
        if options is not None:
            self._draw_tray(surface, lay, view, options)
            return
        if me is None or not 0 <= me < len(view["hands"]):
            lines = wrap("a spectator's view: every hand is on the seat cards", px - 2, inner.w)
            for k, line in enumerate(lines[:2]):
                paint.text(surface, line, (inner.x, inner.y + k * px), px - 2, theme.MUTED)
            return
        mine = me == self.me or self.names is None
        title = "your hand" if mine else f"{self._who(view, me)}: hand"
        paint.text(surface, paint.fit(title, px - 2, inner.w, bold=True), (inner.x, inner.y), px - 2, theme.MUTED,
                   bold=True)
        hand = view["hands"][me]
        top = inner.y + px + 2
        cards = self._hand_cards(inner, top, inner.bottom, self._hand_rows(inner, top, inner.bottom))
        for t, (name, card) in enumerate(zip(self.kinds, cards, strict=True)):
            self._resource_card(surface, card, name, hand[t], small)

    def _resource_card(self, surface: pygame.Surface, card: pygame.Rect, name: str, count: int, small: int,
                       note: str = "") -> None:
        colour = self.colours[name] if count else paint.mix(self.colours[name], (70, 70, 70), 0.6)
        ink = self.inks[name] if count else theme.MUTED
        radius = max(3, card.w // 7)
        pygame.draw.rect(surface, (0, 0, 0), card.move(1, 2), border_radius=radius)
        pygame.draw.rect(surface, colour, card, border_radius=radius)
        pygame.draw.rect(surface, paint.darker(colour, 0.5), card, 1, border_radius=radius)
        label = max(theme.min_size(), small - 1)  # smaller where the card is too narrow for the word (eight kinds)
        while label > theme.min_size() and theme.font(label).size(note or name)[0] > card.w - 2:
            label -= 1
        lines = None if note else _name_lines(name, card.w - 2)
        if lines is None:
            lines = [paint.fit(note or name, label, card.w - 2)]
        step = theme.font(label).get_linesize()
        for k, word in enumerate(reversed(lines)):
            paint.text(surface, word, (card.centerx, card.bottom - 2 - k * step), label, ink, anchor="midbottom")
        size = max(12, min(card.h // 3, round(card.w * 0.55)))
        name_top = card.bottom - 2 - len(lines) * step
        if card.w > card.h:   # a wide card (a hand in two rows): the glyph beside the count, above the name
            mid = (card.y + name_top) // 2
            self.glyph(surface, name, (card.x + card.w // 4, mid), max(3, min(card.w // 6, (name_top - card.y) // 3)),
                       ink)
            paint.text(surface, str(count), (card.x + card.w * 5 // 8, mid), size, ink, bold=True, anchor="center")
            return
        self.glyph(surface, name, (card.centerx, card.y + card.h // 4 + 1), max(3, min(card.w, card.h) // 6), ink)
        high = theme.font(size, True).get_height()
        paint.text(surface, str(count), (card.centerx, min(card.y + card.h * 9 // 16, name_top - high // 2)), size,
                   ink, bold=True, anchor="center")

    def _draw_tray(self, surface: pygame.Surface, lay: Layout, view: dict, options: set[tuple[int, ...]]) -> None:
        px = self.px
        inner = lay.hand.inflate(-px // 2, -px // 3)
        base = self._tray_base()
        title = self._tray_title(base, options)
        chosen = sum(self.draft)
        paint.text(surface, paint.fit(f"{title}: {chosen} chosen", px - 2, inner.w, bold=True), (inner.x, inner.y),
                   px - 2, theme.HILITE, bold=True)
        me = view.get("seat")
        hand = view["hands"][me] if me is not None and 0 <= me < len(view["hands"]) else [0] * len(self.kinds)
        buttons = self._tray_buttons(lay)
        small = max(10, px - 4)
        for t, name in enumerate(self.kinds):
            plus, minus = buttons[name]
            card = pygame.Rect(minus.x, inner.y + px + 4, plus.right - minus.x, minus.y - 3 - inner.y - px - 4)
            note = self._tray_note(view, base, hand, t)
            self._resource_card(surface, card, name, self.draft[t], small, note)
            for kind, rect, sign in (("minus", minus, "-"), ("plus", plus, "+")):
                live = self._tray_step((kind, name)) is not None
                pygame.draw.rect(surface, theme.BUTTON if live else theme.BUTTON_DOWN, rect, border_radius=4)
                textfit.box(rect, "button")
                paint.text(surface, sign, rect.center, px, theme.TEXT if live else theme.MUTED, bold=True,
                           anchor="center")
                if live and kind == "plus":
                    pygame.draw.rect(surface, theme.HILITE, rect, 1, border_radius=4)
        ok = self._ok_rect(lay)
        ready = self._draft_text() is not None
        pygame.draw.rect(surface, theme.ACCENT if ready else theme.BUTTON_DOWN, ok, border_radius=6)
        textfit.box(ok, "button")
        paint.text(surface, "ok", ok.center, px, paint.INK if ready else theme.MUTED, bold=True, anchor="center")
        if ready:
            _outline(surface, ok, 2)

    def _tray_title(self, base: list[str], options: set[tuple[int, ...]]) -> str:
        """The composer's title: what the cards put together are for."""
        verb = base[0] if base else ""
        sizes = {sum(o) for o in options}
        size_words = f"{min(sizes)}" if len(sizes) == 1 else f"{min(sizes)}-{max(sizes)}"
        return {"discard": f"discard {size_words} cards", "play": f"take {size_words} from the bank",
                "trade": "give to the bank"}.get(verb, "you give" if "for" not in base else "you want")

    def _tray_note(self, view: dict, base: list[str], hand: list[int], t: int) -> str:
        """The words under a composer's card: how many there are to choose from."""
        verb = base[0] if base else ""
        if verb == "play":
            return f"of {view['bank'][t]}"  # year of plenty takes from the bank
        if verb in ("discard", "trade") or "for" not in base:
            return f"of {hand[t]}"
        return self.kinds[t]

    def _dev_boxes(self, lay: Layout, view: dict, seat: int) -> list[tuple[str, pygame.Rect]]:
        """The viewer's development cards, one card per kind (the count on it), in the strip's right part."""
        dev = view["dev"][seat]
        known = dev.get("cards")
        if known is None or view.get("offer") is not None:
            return []
        return card_row(lay.cards, self.px, known, 0.75)

    def _draw_cards(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        box = lay.cards
        paint.rounded_panel(surface, box, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        if view.get("offer") is not None and self.chosen[:1] == ["counter"]:
            self._draw_draft_counter(surface, lay, view)
            return
        if view.get("offer") is not None:
            self._draw_offer(surface, lay, view)
            return
        if self._draw_proposals(surface, lay, view):
            return
        if self.chosen[:1] == ["offer"]:
            self._draw_draft_offer(surface, lay, view)
            return
        inner = box.inflate(-px // 2, -px // 3)
        me = view.get("seat")
        small = max(10, px - 4)
        if me is None or not 0 <= me < len(view["dev"]):
            played = view.get("played", {})
            text = "played: " + ", ".join(f"{v} {DEV_WORDS[k]}" for k, v in played.items() if v) if any(
                played.values()) else "no development card played yet"
            for k, line in enumerate(wrap_lines(text, small, inner.w, 3)):
                paint.text(surface, line, (inner.x, inner.y + k * (small + 2)), small, theme.MUTED)
            return
        dev = view["dev"][me]
        known = dev.get("cards") or []
        new = list(dev.get("new") or [])
        title = f"development cards: {dev['count']}"
        paint.text(surface, paint.fit(title, px - 2, inner.w, bold=True), (inner.x, inner.y), px - 2, theme.MUTED,
                   bold=True)
        boxes = self._dev_boxes(lay, view, me)
        if not boxes:
            line = "none yet: buy one with 1 wool, 1 grain and 1 ore" if me == self.me else "no development cards"
            for k, part in enumerate(wrap_lines(line, small, inner.w, 2)):
                paint.text(surface, part, (inner.x, inner.y + px + 4 + k * (small + 2)), small, theme.MUTED)
            return
        for name, card in boxes:
            count = known.count(name)
            fresh = new.count(name)
            colour = DEV_COLOURS[name]
            radius = max(3, card.w // 7)
            pygame.draw.rect(surface, (0, 0, 0), card.move(1, 2), border_radius=radius)
            pygame.draw.rect(surface, paint.IVORY, card, border_radius=radius)
            band = pygame.Rect(card.x, card.y, card.w, max(8, card.h // 4))
            pygame.draw.rect(surface, colour, band, border_top_left_radius=radius, border_top_right_radius=radius)
            pygame.draw.rect(surface, paint.darker(colour, 0.4), card, 1, border_radius=radius)
            words = DEV_WORDS[name].split(" ")
            size = max(theme.min_size(), min(small, round(card.w / 4.2)))
            lines = [piece for word in words for piece in paint.broken(word, size, card.w - 4)]
            y = band.bottom + 2
            for word in lines[:4]:
                paint.text(surface, paint.fit(word, size, card.w - 4), (card.centerx, y), size, paint.INK,
                           anchor="midtop")
                y += theme.font(size).get_linesize()
            room = card.bottom - size - 4 - y
            if room > 12:
                dev_icon(surface, name, (card.centerx, y + room // 2), min(card.w // 3, room // 2 - 2), colour)
            # the longest of the badge's forms that reads whole (the red says "new" in the shortest)
            forms = [f"x{count} ({fresh} new)", f"x{count} new", f"x{count}"] if fresh else [f"x{count}"]
            badge = next((f for f in forms if theme.font(size, True).size(f)[0] <= card.w - 4), forms[-1])
            paint.text(surface, paint.fit(badge, size, card.w - 4, bold=True), (card.centerx, card.bottom - 2), size,
                       RED_NUMBER if fresh else paint.INK, bold=True, anchor="midbottom")
            if self._lit(("tokens", ("play", name), card), view):
                _outline(surface, card, 3)

    def _everybody_rect(self, lay: Layout) -> pygame.Rect:
        inner = lay.cards.inflate(-self.px // 2, -self.px // 3)
        h = self.px + 6
        return pygame.Rect(inner.x, inner.bottom - h, inner.w, h)

    def _draw_draft_offer(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """The offer being put together: what is given, what is asked, and to whom it may go."""
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        chosen = self.chosen
        give = chosen[1] if len(chosen) > 1 else None
        get = chosen[3] if len(chosen) > 3 else None
        draft = multiset_text(tuple(self.draft), self.kinds) if any(self.draft) else "..."
        lines = [("your offer to the players", theme.MUTED, True),
                 (f"give {cards_words(give) if give else draft}", theme.TEXT, False)]
        if give:
            lines.append((f"for {cards_words(get) if get else draft}", theme.TEXT, False))
        if chosen[-1] == "to":
            lines.append(("to whom? click a player, or:", theme.HILITE, False))
        y = inner.y
        bottom = inner.bottom - (px + 8 if chosen[-1] == "to" else 0)
        for text, colour, bold in lines:
            for part in wrap(text.replace("...", "(choose below)") if text.endswith("...") else text, small, inner.w,
                             bold):
                if y + small > bottom:
                    break
                paint.text(surface, part, (inner.x, y), small, colour, bold=bold)
                y += small + 2
        if chosen[-1] == "to":
            rect = self._everybody_rect(lay)
            live = self._allowed([*chosen, "all"])
            pygame.draw.rect(surface, theme.BUTTON if live else theme.BUTTON_DOWN, rect, border_radius=5)
            textfit.box(rect, "button")
            paint.text(surface, "to everybody", rect.center, small, theme.TEXT if live else theme.MUTED,
                       anchor="center")
            if live:
                _outline(surface, rect, 2)

    def _offer_buttons(self, lay: Layout, view: dict) -> list[tuple[tuple[str, ...], pygame.Rect]]:
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        h = px + 6
        y = inner.bottom - h
        words = [("accept",), ("decline",), ("counter",)]   # counter: decline, and say what instead
        offer = view["offer"]
        words += [("confirm", str(s)) for s in offer.get("accepted", [])]
        words.append(("cancel",))
        shown = [w for w in words if self._allowed(list(w))]
        if not shown:
            return []
        gap = 4
        w = (inner.w - gap * (len(shown) - 1)) // len(shown)
        font = theme.font(max(10, px - 4))
        if len(shown) > 1 and any(font.size(self._offer_word(t))[0] > w - 6 for t in shown):
            # two rows where one cuts the answers ("acc…" on C&K's narrow cards at 1024x600, issue 34)
            per = -(-len(shown) // 2)
            w = (inner.w - gap * (per - 1)) // per
            return [(tokens, pygame.Rect(inner.x + (k % per) * (w + gap), y - (1 - k // per) * (h + gap), w, h))
                    for k, tokens in enumerate(shown)]
        return [(tokens, pygame.Rect(inner.x + k * (w + gap), y, w, h)) for k, tokens in enumerate(shown)]

    @staticmethod
    def _offer_word(tokens: tuple[str, ...]) -> str:
        """An answer button's caption."""
        if tokens[0] == "confirm":
            return PIECE_NAMES[int(tokens[1]) % 4]
        return {"accept": "accept", "decline": "decline", "cancel": "cancel", "counter": "counter"}.get(tokens[0],
                                                                                                        tokens[0])

    def _draw_offer(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        offer = view["offer"]
        active = view.get("active")
        who = self._who(view, active) if active is not None else "?"
        to = "everybody" if offer["to"] == "all" else self._who(view, offer["to"])
        accepted = [self._who(view, s) for s in offer.get("accepted", [])]
        declined = [self._who(view, s) for s in offer.get("declined", [])]
        waiting = [self._who(view, s) for s in view.get("pending", []) if view.get("step") == "respond"]
        lines = [(f"{who} offers {cards_words(offer['give'])}", theme.TEXT, True),
                 (f"for {cards_words(offer['get'])}, to {to}", theme.TEXT, False)]
        answers = []
        if accepted:
            answers.append("yes: " + ", ".join(accepted))
        if declined:
            answers.append("no: " + ", ".join(declined))
        if waiting:
            answers.append("deciding: " + ", ".join(waiting))
        if answers:
            lines.append(("; ".join(answers), theme.HILITE, False))
        if any(tokens[0] == "confirm" for tokens, _ in self._offer_buttons(lay, view)):
            lines.append(("trade with whom? (or cancel)", theme.MUTED, False))
        buttons = self._offer_buttons(lay, view)
        bottom = buttons[0][1].y - 2 if buttons else inner.bottom
        y = inner.y
        for text, colour, bold in lines:
            for part in wrap(text, small, inner.w, bold):
                if y + small > bottom:
                    break
                paint.text(surface, part, (inner.x, y), small, colour, bold=bold)
                y += small + 2
        for tokens, rect in buttons:
            words = self._offer_word(tokens)
            pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=5)
            textfit.box(rect, "button")
            paint.text(surface, paint.fit(words, small, rect.w - 6), rect.center, small, theme.TEXT, anchor="center")
            _outline(surface, rect, 2)

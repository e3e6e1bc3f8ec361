"""Turning the legal texts into clicks: every place that can be clicked, the tokens a click there
stands for (naming the verb when a bare number could mean a node and an edge), what is lit, the
composer of card multisets and the words of each choice. Nothing here decides a rule: what is lit
is exactly what a prefix of a `legal()` text allows."""

from __future__ import annotations

import pygame

from client.games import paint
from client.games.catan.geometry import Layout, layout
from client.games.catan.look import DEV_WORDS, PIECE_NAMES, VERB_WORDS, _hex_words, cards_words, is_cards
from engines.catan.board import EDGES, NODE_HEXES
from engines.catan.cards import multiset_text, parse_multiset


class ClickInput:
    """The legal texts as places to click and words to choose (a part of `Renderer`)."""

    # ------------------------------------------------------------------ the legal texts as prefixes

    def _take_legal(self, legal: list[str] | None) -> None:
        if legal is None:
            legal = []
        if legal is self._legal_src:
            return
        self._legal_src = legal
        self._split = [a.split(" ") for a in legal]
        self._prefixes = {tuple(parts[:k]) for parts in self._split for k in range(1, len(parts) + 1)}
        self._verbs_memo = {}

    def _allowed(self, tokens: list[str]) -> bool:
        """Some legal text starts with `tokens`."""
        return tuple(tokens) in self._prefixes

    def _verbs_before(self, chosen: list[str], token: str) -> set[str]:
        """The tokens that may come between `chosen` and `token` (the verbs a bare number may follow)."""
        key = tuple(chosen)
        memo = self._verbs_memo.get(key)
        if memo is None:
            n = len(chosen)
            memo = {}
            for parts in self._split:
                if len(parts) > n + 1 and parts[:n] == chosen:
                    memo.setdefault(parts[n + 1], set()).add(parts[n])
            self._verbs_memo[key] = memo
        return memo.get(token, set())

    def _candidates(self, tokens: list[str] | None = None) -> list[str]:
        """The tokens that may follow `tokens` (the chosen ones), memoised per legal list and choice."""
        tokens = self.chosen if tokens is None else tokens
        key = ("next", *tokens)
        memo = self._verbs_memo.get(key)
        if memo is None:
            n = len(tokens)
            seen: dict[str, set[str]] = {}
            for parts in self._split:
                if len(parts) > n and parts[:n] == tokens:
                    seen.setdefault(parts[n], set())
            memo = self._verbs_memo[key] = seen
        return list(memo)

    def _tray_base(self) -> list[str]:
        """The tokens before the card multiset being put together: the chosen ones, plus the verb when
        it is the only one and cards follow it (a discard needs no click on `discard` first)."""
        following = self._candidates()
        if len(following) == 1 and not is_cards(following[0]):
            base = [*self.chosen, following[0]]
            if any(is_cards(c) for c in self._candidates(base)):
                return base
        return self.chosen

    # ------------------------------------------------------------------ places and what a click there means

    def _places(self, lay: Layout, view: dict) -> list[tuple]:
        """Every clickable place, most specific first: (kind, key, shape)."""
        places: list[tuple] = [(kind, key, rect) for (kind, key), rect in lay.spots.items()]
        r = lay.radius
        places += [("node", n, ("circle", lay.node(n), r * 0.3)) for n in range(54)]
        places += [("edge", e, ("segment", *lay.edge(e), r * 0.17)) for e in range(72)]
        places += [("hex", h, ("circle", lay.hex(h), r * 0.75)) for h in range(19)]
        return places

    def _intent(self, place: tuple, view: dict) -> list[str] | None:
        """The tokens a click on `place` stands for, from the first (the verb) on."""
        kind, key = place[0], place[1]
        chosen = self.chosen
        if kind == "node":
            for verb in ("settle", "city"):
                if self._allowed([verb, str(key)]):
                    return [verb, str(key)]
            owner = view.get("nodes", {}).get(str(key))
            own = owner is not None and owner[0] == view.get("seat") and owner[1] == "settlement"
            return ["city" if own else "settle", str(key)]
        if kind == "edge":
            return ["road", str(key)]
        if kind == "hex":
            return ["robber", f"h{key}"]
        if kind == "seat":
            if chosen and chosen[-1] == "to":
                return [*chosen, str(key)]
            for verb in ("steal", "confirm"):
                if self._allowed([verb, str(key)]):
                    return [verb, str(key)]
            return None
        if kind == "bank":
            return ["play", "monopoly", key] if chosen[:2] == ["play", "monopoly"] else None
        if kind == "tokens":
            return list(key)
        if kind == "ok":
            text = self._draft_text()
            return [*self._tray_base(), text] if text else None
        return None

    def _click_text(self, intent: list[str] | None) -> str | None:
        """What the table should push for a click meaning `intent`: the part after the tokens chosen
        so far; without the verb when the bare token can only mean this (the table inserts it)."""
        if not intent:
            return None
        n = len(self.chosen)
        if intent[:n] != self.chosen:
            return " ".join(intent)  # another verb than the one chosen: the table says why not
        rest = intent[n:]
        if not rest:
            return None
        if (len(rest) >= 2 and rest[1] in self.highlights and self._verbs_before(self.chosen, rest[1]) == {rest[0]}
                and rest[1] not in self._candidates()):  # a bare word that is itself a verb would mean that verb
            return " ".join(rest[1:])
        return " ".join(rest)

    def _lit(self, place: tuple, view: dict) -> bool:
        if place[0] in ("plus", "minus"):
            return self._tray_step(place) is not None
        intent = self._intent(place, view)
        n = len(self.chosen)
        return bool(intent) and len(intent) > n and intent[:n] == self.chosen and self._allowed(intent)

    @staticmethod
    def _contains(shape, pos: tuple[int, int]) -> bool:
        if isinstance(shape, pygame.Rect):
            return shape.collidepoint(pos)
        if shape[0] == "circle":
            (x, y), r = shape[1], shape[2]
            return (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r
        (ax, ay), (bx, by), width = shape[1], shape[2], shape[3]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy or 1
        t = ((pos[0] - ax) * dx + (pos[1] - ay) * dy) / length
        if not 0.2 <= t <= 0.8:
            return False
        cx, cy = ax + t * dx, ay + t * dy
        return (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 <= width * width

    @staticmethod
    def _centre(shape) -> tuple[int, int]:
        if isinstance(shape, pygame.Rect):
            return shape.center
        if shape[0] == "circle":
            return shape[1]
        return (shape[1][0] + shape[2][0]) // 2, (shape[1][1] + shape[2][1]) // 2

    def _layout(self, rect: pygame.Rect, view: dict) -> Layout:
        lay = layout(rect, len(view["hands"]), self.px, dice=self.dice)
        self._place_spots(lay, view)
        extra = self._header_extra(lay, view)
        if extra > 0:   # the header's words wrapped: the island gives it their lines
            lay = layout(rect, len(view["hands"]), self.px, dice=self.dice, header_extra=extra)
            self._place_spots(lay, view)
        return lay

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        """Where one click gives exactly `token` now (for tests and hints)."""
        lay = self._layout(rect, view)
        for place in self._places(lay, view):
            if place[0] in ("plus", "minus"):
                continue
            if self._lit(place, view) and self._click_text(self._intent(place, view)) == token:
                return self._centre(place[2])
        return None

    def clicks(self, rect: pygame.Rect, view: dict, token: str) -> list[tuple[int, int]] | None:
        """The clicks that put card multiset `token` together in the composer (the last one gives it)."""
        lay = self._layout(rect, view)
        wanted = parse_multiset(token, self.kinds) if is_cards(token) else None
        options = self._tray_options()
        if wanted is None or options is None or tuple(wanted) not in options:
            return None
        draft = list(self.draft)
        out = []
        for t, name in enumerate(self.kinds):
            while draft[t] > wanted[t]:
                out.append(lay.spots[("minus", name)].center)
                draft[t] -= 1
        for t, name in enumerate(self.kinds):
            while draft[t] < wanted[t]:
                out.append(lay.spots[("plus", name)].center)
                draft[t] += 1
        if not out or not self._maximal(tuple(wanted), options):
            out.append(lay.spots[("ok", "")].center)
        return out

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = self._layout(rect, view)
        inside = [p for p in self._places(lay, view) if self._contains(p[2], pos)]
        if not inside:
            return None
        lit = [p for p in inside if self._lit(p, view)]
        place = (lit or inside)[0]
        if place[0] == "plus":
            step = self._tray_step(place)
            if step is not None and self._maximal(step, self._tray_options() or set()):
                return self._click_text([*self._tray_base(), multiset_text(step, self.kinds)])
            return None  # the composer takes it (press)
        if place[0] == "minus":
            return None
        return self._click_text(self._intent(place, view))

    def press(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> bool:
        """A click the board keeps for itself: a composer's + or - (True if it took the click)."""
        lay = self._layout(rect, view)
        for place in self._places(lay, view):
            if place[0] in ("plus", "minus") and self._contains(place[2], pos):
                step = self._tray_step(place)
                if step is not None:
                    self.draft = list(step)
                return True
        return self._press_proposal(lay, view, pos)

    # ------------------------------------------------------------------ the composer of card multisets

    def _tray_options(self) -> set[tuple[int, ...]] | None:
        """The multisets that may come next (None when the next token is no multiset); resets the
        draft when the choice changed."""
        base = self._tray_base()
        key = ("tray", *base)
        parsed = self._verbs_memo.get(key)
        if parsed is None:
            parsed = {tuple(parse_multiset(c, self.kinds) or ()) for c in self._candidates(base) if is_cards(c)}
            parsed.discard(())
            self._verbs_memo[key] = parsed
        if not parsed:
            return None
        key = (tuple(base), self._legal_src is not None and id(self._legal_src))
        if key != self._draft_key:
            self._draft_key = key
            self.draft = [0] * len(self.kinds)
        return parsed

    def _tray_step(self, place: tuple) -> tuple[int, ...] | None:
        """The draft after a + or - on `place`, if some option still fits it."""
        options = self._tray_options()
        if options is None:
            return None
        t = self.kinds.index(place[1])
        draft = list(self.draft)
        if place[0] == "minus":
            if draft[t] == 0:
                return None
            draft[t] -= 1
            return tuple(draft)
        draft[t] += 1
        if any(all(o[i] >= draft[i] for i in range(len(draft))) for o in options):
            return tuple(draft)
        return None

    @staticmethod
    def _maximal(cards: tuple[int, ...], options: set[tuple[int, ...]]) -> bool:
        """`cards` is an option and no other option holds it: nothing more can be added."""
        return cards in options and not any(o != cards and all(o[i] >= cards[i] for i in range(len(o)))
                                            for o in options)

    def _draft_text(self) -> str | None:
        options = self._tray_options()
        if options is None or tuple(self.draft) not in options:
            return None
        return multiset_text(tuple(self.draft), self.kinds)

    # ------------------------------------------------------------------ words

    def _who(self, view: dict, seat: int) -> str:
        names = {"_names": self.names, "_me": self.me, "seat": view.get("seat")} if self.names is not None else view
        return paint.seat_label(names, seat, PIECE_NAMES[seat % 4])

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list."""
        verb = chosen[0] if chosen else token
        counter = self._counter_label(view, chosen, token)
        if counter is not None:
            return counter
        if not chosen:
            return VERB_WORDS.get(token)
        if token in ("for", "to"):
            return token
        if verb in ("settle", "city") and token.isdigit():
            hexes = ", ".join(_hex_words(view, h) for h in NODE_HEXES[int(token)])
            return f"node {token} ({hexes})"
        if verb == "road" and token.isdigit():
            a, b = EDGES[int(token)]
            return f"edge {token} (nodes {a}-{b})"
        if verb == "robber" and token.startswith("h"):
            return _hex_words(view, int(token[1:]))
        if verb in ("steal", "confirm") and token.isdigit():
            word = "rob" if verb == "steal" else "trade with"
            return f"{word} {self._who(view, int(token))}"
        if verb == "offer" and chosen[-1] == "to":
            return "to everybody" if token == "all" else f"to {self._who(view, int(token))}"
        if verb == "play" and len(chosen) == 1:
            return DEV_WORDS.get(token, token)
        if verb == "play" and chosen[1:] == ["monopoly"]:
            return f"all {token} of the others"
        if verb in ("claim", "reveal") and token.isdigit():
            k = int(token)
            return f"{'claim victory, showing' if verb == 'claim' else 'reveal'} {k} victory point card{'s' * (k != 1)}"
        if is_cards(token):
            return cards_words(token)  # the chosen verb stands above the list
        return None

    # the spots outside the island: where they lie depends on the view (cards held, an offer, the composer)

    def _place_spots(self, lay: Layout, view: dict) -> None:
        px = self.px
        lay.spots[("tokens", ("roll",))] = lay.dice
        for seat, box in enumerate(lay.seats):
            lay.spots[("seat", seat)] = box
        chip_w, chip_h, y = self._bank_chips(lay)
        for t, name in enumerate(self.kinds):
            lay.spots[("bank", name)] = pygame.Rect(lay.bank.x + px // 2 + t * (chip_w + 4), y, chip_w, chip_h)
        self._card_spots(lay, view)
        if self._tray_options() is not None:
            for name, (plus, minus) in self._tray_buttons(lay).items():
                lay.spots[("plus", name)] = plus
                lay.spots[("minus", name)] = minus
            lay.spots[("ok", "")] = self._ok_rect(lay)
        if view.get("offer") is not None:
            if self.chosen[:1] != ["counter"]:
                for tokens, box in self._offer_buttons(lay, view):
                    lay.spots[("tokens", tokens)] = box
        elif self.chosen[:1] == ["offer"] and self.chosen[-1] == "to":
            lay.spots[("tokens", (*self.chosen, "all"))] = self._everybody_rect(lay)
        else:
            self._proposal_spots(lay, view)

    def _card_spots(self, lay: Layout, view: dict) -> None:
        """The deck to buy from and the viewer's development cards to play."""
        lay.spots[("tokens", ("buy",))] = self._deck_rect(lay)
        me = view.get("seat")
        if me is not None and 0 <= me < len(view["dev"]) and not self._proposals(view):
            for name, box in self._dev_boxes(lay, view, me):
                lay.spots[("tokens", ("play", name))] = box

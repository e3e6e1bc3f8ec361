"""Counter-offers at the Catan table, as table talk (docs/rules/catan.md, D24; the line's form and its
strict reading are bots/counters.py's, docs/protocol.md says it for a second implementation).

Two sides, both drawn in the strip's right part where the offer is:
- asked by an offer, a person may press "counter" beside accept and decline and put together, in the
  composer, what he would give and get instead. The table plays `decline` and says the proposal's chat
  line first (`talk_choices` and `talk`: the texts `counter <give> for <get>` are the table's, never
  the engine's, and are never sent as actions);
- the active person sees the proposals made to him in this turn ("Blue: bob would give 1 ore for
  2 grain"), each with "offer this", which is the engine's own `offer ... to <seat>` text, lit only
  while `legal()` lists it (else the engine's words say why not), and "no", which puts it away here.

Nothing a peer says is played for the person: a line is a proposal only if `bots.counters.parse`
takes it, from the seat it names, for this turn; others stay ordinary chat (logged, never a button).
Proposals expire when the turn ends or the play leaves the trade steps (a robber, a road), and one
that was offered is gone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pygame

from bots.counters import PREFIX, Proposal, counter_text, parse
from client.games import paint
from client.games.catan.geometry import Layout
from client.games.catan.look import cards_words, is_cards
from client.games.catan.pieces import _outline
from client.ui import textfit, theme
from client.ui.widgets import wrap
from engines.catan.cards import all_multisets, multiset_text, parse_multiset

log = logging.getLogger(__name__)

#: the steps of a turn's trading: a proposal heard in them lives on until the turn ends or play leaves them
TRADE_STEPS = frozenset({"main", "respond", "confirm"})
#: the person's own side of a counter-offer, as the builder takes it: `counter <give> for <get>`
VERB = "counter"


class CounterTalk:
    """Counter-offers made and heard (a part of `Renderer`; see the module docstring)."""

    #: the most cards an offer holds (docs/rules/catan.md D8: 4; C&K's D36: 3)
    offer_most = 4

    def _counter_state(self) -> None:
        self._said_src: list | None = None     # the controller's list of (seat, line) read so far
        self._said_read = 0
        self._heard: dict[int, Proposal] = {}  # the latest proposal of each seat
        self._why: Callable[[str], str] | None = None
        self._dismissed: set[tuple[int, str]] = set()   # (turn, offer text) put away with "no"
        self._choices_key: tuple | None = None
        self._choices: list[str] = []

    # ------------------------------------------------------------------ the person asked: a counter-offer

    def talk_choices(self, view: dict, legal: list[str]) -> list[str]:
        """While this seat is asked by an offer (it may decline): every `counter <give> for <get>` of cards it
        holds for cards the offerer holds, no type on both sides, `offer_most` cards at most, but the offer
        itself. None else."""
        offer, me, active = view.get("offer"), view.get("seat"), view.get("active")
        if "decline" not in legal or offer is None or me is None or active is None:
            return []
        mine, theirs = tuple(view["hands"][me]), tuple(view["hands"][active])
        key = (mine, theirs, offer["give"], offer["get"])
        if key != self._choices_key:
            kinds = self.kinds
            sides = all_multisets(len(kinds), self.offer_most)
            gives = [g for g in sides if all(a <= b for a, b in zip(g, mine, strict=True))]
            gets = [g for g in sides if all(a <= b for a, b in zip(g, theirs, strict=True))]
            asked = (offer["get"], offer["give"])   # the offer itself, from this side: it is accept
            self._choices = [f"{VERB} {multiset_text(g, kinds)} for {multiset_text(t, kinds)}"
                             for g in gives for t in gets
                             if sum(g) + sum(t) <= self.offer_most
                             and not any(a and b for a, b in zip(g, t, strict=True))
                             and (multiset_text(g, kinds), multiset_text(t, kinds)) != asked]
            self._choices_key = key
        return self._choices

    def talk(self, view: dict, text: str) -> tuple[str, str] | None:
        """What a counter text means: the action to play (`decline`) and the line to say first (None: not one)."""
        parts = text.split(" ")
        if len(parts) != 4 or parts[0] != VERB or parts[2] != "for":
            return None
        give, get = parse_multiset(parts[1], self.kinds), parse_multiset(parts[3], self.kinds)
        me = view.get("seat")
        if give is None or get is None or me is None or view.get("offer") is None:
            return None
        # the active player would give what this seat gets, and get what it gives
        return "decline", counter_text(view["turn"], me, get, give, self.kinds)

    def talk_words(self, seat: int, text: str, names: list[str]) -> str | None:
        """A counter-offer's chat line in words for the log ("Bob: would give 1 ore for 2 grain, as a counter-offer");
        None for any other line (shown as said)."""
        found = parse(text, seat, self.kinds)
        if found is None:
            return None
        who = names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"
        return (f"{who}: would give {cards_words(multiset_text(found.get, self.kinds))} for "
                f"{cards_words(multiset_text(found.give, self.kinds))} (a counter-offer)")

    # ------------------------------------------------------------------ the active person: proposals heard

    def _take_said(self, view: dict) -> None:
        """Read the chat lines new since the last picture (`_said`, the table passes the controller's), keep
        the proposals among them, and let go of those that expired or were offered."""
        said = view.get("_said")
        if said is None:
            return
        if said is not self._said_src or len(said) < self._said_read:   # another controller, or one afresh
            self._said_src, self._said_read, self._heard = said, 0, {}
        self._why = view.get("_why")
        me = view.get("seat")
        for seat, text in said[self._said_read:]:
            if seat == me:
                continue
            found = parse(text, seat, self.kinds)
            if found is not None:
                self._heard[seat] = found
            elif text.startswith(PREFIX):
                log.info("a chat line from seat %s that looks like a counter-offer is not one: %r", seat, text[:80])
        self._said_read = len(said)
        turn, step, offer = view.get("turn"), view.get("step"), view.get("offer")
        made = None
        if offer is not None and offer["to"] != "all":
            made = f"offer {offer['give']} for {offer['get']} to {offer['to']}"
        # (a line for a later turn cannot be honest: the active player's copy is the first to reach his turn)
        self._heard = {s: p for s, p in self._heard.items()
                       if p.turn == turn and step in TRADE_STEPS and p.action != made}

    def _proposals(self, view: dict) -> list[tuple[Proposal, str]]:
        """The proposals to show now, each with why it cannot be offered ("" when it can): the active
        person's, in the main step of their turn, with no offer open or being put together."""
        me = view.get("seat")
        if (view.get("step") != "main" or me is None or view.get("active") != me or view.get("offer") is not None
                or self.chosen[:1] == ["offer"]):
            return []
        turn = view.get("turn")
        out = []
        for _, p in sorted(self._heard.items()):
            if p.turn != turn or (turn, p.action) in self._dismissed:
                continue
            why = ""
            if not self._allowed(p.action.split(" ")):
                why = (self._why(p.action) if self._why is not None else "") or "the rules do not allow it now"
                why = why.removeprefix(f"{p.action}: ")
            out.append((p, why))
        return out

    def _proposal_rects(self, lay: Layout, view: dict) -> list[tuple[Proposal, str, pygame.Rect, pygame.Rect]]:
        """Each proposal shown, with the row of its "offer this" (or why not, in its place) and "no", as many
        as fit under the title (the title says how many more there are)."""
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        h = small + 8
        y = inner.y + small + 4
        no_w = max(px * 2, theme.font(small).size("no")[0] + 14)
        out = []
        for p, why in self._proposals(view):
            lines = len(wrap(self._proposal_words(view, p), small, inner.w)[:2])
            row_y = y + lines * (small + 2)
            if row_y + h > inner.bottom:
                break
            offer = pygame.Rect(inner.x, row_y, inner.w - no_w - 4, h)
            out.append((p, why, offer, pygame.Rect(offer.right + 4, row_y, no_w, h)))
            y = row_y + h + 4
        return out

    def _proposal_words(self, view: dict, p: Proposal) -> str:
        who = self._who(view, p.seat)
        return (f"{who} would give {cards_words(multiset_text(p.get, self.kinds))} "
                f"for {cards_words(multiset_text(p.give, self.kinds))}")

    def _proposal_spots(self, lay: Layout, view: dict) -> None:
        for p, why, offer, _ in self._proposal_rects(lay, view):
            if not why:
                lay.spots[("tokens", tuple(p.action.split(" ")))] = offer

    def _press_proposal(self, lay: Layout, view: dict, pos: tuple[int, int]) -> bool:
        """A click on a proposal's "no": put away here (True if it took the click)."""
        for p, _, _, no in self._proposal_rects(lay, view):
            if no.collidepoint(pos):
                self._dismissed.add((p.turn, p.action))
                return True
        return False

    def _draw_proposals(self, surface: pygame.Surface, lay: Layout, view: dict) -> bool:
        """The proposals in the strip's right part (True if there were any to draw)."""
        shown = self._proposal_rects(lay, view)
        if not shown:
            return False
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        more = len(self._proposals(view)) - len(shown)
        title = "counter-offers to you" + (f" ({len(shown)} of {len(shown) + more} shown)" if more else "")
        paint.text(surface, paint.fit(title, small, inner.w, bold=True), inner.topleft, small, theme.MUTED, bold=True)
        y = inner.y + small + 4
        for p, why, offer, no in shown:
            for part in wrap(self._proposal_words(view, p), small, inner.w)[:2]:
                paint.text(surface, part, (inner.x, y), small, theme.TEXT)
                y += small + 2
            if why:   # no button: the engine's words for why it cannot be offered now
                paint.text(surface, paint.fit(f"not now: {why}", small, offer.w), (offer.x, offer.centery), small,
                           theme.BAD, anchor="midleft")
            else:
                pygame.draw.rect(surface, theme.BUTTON, offer, border_radius=5)
                textfit.box(offer, "button")
                paint.text(surface, paint.fit("offer this", small, offer.w - 6), offer.center, small, theme.TEXT,
                           anchor="center")
                _outline(surface, offer, 2)
            pygame.draw.rect(surface, theme.BUTTON, no, border_radius=5)
            textfit.box(no, "button")
            paint.text(surface, "no", no.center, small, theme.TEXT, anchor="center")
            y = offer.bottom + 4
        return True

    def _draw_draft_counter(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """The counter-offer being put together, under the offer it answers."""
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        offer, chosen = view["offer"], self.chosen
        active = view.get("active")
        who = self._who(view, active) if active is not None else "?"
        give = chosen[1] if len(chosen) > 1 and is_cards(chosen[1]) else None
        lines = [(f"{who} offers {cards_words(offer['give'])} for {cards_words(offer['get'])}", theme.MUTED, False),
                 ("your counter-offer: you decline and say", theme.TEXT, True),
                 (f"you give {cards_words(give) if give else '(choose below)'}", theme.TEXT, False)]
        if give:
            lines.append(("for (choose below)", theme.TEXT, False))
        y = inner.y
        for text, colour, bold in lines:
            for part in wrap(text, small, inner.w, bold):
                if y + small > inner.bottom:
                    return
                paint.text(surface, part, (inner.x, y), small, colour, bold=bold)
                y += small + 2

    def _counter_label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A counter choice's words for the table's list."""
        if not chosen and token == VERB:
            active = view.get("active")
            return f"counter-offer to {self._who(view, active)}" if active is not None else "counter-offer"
        return None   # the cards in words, as for an offer (the composer's title says which side)


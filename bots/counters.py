"""Counter-offers in Catan and Cities & Knights, as table talk (docs/rules/catan.md, D24).

The engines have no counter-offer: only the active player offers, and an asked seat accepts or
declines. At a real table the one who declines says what he would take instead, and the active
player may make that offer or not. netplay does the same with a chat line of a fixed form that a
client recognises (docs/protocol.md, "Counter-offers in the chat"):

    counter-offer turn <T>: offer <give> for <get> to <s>

The part after the colon is the very `offer` action text that the active player of turn `<T>` could
play, addressed to the proposer `<s>` (the seat that said it): `<give>` is what the active player
would give, `<get>` what the proposer would give in return, both in the engine's canonical multiset
notation. The turn number makes a line that comes late (chat and frames travel separately) stale
rather than misread.

Nothing in such a line is believed: `parse` takes only the exact form, canonical card texts of the
game's own card types, no type on both sides, and only from the seat it names; anything else is
ordinary chat. A proposal is a suggestion. It is played only by a choice of the active player (a
click, or a bot's own judgement), and only if the engine's `legal()` lists it then.

Shared by the bots (which hear and make proposals) and the client (which shows them and lets a
person make one); `bots/` may import only `engines/`, and the client imports `bots/`, so it lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.catan.cards import multiset_text, parse_multiset

__all__ = ["PREFIX", "Proposal", "Talk", "counter_text", "parse"]

PREFIX = "counter-offer"
#: the whole line; the card texts are checked again by the engine's own parser
_LINE = re.compile(r"counter-offer turn (0|[1-9][0-9]{0,5}): offer ([0-9a-z+]{2,60}) for ([0-9a-z+]{2,60}) "
                   r"to (0|[1-9][0-9]?)")


@dataclass(frozen=True, slots=True)
class Proposal:
    """A counter-proposal heard at the table: in turn `turn`, seat `seat` would trade `get` for `give`
    (the active player's sides: he would give `give` and get `get`); `action` is the offer text."""

    turn: int
    seat: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    action: str


def counter_text(turn: int, seat: int, give: tuple[int, ...], get: tuple[int, ...], kinds: tuple[str, ...]) -> str:
    """The chat line by which `seat` proposes that the active player of `turn` offer `give` for `get` to it."""
    return f"{PREFIX} turn {turn}: offer {multiset_text(give, kinds)} for {multiset_text(get, kinds)} to {seat}"


def parse(text: str, sender: int, kinds: tuple[str, ...]) -> Proposal | None:
    """The proposal a chat line from seat `sender` holds, or None when it holds none (not the exact form,
    a card text that is not canonical for `kinds`, a type on both sides, or another seat named than the one
    that said it: a forged line is no proposal)."""
    if not text.startswith(PREFIX):
        return None
    found = _LINE.fullmatch(text)
    if found is None:
        return None
    turn, give_text, get_text, seat = int(found[1]), found[2], found[3], int(found[4])
    give, get = parse_multiset(give_text, kinds), parse_multiset(get_text, kinds)
    if give is None or get is None or seat != sender or any(a and b for a, b in zip(give, get, strict=True)):
        return None
    return Proposal(turn, seat, give, get, f"offer {give_text} for {get_text} to {seat}")


class Talk:
    """One bot's side of the table talk: the proposals made to it (the latest of each seat), the ones it
    made itself, and the lines it has still to say. A bot hears only what its seat was told, in the
    order it was told, so what it does stays a function of its seat's knowledge and its seed.

    The driver of a bot calls `hear` for every chat line of another seat and, after each `choose`, takes
    `said()`; a driver that does neither (self-play) leaves the bot as it was: `begin` drops what was
    not taken, so nothing piles up."""

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self.kinds = kinds
        self._heard: dict[int, Proposal] = {}                       # by proposer: the latest
        self._mine: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()   # (turn, give, get) proposed
        self._out: list[str] = []

    def begin(self, turn: int) -> None:
        """A new decision in `turn`: what was not said is dropped, and so is every other turn's talk (a line
        for a later turn cannot be honest: the active player's copy is the first to reach his turn)."""
        self._out = []
        self._heard = {s: p for s, p in self._heard.items() if p.turn == turn}
        self._mine = {m for m in self._mine if m[0] == turn}

    def hear(self, seat: int, text: str) -> None:
        found = parse(text, seat, self.kinds)
        if found is not None:
            self._heard[seat] = found

    def proposals(self, turn: int) -> list[Proposal]:
        """The proposals of `turn` heard, by proposer's seat."""
        return [p for s, p in sorted(self._heard.items()) if p.turn == turn]

    def drop(self, proposal: Proposal) -> None:
        """A proposal answered (the offer made): not again."""
        if self._heard.get(proposal.seat) == proposal:
            del self._heard[proposal.seat]

    def propose(self, turn: int, me: int, give: tuple[int, ...], get: tuple[int, ...]) -> None:
        """Say that the active player of `turn` could offer `give` for `get` to `me` (remembered: an offer
        equal to it is one the bot asked for)."""
        self._mine.add((turn, give, get))
        self._out.append(counter_text(turn, me, give, get, self.kinds))

    def proposed(self, turn: int, give: tuple[int, ...], get: tuple[int, ...]) -> bool:
        return (turn, give, get) in self._mine

    def said(self) -> list[str]:
        """The lines to say now (each once)."""
        out, self._out = self._out, []
        return out

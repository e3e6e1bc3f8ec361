"""Whom a Catan bot may still ask to trade: each player at most once in the bot's turn (an offer to
all asks every seat that holds what it wants, and counts for each of them), and never again, in the
same game, for a trade (the same give and get) that player declined. A person at the table answers
every offer that asks them; bots used to ask the same people up to three times a turn, and the same
offers turn after turn. Shared by the Catan and the Cities & Knights bots (any number of card types).

Why the memory lives in the bot object, and how far it leans on the view: the view shows how many
offers this turn has held (`offers_made`) and, while an offer is open, who declined it so far; it
keeps no record of whom an earlier offer of the turn asked, nor of offers declined in earlier turns,
and adding one would change the engine's state (its digests, which replays and the second
implementation check). So the bot remembers each offer of this turn under the view's count when it
was made (asking it again at the same decision changes nothing), and, for the game, who declined
what. A bot object can be made afresh in the middle of a game (a resumed seat, a sandbox from a
replay position): such a bot makes no more offers in a turn whose earlier offers it does not know
(the view's count shows them), but it may once more ask a player for a trade declined before it was
made.

A counter-proposal (bots.counters: a player who declined says what he would take instead) is the one
way a player is asked twice in a turn: he asked for it. `answer` makes such an offer to its proposer
at most once a turn per proposer, never for a trade that player declined, and remembers it as made.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["OfferMemory"]

#: the steps at which a bot, the offerer, first sees what became of its offer: confirm (somebody
#: accepted; the view's offer lists who declined) or main (everybody asked declined)
_CONFIRM, _MAIN = "confirm", "main"


class _Made(NamedTuple):
    give: tuple[int, ...]
    get: tuple[int, ...]
    asked: tuple[int, ...]


class OfferMemory:
    """One bot's offers of this turn and the declines it heard in the game (see the module docstring)."""

    def __init__(self) -> None:
        self.turn = -1
        self._made: dict[int, _Made] = {}      # this turn's offers by the view's `offers_made` when made
        self._heard: set[int] = set()          # which of them have had their answers read
        self._declined: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()   # (seat, give, get)
        self._answered: set[int] = set()       # the seats whose counter-proposal it offered this turn

    def observe(self, view: dict, me: int) -> None:
        """Read from `view` what became of this seat's last offer. Calling it at every decision whose
        view the bot reads is enough: after an offer, the offerer's next decision is confirm or main,
        and neither has a single legal action (which a bot takes without reading the view): confirm
        lists cancel, main still lists the same offer."""
        if view["turn"] != self.turn:
            self.turn, self._made, self._heard, self._answered = view["turn"], {}, set(), set()
        step = view["step"]
        last = view["offers_made"] - 1
        made = self._made.get(last)
        if view["active"] != me or step not in (_CONFIRM, _MAIN) or made is None or last in self._heard:
            return
        self._heard.add(last)
        offer = view["offer"]
        declined = offer["declined"] if step == _CONFIRM and offer is not None else made.asked
        self._declined.update((seat, made.give, made.get) for seat in declined)

    def askable(self, view: dict, me: int, give: tuple[int, ...], get: tuple[int, ...]) -> tuple[int, ...]:
        """The seats an offer of `give` for `get` may ask now, in the order an offer to all asks them:
        those in the game that hold `get`, were not asked this turn and did not decline this trade.
        Nobody while the turn holds an offer the bot does not remember (made before it was created)."""
        if any(i not in self._made for i in range(view["offers_made"])):
            return ()
        asked = {seat for i in range(view["offers_made"]) for seat in self._made[i].asked}
        return tuple(seat for seat in _holders(view, me, get)
                     if seat not in asked and (seat, give, get) not in self._declined)

    def propose(self, view: dict, me: int, give: tuple[int, ...], get: tuple[int, ...], prefix: str,
                allowed: dict[str, None] | set[str]) -> str | None:
        """The text of an offer of `give` for `get` (`prefix`: "offer <give> for <get> to ") that asks only
        seats `askable` allows: to all when that is every seat an offer to all would ask, else to the first
        of them; remembered as made. None when no seat may be asked or the text is not legal."""
        seats = self.askable(view, me, give, get)
        if not seats:
            return None
        everybody = seats == _holders(view, me, get)
        text = prefix + ("all" if everybody else str(seats[0]))
        if text not in allowed:
            return None
        self._made[view["offers_made"]] = _Made(give, get, seats if everybody else seats[:1])
        return text

    def ask(self, view: dict, me: int, seat: int, give: tuple[int, ...], get: tuple[int, ...], text: str,
            allowed: dict[str, None] | set[str]) -> str | None:
        """`text`, an offer of `give` for `get` to `seat` alone, if `askable` allows asking that seat and
        the text is legal; remembered as made. None otherwise."""
        if text not in allowed or seat not in self.askable(view, me, give, get):
            return None
        self._made[view["offers_made"]] = _Made(give, get, (seat,))
        return text

    def answer(self, view: dict, me: int, seat: int, give: tuple[int, ...], get: tuple[int, ...], text: str,
               allowed: dict[str, None] | set[str]) -> str | None:
        """`text`, the offer of `give` for `get` to `seat` that `seat` proposed, if the bot may make it now:
        legal, the first proposal of that seat it answers this turn, not a trade that seat declined, and
        no offer of the turn unknown to the bot; remembered as made. None otherwise."""
        if (text not in allowed or seat in self._answered or (seat, give, get) in self._declined
                or any(i not in self._made for i in range(view["offers_made"]))):
            return None
        self._answered.add(seat)
        self._made[view["offers_made"]] = _Made(give, get, (seat,))
        return text


def _holders(view: dict, me: int, get: tuple[int, ...]) -> tuple[int, ...]:
    """The seats an offer to all from `me` asks (as the engine does): the others in the game, from
    the one after `me` round the table, that hold `get`."""
    hands, out = view["hands"], set(view["out"])
    n = len(hands)
    seats = ((me + k) % n for k in range(1, n))
    return tuple(o for o in seats if o not in out and all(h >= g for h, g in zip(hands[o], get, strict=True)))

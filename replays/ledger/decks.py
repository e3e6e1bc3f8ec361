"""The shared secret decks of a session as the ledger keeps them (docs/protocol.md "Shared secret deck",
mental poker): per deck epoch the shufflers and their shuffles, the current value of every position, the
seats that still have a layer on the undealt cards, and every deal with its strips. The arithmetic is
replays.deck; the frames are the kinds `shuffle`, `strip`, `spoiled` and the attachments of `act`.
A look at a seat's hand (a `show` chance point) adds the kinds `peek` and `show` (replays.look).

Order on the frame chain (docs/protocol.md): at an epoch's first deal every seat still in the game
sends a `shuffle`, in seat order; each deal then takes one `strip` from every other seat with a layer
on the deck, in seat order, and the chance point is applied with the last one (the drawer unmasks its
card privately). The audit, once the seeds are revealed, recomputes every shuffle, strip and release
from the seeds and decrypts every dealt card (`audit`), which the full-knowledge re-simulation feeds;
it recomputes every look's peek and show values too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from replays import deck as D
from replays import look as L
from replays.ledger.errors import Dispute
from replays.ledger.values import Event

__all__ = ["Deal", "Epoch", "Look", "audit", "undisclosed"]


@dataclass(slots=True)
class Deal:
    """One position of an epoch dealt to `drawer`: the values it went through (the deck's card, then one
    per strip), and what is known of the card."""

    position: int
    drawer: int
    strippers: tuple[int, ...]
    values: list[bytes]
    strips: list[tuple[int, int]] = field(default_factory=list)   # (frame no, seat) per strip
    card: int | None = None          # its type, where this ledger knows it (own deal, or after the audit)
    shown: int | None = None         # the frame that showed it (a played card)
    event: Event | None = None

    @property
    def done(self) -> bool:
        return len(self.strips) == len(self.strippers)

    @property
    def last(self) -> bytes:
        return self.values[-1]


@dataclass(slots=True)
class Epoch:
    """One shuffle of a deck's public composition `pool` (the rules' deck, or a refill)."""

    deck: str
    epoch: int
    pool: tuple[int, ...]
    shufflers: tuple[int, ...]
    inputs: list[tuple[bytes, ...]] = field(default_factory=list)   # the input of each shuffle, in order
    outputs: list[tuple[bytes, ...]] = field(default_factory=list)
    shuffles: list[tuple[int, int]] = field(default_factory=list)   # (frame no, seat) per shuffle
    publics: dict[int, bytes] = field(default_factory=dict)          # seat -> P = k·B for this epoch
    cards: list[bytes] = field(default_factory=list)   # the current value of every position
    layers: list[int] = field(default_factory=list)    # seats whose layer is still on the undealt cards
    next: int = 0                                      # the next position to deal
    deals: dict[int, Deal] = field(default_factory=dict)
    current: Deal | None = None                        # the deal under way
    releases: list[tuple[int, int, D.Release, tuple[bytes, ...]]] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return len(self.shuffles) == len(self.shufflers)

    @property
    def key(self) -> tuple[str, int]:
        return (self.deck, self.epoch)

    def undealt(self) -> tuple[bytes, ...]:
        return tuple(self.cards[self.next:])


@dataclass(slots=True)
class Look:
    """A `show` chance point under way or done (replays.look): the source's undisclosed dealt cards, in
    order, the looker's J and peek values, then the source's show values; `cards` are the types the
    looker decrypted (its own ledger only); `open` until the looker's next `act`, whose `seen`
    attachments take cards from here."""

    index: int                       # the chance index of the look
    spy: int
    source: int
    public: bytes                    # J
    cards: list[tuple[Epoch, Deal]]
    peeks: list[bytes]               # Z per card
    peek_frame: int
    shows: list[bytes] | None = None  # W per card, once the source has sent them
    show_frame: int = -1
    seen: list[int] | None = None    # the decrypted types (the looker's own ledger)
    open: bool = False


def undisclosed(led, seat: int) -> list[tuple[Epoch, Deal]]:
    """The cards dealt to `seat` and not shown since, in (deck, epoch, position) order: what a look at
    its hand shows."""
    out = [(ep, deal) for ep in led.decks.values() for deal in ep.deals.values()
           if deal.drawer == seat and deal.shown is None and deal.done]
    out.sort(key=lambda item: (item[0].deck, item[0].epoch, item[1].position))
    return out


def audit(led, known: dict[int, bytes]) -> None:
    """Recompute every deck value of the seats whose seed is `known` and decrypt every card dealt to
    one of them; the first value that does not follow from its author's seed is a Dispute naming the
    frame, the seat and the rule. Sets each decrypted deal's `card` and its event's full value."""
    session = led.session
    for ep in led.decks.values():
        for i, (frame_no, seat) in enumerate(ep.shuffles):
            seed = known.get(seat)
            if seed is None:
                continue
            public, cards = D.shuffled(seed, session, seat, ep.deck, ep.epoch, ep.inputs[i])
            if public != ep.publics[seat]:
                raise _dispute(frame_no, seat, D.RULE_DECK_KEY, "its deck key P is not the one its seed derives")
            if cards != ep.outputs[i]:
                raise _dispute(frame_no, seat, D.RULE_SHUFFLE, "its shuffle is not its seed's key and permutation "
                                                              "applied to its input")
        for frame_no, seat, entry, undealt in ep.releases:
            seed = known.get(seat)
            fault = None if seed is None else D.audit_release(seed, session, seat, entry, undealt, proofs=False)
            if fault is not None:
                raise _dispute(frame_no, seat, fault.rule, fault.reason)
        for deal in ep.deals.values():
            for k, (frame_no, seat) in enumerate(deal.strips):
                seed = known.get(seat)
                if seed is None:
                    continue
                fault = D.audit_strip(seed, session, seat, ep.deck, ep.epoch, deal.position, deal.values[k],
                                      deal.values[k + 1])
                if fault is not None:
                    raise _dispute(frame_no, seat, fault.rule, fault.reason)
            seed = known.get(deal.drawer)
            if seed is None or not deal.done:
                continue
            table = D.card_table(session, ep.deck, ep.epoch, ep.pool)
            drawn = D.draw(seed, session, deal.drawer, ep.deck, ep.epoch, deal.last, table)
            if drawn.card is None:
                at = deal.strips[-1][0] if deal.strips else -1
                raise _dispute(at, deal.drawer, D.RULE_SPOILED, f"position {deal.position} of deck {ep.deck!r} epoch "
                                                               f"{ep.epoch} decrypts to no card although every frame "
                                                               "follows from its seed")
            deal.card = drawn.card[1]
            if deal.event is not None:
                deal.event.full = deal.card
    for look in led.looks:
        spy_seed, source_seed = known.get(look.spy), known.get(look.source)
        if spy_seed is not None:
            fault = L.audit_peek(spy_seed, session, look.spy, look.index, look.public,
                                 [(ep.deck, ep.epoch, deal.position, deal.last, z)
                                  for (ep, deal), z in zip(look.cards, look.peeks, strict=True)])
            if fault is not None:
                raise _dispute(look.peek_frame, look.spy, fault.rule, fault.reason)
        if source_seed is not None and look.shows is not None:
            fault = L.audit_show(source_seed, session, look.source,
                                 [(ep.deck, ep.epoch, deal.position, z, w)
                                  for (ep, deal), z, w in zip(look.cards, look.peeks, look.shows, strict=True)])
            if fault is not None:
                raise _dispute(look.show_frame, look.source, fault.rule, fault.reason)


def _dispute(frame_no: int, seat: int, rule: str, reason: str) -> Dispute:
    return Dispute(frame_no, seat, "a deck value", "the value the seat's revealed seed gives", rule,
                   f"seat {seat}'s frame {frame_no}: {reason}")

"""`act [action]` or `act [action, attachments]`: a seat's move (the first awaited seat of
`Awaiting("move")`), or a common action (resign, offer draw) played openly instead of a commitment in a
simultaneous step, which interrupts the step (everyone commits afresh in a new round).

Protocol 2 attachments (only where the action needs them):
- `["card", deck, epoch, position, M, proof]` for every dealt card the action shows (the engine says
  which: `Game.reveals`): M is the seat's card at that position, proven to be its own layer removed
  from the dealt value, so a card never dealt to the seat, or shown before, is a live dispute;
- `["release", deck, epoch, first, values, proofs]` for every live deck epoch on which a resigning seat
  still has a layer: its layer removed from every undealt position, so nobody waits for it later;
- `["seen", deck, epoch, position, M, proof]` on the looker's first action after a look at another
  seat's hand (a spy taking a card it saw): M is the card at that position of the source's hand,
  proven from the look's show value with the looker's look key (replays.look). The rules' `reveals`
  names the cards of that action; they come from the look, not from the looker's own hand.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.core import interrupts_step
from replays import deck as D
from replays import look as L
from replays.ledger.errors import Dispute
from replays.ledger.kinds.base import FrameKind, Ledger, Transition, bad_body
from replays.ledger.values import Event

NAME = "act"
SHAPE = "[action text] or [action text, [attachment, ...]]"
MAX_ACTION = 256


def parse(led: Ledger, seat: int, body: tuple, no: int) -> tuple[str, tuple]:
    if (len(body) not in (1, 2) or type(body[0]) is not str or not 0 < len(body[0]) <= MAX_ACTION
            or (len(body) == 2 and (led.protocol < 2 or type(body[1]) is not tuple or not body[1]
                                    or not all(type(a) is tuple and a and a[0] in ("card", "release", "seen")
                                               for a in body[1])))):
        raise bad_body(seat, NAME, no, SHAPE if led.protocol >= 2 else "[action text]")
    return body[0], (body[1] if len(body) == 2 else ())


def check(led: Ledger, seat: int, body: tuple, no: int, interrupt: bool = False) -> Transition:
    action, attachments = parse(led, seat, body, no)
    if interrupt and not interrupts_step(action):
        raise Dispute(no, seat, action, "a commit frame, or a common action (resign, offer draw)",
                      "simultaneous choices are committed",
                      f"seat {seat} played {action!r} openly in a simultaneous step instead of committing it")
    releases = _releases(led, seat, action, [a for a in attachments if a[0] == "release"], no)
    look = led.look if led.look is not None and led.look.open and led.look.spy == seat else None
    shown = _shown(led, seat, action, attachments, no, look)
    new_state = led.play(led.state, seat, action, no)

    def done() -> None:
        led.events.append(Event(no, no, "play", seat, action, action))
        for ep, entry, undealt in releases:
            ep.cards[entry.first:] = list(entry.values)
            ep.layers.remove(seat)
            ep.releases.append((no, seat, entry, undealt))
        for deal, card in shown:
            deal.shown, deal.card = no, card
        if look is not None:
            look.open = False   # the looker has acted on what it saw
        if interrupt:
            led.round = None  # the step is interrupted: everyone commits afresh afterwards
    return new_state, done


def _live(led: Ledger, seat: int) -> list:
    """The deck epochs on which `seat` still has a layer over undealt cards."""
    return [ep for ep in led.decks.values() if seat in ep.layers and ep.ready and ep.next < len(ep.pool)]


def _releases(led: Ledger, seat: int, action: str, entries: list[tuple], no: int) -> list:
    live = _live(led, seat) if action == "resign" else []
    if len(entries) != len(live):
        need = ", ".join(f"{ep.deck} epoch {ep.epoch}" for ep in live) or "none"
        raise Dispute(no, seat, f"{len(entries)} release(s)", f"one per live deck the seat has a layer on ({need})",
                      "resign release", f"seat {seat}'s {action} does not release exactly its live decks")
    out: list[tuple[Any, D.Release, Any]] = []
    for raw in entries:
        entry = D.Release.from_wire(raw[1:])
        if isinstance(entry, D.DeckFault):
            raise Dispute(no, seat, "a release", "[deck, epoch, first, values, proofs]", entry.rule, entry.reason)
        ep = led.decks.get((entry.deck, entry.epoch))
        if ep is None or ep not in live or entry.first != ep.next or any(o[0] is ep for o in out):
            raise Dispute(no, seat, f"a release of {entry.deck} epoch {entry.epoch} from {entry.first}",
                          "a live deck once, from its next position", "resign release",
                          f"seat {seat}'s release names no live deck of its, or the wrong position")
        undealt = ep.undealt()
        fault = D.check_release(led.session, seat, ep.publics[seat], entry, undealt)
        if fault is not None:
            raise Dispute(no, seat, "a release", "its layer removed from every undealt card, proven", fault.rule,
                          f"seat {seat}'s release is refused: {fault.reason}")
        out.append((ep, entry, undealt))
    return out


def _shown(led: Ledger, seat: int, action: str, attachments: tuple, no: int, look) -> list:
    """The dealt cards the action shows, each proven: from the seat's own hand (`card`), or right after a
    look, from the hand it looked at (`seen`: then every card the action shows comes from there)."""
    reveals = led.game.reveals(led.state, seat, action)
    if not reveals and not attachments:
        return []   # the common case: an action that shows no dealt card, and nothing attached
    expected = Counter(reveals)
    want = "seen" if look is not None else "card"
    out = []
    got: Counter = Counter()
    seen: set = set()
    for raw in attachments:
        if raw[0] == "release":
            continue
        if raw[0] != want or len(raw) != 6 or type(raw[1]) is not str or type(raw[2]) is not int \
                or type(raw[3]) is not int:
            raise bad_body(seat, NAME, no, f'["{want}", deck, epoch, position, point, proof]')
        _, deck, epoch, position, point, proof = raw
        ep = led.decks.get((deck, epoch))
        deal = None if ep is None else ep.deals.get(position)
        card: int | D.DeckFault
        if look is not None:
            card = _seen_card(led, seat, look, ep, deal, point, proof, no)
        else:
            if ep is None or deal is None or deal.drawer != seat or deal.shown is not None:
                raise Dispute(no, seat, f"card {position} of {deck} epoch {epoch}", "a card dealt to the seat and "
                              "not shown before", "reveal proof", f"seat {seat} shows a card that was never dealt "
                              "to it, or was shown already")
            table = D.card_table(led.session, deck, epoch, ep.pool)
            card = D.check_reveal(led.session, seat, deck, epoch, position, ep.publics[seat], deal.last, point,
                                  proof, table)
            if isinstance(card, D.DeckFault):
                raise Dispute(no, seat, "a shown card", "the seat's own dealt card, proven", card.rule,
                              f"seat {seat}'s shown card is refused: {card.reason}")
        if (deck, epoch, position) in seen:
            raise Dispute(no, seat, f"card {position} of {deck} epoch {epoch} twice", "each card once",
                          "reveal proof", f"seat {seat} shows one card twice")
        seen.add((deck, epoch, position))
        got[(deck, card)] += 1
        out.append((deal, card))
    if got != expected:
        raise Dispute(no, seat, f"{action!r} showing {sorted(got.elements())}",
                      f"the cards the action plays: {sorted(expected.elements())}", "reveal proof",
                      f"seat {seat}'s {action!r} does not show exactly the cards it plays")
    return out


def _seen_card(led: Ledger, seat: int, look, ep, deal, point, proof, no: int) -> int:
    """The type of a card the looker saw and now shows (a `seen` attachment), proven."""
    at = next((i for i, (e, d) in enumerate(look.cards) if e is ep and d is deal), None)
    if at is None or deal.shown is not None:
        raise Dispute(no, seat, "a seen card", f"a card of seat {look.source}'s hand it looked at, not shown since",
                      L.RULE_SEEN_PROOF, f"seat {seat} shows a card it did not see in seat {look.source}'s hand")
    card = L.check_seen(led.session, seat, ep.deck, ep.epoch, deal.position, look.public, look.shows[at], point,
                        proof, D.card_table(led.session, ep.deck, ep.epoch, ep.pool))
    if isinstance(card, D.DeckFault):
        raise Dispute(no, seat, "a seen card", "the card at that position of the hand it looked at, proven",
                      card.rule, f"seat {seat}'s seen card is refused: {card.reason}")
    return card


def attachments(led: Ledger, action: str) -> tuple:
    """Our own attachments for `action`: releases for a resignation, shown cards for a play of dealt cards.
    IllegalAction-free: a card we do not hold is a RuntimeError (our engine let us play it)."""
    me = led.need_me()
    if action == "resign":
        return tuple(("release", *D.release(me.seed, led.session, me.seat, ep.deck, ep.epoch, ep.next,
                                            ep.undealt()).to_wire()) for ep in _live(led, me.seat))
    look = led.look
    if look is not None and look.open and look.spy == me.seat:
        return _seen_attachments(led, look, action)
    out = []
    used: set = set()
    for deck, card in led.game.reveals(led.state, me.seat, action):
        found = next(((ep, deal) for ep in reversed(list(led.decks.values())) if ep.deck == deck
                      for deal in ep.deals.values()
                      if deal.drawer == me.seat and deal.card == card and deal.shown is None
                      and (ep.key, deal.position) not in used), None)
        if found is None:
            raise RuntimeError(f"seat {me.seat} holds no unshown card of type {card} from deck {deck!r}")
        ep, deal = found
        used.add((ep.key, deal.position))
        made = D.reveal(me.seed, led.session, me.seat, ep.deck, ep.epoch, deal.position, deal.last)
        out.append(("card", ep.deck, ep.epoch, deal.position, made.value, made.proof))
    return tuple(out)


def _seen_attachments(led: Ledger, look, action: str) -> tuple:
    """Our `seen` attachments: the cards the action shows, taken from the hand we looked at."""
    me = led.need_me()
    out = []
    used: set = set()
    for deck, card in led.game.reveals(led.state, me.seat, action):
        at = next((i for i, ((ep, deal), t) in enumerate(zip(look.cards, look.seen, strict=True))
                   if ep.deck == deck and t == card and deal.shown is None and i not in used), None)
        if at is None:
            raise RuntimeError(f"seat {me.seat} saw no card of type {card} from deck {deck!r} in seat "
                               f"{look.source}'s hand")
        used.add(at)
        ep, deal = look.cards[at]
        made = L.open_seen(me.seed, led.session, me.seat, look.index, ep.deck, ep.epoch, deal.position,
                           look.shows[at])
        out.append(("seen", ep.deck, ep.epoch, deal.position, made.value, made.proof))
    return tuple(out)


KIND = FrameKind(NAME, SHAPE, check)

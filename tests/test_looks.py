"""A seat's hand shown to one other seat only (a spy's look: the `peek` and `show` frames and the
`seen` attachment, replays.look), proven on Toy Deck with spy=on (tests/support/deckgame.py) and on Catan:
Cities & Knights with spy=private: only the spy learns the hand, the card it takes is proven to come
from that hand, and every lie by the spy or by the spied seat is a dispute naming it, live or by the
audit."""

from __future__ import annotations

import random

import pytest
from support.deckgame import DECK_GAME, NAMES
from support.ledgerkit import forge, play_out
from support.spybot import SpyFirst

import engines
from bots.lib import RandomBot
from engines.core import HIDDEN
from replays import deck as D
from replays import look as L
from replays.curve import BASE, add, mul, mul_base, scalar_from_wide
from replays.ledger import Dispute, Ledger
from replays.ledger.decks import audit, undisclosed
from replays.local import SignedMatch

OPTIONS = {"spy": "on"}


def _match(players: int, seed: int) -> SignedMatch:
    return SignedMatch(DECK_GAME, RandomBot(), seed=seed, players=players, reproducible=True, options=OPTIONS)


def _spectator(match: SignedMatch) -> Ledger:
    spectator = Ledger(match.header, None, DECK_GAME)
    for frame in match.ledgers[0].frames:
        spectator.accept(frame.encode())
    return spectator


def _until(match: SignedMatch, kind: str, skip: int = 0) -> tuple[str, int]:
    for _ in range(5000):
        nxt = match.expects()
        assert nxt, "the game ended first"
        if nxt[0] == kind and (kind != "peek" or _cards_under_look(match)):
            if skip == 0:
                return nxt[0]
            skip -= 1
        match.step()
    raise AssertionError("never reached")


def _cards_under_look(match: SignedMatch) -> bool:
    ledger = match.ledgers[0]
    return bool(undisclosed(ledger, ledger.show_chance().source))


def _look(match: SignedMatch):
    chance = match.ledgers[0].show_chance()
    return chance.private_to, chance.source


# --------------------------------------------------------------------------------------- the honest game


@pytest.mark.parametrize("players", [2, 3])
def test_only_the_spy_sees_the_hand_and_the_audit_agrees(players):
    looks = 0
    for seed in range(3):
        match = _match(players, seed)
        while match.expects() is not None:
            frame = match.step()
            if frame.kind != "show":
                continue
            looks += 1
            spy, target = _look_of(match)
            hand = match.ledgers[target].state.inner.hands[target]
            for seat, ledger in enumerate(match.ledgers):
                seen = ledger.state.inner.seen
                assert seen == (tuple(hand.count(c) for c in range(len(NAMES))) if seat == spy else None)
            # nothing on the chain is a card point in clear
            look = match.ledgers[0].look
            points = {p for ep, _ in look.cards for p in D.card_points(match.header.session, ep.deck, ep.epoch,
                                                                       ep.pool)}
            assert look.cards and not points & {*look.peeks, *look.shows}
        assert all(ledger.status == "complete" for ledger in match.ledgers)
        spectator = _spectator(match)
        assert spectator.status == "complete" and spectator.looks
        # the audit knows every look's value, the spy's ledger knew it live
        for ev in spectator.events:
            if ev.look is not None:
                assert ev.value is HIDDEN and ev.full is not None and sum(ev.full) == len(ev.look.cards)
    assert looks > 3


def _look_of(match: SignedMatch) -> tuple[int, int]:
    look = match.ledgers[0].look
    return look.spy, look.source


def test_the_steal_proves_the_card_and_marks_it_shown():
    match = _match(3, seed=4)
    _until(match, "peek")
    spy, target = _look(match)
    match.step()
    match.step()    # peek, show
    nxt = match.ledgers[0].expects()
    assert nxt == [("act", spy)]
    steal = match.next_frame()
    assert steal.body[0].startswith("steal ")
    (seen,) = steal.body[1]
    assert seen[0] == "seen"
    match.deliver(steal)
    for ledger in match.ledgers:
        deal = ledger.decks[(seen[1], seen[2])].deals[seen[3]]
        assert deal.drawer == target and deal.shown == steal.seq
        assert NAMES[deal.card] == steal.body[0].split()[1]
    play_out(match)
    assert _spectator(match).status == "complete"


def test_a_restarted_spy_sees_the_same_hand_again_from_its_seed():
    match, spy, target = _after_show()
    again = Ledger(match.header, match.secrets[spy], DECK_GAME)
    for frame in match.ledgers[0].frames:
        again.accept(frame.encode())
    assert again.state.inner.seen == match.ledgers[spy].state.inner.seen is not None
    assert again.look.seen == match.ledgers[spy].look.seen
    match.ledgers[spy] = again
    play_out(match)
    assert all(ledger.status == "complete" for ledger in match.ledgers)


# --------------------------------------------------------------------------------------- attacks


def _forge_next(match: SignedMatch, seat: int, kind: str, body) -> bytes:
    ledger = match.ledgers[(seat + 1) % len(match.ledgers)]
    return forge(ledger, match.secrets[seat].key, seat, kind, body)


def _honest_body(match: SignedMatch, seat: int) -> tuple:
    frame = match.ledgers[seat].build_next()
    return frame.body


def _refused(match: SignedMatch, seat: int, kind: str, body, by: int = 1) -> Dispute:
    """The dispute that seat (seat + by)'s ledger raises for the forged frame (a ledger halts at its
    first dispute: a second attack goes to another ledger)."""
    other = (seat + by) % len(match.ledgers)
    with pytest.raises(Dispute) as info:
        match.ledgers[other].accept(forge(match.ledgers[other], match.secrets[seat].key, seat, kind, body))
    return info.value


def test_a_wrong_peek_value_is_the_spys_dispute():
    match = _match(3, seed=4)
    _until(match, "peek")
    spy, _ = _look(match)
    public, entries = _honest_body(match, spy)
    entry = list(entries[0])
    entry[3] = add(entry[3], entry[3])
    dispute = _refused(match, spy, "peek", (public, (tuple(entry), *entries[1:])))
    assert (dispute.seat, dispute.rule) == (spy, L.RULE_PEEK_PROOF)


def test_a_peek_that_leaves_out_a_card_is_the_spys_dispute():
    match = _match(3, seed=4)
    _until(match, "peek")
    spy, _ = _look(match)
    public, entries = _honest_body(match, spy)
    dispute = _refused(match, spy, "peek", (public, entries[1:]))
    assert (dispute.seat, dispute.rule) == (spy, "look order")
    dispute = _refused(match, spy, "peek", (public, tuple(reversed(entries))) if len(entries) > 1 else
                       (public, ((entries[0][0], entries[0][1], entries[0][2] + 1, *entries[0][3:]),)), by=2)
    assert (dispute.seat, dispute.rule) == (spy, "look order")


def test_a_peek_with_the_identity_as_its_key_is_refused():
    """J = O would let the spy later 'prove' any card it likes (every point satisfies j = 0)."""
    match = _match(2, seed=4)
    _until(match, "peek")
    spy, _ = _look(match)
    _, entries = _honest_body(match, spy)
    identity = bytes([1]) + bytes(31)
    dispute = _refused(match, spy, "peek", (identity, entries))
    assert (dispute.seat, dispute.rule) == (spy, L.RULE_PEEK_PROOF)


def test_a_wrong_show_value_is_the_spied_seats_dispute():
    match = _match(3, seed=4)
    _until(match, "peek")
    _, target = _look(match)
    match.step()
    body = [list(e) for e in _honest_body(match, target)]
    body[0][3] = add(body[0][3], body[0][3])
    dispute = _refused(match, target, "show", tuple(tuple(e) for e in body))
    assert (dispute.seat, dispute.rule) == (target, L.RULE_SHOW_PROOF)
    body = _honest_body(match, target)
    dispute = _refused(match, target, "show", body[1:], by=2)
    assert (dispute.seat, dispute.rule) == (target, "frame format")


def _after_show(seed: int = 4, players: int = 3, skip: int = 0) -> tuple[SignedMatch, int, int]:
    match = _match(players, seed)
    _until(match, "peek", skip)
    spy, target = _look(match)
    match.step()
    match.step()
    return match, spy, target


def test_stealing_a_card_the_hand_does_not_hold_is_the_spys_dispute():
    match, spy, target = _after_show()
    look = match.ledgers[spy].look
    held = set(look.seen)
    missing = next(c for c in range(len(NAMES)) if c not in held)
    ep, deal = look.cards[0]
    made = L.open_seen(match.secrets[spy].seed, match.header.session, spy, look.index, ep.deck, ep.epoch,
                       deal.position, look.shows[0])
    attachment = ("seen", ep.deck, ep.epoch, deal.position, made.value, made.proof)
    dispute = _refused(match, spy, "act", (f"steal {NAMES[missing]}", (attachment,)))
    assert (dispute.seat, dispute.rule) == (spy, "reveal proof")
    # without its proof
    dispute = _refused(match, spy, "act", (f"steal {NAMES[look.seen[0]]}",), by=2)
    assert (dispute.seat, dispute.rule) == (spy, "reveal proof")


def test_a_made_up_card_point_in_a_steal_is_the_spys_dispute():
    match, spy, target = _after_show()
    look = match.ledgers[spy].look
    ep, deal = look.cards[0]
    wanted = next(c for c in range(len(NAMES)) if c != look.seen[0])
    table = D.card_table(match.header.session, ep.deck, ep.epoch, ep.pool)
    point = next(p for p, (_, t) in table.items() if t == wanted)
    made = L.open_seen(match.secrets[spy].seed, match.header.session, spy, look.index, ep.deck, ep.epoch,
                       deal.position, look.shows[0])
    attachment = ("seen", ep.deck, ep.epoch, deal.position, point, made.proof)
    dispute = _refused(match, spy, "act", (f"steal {NAMES[wanted]}", (attachment,)))
    assert (dispute.seat, dispute.rule) == (spy, L.RULE_SEEN_PROOF)


def test_a_steal_from_a_position_outside_the_look_is_the_spys_dispute():
    for skip in range(10):
        match, spy, target = _after_show(skip=skip)
        ledger = match.ledgers[spy]
        look = ledger.look
        inside = {(ep.key, d.position) for ep, d in look.cards}
        outside = [(ep, d) for ep in ledger.decks.values() for d in ep.deals.values()
                   if (ep.key, d.position) not in inside]
        if outside:
            break
    ep, deal = outside[0]
    made = L.open_seen(match.secrets[spy].seed, match.header.session, spy, look.index, ep.deck, ep.epoch,
                       deal.position, look.shows[0])
    attachment = ("seen", ep.deck, ep.epoch, deal.position, made.value, made.proof)
    dispute = _refused(match, spy, "act", (f"steal {NAMES[look.seen[0]]}", (attachment,)))
    assert (dispute.seat, dispute.rule) == (spy, L.RULE_SEEN_PROOF)


def test_a_look_key_not_from_the_seed_passes_live_and_the_audit_names_the_spy():
    """A spy that peeks with a key of its choice (not its seed's) breaks no proof, so every peer accepts
    the look; once the seeds are revealed the deck audit recomputes J and names the spy."""
    match = _match(2, seed=4)
    _until(match, "peek")
    spy, target = _look(match)
    ledger = match.ledgers[target]
    j = scalar_from_wide(random.Random(1).randbytes(64))
    public = mul_base(j)
    entries = []
    for ep, deal in undisclosed(ledger, target):
        z = mul(j, deal.last)
        ctx = D.deck_context(match.header.session, "peek", spy, ep.deck, ep.epoch, deal.position)
        entries.append((ep.deck, ep.epoch, deal.position, z,
                        D.dleq_prove(match.secrets[spy].seed, j, BASE, public, deal.last, z, ctx)))
    peek = forge(ledger, match.secrets[spy].key, spy, "peek", (public, tuple(entries)))
    ledger.accept(peek.encode())                  # every proof holds: accepted live
    ledger.accept(ledger.build_next().encode())   # the spied seat's show
    with pytest.raises(Dispute) as info:
        audit(ledger, {seat: secrets.seed for seat, secrets in enumerate(match.secrets)})
    assert (info.value.seat, info.value.rule, info.value.frame_no) == (spy, L.RULE_LOOK_KEY, peek.seq)


def test_a_withheld_show_is_claimed_and_answerable():
    match = _match(2, seed=4)
    _until(match, "peek")
    spy, target = _look(match)
    match.step()
    claim = match.ledgers[spy].build_timeout()
    match.deliver(claim)
    assert all(ledger.status == "claimed" and ledger.claim.kind == "show" for ledger in match.ledgers)
    match.step()   # the source answers with its show: the claim is void
    assert all(ledger.status == "play" for ledger in match.ledgers)
    play_out(match)
    assert _spectator(match).status == "complete"


# --------------------------------------------------------------------------------------- Cities & Knights


def test_catan_ck_private_spy_over_the_ledger():
    """spy=private in C&K: the spy's look goes through peek/show, the take through `seen`, and the
    audit re-simulates every look with full knowledge."""
    game = engines.get("catan-ck")
    looked = 0
    for seed in range(40):
        match = SignedMatch(game, SpyFirst(), seed=seed, players=3, reproducible=True,
                            options={"spy": "private", "max_rounds": "30"})
        while match.expects() is not None:
            frame = match.step()
            if frame.kind == "show":
                looked += 1
                look = match.ledgers[0].look
                for seat, ledger in enumerate(match.ledgers):
                    seen = ledger.state.inner.ext.seen[look.spy]
                    assert (seen is not None) == (seat == look.spy)
                held = match.ledgers[look.source].state.inner.private[look.source].held
                assert match.ledgers[look.spy].state.inner.ext.seen[look.spy] == (look.source, held)
        assert all(ledger.status == "complete" for ledger in match.ledgers)
        if looked:
            assert _spectator_of(match, game).status == "complete"
            return
    pytest.fail("no spy was played in 40 seeded games")


def _spectator_of(match: SignedMatch, game) -> Ledger:
    spectator = Ledger(match.header, None, game)
    for frame in match.ledgers[0].frames:
        spectator.accept(frame.encode())
    return spectator

"""The shared secret deck through the ledger (protocol 2), proven on Toy Deck (tests/support/deckgame.py): every
dealt card is the drawer's secret, the audit decrypts every one, and each attack on the deck
(docs/security.md, "The shared deck and the spy's look") is caught, live or by the audit, naming the right seat
and rule."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from support.deckgame import DECK, DECK_GAME, NAMES, POOL, Drawer
from support.ledgerkit import forge, play_out

from bots.lib import RandomBot
from engines.core import Chance
from engines.referee import Referee
from replays import deck as D
from replays.audit import audit_bytes
from replays.ledger import Dispute, Ledger
from replays.local import SignedMatch, record_match, replay_bytes

GAMES = {DECK_GAME.id: DECK_GAME}


def _match(players: int, seed: int, bots=None) -> SignedMatch:
    return SignedMatch(DECK_GAME, bots or Drawer(), seed=seed, players=players, reproducible=True)


def _until(match: SignedMatch, kind: str, seat: int | None = None, skip: int = 0) -> None:
    for _ in range(5000):
        nxt = match.expects()
        assert nxt is not None, "the game ended first"
        if nxt[0] == kind and (seat is None or nxt[1] == seat):
            if skip == 0:
                return
            skip -= 1
        match.step()
    raise AssertionError("never reached")


def _spectator(match: SignedMatch) -> Ledger:
    spectator = Ledger(match.header, None, DECK_GAME)
    for frame in match.ledgers[0].frames:
        spectator.accept(frame.encode())
    return spectator


# --------------------------------------------------------------------------------------- the honest game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_card_is_the_drawers_secret_and_the_audit_decrypts_them_all(players):
    match = _match(players, seed=players)
    while match.ledgers[0].status == "play":   # until the seeds are revealed, no card is anyone else's
        match.step()
    for ledger in match.ledgers:
        for ep in ledger.decks.values():
            for deal in ep.deals.values():
                known = deal.drawer == ledger.me.seat or deal.shown is not None
                assert (deal.card is not None) == known, (ledger.me.seat, deal)
    play_out(match)
    assert all(ledger.status == "complete" for ledger in match.ledgers)
    spectator = _spectator(match)
    assert spectator.status == "complete" and spectator.resimulated
    epochs = list(spectator.decks.values())
    for ep in epochs:
        for position, deal in ep.deals.items():
            own = match.ledgers[deal.drawer].decks[ep.key].deals[position]
            assert own.card is not None and deal.card == own.card        # what the drawer saw, the audit decrypts
        # the cards dealt are the epoch's pool, copy for copy
        if ep.next == len(ep.pool):
            assert sorted(d.card for d in ep.deals.values()) == list(ep.pool)
    assert epochs[0].pool == POOL
    verdict = audit_bytes(replay_bytes(_record(match)), GAMES)
    assert verdict.status == "valid", verdict.reason


def _record(match: SignedMatch):
    from replays.local import LocalRecord
    return LocalRecord(match.header, match.ledgers[0].frames, match.ledgers[0].result, None)


def test_a_refill_is_a_new_epoch_shuffled_by_every_seat_still_in():
    match = _match(3, seed=8)
    play_out(match)
    spectator = _spectator(match)
    assert len(spectator.decks) >= 2, "no refill happened"
    first, second = list(spectator.decks.values())[:2]
    assert second.epoch == first.epoch + 1 and second.pool != POOL and second.pool == tuple(sorted(second.pool))
    assert [seat for _, seat in second.shuffles] == list(second.shufflers) == [0, 1, 2]


def test_copies_of_one_type_are_different_points():
    points = D.card_points(bytes(16), DECK, 0, POOL)
    assert len(set(points)) == len(POOL)


def test_the_referee_deals_uniformly_over_the_remaining_cards():
    """A type with 5 copies left must come 5 times as often as one with 1 (chi-square, 3 degrees)."""
    counts: Counter = Counter()
    chance = Chance("deal", n=len(POOL), private_to=0, deck=DECK, pool=POOL)
    rng = random.Random(4)
    referee = Referee(DECK_GAME, 2, {}, 0)
    trials = 6000
    for _ in range(trials):
        counts[referee.outcome(chance, rng.randbytes(32))] += 1
    expected = Counter(POOL)
    chi2 = sum((counts[t] - trials * n / len(POOL)) ** 2 / (trials * n / len(POOL)) for t, n in expected.items())
    assert chi2 < 16.3, (chi2, counts)   # p < 0.001 for 3 degrees of freedom
    # and after some cards are gone, over what is left
    referee.dealt[(DECK, 0)] = [0, 0, 0, 0, 0]
    left = Chance("deal", n=len(POOL) - 5, private_to=0, deck=DECK, pool=POOL)
    assert {referee.outcome(left, rng.randbytes(32)) for _ in range(300)} == {1, 2, 3}
    assert math.isclose(sum(expected.values()), len(POOL))


def test_local_self_play_deals_every_copy():
    record = record_match(DECK_GAME, Drawer(), seed=3, players=2, write=False, reproducible=True)
    assert record.result is not None


# --------------------------------------------------------------------------------------- the failure table


def _shuffle_frame(match: SignedMatch, seat: int, cards: list[bytes], key_seed: bytes | None = None, proof=None):
    """A shuffle frame of `seat` with chosen output cards (and, unless given, an honest-looking proof
    built for those cards with its own key)."""
    ledger = match.ledgers[seat]
    chance = ledger.deal_chance()
    ep = ledger.decks.get((chance.deck, chance.epoch))
    inp = D.card_points(match.header.session, chance.deck, chance.epoch, chance.pool) if ep is None else ep.outputs[-1]
    seed = key_seed or match.secrets[seat].seed
    key = D.deck_key(seed, match.header.session, seat, chance.deck, chance.epoch)
    public = D.mul_base(key) if hasattr(D, "mul_base") else None
    from replays.curve import mul_base
    public = mul_base(key)
    if proof is None:
        perm = D.deck_permutation(seed, match.header.session, seat, chance.deck, chance.epoch, len(inp))
        proof = D._prove_shuffle(seed, match.header.session, seat, chance.deck, chance.epoch, tuple(inp), tuple(cards),
                                 public, key, perm).to_wire()
    return forge(ledger, match.secrets[seat].key, seat, "shuffle",
                 (chance.deck, chance.epoch, public, b"".join(cards), proof))


def _honest_cards(match: SignedMatch, seat: int) -> list[bytes]:
    body = match.ledgers[seat].build_next().body
    return [body[3][32 * j: 32 * j + 32] for j in range(len(body[3]) // 32)]


def test_a_copied_card_in_a_shuffle_is_a_live_dispute():
    match = _match(3, seed=1)
    _until(match, "shuffle", 1)
    cards = _honest_cards(match, 1)
    cards[3] = cards[0]
    with pytest.raises(Dispute) as info:
        match.ledgers[0].accept(_shuffle_frame(match, 1, cards))
    assert info.value.seat == 1 and info.value.rule == D.RULE_EQUAL_CARDS


def test_a_sum_preserving_swap_is_a_live_dispute():
    """Two cards a, b replaced by 2a and b - a keep the sum but are no permutation: the cut-and-choose
    proof fails (the sum proof of the prototype would have let it through)."""
    from replays.curve import add, sub
    match = _match(2, seed=2)
    _until(match, "shuffle", 0)
    cards = _honest_cards(match, 0)
    a, b = cards[0], cards[1]
    cards[0], cards[1] = add(a, a), sub(b, a)
    with pytest.raises(Dispute) as info:
        match.ledgers[1].accept(_shuffle_frame(match, 0, cards))
    assert info.value.seat == 0 and info.value.rule == D.RULE_SHUFFLE_PROOF


def test_a_shuffle_by_another_permutation_passes_live_but_the_audit_names_it():
    """A permutation the seat chose instead of its seed's (marked order) is still a permutation: the
    proof holds, and the audit, recomputing from the revealed seed, names the seat."""
    match = _match(2, seed=3)
    _until(match, "shuffle", 1)
    ledger = match.ledgers[1]
    chance = ledger.deal_chance()
    ep = ledger.decks[(chance.deck, chance.epoch)]
    inp = ep.outputs[-1]
    session = match.header.session
    seed = match.secrets[1].seed
    key = D.deck_key(seed, session, 1, chance.deck, chance.epoch)
    perm = list(range(len(inp)))              # the identity: an order the cheater knows
    from replays.curve import mul, mul_base
    cards = tuple(mul(key, inp[perm[j]]) for j in range(len(inp)))
    proof = D._prove_shuffle(seed, session, 1, chance.deck, chance.epoch, inp, cards, mul_base(key), key, perm)
    frame = forge(ledger, match.secrets[1].key, 1, "shuffle", (chance.deck, chance.epoch, mul_base(key),
                                                               b"".join(cards), proof.to_wire()))
    match.deliver(frame)   # accepted live
    with pytest.raises(Dispute) as info:   # ... and named when the seeds are revealed
        play_out(match)
    assert info.value.seat == 1 and info.value.rule == D.RULE_SHUFFLE and info.value.frame_no == frame.seq
    spectator = Ledger(match.header, None, DECK_GAME)
    with pytest.raises(Dispute) as audit:
        for f in match.ledgers[0].frames:
            spectator.accept(f.encode())
    assert (audit.value.seat, audit.value.rule, audit.value.frame_no) == (1, D.RULE_SHUFFLE, frame.seq)


def test_a_wrong_strip_is_a_live_dispute():
    match = _match(3, seed=4)
    _until(match, "strip", 2)
    honest = match.ledgers[2].build_next()
    body = list(honest.body)
    from replays.curve import add
    body[3] = add(body[3], body[3])        # another point, the honest proof
    with pytest.raises(Dispute) as info:
        match.ledgers[0].accept(forge(match.ledgers[0], match.secrets[2].key, 2, "strip", tuple(body)))
    assert info.value.seat == 2 and info.value.rule == D.RULE_STRIP_PROOF


def test_a_false_spoiled_claim_is_the_drawers_dispute():
    match = _match(2, seed=5)
    _until(match, "strip")
    drawer = match.ledgers[0].deal_chance().private_to
    match.step()                            # the deal completes (2 seats: one strip)
    ledger = match.ledgers[drawer]
    (deck, epoch), position = ledger.last_deal
    deal = ledger.decks[(deck, epoch)].deals[position]
    made = D.spoil(match.secrets[drawer].seed, match.header.session, drawer, deck, epoch, position, deal.last)
    other = match.ledgers[1 - drawer]
    with pytest.raises(Dispute) as info:
        other.accept(forge(other, match.secrets[drawer].key, drawer, "spoiled", (deck, epoch, position, made.value,
                                                                               made.proof)))
    assert info.value.seat == drawer and info.value.rule == D.RULE_SPOILED_CARD


def test_a_resignation_without_its_release_is_a_dispute_and_with_it_the_game_goes_on():
    match = _match(3, seed=6)
    _until(match, "act", 2, skip=3)          # the deck is live by now
    ledger = match.ledgers[2]
    assert any(2 in ep.layers for ep in ledger.decks.values())
    with pytest.raises(Dispute) as info:
        match.ledgers[0].accept(forge(match.ledgers[0], match.secrets[2].key, 2, "act", ("resign",)))
    assert info.value.seat == 2 and info.value.rule == "resign release"
    match = _match(3, seed=6)
    _until(match, "act", 2, skip=3)
    resign = match.ledgers[2].build_action("resign")
    assert resign.body[1] and resign.body[1][0][0] == "release"
    match.deliver(resign)
    assert all(2 not in ep.layers for ep in match.ledgers[0].decks.values())
    play_out(match)
    assert all(ledger.status == "complete" for ledger in match.ledgers)
    spectator = _spectator(match)
    assert spectator.status == "complete"
    later = [ep for ep in spectator.decks.values() if ep.epoch > 0]
    assert all(2 not in ep.shufflers for ep in later)


def _ready_to_play(seed: int = 7):
    """A 2-seat match where seat 0 holds a card and may play it now; the card's deal."""
    match = _match(2, seed=seed)
    for _ in range(2000):
        if match.expects() == ("act", 0) and any(a.startswith("play")
                                                 for a in match.game.legal(match.ledgers[0].state, 0)):
            ledger = match.ledgers[0]
            deal = next(d for ep in ledger.decks.values() for d in ep.deals.values()
                        if d.drawer == 0 and d.shown is None)
            return match, deal
        match.step()
    raise AssertionError("seat 0 never held a card")


def test_a_card_played_without_showing_it_is_a_live_dispute():
    match, deal = _ready_to_play()
    other = match.ledgers[1]
    with pytest.raises(Dispute) as info:
        other.accept(forge(other, match.secrets[0].key, 0, "act", (f"play {NAMES[deal.card]}",)))
    assert info.value.seat == 0 and info.value.rule == "reveal proof"


def test_a_card_dealt_to_another_seat_is_a_live_dispute():
    match, deal = _ready_to_play(seed=10)
    other = match.ledgers[1]
    theirs = [d for ep in other.decks.values() for d in ep.deals.values() if d.drawer == 1]
    if not theirs:
        pytest.skip("seat 1 holds no card at this point of seed 10")
    target = theirs[0]
    made = D.reveal(match.secrets[0].seed, match.header.session, 0, DECK, 0, target.position, target.last)
    with pytest.raises(Dispute) as info:
        other.accept(forge(other, match.secrets[0].key, 0, "act",
                           (f"play {NAMES[deal.card]}", (("card", DECK, 0, target.position, made.value, made.proof),))))
    assert info.value.seat == 0 and info.value.rule == "reveal proof"


def test_a_card_shown_twice_is_a_live_dispute():
    match, deal = _ready_to_play()
    play = match.ledgers[0].build_action(f"play {NAMES[deal.card]}")
    match.deliver(play)
    for _ in range(500):
        if match.expects() == ("act", 0):
            break
        match.step()
    other = match.ledgers[1]
    with pytest.raises(Dispute) as info:
        other.accept(forge(other, match.secrets[0].key, 0, "act", (play.body[0], play.body[1])))
    assert info.value.seat == 0 and info.value.rule == "reveal proof"


def test_a_withheld_shuffle_is_claimed():
    match = _match(2, seed=9)
    _until(match, "shuffle", 1)
    claim = match.ledgers[0].build_timeout()
    match.deliver(claim)
    assert all(ledger.status == "claimed" and ledger.claim.kind == "shuffle" for ledger in match.ledgers)
    match.deliver(match.ledgers[0].build_after_claim())
    play_out(match)
    assert all(ledger.status == "unfinished" and ledger.blame == 1 for ledger in match.ledgers)


def test_decks_over_time_bots_still_win_by_the_rules():
    """Random bots through the signed protocol: the game result matches the full-knowledge referee's
    replay of the same actions and deals."""
    match = _match(2, seed=12, bots=RandomBot())
    play_out(match)
    spectator = _spectator(match)
    assert spectator.result == match.ledgers[0].result


def test_a_peer_holding_two_seats_keeps_each_seats_cards_from_the_other():
    """One book for seats 0 and 1 (one peer, two bots or two people): each seat's ledger, the
    state its decider is given, knows its own cards and no card of the neighbour seat."""
    from netplay.protocol.book import Book

    match = _match(3, seed=5)
    book = Book(match.header, [match.secrets[0], match.secrets[1]], game=DECK_GAME)
    own = {0: 0, 1: 0}
    while match.ledgers[0].status in ("open", "play"):   # until the seeds are revealed
        before = len(match.ledgers[0].frames)
        match.step()
        for frame in match.ledgers[0].frames[before:]:
            book.accept(frame.encode())
        for seat in (0, 1):
            ledger = book.ledger_for(seat)
            assert ledger.state == match.ledgers[seat].state   # exactly what that seat alone would know
            for ep in ledger.decks.values():
                for deal in ep.deals.values():
                    if deal.shown is None:
                        assert (deal.card is not None) == (deal.drawer == seat), (seat, deal)
                        own[seat] += deal.drawer == seat
    assert own[0] and own[1], own   # both seats were dealt secret cards while the test looked

"""Cities & Knights refill epochs through the signed protocol (issue 14): a progress deck drawn empty
takes its public under pile as the next epoch, which every seat still in the game shuffles again, in
seat order, before its first deal; the audit then decrypts every card of every epoch. Played as a
reproducible SignedMatch of eager bots (one Ledger per seat, every frame accepted from its bytes), once
with all four seats and once with a seat that resigns (releasing its layers) just before the refill.

The seed is fixed: it was found by a bounded search as a short game whose politics deck runs out and
refills by round 18 (NETPLAY_LONG=1 also plays whole games of seeds 0 to 5, five of which refill a deck,
seed 5 its politics deck nine times, and checks every epoch of them)."""

from __future__ import annotations

from collections import Counter

import pytest
from support.catan_ck import EagerBot
from support.quick import LONG

import engines
from replays.audit import run_ledger
from replays.local import LocalRecord, SignedMatch, replay_bytes
from replays.reader import parse_replay

GAME = engines.get("catan-ck")
SEED = 5
ROUNDS = "20"


class ResignsBeforeRefill(EagerBot):
    """The eager bot, until some deck has at most two cards left: then it resigns at once."""

    name = "resigner"

    def choose(self, game, state, seat, legal, rng) -> str:
        if min(state.inner.ext.pool) <= 2 and "resign" in legal:
            return "resign"
        return super().choose(game, state, seat, legal, rng)


def _play(seed: int, resigner: bool, rounds: str = ROUNDS) -> tuple[SignedMatch, dict]:
    """Play the match out; for every epoch after the first, the seats in the game when its first
    shuffle frame came, and that resignations came with a release of every live deck the seat had a
    layer on."""
    bots = [EagerBot() for _ in range(3)] + [ResignsBeforeRefill() if resigner else EagerBot()]
    match = SignedMatch(GAME, bots, seed=seed, players=4, reproducible=True, options={"max_rounds": rounds})
    in_game: dict[tuple[str, int], tuple[int, ...]] = {}
    while match.expects() is not None:
        before = match.ledgers[0]
        playing = tuple(s for s in range(4) if s not in before.state.out)
        layers = {ep.key: tuple(ep.layers) for ep in before.decks.values()}
        frame = match.step()
        if frame.kind == "shuffle":
            key = next(ep.key for ep in before.decks.values() if ep.shuffles and ep.shuffles[-1][0] == frame.seq)
            in_game.setdefault(key, playing)
        if frame.kind == "act" and frame.body[0] == "resign":
            released = {(a[1], a[2]) for a in frame.body[1] if a[0] == "release"}
            live = {key for key, seats in layers.items() if frame.seat in seats}
            assert released == live, "a resignation releases exactly the live decks the seat has a layer on"
    assert all(ledger.status == "complete" for ledger in match.ledgers)
    return match, in_game


def _audited(match: SignedMatch):
    """The audit of the match's replay file: its verdict and the spectator ledger it ran."""
    ledger = match.ledgers[0]
    data = replay_bytes(LocalRecord(match.header, ledger.frames, ledger.result, None))
    spectator, verdict = run_ledger(parse_replay(data))
    assert verdict.status == "valid", verdict.reason
    return spectator


def _check_refill(match: SignedMatch, in_game: dict) -> list:
    spectator = _audited(match)
    refills = [ep for ep in spectator.decks.values() if ep.epoch > 0]
    assert refills, "no progress deck was refilled"
    for ep in spectator.decks.values():
        # every seat still in the game when the epoch began shuffled it, in seat order
        assert ep.shufflers == in_game[ep.key], ep.key
        assert [seat for _, seat in ep.shuffles] == list(ep.shufflers), ep.key
        # the audit decrypted every card dealt, and it is the card the drawer saw live
        for position, deal in ep.deals.items():
            assert deal.done and deal.card is not None, (ep.key, position)
            own = match.ledgers[deal.drawer].decks[ep.key].deals[position]
            assert own.card == deal.card, (ep.key, position)
        assert not Counter(d.card for d in ep.deals.values()) - Counter(ep.pool), ep.key
    for ep in refills:
        # the refill's pool is the under pile: cards of this deck dealt in earlier epochs and played since
        earlier = Counter(d.card for e in spectator.decks.values() if e.deck == ep.deck and e.epoch < ep.epoch
                          for d in e.deals.values())
        assert ep.pool == tuple(sorted(ep.pool)) and ep.deals
        assert not Counter(ep.pool) - earlier, ep.key
    return refills


def test_a_refill_epoch_is_shuffled_by_every_seat_and_the_audit_decrypts_every_card():
    match, in_game = _play(SEED, resigner=False)
    refills = _check_refill(match, in_game)
    assert all(ep.shufflers == (0, 1, 2, 3) for ep in refills)


def test_a_refill_after_a_resignation_is_shuffled_by_the_seats_still_in():
    match, in_game = _play(SEED, resigner=True)
    assert match.ledgers[0].state.out == (3,)
    refills = _check_refill(match, in_game)
    assert all(ep.shufflers == (0, 1, 2) for ep in refills)
    first = next(ep for ep in match.ledgers[0].decks.values() if ep.epoch == 0 and ep.releases)
    assert 3 not in first.layers


@pytest.mark.skipif(not LONG, reason="NETPLAY_LONG=1: whole games of more seeds")
@pytest.mark.parametrize("seed", range(6))
def test_every_refill_of_whole_games_verifies(seed):
    match, in_game = _play(seed, resigner=False, rounds="0")
    if any(ep.epoch > 0 for ep in match.ledgers[0].decks.values()):
        _check_refill(match, in_game)
    else:
        _audited(match)

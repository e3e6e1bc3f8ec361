"""The ledger: the one validator of frames, for live peers and the audit alike.

The hidden-information paths (private draws, simultaneous choices, secrets kept until the end) are
proven with `CardsGame`, a tiny game that lives only in the tests (tests/support/ledgerkit.py, with the
cheat's engine and bot and the frame forger the other replay tests share).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import quick
from support.ledgerkit import CARDS, GAMES, DealGame, LyingBot, LyingCards, forge, observer, play_out, run_until

import engines
from bots.lib import RandomBot
from engines.core import HIDDEN, Game, IllegalAction
from replays.audit import audit_replay
from replays.crypto import generate_key
from replays.frames import make_frame
from replays.ledger import Dispute, Ledger, Rejected
from replays.local import SignedMatch, record_match, replay_bytes
from replays.randomness import DealUnsupported, choice_commitment, salt_for
from replays.reader import parse_replay

# ---------------------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("game_id", "players"), [(g, p) for g, game in engines.GAMES.items() for p in game.players])
def test_every_game_round_trips_through_the_ledger(game_id, players, tmp_path):
    record = record_match(game_id, RandomBot(), seed=5, players=players, path=tmp_path / "r.npr", sync=False,
                          options=quick.options(game_id))
    assert record.result is not None
    assert all(ledger.status == "complete" for ledger in record.ledgers)
    hashes = {tuple(f.hash for f in ledger.frames) for ledger in record.ledgers}
    assert len(hashes) == 1, "every seat holds the same chain"
    verdict = audit_replay(parse_replay((tmp_path / "r.npr").read_bytes()))
    assert verdict.status == "valid", verdict.reason
    assert verdict.result["winners"] == list(record.result.winners)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3]), chain=st.integers(1, 4))
def test_hidden_information_game_round_trips(seed, players, chain):
    record = record_match(CARDS, RandomBot(), seed=seed, players=players, write=False, chain_length=chain)
    assert [ledger.status for ledger in record.ledgers] == ["complete"] * players
    verdict = audit_replay(parse_replay(replay_bytes(record)), GAMES)
    assert verdict.status == "valid", verdict.reason
    # each seat knew its own hand and nobody else's while playing
    spectator = Ledger(record.header, None, CARDS)
    for frame in record.frames:
        spectator.accept(frame.encode())
    assert spectator.resimulated and spectator.hidden_events > 0


def test_knowledge_states_hide_other_seats_secrets():
    table = SignedMatch(CARDS, RandomBot(), seed=3, reproducible=True)
    run_until(table, lambda kind, seat: kind == "commit")
    zero, one = table.ledgers
    assert zero.state.inner.hands[0] != HIDDEN and zero.state.inner.hands[1] is HIDDEN
    assert one.state.inner.hands[1] != HIDDEN and one.state.inner.hands[0] is HIDDEN
    assert zero.digest == one.digest


def test_chance_values_are_shared_and_unbiased_by_construction():
    """The public die is the same for every seat and comes from every seat's chain value."""
    table = SignedMatch(CARDS, RandomBot(), seed=8, reproducible=True)
    run_until(table, lambda kind, seat: kind == "chain")
    table.step()
    table.step()
    bonuses = {ledger.state.inner.bonus for ledger in table.ledgers}
    assert len(bonuses) == 1 and 1 <= bonuses.pop() <= 6


# ---------------------------------------------------------------------------------------- rejected


def test_bad_frames_are_rejected_and_change_nothing():
    table = SignedMatch(CARDS, RandomBot(), seed=1, reproducible=True)
    for _ in range(3):
        table.step()
    ledger = observer(table)
    frame = table.next_frame()
    data = frame.encode()
    before = (len(ledger.frames), ledger.digest, ledger.last_hash, ledger.status)

    def rejected(bad, fragment):
        with pytest.raises(Rejected) as info:
            ledger.accept(bad)
        assert fragment in info.value.reason
        assert (len(ledger.frames), ledger.digest, ledger.last_hash, ledger.status) == before

    rejected(b"\x93garbage", "malformed")
    rejected(data[:-1], "malformed")
    flipped = bytearray(data)
    flipped[-10] ^= 1
    rejected(bytes(flipped), "bad signature")
    other_key = generate_key()
    rejected(make_frame(other_key, frame.session, frame.seq, frame.prev, frame.seat, frame.kind, frame.body,
                        frame.digest), "bad signature")
    rejected(make_frame(table.secrets[frame.seat].key, bytes(16), frame.seq, frame.prev, frame.seat, frame.kind,
                        frame.body, frame.digest), "another session")
    rejected(make_frame(table.secrets[frame.seat].key, frame.session, frame.seq + 1, frame.prev, frame.seat,
                        frame.kind, frame.body, frame.digest), "out of order")
    rejected(make_frame(table.secrets[frame.seat].key, frame.session, frame.seq, bytes(32), frame.seat,
                        frame.kind, frame.body, frame.digest), "does not chain")
    rejected(ledger.frames[1].encode(), "replayed")
    ledger.accept(data)  # the genuine frame still goes through
    assert len(ledger.frames) == before[0] + 1


# ---------------------------------------------------------------------------------------- disputes


def test_a_signed_illegal_action_is_that_seats_rule_violation():
    game = engines.get("loyal-captain")
    table = SignedMatch(game, RandomBot(), seed=2, reproducible=True)
    run_until(table, lambda kind, seat: kind == "act")
    ledger = observer(table)
    seat = table.expects()[1]
    legal = game.legal(ledger.state, seat)
    bad = "step 1 1" if "step 1 1" not in legal else "step 99 99"
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "act", (bad,)).encode())
    d = info.value
    assert d.seat == seat and d.frame_no == len(ledger.frames) - 1 and d.claimed == bad
    with pytest.raises(IllegalAction) as reason:
        game.play(ledger.state, seat, bad)
    assert d.rule == reason.value.reason
    assert legal[0] in d.allowed
    assert ledger.status == "disputed"
    with pytest.raises(Rejected):
        ledger.accept(table.next_frame())


def test_out_of_turn_frame_is_a_dispute():
    table = SignedMatch(engines.get("ploc"), RandomBot(), seed=2, reproducible=True)
    run_until(table, lambda kind, seat: kind == "act")
    ledger = observer(table)
    seat = 1 - table.expects()[1]
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "act", ("done",)))
    assert info.value.rule == "turn order" and info.value.seat == seat


def test_a_changed_chain_value_is_caught_and_blamed():
    table = SignedMatch(CARDS, RandomBot(), seed=4, reproducible=True)
    run_until(table, lambda kind, seat: kind == "chain")
    seat = table.expects()[1]
    ledger = observer(table)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "chain", (bytes(32), None)))
    assert info.value.seat == seat and info.value.rule == "hash chain"


def test_a_changed_simultaneous_choice_is_caught_and_blamed():
    table = SignedMatch(CARDS, RandomBot(), seed=6, reproducible=True)
    run_until(table, lambda kind, seat: kind == "reveal")
    seat = table.expects()[1]
    ledger = table.ledgers[1 - seat]
    honest = ledger.round and ledger.round.number
    salt = salt_for(table.secrets[seat].seed, table.session, honest)
    committed = next(a for a in ("card 0", "card 1", "card 2")
                     if choice_commitment(table.session, honest, seat, a, salt) == ledger.round.commits[seat][0])
    changed = next(a for a in ("card 0", "card 1", "card 2") if a != committed)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "reveal", (changed, salt)))
    d = info.value
    assert d.seat == seat and d.rule == "choice commitment" and d.claimed == changed


def test_a_changed_secret_opening_or_seed_is_caught_at_the_end():
    table = SignedMatch(CARDS, RandomBot(), seed=7, reproducible=True)
    run_until(table, lambda kind, seat: kind == "seed")
    seat = table.expects()[1]
    genuine = table.ledgers[seat].build_seed()
    ledger = observer(table)
    seed, secret, openings = genuine.body
    other = "bet 2" if openings[0][0] == "bet 1" else "bet 1"
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "seed", (seed, secret, ((other, openings[0][1]),))))
    assert info.value.rule == "choice commitment" and info.value.seat == seat
    ledger = observer(table)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "seed", (bytes(32), secret, openings)))
    assert info.value.rule == "seed commitment"
    ledger = observer(table)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "seed", (seed, bytes(32), openings)))
    assert info.value.rule == "hash chain"


@pytest.mark.parametrize("cheat", [0, 1])
def test_playing_a_card_not_held_is_caught_when_the_seed_is_revealed(cheat):
    """Live peers can only check that a card is possible; the end re-simulation proves the lie."""
    table = SignedMatch(CARDS, RandomBot(), seed=9, reproducible=True)
    table.ledgers[cheat] = Ledger(table.header, table.secrets[cheat], Game(LyingCards()))
    table.bots[cheat] = LyingBot()
    with pytest.raises(Dispute) as info:
        play_out(table)
    d = info.value
    honest = table.ledgers[1 - cheat]
    assert d.seat == cheat and "does not hold that card" in d.rule
    assert honest.frames[d.frame_no].seat == cheat and honest.frames[d.frame_no].kind == "reveal"
    assert honest.status == "disputed"
    verdict = audit_replay(parse_replay(table.header.encode() + b"".join(f.encode() for f in honest.frames)), GAMES)
    assert verdict.status == "invalid" and verdict.blame == cheat
    assert verdict.dispute["frame"] == d.frame_no and "does not hold" in verdict.dispute["rule"]


def test_a_digest_mismatch_names_the_frame_and_both_digests():
    table = SignedMatch(engines.get("ploc"), RandomBot(), seed=3, reproducible=True)
    run_until(table, lambda kind, seat: kind == "act")
    seat = table.expects()[1]
    ledger = observer(table)
    action = table.game.legal(ledger.state, seat)[0]
    right = table.game.digest(table.game.play(ledger.state, seat, action))
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "act", (action,), bytes(32)))
    d = info.value
    assert d.rule == "state digest" and d.claimed == bytes(32).hex() and d.allowed == right.hex()
    assert "desync" in d.reason and str(d.frame_no) in str(d)


def test_a_wrong_cosignature_is_a_dispute():
    table = SignedMatch(engines.get("quedah-merchant"), RandomBot(), seed=3, reproducible=True)
    run_until(table, lambda kind, seat: kind == "final")
    seat = table.expects()[1]
    ledger = observer(table)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[seat].key, seat, "final", (ledger.digest, (), (0, 0), "made up")))
    assert info.value.rule == "final result"


# ---------------------------------------------------------------------------------------- timeouts, resume, odd paths


def _claimed(seed: int = 11):
    """A 2-seat table where seat 0 claims that seat 1 withheld its reveal; the claim is open."""
    table = SignedMatch(CARDS, RandomBot(), seed=seed, reproducible=True)
    run_until(table, lambda kind, seat: kind == "reveal" and seat == 1)
    with pytest.raises(RuntimeError):
        table.ledgers[1].build_timeout()  # nobody claims against itself
    claim = table.ledgers[0].build_timeout()
    table.deliver(claim)
    return table, claim


def _file_verdict(table):
    frames = table.ledgers[0].frames
    return audit_replay(parse_replay(table.header.encode() + b"".join(f.encode() for f in frames)), GAMES)


def test_a_claim_is_a_demand_the_blamed_seat_may_still_answer():
    table, claim = _claimed()
    assert all(ledger.status == "claimed" and ledger.blame is None for ledger in table.ledgers)
    assert table.expects() == ("reveal", 1)
    table.deliver(table.ledgers[1].build_reveal())         # the answer: the very frame the claim named
    assert all(ledger.claim is None and ledger.answered for ledger in table.ledgers)
    play_out(table)
    assert all(ledger.status == "complete" for ledger in table.ledgers)
    verdict = _file_verdict(table)
    assert verdict.status == "valid", verdict.reason
    assert any("answered" in note for note in verdict.notes), verdict.notes
    with pytest.raises(Rejected):
        table.ledgers[0].accept(claim)


def test_an_unanswered_claim_becomes_final_and_is_cosigned_as_a_forfeit():
    table, _ = _claimed()
    assert table.ledgers[1].build_after_claim() is None      # only the other seats close the window
    late = table.ledgers[1].build_reveal()
    table.deliver(table.ledgers[0].build_after_claim())      # seat 0's seed: the blamed seat did not answer
    assert all(ledger.claim is not None and not ledger.claim.open for ledger in table.ledgers)
    with pytest.raises(Rejected):                            # too late to answer now
        table.ledgers[0].accept(late)
    play_out(table)                                          # seat 0 co-signs the forfeit
    assert all(ledger.status == "unfinished" and ledger.blame == 1 for ledger in table.ledgers)
    assert table.ledgers[0].frames[-1].kind == "final"
    assert table.ledgers[0].frames[-1].body[1:] == ((0,), (), "forfeit: seat 1 withheld its reveal frame")
    verdict = _file_verdict(table)
    # two seats: only the claimant vouches for the claim, so no file alone can prove it
    assert verdict.status == "unfinished" and verdict.blame is None
    assert "claimed by seat 0" in verdict.reason and "not verifiable from this file alone" in verdict.reason


def test_the_blamed_seat_contests_a_claim_and_nobody_forfeits():
    table, claim = _claimed()
    own = table.ledgers[1].build_reveal()                    # its reveal, which (say) never reached the others
    table.deliver(table.ledgers[1].build_contest("my reveal was sent in time", own))
    assert all(ledger.status == "contested" for ledger in table.ledgers)
    verdict = _file_verdict(table)
    assert verdict.status == "contested" and verdict.blame is None
    assert "seat 1" in verdict.reason and "evidence" in verdict.reason


def test_a_contest_after_the_claim_became_final_still_voids_the_forfeit():
    """The blamed seat answered, but its answer never reached the others (a host can drop it): the
    others close the claim and co-sign the forfeit, and the blamed seat contests with its answer."""
    table, _ = _claimed()
    answer = table.ledgers[1].build_reveal()                 # sent, and lost on the way
    table.deliver(table.ledgers[0].build_after_claim())
    play_out(table)
    assert all(ledger.status == "unfinished" for ledger in table.ledgers)
    contest = table.ledgers[1].build_contest("I answered in time", answer)
    table.deliver(contest)
    assert all(ledger.status == "contested" for ledger in table.ledgers)
    with pytest.raises(Rejected):                            # and then the session takes nothing more
        table.ledgers[0].accept(forge(table.ledgers[0], table.secrets[1].key, 1, "contest", ("again", None)))


def test_false_evidence_in_a_contest_is_the_contesters_dispute():
    table, _ = _claimed()
    wrong = forge(table.ledgers[1], table.secrets[1].key, 1, "reveal", ("card 9", bytes(32)))
    with pytest.raises(Dispute):
        table.ledgers[1].build_contest("here is my frame", wrong)   # an honest ledger will not sign it
    ledger = table.ledgers[0]
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[1].key, 1, "contest", ("here is my frame", wrong.encode())))
    assert info.value.seat == 1 and info.value.rule == "timeout claim" and "evidence" in info.value.reason


def test_a_contest_from_a_seat_no_claim_blames_is_a_dispute():
    table, _ = _claimed()
    ledger = table.ledgers[0]
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[0].key, 0, "contest", ("no", None)))
    assert info.value.seat == 0 and info.value.rule == "timeout claim"


def test_a_false_timeout_claim_is_a_dispute():
    table = SignedMatch(CARDS, RandomBot(), seed=11, reproducible=True)
    run_until(table, lambda kind, seat: kind == "chain" and seat == 0)
    ledger = observer(table)
    with pytest.raises(Dispute) as info:
        ledger.accept(forge(ledger, table.secrets[1].key, 1, "timeout", (1, "chain")))
    assert info.value.rule == "timeout claim" and info.value.seat == 1


def test_a_restarted_peer_recovers_its_choices_from_its_seed():
    table = SignedMatch(CARDS, RandomBot(), seed=12, reproducible=True)
    run_until(table, lambda kind, seat: kind == "reveal" and seat == 0)
    fresh = Ledger(table.header, table.secrets[0], CARDS)
    for frame in table.ledgers[0].frames:
        fresh.accept(frame.encode())
    assert fresh.build_reveal().encode() == table.ledgers[0].build_reveal().encode()
    play_out(table)
    assert table.ledgers[0].status == "complete"


def test_own_illegal_action_is_refused_before_signing():
    table = SignedMatch(engines.get("ploc"), RandomBot(), seed=2, reproducible=True)
    run_until(table, lambda kind, seat: kind == "act")
    seat = table.expects()[1]
    with pytest.raises(IllegalAction):
        table.ledgers[seat].build_action("fly away")
    assert len(table.ledgers[seat].frames) == len(table.ledgers[1 - seat].frames)


def test_resign_and_draw_offers_are_actions():
    table = SignedMatch(CARDS, RandomBot(), seed=13, reproducible=True)
    run_until(table, lambda kind, seat: kind == "commit" and seat == 0)
    table.deliver(table.ledgers[0].build_action("offer draw"))
    assert table.expects() == ("act", 1)
    table.deliver(table.ledgers[1].build_action("decline draw"))
    assert table.expects() == ("commit", 0)  # the interrupted step starts afresh
    table.deliver(table.ledgers[0].build_action("resign"))
    play_out(table)
    assert table.ledgers[0].status == "complete"
    assert table.ledgers[0].result.winners == (1,) and table.ledgers[0].result.reason == "resign"
    verdict = audit_replay(parse_replay(table.header.encode() + b"".join(f.encode() for f in table.ledgers[0].frames)),
                           GAMES)
    assert verdict.status == "valid", verdict.reason


def test_an_interrupted_secret_round_is_committed_afresh():
    table = SignedMatch(CARDS, RandomBot(), seed=14, reproducible=True)
    run_until(table, lambda kind, seat: kind == "commit" and seat == 1 and table.ledgers[0].round.secret)
    table.deliver(table.ledgers[1].build_action("offer draw"))
    table.deliver(table.ledgers[0].build_action("decline draw"))
    assert table.expects() == ("commit", 0)
    play_out(table)
    assert [len(c) for c in table.ledgers[0].secret_commits] == [1, 1]
    verdict = audit_replay(parse_replay(table.header.encode() + b"".join(f.encode() for f in table.ledgers[0].frames)),
                           GAMES)
    assert verdict.status == "valid", verdict.reason


def test_a_protocol_1_transcript_has_no_secret_deals():
    """Deals came with protocol 2 (the mental-poker deck); a format 1 header cannot carry them."""
    from replays.header import Header
    match = SignedMatch(CARDS, RandomBot(), seed=1, reproducible=True)
    old = Header(match.header.game, match.header.rules_version, 2, (), match.header.seats, match.header.session,
                 0, 1, 0, None)
    ledger = Ledger(old, None, Game(DealGame()))
    ledger.status = "play"
    with pytest.raises(DealUnsupported) as info:
        ledger.expects()
    assert "mental-poker" in str(info.value)

"""The in-process rows of tests/support/attack_table.py, for every game: seats of one signed match in this
process (replays.local.SignedMatch), one of them lying at a point the game reaches. The honest seats'
ledgers (the very code a live peer runs) refuse the frame: a frame that cannot be attributed or does
not belong is rejected and changes nothing (the game then completes and verifies); a signed frame that
breaks the rules is a dispute naming the liar and the rule, kept as evidence, and the audit of the
honest transcript says the same."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from support import quick
from support.attack_table import ATTACKS, BY_ID, Attack
from support.ledgerkit import CARDS, GAMES, LyingBot, LyingCards, forge, play_out

import engines
from bots.lib import RandomBot
from engines.core import HIDDEN, Capabilities, Game
from engines.tides import secrets as tides_secrets
from engines.tides.game import TurningTides
from netplay.deadlines import DECISIONS, Deadlines
from replays.audit import audit_replay
from replays.crypto import generate_key
from replays.frames import make_frame
from replays.header import Terms
from replays.ledger import Dispute, Ledger, Rejected
from replays.ledger.kinds import KINDS
from replays.local import SignedMatch
from replays.randomness import make_chain
from replays.reader import parse_replay

ALL = {**engines.GAMES, **GAMES}


def _players(game: Game) -> int:
    return min((p for p in game.players if p >= 2), default=game.players[0])


def _match(game_id: str, seed: int = 7, chain_length: int = 128) -> SignedMatch:
    game = ALL[game_id]
    return SignedMatch(game, RandomBot(), seed=seed, players=_players(game), reproducible=True,
                       chain_length=chain_length, options=quick.options(game_id))


def _until(match: SignedMatch, want: Callable[[str, int], bool]) -> bool:
    """Step until the awaited frame matches; False if the game ends first."""
    for _ in range(20_000):
        nxt = match.expects()
        if nxt is None:
            return False
        if want(*nxt):
            return True
        match.step()
    return False


def _honest(match: SignedMatch, liar: int) -> Ledger:
    """An honest seat's ledger, or for a one-seat game a spectator's (what the audit runs)."""
    for seat in range(match.players):
        if seat != liar:
            return match.ledgers[seat]
    if len(match.ledgers) > match.players:
        return match.ledgers[-1]
    spectator = Ledger(match.header, None, match.game)
    for frame in match.ledgers[liar].frames:
        spectator.accept(frame.encode())
    match.ledgers.append(spectator)    # it gets every frame from now on, like the seats
    return spectator


def _audit(match: SignedMatch, ledger: Ledger):
    data = match.header.encode() + b"".join(f.encode() for f in ledger.frames)
    return audit_replay(parse_replay(data), ALL)


def _disputed(match: SignedMatch, liar: int, frame, a: Attack) -> None:
    """Every honest seat disputes `frame` naming the liar and the rule; so does the audit of its transcript."""
    data = frame.encode()
    _honest(match, liar)
    for seat, ledger in enumerate(match.ledgers):
        if seat == liar:
            continue
        with pytest.raises(Dispute) as info:
            ledger.accept(data)
        _same_rule(info.value, liar, a)
        assert ledger.status == "disputed" and ledger.frames[-1].hash == frame.hash   # kept as evidence
    verdict = _audit(match, _honest(match, liar))
    assert verdict.status == a.verdict and verdict.blame == liar, verdict.reason
    _same_rule_dict(verdict.dispute, liar, a)


def _same_rule(d: Dispute, liar: int, a: Attack) -> None:
    _same_rule_dict(d.as_dict(), liar, a)


def _same_rule_dict(d: dict, liar: int, a: Attack) -> None:
    assert d["seat"] == liar, d
    if a.rule == "the game's rule":
        assert d["rule"] and d["rule"] not in ("turn order", "state digest", "frame format"), d
    else:
        assert d["rule"] == a.rule, d


def _rejected(match: SignedMatch, frame_bytes: bytes, why: str) -> None:
    """Every seat rejects the bytes and nothing changes; the game completes and verifies."""
    for ledger in match.ledgers:
        before = (len(ledger.frames), ledger.digest, ledger.status)
        with pytest.raises(Rejected) as info:
            ledger.accept(frame_bytes)
        assert why in info.value.reason, info.value.reason
        assert (len(ledger.frames), ledger.digest, ledger.status) == before
    play_out(match)
    verdict = _audit(match, match.ledgers[0])
    assert verdict.status == "valid", verdict.reason


def _kinds(game_id: str) -> set[str]:
    match = _match(game_id)
    play_out(match)
    return {f.kind for f in match.ledgers[0].frames}


def frame_kinds(caps: Capabilities) -> set[str]:
    """The frame kinds a game's signed matches hold, from its declared capabilities (docs/protocol.md): every
    match opens, reveals its seeds and co-signs the end; a seat's turn is an act, a dice or pick chance is drawn
    from the seats' chains, a simultaneous step is committed and revealed, a deal from a shared deck is
    shuffled and stripped, and a look at a hand is a peek and a show."""
    kinds = {"final", "open", "seed"}
    if caps.turns:
        kinds.add("act")
    if caps.chance & {"dice", "pick"}:
        kinds.add("chain")
    if caps.simultaneous:
        kinds |= {"commit", "reveal"}
    if caps.deck:
        kinds |= {"shuffle", "strip"}
    if "show" in caps.chance:
        kinds |= {"peek", "show"}
    return kinds


#: the frame kinds each game's signed matches play (which attacks apply to it), from the games' descriptors:
#: known when the tests are collected, by every worker of a parallel run, without playing a match each time;
#: checked against played matches by `test_the_frame_kinds_known_are_those_the_games_play`
GAME_KINDS = {gid: frame_kinds(d.capabilities) for gid, d in engines.DESCRIPTORS.items()}


@pytest.mark.parametrize("game_id", sorted(engines.GAMES))
def test_the_frame_kinds_known_are_those_the_games_play(game_id: str) -> None:
    assert GAME_KINDS.get(game_id) == _kinds(game_id), f"the capabilities declared by {game_id!r}'s descriptor"


# ------------------------------------------------------------------------------------------ the attacks

def illegal_action(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "act")
    liar = match.expects()[1]
    ledger = _honest(match, liar)
    _disputed(match, liar, forge(ledger, match.secrets[liar].key, liar, "act", ("no such move 99",)), a)


def out_of_turn(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind in ("act", "chain", "commit") and match.ledgers[0].status == "play")
    awaited = match.expects()[1]
    liar = (awaited + 1) % match.players
    ledger = _honest(match, liar)
    _disputed(match, liar, forge(ledger, match.secrets[liar].key, liar, "act", ("resign",)), a)


def forged_digest(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "act")
    liar = match.expects()[1]
    honest = match.next_frame()
    ledger = _honest(match, liar)
    _disputed(match, liar, forge(ledger, match.secrets[liar].key, liar, "act", honest.body, bytes(32)), a)


def wrong_key(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: match.ledgers[0].status == "play")
    frame = match.next_frame()
    forged = make_frame(generate_key(), frame.session, frame.seq, frame.prev, frame.seat, frame.kind, frame.body,
                        frame.digest)
    _rejected(match, forged.encode(), "bad signature")


def replayed_frame(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: match.ledgers[0].status == "play")
    _rejected(match, match.ledgers[0].frames[-1].encode(), "replayed frame")


def foreign_frame(game_id: str, a: Attack) -> None:
    other = _match(game_id, seed=8)
    other.step()
    match = _match(game_id)
    assert _until(match, lambda kind, seat: match.ledgers[0].status == "play")
    frame = other.ledgers[0].frames[0]
    _rejected(match, frame.encode(), "another session")


def biased_chain_value(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "chain")
    liar = match.expects()[1]
    honest = match.next_frame()
    body = (bytes(b ^ 0x5A for b in honest.body[0]), honest.body[1])
    _disputed(match, liar, forge(_honest(match, liar), match.secrets[liar].key, liar, "chain", body), a)


def renewal_not_from_seed(game_id: str, a: Attack) -> None:
    """The liar's chains after the first are its free choice (not derived from its seed): every value
    hashes onto the chain it committed, so nothing shows until its seed is revealed."""
    match = _match(game_id, chain_length=2)
    liar = match.players - 1
    cheat = match.ledgers[liar]
    derived = cheat.my_chain
    chosen: dict[int, list[bytes]] = {}

    def my_chain(generation: int, length: int, keep: bool = True) -> list[bytes]:
        if generation == 0:
            return derived(generation, length, keep)
        return chosen.setdefault(generation, make_chain(match.session, liar, os.urandom(32), length))

    cheat.my_chain = my_chain
    assert _until(match, lambda kind, seat: kind == "seed" and seat == liar)
    assert cheat.chains[liar].generation > 0, "the chain was never renewed"
    body = KINDS["seed"].build(cheat)   # its own ledger would refuse to sign it: the seat forges it
    _disputed(match, liar, forge(_honest(match, liar), match.secrets[liar].key, liar, "seed", body), a)


def reveal_not_opening(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "reveal")
    liar = match.expects()[1]
    honest = match.next_frame()
    ledger = _honest(match, liar)
    others = [x for x in match.game.legal(ledger.state, liar) if x != honest.body[0]] or [honest.body[0] + "x"]
    _disputed(match, liar, forge(ledger, match.secrets[liar].key, liar, "reveal", (others[0], honest.body[1])), a)


class LyingTides(TurningTides):
    """The liar's own Turning Tides engine: at a pick it accepts any card its hand could hold as far as the
    others can tell (the public check), keeping its real hand as it was."""

    liar = 1

    def legal(self, inner, seat):
        if seat == self.liar and inner.phase == "pick" and inner.private[seat] is not HIDDEN:
            return tides_secrets.pick_options(_hide(inner, seat), seat)
        return super().legal(inner, seat)

    def play(self, inner, seat, action):
        if (seat == self.liar and inner.phase == "pick" and inner.private[seat] is not HIDDEN
                and action not in tides_secrets.pick_options(inner, seat)):
            after = super().play(_hide(inner, seat), seat, action)
            return after._replace(private=tuple(inner.private[seat] if s == seat else p
                                                for s, p in enumerate(after.private)))
        return super().play(inner, seat, action)


def _hide(inner, seat: int):
    return inner._replace(private=tuple(HIDDEN if s == seat else p for s, p in enumerate(inner.private)))


class LyingTidesBot:
    """Picks, once, a card it does not hold but could as far as the others know; plays randomly otherwise."""

    name = "liar"

    def __init__(self) -> None:
        self.lied = False

    def choose(self, game, state, seat, legal, rng):
        inner = state.inner
        if not self.lied and inner.phase == "pick" and inner.private[seat] is not HIDDEN:
            real = tides_secrets.pick_options(inner, seat)
            fake = [a for a in tides_secrets.pick_options(_hide(inner, seat), seat) if a not in real]
            if fake:
                self.lied = True
                return fake[0]
        return rng.choice(legal)


def card_never_drawn(game_id: str, a: Attack) -> None:
    """A seat plays a card it never drew: the other seats can only check that the card is possible; the
    re-simulation at the seed reveal, with every secret known, proves the lie and names its frame."""
    liar = 1
    if game_id == "turning-tides":
        match = SignedMatch(engines.get(game_id), RandomBot(), seed=4, reproducible=True)
        match.ledgers[liar] = Ledger(match.header, match.secrets[liar], Game(LyingTides()))
        match.bots[liar] = LyingTidesBot()
    else:
        match = SignedMatch(CARDS, RandomBot(), seed=9, reproducible=True)
        match.ledgers[liar] = Ledger(match.header, match.secrets[liar], Game(LyingCards()))
        match.bots[liar] = LyingBot()
    with pytest.raises(Dispute) as info:
        play_out(match)
    _same_rule(info.value, liar, a)
    honest = _honest(match, liar)
    assert honest.frames[-1].kind == "seed"                  # caught when the last seed was revealed ...
    assert honest.frames[info.value.frame_no].seat == liar   # ... naming the frame that carried the card
    verdict = _audit(match, honest)
    assert verdict.status == a.verdict and verdict.blame == liar, verdict.reason
    assert verdict.dispute["frame"] == info.value.frame_no


def wrong_seed(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "seed")
    liar = match.expects()[1]
    honest = match.next_frame()
    body = (bytes(b ^ 1 for b in honest.body[0]), *honest.body[1:])
    _disputed(match, liar, forge(_honest(match, liar), match.secrets[liar].key, liar, "seed", body), a)


def false_result(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: kind == "final")
    liar = match.expects()[1]
    honest = match.next_frame()
    winners = (liar,) if honest.body[1] != (liar,) else ()
    body = (honest.body[0], winners, honest.body[2], honest.body[3])
    _disputed(match, liar, forge(_honest(match, liar), match.secrets[liar].key, liar, "final", body), a)


def claim_of_the_wrong_slot(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: match.ledgers[0].status == "play")
    kind, awaited = match.expects()
    liar = (awaited + 1) % match.players
    wrong = "final" if kind != "final" else "seed"
    _disputed(match, liar, forge(_honest(match, liar), match.secrets[liar].key, liar, "timeout", (awaited, wrong)), a)


def false_evidence_in_a_contest(game_id: str, a: Attack) -> None:
    match = _match(game_id)
    assert _until(match, lambda kind, seat: match.ledgers[0].status == "play")
    kind, liar = match.expects()
    claimant = (liar + 1) % match.players
    claim = match.ledgers[claimant].build_timeout()
    match.deliver(claim)
    bogus = make_frame(match.secrets[liar].key, match.session, claim.seq, claim.prev, liar, kind, ("x",), bytes(32))
    ledger = _honest(match, liar)
    _disputed(match, liar, forge(ledger, match.secrets[liar].key, liar, "contest", ("it was sent", bogus.encode())),
              a)


def _withhold(kind: str) -> Callable[[str, Attack], None]:
    """The liar withholds its `kind` frame and never answers the claim. By the agreed terms the frame
    is due T after it became awaited (a `commit` is a decision: untimed unless a move clock runs out);
    past that the first honest seat claims, the other honest seats close the claim's window, every
    honest ledger ends unfinished blaming the liar, and the audit of an honest transcript names the claim
    against the liar but blames nobody (a claim is about time, which no file shows)."""

    def withhold(game_id: str, a: Attack) -> None:
        match = _match(game_id)
        # the last co-signer withholds its final: the others' co-signatures of the result then do not count
        last = match.players - 1 if kind == "final" else None
        assert _until(match, lambda k, seat: k == kind and last in (None, seat)), f"{game_id}: no {kind} frame"
        liar = match.expects()[1]
        cosigned = sum(f.kind == "final" for f in match.ledgers[0].frames)
        _the_deadline_has_passed(match, kind, liar)
        claimant = next(s for s in range(match.players) if s != liar)
        match.deliver(match.ledgers[claimant].build_timeout())
        for _ in range(4 * match.players):
            ledger = match.ledgers[claimant]
            if ledger.closed:
                break
            if ledger.status == "claimed":
                closer = ledger._after_claim()[1]
                assert closer != liar
                match.deliver(match.ledgers[closer].build_after_claim())
            else:
                _, seat = ledger.expects()[-1]
                assert seat != liar, f"the claim made the liar's frame due again: {ledger.expects()}"
                match.deliver(match.ledgers[seat].build_next())
        for seat, ledger in enumerate(match.ledgers[:match.players]):
            if seat != liar:
                assert ledger.status == "unfinished" and ledger.blame == liar, (seat, ledger.status, ledger.blame)
                assert ledger.claim.kind == kind and ledger.claim.claimant == claimant
        if kind == "final":
            assert cosigned == match.players - 1     # every other seat had co-signed the result already
            assert verdict_finals(match.ledgers[claimant]) == [(s, "forfeit") for s in range(match.players)
                                                               if s != liar]
        verdict = _audit(match, match.ledgers[claimant])
        assert verdict.status == a.verdict and verdict.blame is None, verdict.reason
        assert verdict.claim is not None and verdict.claim["blamed"] == liar and verdict.claim["kind"] == kind
        assert verdict.claim["final"] and verdict.claim["contest"] is None, verdict.claim
        assert "not verifiable from this file alone" in verdict.reason, verdict.reason

    return withhold


def verdict_finals(ledger: Ledger) -> list[tuple[int, str]]:
    """(seat, what) of the co-signatures after the claim: "forfeit" for a forfeit's, else "result"."""
    at = next(i for i, f in enumerate(ledger.frames) if f.kind == "timeout")
    return [(f.seat, "forfeit" if str(f.body[3]).startswith("forfeit") else "result") for f in ledger.frames[at:]
            if f.kind == "final"]


def _the_deadline_has_passed(match: SignedMatch, kind: str, liar: int) -> None:
    """By the agreed terms (netplay/deadlines.py): before T (or the move clock) no claim is due; after it,
    one is. A withheld decision of a seat that is here is never due without a clock."""
    terms = match.header.terms
    timeout = terms.reveal_timeout_ms / 1000
    seq = len(match.ledgers[0].frames)
    if kind in DECISIONS:
        untimed = Deadlines(Terms(terms.protocol, terms.reveal_timeout_ms, None), match.players)
        untimed.moved(seq, (kind, liar), now=0.0)
        assert untimed.remaining(kind, liar, 1e9) is None          # thinking is untimed
        clocked = Deadlines(Terms(terms.protocol, terms.reveal_timeout_ms, (60_000, 0)), match.players)
        clocked.moved(seq, (kind, liar), now=0.0)
        assert clocked.remaining(kind, liar, 59.9) > 0 >= clocked.remaining(kind, liar, 60.0)
        return
    deadlines = Deadlines(terms, match.players)
    deadlines.moved(seq, (kind, liar), now=0.0)
    assert deadlines.remaining(kind, liar, timeout - 0.1) > 0 >= deadlines.remaining(kind, liar, timeout)


ATTACKS_HERE: dict[str, Callable[[str, Attack], None]] = {
    "withhold-commit": _withhold("commit"), "withhold-reveal": _withhold("reveal"),
    "withhold-strip": _withhold("strip"), "withhold-final": _withhold("final"),
    "illegal-action": illegal_action, "out-of-turn": out_of_turn, "forged-digest": forged_digest,
    "wrong-key": wrong_key, "replayed-frame": replayed_frame, "foreign-frame": foreign_frame,
    "biased-chain-value": biased_chain_value, "renewal-not-from-seed": renewal_not_from_seed,
    "reveal-not-opening": reveal_not_opening, "card-never-drawn": card_never_drawn, "wrong-seed": wrong_seed,
    "false-result": false_result, "claim-of-the-wrong-slot": claim_of_the_wrong_slot,
    "false-evidence-in-a-contest": false_evidence_in_a_contest,
}
#: attacks that need a second seat
MULTI_SEAT = {"out-of-turn", "claim-of-the-wrong-slot", "false-evidence-in-a-contest", "withhold-commit",
              "withhold-reveal", "withhold-strip", "withhold-final"}


#: the quick run plays each attack on this many of the games that have its frames, in turn, so that every
#: game meets several attacks; `NETPLAY_LONG=1` plays every attack on every such game
QUICK_GAMES = 3


def _cases() -> list:
    kinds = {g: GAME_KINDS.get(g) or _kinds(g) for g in engines.GAMES}
    cases = []
    turn = 0
    for attack_id in ATTACKS_HERE:
        a = BY_ID[attack_id]
        if attack_id == "card-never-drawn":   # needs secret draws: Turning Tides has them, and the toy game
            cases += [pytest.param(a, g, id=f"{attack_id}[{g}]") for g in ("turning-tides", CARDS.id)]
            continue
        games = [game_id for game_id, game in engines.GAMES.items()
                 if not (a.needs and a.needs not in kinds[game_id])
                 and not (attack_id in MULTI_SEAT and _players(game) < 2)]
        if not quick.LONG and len(games) > QUICK_GAMES:
            games = [games[(turn + k) % len(games)] for k in range(QUICK_GAMES)]
            turn += 1
        cases += [pytest.param(a, game_id, id=f"{attack_id}[{game_id}]") for game_id in games]
    return cases


@pytest.mark.parametrize(("a", "game_id"), _cases())
def test_attack(a: Attack, game_id: str) -> None:
    ATTACKS_HERE[a.id](game_id, a)


def test_every_row_has_a_test() -> None:
    """Every row of tests/support/attack_table.py has one id, and each in-process row is played here (the
    others by tests/test_attacks.py, over real processes)."""
    ids = {a.id for a in ATTACKS}
    assert len(ids) == len(ATTACKS)
    ledger_rows = {a.id for a in ATTACKS if a.where == "ledger"}
    assert ledger_rows == set(ATTACKS_HERE), ledger_rows ^ set(ATTACKS_HERE)


@pytest.mark.parametrize("blamed", [0, 1])
def test_a_claim_while_the_seats_open_is_closed_by_seats_that_may_not_have_opened(blamed: int) -> None:
    """(Found by this suite: the claimant crashed.) A claim against a seat's open frame: the seats that
    opened reveal their seeds, those that never opened only co-sign the forfeit."""
    match = SignedMatch(engines.get("madagaskar"), RandomBot(), seed=1, players=3, reproducible=True)
    for _ in range(blamed):
        match.step()                                    # seats before the blamed one open
    claimant = 2
    match.deliver(match.ledgers[claimant].build_timeout())
    seeds = []
    for _ in range(10):
        ledger = match.ledgers[claimant]
        if ledger.closed:
            break
        kind, seat = ledger.expects()[-1]
        frame = match.ledgers[seat].build_after_claim() if ledger.status == "claimed" else \
            match.ledgers[seat].build_next()
        seeds += [seat] if frame.kind == "seed" else []
        match.deliver(frame)
    assert seeds == list(range(blamed))                 # only the seats that opened reveal a seed
    for seat, ledger in enumerate(match.ledgers):
        if seat != blamed:
            assert ledger.status == "unfinished" and ledger.blame == blamed
    verdict = _audit(match, match.ledgers[claimant])
    assert verdict.status == "unfinished" and verdict.blame is None and verdict.claim["blamed"] == blamed

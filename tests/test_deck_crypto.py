"""The shared secret deck's arithmetic (replays/curve.py, replays/deck.py): an honest game deals exactly
the pool and the audit recomputes it byte for byte; every cheat is refused with its rule; garbage never
raises out of a verify function; the derivations follow the documented formulas."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replays import deck as D
from replays.codec import DEFAULT_LIMITS, decode, encode
from replays.crypto import framed
from replays.curve import (
    BASE,
    ORDER,
    add,
    hash_to_point,
    invert,
    is_canonical_scalar,
    is_nonzero_scalar,
    is_valid_point,
    mul,
    mul_base,
    point_sum,
    scalar_from_int,
    scalar_from_wide,
    scalar_mul,
    sub,
)

SESSION = bytes(range(16))
SEEDS = [hashlib.sha256(b"seed %d" % s).digest() for s in range(4)]
DEV_POOL = tuple(sorted([0] * 14 + [1] * 5 + [2] * 2 + [3] * 2 + [4] * 2))
SMALL_POOL = (0, 0, 1, 2, 2, 3)

# points libsodium must refuse: identity, the point of order 2, a y >= p encoding, a non-point
IDENTITY = b"\x01" + bytes(31)
ORDER_2 = (2**255 - 19 - 1).to_bytes(32, "little")
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1, the non-canonical form of y = 1
# a point of order 8 (torsion): P + T8 is on the curve but outside the prime-order subgroup
TORSION_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")

# SHA-256 of a 3-card shuffle frame's values and of one strip (see test_known_answer)
KNOWN_SHUFFLE = "ad092dfbabacc9351424b454136a39f399065867f070aa98387aacb21fffd694"
KNOWN_STRIP = "a53b53cd4d1f348db7b5a5ac60d20cf69142b8bd999dc7f5f5ca811dc554150e"


def not_a_point() -> bytes:
    """32 bytes that decode to no curve point at all."""
    for i in range(2, 1000):
        candidate = i.to_bytes(32, "little")
        try:
            add(candidate, BASE)
        except ValueError:
            return candidate
    raise AssertionError("no non-point found")


def bad_points() -> list[bytes]:
    return [IDENTITY, ORDER_2, NON_CANONICAL, not_a_point(), add(BASE, TORSION_8), bytes(32), b"\xff" * 32]


# --------------------------------------------------------------------------------------- a small harness


@dataclass
class Game:
    """One deck epoch played out by honest seats, recording every public value as frames would carry it."""

    pool: tuple[int, ...]
    seats: list[int]
    deck: str = "dev"
    epoch: int = 0
    plain: tuple[bytes, ...] = ()
    shuffles: list[tuple[int, tuple[bytes, ...], D.Shuffle]] = field(default_factory=list)
    publics: dict[int, bytes] = field(default_factory=dict)
    current: list[bytes] = field(default_factory=list)
    layers: list[int] = field(default_factory=list)
    strips: list[tuple[int, int, bytes, D.LayerOff]] = field(default_factory=list)  # seat, position, V, V'
    releases: list[tuple[int, D.Release, tuple[bytes, ...]]] = field(default_factory=list)
    dealt: list[tuple[int, int, bytes, D.Drawn]] = field(default_factory=list)  # position, drawer, V_last, drawn
    next: int = 0

    def shuffle_all(self) -> None:
        self.plain = D.card_points(SESSION, self.deck, self.epoch, self.pool)
        deck_in = self.plain
        for s in self.seats:
            frame = D.shuffle(SEEDS[s], SESSION, s, self.deck, self.epoch, deck_in)
            assert D.check_shuffle(SESSION, s, self.deck, self.epoch, deck_in, frame.public, list(frame.cards),
                                   frame.proof.to_wire()) is None
            self.shuffles.append((s, tuple(deck_in), frame))
            self.publics[s] = frame.public
            deck_in = frame.cards
        self.current = list(deck_in)
        self.layers = list(self.seats)

    def deal(self, drawer: int) -> D.Drawn:
        pos = self.next
        value = self.current[pos]
        for s in self.layers:
            if s == drawer:
                continue
            off = D.strip(SEEDS[s], SESSION, s, self.deck, self.epoch, pos, value)
            assert D.check_strip(SESSION, s, self.deck, self.epoch, pos, self.publics[s], value, off.value,
                                 off.proof) is None
            self.strips.append((s, pos, value, off))
            value = off.value
        drawn = D.draw(SEEDS[drawer], SESSION, drawer, self.deck, self.epoch, value,
                       D.card_table(SESSION, self.deck, self.epoch, self.pool))
        self.dealt.append((pos, drawer, value, drawn))
        self.next += 1
        return drawn

    def resign(self, seat: int) -> None:
        undealt = tuple(self.current[self.next:])
        entry = D.release(SEEDS[seat], SESSION, seat, self.deck, self.epoch, self.next, undealt)
        parsed = D.Release.from_wire(decode(encode(entry.to_wire())))
        assert parsed == entry
        assert D.check_release(SESSION, seat, self.publics[seat], parsed, undealt) is None
        self.releases.append((seat, entry, undealt))
        self.current[self.next:] = entry.values
        self.layers.remove(seat)


@pytest.fixture(scope="module")
def honest_game() -> Game:
    """4 seats, the 25 development cards, each dealt to a random seat."""
    g = Game(DEV_POOL, [0, 1, 2, 3])
    g.shuffle_all()
    rng = random.Random(11)
    for _ in DEV_POOL:
        g.deal(rng.choice(g.seats))
    return g


@pytest.fixture(scope="module")
def small_game() -> Game:
    """3 seats shuffle a 6-card deck; nothing dealt yet (the cheat tests start from here)."""
    g = Game(SMALL_POOL, [0, 1, 2])
    g.shuffle_all()
    return g


# --------------------------------------------------------------------------------------- honest path


def test_honest_game_deals_exactly_the_pool(honest_game):
    g = honest_game
    table = D.card_table(SESSION, g.deck, g.epoch, g.pool)
    assert len(g.dealt) == 25
    assert all(drawn.card is not None for _, _, _, drawn in g.dealt)
    assert sorted(drawn.card[1] for _, _, _, drawn in g.dealt) == list(DEV_POOL)
    assert sorted(drawn.card[0] for _, _, _, drawn in g.dealt) == list(range(25))  # every copy once
    for pos, drawer, _, drawn in g.dealt:
        strippers = [s for s, p, _, _ in g.strips if p == pos]
        assert strippers == [s for s in g.seats if s != drawer]
        assert table[drawn.point] == drawn.card
    # the shuffle really mixed the deck: the dealt order is not the pool order
    assert [drawn.card[0] for _, _, _, drawn in g.dealt] != list(range(25))


def test_every_public_value_carries_the_drawers_layer(honest_game):
    """Nothing anyone but the drawer sees is a card: every strip output is still masked by the drawer."""
    g = honest_game
    table = D.card_table(SESSION, g.deck, g.epoch, g.pool)
    public = [c for _, _, frame in g.shuffles for c in frame.cards] + [off.value for *_, off in g.strips]
    assert not any(v in table for v in public)


def test_audit_recomputes_every_shuffle_and_strip_byte_for_byte(honest_game):
    g = honest_game
    for s, deck_in, frame in g.shuffles:
        again = D.shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in)
        assert encode([again.public, list(again.cards), again.proof.to_wire()]) == \
            encode([frame.public, list(frame.cards), frame.proof.to_wire()])
        assert D.audit_shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in, frame.public, list(frame.cards),
                               frame.proof.to_wire()) is None
    for s, pos, v_in, off in g.strips:
        assert D.audit_strip(SEEDS[s], SESSION, s, g.deck, g.epoch, pos, v_in, off.value, off.proof) is None
    for _pos, drawer, v_last, drawn in g.dealt:
        assert D.draw(SEEDS[drawer], SESSION, drawer, g.deck, g.epoch, v_last,
                      D.card_table(SESSION, g.deck, g.epoch, g.pool)) == drawn
        assert D.unmask(SEEDS[drawer], SESSION, drawer, g.deck, g.epoch, v_last) == drawn.point


def test_audit_names_the_first_mismatch(honest_game):
    g = honest_game
    s, deck_in, frame = g.shuffles[1]
    other = 2
    fault = D.audit_shuffle(SEEDS[other], SESSION, s, g.deck, g.epoch, deck_in, frame.public, list(frame.cards))
    assert fault is not None and fault.rule == D.RULE_DECK_KEY
    cards = list(frame.cards)
    cards[7], cards[8] = cards[8], cards[7]
    fault = D.audit_shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in, frame.public, cards)
    assert fault == D.DeckFault(D.RULE_SHUFFLE, "card 7 is not k·input[π[7]] for the seed's k and π")
    wire = frame.proof.to_wire()
    wire[1][5] = wire[1][5][:-1] + bytes([wire[1][5][-1] ^ 1])
    fault = D.audit_shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in, frame.public, list(frame.cards), wire)
    assert fault is not None and fault.rule == D.RULE_SHUFFLE and "opening of shadow 5" in fault.reason
    s, pos, v_in, off = g.strips[4]
    fault = D.audit_strip(SEEDS[s], SESSION, s, g.deck, g.epoch, pos, v_in, g.strips[5][3].value)
    assert fault is not None and fault.rule == D.RULE_STRIP and f"position {pos}" in fault.reason
    fault = D.audit_strip(SEEDS[s], SESSION, s, g.deck, g.epoch, pos, v_in, off.value, g.strips[5][3].proof)
    assert fault is not None and fault.rule == D.RULE_STRIP and "proof" in fault.reason


def test_resignation_releases_the_layer_and_the_game_goes_on():
    g = Game(SMALL_POOL + (4, 4), [0, 1, 2, 3])
    g.shuffle_all()
    for drawer in (3, 0, 1):
        assert g.deal(drawer).card is not None
    g.resign(3)
    for drawer in (2, 0, 1, 2, 0):
        assert g.deal(drawer).card is not None
    assert sorted(d.card[1] for *_, d in g.dealt) == sorted(g.pool)
    assert all(s != 3 for s, p, _, _ in g.strips if p >= 3)
    seat, entry, undealt = g.releases[0]
    assert (entry.first, len(entry.values)) == (3, 5)
    assert D.audit_release(SEEDS[seat], SESSION, seat, entry, undealt) is None
    forged = D.Release(entry.deck, entry.epoch, entry.first, entry.values[:2] + entry.values[3:4] * 2 +
                       entry.values[4:], entry.proofs)
    fault = D.audit_release(SEEDS[seat], SESSION, seat, forged, undealt)
    assert fault is not None and fault.rule == D.RULE_RELEASE and "position 5" in fault.reason


def test_spoiled_claim_of_a_real_non_card_stands_and_the_audit_agrees(small_game):
    g = small_game
    pos, value = 0, g.current[0]
    # a cheating shuffler doubled the card: after the other strips, the drawer unmasks 2·M, no card
    value = add(value, value)
    table = D.card_table(SESSION, g.deck, g.epoch, g.pool)
    for s in (1, 2):
        value = D.strip(SEEDS[s], SESSION, s, g.deck, g.epoch, pos, value).value
    drawn = D.draw(SEEDS[0], SESSION, 0, g.deck, g.epoch, value, table)
    assert drawn.card is None
    claim = D.spoil(SEEDS[0], SESSION, 0, g.deck, g.epoch, pos, value)
    assert claim.value == drawn.point
    assert D.check_spoiled(SESSION, 0, g.deck, g.epoch, pos, g.publics[0], value, claim.value, claim.proof,
                           table) is None
    assert D.audit_spoiled(SEEDS[0], SESSION, 0, g.deck, g.epoch, pos, value, claim.value, claim.proof) is None


# --------------------------------------------------------------------------------------- cards and secrets


def test_equal_types_are_fourteen_different_points():
    points = D.card_points(SESSION, "dev", 0, DEV_POOL)
    knights = [p for p, t in zip(points, DEV_POOL, strict=True) if t == 0]
    assert len(knights) == 14 and len(set(knights)) == 14
    assert all(is_valid_point(p) for p in points)
    table = D.card_table(SESSION, "dev", 0, DEV_POOL)
    assert len(table) == 25 and table[points[3]] == (3, 0)
    # bound to session, deck and epoch
    assert set(points).isdisjoint(D.card_points(SESSION, "dev", 1, DEV_POOL))
    assert set(points).isdisjoint(D.card_points(SESSION, "progress", 0, DEV_POOL))
    assert set(points).isdisjoint(D.card_points(bytes(16), "dev", 0, DEV_POOL))
    with pytest.raises(TypeError):
        table[b"x" * 32] = (0, 0)  # type: ignore[index]


@pytest.mark.parametrize("pool", [(), (2, 1), (0, -1), (0, 1.5), tuple(range(256))])
def test_bad_pools_are_refused(pool):
    with pytest.raises(ValueError):
        D.card_points(SESSION, "dev", 0, pool)


def test_derivations_follow_the_documented_formulas():
    seed = SEEDS[0]

    def hmac64(domain, *parts):
        return hmac.new(seed, framed(domain, *parts), hashlib.sha512).digest()

    key = D.deck_key(seed, SESSION, 2, "dev", 1)
    assert key == scalar_from_wide(hmac64("deck-key", SESSION, 2, "dev", 1))
    assert D.deck_public(seed, SESSION, 2, "dev", 1) == mul_base(key)

    # Fisher–Yates exactly as the docstring says, written out independently
    stream = b"".join(hmac64("deck-perm", SESSION, 2, "dev", 1, c) for c in range(4))
    words = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, len(stream), 4)]
    perm, w = list(range(25)), 0
    for i in range(24, 0, -1):
        while words[w] >= (1 << 32) - (1 << 32) % (i + 1):
            w += 1
        j = words[w] % (i + 1)
        w += 1
        perm[i], perm[j] = perm[j], perm[i]
    assert D.deck_permutation(seed, SESSION, 2, "dev", 1, 25) == tuple(perm)

    expected_card = hash_to_point(hashlib.sha256(framed("card", SESSION, "dev", 0, 3, 0)).digest())
    assert D.card_points(SESSION, "dev", 0, DEV_POOL)[3] == expected_card
    ctx = hashlib.sha256(framed("deck-ctx", SESSION, "strip", 1, "dev", 0, 7)).digest()
    assert D.deck_context(SESSION, "strip", 1, "dev", 0, 7) == ctx
    assert D.deck_context(SESSION, "strip", 1, "dev", 0) != ctx


def test_shadows_challenge_and_nonces_follow_the_documented_formulas(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    seed, n = SEEDS[s], len(deck_in)

    def hmac64(domain, *parts):
        return hmac.new(seed, framed(domain, *parts), hashlib.sha512).digest()

    h = hashlib.sha512(framed("shuffle-challenge", SESSION, s, g.deck, g.epoch, b"".join(deck_in),
                              b"".join(frame.cards), frame.public, *frame.proof.commitments)).digest()
    bits = [(h[i // 8] >> (i % 8)) & 1 for i in range(64)]
    digest = hashlib.sha256(framed("shuffle-input", b"".join(deck_in))).digest()
    key = D.deck_key(seed, SESSION, s, g.deck, g.epoch)
    for i, bit in enumerate(bits):
        k_s = scalar_from_wide(hmac64("shuffle-shadow-key", SESSION, s, g.deck, g.epoch, digest, i))
        pi_s = D._fisher_yates(D._stream(seed, "shuffle-shadow-perm", SESSION, s, g.deck, g.epoch, digest, i), n)
        commitment = mul_base(k_s) + b"".join(mul(k_s, deck_in[pi_s[j]]) for j in range(n))
        assert frame.proof.commitments[i] == commitment
        scalar = frame.proof.openings[i][:32]
        assert scalar == (k_s if bit == 0 else scalar_mul(key, invert(k_s)))
    # the strip's nonce: w = s − c·x recovered from the proof is the documented derivation
    pos, v = 0, g.current[0]
    off = D.strip(seed, SESSION, s, g.deck, g.epoch, pos, v)
    ctx = D.deck_context(SESSION, "strip", s, g.deck, g.epoch, pos)
    c, z = off.proof[:32], off.proof[32:]
    w = (int.from_bytes(z, "little") - int.from_bytes(c, "little") * int.from_bytes(key, "little")) % ORDER
    assert scalar_from_int(w) == scalar_from_wide(hmac64("dleq-nonce", ctx, BASE, g.publics[s], off.value, v))
    t1, t2 = mul_base(scalar_from_int(w)), mul(scalar_from_int(w), off.value)
    assert c == scalar_from_wide(hashlib.sha512(framed("dleq", ctx, BASE, g.publics[s], off.value, v, t1,
                                                       t2)).digest())


def test_known_answer():
    """Pinned bytes: a change of any derivation or of the proof layout breaks old replays' audits."""
    plain = D.card_points(SESSION, "dev", 0, (0, 0, 1))
    frame = D.shuffle(SEEDS[0], SESSION, 0, "dev", 0, plain)
    digest = hashlib.sha256(encode([frame.public, list(frame.cards), frame.proof.to_wire()])).hexdigest()
    assert digest == KNOWN_SHUFFLE
    off = D.strip(SEEDS[1], SESSION, 1, "dev", 0, 2, frame.cards[2])
    assert hashlib.sha256(off.value + off.proof).hexdigest() == KNOWN_STRIP


def test_fisher_yates_rejects_biased_words():
    # m = 3: 2^32 - 1 is >= 2^32 - (2^32 mod 3) and must be skipped, not reduced
    words = iter([(1 << 32) - 1, 4, 7])
    assert D._fisher_yates(words, 3) == (0, 2, 1)  # j = 4 % 3 = 1 (swap 2,1), then j = 7 % 2 = 1 (no-op)


def test_zero_scalar_is_derived_again(monkeypatch):
    real = D.scalar_from_wide
    calls = []

    def zero_once(wide):
        calls.append(wide)
        return bytes(32) if len(calls) == 1 else real(wide)

    monkeypatch.setattr(D, "scalar_from_wide", zero_once)
    key = D.deck_key(SEEDS[0], SESSION, 0, "dev", 0)
    retry = hmac.new(SEEDS[0], framed("deck-key", SESSION, 0, "dev", 0, 1), hashlib.sha512).digest()
    assert key == real(retry) and any(key)


def test_same_seed_same_key_permutation_and_proof(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    again = D.shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in)
    assert again == frame
    assert D.deck_permutation(SEEDS[s], SESSION, s, "dev", 0, 6) == D.deck_permutation(SEEDS[s], SESSION, s, "dev",
                                                                                         0, 6)
    other = D.shuffle(SEEDS[0], SESSION, s, g.deck, g.epoch, deck_in)
    assert other.public != frame.public and other.proof != frame.proof
    # the shadows depend on the input: a second input never reuses a shadow (that would leak k)
    moved = D.shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in[1:] + deck_in[:1])
    assert {c[:32] for c in moved.proof.commitments}.isdisjoint(c[:32] for c in frame.proof.commitments)  # P_s
    assert moved.public == frame.public


def test_permutations_are_uniform():
    """Chi-square of the first and last positions over 4,000 derived permutations of 8 cards (7 degrees
    of freedom; 29.9 is the 0.01 % tail, and the seeds are fixed, so this never flakes)."""
    n, runs = 8, 4000
    first, last = Counter(), Counter()
    for i in range(runs):
        perm = D.deck_permutation(i.to_bytes(32, "big"), SESSION, 0, "dev", 0, n)
        first[perm[0]] += 1
        last[perm[-1]] += 1
        assert sorted(perm) == list(range(n))
    expected = runs / n
    for counts in (first, last):
        chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(n))
        assert chi2 < 29.9, counts
    # and it does detect a biased generator: 0 never first would be caught
    biased = Counter({v: (runs // (n - 1) if v else 0) for v in range(n)})
    assert sum((biased[v] - expected) ** 2 / expected for v in range(n)) > 29.9


# --------------------------------------------------------------------------------------- group helpers


def test_group_helpers():
    k = scalar_from_int(123456789)
    p = D.card_points(SESSION, "dev", 0, SMALL_POOL)[0]
    assert mul(invert(k), mul(k, p)) == p
    assert mul(k, BASE) == mul_base(k)
    assert sub(add(p, BASE), BASE) == p
    assert point_sum([p, p, p]) == mul(scalar_from_int(3), p)
    assert scalar_mul(k, invert(k)) == scalar_from_int(1)
    assert is_canonical_scalar(scalar_from_int(ORDER - 1)) and not is_canonical_scalar(ORDER.to_bytes(32, "little"))
    assert is_canonical_scalar(bytes(32)) and not is_nonzero_scalar(bytes(32))
    for bad in bad_points():
        assert not is_valid_point(bad)
        with pytest.raises(ValueError):
            mul(k, bad)
    with pytest.raises(ValueError):
        mul(bytes(32), p)
    with pytest.raises(ValueError):
        invert(bytes(32))
    with pytest.raises(ValueError):
        point_sum([])
    with pytest.raises(ValueError):
        hash_to_point(bytes(32))  # Elligator maps it to a small-order point, cleared to the identity
    for junk in (None, 5, "x" * 32, b"x", bytearray(32)):
        assert not is_valid_point(junk) and not is_canonical_scalar(junk)


# --------------------------------------------------------------------------------------- Chaum–Pedersen


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=64, max_size=64), st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_dleq_round_trip_and_binding(wide, h, ctx):
    x = scalar_from_wide(wide)
    if not any(x):
        return
    g2 = hash_to_point(hashlib.sha256(h).digest())
    x1, x2 = mul_base(x), mul(x, g2)
    proof = D.dleq_prove(SEEDS[0], x, BASE, x1, g2, x2, ctx)
    assert D.dleq_verify(BASE, x1, g2, x2, proof, ctx)
    assert not D.dleq_verify(BASE, x1, g2, x2, proof, ctx[::-1] + b"!")
    assert not D.dleq_verify(BASE, x1, g2, add(x2, BASE), proof, ctx)  # X2 not x·G2
    assert not D.dleq_verify(BASE, x1, x2, g2, proof, ctx)
    c, s = proof[:32], proof[32:]
    s_big = (int.from_bytes(s, "little") + ORDER).to_bytes(32, "little")  # the same s, not canonical
    assert not D.dleq_verify(BASE, x1, g2, x2, c + s_big, ctx)
    assert not D.dleq_verify(BASE, x1, g2, x2, bytes(32) + s, ctx)
    assert not D.dleq_verify(BASE, x1, g2, x2, c + bytes(32), ctx)
    # a false statement gets a proof that does not verify
    y = scalar_from_wide(wide[::-1])
    if any(y) and y != x:
        assert not D.dleq_verify(BASE, x1, g2, mul(y, g2), D.dleq_prove(SEEDS[0], x, BASE, x1, g2, mul(y, g2), ctx),
                                 ctx)


# --------------------------------------------------------------------------------------- shuffle cheats


def _swap_sum_preserving(cards: tuple[bytes, ...], a: int, b: int) -> list[bytes]:
    """Replace cards a, b by 2a and b − a: the card sum stays, so the old sum proof would not see it."""
    out = list(cards)
    out[a], out[b] = add(cards[a], cards[a]), sub(cards[b], cards[a])
    assert point_sum(out) == point_sum(cards)
    return out


def _adaptive_cheat_proof(g: Game, seat: int, deck_in, out, public, guesses: list[int]) -> D.ShuffleProof:
    """The best a cheater can do: shadow s is made to survive challenge bit guesses[s] (bit 0: an honest
    shadow of the input; bit 1: a shadow built backwards from the claimed output and P) and fails the
    other bit. It survives only if all 64 guesses are right."""
    rng = random.Random(5)
    n = len(deck_in)
    secrets, commitments = [], []
    for guess in guesses:
        k_s = scalar_from_int(rng.randrange(1, ORDER))
        perm = list(range(n))
        rng.shuffle(perm)
        if guess == 0:
            commitments.append(mul_base(k_s) + b"".join(mul(k_s, deck_in[perm[j]]) for j in range(n)))
        else:  # r = k_s, rho = perm: Z[rho[j]] = r⁻¹·out[j], P_s = r⁻¹·P
            z = [b""] * n
            for j in range(n):
                z[perm[j]] = mul(invert(k_s), out[j])
            commitments.append(mul(invert(k_s), public) + b"".join(z))
        secrets.append(k_s + bytes(perm))
    return D.ShuffleProof(tuple(commitments), tuple(secrets))


def test_sum_preserving_swap_is_caught(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    out = _swap_sum_preserving(frame.cards, 1, 4)
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, out, frame.proof.to_wire())
    assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF
    # the adaptive cheater: survives exactly the shadows whose bit it guessed, and no more
    guesses = [random.Random(9).randrange(2) for _ in range(D.SHUFFLE_ROUNDS)]
    proof = _adaptive_cheat_proof(g, s, deck_in, out, frame.public, guesses)
    bits = D._challenge(SESSION, s, g.deck, g.epoch, deck_in, out, frame.public, proof.commitments)
    for i, (bit, guess) in enumerate(zip(bits, guesses, strict=True)):
        why = D._check_opening(bit, proof.commitments[i], proof.openings[i], deck_in, out, frame.public)
        assert (why is None) == (bit == guess), (i, why)
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, out, proof)
    first_wrong = next(i for i, (b, q) in enumerate(zip(bits, guesses, strict=True)) if b != q)
    assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF
    assert fault.reason.startswith(f"shadow {first_wrong} ")


def test_copied_card_is_caught(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[0]
    out = list(frame.cards)
    out[3] = out[0]
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, out, frame.proof)
    assert fault == D.DeckFault(D.RULE_EQUAL_CARDS, "card 3 equals card 0")


def test_shuffle_with_another_key_than_p_is_caught(small_game):
    """A proof that is honest for the key k' actually used, published with P = k·B of another key: the
    bit-0 shadows hold, every bit-1 shadow fails on P = r·P_s (the check the prototype lacked)."""
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    k_other = scalar_from_int(987654321)
    perm = D.deck_permutation(SEEDS[s], SESSION, s, g.deck, g.epoch, len(deck_in))
    out = tuple(mul(k_other, deck_in[perm[j]]) for j in range(len(deck_in)))
    proof = D._prove_shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in, out, frame.public, k_other, perm)
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, list(out), proof)
    assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF and "P is not r·P_s" in fault.reason
    # the same proof with the P of the key used is fine: it is the binding to P that failed
    assert D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, mul_base(k_other), list(out),
                           D._prove_shuffle(SEEDS[s], SESSION, s, g.deck, g.epoch, deck_in, out,
                                            mul_base(k_other), k_other, perm)) is None


def test_shadow_keys_bound_to_p_are_checked_at_bit_0(small_game):
    """The other half of the binding: a cheater with key k' who publishes P_s = r⁻¹·P (so that every bit-1
    opening satisfies P = r·P_s) fails every bit-0 opening on P_s = k_s·B."""
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    n = len(deck_in)
    k_other = scalar_from_int(55555)
    perm = D.deck_permutation(SEEDS[s], SESSION, s, g.deck, g.epoch, n)
    out = tuple(mul(k_other, deck_in[perm[j]]) for j in range(n))
    rng = random.Random(8)
    shadows, commitments = [], []
    for _ in range(D.SHUFFLE_ROUNDS):
        k_s = scalar_from_int(rng.randrange(1, ORDER))
        pi_s = list(range(n))
        rng.shuffle(pi_s)
        r = scalar_mul(k_other, invert(k_s))
        shadows.append((k_s, pi_s, r))
        commitments.append(mul(invert(r), frame.public) + b"".join(mul(k_s, deck_in[pi_s[j]]) for j in range(n)))
    bits = D._challenge(SESSION, s, g.deck, g.epoch, deck_in, out, frame.public, commitments)
    openings = []
    for (k_s, pi_s, r), bit in zip(shadows, bits, strict=True):
        where = {src: j for j, src in enumerate(pi_s)}
        openings.append(k_s + bytes(pi_s) if bit == 0 else r + bytes(where[perm[j]] for j in range(n)))
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, out, [commitments, openings])
    assert fault == D.DeckFault(D.RULE_SHUFFLE_PROOF, f"shadow {bits.index(0)} (challenge bit 0): P_s is not k_s·B")
    for i, bit in enumerate(bits):  # every bit-1 opening holds: only bit 0 catches this cheat
        if bit == 1:
            assert D._check_opening(1, commitments[i], openings[i], deck_in, out, frame.public) is None


def test_challenge_depends_on_the_whole_transcript(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    args = [SESSION, s, g.deck, g.epoch, list(deck_in), list(frame.cards), frame.public,
            list(frame.proof.commitments)]
    base = D._challenge(*args)
    assert sum(base) not in (0, D.SHUFFLE_ROUNDS)
    other = hash_to_point(b"o" * 32)
    variants = [(0, bytes(16)), (1, s + 1), (2, "x"), (3, 1), (6, other)]
    variants += [(4, args[4][:j] + [other] + args[4][j + 1:]) for j in range(6)]
    variants += [(5, args[5][:j] + [other] + args[5][j + 1:]) for j in range(6)]
    for i in range(D.SHUFFLE_ROUNDS):
        changed = list(args[7])
        changed[i] = changed[i][:-1] + bytes([changed[i][-1] ^ 1])
        variants.append((7, changed))
    for index, value in variants:
        changed_args = list(args)
        changed_args[index] = value
        assert D._challenge(*changed_args) != base, (index, value)


def test_altered_shadow_openings_and_commitments_are_caught(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[2]
    bits = D._challenge(SESSION, s, g.deck, g.epoch, deck_in, frame.cards, frame.public, frame.proof.commitments)
    i0, i1 = bits.index(0), bits.index(1)
    for i in (i0, i1):
        opening = frame.proof.openings[i]
        scalar, perm = opening[:32], opening[32:]
        altered = [
            scalar_from_int(int.from_bytes(scalar, "little") + 1) + perm,  # another scalar
            (int.from_bytes(scalar, "little") + ORDER).to_bytes(32, "little") + perm,  # same scalar, non-canonical
            bytes(32) + perm,  # zero
            scalar + bytes([perm[1], perm[0]]) + perm[2:],  # another permutation
            scalar + bytes([perm[0], perm[0]]) + perm[2:],  # not a permutation
            scalar + bytes([perm[0], 6]) + perm[2:],  # index out of range
        ]
        for new in altered:
            openings = list(frame.proof.openings)
            openings[i] = new
            fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, frame.cards,
                                    [list(frame.proof.commitments), openings])
            assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF, new
            assert fault.reason.startswith(f"shadow {i} ")
    commitments = list(frame.proof.commitments)
    commitments[7] = commitments[7][:32] + commitments[7][64:] + commitments[7][32:64]
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, frame.cards,
                            [commitments, list(frame.proof.openings)])
    assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF
    # the proof is bound to its seat, deck, epoch and input
    for args in ((s + 1, g.deck, g.epoch, deck_in), (s, "other", g.epoch, deck_in), (s, g.deck, 1, deck_in)):
        fault = D.check_shuffle(SESSION, *args, frame.public, frame.cards, frame.proof)
        assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF


def test_shuffle_shape_and_points_are_checked(small_game):
    g = small_game
    s, deck_in, frame = g.shuffles[1]
    wire = frame.proof.to_wire()
    cards = list(frame.cards)

    def check(public=frame.public, cards=cards, proof=wire, inp=deck_in):
        return D.check_shuffle(SESSION, s, g.deck, g.epoch, inp, public, cards, proof)

    assert check() is None
    assert check(cards=tuple(cards)) is None and check(proof=(tuple(wire[0]), tuple(wire[1]))) is None
    assert check(cards=cards[:-1]).rule == D.RULE_FORMAT
    assert check(cards=cards + [cards[0]]).rule == D.RULE_FORMAT
    assert check(cards=cards[:-1] + [cards[-1][:31]]).rule == D.RULE_FORMAT
    assert check(cards=None).rule == D.RULE_FORMAT
    assert check(public=frame.public[:31]).rule == D.RULE_FORMAT
    assert check(proof=[wire[0][:-1], wire[1]]).rule == D.RULE_FORMAT
    assert check(proof=[wire[0], wire[1][:-1] + [wire[1][-1] + b"\x00"]]).rule == D.RULE_FORMAT
    assert check(proof=[wire[0]]).rule == D.RULE_FORMAT
    assert check(inp=[]).rule == D.RULE_FORMAT
    for bad in bad_points():
        assert check(public=bad).rule == D.RULE_SHUFFLE_POINTS
        assert check(cards=cards[:2] + [bad] + cards[3:]).rule == D.RULE_SHUFFLE_POINTS
    assert check(public=g.publics[0]).rule == D.RULE_SHUFFLE_PROOF


garbage = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.binary(max_size=70) | st.text(max_size=5)
    | st.sampled_from([IDENTITY, ORDER_2, NON_CANONICAL, bytes(32), b"\xff" * 32, BASE]),
    lambda inner: st.lists(inner, max_size=8),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbage, garbage, garbage)
def test_shuffle_verify_never_raises_on_garbage(public, cards, proof):
    inp = D.card_points(SESSION, "dev", 0, SMALL_POOL)
    fault = D.check_shuffle(SESSION, 0, "dev", 0, inp, public, cards, proof)
    assert isinstance(fault, D.DeckFault)
    assert D.check_shuffle(SESSION, 0, "dev", 0, cards, public, inp, proof) is not None  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64), st.floats(0, 1))
def test_well_shaped_random_shuffles_are_refused(seed, valid_share):
    """Right shapes, random bytes, some of them valid points (the share drawn by hypothesis)."""
    rng = random.Random(seed)

    def point() -> bytes:
        return hash_to_point(rng.randbytes(32)) if rng.random() < valid_share else rng.randbytes(32)

    inp = D.card_points(SESSION, "dev", 0, SMALL_POOL)
    cards = [point() for _ in range(6)]
    commitments = [b"".join(point() for _ in range(7)) for _ in range(64)]
    openings = [rng.randbytes(32) + bytes(rng.sample(range(6), 6)) for _ in range(64)]
    fault = D.check_shuffle(SESSION, 0, "dev", 0, inp, point(), cards, [commitments, openings])
    assert fault is not None and fault.rule in (D.RULE_SHUFFLE_POINTS, D.RULE_EQUAL_CARDS, D.RULE_SHUFFLE_PROOF)


def test_random_valid_points_with_a_random_proof_fail_the_proof(small_game):
    """Well-shaped, valid points everywhere, shadows of valid points: only the proof can refuse it."""
    g = small_game
    s, deck_in, frame = g.shuffles[0]
    rng = random.Random(3)
    fake = [hash_to_point(rng.randbytes(32)) for _ in range(6)]
    commitments = [b"".join(hash_to_point(rng.randbytes(32)) for _ in range(7)) for _ in range(64)]
    openings = [scalar_from_int(rng.randrange(1, ORDER)) + bytes(rng.sample(range(6), 6)) for _ in range(64)]
    fault = D.check_shuffle(SESSION, s, g.deck, g.epoch, deck_in, frame.public, fake, [commitments, openings])
    assert fault is not None and fault.rule == D.RULE_SHUFFLE_PROOF and fault.reason.startswith("shadow 0 ")


def test_shuffle_body_fits_the_codec_limits(honest_game):
    s, deck_in, frame = honest_game.shuffles[0]
    body = ["dev", 0, frame.public, list(frame.cards), frame.proof.to_wire()]
    data = encode(body)
    decoded = decode(data, DEFAULT_LIMITS)
    assert D.ShuffleProof.from_wire(decoded[4], 25) == frame.proof
    assert D.check_shuffle(SESSION, s, "dev", 0, deck_in, decoded[2], decoded[3], decoded[4]) is None
    assert max(len(b) for b in frame.proof.commitments) == 32 * 26
    assert len(data) < 60_000  # 56,896 bytes of bins plus headers and the cards


# --------------------------------------------------------------------------------------- strips, releases, spoiled


def test_wrong_strip_is_caught(small_game):
    g = small_game
    pos, v = 2, g.current[2]
    key = D.deck_key(SEEDS[1], SESSION, 1, g.deck, g.epoch)
    honest = D.strip(SEEDS[1], SESSION, 1, g.deck, g.epoch, pos, v)
    assert D.check_strip(SESSION, 1, g.deck, g.epoch, pos, g.publics[1], v, honest.value, honest.proof) is None
    ctx = D.deck_context(SESSION, "strip", 1, g.deck, g.epoch, pos)
    # a value that is not k⁻¹·V, with the best proof the key can make for it
    wrong = mul(invert(key), g.current[3])
    proof = D.dleq_prove(SEEDS[1], key, BASE, g.publics[1], wrong, v, ctx)
    fault = D.check_strip(SESSION, 1, g.deck, g.epoch, pos, g.publics[1], v, wrong, proof)
    assert fault is not None and fault.rule == D.RULE_STRIP_PROOF and "position 2" in fault.reason
    # stripped with another key and proven for it, checked against the seat's P
    other = D.strip(SEEDS[2], SESSION, 1, g.deck, g.epoch, pos, v)
    assert D.check_strip(SESSION, 1, g.deck, g.epoch, pos, g.publics[1], v, other.value,
                         other.proof).rule == D.RULE_STRIP_PROOF
    # the honest value with the honest proof against the wrong V
    assert D.check_strip(SESSION, 1, g.deck, g.epoch, pos, g.publics[1], g.current[3], honest.value,
                         honest.proof).rule == D.RULE_STRIP_PROOF


def test_strip_proof_for_another_context_is_caught(small_game):
    g = small_game
    pos, v = 2, g.current[2]
    honest = D.strip(SEEDS[1], SESSION, 1, g.deck, g.epoch, pos, v)

    def check(session=SESSION, seat=1, deck=g.deck, epoch=g.epoch, position=pos):
        return D.check_strip(session, seat, deck, epoch, position, g.publics[1], v, honest.value, honest.proof)

    assert check() is None
    for changed in (check(position=3), check(seat=2), check(deck="other"), check(epoch=1), check(session=bytes(16))):
        assert changed is not None and changed.rule == D.RULE_STRIP_PROOF
    # a release proof is no strip proof and vice versa
    rel = D.release(SEEDS[1], SESSION, 1, g.deck, g.epoch, pos, [v])
    assert rel.values[0] == honest.value and rel.proofs[0] != honest.proof
    assert D.check_strip(SESSION, 1, g.deck, g.epoch, pos, g.publics[1], v, rel.values[0],
                         rel.proofs[0]).rule == D.RULE_STRIP_PROOF


def test_strip_garbage_is_refused_without_exceptions(small_game):
    g = small_game
    pos, v = 1, g.current[1]
    honest = D.strip(SEEDS[2], SESSION, 2, g.deck, g.epoch, pos, v)
    c, s = honest.proof[:32], honest.proof[32:]

    def check(value=honest.value, proof=honest.proof, public=g.publics[2], v_in=v):
        return D.check_strip(SESSION, 2, g.deck, g.epoch, pos, public, v_in, value, proof)

    assert check() is None
    assert check(value=honest.value[:31]).rule == D.RULE_FORMAT
    assert check(value=None).rule == D.RULE_FORMAT
    assert check(proof=honest.proof + b"\x00").rule == D.RULE_FORMAT
    assert check(proof=list(honest.proof)).rule == D.RULE_FORMAT
    for bad in bad_points():
        assert check(value=bad).rule == D.RULE_STRIP_PROOF
        assert check(public=bad).rule == D.RULE_STRIP_PROOF
    assert check(proof=c + (int.from_bytes(s, "little") + ORDER).to_bytes(32, "little")).rule == D.RULE_STRIP_PROOF
    assert check(proof=bytes(32) + s).rule == D.RULE_STRIP_PROOF
    assert check(proof=c + bytes(32)).rule == D.RULE_STRIP_PROOF


@settings(max_examples=150, deadline=None)
@given(garbage, garbage, garbage, garbage)
def test_layer_off_verifiers_never_raise_on_garbage(public, v_in, value, proof):
    table = D.card_table(SESSION, "dev", 0, SMALL_POOL)
    assert D.check_strip(SESSION, 0, "dev", 0, 0, public, v_in, value, proof) is not None
    assert D.check_spoiled(SESSION, 0, "dev", 0, 0, public, v_in, value, proof, table) is not None
    assert D.dleq_verify(public, v_in, value, proof, proof, b"ctx") is False
    entry = D.Release.from_wire([public, v_in, value, proof, proof])
    assert isinstance(entry, D.DeckFault | D.Release)
    entry = D.Release.from_wire(["dev", 0, 0, [value, v_in], [proof, proof]])
    if isinstance(entry, D.Release):
        assert D.check_release(SESSION, 0, public, entry, [v_in, v_in]) is not None  # type: ignore[list-item]
    parsed = D.ShuffleProof.from_wire([value, proof], 6)
    assert isinstance(parsed, D.DeckFault)


def test_release_with_one_wrong_value_is_caught(small_game):
    g = small_game
    first, undealt = 1, tuple(g.current[1:])
    entry = D.release(SEEDS[2], SESSION, 2, g.deck, g.epoch, first, undealt)
    assert D.check_release(SESSION, 2, g.publics[2], entry, undealt) is None
    values = list(entry.values)
    values[2] = values[3]
    forged = D.Release(entry.deck, entry.epoch, first, tuple(values), entry.proofs)
    assert D.check_release(SESSION, 2, g.publics[2], forged, undealt) == D.DeckFault(
        D.RULE_RELEASE_PROOF, "position 3: the proof does not show value = k⁻¹·V for the k of the seat's P")
    # a shifted release (values and proofs of the right positions claimed for others)
    shifted = D.Release(entry.deck, entry.epoch, first + 1, entry.values, entry.proofs)
    assert D.check_release(SESSION, 2, g.publics[2], shifted, undealt).rule == D.RULE_RELEASE_PROOF
    assert D.check_release(SESSION, 2, g.publics[2], entry, undealt[:-1]).rule == D.RULE_FORMAT
    assert D.check_release(SESSION, 1, g.publics[1], entry, undealt).rule == D.RULE_RELEASE_PROOF
    for bad_wire in ([], ["dev", 0, 1, [], []], ["dev", -1, 1, values, list(entry.proofs)],
                     ["dev", 0, 1, values, list(entry.proofs)[:-1]], [b"dev", 0, 1, values, list(entry.proofs)],
                     ["dev", 0, 1, values[:-1] + [values[-1][:5]], list(entry.proofs)]):
        assert D.Release.from_wire(bad_wire).rule == D.RULE_FORMAT
    with pytest.raises(ValueError):
        D.release(SEEDS[2], SESSION, 2, g.deck, g.epoch, 6, ())


def test_false_spoiled_claim_is_caught(small_game):
    g = small_game
    pos, value = 0, g.current[0]
    for s in (1, 2):
        value = D.strip(SEEDS[s], SESSION, s, g.deck, g.epoch, pos, value).value
    table = D.card_table(SESSION, g.deck, g.epoch, g.pool)
    drawn = D.draw(SEEDS[0], SESSION, 0, g.deck, g.epoch, value, table)
    assert drawn.card is not None
    claim = D.spoil(SEEDS[0], SESSION, 0, g.deck, g.epoch, pos, value)
    fault = D.check_spoiled(SESSION, 0, g.deck, g.epoch, pos, g.publics[0], value, claim.value, claim.proof, table)
    assert fault is not None and fault.rule == D.RULE_SPOILED_CARD and f"card {drawn.card[0]}" in fault.reason
    # a made-up point with a proof the key cannot make true
    fake = hash_to_point(b"f" * 32)
    key = D.deck_key(SEEDS[0], SESSION, 0, g.deck, g.epoch)
    proof = D.dleq_prove(SEEDS[0], key, BASE, g.publics[0], fake, value,
                         D.deck_context(SESSION, "spoiled", 0, g.deck, g.epoch, pos))
    fault = D.check_spoiled(SESSION, 0, g.deck, g.epoch, pos, g.publics[0], value, fake, proof, table)
    assert fault is not None and fault.rule == D.RULE_SPOILED_PROOF
    # a strip proof of the same statement is not a spoiled proof
    as_strip = D.strip(SEEDS[0], SESSION, 0, g.deck, g.epoch, pos, value)
    fault = D.check_spoiled(SESSION, 0, g.deck, g.epoch, pos, g.publics[0], value, as_strip.value, as_strip.proof,
                            table)
    assert fault is not None and fault.rule == D.RULE_SPOILED_PROOF
    assert D.audit_spoiled(SEEDS[0], SESSION, 0, g.deck, g.epoch, pos, value, fake).rule == D.RULE_SPOILED

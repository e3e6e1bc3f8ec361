"""A log a player can read (issue 27, items 9 and 13): the whole game in words, the player named once,
no "node 31" or "seat 2", production after each roll, a steal named for the thief and the victim and
"a card" for the others, a barbarian attack announced; the same story on a local table, a networked
one (from the ledger's events) and in the replay viewer."""

from __future__ import annotations

import random
import re

import pytest

import bots
import engines
from client.story.catan import Places, cards_text
from client.story.narrator import Narrator
from client.story.record import Chronicle, LiveChronicle, from_stepper
from engines.core import HIDDEN
from engines.referee import Referee
from replays.local import SignedMatch

NAMES = ["ann", "bob", "cy"]
RAW = re.compile(r"\bseat \d|\bnode \d|\bedge \d|\bh\d+\b|\(\d+-\d+\)")


def players_of(gid: str) -> int:
    return 3 if gid.startswith("catan") else engines.get(gid).players[0]


def narrate(gid: str, me: int | None, seed: int = 4, limit: int = 4000, all_known: bool = False):
    """A seeded smart-bot game told from `me`'s knowledge (None: the spectator's)."""
    game = engines.get(gid)
    n = players_of(gid)
    referee = Referee(game, n, {}, seed, check_views=False)
    start = referee.state_of(me) if me is not None else referee.state
    narrator = Narrator(game, start, NAMES[:n], me, all_known)
    seated = bots.make(gid, ["random" if gid == "ploc" else "smart"], n)   # Ploc's smart bot is slow
    rng = random.Random(seed)
    for _ in range(limit):
        waiting = referee.awaiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            step = referee.feed_chance()
            owner = waiting.chance.private_to
            narrator.feed("chance", owner, step.value if all_known or owner is None or owner == me else HIDDEN)
            continue
        seat = referee.awaited_seats()[0]
        action = seated[seat].choose(game, referee.state_of(seat), seat, referee.legal(seat), rng)
        for step in referee.submit(seat, action):
            hidden = waiting.secret and step.seat != me and not all_known
            narrator.feed("play", step.seat, HIDDEN if hidden else step.value)
    return narrator.entries


@pytest.mark.parametrize("gid", sorted(engines.GAMES))
def test_every_game_reads_in_words_with_names_once(gid):
    entries = narrate(gid, 0)
    assert entries
    for entry in entries:
        text = entry.text
        assert text and text[0].isupper(), text
        assert not RAW.search(text), f"{gid}: a raw number in {text!r}"
        first = text.split(" ")[0].rstrip(":")
        assert not re.match(rf"^{re.escape(first)}:? {re.escape(first)}\b", text, re.I), f"name twice: {text!r}"
    if gid.startswith("catan"):
        verbs = ("settle", "road", "city", "knight", "activate", "wall", "promote", "chase", "robber", "steal")
        assert not any(re.search(rf":\s*({'|'.join(verbs)}) \d", e.text) for e in entries)


def test_catan_places_are_named_by_their_hexes():
    game = engines.get("catan")
    places = Places(game.view(game.start(3, {}), None))
    assert places.corner(44) == "the 3-ore-5-brick-6-grain corner"
    assert places.corner(0) == "the 10-ore coast corner by the 3:1 harbour"
    assert places.road(56) == "the road between the 3-ore and the 5-brick"
    assert places.hex(4) == "the 6-brick hex" and places.hex(9) == "the desert"
    assert cards_text("3brick+1lumber+1grain") == "3 brick, 1 lumber and 1 grain"


def test_catan_rolls_say_what_they_produced():
    entries = narrate("catan", 0)
    rolls = [i for i, e in enumerate(entries) if e.kind == "roll"]
    assert len(rolls) > 10
    for i in rolls:
        after = entries[i + 1]
        assert after.kind == "gain" and re.search(r"gets? \d+ |Nothing is produced|A seven", after.text), after
    assert any(re.search(r"You get \d+ (brick|lumber|wool|grain|ore)", e.text) for e in entries)


def test_a_steal_is_named_for_the_thief_and_the_victim_only():
    told = {me: [e for e in narrate("catan", me, seed=1) if e.kind == "gain" and " steal" in e.text]
            for me in (0, 1, 2)}
    assert all(told.values()), "no steal in the seeded game"
    for me, steals in told.items():
        for line in steals:
            involved = line.text.startswith("You steal") or line.text.endswith("from you")
            named = re.search(r"steals? \d+ (brick|lumber|wool|grain|ore)", line.text)
            assert bool(named) == involved, (me, line.text)
            if not involved:
                assert "steals a card from" in line.text
    revealed = [e for e in narrate("catan", None, seed=1, all_known=True) if " steal" in e.text]
    assert all(re.search(r"steals \d+ ", e.text) for e in revealed), "the revealed replay names every steal"


def test_a_barbarian_attack_is_announced():
    entries = narrate("catan-ck", 0, seed=4)
    attacks = [e for e in entries if e.kind == "alarm"]
    assert attacks, "no attack in the seeded C&K game"
    for attack in attacks:
        assert re.match(r"The barbarians attack: \d+ cit(y|ies) against \d+ knight strength", attack.text)
        assert "the barbarians win" in attack.text or "Catan is saved" in attack.text
    assert any("lose" in a.text for a in attacks) or any("Defender" in a.text for a in attacks)


def test_secret_choices_and_draws_stay_secret():
    entries = narrate("turning-tides", 0)
    assert any(e.text == "Bob chooses in secret" for e in entries)
    assert any(e.text == "Bob draws in secret" for e in entries)
    ploc = narrate("ploc", 1)
    assert any(e.text.startswith("You ") for e in ploc) and any(e.text.startswith("Ann ") for e in ploc)


class _Net:
    """A NetController's `record_since` over a seat's ledger of a signed match played step by step."""

    def __init__(self, match: SignedMatch, seat: int):
        self.match, self.seat_ = match, seat
        self.game = match.game
        self.names = NAMES[:match.players]

    def record_since(self, frames: int, events: int, peek: bool = False):
        ledger = self.match.ledgers[self.seat_]
        if peek:
            return ledger.header, self.seat_, [], []
        return ledger.header, self.seat_, ledger.frames[frames:], ledger.events[events:]


def test_a_networked_table_tells_the_story_from_its_ledger_and_proves_its_rolls():
    match = SignedMatch("catan", bots.make("catan", ["smart"], 3), seed=2, players=3, reproducible=True)
    ctl = _Net(match, 1)
    live = LiveChronicle()
    for _ in range(400):   # the table polls while frames arrive
        match.step()
        live.update(ctl)
    chron = live.update(ctl)
    assert chron.events_fed == len(match.ledgers[1].events)
    assert any(e.text.startswith("You ") for e in chron.entries)
    assert chron.rolls and all(chron.proof(r).ok for r in chron.rolls)
    # the same game told from the replay's frames as seat 1 saw it
    replayed = Chronicle(match.game, match.game.start(3, match.header.option_dict), NAMES, 1)
    for event in match.ledgers[1].events:
        replayed.feed_event(event, event.value)
    assert [e.text for e in replayed.entries] == [e.text for e in chron.entries]


def test_the_viewer_story_follows_the_view_mode(tmp_path):
    from replays.local import record_match
    from replays.stepping import Stepper

    record = record_match("catan", bots.make("catan", ["smart"], 3), seed=1, players=3, directory=tmp_path,
                          options={"max_rounds": "25"})
    st = Stepper.load(record.path)
    revealed = from_stepper(st, "revealed")
    spectator = from_stepper(st, "spectator")
    draws = [e for e in revealed.entries if e.kind == "secret" and " draws " in e.text]
    assert draws and all(re.search(r"draws (knight|monopoly|road building|victory point|year of plenty)", e.text)
                         for e in draws)
    assert not any(" draws " in e.text for e in spectator.entries), "the spectator never sees a card drawn"
    assert len(revealed.rolls) == len(spectator.rolls) > 10


def test_a_log_that_cannot_follow_says_so_and_never_raises():
    game = engines.get("catan")
    chron = Chronicle(game, game.start(3, {}), NAMES, 0)
    chron.feed("play", 0, "settle 44")
    chron.feed("play", 0, "fly to the moon")   # an action the engine refuses: the log stops, the table goes on
    chron.feed("play", 1, "settle 10")
    assert chron.broken and chron.events_fed == 3
    assert chron.entries[-1].kind == "note" and "cannot follow" in chron.entries[-1].text

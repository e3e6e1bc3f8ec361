"""The game descriptors (engines/descriptor.py): every engine package is found by scanning engines/, what each
declares about chance and secrets is what its games do when bots play them, and a game that ships only its
engine gets the generic part of every other layer (the random bot, the text renderer, the generic words, its
id's rules page, a place in the simulator's mix after the games drawn before descriptors)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from support import quick

import bots
import engines
from bots.lib import RandomBot
from bots.selfplay import play_match
from client.games import has_renderer, renderer_for
from client.games.text import TextRenderer
from client.scenes.rules import rules_path
from client.story.games import words_class
from client.story.words import Words
from engines.core import Awaiting, Capabilities, Descriptor, Game, Mix, Result, Rules, State
from simulator import run

ENGINES = Path(engines.__file__).resolve().parent
#: seeds per seat count and bot; both bots play, since a smart bot reaches what a random one seldom does
SEEDS = (1, 2)


def test_every_engine_package_is_a_discovered_family() -> None:
    packages = {p.parent.name for p in ENGINES.glob("*/__init__.py")}
    assert {d.family for d in engines.DESCRIPTORS.values()} == packages
    assert list(engines.GAMES) == sorted(engines.GAMES)
    for gid, d in engines.DESCRIPTORS.items():
        assert d.id == gid and engines.get(gid) is d.game and engines.describe(gid) is d
        assert d.seats == d.game.players and d.title == d.game.title and d.options == d.game.options
    with pytest.raises(engines.UnknownGame, match="known: catan, "):
        engines.describe("no-such-game")


def _met(game: Game, players: int, seed: int, bot: str) -> Capabilities:
    """The capabilities one seeded bot game shows: every awaited chance point and simultaneous step."""
    chance: set[str] = set()
    secrets: set[str] = set()
    decks: set[str] = set()
    simultaneous = turns = False

    def see(state: State) -> None:
        nonlocal simultaneous, turns
        waiting = game.awaiting(state)
        turns = turns or waiting.kind == "move"
        if waiting.kind == "simultaneous":
            simultaneous = True
            if waiting.secret:
                secrets.add("step")
        elif waiting.kind == "chance" and waiting.chance is not None:
            c = waiting.chance
            chance.add(c.kind)
            if c.kind == "deal":
                secrets.add("deal")
                decks.add(c.deck)
            elif c.kind == "show":
                secrets.add("look")
            elif c.private_to is not None:
                secrets.add("private")

    options = quick.options(game.id)
    see(game.start(players, options))
    play_match(game, bots.make(game.id, [bot], players), seed, players, options, check_views=False,
               on_step=lambda state, _step: see(state))
    return Capabilities(frozenset(chance), frozenset(secrets), simultaneous, frozenset(decks), turns)


@pytest.mark.parametrize("game_id", sorted(engines.GAMES))
def test_the_capabilities_declared_are_those_the_games_meet(game_id: str) -> None:
    """Met and declared are equal: a capability met but not declared would leave the attacks its frames
    invite untried (tests/test_attacks_ledger.py reads the frame kinds from the declaration), and one declared
    but never met in these games is a wrong declaration or a part the bots never reach."""
    d = engines.describe(game_id)
    seen = Capabilities(turns=False)
    for players in d.seats:
        for seed in SEEDS:
            for bot in ("random", "smart"):
                met = _met(d.game, players, seed, bot)
                seen = Capabilities(seen.chance | met.chance, seen.secrets | met.secrets,
                                    seen.simultaneous or met.simultaneous, seen.decks | met.decks,
                                    seen.turns or met.turns)
    assert seen == d.capabilities, f"engines/{d.family}/__init__.py declares {d.capabilities}, the games met {seen}"


def test_a_declaration_that_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown chance kind coin"):
        Capabilities(chance=("coin",))
    with pytest.raises(ValueError, match="unknown secret kind"):
        Capabilities(secrets=("hand",))
    with pytest.raises(ValueError, match="simultaneous=True"):
        Capabilities(secrets=("step",))
    with pytest.raises(ValueError, match="decks are named"):
        Capabilities(chance=("deal",))
    with pytest.raises(ValueError, match="decks are named"):
        Capabilities(decks=("hand",))
    caps = Capabilities(chance=["pick", "deal"], secrets=["deal"], decks=["stock"])
    assert caps.chance == {"pick", "deal"} and caps.deck and not Capabilities().deck


@dataclass(frozen=True, slots=True)
class _Count:
    total: int = 0
    to_move: int = 0


class _Race(Rules[_Count]):
    """Count to 3 by ones or twos; whoever says 3 wins: a game with nothing but its engine."""

    id, title, players = "zz-bare-race", "Bare race", (2,)

    def start(self, players, options):
        return _Count()

    def awaiting(self, inner):
        return Awaiting("move", (inner.to_move,))

    def legal(self, inner, seat):
        return [f"say {inner.total + k}" for k in (1, 2) if inner.total + k <= 3]

    def play(self, inner, seat, action):
        return _Count(int(action.split()[1]), 1 - seat)

    def result(self, inner):
        if inner.total < 3:
            return None
        winner = 1 - inner.to_move
        return Result((winner,), tuple(int(s == winner) for s in (0, 1)), "said three")

    def public(self, inner):
        return (inner.total, inner.to_move)

    def view(self, inner, seat):
        return {"total": inner.total, "to_move": inner.to_move}


def test_a_game_with_only_its_engine_gets_every_generic_part(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = Descriptor(Game(_Race()), mix=Mix(weight=2, quick=0), family="zzbare")
    monkeypatch.setitem(engines.DESCRIPTORS, bare.id, bare)
    monkeypatch.setitem(engines.GAMES, bare.id, bare.game)
    assert bots.for_game(bare.id) == dict.fromkeys(("random", "smart", "easy", "medium", "hard"), RandomBot)
    record = play_match(bare.game, bots.make(bare.id, ["smart"], 2), 1, 2)
    assert record.result is not None and record.result.reason == "said three"
    assert not has_renderer(bare.id) and isinstance(renderer_for(bare.id), TextRenderer)
    assert words_class(bare.id) is Words and words_class("catan") is not Words
    assert rules_path(bare.id).name == f"{bare.id}.md"
    assert rules_path("madagaskar").name == "kidd.md" and rules_path("ebbe-flut-solo").name == "ebbe-flut.md"
    full, quick_mix = run._mix(quick=False), run._mix(quick=True)
    assert list(full)[-1] == bare.id and full[bare.id] == 2 and bare.id not in quick_mix   # quick=0: never there
    assert list(full)[:-1] == list(run.GAMES) and run._expected_frames(bare.id) == 120


def test_a_game_put_in_games_by_hand_is_described_with_no_family(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' and benchmarks' toy games are put in `engines.GAMES` alone: they keep working, generically."""
    game = Game(type("_HandRace", (_Race,), {"id": "zz-hand-race"})())
    monkeypatch.setitem(engines.GAMES, game.id, game)
    d = engines.describe(game.id)
    assert d.game is game and d.family == "" and d.mix is None and d.capabilities == Capabilities()
    assert bots.for_game(game.id)["smart"] is RandomBot and isinstance(renderer_for(game.id), TextRenderer)
    assert words_class(game.id) is Words and game.id not in run._mix(quick=False)

"""Dice you can trust, visibly (issue 27, item 8): every roll in a history, a histogram against fair
dice with a test in words, and for any roll the proof behind it recomputed by the client from the
signed frames (who committed what, revealed when, the value derived); a forged value is caught."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import dataclasses
from pathlib import Path

import pygame
import pytest
from support import quick
from support.clickplay import _click

import bots
from client.app import App
from client.dice import Histogram, Roll, fairness, histograms, pooled, tile_text
from client.scenes.viewer import ViewerScene
from client.story.record import from_stepper
from client.ui import textfit
from replays.local import record_match
from replays.proof import Proofs
from replays.stepping import Stepper

ARTIFACTS = Path(__file__).parent / "artifacts"
SIZES = [(1024, 600), (1280, 720), (1920, 1080)]


@pytest.fixture(scope="module")
def replays(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("dice")
    out = {}
    for gid, players, stop in (("catan", 3, None), ("catan-ck", 3, 300), ("quedah-merchant", 2, None),
                               ("turning-tides", 2, None)):
        options = quick.options(gid)
        bot = "random" if gid == "catan-ck" else "smart"   # (C&K's smart bot is the slow one)
        out[gid] = record_match(gid, bots.make(gid, [bot], players), seed=3, players=players, options=options,
                                directory=folder, reproducible=True, stop_after=stop).path
    return out


def _roll(values, sides=(6, 6), number=1):
    return Roll(number, -1, 0, tuple(values), sides, "roll")


def test_histograms_follow_how_each_game_reads_its_dice():
    catan = histograms("catan", [_roll((1, 1)), _roll((6, 6)), _roll((3, 4))])
    assert [h.title for h in catan] == ["sum of the two dice"] and catan[0].counts[0] == 1 == catan[0].counts[-1]
    assert catan[0].counts[5] == 1 and abs(sum(catan[0].expected) - 3) < 1e-9
    ck = histograms("catan-ck", [_roll((2, 3, 1), (6, 6, 6)), _roll((5,), (6,)), _roll((6, 6, 6), (6, 6, 6))])
    assert [h.title for h in ck] == ["red + white", "event die"]
    assert ck[1].labels == ("ship", "trade", "politics", "science") and ck[1].counts == (1, 0, 1, 1)
    assert abs(ck[1].expected[0] - 1.5) < 1e-9
    ploc = histograms("ploc", [_roll((1, 2, 6), (6, 6, 6)), _roll((6,), (6,))])
    assert ploc[0].counts == (1, 1, 0, 0, 0, 2) and ploc[0].n == 4
    assert tile_text("catan-ck", _roll((2, 3, 6), (6, 6, 6))) == "5" and tile_text("ploc", _roll((1, 2, 6))) == "126"


def test_the_test_in_words_tells_fair_from_loaded():
    fair = histograms("catan", [_roll((a, b)) for a in range(1, 7) for b in range(1, 7)] * 4)[0]
    assert "as fair dice give" in fairness(fair) and "p = 1.00" in fairness(fair)
    loaded = histograms("catan", [_roll((3, 4))] * 60)[0]
    assert "very unusual" in fairness(loaded)
    assert "too few" in fairness(histograms("catan", [_roll((3, 4))] * 3)[0])
    assert fairness(Histogram("x", ("1",), (0,), (0.0,))) == "no rolls yet"
    bins = pooled((0, 1, 5, 9), (0.5, 1.0, 6.0, 9.0))
    assert sum(c for c, _ in bins) == 15 and min(e for _, e in bins) >= 5


@pytest.mark.parametrize("gid", ["catan", "catan-ck", "quedah-merchant", "turning-tides"])
def test_every_roll_is_proven_from_the_frames(gid, replays):
    st = Stepper.load(replays[gid])
    chron = from_stepper(st, "revealed")
    proofs = Proofs(st.header.session, st.header.players)
    proofs.read(st.frames)
    chances = [e for e in st.events if e.kind == "chance" and e.chance.kind in ("dice", "pick")]
    assert chances
    for event in chances:
        proof = proofs.proof(event)
        assert proof is not None and proof.ok and not proof.pending, (gid, event.at, proof.steps)
        assert proof.derived == (event.full if event.full is not None else event.value)
        assert {r.seat for r in proof.reveals} == {s for s, _ in event.contributions}
    if gid != "turning-tides":
        assert chron.rolls and all(chron.proof(r).ok for r in chron.rolls)


def test_a_forged_roll_or_contribution_is_caught(replays):
    st = Stepper.load(replays["catan"])
    proofs = Proofs(st.header.session, st.header.players)
    proofs.read(st.frames)
    roll = next(e for e in st.events if e.kind == "chance" and e.chance.kind == "dice")
    other = (roll.value[0] % 6 + 1, roll.value[1])
    forged = proofs.proof(dataclasses.replace(roll, value=other, full=other))
    assert not forged.ok and "the game applied" in forged.steps[-1][0] and not forged.steps[-1][1]
    seat, value = roll.contributions[0]
    swapped = dataclasses.replace(roll, contributions=((seat, bytes(32)),) + roll.contributions[1:])
    assert not proofs.proof(swapped).ok, "a value in no chain frame"
    # a chain value that does not hash onto the previous one
    bad = Proofs(st.header.session, st.header.players)
    first_chain = next(n for n, f in enumerate(st.frames) if f.kind == "chain")
    frames = list(st.frames)
    frames[first_chain] = dataclasses.replace(frames[first_chain], body=(bytes(32), frames[first_chain].body[1]))
    bad.read(frames)
    first_roll = next(e for e in st.events if e.kind == "chance" and e.at >= first_chain)
    assert not bad.proof(first_roll).ok


def test_a_private_draw_is_proven_only_once_its_seed_is_out(replays):
    st = Stepper.load(replays["turning-tides"])
    proofs = Proofs(st.header.session, st.header.players)
    before_seeds = [f for f in st.frames if f.kind != "seed"]
    proofs.read(before_seeds)
    private = next(e for e in st.events if e.kind == "chance" and e.seat is not None)
    early = proofs.proof(private)
    assert early.pending and early.derived is None
    done = Proofs(st.header.session, st.header.players)
    done.read(st.frames)
    assert done.proof(private).ok and not done.proof(private).pending


def _texts(app):
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    return frame


@pytest.mark.parametrize("size", SIZES)
def test_the_viewer_shows_the_dice_and_a_rolls_proof(size, replays):
    app = App(size)
    viewer = ViewerScene(Stepper.load(replays["catan"]))
    app.push(viewer)
    st = viewer.st
    st.seek(st.count * 2 // 3)
    app.step([], 16)
    _click(app, next(b for b in viewer.chronicle.buttons if b.key == "dice").rect.center)
    frame = _texts(app)
    texts = " ".join(w for kind, _, w in frame.items if kind == "text")
    assert "each proven from the signed frames" in texts and "fair dice" in texts
    assert not textfit.problems(frame), textfit.problems(frame)
    tiles = viewer.chronicle.dice.tiles
    assert tiles
    shown = [r for r in viewer.chronicle_of().rolls if r.position <= st.position]
    assert tiles[0][1] == shown[-1].number, "the latest roll up to this position comes first (on the right)"
    app.screenshot(ARTIFACTS / f"viewer-dice-{size[0]}.png")
    _click(app, tiles[0][0].center)
    frame = _texts(app)
    texts = [w for kind, _, w in frame.items if kind == "text"]
    assert any(t.startswith("ok ") and "revealed" in t for t in texts), texts
    assert any("value derived" in t for t in texts) and not textfit.problems(frame)
    app.screenshot(ARTIFACTS / f"viewer-dice-proof-{size[0]}.png")


def test_the_table_shows_the_dice_of_a_local_game(tmp_path):
    import random

    import engines
    from client.controller import LocalController
    from client.scenes.table import TableScene

    game = engines.get("catan")
    ctl = LocalController(game, 0, ["smart"], players=3, seed=3, bot_delay_ms=0)
    app = App((1280, 720))
    table = TableScene(ctl)
    app.push(table)
    helper = bots.make("catan", ["smart"], 3)[0]
    rng = random.Random(1)
    for _ in range(600):
        app.step([], 20)
        if ctl.legal():
            ctl.submit(helper.choose(game, ctl.referee.state_of(0), 0, ctl.legal(), rng))
        if len(table.live.chronicle.rolls if table.live.chronicle else []) >= 6:
            break
    chron = table.live.chronicle
    assert len(chron.rolls) >= 6
    assert [r.values for r in chron.rolls] == [s.value for s in ctl.referee.steps
                                               if s.kind == "chance" and isinstance(s.value, tuple)][:len(chron.rolls)]
    table.chronicle.tab = "dice"
    frame = _texts(app)
    assert not textfit.problems(frame)
    _click(app, table.chronicle.dice.tiles[0][0].center)
    texts = " ".join(w for kind, _, w in _texts(app).items if kind == "text")
    assert "a game on this machine alone" in texts
    assert pygame.display.get_surface() is not None

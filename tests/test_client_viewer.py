"""The replay viewer at lichess level (issue 15): moves in the game's words and clickable, one frame
numbering, the result on the last frame, the revealed view hiding nothing, seats named from the
header, a board that keeps its sides in every seat's view, and "play on from here" in a sandbox."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest
from support.clickplay import _click

import bots
from client.app import App
from client.scenes.table import TableScene
from client.scenes.viewer import ViewerScene
from client.ui import textfit
from replays.local import record_match
from replays.stepping import Stepper

ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def tides(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("replays")
    # reproducible keys and seeds: the same game in every run, so a test that seeks to a point meets
    # the same position each time
    return record_match("turning-tides", bots.make("turning-tides", ["smart", "random"], 2), seed=3,
                        directory=folder, reproducible=True).path


def _texts(app: App) -> list[str]:
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    return [words for kind, _, words in frame.items if kind == "text"]


def _open(path: Path, size=(1280, 720)) -> tuple[App, ViewerScene]:
    app = App(size)
    viewer = ViewerScene(Stepper.load(path))
    app.push(viewer)
    app.step([], 16)
    return app, viewer


def test_moves_in_words_clickable_and_one_numbering(tides):
    app, viewer = _open(tides)
    st = viewer.st
    moves = st.moves()
    assert len(moves) < st.count, "the move list is not the protocol frames"
    texts = _texts(app)
    assert not any("shares its next random value" in t or "commits a choice" in t for t in texts), texts
    story = viewer.chronicle_of().entries
    assert story and story[-1].text in texts, "the log ends with the game's last line, in words"
    # a click on a line of the log jumps to that move
    rect, position = viewer.chronicle.log.rows[len(viewer.chronicle.log.rows) // 2]
    _click(app, rect.center)
    assert st.position == position
    # one numbering: the timeline says frame k/N with k = the position after k frames
    st.seek_number(20)
    assert st.position == 19 and any(t.startswith("frame 20/") for t in _texts(app))
    st.seek_number(0)
    assert st.position == -1 and any(t.startswith("frame 0/") for t in _texts(app))
    # the frames are on a toggle, numbered the same way (#k moved the game to frame k)
    _click(app, next(b.rect for b in viewer.buttons if b.key == "frames").center)
    st.seek_number(5)
    assert any(t.startswith("#5 ") for t in _texts(app))


def test_the_last_frame_says_who_won_and_why(tides):
    app, viewer = _open(tides)
    viewer.st.seek(viewer.st.count - 1)
    texts = " ".join(_texts(app))
    result = viewer.st.ledger.result
    winner = viewer.st.names[result.winners[0]]
    assert f"{winner[:1].upper()}{winner[1:]} won" in texts and result.reason in texts, texts
    assert "(you)" not in texts, "a replay has no viewer's seat"
    app.screenshot(ARTIFACTS / "viewer-tides-end.png")


def test_revealed_means_every_secret_and_sides_stay_with_their_ships(tides):
    app, viewer = _open(tides)
    st = viewer.st
    st.seek(st.count // 2)
    st.set_mode("revealed")
    view = viewer._view()
    assert all("hand" in cards for cards in view["cards"]), "the revealed view hides a hand"
    texts = " ".join(_texts(app))
    assert "hidden" not in texts, texts
    names = st.names
    assert f"Gold: {names[0]}" in texts and f"Silver: {names[1]}" in texts
    st.set_mode("seat 1")
    renderer = viewer.renderer
    board = pygame.Rect(12, 46, 860, 540)
    lay = renderer._layout(board, viewer._view())
    hand = lay.hand
    assert hand and all(rect.centery < board.centery for _, rect in hand), "seat 1's hand sits by its ship (top)"
    app.step([], 16)
    app.screenshot(ARTIFACTS / "viewer-tides-seat1.png")


def test_play_on_from_here_opens_a_sandbox(tides):
    app, viewer = _open(tides)
    st = viewer.st
    st.seek(st.count // 3)
    app.step([], 16)
    fork = next(b for b in viewer.buttons if b.key == "fork")
    assert fork.enabled
    _click(app, fork.rect.center)
    table = app.scene
    assert isinstance(table, TableScene) and table.title.startswith("Sandbox: Turning Tides")
    state = st.state_at(st.position, "revealed")
    assert table.ctl.game.digest(table.ctl.start) == st.game.digest(state)  # (a chance point may resolve at once)
    # only the chance points pending at the fork resolve at once (a draw for each seat that awaits one);
    # no seat's move is ever played for it
    assert all(step.kind == "chance" for step in table.ctl.referee.steps), table.ctl.referee.steps
    for _ in range(400):
        app.step([], 50)
        if table.builder.candidates():
            break
    assert table.builder.candidates(), "the sandbox offers moves"
    app.screenshot(ARTIFACTS / "viewer-sandbox.png")
    st.seek(st.count - 1)
    app.pop()
    app.step([], 16)
    assert not next(b for b in viewer.buttons if b.key == "fork").enabled  # the game is over there


class _NoMark:
    """The viewer's renderer without `mark`: the same board, nothing outlined."""

    def __init__(self, renderer) -> None:
        self._renderer = renderer

    def __getattr__(self, name: str):
        if name == "mark":
            raise AttributeError(name)
        return getattr(self._renderer, name)


def _board(app: App, viewer: ViewerScene) -> bytes:
    """The board's pixels, drawn with the animations settled (ships in place, the cards turned)."""
    renderer = viewer.renderer
    inner = getattr(renderer, "_renderer", renderer)
    for _ in range(2):  # the first frame at a new position starts the card's turn: settle it
        if hasattr(inner, "reveal_ms"):
            inner.drawn, inner.reveal_ms = None, -10**9
        app.step([], 16)
    return pygame.image.tobytes(app.window.subsurface(viewer.board_rect), "RGB")


# the kinds of move each renderer outlines, and how many of them one recorded game must show at least
MARKED = {"ploc": (("elim", "elimw", "weaken", "swap", "allornothing", "reroll", "done"), 3),
          "turning-tides": (("pick", "sailor", "cannon", "move", "navigate", "swing", "fire", "promote", "exchange",
                             "damage"), 5)}


@pytest.mark.parametrize("gid", sorted(MARKED))
def test_the_last_move_is_outlined_on_the_board(gid, tides, tmp_path):
    path = tides if gid == "turning-tides" else record_match(
        gid, bots.make(gid, ["smart", "random"], 2), seed=3, directory=tmp_path).path
    app, viewer = _open(path)
    st = viewer.st
    st.set_mode("revealed")
    verbs, least = MARKED[gid]
    firsts = {}
    for move in st.moves():
        verb = str(move.action).split(" ")[0]
        done = st.moves_done(move.position)
        if move.kind == "play" and not move.hidden and verb in verbs and verb not in firsts \
                and st.moves()[done - 1] is move:
            firsts[verb] = move
        elif gid == "ploc" and move.kind == "play" and "turn-end" not in firsts and st.moves()[done - 1] is move \
                and not st.merged_view(move.position)["rolled"]:
            firsts["turn-end"] = move  # the free dice are gone: the column and the team are outlined
    assert len(firsts) >= least, sorted(firsts)
    renderer = viewer.renderer
    for verb, move in firsts.items():
        st.seek(move.position)
        viewer.renderer = _NoMark(renderer)
        plain = _board(app, viewer)
        assert _board(app, viewer) == plain, "the board is not steady"
        viewer.renderer = renderer
        marked = _board(app, viewer)
        assert marked != plain, f"{gid}: {move.action!r} is not outlined"
        app.screenshot(ARTIFACTS / f"viewer-{gid}-mark-{verb}.png")


def test_a_catan_sandbox_survives_development_cards(tmp_path):
    """Issue 27, item 1: "play from here" on a base Catan replay closed the whole app at the first
    development card bought (the sandbox dealt from a full deck). Forked after cards were dealt, the
    sandbox plays on through more purchases; the person's seat sees only its own cards."""
    import random

    record = record_match("catan", bots.make("catan", ["smart"], 3), seed=5, players=3, directory=tmp_path,
                          reproducible=True)
    app, viewer = _open(record.path)
    st = viewer.st
    dealt = [e.at for e in st.events if e.chance is not None and e.chance.kind == "deal"]
    assert len(dealt) >= 4
    st.seek(dealt[2])
    app.step([], 16)
    _click(app, next(b for b in viewer.buttons if b.key == "fork").rect.center)
    table = app.scene
    assert isinstance(table, TableScene)
    ctl = table.ctl
    ctl.bot_delay_ms = 0
    me = ctl.seat
    helper = bots.make("catan", ["smart"], 3)[me]
    rng = random.Random(1)
    bought = 0
    for _ in range(3000):
        app.step([], 50)
        if ctl.result() is not None or bought >= 2:
            break
        legal = ctl.legal()
        if legal:
            action = "buy" if "buy" in legal else helper.choose(ctl.game, ctl.referee.state_of(me), me, legal, rng)
            bought += action == "buy"
            ctl.submit(action)
    assert app.scene is table and app.running
    assert sum(len(cards) for cards in ctl.referee.dealt.values()) > 3, "no card was dealt in the sandbox"
    view = ctl.view()
    assert all("cards" not in entry for s, entry in enumerate(view["dev"]) if s != me)


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
def test_the_viewer_buttons_fit_their_captions_at_every_size(size, tides):
    """Issue 27, item 13: at 1920x1080 "switch view" and "next mark" were cut in their fixed widths."""
    app, viewer = _open(tides, size)
    viewer.st.seek(viewer.st.count // 2)
    with textfit.recording(app.size) as frame:
        app.step([], 16)
    buttons = [b for b in viewer.buttons + viewer.chronicle.buttons]
    assert len(buttons) >= 14
    for button in buttons:
        inside = [w for kind, rect, w in frame.items if kind == "text" and button.rect.contains(rect)]
        assert " ".join(inside) == button.label, (button.label, inside)   # whole, on two lines where one is short
    around = textfit.Frame(frame.size, [item for item in frame.items if not viewer.board_rect.contains(item[1])])
    assert not textfit.problems(around), textfit.problems(around)[:3]   # (the board is its renderer's own test)
    assert all(b.rect.right <= size[0] and b.rect.bottom <= size[1] for b in buttons)
    app.screenshot(ARTIFACTS / f"viewer-buttons-{size[0]}.png")
